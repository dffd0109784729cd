#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <iterator>
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

/// The majority of N independent masters: N/2+1 (3 of 5, 2 of 3, 3 of 4). A lock is held, extended or
/// released when this many nodes did it; a cluster with fewer nodes up can grant no lock.
constexpr int quorum(int nodeCount)
{
    return nodeCount / 2 + 1;
}

/// The allowance for the clocks of the nodes and the client running at different rates over a lock's
/// lifetime: TTL × driftFactor (0.01 in the reference implementations), plus 2 ms for Redis' expire
/// resolution, so that even a very short TTL keeps a margin. Taken off every validity:
/// validity = TTL - elapsed - drift. The force release's tombstone script (scripts::compareAndTombstone) takes
/// the same rule on the PTTL it reads, with driftFactor and kClockDriftExtraMs passed to it: floor(PTTL ×
/// driftFactor) + kClockDriftExtraMs, the same double product truncated the same way.
constexpr qint64 kClockDriftExtraMs = 2;
constexpr qint64 clockDriftMs(qint64 ttlMs, double driftFactor)
{
    return static_cast<qint64>(static_cast<double>(ttlMs) * driftFactor) + kClockDriftExtraMs;
}

// ------------------------------------------------------------------------------------ one server, one vote
// A Redis server is what it is, not the name that reaches it: a unix socket and its TCP port, an /etc/hosts alias or
// 0.0.0.0 reach one server under several names, and its vote counts once, in the client's acquire, the watch's nodes
// up and every lock's verdict. What a server is: its run_id, read at connect. runIds has one entry per configured
// node (the alias map); an empty or missing entry is not known, and such a node counts as a server of its own.

inline bool sameServer(const QList<QByteArray>& runIds, int a, int b)
{
    if (a == b || a < 0 || b < 0 || a >= runIds.size() || b >= runIds.size())
        return false;
    return !runIds[a].isEmpty() && runIds[a] == runIds[b];
}

// The first node of `among` (node indices) that is the same server as `node` (not `node` itself), or -1.
template <typename Nodes> int sameServerAs(const QList<QByteArray>& runIds, int node, const Nodes& among)
{
    for (const int other : among) {
        if (sameServer(runIds, node, other))
            return other;
    }
    return -1;
}

// How many servers the distinct node indices `nodes` are: nodes with the same run_id count once.
template <typename Nodes> int distinctServers(const QList<QByteArray>& runIds, const Nodes& nodes)
{
    int servers = 0;
    for (auto it = std::begin(nodes); it != std::end(nodes); ++it) {
        bool counted = false;
        for (auto before = std::begin(nodes); before != it && !counted; ++before)
            counted = sameServer(runIds, *it, *before);
        if (!counted)
            ++servers;
    }
    return servers;
}

/// How long until a newcomer can acquire the lock again: the acquire needs SET NX to succeed on a quorum of servers,
/// so the lock is free once no more than servers - quorum of them still have something in the key. blockedForMs has
/// one entry per configured node: how long the key stays set there (a holder's value, a lock-delay tombstone,
/// anything else: its PTTL), 0 for a node where it is not set, or a negative value for "indefinitely" (no expiry,
/// or a node that could not be read). Names of one server (runIds, as for distinctServers) count once. Returns 0
/// when a quorum is free already, the ms until it is, or -1 when that does not happen by itself.
inline qint64 quorumFreeInMs(const QList<qint64>& blockedForMs, const QList<QByteArray>& runIds = {})
{
    QList<qint64> blocked; // one entry per server where the key is set
    int servers = 0;
    for (int i = 0; i < blockedForMs.size(); ++i) {
        bool counted = false;
        for (int before = 0; before < i && !counted; ++before)
            counted = sameServer(runIds, i, before);
        if (counted)
            continue;
        ++servers;
        if (blockedForMs[i] != 0)
            blocked.append(blockedForMs[i]);
    }
    const qsizetype mustClear = blocked.size() - (servers - quorum(servers));
    if (mustClear <= 0)
        return 0;
    // Indefinite entries sort last: they never clear.
    std::sort(blocked.begin(), blocked.end(), [](qint64 a, qint64 b) {
        return (a < 0 ? std::numeric_limits<qint64>::max() : a) < (b < 0 ? std::numeric_limits<qint64>::max() : b);
    });
    const qint64 last = blocked[mustClear - 1];
    return last < 0 ? -1 : last;
}

// ------------------------------------------------------------------------------------------ the deployment
// The numbers every front end checks the same way (the client, the inspector, the force release, the console's
// profiles and command line, the CLI's options, the audit, the alerts, the exporter): written here once.

/// The drift factor: 0.01 in the reference implementations. Valid from 0 up to, not including, 0.5: at 0.5 the
/// allowance is half of every TTL, which no deployment means (a typo for 0.005 or 0.05 more likely), and a factor of 1
/// or more leaves no validity at all.
constexpr double kDefaultDriftFactor = 0.01;
constexpr double kMaxDriftFactor = 0.5; ///< excluded
constexpr bool driftFactorValid(double factor)
{
    return factor >= 0.0 && factor < kMaxDriftFactor; ///< false for NaN
}
/// Why `factor` is refused (translated), or an empty string when it is valid.
inline QString driftFactorError(double factor)
{
    if (driftFactorValid(factor))
        return {};
    return QCoreApplication::translate("redlock::rules", "the drift factor must be at least 0 and below %1, not %2")
        .arg(kMaxDriftFactor)
        .arg(factor);
}

/// The number of nodes. Redlock needs at least 3 independent masters to survive the loss of one; an even N pays for a
/// node that adds no fault tolerance. Neither is refused (a single node is a fine test bed): fewer than 3 is a severe
/// finding of the audit and a warning of every configuration check, an even N a warning everywhere.
constexpr int kMinimumNodes = 3;
enum class NodeCountProblem { None, TooFew, Even };
constexpr NodeCountProblem nodeCountProblem(int nodeCount)
{
    return nodeCount < kMinimumNodes ? NodeCountProblem::TooFew
           : nodeCount % 2 == 0      ? NodeCountProblem::Even
                                     : NodeCountProblem::None;
}
/// The most nodes one cluster may list. Redlock deployments have 3 to 7 masters; a list far beyond that is a
/// corrupted profile or a mistyped argument, and each node costs connections, timers and rows: a profile saying
/// nodes\size=100000000 ran the console out of memory before it showed a window. Refused with this limit named.
constexpr int kMaxNodes = 1000;
inline QString tooManyNodesError(qint64 nodeCount)
{
    return QCoreApplication::translate("redlock::rules", "%1 nodes listed: at most %2 are accepted")
        .arg(nodeCount)
        .arg(kMaxNodes);
}
/// Severe: the cluster cannot lose any node without stopping every lock.
constexpr bool nodeCountSevere(int nodeCount)
{
    return nodeCountProblem(nodeCount) == NodeCountProblem::TooFew;
}
/// The one wording of the problem (translated), or an empty string when there is none.
inline QString nodeCountWarning(int nodeCount)
{
    switch (nodeCountProblem(nodeCount)) {
    case NodeCountProblem::TooFew:
        return QCoreApplication::translate("redlock::rules",
                                           "with %n node(s) the quorum cannot survive the loss of any node: Redlock "
                                           "needs at least 3 independent masters",
                                           nullptr, nodeCount);
    case NodeCountProblem::Even:
        return QCoreApplication::translate(
            "redlock::rules",
            "with %n nodes the quorum tolerates no more failures than with one node fewer: use an odd number", nullptr,
            nodeCount);
    case NodeCountProblem::None:
        break;
    }
    return {};
}

/// The largest TTL the deployment's clients use: what the audit judges a restart against (a node without fsync'ed AOF
/// must stay down longer than it, plus drift) and what the clock-offset budget is taken of. The operator says it (the
/// console's max TTL, --max-ttl; kDefaultMaxTtlMs when nobody did), and it is raised to the largest PTTL a lock was
/// seen with: that is a lower bound of the TTLs in use, so a configured value below it is wrong. Kept as a running
/// maximum of what was seen, never lowered while watching.
constexpr qint64 kDefaultMaxTtlMs = 10000;
constexpr qint64 auditMaxTtlMs(qint64 configuredMs, qint64 largestPttlSeenMs)
{
    return std::max(configuredMs > 0 ? configuredMs : kDefaultMaxTtlMs, largestPttlSeenMs);
}

} // namespace redlock::rules
