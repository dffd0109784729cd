#include "history/JournalStoreCommon.h"

#include <QCoreApplication>
#include <QSysInfo>

namespace redlock::journal {

HistoryWriter thisWriter(const QString& source)
{
    return {source, QCoreApplication::applicationPid(), QSysInfo::machineHostName()};
}

} // namespace redlock::journal
