#include "watch/ClusterWatch.h"

#include "alerts/AlertMonitor.h"
#include "observe/SafetyAudit.h"
#include "runtime/IoThread.h"

#include <QCoreApplication>
#include <QEvent>
#include <QSet>

#include <algorithm>

namespace redlock {

namespace {

// The largest PTTL of a lock value in a change set (SafetyAudit::largestPttlMs: never a tombstone's).
qint64 largestPttlOf(const LockChangeSet& changes)
{
    return std::max(SafetyAudit::largestPttlMs(changes.appeared), SafetyAudit::largestPttlMs(changes.changed));
}

} // namespace

ClusterWatch::ClusterWatch(ClusterWatchOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_quarantined(m_options.inspector.quarantinedNodes)
{
    const int n = nodeCount();
    for (int i = 0; i < n; ++i) {
        NodeFacts facts;
        facts.node = i;
        facts.endpoint = m_options.inspector.nodes[i];
        m_facts.append(facts);
    }
    m_reported = QList<bool>(n, false);
    m_reportedUp = QList<int>(n, -1);
}

ClusterWatch::~ClusterWatch()
{
    stop();
}

QStringList ClusterWatch::configErrors(const ClusterWatchOptions& options)
{
    QStringList errors;
    if (options.inspector.nodes.isEmpty())
        errors << QCoreApplication::translate("redlock::ClusterWatch", "no nodes to watch");
    errors << NodeEndpoint::duplicateErrors(options.inspector.nodes);
    if (!rules::driftFactorValid(options.inspector.driftFactor))
        errors << rules::driftFactorError(options.inspector.driftFactor);
    return errors;
}

bool ClusterWatch::start(QString* error)
{
    if (m_io)
        return true;
    const QStringList errors = configErrors(m_options);
    if (!errors.isEmpty()) {
        if (error)
            *error = errors.join(u'\n');
        return false;
    }
    const int n = nodeCount();
    m_io = std::make_unique<IoThread>(m_options.threadName);
    for (int i = 0; i < n; ++i) {
        NodeSession* session = m_io->create<NodeSession>(i, m_options.inspector.nodes[i], m_options.session);
        m_sessions.append(session);
        connect(session, &NodeSession::factsChanged, this, &ClusterWatch::onFacts, Qt::QueuedConnection);
        connect(session, &NodeSession::sampled, this, &ClusterWatch::onSample, Qt::QueuedConnection);
        connect(session, &NodeSession::restarted, this, &ClusterWatch::nodeRestarted, Qt::QueuedConnection);
    }

    InspectorOptions inspectorOptions = m_options.inspector;
    inspectorOptions.quarantinedNodes = m_quarantined;
    if (!m_options.keepLocks) {
        // One pass, nothing kept: the views go through the sink below and are dropped there.
        inspectorOptions.keyspaceEvents = false;
        inspectorOptions.reconcileIntervalMs = 0;
        // Only the largest PTTL is wanted, and each node's own reads give it: no set of the names read either.
        inspectorOptions.perNodeReads = true;
    }
    m_inspector = m_io->create<LockInspector>(inspectorOptions);
    // The running maximum is taken on the I/O thread, where the change sets (or the views) are, and only a larger
    // value crosses to this thread: ahead of the change set or the summary it came with (one queue, in order).
    auto noteOnIo = [this](qint64 largest) {
        if (largest <= m_ioLargestPttlMs)
            return;
        m_ioLargestPttlMs = largest;
        QMetaObject::invokeMethod(
            this, [this, largest] { noteLargestPttl(largest); }, Qt::QueuedConnection);
    };
    if (!m_options.keepLocks) {
        m_io->runAndWait([inspector = m_inspector, noteOnIo] {
            inspector->setViewSink([noteOnIo](LockView&& view) { noteOnIo(SafetyAudit::largestPttlMs(view)); });
        });
    }
    connect(
        m_inspector, &LockInspector::locksChanged, m_inspector,
        [this, noteOnIo, sink = m_sink](const LockChangeSet& changes) {
            noteOnIo(largestPttlOf(changes));
            if (sink) {
                sink(changes);
                return;
            }
            QMetaObject::invokeMethod(
                this,
                [this, changes] {
                    if (m_monitor)
                        m_monitor->applyLocks(changes);
                    emit locksChanged(changes);
                },
                Qt::QueuedConnection);
        },
        Qt::DirectConnection);
    if (m_eventTap)
        connect(m_inspector, &LockInspector::lockEvents, m_inspector, m_eventTap, Qt::DirectConnection);
    connect(m_inspector, &LockInspector::lockEvents, this, &ClusterWatch::lockEvents, Qt::QueuedConnection);
    // A bounded first pass (InspectorOptions::fullPassChunksAhead): a chunk is taken once its change set and events
    // were delivered here, which were queued ahead of this.
    connect(
        m_inspector, &LockInspector::fullPassChunkSent, this,
        [this] {
            if (m_inspector)
                m_inspector->fullPassChunkTaken();
        },
        Qt::QueuedConnection);
    connect(m_inspector, &LockInspector::fullPassTold, this, &ClusterWatch::fullPassTold, Qt::QueuedConnection);
    connect(
        m_inspector, &LockInspector::inspectionFinished, this,
        [this](const InspectionSummary& summary) {
            m_lastInspection = summary;
            m_inspectionDone = true;
            emit inspectionFinished(summary);
        },
        Qt::QueuedConnection);
    connect(m_inspector, &LockInspector::observerLoad, this, &ClusterWatch::observerLoad, Qt::QueuedConnection);
    connect(m_inspector, &LockInspector::liveSourceChanged, this, &ClusterWatch::liveSourceChanged,
            Qt::QueuedConnection);

    for (NodeSession* session : std::as_const(m_sessions))
        QMetaObject::invokeMethod(session, &NodeSession::start, Qt::QueuedConnection);
    if (m_options.keepLocks)
        QMetaObject::invokeMethod(m_inspector, &LockInspector::start, Qt::QueuedConnection);
    else
        QMetaObject::invokeMethod(m_inspector, &LockInspector::refresh, Qt::QueuedConnection);
    return true;
}

void ClusterWatch::stop()
{
    if (!m_io)
        return;
    // The I/O thread deletes the sessions and the inspector on their own thread, then ends; what they queued for
    // this object and was not delivered yet is dropped with it (or with this object).
    // A bounded first pass still being handed over (a slow stdout, `watch | head`, Ctrl+C mid pass): the event tap
    // (a journal, which records on the I/O thread) gets the rest now, or the locks not told yet would have no
    // interval in a span the history says was watched. What it queues for this object is dropped below.
    if (m_eventTap && m_inspector)
        m_io->runAndWait([inspector = m_inspector] { inspector->tellRestOfPassNow(); });
    m_sessions.clear();
    m_inspector = nullptr;
    m_io.reset();
    QCoreApplication::removePostedEvents(this, QEvent::MetaCall);
}

void ClusterWatch::holdHandOff(bool hold)
{
    if (m_inspector)
        m_inspector->holdHandOff(hold);
}

void ClusterWatch::giveBack(LockChangeSet spent)
{
    if (!m_inspector || spent.isEmpty())
        return;
    // The functor, and with it the set, is destroyed on the inspector's thread once run.
    QMetaObject::invokeMethod(
        m_inspector, [spent = std::move(spent)] { Q_UNUSED(spent); }, Qt::QueuedConnection);
}

void ClusterWatch::tellRestOfPass()
{
    if (!m_io || !m_inspector)
        return;
    m_io->runAndWait([inspector = m_inspector] { inspector->tellRestOfPassNow(); });
    // Its emissions are queued for this object behind the chunks told before: all of them, in order, now.
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

void ClusterWatch::setAlertMonitor(AlertMonitor* monitor)
{
    m_monitor = monitor;
    if (!m_monitor)
        return;
    m_monitor->setQuarantined(m_quarantined);
    m_monitor->setMaxTtlMs(auditMaxTtlMs());
    for (int i = 0; i < m_facts.size(); ++i) {
        if (m_reported[i])
            m_monitor->setNodeFacts(m_facts[i]);
    }
    m_monitor->setFindings(m_findings);
}

bool ClusterWatch::isNodeUp(int node) const
{
    return node >= 0 && node < m_facts.size() && nodeCountsAsUp(m_facts[node], m_quarantined);
}

int ClusterWatch::nodesUp() const
{
    // One server, one vote, as in RedlockClient and every verdict.
    return distinctServersUp(m_facts, m_quarantined);
}

void ClusterWatch::setQuarantinedNodes(const QList<int>& nodes)
{
    if (nodes == m_quarantined)
        return;
    const QList<int> touched = m_quarantined + nodes;
    m_quarantined = nodes;
    // The verdicts do not count them either: a lock resting on a quarantined node is not shown as safe.
    if (m_inspector)
        QMetaObject::invokeMethod(
            m_inspector, [inspector = m_inspector, nodes] { inspector->setQuarantinedNodes(nodes); },
            Qt::QueuedConnection);
    if (m_monitor)
        m_monitor->setQuarantined(nodes);
    for (int node : touched) {
        if (node < 0 || node >= m_facts.size())
            continue;
        emit nodeFactsChanged(node);
        if (m_reported[node] && m_reportedUp[node] != int(isNodeUp(node))) {
            m_reportedUp[node] = int(isNodeUp(node));
            emit nodeUpChanged(node, isNodeUp(node));
        }
    }
    checkQuorum();
}

void ClusterWatch::setConfiguredMaxTtlMs(qint64 ms)
{
    m_options.configuredMaxTtlMs = std::max<qint64>(0, ms);
    runAudit();
}

void ClusterWatch::refreshNow()
{
    if (m_inspector)
        QMetaObject::invokeMethod(m_inspector, &LockInspector::refresh, Qt::QueuedConnection);
    for (NodeSession* session : std::as_const(m_sessions))
        QMetaObject::invokeMethod(session, &NodeSession::refreshNow, Qt::QueuedConnection);
}

void ClusterWatch::setRescanBudget(int commandsPerSecond)
{
    m_options.inspector.budgetPerNode = std::max(0, commandsPerSecond);
    if (m_inspector)
        QMetaObject::invokeMethod(
            m_inspector,
            [inspector = m_inspector, budget = m_options.inspector.budgetPerNode] {
                inspector->setBudgetPerNode(budget);
            },
            Qt::QueuedConnection);
}

void ClusterWatch::onFacts(const NodeFacts& facts)
{
    if (facts.node < 0 || facts.node >= m_facts.size())
        return;
    NodeFacts merged = facts;
    // Samples arrive more often than facts: keep the newest latency and offset, while the node answers (one
    // that stopped answering has none: an old offset would read as a measurement).
    if (merged.health == NodeHealth::Up) {
        if (merged.latencyUs < 0)
            merged.latencyUs = m_facts[facts.node].latencyUs;
        if (!merged.clockOffsetUs) {
            merged.clockOffsetUs = m_facts[facts.node].clockOffsetUs;
            merged.clockOffsetUncertaintyUs = m_facts[facts.node].clockOffsetUncertaintyUs;
        }
    }
    m_facts[facts.node] = merged;
    if (facts.health != NodeHealth::Connecting)
        m_reported[facts.node] = true;
    if (m_monitor)
        m_monitor->setNodeFacts(merged);
    emit nodeFactsChanged(facts.node);
    if (m_reported[facts.node] && m_reportedUp[facts.node] != int(isNodeUp(facts.node))) {
        m_reportedUp[facts.node] = int(isNodeUp(facts.node));
        emit nodeUpChanged(facts.node, isNodeUp(facts.node));
    }
    checkQuorum();
    updateDownNodes();
    runAudit(); // last: auditChanged() closes what one facts report changed
}

void ClusterWatch::updateDownNodes()
{
    QList<int> down;
    for (int i = 0; i < m_facts.size(); ++i) {
        if (m_reported[i] && m_facts[i].health != NodeHealth::Up)
            down.append(i);
    }
    if (down == m_downNodes || !m_inspector)
        return;
    m_downNodes = down;
    QMetaObject::invokeMethod(
        m_inspector, [inspector = m_inspector, down] { inspector->setDownNodes(down); }, Qt::QueuedConnection);
}

void ClusterWatch::onSample(const NodeSample& sample)
{
    if (sample.node < 0 || sample.node >= m_facts.size())
        return;
    NodeFacts& facts = m_facts[sample.node];
    facts.latencyUs = sample.latencyUs;
    if (sample.clockOffsetUs) {
        facts.clockOffsetUs = sample.clockOffsetUs;
        facts.clockOffsetUncertaintyUs = sample.clockOffsetUncertaintyUs;
    }
    emit nodeSampled(sample);
}

void ClusterWatch::noteLargestPttl(qint64 ms)
{
    if (ms <= m_largestPttlMs)
        return;
    const qint64 before = auditMaxTtlMs();
    m_largestPttlMs = ms;
    if (auditMaxTtlMs() != before)
        runAudit();
}

void ClusterWatch::runAudit()
{
    AuditInput input;
    input.nodes = m_facts;
    // What a node said before it went down is no audit of it now: a node that does not answer is unverified, as
    // `redlock audit` finds it (a quarantined node that answers is audited: its restart is what the rules judge).
    for (NodeFacts& f : input.nodes) {
        if (f.health != NodeHealth::Up)
            f.infoKnown = false;
    }
    input.maxTtlMs = auditMaxTtlMs();
    input.driftFactor = m_options.inspector.driftFactor;
    m_findings = SafetyAudit::run(input);
    if (m_monitor) {
        m_monitor->setMaxTtlMs(input.maxTtlMs);
        m_monitor->setFindings(m_findings);
    }
    emit auditChanged();
}

void ClusterWatch::checkQuorum()
{
    const int up = nodesUp();
    if (up == m_lastUp)
        return;
    m_lastUp = up;
    emit quorumStateChanged(up, nodeCount(), hasQuorum());
}

} // namespace redlock
