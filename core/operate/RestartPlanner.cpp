#include "operate/RestartPlanner.h"

#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QStringList>

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

QList<int> RestartPlanner::namesOfServer(int node, int nodeCount, const QList<QByteArray>& runIds)
{
    QList<int> names{node};
    for (int i = 0; i < nodeCount; ++i) {
        if (rules::sameServer(runIds, node, i))
            names.append(i);
    }
    std::sort(names.begin(), names.end());
    return names;
}

QList<AffectedLock> RestartPlanner::affectedLocks(const LockSnapshot& snapshot, int node, int nodeCount,
                                                  const QList<int>& unavailable, const QList<QByteArray>& runIds)
{
    const int quorum = rules::quorum(nodeCount);
    const QList<int> goingOut = namesOfServer(node, nodeCount, runIds);
    QList<AffectedLock> out;
    QList<int> holding;   // names holding the lock's token
    QList<int> remaining; // of those, the ones still counted while the server is out
    for (const LockView& view : snapshot) {
        if (!view.hasQuorum()) // held, or stuck on a quorum
            continue;
        holding.clear();
        remaining.clear();
        bool held = false; // by the server going out, under any of its names
        for (int i = 0; i < view.nodes.size(); ++i) {
            const NodeLockState& s = view.nodes[i];
            if (s.presence != NodeLockState::Presence::Holding || s.token != view.token)
                continue;
            holding.append(i);
            if (goingOut.contains(i))
                held = true;
            else if (!unavailable.contains(i))
                remaining.append(i);
        }
        if (!held)
            continue;
        const int serversLeft = rules::distinctServers(runIds, remaining);
        if (serversLeft >= quorum)
            continue;
        AffectedLock a;
        a.key = view.key;
        a.token = view.token;
        a.holderSummary = view.holder->summary;
        a.holdersNow = rules::distinctServers(runIds, holding);
        a.holdersWhileDown = serversLeft;
        a.observedValidityMs = view.observedValidityMs;
        out.append(a);
    }
    std::sort(out.begin(), out.end(), [](const AffectedLock& a, const AffectedLock& b) { return a.key < b.key; });
    return out;
}

RestartPlan RestartPlanner::plan(int node, int nodeCount, const LockSnapshot& snapshot, qint64 configuredMaxTtlMs,
                                 double driftFactor, QList<int> unavailable, const QList<QByteArray>& runIds)
{
    const QList<int> names = namesOfServer(node, nodeCount, runIds);
    std::sort(unavailable.begin(), unavailable.end());
    unavailable.erase(std::unique(unavailable.begin(), unavailable.end()), unavailable.end());
    unavailable.erase(
        std::remove_if(unavailable.begin(), unavailable.end(),
                       [nodeCount, &names](int i) { return i < 0 || i >= nodeCount || names.contains(i); }),
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
    for (const int i : names) {
        if (i != node)
            p.sameServer.append(i);
    }
    p.affected = affectedLocks(snapshot, node, nodeCount, unavailable, runIds);
    QList<int> counted; // names neither going out nor already unavailable
    for (int i = 0; i < nodeCount; ++i) {
        if (!names.contains(i) && !unavailable.contains(i))
            counted.append(i);
    }
    p.nodesUpDuring = rules::distinctServers(runIds, counted);
    p.breaksQuorum = p.nodesUpDuring < p.quorum;
    if (!p.sameServer.isEmpty()) {
        QStringList others;
        for (const int i : std::as_const(p.sameServer))
            others.append(QString::number(i + 1));
        p.sameServerNote = tr("node %1 is the same Redis server as node(s) %2 (same run_id): taking it out takes "
                              "%n other name(s) out too",
                              nullptr, int(p.sameServer.size()))
                               .arg(node + 1)
                               .arg(others.join(QStringLiteral(", ")));
    }
    if (p.breaksQuorum) {
        p.quorumExplanation =
            tr("with node %1 out, %2 of %3 nodes would be counted (%4 already down or quarantined): fewer than "
               "the quorum of %5, so no lock could be acquired or extended until it is back")
                .arg(node + 1)
                .arg(p.nodesUpDuring)
                .arg(nodeCount)
                .arg(unavailable.size())
                .arg(p.quorum);
        if (!p.sameServerNote.isEmpty())
            p.quorumExplanation += QStringLiteral("; ") + p.sameServerNote;
    }
    return p;
}

} // namespace redlock
