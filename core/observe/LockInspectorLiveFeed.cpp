#include "observe/LockInspector.h"

#include "observe/KeyPattern.h"
#include "observe/LockInspectorPass.h"

#include <algorithm>

namespace redlock {

using inspector::kRedissonChannelPrefix;

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

void LockInspector::noteRunId(int node)
{
    NodeLink& link = m_links[static_cast<size_t>(node)];
    link.restartUnchecked = false;
    // Reads that came back before the connection was ready were set aside: read again, whatever the run_id.
    const bool reread = std::exchange(link.readsWithheld, false);
    // Unknown when the handshake's INFO was refused (ACL): a restart of this node then goes unnoticed (and a lock
    // it lost reads "released").
    const QByteArray runId = link.reader->serverRunId();
    const bool restarted = !link.runId.isEmpty() && !runId.isEmpty() && runId != link.runId;
    if (!runId.isEmpty())
        link.runId = runId;
    // The alias map of the verdicts: which names are one server.
    if (!runId.isEmpty() && m_runIds.value(node) != runId) {
        m_runIds.resize(nodeCount());
        m_runIds[node] = runId;
        if (!restarted)
            judgeAllAgain();
    }
    if (restarted) {
        m_events.nodeRestarted(node, link.lostAtNs > 0 ? link.lostAtNs : m_clock->nowNs());
        emit nodeRestarted(node);
        checkRestartedNode(node, QByteArrayLiteral("0"), std::make_shared<QSet<QByteArray>>(), ++link.restartChecks);
    }
    if (restarted || reread)
        resync(); // a restarted node's keys vanished without keyspace events
}

void LockInspector::checkRestartedNode(int node, const QByteArray& cursor, std::shared_ptr<QSet<QByteArray>> present,
                                       quint64 check)
{
    // Which of the locks shown on this node did it lose? A SCAN of the restarted node alone costs what it holds
    // now (next to nothing when it came back empty), not a rescan of the deployment at the budget's pace: the
    // locks it lost show at once. What it still holds is left to the resync.
    auto alive = m_alive;
    NodeLink& link = m_links[static_cast<size_t>(node)];
    charge(node, 1, false);
    link.reader->send(
        {"SCAN", cursor, "MATCH", m_options.pattern, "COUNT", QByteArray::number(m_options.scanCount)},
        [this, alive, node, present, check](const RedisReply& reply) {
            if (!*alive || m_links[static_cast<size_t>(node)].restartChecks != check)
                return; // gone, or the node restarted again meanwhile
            if (!reply.isArray() || reply.elements().size() != 2 || !reply.elements()[1].isArray())
                return; // refused or lost: the resync will tell
            for (const RedisReply& name : reply.elements()[1].elements())
                present->insert(name.bytes());
            const QByteArray next = reply.elements()[0].bytes();
            if (next != "0") {
                checkRestartedNode(node, next, present, check);
                return;
            }
            QHash<QByteArray, LockView> updated;
            QSet<QByteArray> touched;
            for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
                if (it->view.presence(node) != NodeLockState::Presence::Holding || present->contains(it.key()))
                    continue;
                LockView view = it->view.unpack(it.key());
                view.nodes[node] = NodeLockState{};
                view.nodes[node].presence = NodeLockState::Presence::Absent;
                judgeLock(view, verdictRules());
                touched.insert(it.key());
                if (view.verdict != LockVerdict::Free)
                    updated.insert(it.key(), std::move(view));
            }
            if (touched.isEmpty())
                return;
            if (m_pass)
                m_pass->touchedMeanwhile.unite(touched); // what a pass read there before the restart is stale
            applyChanges(std::move(updated), touched, Apply::Events);
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
                // del (g) and expired (x): enough to tell how a lock ended (deferUntoldEndings), hashes or not.
                l.endingsTold =
                    flags.contains(u'K') && (flags.contains(u'A') || (flags.contains(u'g') && flags.contains(u'x')));
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
        load.commandsWritten = total;
        load.rescanPerSecond = double(link.rescanCommands - link.reportedRescan) / seconds;
        load.eventReadsPerSecond = double(link.eventCommands - link.reportedEvents) / seconds;
        load.budgetPerSecond = budget;
        load.eventsLive = link.liveReported == 1;
        load.eventsNote = link.liveReported == 0 ? link.liveReportedWhy : QString();
        load.rescanPercent = percent;
        load.fullRescanMs = fullMs;
        load.readPath = link.keys->readPath();
        load.readPathNote = link.keys->readPathNote();
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
    // pmessage <pattern> <channel> <event>; channel = "__keyspace@<db>__:<key>"; the event's name (del, expired,
    // evicted, set, ...) tells the tracker how a quorum ended
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
    m_touched[key] |= LockEventTracker::Evidence::nameFlag(e[3].bytes());
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
    const EventNames told = std::exchange(m_touched, {});
    QSet<QByteArray> touched;
    touched.reserve(told.size());
    for (auto it = told.cbegin(); it != told.cend(); ++it)
        touched.insert(it.key());
    const QList<QByteArray> keys(touched.cbegin(), touched.cend());
    auto alive = m_alive;
    readOnAllNodes(keys, QList<bool>(nodeCount(), true), QStringList(nodeCount(), QString()), false,
                   [this, alive, touched, told](GroupReads group) {
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
                       applyChanges(std::move(updated), touched, Apply::Events, &told);
                       m_flushInFlight = false;
                       if (!m_touched.isEmpty())
                           m_eventTimer.start();
                   });
}

bool LockInspector::eventsTellEveryEnding() const
{
    return std::all_of(m_links.cbegin(), m_links.cend(),
                       [](const NodeLink& link) { return link.subscribed && link.endingsTold; });
}

QList<QByteArray> LockInspector::deferUntoldEndings(const EventNames* told, const QHash<QByteArray, LockView>& updated,
                                                    const QSet<QByteArray>& touched)
{
    // A lock found gone by a read no keyspace event asked for (its validity ran out, a rescan): the read itself may
    // have made the node expire the key (Redis expires lazily, on access, between its sampling cycles; SCAN too), and
    // the node's "expired" event for it is then on its way on the subscriber connection while the read's answer is
    // already here. Judged now it would be "released or expired" although the events will say which. So, where
    // every node sends the events that tell an ending, such a key is read once more, after the next batch of events:
    // by then its event (or none, when there is none) has arrived. Asked once per ending: the second read stands.
    QList<QByteArray> later;
    if (!eventsTellEveryEnding()) {
        m_awaitingEventName.clear();
        return later;
    }
    for (const QByteArray& key : touched) {
        if (updated.contains(key) || !m_views.contains(key))
            continue; // not an ending
        const quint8 names = told ? told->value(key, 0) : 0;
        if (m_awaitingEventName.remove(key) || names != 0)
            continue; // read again already, or an event named it
        m_awaitingEventName.insert(key);
        m_touched[key] |= 0;
        later.append(key);
    }
    if (!later.isEmpty() && !m_flushInFlight && !m_eventTimer.isActive())
        m_eventTimer.start();
    return later;
}

} // namespace redlock
