#include "operate/RestartPlanner.h"

#include "redlock/RedlockRules.h"

#include <QCoreApplication>

#include <algorithm>

namespace redlock {

qint64 RestartPlanner::defaultDelayMs(qint64 configuredMaxTtlMs, qint64 largestPttlMs, double driftFactor)
{
    const qint64 ttl = std::max<qint64>({0, configuredMaxTtlMs, largestPttlMs});
    return ttl + rules::clockDriftMs(ttl, driftFactor);
}

qint64 RestartPlanner::largestPttlOnNode(const LockSnapshot& snapshot, int node)
{
    qint64 largest = -1;
    for (const LockView& view : snapshot) {
        if (node < 0 || node >= view.nodes.size())
            continue;
        const NodeLockState& s = view.nodes[node];
        if (s.presence == NodeLockState::Presence::Holding && s.pttlMs > largest)
            largest = s.pttlMs;
    }
    return largest;
}

QList<AffectedLock> RestartPlanner::affectedLocks(const LockSnapshot& snapshot, int node, int nodeCount,
                                                  const QList<int>& unavailable)
{
    const int quorum = rules::quorum(nodeCount);
    QList<AffectedLock> out;
    for (const LockView& view : snapshot) {
        if (!view.hasQuorum() || node < 0 || node >= view.nodes.size()) // held, or stuck on a quorum
            continue;
        const NodeLockState& mine = view.nodes[node];
        if (mine.presence != NodeLockState::Presence::Holding || mine.token != view.token)
            continue;
        int remaining = 0;
        for (int i = 0; i < view.nodes.size(); ++i) {
            const NodeLockState& s = view.nodes[i];
            if (i != node && !unavailable.contains(i) && s.presence == NodeLockState::Presence::Holding &&
                s.token == view.token)
                ++remaining;
        }
        if (remaining >= quorum)
            continue;
        AffectedLock a;
        a.key = view.key;
        a.token = view.token;
        a.holderSummary = view.holder->summary;
        a.holdersNow = view.holders;
        a.holdersWhileDown = remaining;
        a.observedValidityMs = view.observedValidityMs;
        out.append(a);
    }
    std::sort(out.begin(), out.end(), [](const AffectedLock& a, const AffectedLock& b) { return a.key < b.key; });
    return out;
}

RestartPlan RestartPlanner::plan(int node, int nodeCount, const LockSnapshot& snapshot, qint64 configuredMaxTtlMs,
                                 double driftFactor, QList<int> unavailable)
{
    unavailable.removeAll(node);
    std::sort(unavailable.begin(), unavailable.end());
    unavailable.erase(std::unique(unavailable.begin(), unavailable.end()), unavailable.end());
    unavailable.erase(
        std::remove_if(unavailable.begin(), unavailable.end(), [nodeCount](int i) { return i < 0 || i >= nodeCount; }),
        unavailable.end());
    RestartPlan p;
    p.node = node;
    p.nodeCount = nodeCount;
    p.quorum = rules::quorum(nodeCount);
    p.configuredMaxTtlMs = configuredMaxTtlMs;
    p.largestPttlMs = largestPttlOnNode(snapshot, node);
    const qint64 ttl = std::max<qint64>({0, configuredMaxTtlMs, p.largestPttlMs});
    p.driftMs = rules::clockDriftMs(ttl, driftFactor);
    p.defaultDelayMs = ttl + p.driftMs;
    p.unavailable = unavailable;
    p.affected = affectedLocks(snapshot, node, nodeCount, unavailable);
    p.nodesUpDuring = nodeCount - static_cast<int>(unavailable.size()) - 1;
    p.breaksQuorum = p.nodesUpDuring < p.quorum;
    if (p.breaksQuorum) {
        p.quorumExplanation =
            tr("with node %1 out, %2 of %3 nodes would be counted (%4 already down or quarantined): fewer than "
               "the quorum of %5, so no lock could be acquired or extended until it is back")
                .arg(node + 1)
                .arg(p.nodesUpDuring)
                .arg(nodeCount)
                .arg(unavailable.size())
                .arg(p.quorum);
    }
    return p;
}

} // namespace redlock
