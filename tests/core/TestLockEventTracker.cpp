// LockEventTracker (core/observe): the events told from successive views of one key, on a clock the test moves.
// What the views say is what a LockInspector reads from real nodes (its own tests cover the reads); here the
// instants: an expiry is dated when the lock's validity ran out, not when it was noticed.
#include "observe/LockEventTracker.h"
#include "support/ManualClock.h"

#include <QtTest>

using namespace redlock;

namespace {

constexpr qint64 kNsPerMs = 1'000'000;

// `token` held on the first `holding` of 3 nodes with `pttlMs` left, read at steady instant atNs.
LockView heldView(const QByteArray& key, const QByteArray& token, int holding, qint64 pttlMs, qint64 atNs)
{
    LockView v;
    v.key = key;
    v.quorum = 2;
    v.token = token;
    v.holders = holding;
    v.tokenCount = 1;
    v.verdict = holding >= 2 ? LockVerdict::Held : LockVerdict::Contested;
    v.observedAtNs = atNs;
    HolderInfo holder;
    holder.summary = QString::fromLatin1(token);
    v.holder = holder;
    for (int i = 0; i < 3; ++i) {
        NodeLockState s;
        if (i < holding) {
            s.presence = NodeLockState::Presence::Holding;
            s.token = token;
            s.pttlMs = pttlMs;
        } else {
            s.presence = NodeLockState::Presence::Absent;
        }
        v.nodes.append(s);
    }
    return v;
}

LockView freeView(const QByteArray& key, qint64 atNs)
{
    LockView v = heldView(key, {}, 0, -2, atNs);
    v.verdict = LockVerdict::Free;
    v.token.clear();
    v.tokenCount = 0;
    return v;
}

} // namespace

class TestLockEventTracker : public QObject
{
    Q_OBJECT

private slots:
    // The lock's validity ran out 5 s before the next view noticed it gone (the watcher was slow, a node did not
    // answer, the keyspace event was missed): Expired is dated when it ran out, on the wall clock.
    void expiryIsDatedWhenTheValidityEnded()
    {
        auto clock = std::make_shared<ManualClock>();
        LockEventTracker tracker(3, clock);
        const qint64 wallStart = QDateTime(QDate(2026, 11, 25), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();
        QList<LockEvent> events;
        const LockView held = heldView("orders:1", "tokA", 3, 10'000, clock->nowNs());
        tracker.derive("orders:1", nullptr, &held, wallStart, &events);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].kind, LockEvent::Kind::Acquired);
        QCOMPARE(events[0].atMs, wallStart);

        clock->advanceMs(15'000); // the validity ended 10 s in; the view that finds the key gone is 5 s later
        const LockView gone = freeView("orders:1", clock->nowNs());
        tracker.derive("orders:1", &held, &gone, wallStart + 15'000, &events);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].token, QByteArray("tokA"));
        QCOMPARE(events[1].atMs, wallStart + 10'000);
    }

    // A long first pass: the key was read with 100 ms left early in the pass and is "seen held" when the pass
    // ends, 3 s later. Found gone a second after that, its expiry is dated at the tenure's start at the earliest,
    // never before it (the history would show a tenure that ended before it began).
    void expiryNeverBeforeTheTenureBegan()
    {
        auto clock = std::make_shared<ManualClock>();
        LockEventTracker tracker(3, clock);
        const qint64 wall = 3'000'000'000'000;
        const LockView held = heldView("orders:4", "tokE", 3, 100, clock->nowNs());
        clock->advanceMs(3000); // the rest of the pass
        QList<LockEvent> events;
        tracker.derive("orders:4", nullptr, &held, wall, &events, LockEventTracker::Phase::Baseline);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].kind, LockEvent::Kind::SeenHeld);
        QCOMPARE(events[0].atMs, wall);
        clock->advanceMs(1000);
        const LockView gone = freeView("orders:4", clock->nowNs());
        tracker.derive("orders:4", &held, &gone, wall + 1000, &events);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].atMs, wall);
    }

    // Noticed within the slack before its end (the node expired it a few ms early by our clock): expired, dated
    // at detection, never later than it was seen; a release before the end stays dated at detection.
    void expiryNeverLaterThanDetectionAndReleaseAtDetection()
    {
        auto clock = std::make_shared<ManualClock>();
        LockEventTracker tracker(3, clock);
        const qint64 wall = 1'000'000'000'000;
        QList<LockEvent> events;
        const LockView held = heldView("orders:2", "tokB", 3, 1000, clock->nowNs());
        tracker.derive("orders:2", nullptr, &held, wall, &events);
        clock->advanceMs(980); // 20 ms before the end: within the slack
        const LockView gone = freeView("orders:2", clock->nowNs());
        tracker.derive("orders:2", &held, &gone, wall + 980, &events);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].atMs, wall + 980);

        const LockView again = heldView("orders:2", "tokC", 2, 60'000, clock->nowNs());
        tracker.derive("orders:2", &gone, &again, wall + 1000, &events);
        clock->advanceMs(3000);
        const LockView released = freeView("orders:2", clock->nowNs());
        tracker.derive("orders:2", &again, &released, wall + 4000, &events);
        QCOMPARE(events.size(), 4);
        QCOMPARE(events[3].kind, LockEvent::Kind::Released);
        QCOMPARE(events[3].atMs, wall + 4000);
    }

    // The quorum's end is the quorum-th largest PTTL: with holders at 4 s and 9 s of 3 nodes (quorum 2) it ends
    // at 4 s, when fewer than a quorum hold it, whatever the other node says.
    void expiryOfTheQuorumNotOfTheLongestNode()
    {
        auto clock = std::make_shared<ManualClock>();
        LockEventTracker tracker(3, clock);
        const qint64 wall = 2'000'000'000'000;
        LockView held = heldView("orders:3", "tokD", 2, 9000, clock->nowNs());
        held.nodes[1].pttlMs = 4000;
        QList<LockEvent> events;
        tracker.derive("orders:3", nullptr, &held, wall, &events);
        clock->advanceMs(12'000);
        const LockView gone = freeView("orders:3", clock->nowNs());
        tracker.derive("orders:3", &held, &gone, wall + 12'000, &events);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].atMs, wall + 4000);
    }
};

QTEST_GUILESS_MAIN(TestLockEventTracker)
#include "TestLockEventTracker.moc"
