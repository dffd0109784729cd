#include "controller/ClusterController.h"

#include "observe/LockInspector.h"
#include "observe/NodeSession.h"
#include "observe/SafetyAudit.h"
#include "protocol/RedisConnection.h"
#include "runtime/IoThread.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <algorithm>
#include <numeric>

namespace redlock {

// Reads one key on every node over its own connections, timing each node: the lock detail's matrix shows
// what a client would see right now, next to what the last inspection saw.
class LockProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockProbe)

public:
    explicit LockProbe(const QList<NodeEndpoint>& nodes)
    {
        ConnectionOptions options;
        options.commandTimeoutMs = 1000;
        options.clientName = "redlock-console:detail";
        for (const NodeEndpoint& endpoint : nodes)
            m_connections.append(new RedisConnection(endpoint, options, this));
    }
    ~LockProbe() override
    {
        // The connections answer their pending reads with failures as they go: while this is still a
        // LockProbe, and without reporting them (nobody waits for a read of a console that is closing).
        m_closing = true;
        qDeleteAll(std::exchange(m_connections, {}));
    }

    void read(const QByteArray& key)
    {
        auto results = std::make_shared<QList<KeyReadResult>>(m_connections.size());
        auto remaining = std::make_shared<int>(static_cast<int>(m_connections.size()));
        for (int i = 0; i < m_connections.size(); ++i) {
            auto timer = std::make_shared<QElapsedTimer>();
            timer->start();
            m_connections[i]->send({"PTTL", key}, [this, i, key, timer, results, remaining](const RedisReply& reply) {
                if (m_closing)
                    return;
                KeyReadResult& r = (*results)[i];
                r.node = i;
                r.latencyUs = timer->nsecsElapsed() / 1000;
                r.ok = reply.isInteger();
                if (r.ok)
                    r.pttlMs = reply.integer();
                else
                    r.error = reply.errorText();
                if (--*remaining == 0)
                    emit done(key, *results);
            });
        }
    }

signals:
    void done(const QByteArray& key, const QList<redlock::KeyReadResult>& results);

private:
    QList<RedisConnection*> m_connections;
    bool m_closing = false;
};

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
    if (settings.nodes.isEmpty()) {
        if (error)
            *error = tr("no nodes to watch");
        return false;
    }
    const QStringList duplicates = NodeEndpoint::duplicateErrors(settings.nodes);
    if (!duplicates.isEmpty()) {
        if (error)
            *error = duplicates.join(u'\n');
        return false;
    }

    m_settings = settings;
    const quint64 generation = ++m_generation;
    const int n = nodeCount();
    m_facts.clear();
    for (int i = 0; i < n; ++i) {
        NodeFacts facts;
        facts.node = i;
        facts.endpoint = settings.nodes[i];
        m_facts.append(facts);
    }
    m_reported = QList<bool>(n, false);
    m_findings.clear();
    m_largestPttlMs = 0;
    m_inspectionDone = false;
    m_firstRefreshDone = false;
    m_lastUp = -1;
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

    m_io = std::make_unique<IoThread>(QStringLiteral("redlock-observe"));
    auto stale = [this, generation] { return generation != m_generation; };

    NodeSessionOptions sessionOptions;
    sessionOptions.readOnly = settings.readOnly;
    for (int i = 0; i < n; ++i) {
        NodeSession* session = m_io->create<NodeSession>(i, settings.nodes[i], sessionOptions);
        m_sessions.append(session);
        connect(
            session, &NodeSession::factsChanged, this,
            [this, stale](const NodeFacts& facts) {
                if (!stale())
                    onFacts(facts);
            },
            Qt::QueuedConnection);
        connect(
            session, &NodeSession::sampled, this,
            [this, stale](const NodeSample& sample) {
                if (stale() || sample.node < 0 || sample.node >= m_facts.size())
                    return;
                m_metrics->addSample(sample);
                NodeFacts& facts = m_facts[sample.node];
                facts.latencyUs = sample.latencyUs;
                if (sample.clockOffsetUs)
                    facts.clockOffsetUs = sample.clockOffsetUs;
                emit nodeSampled(sample);
            },
            Qt::QueuedConnection);
        connect(
            session, &NodeSession::restarted, this,
            [this, stale](const NodeFacts& facts) {
                if (!stale())
                    emit nodeRestarted(facts);
            },
            Qt::QueuedConnection);
    }

    InspectorOptions inspectorOptions;
    inspectorOptions.nodes = settings.nodes;
    inspectorOptions.pattern = settings.pattern;
    inspectorOptions.driftFactor = settings.driftFactor;
    inspectorOptions.reconcileIntervalMs = settings.refreshIntervalMs;
    inspectorOptions.budgetPerNode = m_rescanBudget;
    inspectorOptions.quarantinedNodes = m_quarantined;
    m_inspector = m_io->create<LockInspector>(inspectorOptions);
    connect(
        m_inspector, &LockInspector::observerLoad, this,
        [this, stale](const QList<ObserverLoad>& load) {
            if (!stale())
                emit observerLoad(load);
        },
        Qt::QueuedConnection);
    // Runs on the I/O thread: new locks are sorted by key there (the locks model keeps key order) and the
    // largest PTTL is found there, so the GUI thread only applies the batch.
    connect(
        m_inspector, &LockInspector::locksChanged, m_inspector,
        [this, stale](const LockChangeSet& changes) {
            const qint64 largest = SafetyAudit::largestPttlMs(changes.appeared); // lock values, not tombstones
            // Sliced here too, so the GUI thread only moves the slices into its queue.
            auto parts = std::make_shared<std::vector<LockChangeSet>>(sliceChanges(changes));
            QMetaObject::invokeMethod(
                this,
                [this, stale, parts, largest] {
                    if (stale())
                        return;
                    m_largestPttlMs = std::max(m_largestPttlMs, largest);
                    queueSlices(std::move(*parts));
                },
                Qt::QueuedConnection);
        },
        Qt::DirectConnection);
    connect(
        m_inspector, &LockInspector::lockEvents, this,
        [this, stale](const QList<LockEvent>& events) {
            if (stale())
                return;
            m_metrics->addEvents(events);
            queueLockEvents(events);
        },
        Qt::QueuedConnection);
    connect(
        m_inspector, &LockInspector::inspectionFinished, this,
        [this, stale](const InspectionSummary& summary) {
            if (stale())
                return;
            m_lastInspection = summary;
            m_inspectionDone = true;
            emit inspectionFinished(summary);
            checkFirstRefresh();
        },
        Qt::QueuedConnection);

    m_probe = m_io->create<LockProbe>(settings.nodes);
    connect(
        m_probe, &LockProbe::done, this,
        [this, stale](const QByteArray& key, const QList<KeyReadResult>& results) {
            if (!stale())
                emit keyRead(key, results);
        },
        Qt::QueuedConnection);

    for (NodeSession* session : std::as_const(m_sessions))
        QMetaObject::invokeMethod(session, &NodeSession::start, Qt::QueuedConnection);
    QMetaObject::invokeMethod(m_inspector, &LockInspector::start, Qt::QueuedConnection);
    m_failureIntervalStartMs = QDateTime::currentMSecsSinceEpoch();
    m_metrics->start();
    emit started(n);
    return true;
}

std::vector<LockChangeSet> ClusterController::sliceChanges(const LockChangeSet& changes)
{
    // Large batches (the first full refresh, a refresh after heavy churn) are applied in slices of a thousand
    // rows, as many per event-loop turn as fit in its time budget (applyNextSlice), with timers, input and a
    // repaint in between. Later batches queue behind the slices, so the order of changes is kept.
    // New locks go in key order (the locks model keeps key order): an index is sorted, not the views, and
    // each view is copied once, straight into its slice.
    constexpr qsizetype slice = 1000;
    std::vector<qsizetype> order(size_t(changes.appeared.size()));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](qsizetype a, qsizetype b) { return changes.appeared[a].key < changes.appeared[b].key; });
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
    const bool idle = m_pendingSlices.empty();
    for (LockChangeSet& part : slices)
        m_pendingSlices.push_back(std::move(part));
    if (idle)
        applyNextSlice();
}

void ClusterController::queueLockEvents(const QList<LockEvent>& events)
{
    if (events.isEmpty())
        return;
    if (m_pendingEvents.empty() && events.size() <= kLockEventSlice) {
        emit lockEvents(events); // the usual case: at once
        return;
    }
    // 100,000 "seen held" events in one emission cost the event log and the journal one long turn (100 ms and
    // more): they go out in slices, behind what is already queued.
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
    while (!m_pendingSlices.empty() || !m_pendingEvents.empty()) {
        if (!m_pendingSlices.empty()) {
            const LockChangeSet part = std::move(m_pendingSlices.front());
            m_pendingSlices.pop_front();
            m_metrics->addChanges(part);
            emit locksChanged(part);
        } else {
            emitNextEventSlice();
        }
        if (turn.elapsed() >= kSliceBudgetMs)
            break;
    }
    if (!m_io)
        return; // a listener stopped the watch
    if (!m_pendingSlices.empty() || !m_pendingEvents.empty())
        m_sliceTimer.start();
    else
        checkFirstRefresh();
}

void ClusterController::stop()
{
    if (!m_io)
        return;
    // Lock events observed and not yet handed on go out now, before the watch ends: the journal ends its
    // session at stop, and a release queued behind a large batch would otherwise read "unobserved".
    while (!m_pendingEvents.empty())
        emitNextEventSlice();
    ++m_generation;
    m_sliceTimer.stop();
    m_pendingSlices.clear();
    if (m_metrics)
        m_metrics->stop();
    // The I/O thread deletes the sessions, the inspector and the prober on their own thread, then ends.
    m_sessions.clear();
    m_inspector = nullptr;
    m_probe = nullptr;
    m_io.reset();
    emit stopped();
}

int ClusterController::nodesUp() const
{
    return static_cast<int>(std::count_if(m_facts.cbegin(), m_facts.cend(), [this](const NodeFacts& f) {
        return f.health == NodeHealth::Up && !m_quarantined.contains(f.node);
    }));
}

void ClusterController::setQuarantinedNodes(const QList<int>& nodes)
{
    if (nodes == m_quarantined)
        return;
    QList<int> touched = m_quarantined + nodes;
    m_quarantined = nodes;
    // The verdicts do not count them either: a lock resting on a quarantined node is not shown as safe.
    if (m_inspector)
        QMetaObject::invokeMethod(
            m_inspector, [inspector = m_inspector, nodes] { inspector->setQuarantinedNodes(nodes); },
            Qt::QueuedConnection);
    for (int node : std::as_const(touched))
        if (node >= 0 && node < m_facts.size())
            emit nodeFactsChanged(node);
    const int up = nodesUp();
    if (up != m_lastUp) {
        m_lastUp = up;
        emit quorumStateChanged(up, nodeCount(), hasQuorum());
    }
}

void ClusterController::refreshNow()
{
    if (m_inspector)
        QMetaObject::invokeMethod(m_inspector, &LockInspector::refresh, Qt::QueuedConnection);
    for (NodeSession* session : std::as_const(m_sessions))
        QMetaObject::invokeMethod(session, &NodeSession::refreshNow, Qt::QueuedConnection);
}

void ClusterController::setRescanBudget(int commandsPerSecond)
{
    commandsPerSecond = std::max(0, commandsPerSecond);
    if (std::exchange(m_rescanBudget, commandsPerSecond) != commandsPerSecond)
        emit rescanBudgetChanged(commandsPerSecond);
    if (m_inspector)
        QMetaObject::invokeMethod(
            m_inspector, [inspector = m_inspector, budget = m_rescanBudget] { inspector->setBudgetPerNode(budget); },
            Qt::QueuedConnection);
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

void ClusterController::onFacts(const NodeFacts& facts)
{
    if (facts.node < 0 || facts.node >= m_facts.size())
        return;
    NodeFacts merged = facts;
    // Samples arrive more often than facts: keep the newest latency and offset.
    if (merged.latencyUs < 0)
        merged.latencyUs = m_facts[facts.node].latencyUs;
    if (!merged.clockOffsetUs)
        merged.clockOffsetUs = m_facts[facts.node].clockOffsetUs;
    m_facts[facts.node] = merged;
    m_reported[facts.node] = facts.health != NodeHealth::Connecting;
    emit nodeFactsChanged(facts.node);
    runAudit();
    const int up = nodesUp();
    if (up != m_lastUp) {
        m_lastUp = up;
        emit quorumStateChanged(up, nodeCount(), hasQuorum());
    }
    checkFirstRefresh();
}

void ClusterController::setConfiguredMaxTtlMs(qint64 ms)
{
    m_configuredMaxTtlMs = std::max<qint64>(0, ms);
    runAudit();
}

void ClusterController::runAudit()
{
    AuditInput input;
    input.nodes = m_facts;
    // The largest PTTL seen is only a lower bound of the TTLs in use: judging restarts by it misses them.
    input.maxTtlMs = auditMaxTtlMs();
    input.driftFactor = m_settings.driftFactor;
    m_findings = SafetyAudit::run(input);
    emit auditChanged();
}

void ClusterController::checkFirstRefresh()
{
    // The first full pass counts once its last slice is in the table.
    if (m_firstRefreshDone || !m_inspectionDone || m_reported.contains(false) || !m_pendingSlices.empty() ||
        !m_pendingEvents.empty())
        return;
    m_firstRefreshDone = true;
    emit firstFullRefresh();
}

} // namespace redlock

#include "ClusterController.moc"
