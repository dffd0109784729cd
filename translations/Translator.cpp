#include "translations/Translator.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace redlock {

bool installTranslations(const QString& language)
{
    const QString lang = language.isEmpty() ? QLocale::system().name() : language;
    if (lang == u"C" || lang == u"POSIX" || lang.startsWith(u"en"))
        return true;
    QCoreApplication* app = QCoreApplication::instance();
    auto* redlock = new QTranslator(app);
    if (!redlock->load(QStringLiteral(":/i18n/redlock_") + lang)) {
        delete redlock;
        return false;
    }
    auto* qt = new QTranslator(app);
    if (qt->load(QStringLiteral("qtbase_") + lang, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    QCoreApplication::installTranslator(redlock);
    return true;
}

} // namespace redlock
