#include "runtime/ClientName.h"

#include <QCoreApplication>

namespace redlock {

QByteArray applicationClientName(const char* role)
{
    QByteArray name = QCoreApplication::applicationName().toUtf8();
    if (name.isEmpty())
        name = QByteArrayLiteral("redlock");
    for (char& c : name) {
        // CLIENT SETNAME takes printable ASCII without spaces only.
        if (c <= ' ' || c > '~')
            c = '-';
    }
    return name + ':' + role;
}

} // namespace redlock
