#pragma once

#include <QtGlobal>

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
// validity = TTL - elapsed - drift.
constexpr qint64 clockDriftMs(qint64 ttlMs, double driftFactor)
{
    return static_cast<qint64>(static_cast<double>(ttlMs) * driftFactor) + 2;
}

} // namespace redlock::rules
