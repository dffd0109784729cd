// core/observe/RescanBudget: the rescan's commands per second on each node, on instants the test gives (no nodes).
#include "observe/RescanBudget.h"

#include <QtTest>

using namespace redlock;

class TestRescanBudget : public QObject
{
    Q_OBJECT

private slots:
    void rescanBudgetPaysBackItsDebt()
    {
        RescanBudget budget(2);
        const QList<bool> both{true, true};
        budget.restart(0);
        QCOMPARE(budget.waitMs(0, 100, both), 0);
        budget.spend(0, 50); // 50 commands at 100/s: half a second of debt on node 0
        QCOMPARE(budget.waitMs(0, 100, both), 500);
        QCOMPARE(budget.waitMs(0, 100, {false, true}), 0); // an unreachable node's debt holds nothing up
        QCOMPARE(budget.waitMs(250'000'000, 100, both), 250);
        QCOMPARE(budget.waitMs(500'000'000, 100, both), 0);
        // Idle for 10 s: at most a tenth of a second's worth (10 commands) is saved up, not 1000.
        QCOMPARE(budget.waitMs(10'000'000'000, 100, both), 0);
        budget.spend(1, 11);
        QCOMPARE(budget.waitMs(10'000'000'000, 100, both), 10);
        // A new rescan starts with empty buckets.
        budget.restart(10'000'000'000);
        budget.spend(0, 1);
        QCOMPARE(budget.waitMs(10'000'000'000, 100, both), 10);
    }
};

QTEST_GUILESS_MAIN(TestRescanBudget)
#include "TestRescanBudget.moc"
