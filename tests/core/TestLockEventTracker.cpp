// LockEventTracker (core/observe): the events told from successive views of one key, on a clock the test moves.
// What the views say is what a LockInspector reads from real nodes (its own tests cover the reads); here the
// instants: an expiry is dated when the lock's validity ran out, not when it was noticed; and the causes: an end is
// named by the keyspace event Redis sent (del, expired, evicted), and without one only what is known is said.
#include "observe/LockEventTracker.h"
#include "support/ManualClock.h"

#include <QtTest>

using namespace redlock;

namespace {

constexpr qint64 kNsPerMs = 1'000'000;

// The keyspace events of a batch that named the key (LockInspector's flush after `expired`, `del`, ...).
LockEventTracker::Evidence told(quint8 names)
{
    return {true, names};
}
const LockEventTracker::Evidence kExpiredEvent = told(LockEventTracker::Evidence::Expired);

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
    v.holder = SharedHolder(holder);
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
        tracker.derive("orders:1", &held, &gone, wallStart + 15'000, &events, LockEventTracker::Phase::Watching,
                       kExpiredEvent);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].token, QByteArray("tokA"));
        QCOMPARE(events[1].atMs, wallStart + 10'000);
        QVERIFY(!events[1].endsUnobserved());
    }

    // A store keeps a view while later reads find it unchanged (LockInspector): judged again from that older read (its
    // verdict turning expiring), it leaves where and when the lock was last seen as the later read left them. Found
    // gone, the lock was last seen held by that later read, not by the older one.
    void aViewJudgedAgainFromAnOlderReadKeepsTheLaterSighting()
    {
        auto clock = std::make_shared<ManualClock>();
        LockEventTracker tracker(3, clock);
        const qint64 wall = 3'000'000'000'000;
        QList<LockEvent> events;
        const qint64 firstNs = clock->nowNs();
        const LockView first = heldView("orders:9", "tokF", 3, 30'000, firstNs);
        tracker.derive("orders:9", nullptr, &first, wall, &events);
        clock->advanceMs(20'000);
        const LockView later = heldView("orders:9", "tokF", 3, 10'000, clock->nowNs()); // ticked down: unchanged
        tracker.derive("orders:9", &first, &later, wall + 20'000, &events);
        clock->advanceMs(5'000);
        LockView expiring = first; // the stored view, judged again
        expiring.verdict = LockVerdict::Expiring;
        expiring.nodes[2].presence = NodeLockState::Presence::Absent; // and a node found without it
        tracker.derive("orders:9", &first, &expiring, wall + 25'000, &events);
        clock->advanceMs(1'000);
        const LockView gone = freeView("orders:9", clock->nowNs());
        tracker.derive("orders:9", &expiring, &gone, wall + 26'000, &events);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Released); // 4 s before its quorum's end as the later read saw it
        QCOMPARE(events[1].lastSeenHeldMs, wall + 20'000);
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
        tracker.derive("orders:4", &held, &gone, wall + 1000, &events, LockEventTracker::Phase::Watching,
                       kExpiredEvent);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].atMs, wall);
    }

    // Noticed within the slack before its end (the node expired it a few ms early by our clock): expired, dated
    // at detection, never later than it was seen; a release its `del` told stays dated at detection.
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
        tracker.derive("orders:2", &held, &gone, wall + 980, &events, LockEventTracker::Phase::Watching, kExpiredEvent);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].atMs, wall + 980);

        const LockView again = heldView("orders:2", "tokC", 2, 60'000, clock->nowNs());
        tracker.derive("orders:2", &gone, &again, wall + 1000, &events);
        clock->advanceMs(3000);
        const LockView released = freeView("orders:2", clock->nowNs());
        tracker.derive("orders:2", &again, &released, wall + 4000, &events, LockEventTracker::Phase::Watching,
                       told(LockEventTracker::Evidence::Deleted));
        QCOMPARE(events.size(), 4);
        QCOMPARE(events[3].kind, LockEvent::Kind::Released);
        QCOMPARE(events[3].atMs, wall + 4000);
        QVERIFY(!events[3].endsUnobserved());
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
        tracker.derive("orders:3", &held, &gone, wall + 12'000, &events, LockEventTracker::Phase::Watching,
                       kExpiredEvent);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::Expired);
        QCOMPARE(events[1].atMs, wall + 4000);
    }

    // Core N2: keyspace events off (Redis's default), a 3 s lock released by its holder after 208 ms, and the next
    // read comes after its TTL would have run out. Nothing tells a release from an expiry: "released or expired",
    // some time between the last read that saw it held and the read that found it gone; never "expired" dated at
    // the TTL's end (a made-up cause at a made-up instant, and a tenure lengthened to match).
    void anEndNobodySawIsReleasedOrExpiredBetweenTwoReads()
    {
        auto clock = std::make_shared<ManualClock>();
        LockEventTracker tracker(3, clock);
        const qint64 wall = 4'000'000'000'000;
        QList<LockEvent> events;
        const LockView held = heldView("orders:5", "tokF", 3, 3000, clock->nowNs());
        tracker.derive("orders:5", nullptr, &held, wall, &events);
        clock->advanceMs(100);
        const LockView seenAgain = heldView("orders:5", "tokF", 3, 2900, clock->nowNs());
        tracker.derive("orders:5", &held, &seenAgain, wall + 100, &events); // the last read that saw it held
        QCOMPARE(events.size(), 1);
        clock->advanceMs(4900); // released at +208 ms; the rescan finds it gone at +5000 ms
        const LockView gone = freeView("orders:5", clock->nowNs());
        tracker.derive("orders:5", &seenAgain, &gone, wall + 5000, &events);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[1].kind, LockEvent::Kind::ReleasedOrExpired);
        QCOMPARE(events[1].token, QByteArray("tokF"));
        QCOMPARE(events[1].lastSeenHeldMs, wall + 100);
        QCOMPARE(events[1].atMs, wall + 5000);

        // Found gone before its TTL could have run out: it cannot have expired, so it was released; when, between
        // the two reads, is still not known.
        const LockView again = heldView("orders:5", "tokG", 3, 60'000, clock->nowNs());
        tracker.derive("orders:5", &gone, &again, wall + 5000, &events);
        clock->advanceMs(2000);
        const LockView released = freeView("orders:5", clock->nowNs());
        tracker.derive("orders:5", &again, &released, wall + 7000, &events);
        QCOMPARE(events.size(), 4);
        QCOMPARE(events[3].kind, LockEvent::Kind::Released);
        QCOMPARE(events[3].lastSeenHeldMs, wall + 5000);
        QCOMPARE(events[3].atMs, wall + 7000);

        // A holder taken over between two reads: the change is between them too.
        const LockView first = heldView("orders:5", "tokH", 3, 60'000, clock->nowNs());
        tracker.derive("orders:5", &released, &first, wall + 7000, &events);
        clock->advanceMs(1000);
        const LockView second = heldView("orders:5", "tokI", 3, 60'000, clock->nowNs());
        tracker.derive("orders:5", &first, &second, wall + 8000, &events);
        QCOMPARE(events.size(), 6);
        QCOMPARE(events[5].kind, LockEvent::Kind::TokenChanged);
        QCOMPARE(events[5].lastSeenHeldMs, wall + 7000);
    }

    // With keyspace events the name Redis sent tells the cause, whatever the clock says: `del` after the TTL's end
    // by our clock is a release (the lock was deleted), `evicted` is an eviction, `expired` an expiry.
    void theEventNameTellsTheCause()
    {
        auto clock = std::make_shared<ManualClock>();
        LockEventTracker tracker(3, clock);
        const qint64 wall = 5'000'000'000'000;
        QList<LockEvent> events;
        const auto endWith = [&](const QByteArray& key, quint8 names) {
            const LockView held = heldView(key, "tok-" + key, 3, 1000, clock->nowNs());
            tracker.derive(key, nullptr, &held, wall, &events);
            clock->advanceMs(2000);
            const LockView gone = freeView(key, clock->nowNs());
            tracker.derive(key, &held, &gone, wall + 2000, &events, LockEventTracker::Phase::Watching, told(names));
            return events.last();
        };
        using Evidence = LockEventTracker::Evidence;
        const LockEvent released = endWith("k:del", Evidence::Deleted | Evidence::Other);
        QCOMPARE(released.kind, LockEvent::Kind::Released);
        QCOMPARE(released.atMs, wall + 2000);
        QVERIFY(!released.endsUnobserved());
        QCOMPARE(endWith("k:evicted", Evidence::Evicted).kind, LockEvent::Kind::Evicted);
        QCOMPARE(endWith("k:expired", Evidence::Expired).kind, LockEvent::Kind::Expired);
        // An event that names none of them (the key was overwritten) after the TTL's end: not known.
        const LockEvent other = endWith("k:set", Evidence::Other);
        QCOMPARE(other.kind, LockEvent::Kind::ReleasedOrExpired);
        QVERIFY(other.endsUnobserved());
        QCOMPARE(Evidence::nameFlag("del"), quint8(Evidence::Deleted));
        QCOMPARE(Evidence::nameFlag("unlink"), quint8(Evidence::Deleted));
        QCOMPARE(Evidence::nameFlag("expired"), quint8(Evidence::Expired));
        QCOMPARE(Evidence::nameFlag("evicted"), quint8(Evidence::Evicted));
        QCOMPARE(Evidence::nameFlag("set"), quint8(Evidence::Other));
    }

    // The last quorum a store keeps beside the key's packed view (LockInspector): given back exactly (but for a read
    // seen more than 2 s from the view's: to the millisecond below), the token from the view's own; null (kept aside,
    // whole, by the store) wherever it could not be.
    void keptQuorumIsExactOrNull()
    {
        using Last = LockEventTracker::LastQuorum;
        using Kept = LockEventTracker::KeptQuorum;
        const qint64 atNs = 7'000'000'123;
        LockView view = heldView("k:kept", "tok-1", 2, 1500, atNs);
        view.observedAtMs = 1'764'000'100'000; // the read's wall instant: the tenure began 100 s before
        view.nodes[2].presence = NodeLockState::Presence::Holding;
        view.nodes[2].token = "tok-2";
        const PackedLockView packed(view);
        auto same = [](const Last& a, const Last& b) {
            return a.token == b.token && a.endsNs == b.endsNs && a.seenAtNs == b.seenAtNs && a.nodeMask == b.nodeMask &&
                   a.sinceMs == b.sinceMs;
        };
        const Last held{"tok-1", atNs + 1400 * kNsPerMs, atNs, 0b011, 1'764'000'000'123};
        QVERIFY(same(Kept::pack(held, packed).unpack(packed), held));
        Last other = held; // another of the view's tokens, read earlier, and no end (no TTL)
        other.token = "tok-2";
        other.seenAtNs = atNs - 5;
        other.endsNs = 0;
        other.nodeMask = 0b100;
        QVERIFY(same(Kept::pack(other, packed).unpack(packed), other));
        Last empty = held; // an empty value is a token too
        empty.token.clear();
        QVERIFY(!Kept::pack(empty, packed).isNull());
        QVERIFY(same(Kept::pack(empty, packed).unpack(packed), empty));

        Last absent = held;
        absent.token = "tok-3"; // not among the view's tokens
        QVERIFY(Kept::pack(absent, packed).isNull());
        Last manyNodes = held;
        manyNodes.nodeMask = quint64(1) << 20;
        QVERIFY(Kept::pack(manyNodes, packed).isNull());
        Last notWholeMs = held;
        notWholeMs.endsNs += 1;
        QVERIFY(Kept::pack(notWholeMs, packed).isNull());
        Last longTtl = held;
        longTtl.endsNs = atNs + qint64(50) * 24 * 3600 * 1000 * kNsPerMs;
        QVERIFY(Kept::pack(longTtl, packed).isNull());
        Last seenJustBefore = held; // an earlier read than the view's, by up to 2 s: to the nanosecond
        seenJustBefore.seenAtNs = atNs - 2000 * kNsPerMs - 7;
        seenJustBefore.endsNs = seenJustBefore.seenAtNs + 1400 * kNsPerMs;
        QVERIFY(same(Kept::pack(seenJustBefore, packed).unpack(packed), seenJustBefore));
        // Further away (a view kept while later reads found the lock unchanged): the read that saw it to the
        // millisecond below, its quorum's end with it.
        auto floored = [](Last last, qint64 byNs) {
            last.seenAtNs -= byNs;
            last.endsNs -= byNs;
            return last;
        };
        Last seenLater = held;
        seenLater.seenAtNs = atNs + 3000 * kNsPerMs + 456;
        seenLater.endsNs = seenLater.seenAtNs + 1400 * kNsPerMs;
        QVERIFY(same(Kept::pack(seenLater, packed).unpack(packed), floored(seenLater, 456)));
        Last seenLongBefore = held;
        seenLongBefore.seenAtNs = atNs - 3000 * kNsPerMs - 5;
        seenLongBefore.endsNs = seenLongBefore.seenAtNs + 1400 * kNsPerMs;
        QVERIFY(same(Kept::pack(seenLongBefore, packed).unpack(packed), floored(seenLongBefore, kNsPerMs - 5)));
        Last seenInWholeMs = held; // a whole millisecond away: exact
        seenInWholeMs.seenAtNs = atNs + qint64(20) * 24 * 3600 * 1000 * kNsPerMs;
        seenInWholeMs.endsNs = 0;
        QVERIFY(same(Kept::pack(seenInWholeMs, packed).unpack(packed), seenInWholeMs));
        Last seen25DaysLater = seenInWholeMs;
        seen25DaysLater.seenAtNs = atNs + qint64(25) * 24 * 3600 * 1000 * kNsPerMs;
        QVERIFY(Kept::pack(seen25DaysLater, packed).isNull());
        Last longTenure = held; // begun 25 days before the view's read
        longTenure.sinceMs = view.observedAtMs - qint64(25) * 24 * 3600 * 1000;
        QVERIFY(Kept::pack(longTenure, packed).isNull());
        Last tenure20Days = held;
        tenure20Days.sinceMs = view.observedAtMs - qint64(20) * 24 * 3600 * 1000;
        QVERIFY(same(Kept::pack(tenure20Days, packed).unpack(packed), tenure20Days));
        QVERIFY(Kept().isNull());
    }
};

QTEST_GUILESS_MAIN(TestLockEventTracker)
#include "TestLockEventTracker.moc"
