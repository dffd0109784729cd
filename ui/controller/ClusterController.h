#pragma once

#include "observe/ClusterMetrics.h"
#include "observe/KeyProbe.h"
#include "observe/ObservationTypes.h"
#include "protocol/NodeEndpoint.h"
#include "redlock/RedlockRules.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

namespace redlock {

class ClusterWatch;
class KeyProbe;
class SshTunnel;

// What the console watches: the nodes and how to look at them. Built from a connection profile or the
// command line; passwords are already resolved (asked for, or read from the environment).
struct ClusterSettings
{
    QString profileName;
    QList<NodeEndpoint> nodes;
    QByteArray pattern = QByteArrayLiteral("*");
    double driftFactor = rules::kDefaultDriftFactor;
    int refreshIntervalMs = 5000; // periodic full SCAN; keyspace events fill the gaps in between
    bool readOnly = false;
    bool production = false; // destructive actions need the key (or node) typed in
    QString sshConfigFile;   // ssh -F for the nodes with an sshRoute (SshTunnel); empty = ~/.ssh/config
};

// The console's adapter of a ClusterWatch (core/watch/ClusterWatch.h), which owns the observation: the I/O
// thread, a NodeSession per node, the LockInspector, the latest node facts, the safety audit with its max-TTL
// policy and the one rule of which nodes are up. What is the GUI's own stays here: the pacing of large change sets
// and event batches (slices within a time budget per event-loop turn), the key prober of the lock detail, and
// ClusterMetrics on the GUI thread (it does no I/O and the charts read its series directly).
class ClusterController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterController)

public:
    // The most lock events one lockEvents() carries (see there).
    static constexpr qsizetype kLockEventSlice = 2000;
    // A batch up to this size, with nothing queued before it, goes out at once (a refresh's few changes); larger ones
    // (a first pass's chunks of "seen held") go out on the slice timer, one budget a turn.
    static constexpr qsizetype kLockEventsAtOnce = 100;

    explicit ClusterController(QObject* parent = nullptr);
    ~ClusterController() override;

    // Replaces whatever is watched now. Returns false (with *error) on a configuration the core refuses.
    bool start(const ClusterSettings& settings, QString* error = nullptr);
    void stop();
    bool isRunning() const;

    const ClusterSettings& settings() const { return m_settings; }
    int nodeCount() const { return static_cast<int>(m_settings.nodes.size()); }
    int quorum() const { return rules::quorum(nodeCount()); }
    int nodesUp() const; // nodeCountsAsUp: quarantined nodes (a delayed restart) are not counted
    bool hasQuorum() const { return nodeCount() > 0 && nodesUp() >= quorum(); }
    const QList<int>& quarantinedNodes() const { return m_quarantined; }
    // Why the SSH tunnel a node is reached through is not up (starting, or down with ssh's reason); empty when it is
    // up or the node is reached directly.
    QString tunnelProblem(int node) const;

    const QList<NodeFacts>& nodeFacts() const;
    const QList<AuditFinding>& findings() const;
    // The largest TTL the cluster's clients use (the operator's setting, also the restart delay): what the
    // audit judges restarts against, or the largest PTTL seen if that is larger (rules::auditMaxTtlMs). Re-runs the
    // audit.
    void setConfiguredMaxTtlMs(qint64 ms);
    qint64 auditMaxTtlMs() const;
    ClusterMetrics* metrics() const { return m_metrics.get(); }
    // Failed acquires per second of the console's own clients (demo workers; the test bench later).
    const MetricSeries& clientFailuresPerSecond() const { return m_clientFailures; }
    bool firstFullRefreshDone() const { return m_firstRefreshDone; }
    const InspectionSummary& lastInspection() const { return m_lastInspection; }
    // The lock view's rescan budget, commands per second per node (0 = unlimited): kept across start().
    int rescanBudget() const { return m_rescanBudget; }
    // Views received and not yet applied to the table (what holding the hand-off bounds, m_pendingViews).
    qsizetype pendingViews() const { return m_pendingViews; }
    void setRescanBudget(int commandsPerSecond);

public slots:
    void refreshNow();
    // Reads one key on every node (PTTL + latency); the answer comes in keyRead().
    void readKey(const QByteArray& key);
    // Results of acquires made by the console's own clients, for the failure-rate chart.
    void noteClientAcquires(int acquired, int failed);
    // Nodes kept out by a delayed restart: not counted for quorum until their delay has passed.
    void setQuarantinedNodes(const QList<int>& nodes);

signals:
    void started(int nodeCount);
    void stopped();
    void nodeFactsChanged(int node);
    void nodeSampled(const redlock::NodeSample& sample);
    void nodeRestarted(const redlock::NodeFacts& facts);
    void quorumStateChanged(int up, int total, bool hasQuorum);
    void auditChanged();
    void locksChanged(const redlock::LockChangeSet& changes);
    // In the inspector's order. A large batch (a first pass finds every held lock "seen held") comes in slices of
    // at most kLockEventSlice events, one or more per event-loop turn, within the table slices' time budget.
    void lockEvents(const QList<redlock::LockEvent>& events);
    void inspectionFinished(const redlock::InspectionSummary& summary);
    // The first full inspection is done and every node has reported once: the window shows a real picture.
    void firstFullRefresh();
    void keyRead(const QByteArray& key, const QList<redlock::KeyReadResult>& results);
    void metricsUpdated(qint64 atMs);
    // What the lock view costs each node, about once a second.
    void observerLoad(const QList<redlock::ObserverLoad>& load);
    void rescanBudgetChanged(int commandsPerSecond);
    // The node's tunnel went down (problem says why), is starting, or came up (problem empty).
    void tunnelProblemChanged(int node, const QString& problem);

private:
    void checkFirstRefresh();
    // Rows a slice of a large batch brings to the table at most (and the chunk of a full pass).
    static constexpr int kSlice = 1000;
    static std::vector<LockChangeSet> sliceChanges(const LockChangeSet& changes);
    void queueSlices(std::vector<LockChangeSet> slices);
    void queueLockEvents(const QList<LockEvent>& events);
    void emitNextEventSlice(); // of m_pendingEvents, which is not empty
    void applyNextSlice();
    void setTunnelProblem(const QString& route, const QString& problem);

    ClusterSettings m_settings;
    // The observation; kept after stop() (not running) so that the last facts and findings stay readable.
    std::unique_ptr<ClusterWatch> m_watch;
    KeyProbe* m_probe = nullptr;
    std::unique_ptr<ClusterMetrics> m_metrics;
    MetricSeries m_clientFailures{120};
    int m_failedThisSecond = 0;
    qint64 m_failureIntervalStartMs = 0;
    qint64 m_configuredMaxTtlMs = 30000; // OperatorSettings::configuredMaxTtlMs until set
    InspectionSummary m_lastInspection;
    bool m_inspectionDone = false;
    bool m_firstPassTold = false; // ClusterWatch::fullPassTold
    // The first full pass's bounded hand-off is under way (a chunk of it came, ClusterWatch::fullPassTold not yet):
    // lock events wait in m_pendingEvents until the table has its last rows.
    bool m_handOffUnderWay = false;
    bool m_firstRefreshDone = false;
    QList<int> m_quarantined;
    int m_rescanBudget = kDefaultBudgetPerNode;
    quint64 m_generation = 0;                  // signals of a previous start() that are still queued are dropped
    std::deque<LockChangeSet> m_pendingSlices; // applied a time budget per event-loop turn
    // The views in m_pendingSlices, whatever brought them. A full pass's hand-off can come faster than the table
    // applies it: from kHoldHandOffAt views on it is held (ClusterWatch::holdHandOff) until the table is down to
    // kResumeHandOffAt. Only a hand-off is held (the rest is bounded by what changed); a stop drains its rest at once.
    // Unheld, 230,000 views of the first pass at 1M locks waited here at once (about 300 MB, which the allocator
    // kept once freed: RSS 1.13-1.15 KB a lock, 0.94-0.97 held; bench-console).
    static constexpr qsizetype kHoldHandOffAt = 16 * kSlice;
    static constexpr qsizetype kResumeHandOffAt = 8 * kSlice;
    qsizetype m_pendingViews = 0;
    bool m_handOffHeld = false;
    std::deque<QList<LockEvent>> m_pendingEvents; // emitted in slices within the same budget, in order
    qsizetype m_pendingEventsFrom = 0;            // what of m_pendingEvents.front() was emitted
    QTimer m_sliceTimer;
    QList<SshTunnel*> m_tunnels;              // children; one per SSH route of the nodes
    QHash<QString, QString> m_tunnelProblems; // route -> why its tunnel is not up
};

} // namespace redlock
