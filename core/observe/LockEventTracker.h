#pragma once

#include "observe/ObservationTypes.h"
#include "observe/PackedLockView.h"
#include "runtime/SteadyClock.h"

#include <QHash>

#include <memory>
#include <optional>

namespace redlock {

// What prompted the read that gave a view: keyspace events for the key (and which of them Redis sent), or none
// (a rescan, a full pass, a re-judgement).
struct ChangeEvidence
{
    enum Name : quint8 {
        Deleted = 1, // del, unlink: somebody removed it (its holder's release, an operator)
        Expired = 2, // expired: its TTL ran out
        Evicted = 4, // evicted: maxmemory eviction removed it
        Other = 8,   // anything else (set, expire, rename, hset, ...)
    };
    bool live = false; // keyspace events named the key: the read is moments after what they tell
    quint8 names = 0;  // Name flags, over every node's events of the batch
    static quint8 nameFlag(QByteArrayView event);
};

// Tells what happened to a lock from its successive views: acquired (a token newly on a quorum), seen held (a
// token found on a quorum without having seen the key free before: watching just started, or its state was
// unknown), extended (the
// same token's quorum runs out later than when last seen), token changed, released, expired, evicted, released or
// expired, lost (nodes that held it restarted empty: had they kept their data it would still have its quorum),
// contested. Per key it keeps the last token seen on a quorum, through Unknown verdicts (an unreachable node is no
// news).
//
// How a quorum ended is told only as far as it is known. The keyspace events Redis sent for the key name it (`del`:
// released, `expired`, `evicted`). Without them (notifications off, Redis's default, or a rescan that found the key
// gone first) a read only tells that the holder was there at the last read and is gone now: gone before its TTL
// could have run out it was released (deleted), otherwise it was "released or expired"; either way it ended some
// time between the two reads (LockEvent::lastSeenHeldMs and atMs), never at a made-up instant.
class LockEventTracker
{
public:
    // The quorum of the same token must run out this much later than last seen to count as extended: reads
    // taken moments apart put the same expiry a few ms apart.
    static constexpr qint64 kExtendSlackMs = 250;

    LockEventTracker(int nodeCount, std::shared_ptr<SteadyClock> clock)
        : m_nodeCount(nodeCount), m_restartedAtNs(nodeCount, 0), m_clock(std::move(clock))
    {}

    // The node restarted (its run_id changed); everything read from it before steady instant atNs came from
    // the instance that is gone.
    void nodeRestarted(int node, qint64 atNs) { m_restartedAtNs[node] = atNs; }

    // Where watching is when a view is read. A holder seen for the first time is only known to have been
    // acquired just now when the key was watched before: while the first full inspection is not complete, and
    // after a view whose verdict was Unknown, it may have held the lock for long (SeenHeld, not Acquired).
    enum class Phase {
        Baseline, // the first full inspection: only the holders it finds are told (SeenHeld), nothing else
        Starting, // live changes read before the first full inspection completed
        Watching, // after it
    };

    using Evidence = ChangeEvidence;

    // Per key, the last token seen on a quorum (kept through Unknown), for acquired/released/changed events.
    struct LastQuorum
    {
        QByteArray token;
        qint64 endsNs = 0;    // steady instant that quorum runs out (expired vs released); 0 = never (no TTL)
        qint64 seenAtNs = 0;  // steady instant of the read that last saw it (a restart after it lost it there)
        quint64 nodeMask = 0; // the nodes (below 64) holding it then
        qint64 sinceMs = 0;   // wall instant of the event that began this tenure (acquired, seen held, taken over)
    };

    // A LastQuorum kept beside the key's packed view by a store of views (LockInspector keeps one per lock: a hash
    // of its own cost 108 bytes a lock and a copy of the token): 16 bytes, no allocation, the token as its number
    // among the view's tokens, the instants as offsets from the view's read. Exact or null, but for one instant: seen
    // more than 2 s away from the view's read (a view kept while reads found the lock unchanged), the read that saw it
    // is kept to the millisecond below it, as its quorum's end (what a restart after it is compared with, and the
    // lastSeenHeldMs told, are seconds apart or whole milliseconds). pack() gives null where it cannot keep `last`
    // beside that view (its token is not among the view's: kept through an Unknown view that lacks it; 16 nodes or
    // more; a quorum lasting 49 days or more; seen, or a tenure begun, 24 days or more from the view's read); the
    // store keeps such a one aside, whole.
    class KeptQuorum
    {
    public:
        static KeptQuorum pack(const LastQuorum& last, const PackedLockView& beside);
        bool isNull() const { return m_flags == 0; }
        LastQuorum unpack(const PackedLockView& beside) const;

    private:
        // seenAtNs - the view's observedAtNs, in ns (mostly 0: the view's own read), or in whole ms (floored) with
        // kSeenInMs: a view kept through later reads.
        qint32 m_seenAfter = 0;
        qint32 m_sinceAfterMs = 0; // sinceMs - the view's observedAtMs (mostly <= 0)
        quint32 m_endsAfterMs = 0; // endsNs - seenAtNs, in whole ms (what it is: the read's instant + a PTTL)
        quint16 m_nodeMask = 0;
        quint8 m_token = 0; // PackedLockView::tokenNumber(); 0 = the empty token
        quint8 m_flags = 0; // 0 = null
        static constexpr quint8 kKept = 1;
        static constexpr quint8 kSeenInMs = 2;
    };
    // With the view's 8 bytes, 24 in a store's hash node (beside a 24-byte key): at 100,000 locks, 1 MB less than
    // with 24 bytes here.
    static_assert(sizeof(KeptQuorum) == 16, "one per lock: keep it small");

    // One key's view went from `before` to `after` (null: no view). Appends the events to `events` (null: only
    // remembers the holder).
    void derive(const QByteArray& key, const LockView* before, const LockView* after, qint64 nowMs,
                QList<LockEvent>* events, Phase phase = Phase::Watching, Evidence evidence = {});
    // The same with the key's last quorum kept by the caller (beside its view): `last` is what the previous
    // derive() left, and is updated (reset: no holder) as the tracker's own would be.
    void derive(std::optional<LastQuorum>& last, const QByteArray& key, const LockView* before, const LockView* after,
                qint64 nowMs, QList<LockEvent>* events, Phase phase = Phase::Watching, Evidence evidence = {});

private:
    // The wall-clock instant of the last read that saw `last` on a quorum (LockEvent::lastSeenHeldMs).
    qint64 lastSeenHeldMs(const LastQuorum& last, qint64 nowMs) const;
    QHash<QByteArray, LastQuorum> m_lastQuorum; // the first derive()'s: keys whose last quorum the caller does not keep
    int m_nodeCount;
    QList<qint64> m_restartedAtNs; // per node, 0 = no restart seen
    std::shared_ptr<SteadyClock> m_clock;
};

} // namespace redlock
