#include "observe/LockInspector.h"

#include "redlock/FencingCounters.h"

#include <QDateTime>
#include <QThread>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <limits>

namespace redlock {

namespace {

constexpr qint64 kNsPerMs = 1'000'000;
// Keys holding Redisson's helpers, not locks.
constexpr QByteArrayView kRedissonChannelPrefix("redisson_lock__channel");
// At most this many groups (a page's keys read on every node) in flight per scanning node during a pass:
// bounds memory and the queueing a single round trip sees, while keeping the nodes busy.
constexpr int kMaxReadsInFlight = 2;

qint64 wallNowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Redis' stringmatchlen, binary safe.
bool globMatch(const char* p, const char* pEnd, const char* s, const char* sEnd)
{
    while (p < pEnd) {
        switch (*p) {
        case '*':
            while (p + 1 < pEnd && p[1] == '*')
                ++p;
            if (p + 1 == pEnd)
                return true;
            for (const char* t = s; t <= sEnd; ++t) {
                if (globMatch(p + 1, pEnd, t, sEnd))
                    return true;
            }
            return false;
        case '?':
            if (s == sEnd)
                return false;
            ++s;
            break;
        case '[': {
            if (s == sEnd)
                return false;
            ++p;
            const bool negate = p < pEnd && *p == '^';
            if (negate)
                ++p;
            bool match = false;
            while (p < pEnd && *p != ']') {
                if (*p == '\\' && p + 1 < pEnd) {
                    ++p;
                    match = match || *p == *s;
                } else if (p + 2 < pEnd && p[1] == '-' && p[2] != ']') {
                    char lo = p[0], hi = p[2];
                    if (lo > hi)
                        std::swap(lo, hi);
                    match = match || (*s >= lo && *s <= hi);
                    p += 2;
                } else {
                    match = match || *p == *s;
                }
                ++p;
            }
            if (negate)
                match = !match;
            if (!match)
                return false;
            ++s;
            break;
        }
        case '\\':
            if (p + 1 < pEnd)
                ++p;
            [[fallthrough]];
        default:
            if (s == sEnd || *p != *s)
                return false;
            ++s;
            break;
        }
        ++p;
    }
    return s == sEnd;
}

} // namespace

// What one node said about one key, with when it said it.
struct LockInspector::KeyRead
{
    QByteArray key;
    int node = -1;
    NodeLockState state;
    qint64 readAtNs = 0;
    bool nodeFailed = false; // the connection failed (timeout, lost): the whole node is unreachable
    enum class Skip { None, NoTtl, OtherType } skip = Skip::None;
};

struct LockInspector::Pass
{
    quint64 generation = 0;
    bool incremental = false; // a background rescan: each group is applied as it is read
    bool throttled = false;   // paced by the budget
    int scanCount = 0;        // SCAN COUNT of this pass
    QElapsedTimer timer;
    qint64 startedAtMs = 0;
    int nodesRemaining = 0; // nodes whose SCAN has neither completed nor failed
    int groupsInFlight = 0; // over all nodes
    struct NodeProgress
    {
        bool scanDone = false;
        bool counted = false; // taken off nodesRemaining
        int groupsInFlight = 0;
        QByteArray nextCursor; // a page waiting for read capacity; empty = none
    };
    std::vector<NodeProgress> progress;
    QSet<QByteArray> seen;               // keys this pass has read (or is reading) on every node
    QHash<QByteArray, LockView> updated; // merged as the groups come in
    SkippedKeys skipped;
    QList<bool> reachable; // per node: no SCAN or read of this pass failed on it
    QStringList unreachableWhy;
    QStringList errors;
    QSet<QByteArray> outsidePattern;
    QSet<QByteArray> helpers;
    QSet<QByteArray> touchedMeanwhile; // re-read by keyspace events during the pass: newer than ours
    qint64 keysScanned = 0;
    qint64 commandsSent = 0;
    int handedToSink = 0; // views given to m_viewSink instead of kept
};

LockInspector::LockInspector(InspectorOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_clock(m_options.clock ? m_options.clock : SteadyClock::system())
{
    m_options.scanCount = std::max(1, m_options.scanCount);
    m_options.readBatchKeys = std::max(1, m_options.readBatchKeys);
    ConnectionOptions connection = m_options.connection;
    connection.commandTimeoutMs = m_options.commandTimeoutMs;
    for (int i = 0; i < nodeCount(); ++i) {
        NodeLink link;
        connection.clientName = QByteArrayLiteral("redlock-console:inspect");
        link.reader = new RedisConnection(m_options.nodes[i], connection, this);
        connect(link.reader, &RedisConnection::ready, this, [this, i] {
            checkRunId(i);
            checkEventsConfig(i);
        });
        connect(link.reader, &RedisConnection::connectionLost, this, [this, i](RedisErrorKind, const QString&) {
            m_links[static_cast<size_t>(i)].lostAtNs = m_clock->nowNs();
        });
        if (m_options.keyspaceEvents) {
            connection.clientName = QByteArrayLiteral("redlock-console:events");
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
        m_links.push_back(link);
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

bool LockInspector::globMatches(const QByteArray& pattern, const QByteArray& name)
{
    return globMatch(pattern.constData(), pattern.constData() + pattern.size(), name.constData(),
                     name.constData() + name.size());
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
    if (QThread::currentThread() == thread() || !thread()->isRunning())
        return m_views;
    LockSnapshot copy;
    QMetaObject::invokeMethod(
        const_cast<LockInspector*>(this), [this, &copy] { copy = m_views; }, Qt::BlockingQueuedConnection);
    return copy;
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
    const qint64 nowNs = m_budgetClock.nsecsElapsed();
    for (int i = 0; i < nodeCount(); ++i) {
        NodeLink& link = m_links[static_cast<size_t>(i)];
        link.reader->open();
        link.tokens = 0;
        link.refilledAtNs = nowNs;
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
    const double rate = std::max(1, m_options.budgetPerNode);
    const qint64 nowNs = m_budgetClock.nsecsElapsed();
    double worst = 0;
    for (int n = 0; n < nodeCount(); ++n) {
        NodeLink& link = m_links[static_cast<size_t>(n)];
        // A tenth of a second's worth may be saved up; a page may take the bucket into debt.
        link.tokens = std::min(rate / 10, link.tokens + double(nowNs - link.refilledAtNs) * rate / 1e9);
        link.refilledAtNs = nowNs;
        if (m_pass->reachable[n] && link.tokens < 0)
            worst = std::max(worst, -link.tokens);
    }
    if (worst <= 0)
        return true;
    if (!m_throttleTimer.isActive())
        m_throttleTimer.start(std::max(1, static_cast<int>(std::ceil(worst * 1000 / rate))));
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
        link.tokens -= double(commands);
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
                    m_pass->helpers.insert(key);        // not a lock: skipped, not read (the counters can be large)
                else if (!m_pass->seen.contains(key)) { // another node's SCAN may have named it already
                    m_pass->seen.insert(key);
                    keys.append(key);
                }
            }
            if (next == "0")
                progress.scanDone = true;
            else
                progress.nextCursor = next;
            if (!keys.isEmpty()) {
                ++progress.groupsInFlight;
                ++m_pass->groupsInFlight;
                readOnAllNodes(keys, m_pass->reachable, m_pass->unreachableWhy, true,
                               [this, alive, generation, node](const GroupReads& group) {
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

void LockInspector::onGroupRead(int scanNode, const GroupReads& group)
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
    QHash<QByteArray, LockView>& updated = pass.incremental ? partViews : pass.updated;
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
            } else {
                updated.insert(key, std::move(view));
            }
            break;
        case Outcome::NoTtl:
            ++pass.skipped.noTtl;
            break;
        case Outcome::OtherType:
            ++pass.skipped.otherType;
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

    QHash<QByteArray, LockView> updated = std::move(pass->updated);
    // Keys that keyspace events named during the pass were re-read (or are being re-read) after this pass
    // read them, or instead of it: what the events made of them is newer than anything the pass read. The
    // pass neither overwrites nor drops them; they keep their current state, and a flush still pending
    // brings them up to date.
    for (const QByteArray& key : std::as_const(pass->touchedMeanwhile)) {
        const auto current = m_views.constFind(key);
        if (current != m_views.cend())
            updated.insert(key, current.value());
        else
            updated.remove(key);
    }
    // Locks we knew that no SCAN returned this time: free, or unknown when the nodes that could still hold
    // them are unreachable.
    for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
        if (pass->seen.contains(it.key()) || pass->touchedMeanwhile.contains(it.key()))
            continue;
        LockView view = vanished(it.key(), pass->reachable, pass->unreachableWhy);
        if (view.verdict != LockVerdict::Free)
            updated.insert(it.key(), view);
    }

    QSet<QByteArray> touched;
    touched.reserve(updated.size() + m_views.size());
    for (auto it = updated.cbegin(); it != updated.cend(); ++it) {
        if (!pass->touchedMeanwhile.contains(it.key()))
            touched.insert(it.key());
    }
    for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
        if (!pass->touchedMeanwhile.contains(it.key()))
            touched.insert(it.key());
    }
    {
        QMutexLocker lock(&m_snapshotMutex);
        m_lastSkipped = skipped;
    }
    applyChanges(std::move(updated), touched, Apply::FullPass);
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
    summary.skipped = skipped;
    summary.nodeReachable = pass.reachable;
    summary.errors = pass.errors;
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

// ------------------------------------------------------------------------------------------ reads

void LockInspector::readKeys(int node, const QList<QByteArray>& keys, bool forPass,
                             std::function<void(QList<KeyRead>)> done)
{
    const int batch = m_options.readBatchKeys;
    if (keys.size() <= batch) {
        readBatch(node, keys, forPass, std::move(done));
        return;
    }
    struct Gather
    {
        QList<QList<KeyRead>> parts;
        int remaining = 0;
        std::function<void(QList<KeyRead>)> done;
    };
    auto gather = std::make_shared<Gather>();
    const int parts = static_cast<int>((keys.size() + batch - 1) / batch);
    gather->parts.resize(parts);
    gather->remaining = parts;
    gather->done = std::move(done);
    for (int p = 0; p < parts; ++p) {
        readBatch(node, keys.mid(qsizetype(p) * batch, batch), forPass, [gather, p](QList<KeyRead> reads) {
            gather->parts[p] = std::move(reads);
            if (--gather->remaining == 0) {
                QList<KeyRead> all;
                for (auto& part : gather->parts)
                    all.append(std::move(part));
                gather->done(std::move(all));
            }
        });
    }
}

void LockInspector::readBatch(int node, const QList<QByteArray>& keys, bool forPass,
                              std::function<void(QList<KeyRead>)> done)
{
    using Presence = NodeLockState::Presence;
    if (keys.isEmpty()) {
        done({});
        return;
    }
    RedisConnection* connection = m_links[static_cast<size_t>(node)].reader;
    struct Batch
    {
        QList<KeyRead> reads;
        QList<RedisReply> values; // MGET, one per key
        RedisReply mgetError;
        QElapsedTimer timer;
        std::function<void(QList<KeyRead>)> done;
    };
    auto batch = std::make_shared<Batch>();
    batch->reads.resize(keys.size());
    batch->done = std::move(done);
    batch->timer.start();
    auto alive = m_alive;
    const std::shared_ptr<SteadyClock> clock = m_clock;

    // Captureless and static: handlers call it without carrying it. An ACL refusal (NOPERM) is a state of
    // its own: the node answers, but not about this key.
    static constexpr auto unreachable = [](KeyRead& read, const RedisReply& reply, const char* command) {
        const bool refused = reply.errorKind() == RedisErrorKind::NoPermission;
        read.state.presence = refused ? Presence::Refused : Presence::Unreachable;
        // A refusal names the refused command (the server's text names neither it nor the key).
        read.state.note =
            refused ? tr("%1 refused: %2").arg(QLatin1String(command), reply.errorText()) : reply.errorText();
        read.nodeFailed = reply.type() == RedisReply::Type::Failure;
    };
    static constexpr auto unanswered = [](const KeyRead& read) {
        return read.state.presence == Presence::Unreachable || read.state.presence == Presence::Refused;
    };
    // A value without TTL is a lock that never expires when it looks like one (a format a lock library
    // writes, a Redisson holder); any other string without TTL is application data, skipped. (mergeGroupKey
    // also keeps a lock we were showing whose own token lost its TTL.)
    auto setValue = [](KeyRead& read, const QByteArray& value, bool lockLike) {
        read.state.token = value;
        if (read.state.pttlMs == -1 && !lockLike) {
            read.state.presence = Presence::NotALock;
            read.state.note = tr("no TTL");
            read.skip = KeyRead::Skip::NoTtl;
        } else {
            read.state.presence = Presence::Holding;
        }
    };

    // Stage 2 (rare): keys that exist but MGET gave no string for (hashes, other types, MGET refused):
    // TYPE, PTTL, GET, HGETALL each, resolved by the type. The wrong-type replies are harmless.
    auto stage2 = [this, alive, batch, connection, setValue, clock, node, forPass](const QList<int>& unresolved) {
        if (unresolved.isEmpty()) {
            batch->done(std::move(batch->reads));
            return;
        }
        struct Extra
        {
            RedisReply type, pttl, value, hash;
        };
        auto extra = std::make_shared<QList<Extra>>(unresolved.size());
        QList<RedisConnection::Command> commands;
        batch->timer.restart();
        for (qsizetype u = 0; u < unresolved.size(); ++u) {
            const QByteArray& key = batch->reads[unresolved[u]].key;
            commands.append({{"TYPE", key}, [extra, u](const RedisReply& r) { (*extra)[u].type = r; }});
            commands.append({{"PTTL", key}, [extra, u](const RedisReply& r) { (*extra)[u].pttl = r; }});
            commands.append({{"GET", key}, [extra, u](const RedisReply& r) { (*extra)[u].value = r; }});
            commands.append({{"HGETALL", key}, [extra, u](const RedisReply& r) { (*extra)[u].hash = r; }});
        }
        // Stamped when sent: the server computed the PTTLs later than this, so ages taken from this instant
        // never make a lock look longer valid than it is.
        const qint64 sentNs = clock->nowNs();
        commands.last().handler = [inner = commands.last().handler, this, alive, batch, extra, unresolved, setValue,
                                   sentNs](const RedisReply& reply) {
            inner(reply);
            if (!*alive)
                return;
            noteCallUs(batch->timer.nsecsElapsed() / 1000);
            for (qsizetype u = 0; u < unresolved.size(); ++u) {
                KeyRead& read = batch->reads[unresolved[u]];
                const Extra& x = (*extra)[u];
                read.readAtNs = sentNs;
                read.state.presence = Presence::Absent;
                if (x.type.isError()) {
                    unreachable(read, x.type, "TYPE");
                    continue;
                }
                const QByteArray type = x.type.bytes();
                read.state.pttlMs = x.pttl.isInteger() ? x.pttl.integer() : -2;
                if (type == "none" || read.state.pttlMs == -2)
                    continue;
                if (type == "string") {
                    if (x.value.isString())
                        setValue(read, x.value.bytes(),
                                 decodeHolder(read.key, x.value.bytes()).format != HolderFormat::Opaque);
                    else
                        unreachable(read, x.value, "GET");
                } else if (type == "hash") {
                    if (!x.hash.isArray()) {
                        unreachable(read, x.hash, "HGETALL");
                        continue;
                    }
                    const auto& e = x.hash.elements();
                    QList<QByteArray> holders;
                    for (qsizetype i = 0; i + 1 < e.size(); i += 2) {
                        read.state.hashFields.append({e[i].bytes(), e[i + 1].bytes()});
                        if (e[i].bytes() != "mode") // RReadWriteLock's mode field is no holder
                            holders.append(e[i].bytes());
                    }
                    std::sort(holders.begin(), holders.end());
                    setValue(read, holders.join(','),
                             decodeRedissonHolder(read.state.hashFields).format == HolderFormat::Redisson);
                } else {
                    read.state.presence = Presence::NotALock;
                    read.state.note = QString::fromLatin1(type);
                    read.skip = KeyRead::Skip::OtherType;
                }
            }
            batch->done(std::move(batch->reads));
        };
        charge(node, commands.size(), forPass);
        connection->sendPipeline(std::move(commands), m_options.commandTimeoutMs);
    };

    // Stage 1: one MGET for the page (nil for missing keys and for non-strings) and one PTTL per key, in one
    // pipeline: about one command per key.
    QList<RedisConnection::Command> commands;
    commands.reserve(keys.size() + 1);
    QList<QByteArray> mget;
    mget.reserve(keys.size() + 1);
    mget.append(QByteArrayLiteral("MGET"));
    mget.append(keys);
    commands.append({std::move(mget), [batch](const RedisReply& reply) {
                         if (reply.isArray() && reply.elements().size() == batch->reads.size())
                             batch->values = reply.elements();
                         else
                             batch->mgetError =
                                 reply.isError() ? reply : RedisReply::failure(RedisErrorKind::Protocol, {});
                     }});
    for (int index = 0; index < keys.size(); ++index) {
        KeyRead& read = batch->reads[index];
        read.key = keys[index];
        read.node = node;
        read.state.presence = Presence::Absent;
        static const QByteArray pttl = QByteArrayLiteral("PTTL"); // shared, not allocated per command
        // A handler small enough for std::function's own storage (no allocation per key): the batch is kept
        // alive by the MGET before and the last command after, whose handlers are called after this one.
        commands.append({{pttl, keys[index]}, [b = batch.get(), index](const RedisReply& reply) {
                             KeyRead& r = b->reads[index];
                             if (reply.isInteger())
                                 r.state.pttlMs = reply.integer();
                             else
                                 unreachable(r, reply, "PTTL");
                         }});
    }
    const qint64 sentNs = clock->nowNs(); // see stage 2
    commands.last().handler = [inner = commands.last().handler, this, alive, batch, stage2, setValue,
                               sentNs](const RedisReply& reply) {
        inner(reply);
        if (!*alive)
            return;
        noteCallUs(batch->timer.nsecsElapsed() / 1000);
        const bool mgetFailed = batch->values.isEmpty();
        if (mgetFailed && batch->mgetError.type() == RedisReply::Type::Failure) {
            for (KeyRead& read : batch->reads) {
                read.state.presence = Presence::Unreachable;
                read.state.note = batch->mgetError.errorText();
                read.nodeFailed = true;
            }
            batch->done(std::move(batch->reads));
            return;
        }
        QList<int> unresolved;
        for (int index = 0; index < batch->reads.size(); ++index) {
            KeyRead& read = batch->reads[index];
            read.readAtNs = sentNs;
            if (unanswered(read) || read.state.pttlMs == -2)
                continue;
            if (mgetFailed || !batch->values[index].isString()) {
                unresolved.append(index); // exists, but no string value: a hash, another type, or refused
            } else {
                const QByteArray& value = batch->values[index].bytes();
                setValue(read, value,
                         read.state.pttlMs == -1 && decodeHolder(read.key, value).format != HolderFormat::Opaque);
            }
        }
        stage2(unresolved);
    };
    charge(node, commands.size(), forPass);
    connection->sendPipeline(std::move(commands), m_options.commandTimeoutMs);
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
        readKeys(n, keys, forPass, [alive, gather, n](QList<KeyRead> reads) {
            if (!*alive)
                return;
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

LockInspector::Outcome LockInspector::mergeGroupKey(const GroupReads& group, qsizetype index, LockView& view) const
{
    using Presence = NodeLockState::Presence;
    bool anyLock = false;
    Outcome skip = Outcome::Gone;
    qint64 newestNs = 0;
    // A lock we are showing whose own token lost its TTL (PERSIST) is that lock, stuck: not application data.
    const auto known = m_views.constFind(group.keys[index]);
    auto ownTokenWithoutTtl = [&](const KeyRead& read) {
        return read.skip == KeyRead::Skip::NoTtl && known != m_views.cend() && known->holders > 0 &&
               known->token == read.state.token;
    };
    for (int n = 0; n < nodeCount(); ++n) {
        const KeyRead& read = group.perNode[size_t(n)][index];
        newestNs = std::max(newestNs, read.readAtNs);
        if (read.state.presence == Presence::Absent || read.nodeFailed)
            continue;
        if (read.skip == KeyRead::Skip::None || ownTokenWithoutTtl(read)) // holding, or refused: shown either way
            anyLock = true;
        else if (skip == Outcome::Gone)
            skip = read.skip == KeyRead::Skip::NoTtl ? Outcome::NoTtl : Outcome::OtherType;
    }
    if (!anyLock && skip != Outcome::Gone)
        return skip;

    view.key = group.keys[index];
    view.nodes.resize(nodeCount());
    view.observedAtNs = newestNs > 0 ? newestNs : m_clock->nowNs();
    view.observedAtMs = wallNowMs() - (m_clock->nowNs() - view.observedAtNs) / kNsPerMs;
    const QByteArray* firstToken = nullptr;
    for (int n = 0; n < nodeCount(); ++n) {
        const KeyRead& read = group.perNode[size_t(n)][index];
        NodeLockState& state = view.nodes[n];
        state = read.state;
        if (ownTokenWithoutTtl(read)) {
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
    judge(view, quorum(), m_options.driftFactor, m_options.expiringThresholdMs);
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
    judge(view, quorum(), m_options.driftFactor, m_options.expiringThresholdMs);
    return view;
}

void LockInspector::judge(LockView& view, int quorum, double driftFactor, qint64 expiringThresholdMs)
{
    using Presence = NodeLockState::Presence;
    view.quorum = quorum;
    view.restsOn.clear();
    view.observedValidityMs = -1;
    int unreachable = 0; // unreachable or refusing: either may hold anything
    int noExpiry = 0;    // holding a value without TTL
    // Per node, the index of its token among the distinct tokens (first-seen order); -1 when it holds none.
    // Fixed-size arrays on the stack for the usual handful of nodes: this runs for every key of every pass.
    QVarLengthArray<int, 16> tokenOf(view.nodes.size(), -1);
    QVarLengthArray<int, 16> firstNodeOf; // per distinct token: the first node holding it
    QVarLengthArray<int, 16> countOf;     // per distinct token: how many nodes hold it
    for (int i = 0; i < view.nodes.size(); ++i) {
        const NodeLockState& s = view.nodes[i];
        if (s.presence == Presence::Unreachable || s.presence == Presence::Refused) {
            ++unreachable;
        } else if (s.presence == Presence::Holding) {
            if (s.pttlMs < 0)
                ++noExpiry;
            qsizetype t = 0;
            while (t < firstNodeOf.size() && view.nodes[firstNodeOf[t]].token != s.token)
                ++t;
            if (t == firstNodeOf.size()) {
                firstNodeOf.append(i);
                countOf.append(0);
            }
            ++countOf[t];
            tokenOf[i] = int(t);
        }
    }
    qsizetype best = -1;
    for (qsizetype t = 0; t < countOf.size(); ++t) {
        if (best < 0 || countOf[t] > countOf[best])
            best = t;
    }
    const int bestCount = best < 0 ? 0 : countOf[best];
    view.tokenCount = static_cast<int>(countOf.size());
    view.token = best < 0 ? QByteArray() : view.nodes[firstNodeOf[best]].token;
    view.holders = bestCount;
    auto nodesHolding = [&](qsizetype t) {
        QList<int> nodes;
        nodes.reserve(countOf[t]);
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (tokenOf[i] == t)
                nodes.append(i);
        }
        return nodes;
    };

    if (noExpiry > 0) {
        // Whatever else holds: these nodes never let the value go by themselves.
        view.verdict = LockVerdict::Stuck;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (view.nodes[i].presence == Presence::Holding && view.nodes[i].pttlMs < 0)
                view.restsOn.append(i);
        }
    } else if (bestCount >= quorum) {
        view.restsOn = nodesHolding(best);
        QVarLengthArray<qint64, 16> pttls;
        for (const int i : std::as_const(view.restsOn))
            pttls.append(view.nodes[i].pttlMs);
        std::sort(pttls.begin(), pttls.end(), std::greater<>());
        // After the quorum-th largest PTTL, fewer than a quorum still hold the token. The TTL the holder
        // asked for is unknown here, so the drift is taken on that PTTL (a slight underestimate).
        const qint64 quorumPttl = pttls[quorum - 1];
        const qint64 drift = rules::clockDriftMs(quorumPttl, driftFactor);
        view.observedValidityMs = std::max<qint64>(0, quorumPttl - drift);
        view.verdict = view.observedValidityMs < expiringThresholdMs ? LockVerdict::Expiring : LockVerdict::Held;
    } else if (bestCount + unreachable >= quorum) {
        view.verdict = LockVerdict::Unknown;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (view.nodes[i].presence == Presence::Unreachable || view.nodes[i].presence == Presence::Refused)
                view.restsOn.append(i);
        }
    } else if (countOf.size() >= 2) {
        view.verdict = LockVerdict::Contested;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (view.nodes[i].presence == Presence::Holding)
                view.restsOn.append(i);
        }
    } else if (countOf.size() == 1) {
        view.verdict = LockVerdict::MinorityLeftover;
        view.restsOn = nodesHolding(best);
    } else {
        view.verdict = LockVerdict::Free;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (view.nodes[i].presence != Presence::Unreachable && view.nodes[i].presence != Presence::Refused)
                view.restsOn.append(i);
        }
    }
    view.holder = {};
    if (best >= 0) {
        const NodeLockState& s = view.nodes[firstNodeOf[best]];
        view.holder = s.hashFields.isEmpty() ? decodeHolder(view.key, s.token) : decodeRedissonHolder(s.hashFields);
    }
}

// ------------------------------------------------------------------------------------------ changes

void LockInspector::applyChanges(QHash<QByteArray, LockView> updated, const QSet<QByteArray>& touched, Apply how)
{
    const bool full = how == Apply::FullPass;
    const qint64 nowMs = wallNowMs();
    LockChangeSet changes;
    changes.fullRefresh = how != Apply::Events;
    changes.atMs = nowMs;
    QList<LockEvent> events;
    // The first full pass is the baseline: the locks it finds were not acquired just now. Its events are
    // not even built (it may name 100,000 locks); the holders it finds are remembered all the same.
    const bool baseline = full && !std::exchange(m_baselineDone, true);
    for (const QByteArray& key : touched) {
        const auto before = m_views.constFind(key);
        const auto after = updated.constFind(key);
        const bool had = before != m_views.cend();
        const bool has = after != updated.cend();
        if (!had && !has)
            continue;
        deriveEvents(key, had ? &before.value() : nullptr, has ? &after.value() : nullptr, nowMs,
                     baseline ? nullptr : &events);
        if (!had)
            changes.appeared.append(after.value());
        else if (!has)
            changes.disappeared.append(key);
        else if (!before.value().sameStateAs(after.value()))
            changes.changed.append(after.value());
    }
    if (full) {
        m_views = std::move(updated);
        m_locksPerNode.fill(0);
        for (const LockView& view : std::as_const(m_views))
            countHolding(view, 1);
    } else {
        for (const QByteArray& key : touched) {
            const auto after = updated.constFind(key);
            auto it = m_views.find(key);
            if (it != m_views.end())
                countHolding(it.value(), -1);
            if (after == updated.cend()) {
                if (it != m_views.end())
                    m_views.erase(it);
                continue;
            }
            if (it != m_views.end())
                it.value() = after.value();
            else
                it = m_views.insert(key, after.value());
            countHolding(it.value(), 1);
        }
    }
    if (!changes.isEmpty()) {
        changes.locksPerNode = m_locksPerNode;
        emit locksChanged(changes);
    }
    if (!events.isEmpty())
        emit lockEvents(events);
}

void LockInspector::deriveEvents(const QByteArray& key, const LockView* before, const LockView* after, qint64 nowMs,
                                 QList<LockEvent>* events)
{
    auto add = [&](LockEvent::Kind kind, const QByteArray& token, const QString& summary) -> LockEvent* {
        if (!events)
            return nullptr;
        LockEvent& e = events->emplace_back();
        e.kind = kind;
        e.key = key;
        e.token = token;
        e.atMs = nowMs;
        e.holderSummary = summary;
        return &e;
    };
    const auto last = m_lastQuorum.find(key); // "no holder" is no entry: an empty value is a token too
    if (after && after->hasQuorum()) {
        LastQuorum seen;
        seen.token = after->token;
        seen.seenAtNs = after->observedAtNs;
        // After the quorum-th largest PTTL among the holders, fewer than a quorum still hold it (no TTL: never).
        QVarLengthArray<qint64, 16> pttls;
        for (int i = 0; i < after->nodes.size(); ++i) {
            const NodeLockState& s = after->nodes[i];
            if (s.presence != NodeLockState::Presence::Holding || s.token != after->token)
                continue;
            pttls.append(s.pttlMs < 0 ? std::numeric_limits<qint64>::max() : s.pttlMs);
            if (i < 64)
                seen.nodeMask |= quint64(1) << i;
        }
        std::sort(pttls.begin(), pttls.end(), std::greater<>());
        const qint64 quorumPttl = pttls.value(after->quorum - 1, 0);
        seen.endsNs =
            quorumPttl == std::numeric_limits<qint64>::max() ? 0 : after->observedAtNs + quorumPttl * kNsPerMs;
        if (last == m_lastQuorum.end()) {
            add(LockEvent::Kind::Acquired, after->token, after->holder.summary);
            m_lastQuorum.insert(key, std::move(seen));
            return;
        }
        if (last->token != after->token) {
            if (LockEvent* e = add(LockEvent::Kind::TokenChanged, after->token, after->holder.summary))
                e->previousToken = last->token;
        }
        *last = std::move(seen); // the same holder too: where and when it was last seen
        return;
    }
    if (after && after->verdict == LockVerdict::Unknown)
        return; // cannot tell: the last holder stays as it was
    if (last != m_lastQuorum.end()) {
        // Nodes that held it when last seen on a quorum, do not now, and restarted since: had they kept their
        // data, would it still have its quorum? Then it was lost, not released.
        QList<int> restartedWithout;
        int stillHolding = 0;
        for (int i = 0; i < nodeCount(); ++i) {
            const NodeLockState* now = after ? &after->nodes[i] : nullptr;
            if (now && now->presence == NodeLockState::Presence::Holding && now->token == last->token) {
                ++stillHolding;
                continue;
            }
            const bool heldThen = i < 64 && (last->nodeMask & (quint64(1) << i));
            const NodeLink& link = m_links[static_cast<size_t>(i)];
            if (heldThen && link.restartedAtNs > last->seenAtNs)
                restartedWithout.append(i);
        }
        const bool lost = !restartedWithout.isEmpty() && stillHolding + restartedWithout.size() >= quorum();
        // Gone at (or after) the instant its quorum was due to run out: it expired; before: it was released.
        constexpr qint64 slackNs = 50 * kNsPerMs;
        const bool expired = last->endsNs > 0 && m_clock->nowNs() + slackNs >= last->endsNs;
        const LockEvent::Kind kind = lost      ? LockEvent::Kind::Lost
                                     : expired ? LockEvent::Kind::Expired
                                               : LockEvent::Kind::Released;
        if (LockEvent* e = add(kind, last->token, before ? before->holder.summary : QString()); e && lost)
            e->nodes = restartedWithout;
        m_lastQuorum.erase(last);
    }
    if (after && after->verdict == LockVerdict::Contested && (!before || before->verdict != LockVerdict::Contested))
        add(LockEvent::Kind::Contested, after->token, after->holder.summary);
}

void LockInspector::countHolding(const LockView& view, int delta)
{
    for (qsizetype i = 0; i < view.nodes.size() && i < m_locksPerNode.size(); ++i) {
        if (view.nodes[i].presence == NodeLockState::Presence::Holding)
            m_locksPerNode[i] += delta;
    }
}

// ------------------------------------------------------------------------------------------ live events

void LockInspector::subscribe(int node)
{
    NodeLink& link = m_links[static_cast<size_t>(node)];
    const QByteArray channel = "__keyspace@" + QByteArray::number(m_options.nodes[node].db) + "__:" + m_options.pattern;
    auto alive = m_alive;
    link.subscriber->send({"PSUBSCRIBE", channel}, [this, alive, node](const RedisReply& reply) {
        if (!*alive)
            return;
        NodeLink& l = m_links[static_cast<size_t>(node)];
        if (reply.isError()) {
            l.subscribed = false;
            l.subscribeNote = tr("PSUBSCRIBE refused: %1").arg(reply.errorText());
            emit keyspaceSubscription(node, false, reply.errorText());
            reportLiveSource(node);
            return;
        }
        l.subscribed = true;
        l.subscribeNote.clear();
        emit keyspaceSubscription(node, true, QString());
        reportLiveSource(node);
        // Events sent while we were not subscribed are lost for good: resync.
        if (std::exchange(l.everSubscribed, true))
            resync();
    });
}

void LockInspector::checkRunId(int node)
{
    auto alive = m_alive;
    m_links[static_cast<size_t>(node)].reader->send(
        {"INFO", "server"},
        [this, alive, node](const RedisReply& reply) {
            if (!*alive || !reply.isString())
                return; // refused or lost: restarts of this node go unnoticed (then a lost lock reads "released")
            QByteArray runId;
            for (const QByteArray& line : reply.bytes().split('\n')) {
                if (line.startsWith("run_id:"))
                    runId = line.mid(7).trimmed();
            }
            NodeLink& link = m_links[static_cast<size_t>(node)];
            const bool restarted = !link.runId.isEmpty() && !runId.isEmpty() && runId != link.runId;
            if (!runId.isEmpty())
                link.runId = runId;
            if (!restarted)
                return;
            link.restartedAtNs = link.lostAtNs > 0 ? link.lostAtNs : m_clock->nowNs();
            emit nodeRestarted(node);
            resync(); // its keys vanished without keyspace events
        },
        m_options.commandTimeoutMs);
}

void LockInspector::checkEventsConfig(int node)
{
    NodeLink& link = m_links[static_cast<size_t>(node)];
    if (!m_options.keyspaceEvents || !link.reader->isReady())
        return;
    auto alive = m_alive;
    link.reader->send(
        {"CONFIG", "GET", "notify-keyspace-events"},
        [this, alive, node](const RedisReply& reply) {
            if (!*alive)
                return;
            NodeLink& l = m_links[static_cast<size_t>(node)];
            if (reply.type() == RedisReply::Type::Failure)
                return; // lost or timed out: the configuration did not change for that
            if (reply.isArray() && reply.elements().size() >= 2) {
                const QString flags = QString::fromUtf8(reply.elements()[1].bytes());
                const bool enough = keyspaceEventsSufficient(flags);
                l.eventsConfig = enough ? NodeLink::EventsConfig::On : NodeLink::EventsConfig::Off;
                l.eventsNote = enough            ? QString()
                               : flags.isEmpty() ? tr("notify-keyspace-events is off")
                                                 : tr("notify-keyspace-events \"%1\" lacks some of \"%2\"")
                                                       .arg(flags, QString::fromLatin1(keyspaceEventFlags()));
            } else {
                l.eventsConfig = NodeLink::EventsConfig::Unknown;
                l.eventsNote = tr("notify-keyspace-events unknown (CONFIG GET: %1)")
                                   .arg(reply.isError() ? reply.errorText() : tr("unexpected reply"));
            }
            l.configChecked = true;
            reportLiveSource(node);
        },
        m_options.commandTimeoutMs);
}

void LockInspector::reportLiveSource(int node)
{
    NodeLink& link = m_links[static_cast<size_t>(node)];
    bool live = false;
    QString why;
    if (!m_options.keyspaceEvents) {
        why = tr("keyspace events not used");
    } else {
        // Not before both the subscription and the configuration have answered once.
        if (!link.configChecked || (!link.subscribed && link.subscribeNote.isEmpty()))
            return;
        if (!link.subscribed)
            why = link.subscribeNote;
        else if (link.eventsConfig != NodeLink::EventsConfig::On)
            why = link.eventsNote;
        else
            live = true;
    }
    if (link.liveReported == int(live) && link.liveReportedWhy == why)
        return;
    link.liveReported = int(live);
    link.liveReportedWhy = why;
    emit liveSourceChanged(node, live, why);
}

void LockInspector::reportLoad()
{
    const double seconds = std::max<qint64>(1, m_loadClock.restart()) / 1000.0;
    const int budget = m_options.budgetPerNode;
    qint64 known = m_views.size();
    int percent = -1;
    if (m_pass)
        percent = known > 0 ? static_cast<int>(std::min<qint64>(100, m_pass->seen.size() * 100 / known)) : 0;
    qint64 fullMs = -1;
    if (budget > 0) {
        // One full rescan costs a node about what the last one did (or a command per known key).
        const qint64 perNode = m_lastPassCommandsPerNode > 0 ? m_lastPassCommandsPerNode : known;
        fullMs = perNode * 1000 / budget;
    }
    QList<ObserverLoad> out;
    out.reserve(nodeCount());
    for (int n = 0; n < nodeCount(); ++n) {
        NodeLink& link = m_links[static_cast<size_t>(n)];
        const quint64 total =
            link.reader->commandsWritten() + (link.subscriber ? link.subscriber->commandsWritten() : 0);
        ObserverLoad load;
        load.node = n;
        load.commandsPerSecond = double(total - link.reportedTotal) / seconds;
        load.rescanPerSecond = double(link.rescanCommands - link.reportedRescan) / seconds;
        load.eventReadsPerSecond = double(link.eventCommands - link.reportedEvents) / seconds;
        load.budgetPerSecond = budget;
        load.eventsLive = link.liveReported == 1;
        load.eventsNote = link.liveReported == 0 ? link.liveReportedWhy : QString();
        load.rescanPercent = percent;
        load.fullRescanMs = fullMs;
        link.reportedTotal = total;
        link.reportedRescan = link.rescanCommands;
        link.reportedEvents = link.eventCommands;
        out.append(load);
    }
    emit observerLoad(out);
}

void LockInspector::onKeyspaceMessage(int node, const RedisReply& reply)
{
    Q_UNUSED(node)
    // pmessage <pattern> <channel> <event>; channel = "__keyspace@<db>__:<key>"
    const auto& e = reply.elements();
    if (e.size() != 4 || e[0].bytes() != "pmessage")
        return;
    const QByteArray& channel = e[2].bytes();
    const qsizetype colon = channel.indexOf("__:");
    if (colon < 0)
        return;
    const QByteArray key = channel.mid(colon + 3);
    if (!globMatches(m_options.pattern, key) || key.startsWith(kRedissonChannelPrefix))
        return;
    m_touched.insert(key);
    if (m_pass)
        m_pass->touchedMeanwhile.insert(key);
    if (!m_flushInFlight && !m_eventTimer.isActive())
        m_eventTimer.start();
}

void LockInspector::flushTouched()
{
    if (m_flushInFlight || m_touched.isEmpty())
        return;
    m_flushInFlight = true;
    const QSet<QByteArray> touched = std::exchange(m_touched, {});
    const QList<QByteArray> keys(touched.cbegin(), touched.cend());
    auto alive = m_alive;
    readOnAllNodes(keys, QList<bool>(nodeCount(), true), QStringList(nodeCount(), QString()), false,
                   [this, alive, touched](const GroupReads& group) {
                       if (!*alive)
                           return;
                       QHash<QByteArray, LockView> updated;
                       for (qsizetype k = 0; k < group.keys.size(); ++k) {
                           LockView view;
                           if (mergeGroupKey(group, k, view) == Outcome::Lock)
                               updated.insert(group.keys[k], std::move(view));
                       }
                       if (m_pass) {
                           for (const QByteArray& key : touched)
                               m_pass->touchedMeanwhile.insert(key);
                       }
                       applyChanges(std::move(updated), touched, Apply::Events);
                       m_flushInFlight = false;
                       if (!m_touched.isEmpty())
                           m_eventTimer.start();
                   });
}

} // namespace redlock
