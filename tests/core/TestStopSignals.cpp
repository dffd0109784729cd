// core/runtime/StopSignals: SIGINT, SIGTERM and SIGHUP sent to this very process come out as received() on the
// event loop, and the process's previous handlers are back once it is gone.

#include "runtime/StopSignals.h"

#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <csignal>

#include <unistd.h>

using namespace redlock;

namespace {

std::atomic<int> g_previousHandlerCalls{0};

void previousHandler(int)
{
    g_previousHandlerCalls.fetch_add(1);
}

} // namespace

class TestStopSignals : public QObject
{
    Q_OBJECT

private slots:
    void eachStopSignalIsReceivedOnTheEventLoop_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGTERM") << SIGTERM;
        QTest::newRow("SIGINT") << SIGINT;
        QTest::newRow("SIGHUP") << SIGHUP;
    }

    void eachStopSignalIsReceivedOnTheEventLoop()
    {
        QFETCH(int, signalNumber);
        StopSignals stopSignals;
        QVERIFY2(stopSignals.isActive(), qPrintable(stopSignals.errorString()));
        QSignalSpy spy(&stopSignals, &StopSignals::received);
        // The process would die of it without the handler (SIGTERM, SIGINT and SIGHUP terminate by default).
        QCOMPARE(::kill(::getpid(), signalNumber), 0);
        QCOMPARE(spy.count(), 0); // not from inside the handler: from the event loop
        QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 10000);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), signalNumber);
    }

    void signalsBeforeTheLoopRunsAreNotLost()
    {
        StopSignals stopSignals;
        QVERIFY(stopSignals.isActive());
        QSignalSpy spy(&stopSignals, &StopSignals::received);
        QCOMPARE(::kill(::getpid(), SIGTERM), 0);
        QCOMPARE(::kill(::getpid(), SIGINT), 0);
        QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 2, 10000);
        QCOMPARE(spy.at(0).at(0).toInt(), SIGTERM);
        QCOMPARE(spy.at(1).at(0).toInt(), SIGINT);
    }

    void onlyOneAtATime()
    {
        StopSignals first;
        QVERIFY(first.isActive());
        StopSignals second;
        QVERIFY(!second.isActive());
        QVERIFY(!second.errorString().isEmpty());
    }

    void previousHandlersAreBackAfterwards()
    {
        struct sigaction mine = {};
        mine.sa_handler = previousHandler;
        sigemptyset(&mine.sa_mask);
        struct sigaction saved = {};
        QCOMPARE(::sigaction(SIGHUP, &mine, &saved), 0);
        const auto restore = qScopeGuard([&] { ::sigaction(SIGHUP, &saved, nullptr); });
        g_previousHandlerCalls = 0;
        {
            StopSignals stopSignals;
            QVERIFY(stopSignals.isActive());
            QSignalSpy spy(&stopSignals, &StopSignals::received);
            QCOMPARE(::kill(::getpid(), SIGHUP), 0);
            QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 10000);
            QCOMPARE(g_previousHandlerCalls.load(), 0); // taken over while it lives
        }
        QCOMPARE(::kill(::getpid(), SIGHUP), 0);
        QTRY_COMPARE_WITH_TIMEOUT(g_previousHandlerCalls.load(), 1, 10000);
        // And a new one can be made.
        StopSignals again;
        QVERIFY2(again.isActive(), qPrintable(again.errorString()));
    }
};

QTEST_GUILESS_MAIN(TestStopSignals)
#include "TestStopSignals.moc"
