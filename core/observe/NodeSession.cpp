#include "observe/NodeSession.h"

#include "redlock/FencingCounters.h"
#include "runtime/ClientName.h"

#include <QDateTime>

#include <chrono>
#include <utility>

namespace redlock {

namespace {

qint64 wallNowUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

qint64 wallNowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

qint64 steadyNowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Everything that is worth a factsChanged(): samples (latency, offset) are not.
bool sameFacts(const NodeFacts& a, const NodeFacts& b)
{
    return a.health == b.health && a.errorKind == b.errorKind && a.reason == b.reason &&
           a.refusedCommands == b.refusedCommands && a.infoKnown == b.infoKnown && a.role == b.role &&
           a.connectedReplicas == b.connectedReplicas && a.runId == b.runId && a.redisVersion == b.redisVersion &&
           a.maxmemoryPolicy == b.maxmemoryPolicy && a.maxmemoryBytes == b.maxmemoryBytes &&
           a.aofEnabled == b.aofEnabled && a.appendFsync == b.appendFsync &&
           a.notifyKeyspaceEvents == b.notifyKeyspaceEvents && a.fencingCounters == b.fencingCounters &&
           a.previousRunId == b.previousRunId && a.restartSeenAtMs == b.restartSeenAtMs &&
           // uptime restarts from 0 after a restart; otherwise its ticking is no news
           (a.uptimeSeconds < 0) == (b.uptimeSeconds < 0) && a.clockOffsetUs.has_value() == b.clockOffsetUs.has_value();
}

} // namespace

NodeSession::NodeSession(int node, const NodeEndpoint& endpoint, const NodeSessionOptions& options, QObject* parent)
    : QObject(parent), m_options(options)
{
    m_facts.node = node;
    m_facts.endpoint = endpoint;
    ConnectionOptions connection = m_options.connection;
    if (connection.clientName.isEmpty())
        connection.clientName = applicationClientName("observe");
    connection.commandTimeoutMs = m_options.commandTimeoutMs;
    m_connection = new RedisConnection(endpoint, connection, this);
    connect(m_connection, &RedisConnection::stateChanged, this, &NodeSession::onStateChanged);
    m_pingTimer.setInterval(m_options.pingIntervalMs);
    connect(&m_pingTimer, &QTimer::timeout, this, &NodeSession::sample);
    m_factsTimer.setInterval(m_options.factsIntervalMs);
    connect(&m_factsTimer, &QTimer::timeout, this, &NodeSession::refreshFacts);
}

NodeSession::~NodeSession()
{
    // The connection's destructor answers pending commands with a failure; nothing must be published then.
    RedisConnection* connection = m_connection;
    connection->disconnect(this);
    m_connection = nullptr; // handlers see this and return
    delete connection;
}

void NodeSession::start()
{
    m_pingTimer.start();
    m_factsTimer.start();
    m_connection->open();
    publish();
}

void NodeSession::stop()
{
    m_pingTimer.stop();
    m_factsTimer.stop();
    m_connection->close();
}

void NodeSession::refreshNow()
{
    sample();
    refreshFacts();
}

void NodeSession::onStateChanged(RedisConnection::State state)
{
    switch (state) {
    case RedisConnection::State::Ready:
        m_facts.health = NodeHealth::Up;
        m_facts.errorKind = RedisErrorKind::None;
        m_facts.reason.clear();
        m_lastAnswerMs = wallNowMs();
        m_answeredSinceLoss = true;
        publish();
        refreshNow();
        return;
    case RedisConnection::State::WaitingToReconnect:
    case RedisConnection::State::Disconnected: {
        const RedisErrorKind kind = m_connection->lastErrorKind();
        if (kind == RedisErrorKind::AuthFailed)
            m_facts.health = NodeHealth::AuthFailed;
        else if (kind == RedisErrorKind::NoPermission)
            m_facts.health = NodeHealth::NoPermission;
        else if (state == RedisConnection::State::Disconnected && kind == RedisErrorKind::None)
            m_facts.health = NodeHealth::Connecting; // closed on purpose, not down
        else
            m_facts.health = NodeHealth::Down;
        m_facts.errorKind = kind;
        m_facts.reason = m_connection->lastError();
        m_facts.latencyUs = -1;
        m_clockSamples.clear();
        // The first loss after the node answered; failed reconnects after it say nothing new.
        if (std::exchange(m_answeredSinceLoss, false))
            m_lostAtSteadyMs = steadyNowMs();
        publish();
        return;
    }
    case RedisConnection::State::Connecting:
    case RedisConnection::State::Handshaking:
        // Keep showing why the node was down while the reconnect attempt runs: no flicker.
        return;
    }
}

double NodeSession::commandsPerSecond()
{
    // Over the time since the previous sample: what this session costs its node.
    const quint64 written = m_connection->commandsWritten();
    if (!m_loadClock.isValid()) {
        m_loadClock.start();
        m_loadCommands = written;
        return -1;
    }
    const qint64 ms = m_loadClock.restart();
    const double rate = ms > 0 ? double(written - m_loadCommands) * 1000.0 / double(ms) : -1;
    m_loadCommands = written;
    return rate;
}

void NodeSession::sample()
{
    if (!m_connection->isReady()) {
        emit sampled(
            {m_facts.node, wallNowMs(), -1, std::nullopt, commandsPerSecond(), -1, m_connection->commandsWritten()});
        return;
    }
    if (m_sampleInFlight)
        return;
    m_sampleInFlight = true;
    struct Timing
    {
        QElapsedTimer timer;
        qint64 sentWallUs = 0;
        qint64 latencyUs = -1;
    };
    auto timing = std::make_shared<Timing>();
    timing->sentWallUs = wallNowUs();
    timing->timer.start();
    QList<RedisConnection::Command> commands;
    commands.append({{"PING"}, [this, timing](const RedisReply& reply) {
                         if (!m_connection)
                             return;
                         if (!reply.isError()) {
                             timing->latencyUs = timing->timer.nsecsElapsed() / 1000;
                             m_lastAnswerMs = wallNowMs();
                             noteAllowed(QStringLiteral("PING"));
                             noteAnswering();
                         } else if (reply.errorKind() == RedisErrorKind::Timeout && m_connection->isReady()) {
                             noteNotAnswering();
                         } else {
                             noteRefused(QStringLiteral("PING"), reply);
                         }
                     }});
    commands.append({{"TIME"}, [this, timing](const RedisReply& reply) {
                         if (!m_connection)
                             return;
                         m_sampleInFlight = false;
                         const qint64 rttUs = timing->timer.nsecsElapsed() / 1000;
                         std::optional<qint64> offset;
                         if (reply.isArray() && reply.elements().size() == 2) {
                             noteAllowed(QStringLiteral("TIME"));
                             const qint64 serverUs = reply.elements()[0].bytes().toLongLong() * 1'000'000 +
                                                     reply.elements()[1].bytes().toLongLong();
                             // The server read its clock about half a round trip after we sent, give or take
                             // half a round trip: of the last few samples, the one with the shortest round trip
                             // places that read best (a busy client or server lengthens one leg, not both).
                             noteClockSample(rttUs, serverUs - (timing->sentWallUs + rttUs / 2));
                             offset = m_facts.clockOffsetUs;
                         } else {
                             noteRefused(QStringLiteral("TIME"), reply);
                             m_clockSamples.clear();
                             m_facts.clockOffsetUs.reset();
                             m_facts.clockOffsetUncertaintyUs = -1;
                         }
                         m_facts.latencyUs = timing->latencyUs;
                         emit sampled({m_facts.node, wallNowMs(), timing->latencyUs, offset, commandsPerSecond(),
                                       m_facts.clockOffsetUncertaintyUs, m_connection->commandsWritten()});
                         publish();
                     }});
    m_connection->sendPipeline(std::move(commands), m_options.commandTimeoutMs);
}

void NodeSession::refreshFacts()
{
    if (!m_connection->isReady() || m_factsInFlight)
        return;
    m_factsInFlight = true;
    m_factsSentAtSteadyMs = steadyNowMs();
    QList<RedisConnection::Command> commands;
    commands.append({{"INFO"}, [this](const RedisReply& reply) {
                         if (!m_connection)
                             return;
                         if (reply.isString()) {
                             noteAllowed(QStringLiteral("INFO"));
                             applyInfo(reply.bytes());
                         } else {
                             noteRefused(QStringLiteral("INFO"), reply);
                         }
                     }});
    auto configGet = [this](const QByteArray& parameter, std::function<void(const QString&)> apply) {
        return RedisConnection::Command{{"CONFIG", "GET", parameter}, [this, apply](const RedisReply& reply) {
                                            if (!m_connection)
                                                return;
                                            if (reply.isArray()) {
                                                noteAllowed(QStringLiteral("CONFIG GET"));
                                                const auto& e = reply.elements();
                                                if (e.size() >= 2)
                                                    apply(QString::fromUtf8(e[1].bytes()));
                                            } else {
                                                noteRefused(QStringLiteral("CONFIG GET"), reply);
                                            }
                                        }};
    };
    commands.append(configGet("appendfsync", [this](const QString& v) { m_facts.appendFsync = v; }));
    commands.append(
        configGet("notify-keyspace-events", [this](const QString& v) { m_facts.notifyKeyspaceEvents = v; }));
    // Whether fencing is in use: its counters must then never be lost (the audit's persistence rule).
    commands.append({{"TYPE", fenceCountersKey()}, [this](const RedisReply& reply) {
                         if (m_connection)
                             m_facts.fencingCounters = reply.isString() ? (reply.bytes() != "none" ? 1 : 0) : -1;
                     }});
    // The last reply closes the round.
    commands.last().handler = [inner = commands.last().handler, this](const RedisReply& reply) {
        if (!m_connection)
            return;
        inner(reply);
        m_factsInFlight = false;
        m_facts.factsUpdatedAtMs = wallNowMs();
        publish();
    };
    m_connection->sendPipeline(std::move(commands), m_options.commandTimeoutMs);
}

void NodeSession::applyInfo(const QByteArray& info)
{
    QByteArray runId;
    for (const QByteArray& rawLine : info.split('\n')) {
        const QByteArray line = rawLine.trimmed();
        const qsizetype colon = line.indexOf(':');
        if (line.startsWith('#') || colon <= 0)
            continue;
        const QByteArray name = line.left(colon);
        const QByteArray value = line.mid(colon + 1);
        if (name == "role")
            m_facts.role = QString::fromLatin1(value);
        else if (name == "connected_slaves")
            m_facts.connectedReplicas = value.toInt();
        else if (name == "run_id")
            runId = value;
        else if (name == "uptime_in_seconds")
            m_facts.uptimeSeconds = value.toLongLong();
        else if (name == "redis_version")
            m_facts.redisVersion = QString::fromLatin1(value);
        else if (name == "maxmemory_policy")
            m_facts.maxmemoryPolicy = QString::fromLatin1(value);
        else if (name == "maxmemory")
            m_facts.maxmemoryBytes = value.toLongLong();
        else if (name == "aof_enabled")
            m_facts.aofEnabled = value.toInt();
    }
    m_facts.infoKnown = true;
    m_lastAnswerMs = wallNowMs();
    if (!runId.isEmpty() && !m_facts.runId.isEmpty() && runId != m_facts.runId) {
        m_facts.previousRunId = m_facts.runId;
        m_facts.restartSeenAtMs = wallNowMs();
        if (m_lostAtSteadyMs > 0 && m_facts.uptimeSeconds >= 0) {
            // uptime_in_seconds is truncated: the new instance may have started up to a second earlier.
            const qint64 startedAtMs = m_factsSentAtSteadyMs - (m_facts.uptimeSeconds + 1) * 1000;
            m_facts.downtimeMs = std::max<qint64>(0, startedAtMs - m_lostAtSteadyMs);
        } else {
            m_facts.downtimeMs = -1;
        }
        m_facts.runId = runId;
        emit restarted(m_facts);
    }
    m_facts.runId = runId;
}

void NodeSession::noteNotAnswering()
{
    // The connection is still open, but the PING sent a ping interval ago got no reply within the command
    // timeout: a stopped (SIGSTOP), hung or overloaded server. It takes no lock now, so it is down for the
    // quorum, the alerts and the metrics until it answers again.
    if (m_facts.health != NodeHealth::Up && m_facts.health != NodeHealth::NotAnswering)
        return;
    m_facts.health = NodeHealth::NotAnswering;
    m_facts.errorKind = RedisErrorKind::Timeout;
    m_facts.reason = tr("no reply to PING within %1 ms").arg(m_options.commandTimeoutMs);
    m_facts.latencyUs = -1;
    m_clockSamples.clear();
    m_facts.clockOffsetUs.reset();
    m_facts.clockOffsetUncertaintyUs = -1;
    publish();
}

void NodeSession::noteAnswering()
{
    if (m_facts.health != NodeHealth::NotAnswering)
        return;
    m_facts.health = NodeHealth::Up;
    m_facts.errorKind = RedisErrorKind::None;
    m_facts.reason.clear();
    publish();
    // What it said before it stopped answering may be old: read its facts again now.
    refreshFacts();
}

void NodeSession::noteClockSample(qint64 rttUs, qint64 offsetUs)
{
    m_clockSamples.push_back({rttUs, offsetUs});
    while (m_clockSamples.size() > kClockSamples)
        m_clockSamples.pop_front();
    const auto best = std::min_element(m_clockSamples.cbegin(), m_clockSamples.cend(),
                                       [](const ClockSample& a, const ClockSample& b) { return a.rttUs < b.rttUs; });
    m_facts.clockOffsetUs = best->offsetUs;
    m_facts.clockOffsetUncertaintyUs = (best->rttUs + 1) / 2;
}

void NodeSession::noteRefused(const QString& command, const RedisReply& reply)
{
    if (reply.errorKind() != RedisErrorKind::NoPermission || m_facts.refusedCommands.contains(command))
        return;
    m_facts.refusedCommands.append(command);
}

void NodeSession::noteAllowed(const QString& command)
{
    m_facts.refusedCommands.removeAll(command);
}

void NodeSession::publish()
{
    if (m_havePublished && sameFacts(m_facts, m_published))
        return;
    m_published = m_facts;
    m_havePublished = true;
    emit factsChanged(m_facts);
}

void NodeSession::enableKeyspaceEvents(const QByteArray& flags)
{
    const int node = m_facts.node;
    if (m_options.readOnly) {
        emit keyspaceEventsConfigured(node, false, tr("read-only mode: enabling keyspace events refused"));
        return;
    }
    m_connection->send(
        {"CONFIG", "GET", "notify-keyspace-events"},
        [this, flags, node](const RedisReply& current) {
            if (!m_connection)
                return;
            if (!current.isArray() || current.elements().size() < 2) {
                noteRefused(QStringLiteral("CONFIG GET"), current);
                emit keyspaceEventsConfigured(node, false,
                                              current.isError() ? current.errorText() : tr("unexpected reply"));
                publish();
                return;
            }
            QByteArray merged = current.elements()[1].bytes();
            for (const char c : flags) {
                if (!merged.contains(c))
                    merged.append(c);
            }
            m_connection->send(
                {"CONFIG", "SET", "notify-keyspace-events", merged}, [this, node, merged](const RedisReply& reply) {
                    if (!m_connection)
                        return;
                    if (reply.isError()) {
                        noteRefused(QStringLiteral("CONFIG SET"), reply);
                        emit keyspaceEventsConfigured(node, false, reply.errorText());
                    } else {
                        m_facts.notifyKeyspaceEvents = QString::fromLatin1(merged);
                        emit keyspaceEventsConfigured(
                            node, true, tr("notify-keyspace-events set to \"%1\"").arg(QString::fromLatin1(merged)));
                    }
                    refreshFacts();
                });
        },
        m_options.commandTimeoutMs);
}

} // namespace redlock
