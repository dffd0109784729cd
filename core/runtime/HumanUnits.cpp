#include "runtime/HumanUnits.h"

#include <QCoreApplication>
#include <QLocale>

namespace redlock::HumanUnits {

namespace {

QString unknown()
{
    //: A duration or latency that is not known (not measured, no TTL).
    return QCoreApplication::translate("redlock::HumanUnits", "—");
}

QString milliseconds(const QString& number)
{
    //: Milliseconds, e.g. "850 ms" (a duration) or "0.25 ms" (a round trip).
    return QCoreApplication::translate("redlock::HumanUnits", "%1 ms").arg(number);
}

QString decimalSeconds(qint64 ms)
{
    //: A duration in seconds with one decimal, e.g. "1.5 s".
    return QCoreApplication::translate("redlock::HumanUnits", "%1 s")
        .arg(QLocale().toString(double(ms) / 1000.0, 'f', 1));
}

// Two units, the smaller one left out when it is zero.
QString twoUnits(qint64 s)
{
    if (s < 3600) {
        const qint64 min = s / 60, sec = s % 60;
        if (sec == 0)
            //: Whole minutes, e.g. "5 min".
            return QCoreApplication::translate("redlock::HumanUnits", "%1 min").arg(min);
        //: Minutes and seconds, e.g. "3 min 20 s".
        return QCoreApplication::translate("redlock::HumanUnits", "%1 min %2 s").arg(min).arg(sec);
    }
    if (s < 86400) {
        const qint64 h = s / 3600, min = (s % 3600) / 60;
        if (min == 0)
            //: Whole hours, e.g. "2 h".
            return QCoreApplication::translate("redlock::HumanUnits", "%1 h").arg(h);
        //: Hours and minutes, e.g. "2 h 5 min".
        return QCoreApplication::translate("redlock::HumanUnits", "%1 h %2 min").arg(h).arg(min);
    }
    const qint64 d = s / 86400, h = (s % 86400) / 3600;
    if (h == 0)
        //: Whole days, e.g. "3 d".
        return QCoreApplication::translate("redlock::HumanUnits", "%1 d").arg(d);
    //: Days and hours, e.g. "3 d 4 h".
    return QCoreApplication::translate("redlock::HumanUnits", "%1 d %2 h").arg(d).arg(h);
}

} // namespace

QString duration(qint64 ms)
{
    if (ms < 0)
        return unknown();
    if (ms < 1000)
        return milliseconds(QString::number(ms));
    if (ms < 60'000)
        return decimalSeconds(ms);
    return twoUnits(ms / 1000);
}

QString remaining(qint64 ms)
{
    if (ms < 0)
        return unknown();
    if (ms < 60'000)
        return decimalSeconds(ms);
    return twoUnits(ms / 1000);
}

QString latency(qint64 us)
{
    if (us < 0)
        return unknown();
    if (us < 10'000)
        return milliseconds(QLocale().toString(double(us) / 1000.0, 'f', 2));
    return milliseconds(QString::number(us / 1000));
}

} // namespace redlock::HumanUnits
