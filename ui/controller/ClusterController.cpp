#include "controller/ClusterController.h"

#include "observe/KeyProbe.h"
#include "protocol/SshTunnel.h"
#include "runtime/IoThread.h"
#include "watch/ClusterWatch.h"

#include <QDateTime>

#include <algorithm>
#include <numeric>

namespace redlock {

ClusterController::ClusterController(QObject* parent) : QObject(parent)
{
    m_sliceTimer.setSingleShot(true);
    m_sliceTimer.setInterval(0);
    connect(&m_sliceTimer, &QTimer::timeout, this, &ClusterController::applyNextSlice);
}

ClusterController::~ClusterController()
{
    stop();
}

bool ClusterController::start(const ClusterSettings& settings, QString* error)
{
    stop();
    ClusterWatchOptions options;
    options.inspector.nodes = settings.nodes;
    options.inspector.pattern = settings.pattern;
    options.inspector.driftFactor = settings.driftFactor;
    options.inspector.reconcileIntervalMs = settings.refreshIntervalMs;
    options.inspector.budgetPerNode = m_rescanBudget;
    options.inspector.quarantinedNodes = m_quarantined;
    // A full pass comes in chunks of a slice, in key order, each built when the previous ones were handed to the GUI
    // thread: never all its views at once (1.4 KB a lock unpacked, 140 MB at 100,000 locks, whose freed heap the
    // process then keeps), and the table appends each at its end.
    options.inspector.fullPassChunk = kSlice;
    options.inspector.fullPassChunksAhead = 8; // a few ahead: the I/O thread builds the next while the GUI applies
    options.session.readOnly = settings.readOnly;
    options.configuredMaxTtlMs = m_configuredMaxTtlMs;
    const QStringList errors = ClusterWatch::configErrors(options);
    if (!errors.isEmpty()) {
        if (error)
            *error = errors.join(u'\n');
        return false;
    }

    // Nodes behind a bastion: the same tunnels as the CLI's --ssh (SshTunnel::forNodes, one per route), which set
    // each node's tunnelSocket before the sessions are made. They start now and look up their route (ssh -G) and
    // connect in the background: until a tunnel is up its nodes are refused at the local end, unreachable with the
    // tunnel's reason beside them, a route the ssh config makes unusable included.
    QList<NodeEndpoint> nodes = settings.nodes;
    QList<SshTunnel*> tunnels;
    if (std::any_of(nodes.cbegin(), nodes.cend(), [](const NodeEndpoint& n) { return !n.sshRoute.isEmpty(); })) {
        SshTunnel::Options sshOptions;
        sshOptions.configFile = settings.sshConfigFile;
        QString why;
        tunnels = SshTunnel::forNodes(&nodes, sshOptions, this, &why);
        if (tunnels.isEmpty()) {
            if (error)
                *error = tr("SSH: %1").arg(why);
            return false;
        }
        options.inspector.nodes = nodes;
    }

    m_settings = settings;
    m_settings.nodes = nodes;
    m_tunnels = tunnels;
    m_tunnelProblems.clear();
    const quint64 generation = ++m_generation;
    const int n = nodeCount();
    m_inspectionDone = false;
    m_firstPassTold = false;
    m_handOffUnderWay = false;
    m_firstRefreshDone = false;
    m_lastInspection = {};
    m_clientFailures.clear();
    m_metrics = std::make_unique<ClusterMetrics>(n, 120, 1000);
    connect(m_metrics.get(), &ClusterMetrics::updated, this, [this](qint64 atMs) {
        const double seconds =
            m_failureIntervalStartMs > 0 ? std::max<qint64>(1, atMs - m_failureIntervalStartMs) / 1000.0 : 1.0;
        m_clientFailures.append(atMs, m_failedThisSecond / seconds);
        m_failedThisSecond = 0;
        m_failureIntervalStartMs = atMs;
        emit metricsUpdated(atMs);
    });

    m_watch = std::make_unique<ClusterWatch>(options);
    ClusterWatch* watch = m_watch.get();
    connect(watch, &ClusterWatch::nodeFactsChanged, this, &ClusterController::nodeFactsChanged);
    connect(watch, &ClusterWatch::nodeSampled, this, [this](const NodeSample& sample) {
        m_metrics->addSample(sample);
        emit nodeSampled(sample);
    });
    connect(watch, &ClusterWatch::nodeRestarted, this, &ClusterController::nodeRestarted);
    connect(watch, &ClusterWatch::quorumStateChanged, this, &ClusterController::quorumStateChanged);
    connect(watch, &ClusterWatch::auditChanged, this, [this] {
        emit auditChanged();
        checkFirstRefresh(); // the last signal of a facts report
    });
    connect(watch, &ClusterWatch::observerLoad, this, &ClusterController::observerLoad);
    connect(watch, &ClusterWatch::lockEvents, this, [this](const QList<LockEvent>& events) {
        m_metrics->addEvents(events);
        queueLockEvents(events);
    });
    connect(watch, &ClusterWatch::fullPassTold, this, [this] {
        m_firstPassTold = true;
        // The events held back while the pass's chunks came (queueLockEvents) go on now, behind its last rows.
        m_handOffUnderWay = false;
        if (!m_pendingEvents.empty() && !m_sliceTimer.isActive())
            m_sliceTimer.start();
        checkFirstRefresh();
    });
    connect(watch, &ClusterWatch::inspectionFinished, this, [this](const InspectionSummary& summary) {
        m_lastInspection = summary;
        m_inspectionDone = true;
        emit inspectionFinished(summary);
        checkFirstRefresh();
    });
    // On the I/O thread: new locks are sorted by key there (the locks model keeps key order) and sliced, so the
    // GUI thread only moves the slices into its queue.
    watch->setLockChangeSink([this, generation](const LockChangeSet& changes) {
        auto parts = std::make_shared<std::vector<LockChangeSet>>(sliceChanges(changes));
        QMetaObject::invokeMethod(
            this,
            [this, generation, parts] {
                if (generation == m_generation)
                    queueSlices(std::move(*parts));
            },
            Qt::QueuedConnection);
    });
    if (!watch->start(error)) {
        m_watch.reset();
        qDeleteAll(std::exchange(m_tunnels, {}));
        return false;
    }
    for (SshTunnel* tunnel : std::as_const(m_tunnels)) {
        setTunnelProblem(tunnel->route(), tr("connecting through the SSH tunnel via %1").arg(tunnel->route()));
        connect(tunnel, &SshTunnel::up, this, [this, tunnel] { setTunnelProblem(tunnel->route(), {}); });
        connect(tunnel, &SshTunnel::down, this,
                [this, tunnel](const QString& reason) { setTunnelProblem(tunnel->route(), reason); });
        tunnel->start();
    }

    // m_settings.nodes: through the SSH tunnels' local ends where a node has a route.
    m_probe = watch->ioThread()->create<KeyProbe>(m_settings.nodes, QByteArrayLiteral("redlock-console:detail"));
    connect(
        m_probe, &KeyProbe::done, this,
        [this, generation](const QByteArray& key, const QList<KeyReadResult>& results) {
            if (generation == m_generation)
                emit keyRead(key, results);
        },
        Qt::QueuedConnection);

    m_failureIntervalStartMs = QDateTime::currentMSecsSinceEpoch();
    m_metrics->start();
    emit started(n);
    return true;
}

bool ClusterController::isRunning() const
{
    return m_watch && m_watch->isRunning();
}

const QList<NodeFacts>& ClusterController::nodeFacts() const
{
    static const QList<NodeFacts> none;
    return m_watch ? m_watch->nodeFacts() : none;
}

const QList<AuditFinding>& ClusterController::findings() const
{
    static const QList<AuditFinding> none;
    return m_watch ? m_watch->findings() : none;
}

qint64 ClusterController::auditMaxTtlMs() const
{
    return m_watch ? m_watch->auditMaxTtlMs() : rules::auditMaxTtlMs(m_configuredMaxTtlMs, 0);
}

std::vector<LockChangeSet> ClusterController::sliceChanges(const LockChangeSet& changes)
{
    // Large batches (the first full refresh, a refresh after heavy churn) are applied in slices of a thousand
    // rows, as many per event-loop turn as fit in its time budget (applyNextSlice), with timers, input and a
    // repaint in between. Later batches queue behind the slices, so the order of changes is kept.
    // New locks go in key order (the locks model keeps key order): an index is sorted, not the views, and
    // each view is copied once, straight into its slice.
    constexpr qsizetype slice = kSlice;
    const auto byKey = [](const LockView& a, const LockView& b) { return a.key < b.key; };
    if (changes.appeared.size() <= slice && changes.changed.size() <= slice &&
        std::is_sorted(changes.appeared.cbegin(), changes.appeared.cend(), byKey)) {
        // One slice already in key order (every chunk of a first pass's hand-off): as it is, its lists shared,
        // not a copy of each view.
        std::vector<LockChangeSet> out;
        out.push_back(changes);
        return out;
    }
    std::vector<qsizetype> order(size_t(changes.appeared.size()));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](qsizetype a, qsizetype b) { return byKey(changes.appeared[a], changes.appeared[b]); });
    const qsizetype count =
        std::max<qsizetype>(1, (std::max(changes.appeared.size(), changes.changed.size()) + slice - 1) / slice);
    std::vector<LockChangeSet> out;
    out.reserve(size_t(count));
    for (qsizetype i = 0; i < count; ++i) {
        LockChangeSet part;
        const qsizetype end = std::min(changes.appeared.size(), (i + 1) * slice);
        if (i * slice < end)
            part.appeared.reserve(end - i * slice);
        for (qsizetype k = i * slice; k < end; ++k)
            part.appeared.append(changes.appeared[order[size_t(k)]]);
        part.changed = changes.changed.mid(i * slice, slice);
        part.atMs = changes.atMs;
        part.locksPerNode = changes.locksPerNode;
        part.handOffSize = changes.handOffSize;
        if (i == count - 1) {
            part.disappeared = changes.disappeared;
            part.fullRefresh = changes.fullRefresh;
        }
        out.push_back(std::move(part));
    }
    return out;
}

void ClusterController::queueSlices(std::vector<LockChangeSet> slices)
{
    for (LockChangeSet& part : slices) {
        // A chunk of the first full pass's bounded hand-off: more come until ClusterWatch::fullPassTold. (A later
        // pass's, "Refresh now" of many changed locks, holds no live event back.)
        if (part.handOffSize > 0 && !m_firstPassTold)
            m_handOffUnderWay = true;
        m_pendingViews += part.appeared.size() + part.changed.size();
        m_pendingSlices.push_back(std::move(part));
    }
    if (m_pendingViews >= kHoldHandOffAt && !m_handOffHeld) {
        m_handOffHeld = true;
        m_watch->holdHandOff(true);
    }
    // Applied on the slice timer, not here: the chunks of a first pass arrive as posted calls that the event loop
    // runs back to back, and each applying its budget's worth at once made one turn of several budgets.
    if (!m_sliceTimer.isActive())
        m_sliceTimer.start();
}

void ClusterController::queueLockEvents(const QList<LockEvent>& events)
{
    if (events.isEmpty())
        return;
    if (!m_handOffUnderWay && m_pendingEvents.empty() && m_pendingSlices.empty() &&
        events.size() <= kLockEventsAtOnce) {
        emit lockEvents(events); // the usual case: at once
        return;
    }
    // 100,000 "seen held" events in one emission cost the event log and the journal one long turn (100 ms and
    // more): they go out in slices, behind what is already queued. While the first full pass's chunks are coming, its
    // events wait until its last rows are in the table (applyNextSlice): between two chunks the table has caught up,
    // and events handed on then had the journal's writer and the event log take a share of the two cores the inspector
    // and the table need (at 1M locks, about a tenth of the time between the pass and the whole table).
    m_pendingEvents.push_back(events);
    if (!m_sliceTimer.isActive())
        m_sliceTimer.start();
}

void ClusterController::emitNextEventSlice()
{
    const QList<LockEvent>& batch = m_pendingEvents.front();
    const QList<LockEvent> slice = batch.mid(m_pendingEventsFrom, kLockEventSlice);
    m_pendingEventsFrom += slice.size();
    if (m_pendingEventsFrom >= batch.size()) {
        m_pendingEvents.pop_front();
        m_pendingEventsFrom = 0;
    }
    emit lockEvents(slice); // a listener may stop the watch: nothing of this call is used after
}

void ClusterController::applyNextSlice()
{
    // Slices are applied back to back for up to kSliceBudgetMs of one turn, then the loop gets its turn
    // (input, timers, one repaint): fewer repaints of the table than one slice per turn, and no turn much
    // longer than the budget plus one slice. Lock events share the budget and come after the table: the locks
    // are what the operator waits for; the events of a first pass (100,000 "seen held" at 100,000 locks) go to
    // the event log and the journal once the table is whole.
    constexpr qint64 kSliceBudgetMs = 15;
    QElapsedTimer turn;
    turn.start();
    const auto eventsDue = [this] { return !m_pendingEvents.empty() && !m_handOffUnderWay; };
    while (!m_pendingSlices.empty() || eventsDue()) {
        if (!m_pendingSlices.empty()) {
            LockChangeSet part = std::move(m_pendingSlices.front());
            m_pendingSlices.pop_front();
            m_pendingViews -= part.appeared.size() + part.changed.size();
            if (m_handOffHeld && m_pendingViews <= kResumeHandOffAt) {
                m_handOffHeld = false;
                m_watch->holdHandOff(false);
            }
            m_metrics->addChanges(part);
            emit locksChanged(part);
            if (!isRunning())
                return; // a listener stopped the watch
            m_watch->giveBack(std::move(part));
        } else {
            emitNextEventSlice();
        }
        if (turn.elapsed() >= kSliceBudgetMs)
            break;
    }
    if (!isRunning())
        return; // a listener stopped the watch
    if (!m_pendingSlices.empty() || eventsDue())
        m_sliceTimer.start();
    else
        checkFirstRefresh();
}

void ClusterController::stop()
{
    if (!isRunning())
        return;
    // Lock events observed and not yet handed on go out now, before the watch ends: the journal ends its
    // session at stop, and a release queued behind a large batch would otherwise read "unobserved". A first pass
    // still coming in chunks is told whole first: every lock it saw has its "seen held" in the journal.
    m_watch->tellRestOfPass();
    if (!isRunning())
        return; // a listener stopped the watch meanwhile (it did all of this)
    while (!m_pendingEvents.empty())
        emitNextEventSlice();
    ++m_generation;
    m_sliceTimer.stop();
    m_pendingSlices.clear();
    m_pendingViews = 0;
    m_handOffHeld = false;
    m_handOffUnderWay = false;
    if (m_metrics)
        m_metrics->stop();
    // The I/O thread deletes the sessions, the inspector and the prober on their own thread, then ends. The watch
    // stays, stopped, with its last facts and findings; it tells this controller nothing more.
    m_watch->disconnect(this);
    m_probe = nullptr;
    m_watch->stop();
    // The tunnels end with the watch (ssh is killed): a later start() makes its own.
    qDeleteAll(std::exchange(m_tunnels, {}));
    emit stopped();
}

QString ClusterController::tunnelProblem(int node) const
{
    return m_tunnelProblems.value(m_settings.nodes.value(node).sshRoute);
}

void ClusterController::setTunnelProblem(const QString& route, const QString& problem)
{
    if (m_tunnelProblems.value(route) == problem && m_tunnelProblems.contains(route) == !problem.isEmpty())
        return;
    if (problem.isEmpty())
        m_tunnelProblems.remove(route);
    else
        m_tunnelProblems.insert(route, problem);
    for (int i = 0; i < m_settings.nodes.size(); ++i)
        if (m_settings.nodes[i].sshRoute == route)
            emit tunnelProblemChanged(i, problem);
}

int ClusterController::nodesUp() const
{
    return m_watch ? m_watch->nodesUp() : 0;
}

void ClusterController::setQuarantinedNodes(const QList<int>& nodes)
{
    if (nodes == m_quarantined)
        return;
    m_quarantined = nodes;
    if (isRunning())
        m_watch->setQuarantinedNodes(nodes); // nodeFactsChanged, quorumStateChanged
}

void ClusterController::refreshNow()
{
    if (isRunning())
        m_watch->refreshNow();
}

void ClusterController::setRescanBudget(int commandsPerSecond)
{
    commandsPerSecond = std::max(0, commandsPerSecond);
    if (std::exchange(m_rescanBudget, commandsPerSecond) != commandsPerSecond)
        emit rescanBudgetChanged(commandsPerSecond);
    if (isRunning())
        m_watch->setRescanBudget(m_rescanBudget);
}

void ClusterController::readKey(const QByteArray& key)
{
    if (m_probe)
        QMetaObject::invokeMethod(
            m_probe, [probe = m_probe, key] { probe->read(key); }, Qt::QueuedConnection);
}

void ClusterController::noteClientAcquires(int acquired, int failed)
{
    Q_UNUSED(acquired)
    m_failedThisSecond += failed;
}

void ClusterController::setConfiguredMaxTtlMs(qint64 ms)
{
    m_configuredMaxTtlMs = std::max<qint64>(0, ms);
    if (m_watch)
        m_watch->setConfiguredMaxTtlMs(m_configuredMaxTtlMs); // auditChanged
}

void ClusterController::checkFirstRefresh()
{
    // The first full pass counts once its last slice is in the table.
    if (m_firstRefreshDone || !isRunning() || !m_inspectionDone || !m_firstPassTold || !m_watch->allNodesReported() ||
        !m_pendingSlices.empty() || !m_pendingEvents.empty())
        return;
    m_firstRefreshDone = true;
    emit firstFullRefresh();
}

} // namespace redlock
