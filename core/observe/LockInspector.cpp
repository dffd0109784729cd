#include "observe/LockInspector.h"

#include "observe/KeyPattern.h"
#include "observe/LockInspectorPass.h"
#include "redlock/FencingCounters.h"
#include "runtime/ClientName.h"

#include <QThread>

#include <algorithm>

namespace redlock {

using inspector::kNsPerMs;
using inspector::kRedissonChannelPrefix;
using inspector::wallNowMs;

namespace {

// At most this many groups (a page's keys read on every node) in flight per scanning node during a pass:
// bounds memory and the queueing a single round trip sees, while keeping the nodes busy.
constexpr int kMaxReadsInFlight = 2;

} // namespace

LockInspector::LockInspector(InspectorOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)),
      m_clock(m_options.clock ? m_options.clock : SteadyClock::system()), m_events(nodeCount(), m_clock),
      m_budget(nodeCount())
{
    m_options.scanCount = std::max(1, m_options.scanCount);
    m_options.readBatchKeys = std::max(1, m_options.readBatchKeys);
    ConnectionOptions connection = m_options.connection;
    connection.commandTimeoutMs = m_options.commandTimeoutMs;
    for (int i = 0; i < nodeCount(); ++i) {
        NodeLink link;
        connection.clientName = applicationClientName("inspect");
        connection.readServerIdentity = true; // noteRunId()
        link.reader = new RedisConnection(m_options.nodes[i], connection, this);
        link.keys = std::make_unique<KeyReader>(
            link.reader, i, m_options.readBatchKeys, m_options.commandTimeoutMs, m_clock, m_alive,
            KeyReader::Hooks{[this, i](qint64 commands, bool forPass) { charge(i, commands, forPass); },
                             [this](qint64 us) { noteCallUs(us); }},
            !patternNamesLocks(m_options.pattern));
        link.keys->setPageScripts(m_options.pageScripts);
        connect(link.reader, &RedisConnection::ready, this, [this, i] {
            noteRunId(i);
            checkEventsConfig(i);
        });
        connect(link.reader, &RedisConnection::connectionLost, this, [this, i](RedisErrorKind, const QString&) {
            NodeLink& l = m_links[static_cast<size_t>(i)];
            l.lostAtNs = m_clock->nowNs();
            l.restartUnchecked = true;
        });
        if (m_options.keyspaceEvents) {
            connection.clientName = applicationClientName("events");
            link.subscriber = new RedisConnection(m_options.nodes[i], connection, this);
            link.subscriber->setPushHandler([this, i](const RedisReply& reply) { onKeyspaceMessage(i, reply); });
            connect(link.subscriber, &RedisConnection::ready, this, [this, i] { subscribe(i); });
            connect(link.subscriber, &RedisConnection::connectionLost, this,
                    [this, i](RedisErrorKind, const QString& message) {
                        NodeLink& l = m_links[static_cast<size_t>(i)];
                        if (l.subscribed) {
                            l.subscribed = false;
                            l.subscribeNote = tr("Pub/Sub connection lost: %1").arg(message);
                            emit keyspaceSubscription(i, false, message);
                            reportLiveSource(i);
                        }
                    });
        }
        m_links.push_back(std::move(link));
    }
    m_locksPerNode = QList<int>(nodeCount(), 0);
    m_reconcileTimer.setSingleShot(true);
    connect(&m_reconcileTimer, &QTimer::timeout, this, [this] { startPass(true, m_options.budgetPerNode > 0); });
    m_throttleTimer.setSingleShot(true);
    connect(&m_throttleTimer, &QTimer::timeout, this, [this] {
        for (int n = 0; n < nodeCount() && m_pass; ++n)
            continueScan(n);
    });
    m_eventsCheckTimer.setInterval(std::max(0, m_options.eventsCheckIntervalMs));
    connect(&m_eventsCheckTimer, &QTimer::timeout, this, [this] {
        for (int n = 0; n < nodeCount(); ++n)
            checkEventsConfig(n);
    });
    m_loadTimer.setInterval(std::max(0, m_options.loadReportIntervalMs));
    connect(&m_loadTimer, &QTimer::timeout, this, &LockInspector::reportLoad);
    m_budgetClock.start();
    m_eventTimer.setSingleShot(true);
    m_eventTimer.setInterval(std::max(0, m_options.eventBatchMs));
    connect(&m_eventTimer, &QTimer::timeout, this, &LockInspector::flushTouched);
    m_validityTimer.setSingleShot(true);
    m_validityTimer.setTimerType(Qt::PreciseTimer); // a coarse timer may be late by 5% of a 30 s validity
    connect(&m_validityTimer, &QTimer::timeout, this, &LockInspector::onValidityTimer);
}

LockInspector::~LockInspector()
{
    // Pending handlers are answered with failures while the connections go: they must find us gone.
    *m_alive = false;
    m_pass.reset();
    for (NodeLink& link : m_links) {
        delete link.reader;
        delete link.subscriber;
    }
    m_links.clear();
}

bool LockInspector::keyspaceEventsSufficient(const QString& flags)
{
    if (!flags.contains(u'K'))
        return false;
    const bool all = flags.contains(u'A');
    for (const QChar c : QStringLiteral("g$hx")) {
        if (!all && !flags.contains(c))
            return false;
    }
    return true;
}

void LockInspector::start()
{
    m_started = true;
    for (NodeLink& link : m_links) {
        link.reader->open();
        if (link.subscriber)
            link.subscriber->open();
    }
    if (m_options.keyspaceEvents && m_options.eventsCheckIntervalMs > 0)
        m_eventsCheckTimer.start();
    if (m_options.loadReportIntervalMs > 0) {
        for (NodeLink& link : m_links) {
            link.reportedTotal =
                link.reader->commandsWritten() + (link.subscriber ? link.subscriber->commandsWritten() : 0);
            link.reportedRescan = link.rescanCommands;
            link.reportedEvents = link.eventCommands;
        }
        m_loadClock.start();
        m_loadTimer.start();
    }
    if (!m_options.keyspaceEvents) {
        for (int n = 0; n < nodeCount(); ++n)
            reportLiveSource(n);
    }
    refresh();
}

void LockInspector::stop()
{
    m_started = false;
    m_resyncPending = false;
    m_reconcileTimer.stop();
    m_throttleTimer.stop();
    m_eventsCheckTimer.stop();
    m_loadTimer.stop();
    m_eventTimer.stop();
    m_validityTimer.stop();
    m_pass.reset();
    m_refreshAgain = false;
    for (NodeLink& link : m_links) {
        link.reader->close();
        if (link.subscriber)
            link.subscriber->close();
        link.subscribed = false;
    }
}

LockSnapshot LockInspector::snapshot() const
{
    // Taken on the inspector's thread: a copy of the live views is O(1) (implicit sharing) and costs a deep
    // copy only if the views change while the caller still holds it. (Publishing a copy after every change
    // did that deep copy after every keyspace-event batch: 100,000 entries every 50 ms under churn.)
    PackedViews packed;
    if (QThread::currentThread() == thread() || !thread()->isRunning())
        packed = m_views;
    else
        QMetaObject::invokeMethod(
            const_cast<LockInspector*>(this), [this, &packed] { packed = m_views; }, Qt::BlockingQueuedConnection);
    LockSnapshot views;
    views.reserve(packed.size());
    for (auto it = packed.cbegin(); it != packed.cend(); ++it)
        views.insert(it.key(), it->view.unpack(it.key()));
    return views;
}

SkippedKeys LockInspector::lastSkipped() const
{
    QMutexLocker lock(&m_snapshotMutex);
    return m_lastSkipped;
}

void LockInspector::noteCallUs(qint64 us)
{
    m_longestCallUs = std::max(m_longestCallUs, us);
}

// ------------------------------------------------------------------------------------------ full pass

void LockInspector::refresh()
{
    if (m_pass && m_pass->throttled) {
        // The operator wants the full picture now: the rescan under way goes on at full speed.
        m_pass->throttled = false;
        m_throttleTimer.stop();
        for (int n = 0; n < nodeCount() && m_pass; ++n)
            continueScan(n);
        return;
    }
    if (m_pass) {
        m_refreshAgain = true;
        return;
    }
    m_reconcileTimer.stop();
    startPass(false, false);
}

void LockInspector::resync()
{
    if (m_pass && !m_pass->incremental) {
        m_resyncPending = true; // a full pass under way: what it read before the gap may be stale
        return;
    }
    // A rescan under way read part of its keys before the gap: start again from the first page. (Its
    // in-flight replies are dropped by the generation check.)
    m_pass.reset();
    m_throttleTimer.stop();
    m_reconcileTimer.stop();
    m_resyncPending = false;
    startPass(true, m_options.budgetPerNode > 0);
}

void LockInspector::setQuarantinedNodes(QList<int> nodes)
{
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    if (nodes == m_options.quarantinedNodes)
        return;
    m_options.quarantinedNodes = std::move(nodes);
    judgeAllAgain();
}

void LockInspector::setDownNodes(QList<int> nodes)
{
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    if (nodes == m_downNodes)
        return;
    QList<int> back;
    for (const int node : std::as_const(m_downNodes)) {
        if (!nodes.contains(node))
            back.append(node);
    }
    m_downNodes = std::move(nodes);
    judgeAllAgain();
    // What the node back said last is old: read again the keys it could not be read for, and the unknown ones.
    for (auto view = m_views.cbegin(); view != m_views.cend(); ++view) {
        for (const int node : std::as_const(back)) {
            const NodeLockState::Presence p = view->view.presence(node);
            if (view->view.verdict() == LockVerdict::Unknown || p == NodeLockState::Presence::Unreachable ||
                p == NodeLockState::Presence::Refused) {
                m_touched[view.key()] |= 0; // read again, no event's name with it (keeps one a key may have)
                break;
            }
        }
    }
    if (!m_touched.isEmpty() && !m_flushInFlight && !m_eventTimer.isActive())
        m_eventTimer.start();
}

void LockInspector::setBudgetPerNode(int commandsPerSecond)
{
    const bool wasThrottled = m_pass && m_pass->throttled;
    m_options.budgetPerNode = std::max(0, commandsPerSecond);
    if (m_pass && m_pass->incremental)
        m_pass->throttled = m_options.budgetPerNode > 0;
    if (wasThrottled && m_pass && !m_pass->throttled) {
        m_throttleTimer.stop();
        for (int n = 0; n < nodeCount() && m_pass; ++n)
            continueScan(n);
    } else if (m_pass && m_pass->throttled) {
        // The new rate from now on: the wait for the next page is taken again.
        m_throttleTimer.stop();
        for (int n = 0; n < nodeCount() && m_pass; ++n)
            continueScan(n);
    }
}

void LockInspector::startPass(bool incremental, bool throttled)
{
    // The first pass is the baseline, applied whole and at full speed.
    if (!m_baselineDone)
        incremental = throttled = false;
    m_pass = std::make_unique<Pass>();
    m_pass->generation = ++m_passGeneration;
    m_pass->incremental = incremental;
    m_pass->throttled = throttled;
    // Throttled: pages of about a tenth of a second's budget, so the pace is even, not bursts of 1000 keys.
    m_pass->scanCount =
        throttled ? std::clamp(m_options.budgetPerNode / 10, 10, m_options.scanCount) : m_options.scanCount;
    m_pass->timer.start();
    m_pass->startedAtMs = wallNowMs();
    m_pass->nodesRemaining = nodeCount();
    m_pass->progress.resize(static_cast<size_t>(nodeCount()));
    m_pass->reachable = QList<bool>(nodeCount(), true);
    m_pass->unreachableWhy = QStringList(nodeCount(), QString());
    m_pass->seen.reserve(m_views.size());
    m_pass->updated.reserve(m_views.size());
    m_longestCallUs = 0;
    emit inspectionStarted();
    if (nodeCount() == 0) {
        finishPass();
        return;
    }
    m_budget.restart(m_budgetClock.nsecsElapsed());
    for (int i = 0; i < nodeCount(); ++i) {
        NodeLink& link = m_links[static_cast<size_t>(i)];
        link.reader->open();
        m_pass->progress[static_cast<size_t>(i)].nextCursor = QByteArrayLiteral("0");
    }
    for (int i = 0; i < nodeCount() && m_pass; ++i)
        continueScan(i);
}

void LockInspector::continueScan(int node)
{
    if (!m_pass)
        return;
    Pass::NodeProgress& progress = m_pass->progress[static_cast<size_t>(node)];
    if (progress.nextCursor.isEmpty() || progress.groupsInFlight >= kMaxReadsInFlight || !m_pass->reachable[node] ||
        !budgetAllows())
        return;
    const QByteArray cursor = std::exchange(progress.nextCursor, QByteArray());
    scanPage(node, cursor);
}

bool LockInspector::budgetAllows()
{
    if (!m_pass->throttled)
        return true;
    const int waitMs = m_budget.waitMs(m_budgetClock.nsecsElapsed(), m_options.budgetPerNode, m_pass->reachable);
    if (waitMs == 0)
        return true;
    if (!m_throttleTimer.isActive())
        m_throttleTimer.start(waitMs);
    return false;
}

void LockInspector::charge(int node, qint64 commands, bool forPass)
{
    NodeLink& link = m_links[static_cast<size_t>(node)];
    if (!forPass) {
        link.eventCommands += quint64(commands);
        return;
    }
    link.rescanCommands += quint64(commands);
    if (!m_pass)
        return;
    m_pass->commandsSent += commands;
    if (m_pass->throttled)
        m_budget.spend(node, commands);
}

void LockInspector::scanPage(int node, const QByteArray& cursor)
{
    const quint64 generation = m_pass->generation;
    auto alive = m_alive;
    QElapsedTimer timer;
    timer.start();
    charge(node, 1, true);
    m_links[static_cast<size_t>(node)].reader->send(
        {"SCAN", cursor, "MATCH", m_options.pattern, "COUNT", QByteArray::number(m_pass->scanCount)},
        [this, alive, generation, node, timer](const RedisReply& reply) {
            if (!*alive || !m_pass || m_pass->generation != generation)
                return;
            noteCallUs(timer.nsecsElapsed() / 1000);
            Pass::NodeProgress& progress = m_pass->progress[static_cast<size_t>(node)];
            if (!m_pass->reachable[node])
                return;
            if (!reply.isArray() || reply.elements().size() != 2 || !reply.elements()[1].isArray()) {
                nodeScanFailed(node, reply.isError() ? reply.errorText() : tr("unexpected SCAN reply"));
                maybeFinishPass();
                return;
            }
            const QByteArray next = reply.elements()[0].bytes();
            const bool perNode = m_options.perNodeReads && m_viewSink && !m_pass->incremental;
            QList<QByteArray> keys;
            const auto& names = reply.elements()[1].elements();
            keys.reserve(names.size());
            m_pass->keysScanned += names.size();
            for (const RedisReply& name : names) {
                const QByteArray& key = name.bytes();
                // SCAN may name keys outside an ACL key pattern, and MATCH is ours to double-check.
                if (!globMatches(m_options.pattern, key))
                    m_pass->outsidePattern.insert(key);
                else if (key.startsWith(kRedissonChannelPrefix) || key == fenceCountersKey())
                    m_pass->helpers.insert(key); // not a lock: skipped, not read (the counters can be large)
                else
                    keys.append(key);
            }
            if (!perNode)
                m_pass->seen.insertNew(keys); // not when another node's SCAN named it already
            if (next == "0")
                progress.scanDone = true;
            else
                progress.nextCursor = next;
            if (!keys.isEmpty()) {
                ++progress.groupsInFlight;
                ++m_pass->groupsInFlight;
                QList<bool> ask = m_pass->reachable;
                if (perNode) {
                    ask.fill(false);
                    ask[node] = true;
                }
                readOnAllNodes(keys, ask, m_pass->unreachableWhy, true,
                               [this, alive, generation, node](GroupReads group) {
                                   if (!*alive || !m_pass || m_pass->generation != generation)
                                       return;
                                   onGroupRead(node, group);
                               });
            }
            // Pipelined behind the reads of this page, while there is read capacity (and budget).
            continueScan(node);
            if (m_pass && m_pass->generation == generation)
                maybeFinishNode(node);
        },
        m_options.commandTimeoutMs);
}

void LockInspector::onGroupRead(int scanNode, GroupReads& group)
{
    Pass& pass = *m_pass;
    Pass::NodeProgress& progress = pass.progress[static_cast<size_t>(scanNode)];
    --progress.groupsInFlight;
    --pass.groupsInFlight;
    // A node whose connection failed during the group is unreachable for the rest of the pass: what its SCAN
    // has not returned yet cannot be taken as absent.
    for (int n = 0; n < nodeCount(); ++n) {
        const QList<KeyRead>& reads = group.perNode[size_t(n)];
        const auto failed =
            std::find_if(reads.cbegin(), reads.cend(), [](const KeyRead& read) { return read.nodeFailed; });
        if (pass.reachable[n] && failed != reads.cend())
            nodeScanFailed(n, failed->state.note);
    }
    // A rescan applies what it read at once; a full pass keeps it for finishPass().
    QHash<QByteArray, LockView> partViews;
    QSet<QByteArray> partKeys;
    for (qsizetype k = 0; k < group.keys.size(); ++k) {
        const QByteArray& key = group.keys[k];
        if (pass.touchedMeanwhile.contains(key))
            continue;
        if (pass.incremental)
            partKeys.insert(key);
        LockView view;
        switch (mergeGroupKey(group, k, view)) {
        case Outcome::Lock:
            if (m_viewSink && !pass.incremental) {
                ++pass.handedToSink;
                m_viewSink(std::move(view));
            } else if (pass.incremental) {
                partViews.emplace(key, std::move(view));
            } else {
                pass.updated.emplace(key, StoredLock{PackedLockView(view), {}});
            }
            break;
        case Outcome::NoTtl:
            ++pass.skipped.noTtl;
            break;
        case Outcome::OtherType:
            ++pass.skipped.otherType;
            break;
        case Outcome::NotALockFormat:
            ++pass.skipped.notALockFormat;
            break;
        case Outcome::Gone:
            break; // gone between SCAN and the read; a lock we knew is judged again in finishPass
        }
    }
    if (!partKeys.isEmpty()) {
        const quint64 generation = pass.generation;
        applyChanges(std::move(partViews), partKeys, Apply::ScanPart);
        if (!m_pass || m_pass->generation != generation)
            return; // a slot restarted the rescan
    }
    continueScan(scanNode);
    maybeFinishNode(scanNode);
    maybeFinishPass();
}

void LockInspector::nodeScanFailed(int node, const QString& error)
{
    if (!m_pass->reachable[node])
        return;
    m_pass->reachable[node] = false;
    m_pass->unreachableWhy[node] = error;
    m_pass->errors.append(QStringLiteral("%1: %2").arg(m_options.nodes[node].displayName(), error));
    Pass::NodeProgress& progress = m_pass->progress[static_cast<size_t>(node)];
    progress.nextCursor.clear();
    if (!std::exchange(progress.counted, true))
        --m_pass->nodesRemaining;
    // Not finishing the pass here: the caller may still be working on it (onGroupRead merges the group's
    // keys after marking a node failed); it calls maybeFinishPass() when done.
}

void LockInspector::maybeFinishNode(int node)
{
    Pass::NodeProgress& progress = m_pass->progress[static_cast<size_t>(node)];
    if (progress.counted || !progress.scanDone || progress.groupsInFlight > 0 || !progress.nextCursor.isEmpty())
        return;
    progress.counted = true;
    --m_pass->nodesRemaining;
    maybeFinishPass();
}

void LockInspector::maybeFinishPass()
{
    if (m_pass && m_pass->nodesRemaining == 0 && m_pass->groupsInFlight == 0)
        finishPass();
}

void LockInspector::finishPass()
{
    std::unique_ptr<Pass> pass = std::move(m_pass);
    SkippedKeys skipped = pass->skipped;
    skipped.outsidePattern = pass->outsidePattern.size();
    skipped.redissonHelpers = pass->helpers.size();

    m_throttleTimer.stop();
    if (nodeCount() > 0)
        m_lastPassCommandsPerNode = pass->commandsSent / nodeCount();
    if (pass->incremental) {
        // What the rescan read is applied already. Locks we knew that no SCAN returned (and no event touched)
        // are gone: free, or unknown when the nodes that could still hold them are unreachable.
        QHash<QByteArray, LockView> updated;
        QSet<QByteArray> touched;
        for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
            if (pass->seen.contains(it.key()) || pass->touchedMeanwhile.contains(it.key()))
                continue;
            touched.insert(it.key());
            LockView view = vanished(it.key(), pass->reachable, pass->unreachableWhy);
            if (view.verdict != LockVerdict::Free)
                updated.insert(it.key(), std::move(view));
        }
        {
            QMutexLocker lock(&m_snapshotMutex);
            m_lastSkipped = skipped;
        }
        applyChanges(std::move(updated), touched, Apply::ScanPart);
        emitFinished(*pass, skipped);
        return;
    }

    PackedViews updated = std::move(pass->updated);
    // Locks we knew that no SCAN returned this time: free, or unknown when the nodes that could still hold
    // them are unreachable.
    for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
        if (pass->seen.contains(it.key()) || pass->touchedMeanwhile.contains(it.key()))
            continue;
        LockView view = vanished(it.key(), pass->reachable, pass->unreachableWhy);
        if (view.verdict != LockVerdict::Free)
            updated.emplace(it.key(), StoredLock{PackedLockView(view), {}});
    }
    {
        QMutexLocker lock(&m_snapshotMutex);
        m_lastSkipped = skipped;
    }
    // Only the count of the names read is wanted now: they go before the pass's changes are built (6 MB at
    // 100,000 keys, at the peak of a first pass).
    pass->keysRemembered = pass->seen.size();
    pass->seen = KeySet();
    applyFullPass(std::move(updated), pass->touchedMeanwhile);
    emitFinished(*pass, skipped);
}

void LockInspector::emitFinished(const Pass& pass, const SkippedKeys& skipped)
{
    InspectionSummary summary;
    summary.startedAtMs = pass.startedAtMs;
    summary.elapsedUs = pass.timer.nsecsElapsed() / 1000;
    summary.longestCallUs = m_longestCallUs;
    summary.keysScanned = pass.keysScanned;
    summary.commandsSent = pass.commandsSent;
    summary.locks = m_viewSink ? pass.handedToSink : static_cast<int>(m_views.size());
    summary.keysRemembered = pass.keysRemembered >= 0 ? pass.keysRemembered : pass.seen.size();
    summary.skipped = skipped;
    summary.nodeReachable = pass.reachable;
    summary.errors = pass.errors;
    for (const NodeLink& link : m_links)
        summary.readPaths.append(link.keys->readPath());
    emit inspectionFinished(summary);
    if (m_pass)
        return; // a slot started the next one
    if (std::exchange(m_refreshAgain, false))
        refresh();
    else if (std::exchange(m_resyncPending, false))
        resync();
    else if (m_started && m_options.reconcileIntervalMs > 0)
        m_reconcileTimer.start(m_options.reconcileIntervalMs);
}

// ------------------------------------------------------------------------------------------ merge

void LockInspector::readOnAllNodes(const QList<QByteArray>& keys, const QList<bool>& ask, const QStringList& why,
                                   bool forPass, std::function<void(GroupReads)> done)
{
    struct Gather
    {
        GroupReads group;
        int remaining = 0;
        std::function<void(GroupReads)> done;
    };
    auto gather = std::make_shared<Gather>();
    gather->group.keys = keys;
    gather->group.perNode.resize(size_t(nodeCount()));
    gather->remaining = nodeCount() + 1; // +1 for this call: done() never runs while it is on the stack
    gather->done = std::move(done);
    auto alive = m_alive;
    for (int n = 0; n < nodeCount(); ++n) {
        if (!ask.value(n, false)) {
            KeyRead unreachable;
            unreachable.node = n;
            unreachable.state.note = why.value(n);
            gather->group.perNode[size_t(n)] = QList<KeyRead>(keys.size(), unreachable);
            --gather->remaining;
            continue;
        }
        m_links[size_t(n)].keys->read(keys, forPass, [this, alive, gather, n](QList<KeyRead> reads) {
            if (!*alive)
                return;
            if (NodeLink& link = m_links[size_t(n)]; link.restartUnchecked) {
                link.readsWithheld = true;
                for (KeyRead& read : reads) {
                    read.nodeFailed = true;
                    read.state = NodeLockState{};
                    read.state.note = tr("reconnected: checking whether the node restarted");
                }
            }
            gather->group.perNode[size_t(n)] = std::move(reads);
            if (--gather->remaining == 0)
                gather->done(std::move(gather->group));
        });
    }
    if (--gather->remaining == 0) {
        // Every node was skipped or failed at once (a node known to be down answers inside send()): the caller
        // is still on the stack, in the middle of its own bookkeeping, so the result comes from the event loop.
        QMetaObject::invokeMethod(
            this,
            [alive, gather] {
                if (*alive)
                    gather->done(std::move(gather->group));
            },
            Qt::QueuedConnection);
    }
}

LockInspector::Outcome LockInspector::mergeGroupKey(GroupReads& group, qsizetype index, LockView& view) const
{
    using Presence = NodeLockState::Presence;
    bool anyLock = false;
    Outcome skip = Outcome::Gone;
    qint64 newestNs = 0;
    // A lock we are showing whose own token lost its TTL (PERSIST) is that lock, stuck: not application data.
    // (The view is looked up only for a key read without a TTL.)
    std::optional<std::optional<LockView>> known;
    auto ownTokenWithoutTtl = [&](const KeyRead& read) {
        if (read.skip != KeyRead::Skip::NoTtl)
            return false;
        if (!known) {
            const auto it = m_views.constFind(group.keys[index]);
            known = it != m_views.cend() ? std::optional(it->view.unpack(it.key())) : std::nullopt;
        }
        return *known && (*known)->holders > 0 && (*known)->token == read.state.token;
    };
    for (int n = 0; n < nodeCount(); ++n) {
        const KeyRead& read = group.perNode[size_t(n)][index];
        newestNs = std::max(newestNs, read.readAtNs);
        if (read.state.presence == Presence::Absent || read.nodeFailed)
            continue;
        if (read.skip == KeyRead::Skip::None || ownTokenWithoutTtl(read)) // holding, or refused: shown either way
            anyLock = true;
        else if (skip == Outcome::Gone)
            skip = read.skip == KeyRead::Skip::NoTtl            ? Outcome::NoTtl
                   : read.skip == KeyRead::Skip::NotALockFormat ? Outcome::NotALockFormat
                                                                : Outcome::OtherType;
    }
    if (!anyLock && skip != Outcome::Gone)
        return skip;

    view.key = group.keys[index];
    view.nodes.resize(nodeCount());
    view.observedAtNs = newestNs > 0 ? newestNs : m_clock->nowNs();
    view.observedAtMs = wallNowMs() - (m_clock->nowNs() - view.observedAtNs) / kNsPerMs;
    const QByteArray* firstToken = nullptr;
    for (int n = 0; n < nodeCount(); ++n) {
        KeyRead& read = group.perNode[size_t(n)][index];
        NodeLockState& state = view.nodes[n];
        const bool ownToken = ownTokenWithoutTtl(read);
        state = std::move(read.state);
        if (ownToken) {
            state.presence = Presence::Holding;
            state.note.clear();
        }
        // All PTTLs as of one instant: the nodes were read a few milliseconds apart.
        if (state.pttlMs >= 0)
            state.pttlMs = std::max<qint64>(0, state.pttlMs - (view.observedAtNs - read.readAtNs) / kNsPerMs);
        // Equal tokens share one buffer (a lock has the same value on every node).
        if (state.presence == Presence::Holding) {
            if (!firstToken)
                firstToken = &state.token;
            else if (*firstToken == state.token)
                state.token = *firstToken;
        }
    }
    judgeLock(view, verdictRules());
    return anyLock || view.verdict != LockVerdict::Free ? Outcome::Lock : Outcome::Gone;
}

LockView LockInspector::vanished(const QByteArray& key, const QList<bool>& reachable,
                                 const QStringList& unreachableWhy) const
{
    LockView view;
    view.key = key;
    view.nodes.resize(nodeCount());
    for (int i = 0; i < nodeCount(); ++i) {
        NodeLockState& state = view.nodes[i];
        if (reachable.value(i, false)) {
            state.presence = NodeLockState::Presence::Absent;
        } else {
            state.presence = NodeLockState::Presence::Unreachable;
            state.note = unreachableWhy.value(i);
        }
    }
    view.observedAtNs = m_clock->nowNs();
    view.observedAtMs = wallNowMs();
    judgeLock(view, verdictRules());
    return view;
}

} // namespace redlock
