#include "controller/OperatorActions.h"

#include "localcluster/LocalCluster.h"
#include "localcluster/LocalClusterRestartBackend.h"
#include "operate/AuditLog.h"
#include "runtime/IoThread.h"
#include "runtime/SteadyClock.h"

#include <QDir>
#include <QStandardPaths>

namespace redlock {

OperatorActions::OperatorActions(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<PendingRestart>();
    qRegisterMetaType<ForceReleaseReport>();
}

OperatorActions::~OperatorActions()
{
    stop();
}

void OperatorActions::setLocalCluster(IoThread* thread, LocalCluster* cluster)
{
    m_localThread = thread;
    m_localCluster = cluster;
}

QString OperatorActions::auditLogPath() const
{
    return m_settings.auditLogPath.isEmpty() ? AuditLog::defaultPath() : m_settings.auditLogPath;
}

QString OperatorActions::defaultRestartStateFile()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("pending-restarts.json"));
}

void OperatorActions::stop()
{
    if (m_scheduler) {
        NodeRestartScheduler* scheduler = m_scheduler;
        auto drop = [scheduler] { delete scheduler; };
        if (m_localThread && scheduler->thread() == m_localThread->thread())
            m_localThread->runAndWait(drop);
        else if (m_io)
            m_io->runAndWait(drop);
    }
    m_scheduler = nullptr;
    m_forceRelease = nullptr;
    m_io.reset(); // deletes ForceRelease (and the scheduler, when it lived here) on its thread
    m_localIndex.clear();
    m_enforced.clear();
    m_held.clear();
    m_names.clear();
    if (!m_quarantine.isEmpty()) {
        m_quarantine.clear();
        emit quarantineChanged();
    }
}

void OperatorActions::configure(const OperatorSettings& settings)
{
    stop();
    m_settings = settings;
    m_io = std::make_unique<IoThread>(QStringLiteral("redlock-ops"));

    ForceReleaseOptions fo;
    fo.nodes = settings.cluster.nodes;
    fo.readOnly = settings.cluster.readOnly;
    fo.driftFactor = settings.cluster.driftFactor;
    fo.profileName = settings.cluster.profileName;
    fo.auditLogPath = settings.auditLogPath;
    m_forceRelease = m_io->create<ForceRelease>(fo);

    RestartSchedulerOptions ro;
    ro.nodes = settings.cluster.nodes;
    ro.configuredMaxTtlMs = settings.configuredMaxTtlMs;
    ro.driftFactor = settings.cluster.driftFactor;
    ro.stateFile = settings.restartStateFile.isEmpty() ? defaultRestartStateFile() : settings.restartStateFile;
    ro.readOnly = settings.cluster.readOnly;
    ro.profileName = settings.cluster.profileName;
    ro.auditLogPath = settings.auditLogPath;
    ro.tickIntervalMs = settings.restartTickMs;

    IoThread* schedulerThread = m_io.get();
    if (m_localCluster && m_localThread) {
        // Match the watched nodes with the local cluster's processes (on the cluster's thread).
        LocalCluster* cluster = m_localCluster;
        QHash<int, int> matches;
        const QList<NodeEndpoint> nodes = settings.cluster.nodes;
        m_localThread->runAndWait([&] {
            for (int i = 0; i < cluster->size(); ++i)
                for (int n = 0; n < nodes.size(); ++n)
                    if (cluster->endpoint(i).identity() == nodes[n].identity())
                        matches.insert(n, i);
        });
        m_localIndex = matches;
        if (!matches.isEmpty()) {
            ro.localClusterBackend = LocalClusterRestartBackend::factory(cluster);
            schedulerThread = m_localThread;
        }
    }
    m_scheduler = schedulerThread->create<NodeRestartScheduler>(ro);
    NodeRestartScheduler* scheduler = m_scheduler;
    connect(scheduler, &NodeRestartScheduler::restartChanged, this, &OperatorActions::onRestartChanged);
    connect(scheduler, &NodeRestartScheduler::restartFinished, this, [this](const PendingRestart& r) {
        onRestartChanged(r);
        emit restartFinished(r);
    });
    connect(scheduler, &NodeRestartScheduler::countdown, this, [this](int node, qint64 remainingMs) {
        for (const int name : m_names.value(node, {node})) {
            if (m_quarantine.contains(name))
                m_quarantine[name] = remainingMs;
        }
        emit countdown(node, remainingMs);
    });
    connect(scheduler, &NodeRestartScheduler::nodeReturnedEarly, this, &OperatorActions::nodeReturnedEarly);
    connect(scheduler, &NodeRestartScheduler::startFailed, this, &OperatorActions::startFailed);
    connect(scheduler, &NodeRestartScheduler::operatorAlert, this, &OperatorActions::operatorAlert);

    QList<PendingRestart> resumed;
    QString error;
    schedulerThread->runAndWait([&] {
        scheduler->loadPending(&error);
        resumed = scheduler->pending();
    });
    m_resumeMessage = error;
    for (const PendingRestart& r : std::as_const(resumed))
        onRestartChanged(r);
    emit configured();
}

void OperatorActions::onRestartChanged(const PendingRestart& restart)
{
    const QList<int> quarantinedBefore = quarantinedNodes();
    // Every name of the server is kept out with the node: another name reaches the same data.
    const QList<int> names = restart.names();
    if (restart.isActive()) {
        m_names[restart.node] = names;
        for (const int name : names) {
            // The scheduler counts down on the system's monotonic clock, as this does.
            m_quarantine[name] = restart.remainingMs(SteadyClock::system()->nowNs() / 1'000'000);
            m_enforced[name] = restartMethodEnforcesDelay(restart.method.kind);
            if (restart.held)
                m_held.insert(name);
            else
                m_held.remove(name);
        }
    } else {
        m_names.remove(restart.node);
        for (const int name : names) {
            m_quarantine.remove(name);
            m_enforced.remove(name);
            m_held.remove(name);
        }
    }
    emit restartChanged(restart);
    if (quarantinedBefore != quarantinedNodes())
        emit quarantineChanged();
}

QFuture<ForceReleaseReport> OperatorActions::previewForceRelease(const QByteArray& key, const QByteArray& token,
                                                                 LockDelay lockDelay)
{
    return m_forceRelease->preview(key, token, lockDelay);
}

QFuture<ForceReleaseReport> OperatorActions::executeForceRelease(const QByteArray& key, const QByteArray& token,
                                                                 const QString& reason, LockDelay lockDelay)
{
    return m_forceRelease->execute(key, token, reason, lockDelay);
}

QFuture<ScheduleResult> OperatorActions::scheduleRestart(const RestartRequest& request)
{
    return m_scheduler->schedule(request);
}

void OperatorActions::abandonRestart(int node)
{
    NodeRestartScheduler* scheduler = m_scheduler;
    if (scheduler)
        QMetaObject::invokeMethod(
            scheduler, [scheduler, node] { scheduler->abandon(node); }, Qt::QueuedConnection);
}

} // namespace redlock
