#pragma once

#include "observe/LockInspector.h"
#include "observe/NodeSession.h"
#include "observe/ObservationTypes.h"
#include "redlock/RedlockRules.h"

#include <QList>
#include <QObject>

#include <functional>
#include <memory>

namespace redlock {

class AlertMonitor;
class IoThread;

struct ClusterWatchOptions
{
    // The nodes, the key pattern, the drift factor, the rescan: what the inspector looks at and how.
    InspectorOptions inspector;
    NodeSessionOptions session;
    // The largest TTL the deployment's clients use, as the operator says it (the console's max TTL, --max-ttl);
    // 0 = not said. The audit judges restarts by rules::auditMaxTtlMs of it and the largest PTTL seen.
    qint64 configuredMaxTtlMs = 0;
    // false: one full pass and no more (`redlock audit`): the inspector keeps no lock view, only the largest PTTL
    // it met, so memory does not grow with the number of locks; no locksChanged() nor lockEvents().
    bool keepLocks = true;
    QString threadName = QStringLiteral("redlock-observe");
};

// The observation of one deployment, assembled once for every front end (the console's controller, `redlock
// watch`, `redlock audit`, `redlock exporter`): an I/O thread with a NodeSession per node and the LockInspector on
// it, the latest facts of every node, the safety audit run on them with the one max-TTL policy, and the one rule of
// which nodes are up and whether a quorum is.
//
// Lives on its consumer's thread (the GUI thread, the CLI's main thread); everything from the I/O thread reaches
// it queued, and its signals are emitted on its own thread. start() once; deleting it (or stop()) ends the I/O
// thread, whose objects are deleted there.
//
// The rules:
//  - up: a node whose session says Up (it answers commands within the command timeout) and that no delayed restart
//    keeps out (quarantined). Nothing else counts: not the inspector's reads, not a node still connecting.
//  - quorum: rules::quorum(N) nodes up, where nodes that are one server (the same run_id) count once.
//  - verdicts: a node that reported and is not up (down, not answering, refused, reconnecting) counts as
//    unreachable in every lock's verdict at once (VerdictRules::down), not when the next read fails.
//  - max TTL: rules::auditMaxTtlMs(configured, largest PTTL seen), the largest PTTL kept as a running maximum of the
//    inspector's change sets (lock values only, never a force release's tombstone), never lowered.
//  - the audit: SafetyAudit::run on the latest facts with that max TTL, again on every facts change and whenever the
//    max TTL changes. A node that is not Up is audited as unverified: its last facts are not what it is now.
class ClusterWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterWatch)

public:
    explicit ClusterWatch(ClusterWatchOptions options, QObject* parent = nullptr);
    ~ClusterWatch() override;

    // What the core refuses to watch: no node, the same server listed twice, a drift factor out of range.
    static QStringList configErrors(const ClusterWatchOptions& options);

    // Opens the sessions and starts the inspector. False (with *error) on a configuration configErrors() refuses.
    bool start(QString* error = nullptr);
    // Ends the I/O thread (its sessions and inspector are deleted there). Queued results not yet delivered are
    // dropped. Also done by the destructor.
    void stop();
    bool isRunning() const { return m_io != nullptr; }

    // Before start(): the inspector's change sets are handed to `sink` on the I/O thread (in order, after the
    // largest PTTL was taken from them) instead of being emitted in locksChanged(). For a consumer that prepares
    // them there (the console slices and sorts them off the GUI thread). The sink must not touch this object.
    using LockChangeSink = std::function<void(const LockChangeSet& changes)>;
    void setLockChangeSink(LockChangeSink sink) { m_sink = std::move(sink); }
    // Before start(): `tap` also gets every batch of lock events on the I/O thread, as the inspector emits it (a
    // journal records there: nothing queued is lost when the watch stops). lockEvents() is emitted all the same.
    // A bounded first pass still being handed over is told whole now, and what the watch has queued for itself is
    // delivered at once: its lockEvents() (and locksChanged()) carry every lock the pass saw before this returns. For a
    // consumer about to stop whose listeners (a journal) must have them all. On the watch's thread.
    void tellRestOfPass();
    using LockEventTap = std::function<void(const QList<LockEvent>& events)>;
    void setLockEventTap(LockEventTap tap) { m_eventTap = std::move(tap); }
    // Feeds `monitor` (on this thread, not owned; null = none): node facts, quarantined nodes, the audit's findings
    // and max TTL, and the change sets (when no sink takes them).
    void setAlertMonitor(AlertMonitor* monitor);

    // For consumers that must act on the I/O thread itself (a journal recording on the inspector's thread, the
    // console's key prober): valid between start() and stop().
    IoThread* ioThread() const { return m_io.get(); }
    LockInspector* inspector() const { return m_inspector; }
    // A consumer whose backlog of the change sets it took is long (LockInspector::holdHandOff): a full pass's
    // hand-off waits until it is released. Any number of times; start() makes a new inspector, which is not held.
    void holdHandOff(bool hold);
    // A consumer done with a change set gives it back (its last copy, if the other consumers kept none): the views
    // are freed on the I/O thread that made them. Freed on the consumer's thread they contend for the allocator
    // arena the I/O thread is allocating the next chunk from (a tenth of the GUI thread's time while the first
    // table at 1M fills, a quarter of it freeing), and the I/O thread's next chunk reuses memory it freed instead
    // of faulting in new pages. Does nothing when stopped (the set is freed here).
    void giveBack(LockChangeSet spent);

    const ClusterWatchOptions& options() const { return m_options; }
    int nodeCount() const { return static_cast<int>(m_options.inspector.nodes.size()); }
    int quorum() const { return rules::quorum(nodeCount()); }
    bool isNodeUp(int node) const;
    int nodesUp() const; // distinct servers up: one run_id under two names counts once
    bool hasQuorum() const { return nodeCount() > 0 && nodesUp() >= quorum(); }
    // Every node has reported once (its first connect ended, either way).
    bool allNodesReported() const { return !m_reported.contains(false); }
    const QList<int>& quarantinedNodes() const { return m_quarantined; }
    void setQuarantinedNodes(const QList<int>& nodes);

    // The latest facts of every node, in configuration order, with the newest PING latency and clock offset.
    const QList<NodeFacts>& nodeFacts() const { return m_facts; }
    const QList<AuditFinding>& findings() const { return m_findings; }
    qint64 configuredMaxTtlMs() const { return m_options.configuredMaxTtlMs; }
    void setConfiguredMaxTtlMs(qint64 ms); // re-runs the audit
    qint64 largestPttlSeenMs() const { return m_largestPttlMs; }
    qint64 auditMaxTtlMs() const { return rules::auditMaxTtlMs(m_options.configuredMaxTtlMs, m_largestPttlMs); }

    // The last full inspection, and whether one finished since start().
    const InspectionSummary& lastInspection() const { return m_lastInspection; }
    bool inspectionDone() const { return m_inspectionDone; }

public slots:
    // A full inspection now (one pass) and a fresh sample and facts round on every node.
    void refreshNow();
    void setRescanBudget(int commandsPerSecond);

signals:
    void nodeFactsChanged(int node);
    void nodeSampled(const redlock::NodeSample& sample);
    void nodeRestarted(const redlock::NodeFacts& facts);
    // A node's up state (nodeCountsAsUp) changed; not emitted while it is on its first connect.
    void nodeUpChanged(int node, bool up);
    // The number of nodes up changed (the first time on the first report).
    void quorumStateChanged(int up, int total, bool hasQuorum);
    void auditChanged();
    void locksChanged(const redlock::LockChangeSet& changes);
    void lockEvents(const QList<redlock::LockEvent>& events);
    void inspectionFinished(const redlock::InspectionSummary& summary);
    // A bounded first pass (InspectorOptions::fullPassChunksAhead) told its last lock (LockInspector::fullPassTold).
    void fullPassTold();
    void observerLoad(const QList<redlock::ObserverLoad>& load);
    void liveSourceChanged(int node, bool eventsLive, const QString& why);

private:
    void onFacts(const NodeFacts& facts);
    void onSample(const NodeSample& sample);
    void noteLargestPttl(qint64 ms);
    void runAudit();
    void checkQuorum();
    // Tells the inspector which nodes are down for the verdicts (reported, and not answering within the timeout).
    void updateDownNodes();

    ClusterWatchOptions m_options;
    std::unique_ptr<IoThread> m_io;
    QList<NodeSession*> m_sessions;
    LockInspector* m_inspector = nullptr;
    LockChangeSink m_sink;
    LockEventTap m_eventTap;
    AlertMonitor* m_monitor = nullptr;
    QList<NodeFacts> m_facts;
    QList<bool> m_reported;  // per node: its first connect ended
    QList<int> m_reportedUp; // per node: the up state last emitted, -1 none
    QList<int> m_quarantined;
    QList<AuditFinding> m_findings;
    qint64 m_largestPttlMs = 0;   // this thread's copy of the running maximum
    qint64 m_ioLargestPttlMs = 0; // the I/O thread's (only touched there)
    int m_lastUp = -1;
    QList<int> m_downNodes; // as last told to the inspector
    InspectionSummary m_lastInspection;
    bool m_inspectionDone = false;
};

} // namespace redlock
