#pragma once

#include "controller/ClusterController.h"
#include "operate/ForceRelease.h"
#include "operate/NodeRestartScheduler.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <algorithm>
#include <memory>

namespace redlock {

class IoThread;
class LocalCluster;

// What the operator actions work on: the watched cluster plus the console's own settings for them.
struct OperatorSettings
{
    ClusterSettings cluster;
    bool production = false;           // destructive actions need the key (or node) typed in
    QString auditLogPath;              // empty = AuditLog::defaultPath()
    QString restartStateFile;          // empty = OperatorActions::defaultRestartStateFile()
    qint64 configuredMaxTtlMs = 30000; // the largest TTL the cluster's clients use (restart delay)
    int restartTickMs = 1000;
};

// The core objects behind the operator's destructive actions (ForceRelease, NodeRestartScheduler) on an
// I/O thread, their signals handed to the GUI thread. In demo mode the scheduler lives on the demo's thread,
// next to the LocalCluster whose processes it stops and starts. The GUI thread only ever calls the
// future-returning members, which run on the objects' own thread.
class OperatorActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorActions)

public:
    explicit OperatorActions(QObject* parent = nullptr);
    ~OperatorActions() override;

    // The demo's local cluster and the thread it lives on; must outlive this object's configuration.
    void setLocalCluster(IoThread* thread, LocalCluster* cluster);
    // Replaces the core objects; resumes the restarts saved in the state file.
    void configure(const OperatorSettings& settings);
    void stop();
    bool isConfigured() const { return m_forceRelease != nullptr; }

    const OperatorSettings& settings() const { return m_settings; }
    bool readOnly() const { return m_settings.cluster.readOnly; }
    bool production() const { return m_settings.production; }
    int nodeCount() const { return static_cast<int>(m_settings.cluster.nodes.size()); }
    QString auditLogPath() const;
    static QString defaultRestartStateFile();

    ForceRelease* forceRelease() const { return m_forceRelease; }
    NodeRestartScheduler* scheduler() const { return m_scheduler; }
    // The local cluster's index of a watched node, -1 when the node is not one of its processes.
    int localIndexOf(int node) const { return m_localIndex.value(node, -1); }

    // GUI-side view of the quarantine, kept from the scheduler's signals.
    // Every name of a server being restarted (PendingRestart::names), ascending.
    QList<int> quarantinedNodes() const
    {
        QList<int> nodes = m_quarantine.keys();
        std::sort(nodes.begin(), nodes.end());
        return nodes;
    }
    bool isQuarantined(int node) const { return m_quarantine.contains(node); }
    qint64 quarantineRemainingMs(int node) const { return m_quarantine.value(node, -1); }
    // True when the console keeps the node down until the delay has passed; false when it only watches
    // (SHUTDOWN NOSAVE: a supervisor brings the node back, usually at once).
    bool quarantineEnforced(int node) const { return m_enforced.value(node, true); }
    // Kept out until the operator abandons its restart (PendingRestart::held: named in a damaged state file).
    bool quarantineHeld(int node) const { return m_held.contains(node); }
    // What configure() found in the pending-restart file that the operator must know (empty: nothing).
    QString resumeMessage() const { return m_resumeMessage; }

    // The console's default lock-delay is automatic (see LockDelay): a force release never lets a newcomer in
    // before the old holder's validity is over.
    QFuture<ForceReleaseReport> previewForceRelease(const QByteArray& key, const QByteArray& token,
                                                    LockDelay lockDelay = LockDelay::automatic());
    QFuture<ForceReleaseReport> executeForceRelease(const QByteArray& key, const QByteArray& token,
                                                    const QString& reason,
                                                    LockDelay lockDelay = LockDelay::automatic());
    QFuture<ScheduleResult> scheduleRestart(const RestartRequest& request);
    void abandonRestart(int node);

signals:
    void configured();
    void restartChanged(const redlock::PendingRestart& restart);
    void countdown(int node, qint64 remainingMs);
    void nodeReturnedEarly(int node, qint64 remainingMs, const QString& detail);
    void restartFinished(const redlock::PendingRestart& restart);
    // NodeRestartScheduler::startFailed: retryInMs -1 = given up.
    void startFailed(const redlock::PendingRestart& restart, qint64 retryInMs);
    void quarantineChanged();
    // NodeRestartScheduler::operatorAlert: a failure the operator must know (an audit line or the pending-restart
    // file not written, a start or an abandon refused, a restart dropped on resume). node -1: not one node.
    void operatorAlert(int node, const QString& message);

private:
    void onRestartChanged(const PendingRestart& restart);

    OperatorSettings m_settings;
    std::unique_ptr<IoThread> m_io;
    IoThread* m_localThread = nullptr;
    QPointer<LocalCluster> m_localCluster;
    QPointer<ForceRelease> m_forceRelease;
    QPointer<NodeRestartScheduler> m_scheduler;
    QHash<int, int> m_localIndex;
    QHash<int, qint64> m_quarantine; // node -> remaining ms
    QHash<int, bool> m_enforced;     // node -> restartMethodEnforcesDelay()
    QSet<int> m_held;                // nodes whose restart is PendingRestart::held
    QHash<int, QList<int>> m_names;  // restarted node -> PendingRestart::names (countdowns name the node only)
    QString m_resumeMessage;
};

} // namespace redlock
