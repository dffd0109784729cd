#pragma once

#include <QList>
#include <QtGlobal>

#include <algorithm>
#include <limits>

// The two numbers of the Redlock algorithm that the client, the inspector, the safety audit, the restart
// planner, the console and the CLI all apply, written once and in the algorithm's words (Redis' distributed
// lock page, "The Redlock algorithm"):
//
//   3. The client computes how much time elapsed in order to acquire the lock [...]. If and only if the
//      client was able to acquire the lock in the majority of the instances (at least 3 [of 5]), and the
//      total time elapsed to acquire the lock is less than lock validity time, the lock is considered to be
//      acquired.
//   4. If the lock was acquired, its validity time is considered to be the initial validity time minus the
//      time elapsed, as computed in step 3 [minus the clock drift: min_validity = TTL - (T2 - T1) -
//      CLOCK_DRIFT, from the safety arguments].
namespace redlock::rules {

// The majority of N independent masters: N/2+1 (3 of 5, 2 of 3, 3 of 4). A lock is held, extended or
// released when this many nodes did it; a cluster with fewer nodes up can grant no lock.
constexpr int quorum(int nodeCount)
{
    return nodeCount / 2 + 1;
}

// The allowance for the clocks of the nodes and the client running at different rates over a lock's
// lifetime: TTL × driftFactor (0.01 in the reference implementations), plus 2 ms for Redis' expire
// resolution, so that even a very short TTL keeps a margin. Taken off every validity:
// validity = TTL - elapsed - drift. The force release's tombstone script (scripts::compareAndTombstone) takes
// the same rule on the PTTL it reads, with driftFactor and kClockDriftExtraMs passed to it: floor(PTTL ×
// driftFactor) + kClockDriftExtraMs, the same double product truncated the same way.
constexpr qint64 kClockDriftExtraMs = 2;
constexpr qint64 clockDriftMs(qint64 ttlMs, double driftFactor)
{
    return static_cast<qint64>(static_cast<double>(ttlMs) * driftFactor) + kClockDriftExtraMs;
}

// How long until a newcomer can acquire the lock again: the acquire needs SET NX to succeed on a quorum, so
// the lock is free once no more than nodeCount - quorum nodes still have something in the key. blockedForMs
// has one entry per node where the key is set now (a holder's value, a lock-delay tombstone, anything else):
// how long it stays there (its PTTL), or a negative value for "indefinitely" (no expiry, or a node that could
// not be read). The other nodes are free now. Returns 0 when a quorum is free already, the ms until it is,
// or -1 when that does not happen by itself.
inline qint64 quorumFreeInMs(QList<qint64> blockedForMs, int nodeCount)
{
    const qsizetype mayStayBlocked = nodeCount - quorum(nodeCount);
    const qsizetype mustClear = blockedForMs.size() - mayStayBlocked;
    if (mustClear <= 0)
        return 0;
    // Indefinite entries sort last: they never clear.
    std::sort(blockedForMs.begin(), blockedForMs.end(), [](qint64 a, qint64 b) {
        return (a < 0 ? std::numeric_limits<qint64>::max() : a) < (b < 0 ? std::numeric_limits<qint64>::max() : b);
    });
    const qint64 last = blockedForMs[mustClear - 1];
    return last < 0 ? -1 : last;
}

} // namespace redlock::rules
