#include "observe/SafetyAudit.h"

#include "redlock/LockToken.h"
#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace redlock {

namespace {

QString names(const QList<NodeFacts>& nodes, const QList<int>& which)
{
    QStringList out;
    for (const int i : which)
        out << nodes[i].endpoint.displayName();
    return out.join(QStringLiteral(", "));
}

AuditFinding finding(const char* rule, AuditFinding::Severity severity, QList<int> nodes, QString title,
                     QString explanation)
{
    return {QString::fromLatin1(rule), severity, std::move(nodes), std::move(title), std::move(explanation)};
}

} // namespace

qint64 SafetyAudit::largestPttlMs(const QList<LockView>& locks)
{
    qint64 largest = 0;
    for (const LockView& view : locks)
        largest = std::max(largest, largestPttlMs(view));
    return largest;
}

qint64 SafetyAudit::largestPttlMs(const LockView& lock)
{
    qint64 largest = 0;
    for (const NodeLockState& s : lock.nodes) {
        if (s.presence == NodeLockState::Presence::Holding && !LockTombstone::isTombstone(s.token))
            largest = std::max(largest, s.pttlMs);
    }
    return largest;
}

bool SafetyAudit::hasSevere(const QList<AuditFinding>& findings)
{
    return std::any_of(findings.cbegin(), findings.cend(),
                       [](const AuditFinding& f) { return f.severity == AuditFinding::Severity::Severe; });
}

QList<AuditFinding> SafetyAudit::run(const AuditInput& input)
{
    using Severity = AuditFinding::Severity;
    const QList<NodeFacts>& nodes = input.nodes;
    const int n = static_cast<int>(nodes.size());
    const qint64 ttlMs = input.maxTtlMs > 0 ? input.maxTtlMs : input.defaultTtlMs;
    QList<AuditFinding> out;

    // N: the quorum N/2+1 tolerates (N-1)/2 failures; an even N pays for a node that adds no tolerance.
    // (The rule and its wording: rules::nodeCountProblem, the same for the client's and the console's checks.)
    switch (rules::nodeCountProblem(n)) {
    case rules::NodeCountProblem::TooFew:
        out << finding("node-count", rules::nodeCountSevere(n) ? Severity::Severe : Severity::Warning, {},
                       tr("Fewer than %1 nodes").arg(rules::kMinimumNodes), rules::nodeCountWarning(n));
        break;
    case rules::NodeCountProblem::Even:
        out << finding("node-count", rules::nodeCountSevere(n) ? Severity::Severe : Severity::Warning, {},
                       tr("Even number of nodes"), rules::nodeCountWarning(n));
        break;
    case rules::NodeCountProblem::None:
        break;
    }

    QList<int> replicas, withReplicas, persistence, restartedEarly, startedRecently, evictingLimited, evictingLatent,
        offClock, unverified, pending, fencing;
    QHash<QByteArray, QList<int>> byRunId;
    const qint64 driftMs = rules::clockDriftMs(ttlMs, input.driftFactor);
    const qint64 driftBudgetUs = driftMs * 1000;
    // A lock granted just before the crash stays valid for its TTL on the clock of its holder, which may run
    // slow by the drift: the same allowance the Redlock client and the restart planner take.
    const qint64 ttlWithDriftMs = ttlMs + driftMs;
    for (int i = 0; i < n; ++i) {
        const NodeFacts& f = nodes[i];
        if (!f.infoKnown) {
            // Not read yet (the session is connecting, or connected and its first INFO round is on its way) is
            // not "could not be read": every start would otherwise open with a false severe finding.
            (f.isAwaitingFirstFacts() ? pending : unverified) << i;
            continue;
        }
        if (f.refusedCommands.contains(QStringLiteral("CONFIG GET")) && f.appendFsync.isEmpty())
            unverified << i;
        if (f.role == u"slave" || f.role == u"replica")
            replicas << i;
        if (f.connectedReplicas > 0)
            withReplicas << i;
        const bool losesLocks =
            f.aofEnabled == 0 || (f.aofEnabled == 1 && !f.appendFsync.isEmpty() && f.appendFsync != u"always");
        if (losesLocks) {
            persistence << i;
            const bool youngerThanTtl = f.uptimeMs() >= 0 && f.uptimeMs() < ttlMs;
            const bool shortDowntime = f.restartSeenAtMs > 0 && f.downtimeMs >= 0 && f.downtimeMs < ttlWithDriftMs;
            // A restart we watched, with a measured downtime under the TTL, certainly broke the rule. A node
            // that is merely younger than the TTL may have been down long enough: we cannot tell, so warn.
            if (shortDowntime)
                restartedEarly << i;
            else if (youngerThanTtl)
                startedRecently << i;
        }
        if (!f.maxmemoryPolicy.isEmpty() && f.maxmemoryPolicy != u"noeviction")
            (f.maxmemoryBytes > 0 ? evictingLimited : evictingLatent) << i;
        if (f.clockOffsetUs && qAbs(*f.clockOffsetUs) > driftBudgetUs)
            offClock << i;
        if (!f.runId.isEmpty())
            byRunId[f.runId] << i;
        if (f.fencingCounters == 1)
            fencing << i;
    }

    if (!replicas.isEmpty())
        out << finding("replica", Severity::Severe, replicas, tr("Node is a replica"),
                       tr("%1 replicate(s) another server: a replica refuses lock writes, and its data is not "
                          "independent of its master. Redlock needs N independent masters.")
                           .arg(names(nodes, replicas)));
    if (!withReplicas.isEmpty())
        out << finding("has-replicas", Severity::Warning, withReplicas, tr("Node has replicas"),
                       tr("%1 replicate(s) to other servers. Replication is asynchronous: after a failover the "
                          "promoted replica may lack a lock the old master granted, and a second client gets it.")
                           .arg(names(nodes, withReplicas)));
    if (!restartedEarly.isEmpty())
        out << finding("restart-early", Severity::Severe, restartedEarly, tr("Node restarted within the lock TTL"),
                       tr("%1 lost its locks on restart (no fsync'ed AOF) and came back before the largest TTL "
                          "plus clock drift (%2 ms) had passed: a lock it had granted can now be granted again, "
                          "breaking mutual exclusion. Delay restarts by at least the max TTL plus drift.")
                           .arg(names(nodes, restartedEarly))
                           .arg(ttlWithDriftMs));
    if (!startedRecently.isEmpty())
        out << finding("recent-start", Severity::Warning, startedRecently, tr("Node started within the lock TTL"),
                       tr("%1 started less than the largest TTL (%2 ms) ago without fsync'ed AOF. If it came back "
                          "from a crash sooner than that after it went down, locks it had granted are gone and can "
                          "be granted twice. The downtime was not observed here.")
                           .arg(names(nodes, startedRecently))
                           .arg(ttlMs));
    // Locks expire, so a delayed restart makes a wiped node harmless for mutual exclusion. Fencing counters
    // are permanent: a node that loses them can make the tokens go back however long it stayed down.
    if (!persistence.isEmpty() && !fencing.isEmpty())
        out << finding("persistence", Severity::Severe, persistence, tr("Persistence can lose fencing counters"),
                       tr("Fencing is in use (counters found on %1), and %2 run(s) without AOF or with "
                          "appendfsync other than \"always\": a crash loses recent locks and fencing counters. "
                          "Delaying the restart protects the locks but not the counters, so fencing tokens can "
                          "go backwards. Use appendonly yes with appendfsync always on every node.")
                           .arg(names(nodes, fencing), names(nodes, persistence)));
    else if (!persistence.isEmpty())
        out << finding("persistence", Severity::Warning, persistence, tr("Persistence can lose locks"),
                       tr("%1 run(s) without AOF or with appendfsync other than \"always\": a crash loses recent "
                          "locks. Safe only if restarts are delayed by more than the max TTL.")
                           .arg(names(nodes, persistence)));
    if (!evictingLimited.isEmpty())
        out << finding("eviction", Severity::Severe, evictingLimited, tr("Lock keys can be evicted"),
                       tr("%1 evict(s) keys under memory pressure (maxmemory-policy is not noeviction and a "
                          "memory limit is set): a held lock can vanish.")
                           .arg(names(nodes, evictingLimited)));
    if (!evictingLatent.isEmpty())
        out << finding("eviction", Severity::Warning, evictingLatent, tr("Eviction policy allows evicting locks"),
                       tr("%1 use(s) a maxmemory-policy other than noeviction; once a memory limit is set, lock "
                          "keys can be evicted.")
                           .arg(names(nodes, evictingLatent)));
    if (!offClock.isEmpty())
        out << finding("clock-offset", Severity::Warning, offClock, tr("Clock offset beyond the drift budget"),
                       tr("The clock of %1 differs from this machine's by more than the drift budget (%2 ms). "
                          "A clock step (NTP) on a node expires locks early; check time synchronisation "
                          "(this machine's clock may be the one that is off).")
                           .arg(names(nodes, offClock))
                           .arg(driftBudgetUs / 1000));
    for (auto it = byRunId.cbegin(); it != byRunId.cend(); ++it) {
        if (it.value().size() < 2)
            continue;
        out << finding("same-server", Severity::Severe, it.value(), tr("Same server listed twice"),
                       tr("%1 are the same Redis server (same run_id): its vote counts twice, so a quorum can "
                          "be reached with fewer independent nodes than required.")
                           .arg(names(nodes, it.value())));
    }
    // Fewer than a quorum of nodes audited: nothing said above can vouch for the locks, so the absence of
    // severe findings would read as a clean bill of health for a cluster nobody could look at.
    // Nodes not read yet may still be: only the nodes that could not be read count against the quorum.
    const int audited = n - static_cast<int>(unverified.size()) - static_cast<int>(pending.size());
    const int quorum = rules::quorum(n);
    if (!pending.isEmpty()) {
        out << finding("not-yet-audited", Severity::Info, pending, tr("Node not yet audited"),
                       tr("The facts of %1 have not been read yet (connecting, or the first INFO round is on its "
                          "way); the checks cover it once they are.")
                           .arg(names(nodes, pending)));
    }
    if (!unverified.isEmpty() && n - static_cast<int>(unverified.size()) < quorum) {
        out << finding("unverified", Severity::Severe, unverified, tr("No quorum of nodes could be audited"),
                       tr("The facts of %1 could not be read (node down, or INFO / CONFIG GET refused): only %2 of "
                          "%3 nodes were audited, fewer than the quorum of %4. The safety of these locks cannot "
                          "be judged.")
                           .arg(names(nodes, unverified))
                           .arg(audited)
                           .arg(n)
                           .arg(quorum));
    } else if (!unverified.isEmpty()) {
        out << finding("unverified", Severity::Info, unverified, tr("Node could not be audited"),
                       tr("The facts of %1 could not be read (node down, or INFO / CONFIG GET refused); the "
                          "checks do not cover it.")
                           .arg(names(nodes, unverified)));
    }
    return out;
}

} // namespace redlock
