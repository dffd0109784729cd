#include "controller/ConnectionCheck.h"

#include "protocol/RedisConnection.h"
#include "runtime/IoThread.h"

namespace redlock {

ConnectionCheck::ConnectionCheck(int node, const NodeEndpoint& endpoint, QObject* parent)
    : QObject(parent), m_node(node), m_endpoint(endpoint)
{}

ConnectionCheck::~ConnectionCheck() = default;

void ConnectionCheck::run()
{
    ConnectionOptions options;
    options.autoReconnect = false;
    options.connectTimeoutMs = 3000;
    options.commandTimeoutMs = 3000;
    options.clientName = "redlock-console:check";
    m_connection = new RedisConnection(m_endpoint, options, this);
    connect(m_connection, &RedisConnection::stateChanged, this, [this](RedisConnection::State state) {
        if (state == RedisConnection::State::Handshaking && !m_reachedHandshake) {
            m_reachedHandshake = true;
            const QString how = m_endpoint.isUnix() ? tr("unix socket %1").arg(m_endpoint.unixSocket)
                                                    : tr("TCP %1:%2").arg(m_endpoint.host).arg(m_endpoint.port);
            m_steps.append({tr("connect"), true, how});
            if (m_endpoint.tls)
                m_steps.append({tr("TLS handshake"), true, tr("certificate verified")});
        }
    });
    connect(m_connection, &RedisConnection::connectionLost, this, [this](RedisErrorKind kind, const QString& message) {
        if (m_done)
            return;
        if (!m_reachedHandshake) {
            fail(kind == RedisErrorKind::Tls ? tr("TLS handshake") : tr("connect"),
                 tr("%1: %2").arg(errorKindName(kind), message));
            return;
        }
        // The handshake reports "<COMMAND> failed: <server text>".
        for (const char* step : {"AUTH", "SELECT", "PING"}) {
            if (message.startsWith(QLatin1String(step))) {
                fail(QString::fromLatin1(step), message);
                return;
            }
        }
        fail(tr("handshake"), tr("%1: %2").arg(errorKindName(kind), message));
    });
    connect(m_connection, &RedisConnection::ready, this, [this] {
        if (!m_endpoint.password.isEmpty())
            m_steps.append(
                {QStringLiteral("AUTH"), true, m_endpoint.user.isEmpty() ? tr("default user") : m_endpoint.user});
        if (m_endpoint.db != 0)
            m_steps.append({QStringLiteral("SELECT"), true, tr("database %1").arg(m_endpoint.db)});
        m_steps.append({QStringLiteral("PING"), true, tr("PONG")});
        m_connection->send({"INFO", "replication"}, [this](const RedisReply& reply) {
            if (reply.isError()) {
                // Refused INFO degrades the view (no audit of roles) but the node can hold locks.
                m_steps.append({QStringLiteral("INFO"), false, reply.errorText()});
            } else {
                QString role = tr("unknown");
                for (const QByteArray& line : reply.bytes().split('\n')) {
                    if (line.startsWith("role:"))
                        role = QString::fromLatin1(line.mid(5).trimmed());
                }
                const bool master = role == QLatin1String("master");
                m_steps.append({tr("role"), master,
                                master ? tr("master") : tr("%1: a replica cannot hold Redlock locks").arg(role)});
            }
            m_connection->send({"CONFIG", "GET", "notify-keyspace-events"}, [this](const RedisReply& r) {
                if (r.isArray() && r.elements().size() == 2) {
                    const QString flags = QString::fromLatin1(r.elements()[1].bytes());
                    m_steps.append({tr("keyspace events"), true,
                                    flags.isEmpty() ? tr("off: the console refreshes by scanning only")
                                                    : tr("\"%1\"").arg(flags)});
                } else {
                    m_steps.append({tr("keyspace events"), true, tr("unknown (CONFIG refused)")});
                }
                succeed();
            });
        });
    });
    m_connection->open();
}

void ConnectionCheck::fail(const QString& step, const QString& detail)
{
    m_done = true;
    m_steps.append({step, false, detail});
    emit finished(m_node, false, m_steps);
}

void ConnectionCheck::succeed()
{
    m_done = true;
    bool ok = true;
    for (const Step& s : std::as_const(m_steps))
        ok = ok && (s.ok || s.name == QLatin1String("INFO"));
    emit finished(m_node, ok, m_steps);
}

ConnectionChecker::ConnectionChecker(QObject* parent) : QObject(parent) {}

ConnectionChecker::~ConnectionChecker() = default;

void ConnectionChecker::newRound()
{
    ++m_round;
    m_io = std::make_unique<IoThread>(QStringLiteral("redlock-check"));
}

void ConnectionChecker::check(int node, const NodeEndpoint& endpoint)
{
    if (!m_io)
        newRound();
    auto* check = m_io->create<ConnectionCheck>(node, endpoint);
    connect(
        check, &ConnectionCheck::finished, this,
        [this, round = m_round](int n, bool ok, const QList<ConnectionCheck::Step>& steps) {
            if (round == m_round)
                emit finished(n, ok, steps);
        },
        Qt::QueuedConnection);
    QMetaObject::invokeMethod(check, &ConnectionCheck::run, Qt::QueuedConnection);
}

} // namespace redlock
