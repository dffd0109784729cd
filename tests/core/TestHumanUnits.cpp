// core/runtime/HumanUnits: the one formatter of durations, countdowns and latencies, at every unit's edges, in the
// C locale (the console and the CLI use the default locale; the digits are QLocale's, the units the translation's).

#include "runtime/HumanUnits.h"

#include <QLocale>
#include <QtTest>

using namespace redlock;

class TestHumanUnits : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void duration_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("unknown") << qint64(-1) << QStringLiteral("—");
        QTest::newRow("far negative") << qint64(-3'600'000) << QStringLiteral("—");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0 ms");
        QTest::newRow("sub-second") << qint64(850) << QStringLiteral("850 ms");
        QTest::newRow("just under a second") << qint64(999) << QStringLiteral("999 ms");
        QTest::newRow("a second") << qint64(1000) << QStringLiteral("1.0 s");
        QTest::newRow("seconds") << qint64(1540) << QStringLiteral("1.5 s");
        QTest::newRow("just under a minute") << qint64(59'949) << QStringLiteral("59.9 s");
        QTest::newRow("a minute") << qint64(60'000) << QStringLiteral("1 min");
        QTest::newRow("minutes and seconds") << qint64(200'000) << QStringLiteral("3 min 20 s");
        QTest::newRow("seconds truncate") << qint64(61'999) << QStringLiteral("1 min 1 s");
        QTest::newRow("two hours, not 120 min") << qint64(7'200'000) << QStringLiteral("2 h");
        QTest::newRow("hours and minutes") << qint64(7'500'000) << QStringLiteral("2 h 5 min");
        QTest::newRow("just under a day") << qint64(86'399'999) << QStringLiteral("23 h 59 min");
        QTest::newRow("a day") << qint64(86'400'000) << QStringLiteral("1 d");
        QTest::newRow("days and hours") << qint64(3 * 86'400'000LL + 4 * 3'600'000LL) << QStringLiteral("3 d 4 h");
        QTest::newRow("years") << qint64(400 * 86'400'000LL) << QStringLiteral("400 d");
    }
    void duration()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(HumanUnits::duration(ms), text);
    }

    void remaining_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("no TTL") << qint64(-1) << QStringLiteral("—");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0.0 s");
        QTest::newRow("sub-second stays in seconds") << qint64(400) << QStringLiteral("0.4 s");
        QTest::newRow("seconds") << qint64(29'960) << QStringLiteral("30.0 s");
        QTest::newRow("minutes") << qint64(90'000) << QStringLiteral("1 min 30 s");
        QTest::newRow("two hours, not 120 min 0 s") << qint64(7'200'000) << QStringLiteral("2 h");
        QTest::newRow("days") << qint64(90'000'000) << QStringLiteral("1 d 1 h");
    }
    void remaining()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(HumanUnits::remaining(ms), text);
    }

    void latency_data()
    {
        QTest::addColumn<qint64>("us");
        QTest::addColumn<QString>("text");
        QTest::newRow("not measured") << qint64(-1) << QStringLiteral("—");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0.00 ms");
        QTest::newRow("sub-millisecond") << qint64(250) << QStringLiteral("0.25 ms");
        QTest::newRow("just under 10 ms") << qint64(9'999) << QStringLiteral("10.00 ms");
        QTest::newRow("10 ms") << qint64(10'000) << QStringLiteral("10 ms");
        QTest::newRow("whole ms truncate") << qint64(42'900) << QStringLiteral("42 ms");
        QTest::newRow("seconds stay in ms, no group separator") << qint64(2'500'000) << QStringLiteral("2500 ms");
    }
    void latency()
    {
        QFETCH(qint64, us);
        QFETCH(QString, text);
        QCOMPARE(HumanUnits::latency(us), text);
    }

    // The digits follow the default locale, as the models did before this formatter was shared.
    void digitsFollowTheLocale()
    {
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(HumanUnits::duration(1500), QStringLiteral("1,5 s"));
        QCOMPARE(HumanUnits::latency(250), QStringLiteral("0,25 ms"));
        QCOMPARE(HumanUnits::latency(2'500'000), QStringLiteral("2500 ms"));
        QLocale::setDefault(QLocale::c());
    }
};

QTEST_GUILESS_MAIN(TestHumanUnits)
#include "TestHumanUnits.moc"
