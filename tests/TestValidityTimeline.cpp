#include "UiTestSupport.h"
#include "ValidityTimeline.h"

#include <QtTest>

using namespace redlock;

class TestValidityTimeline : public QObject
{
    Q_OBJECT

private slots:
    void linesFollowTheClock()
    {
        auto clock = std::make_shared<ShiftedClock>();
        ValidityTimeline timeline;
        timeline.setClock(clock);
        // PTTLs 10 9 8 7 6 s on five nodes: the quorum (3) of holders lasts 8 s; validity = 8000 - 80 - 2.
        const LockView view =
            makeLockView("k", {"t", "t", "t", "t", "t"}, {10000, 9000, 8000, 7000, 6000}, clock->nowNs());
        timeline.setLock(view, 0.01);
        QCOMPARE(timeline.quorumEndsInMs(), 8000);
        QCOMPARE(timeline.validityEndsInMs(), 8000 - 82);
        QCOMPARE(timeline.nodeExpiresInMs(4), 6000);
        clock->advanceMs(7000);
        QCOMPARE(timeline.quorumEndsInMs(), 1000);
        QCOMPARE(timeline.validityEndsInMs(), 1000 - 82);
        QCOMPARE(timeline.nodeExpiresInMs(4), 0);
        timeline.resize(500, 220);
        QVERIFY(!timeline.grab().isNull());
    }

    void noQuorumNoValidity()
    {
        ValidityTimeline timeline;
        timeline.setLock(makeLockView("k", {"a", "a", "b", "b", "!"}, {}), 0.01);
        QCOMPARE(timeline.quorumEndsInMs(), -1);
        QCOMPARE(timeline.validityEndsInMs(), -1);
        QVERIFY(timeline.nodeExpiresInMs(0) > 0);
        QCOMPARE(timeline.nodeExpiresInMs(4), -1);
    }
};

QTEST_MAIN(TestValidityTimeline)
#include "TestValidityTimeline.moc"
