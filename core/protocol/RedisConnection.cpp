#include "protocol/RedisConnection.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLocalSocket>
#include <QLocale>
#include <QRandomGenerator>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpSocket>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace redlock {

namespace {

// One field of an INFO reply ("name:value" lines), empty when absent.
QByteArray infoField(const QByteArray& info, QByteArrayView name)
{
    for (const QByteArray& rawLine : info.split('\n')) {
        const QByteArray line = rawLine.trimmed();
        if (line.size() > name.size() && line.startsWith(name) && line[name.size()] == ':')
            return line.mid(name.size() + 1);
    }
    return {};
}

RedisErrorKind kindForSocketError(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        return RedisErrorKind::ConnectionRefused;
    case QAbstractSocket::HostNotFoundError:
        return RedisErrorKind::HostNotFound;
    case QAbstractSocket::SocketTimeoutError:
        return RedisErrorKind::Timeout;
    case QAbstractSocket::RemoteHostClosedError:
        return RedisErrorKind::ConnectionLost;
    case QAbstractSocket::NetworkError:
    case QAbstractSocket::SocketAccessError:
    case QAbstractSocket::SocketAddressNotAvailableError:
        return RedisErrorKind::Unreachable;
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInternalError:
    case QAbstractSocket::SslInvalidUserDataError:
        return RedisErrorKind::Tls;
    default:
        return RedisErrorKind::ConnectionLost;
    }
}

RedisErrorKind kindForLocalSocketError(QLocalSocket::LocalSocketError error)
{
    switch (error) {
    case QLocalSocket::ConnectionRefusedError:
        return RedisErrorKind::ConnectionRefused;
    case QLocalSocket::ServerNotFoundError:
        return RedisErrorKind::HostNotFound;
    case QLocalSocket::SocketTimeoutError:
        return RedisErrorKind::Timeout;
    case QLocalSocket::PeerClosedError:
        return RedisErrorKind::ConnectionLost;
    case QLocalSocket::SocketAccessError:
        return RedisErrorKind::Unreachable;
    default:
        return RedisErrorKind::ConnectionLost;
    }
}

constexpr qint64 kNsPerMs = 1'000'000;
constexpr qsizetype kKeptBufferBytes = 64 * 1024;

bool isPushMessage(const RedisReply& reply)
{
    if (!reply.isArray() || reply.elements().size() < 3)
        return false;
    const QByteArray& kind = reply.elements().first().bytes();
    return kind == "message" || kind == "pmessage";
}

} // namespace

RedisConnection::RedisConnection(const NodeEndpoint& endpoint, const ConnectionOptions& options, QObject* parent)
    : QObject(parent), m_endpoint(endpoint), m_options(options)
{
    m_clock.start();
    m_timeoutTimer.setSingleShot(true);
    m_timeoutTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_timeoutTimer, &QTimer::timeout, this, &RedisConnection::onTimeoutTimer);
    m_connectTimer.setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        onTransportError(RedisErrorKind::Timeout, tr("connect timed out after %1 ms").arg(m_options.connectTimeoutMs));
    });
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &RedisConnection::startConnecting);
}

RedisConnection::~RedisConnection()
{
    // Callers learn that their commands will never be answered; nothing blocks here. A command their
    // handlers send now fails at once (see enqueue): it must neither reopen nor wait on a dying connection.
    m_wantOpen = false;
    m_destroying = true;
    flush(true); // what handlers sent before deleting us goes out, as it did before writes were held
    dropTransport();
    failAll(RedisErrorKind::ConnectionLost, tr("connection closed"));
}

void RedisConnection::open()
{
    m_wantOpen = true;
    if (m_state == State::Disconnected || m_state == State::WaitingToReconnect) {
        m_reconnectTimer.stop();
        startConnecting();
    }
}

void RedisConnection::close()
{
    m_wantOpen = false;
    m_reconnectTimer.stop();
    m_connectTimer.stop();
    flush(true); // what was sent before close() goes out, even while writes are held
    dropTransport();
    setState(State::Disconnected);
    failAll(RedisErrorKind::ConnectionLost, tr("connection closed"));
}

void RedisConnection::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void RedisConnection::startConnecting()
{
    dropTransport();
    m_knownScripts.clear(); // a new server process (or a restarted one) has an empty script cache
    m_reader = RedisReply::createReader();
    m_fedBytes = 0;
    m_replyStartBytes = 0;
    m_replyElements = 0;
    m_reader->privdata = &m_replyElements;
    setState(State::Connecting);
    // Replies on the new transport answer only what is written on it. Every teardown path fails the
    // commands in flight before a new transport exists; should one have been left, it fails now instead of
    // taking the first handshake reply.
    std::deque<Pending> stale;
    stale.swap(m_inflight);
    for (Pending& p : stale) {
        if (!p.answered && p.handler)
            p.handler(RedisReply::failure(RedisErrorKind::ConnectionLost, tr("connection lost")));
    }
    if (m_state != State::Connecting)
        return; // a handler closed or reopened the connection
    m_connectTimer.start(m_options.connectTimeoutMs);

    if (m_endpoint.isUnix()) {
        m_local = new QLocalSocket(this);
        m_io = m_local;
        connect(m_local, &QLocalSocket::connected, this, &RedisConnection::onTransportConnected);
        connect(m_local, &QLocalSocket::readyRead, this, &RedisConnection::onTransportReadable);
        connect(m_local, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
            onTransportError(kindForLocalSocketError(error), m_local ? m_local->errorString() : QString());
        });
        connect(m_local, &QLocalSocket::disconnected, this,
                [this] { onTransportError(RedisErrorKind::ConnectionLost, tr("server closed the connection")); });
        // Always buffered: QLocalSocket hands an Unbuffered open mode to its inner socket's
        // setSocketDescriptor(), which ignores it (only QAbstractSocket::connectToHost honours it). Under the
        // glib dispatcher every write therefore toggles the write notifier and costs two wake-up writes.
        m_local->connectToServer(m_endpoint.unixSocket);
        return;
    }

    if (m_endpoint.tls) {
        auto* ssl = new QSslSocket(this);
        m_tcp = ssl;
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        QString setupError;
        if (!m_endpoint.caFile.isEmpty() || !m_endpoint.caDir.isEmpty()) {
            QList<QSslCertificate> cas;
            if (!m_endpoint.caFile.isEmpty()) {
                cas = QSslCertificate::fromPath(m_endpoint.caFile, QSsl::Pem);
                if (cas.isEmpty())
                    setupError = tr("no CA certificate could be read from %1").arg(m_endpoint.caFile);
            }
            if (!m_endpoint.caDir.isEmpty()) {
                // Every PEM file in the directory, hashed names (c_rehash) or not.
                const auto fromDir = QSslCertificate::fromPath(QDir(m_endpoint.caDir).filePath(QStringLiteral("*")),
                                                               QSsl::Pem, QSslCertificate::PatternSyntax::Wildcard);
                if (fromDir.isEmpty())
                    setupError = tr("no CA certificate could be read from the directory %1").arg(m_endpoint.caDir);
                cas += fromDir;
            }
            config.setCaCertificates(cas);
        }
        if (!m_endpoint.certFile.isEmpty()) {
            const auto certs = QSslCertificate::fromPath(m_endpoint.certFile, QSsl::Pem);
            if (certs.isEmpty())
                setupError = tr("no client certificate could be read from %1").arg(m_endpoint.certFile);
            else
                config.setLocalCertificate(certs.first());
            QFile keyFile(m_endpoint.keyFile.isEmpty() ? m_endpoint.certFile : m_endpoint.keyFile);
            if (keyFile.open(QIODevice::ReadOnly)) {
                const QByteArray pem = keyFile.readAll();
                QSslKey key(pem, QSsl::Rsa);
                if (key.isNull())
                    key = QSslKey(pem, QSsl::Ec);
                if (key.isNull())
                    setupError = tr("the client key in %1 could not be read").arg(keyFile.fileName());
                config.setPrivateKey(key);
            } else {
                setupError = tr("cannot open client key %1").arg(keyFile.fileName());
            }
        }
        // Insecure only when asked for by name (the CLI's --insecure warns): the connection is encrypted but
        // anyone in the path can impersonate the server.
        config.setPeerVerifyMode(m_endpoint.insecure ? QSslSocket::VerifyNone : QSslSocket::VerifyPeer);
        ssl->setSslConfiguration(config);
        ssl->setPeerVerifyName(m_endpoint.serverName.isEmpty() ? m_endpoint.host : m_endpoint.serverName);
        connect(ssl, &QSslSocket::encrypted, this, &RedisConnection::onTransportConnected);
        connect(ssl, &QSslSocket::sslErrors, this, [this](const QList<QSslError>& errors) {
            // Never ignored: a TLS error is an error, with every reason named.
            QStringList reasons;
            for (const auto& e : errors)
                reasons << e.errorString();
            onTransportError(RedisErrorKind::Tls, tr("TLS verification failed: %1").arg(reasons.join(u"; ")));
        });
        if (!setupError.isEmpty()) {
            QMetaObject::invokeMethod(
                this, [this, setupError] { onTransportError(RedisErrorKind::Tls, setupError); }, Qt::QueuedConnection);
            return;
        }
    } else {
        m_tcp = new QTcpSocket(this);
        connect(m_tcp, &QAbstractSocket::connected, this, &RedisConnection::onTransportConnected);
    }
    m_io = m_tcp;
    connect(m_tcp, &QAbstractSocket::readyRead, this, &RedisConnection::onTransportReadable);
    connect(m_tcp, &QAbstractSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        onTransportError(kindForSocketError(error), m_tcp ? m_tcp->errorString() : QString());
    });
    connect(m_tcp, &QAbstractSocket::disconnected, this,
            [this] { onTransportError(RedisErrorKind::ConnectionLost, tr("server closed the connection")); });
    if (!m_endpoint.tunnelSocket.isEmpty()) {
        connectThroughTunnel();
        return;
    }
    if (auto* ssl = qobject_cast<QSslSocket*>(m_tcp))
        ssl->connectToHostEncrypted(m_endpoint.host, m_endpoint.port,
                                    m_endpoint.serverName.isEmpty() ? m_endpoint.host : m_endpoint.serverName);
    else
        // Unbuffered: a write goes straight to the kernel. A buffered QTcpSocket switches its write notifier
        // on and off around every flush, which costs the glib dispatcher a wake-up write per toggle: two
        // extra syscalls per node and command batch, a third of the client's syscalls in a Redlock round.
        m_tcp->connectToHost(m_endpoint.host, m_endpoint.port, QIODevice::ReadWrite | QIODevice::Unbuffered);
}

// Through an SSH tunnel: its local end is a unix socket (SshTunnel). Connected here and handed to the TCP or TLS
// socket, so that TLS runs end to end over it and verifies the node's own name (set above). A unix socket
// connects at once or not at all; no event loop wait is needed.
void RedisConnection::connectThroughTunnel()
{
    const QByteArray path = QFile::encodeName(m_endpoint.tunnelSocket);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    int fd = -1;
    int error = ENAMETOOLONG;
    if (path.size() < qsizetype(sizeof(address.sun_path))) {
        std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
        fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        error = errno;
        if (fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
            error = errno;
            ::close(fd);
            fd = -1;
        }
    }
    QAbstractSocket* socket = m_tcp;
    QString reason;
    if (fd < 0) {
        // Refused or missing: ssh is not (yet, or no longer) forwarding. The node is unreachable.
        reason = tr("SSH tunnel down (%1)").arg(QString::fromLocal8Bit(std::strerror(error)));
    } else if (!socket->setSocketDescriptor(fd, QAbstractSocket::ConnectedState,
                                            QIODevice::ReadWrite | QIODevice::Unbuffered)) {
        ::close(fd);
        reason = socket->errorString();
    }
    if (!reason.isEmpty()) {
        QMetaObject::invokeMethod(
            this,
            [this, socket, reason] {
                if (m_tcp == socket)
                    onTransportError(RedisErrorKind::ConnectionRefused, reason);
            },
            Qt::QueuedConnection);
        return;
    }
    if (auto* ssl = qobject_cast<QSslSocket*>(socket)) {
        ssl->startClientEncryption(); // encrypted() follows
        return;
    }
    QMetaObject::invokeMethod(
        this,
        [this, socket] {
            if (m_tcp == socket && m_state == State::Connecting)
                onTransportConnected();
        },
        Qt::QueuedConnection);
}

void RedisConnection::onTransportConnected()
{
    m_connectTimer.stop();
    if (m_tcp) {
        m_tcp->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_tcp->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
    }
    startHandshake();
}

void RedisConnection::startHandshake()
{
    setState(State::Handshaking);
    m_serverRunId.clear(); // a reconnect may reach another instance
    const qint64 deadline = nowNs() + qint64(m_options.connectTimeoutMs) * kNsPerMs;
    QList<std::pair<QList<QByteArray>, bool>> steps; // command, must succeed
    if (!m_endpoint.password.isEmpty()) {
        if (m_endpoint.user.isEmpty())
            steps.append({{"AUTH", m_endpoint.password.toUtf8()}, true});
        else
            steps.append({{"AUTH", m_endpoint.user.toUtf8(), m_endpoint.password.toUtf8()}, true});
    }
    if (m_endpoint.db != 0)
        steps.append({{"SELECT", QByteArray::number(m_endpoint.db)}, true});
    if (!m_options.clientName.isEmpty())
        steps.append({{"CLIENT", "SETNAME", m_options.clientName}, false}); // may be refused by ACL: harmless
    if (m_options.readServerIdentity)
        steps.append({{"INFO", "server"}, false}); // the run_id; refused by ACL: unknown, harmless
    // PING last: it proves the node answers commands (and reports LOADING or NOAUTH) before we call it ready.
    steps.append({{"PING"}, true});

    const int last = static_cast<int>(steps.size()) - 1;
    for (int i = 0; i <= last; ++i) {
        const bool mustSucceed = steps[i].second;
        const QByteArray what = steps[i].first.first();
        writeWire(
            formatCommand(steps[i].first),
            [this, mustSucceed, what, isLast = i == last](const RedisReply& reply) {
                if (m_state != State::Handshaking)
                    return;
                if (what == "INFO")
                    m_serverRunId = reply.isString() ? infoField(reply.bytes(), "run_id") : QByteArray();
                if (reply.isError() && mustSucceed) {
                    RedisErrorKind kind = reply.errorKind();
                    if (what == "AUTH" && kind == RedisErrorKind::ServerError)
                        kind = RedisErrorKind::AuthFailed;
                    onTransportError(kind, tr("%1 failed: %2").arg(QString::fromLatin1(what), reply.errorText()));
                    return;
                }
                if (isLast) {
                    m_backoffMs = 0;
                    m_lastErrorKind = RedisErrorKind::None;
                    m_lastError.clear();
                    setState(State::Ready);
                    auto waiting = std::move(m_waiting);
                    m_waiting.clear();
                    const qint64 now = nowNs();
                    std::vector<ReplyHandler> expired;
                    for (auto& q : waiting) {
                        if (q.deadlineNs <= now)
                            expired.push_back(std::move(q.handler));
                        else
                            writeWire(q.wire, std::move(q.handler), q.deadlineNs);
                    }
                    flush();
                    for (auto& h : expired)
                        h(RedisReply::failure(RedisErrorKind::Timeout, tr("timed out while connecting")));
                    emit ready();
                }
            },
            deadline);
    }
    flush();
}

// Held writes (per thread: connections and their handlers live on one thread). With many rounds in flight
// (bench --concurrency 64), one read hands out replies to many rounds, and each round's next step wrote at
// once: one write() per command and node, and on a loaded box with the nodes on the same cores, each write
// woke a node that then preempted us. Held until the read's replies are all handed out, the writes go out
// as one per connection. A single round (one reply per read) writes exactly as soon as before: at the end
// of its handler.
class RedisConnection::HoldWrites
{
public:
    HoldWrites() { ++t_depth; }
    ~HoldWrites()
    {
        if (--t_depth > 0)
            return;
        // Flushing writes nothing back into the list (depth is 0), but take it whole in case.
        std::vector<QPointer<RedisConnection>> held;
        held.swap(t_held);
        for (const QPointer<RedisConnection>& c : held) {
            if (c) {
                c->m_flushHeld = false;
                c->flush();
            }
        }
    }
    HoldWrites(const HoldWrites&) = delete;
    HoldWrites& operator=(const HoldWrites&) = delete;

    // True when the caller's flush is held (and listed) instead of written now.
    static bool hold(RedisConnection* c)
    {
        if (t_depth == 0)
            return false;
        if (!std::exchange(c->m_flushHeld, true))
            t_held.emplace_back(c);
        return true;
    }

private:
    static thread_local int t_depth;
    static thread_local std::vector<QPointer<RedisConnection>> t_held;
};

thread_local int RedisConnection::HoldWrites::t_depth = 0;
thread_local std::vector<QPointer<RedisConnection>> RedisConnection::HoldWrites::t_held;

void RedisConnection::onTransportReadable()
{
    const HoldWrites hold;
    // Everything available, usually in one read(). An unbuffered socket reads straight from the kernel and
    // reports the peer closing the connection here (read() < 0) instead of with disconnected(). Each chunk is
    // parsed, and its replies handed out, before the next is read: what the reply in progress holds is known
    // after every chunk, so a reply larger than maxReplyBytes stops being buffered within a chunk of the cap.
    for (;;) {
        if (!m_io || !m_reader)
            return;
        char chunk[16384];
        const qint64 n = m_io->read(chunk, sizeof chunk);
        if (n < 0) {
            onTransportError(m_tcp ? kindForSocketError(m_tcp->error()) : RedisErrorKind::ConnectionLost,
                             m_io->errorString());
            return;
        }
        if (n > 0) {
            if (redisReaderFeed(m_reader, chunk, static_cast<size_t>(n)) != REDIS_OK) {
                onTransportError(RedisErrorKind::Protocol, tr("cannot buffer reply"));
                return;
            }
            m_fedBytes += n;
        }
        if (!takeReplies())
            return;
        if (m_options.maxReplyBytes > 0 && replyInProgressBytes() > m_options.maxReplyBytes) {
            onTransportError(RedisErrorKind::Protocol,
                             tr("reply larger than %1: connection dropped")
                                 .arg(QLocale::system().formattedDataSize(m_options.maxReplyBytes, 0)));
            return;
        }
        if (n < static_cast<qint64>(sizeof chunk))
            return;
    }
}

qint64 RedisConnection::replyInProgressBytes() const
{
    return m_fedBytes - m_replyStartBytes + m_replyElements * qint64(sizeof(RedisReply));
}

bool RedisConnection::takeReplies()
{
    QPointer<RedisConnection> self(this);
    redisReader* const reader = m_reader;
    for (;;) {
        void* raw = nullptr;
        if (redisReaderGetReply(reader, &raw) != REDIS_OK) {
            onTransportError(RedisErrorKind::Protocol,
                             tr("malformed reply: %1").arg(QString::fromUtf8(reader->errstr)));
            return false;
        }
        if (!raw)
            return true;
        // The next reply starts after this one: what the reader has not consumed yet is already its.
        m_replyStartBytes = m_fedBytes - qint64(reader->len - reader->pos);
        m_replyElements = 0;
        RedisReply reply = RedisReply::takeFromReader(raw);
        if (m_pushHandler && isPushMessage(reply)) {
            m_pushHandler(reply);
            if (!self || m_reader != reader)
                return false;
            continue;
        }
        if (m_inflight.empty()) {
            onTransportError(RedisErrorKind::Protocol, tr("reply without a command"));
            return false;
        }
        Pending pending = std::move(m_inflight.front());
        m_inflight.pop_front();
        // The timeout timer is not stopped when the pipeline empties: stopping and restarting it for every
        // round cost 7% of the client's instructions in 'redlock bench'. If it fires with nothing pending,
        // onTimeoutTimer() finds nothing expired and does not re-arm.
        if (!pending.answered && pending.handler)
            pending.handler(reply);
        // The handler may have closed or deleted us, or a new transport may be in place.
        if (!self || m_reader != reader)
            return false;
    }
}

void RedisConnection::onTransportError(RedisErrorKind kind, const QString& message)
{
    if (m_handlingError)
        return;
    m_handlingError = true;
    m_connectTimer.stop();
    m_lastErrorKind = kind;
    m_lastError = message.isEmpty() ? errorKindName(kind) : message;
    const State before = m_state;
    dropTransport();
    // The state says "down" before the pending commands fail: a command their handlers send then fails at
    // once (or waits for the reconnect), instead of being queued as in flight on a transport that is gone,
    // where it would take the next handshake's first reply.
    scheduleReconnect();
    failAll(kind, m_lastError);
    m_handlingError = false;
    if (before == State::Ready || before == State::Connecting || before == State::Handshaking)
        emit connectionLost(kind, m_lastError);
}

void RedisConnection::scheduleReconnect()
{
    if (!m_wantOpen || !m_options.autoReconnect) {
        setState(State::Disconnected);
        return;
    }
    m_backoffMs = m_backoffMs == 0 ? m_options.backoffInitialMs : std::min(m_backoffMs * 2, m_options.backoffMaxMs);
    // +-20% jitter so that a console watching many nodes does not reconnect in lock step.
    const int jitter = m_backoffMs / 5;
    const int delay = m_backoffMs + (jitter > 0 ? QRandomGenerator::global()->bounded(-jitter, jitter + 1) : 0);
    setState(State::WaitingToReconnect);
    m_reconnectTimer.start(std::max(1, delay));
}

void RedisConnection::dropTransport()
{
    if (m_io) {
        m_io->disconnect(this);
        if (m_tcp)
            m_tcp->abort();
        if (m_local)
            m_local->abort();
        m_io->deleteLater();
    }
    m_io = nullptr;
    m_tcp = nullptr;
    m_local = nullptr;
    m_outgoing.clear();
    if (m_reader) {
        redisReaderFree(m_reader);
        m_reader = nullptr;
    }
}

void RedisConnection::failAll(RedisErrorKind kind, const QString& message)
{
    m_timeoutTimer.stop();
    std::vector<ReplyHandler> handlers;
    for (auto& p : m_inflight) {
        if (!p.answered && p.handler)
            handlers.push_back(std::move(p.handler));
    }
    for (auto& q : m_waiting) {
        if (q.handler)
            handlers.push_back(std::move(q.handler));
    }
    m_inflight.clear();
    m_waiting.clear();
    const RedisReply failure = RedisReply::failure(kind, message);
    for (auto& h : handlers)
        h(failure);
}

qint64 RedisConnection::deadlineFor(int timeoutMs) const
{
    return nowNs() + qint64(timeoutMs < 0 ? m_options.commandTimeoutMs : timeoutMs) * kNsPerMs;
}

void RedisConnection::send(const QList<QByteArray>& args, ReplyHandler handler, int timeoutMs)
{
    enqueue(args, std::move(handler), deadlineFor(timeoutMs));
    flush();
}

void RedisConnection::sendPipeline(QList<Command> commands, int timeoutMs)
{
    const qint64 deadline = deadlineFor(timeoutMs);
    for (auto& c : commands)
        enqueue(c.args, std::move(c.handler), deadline);
    flush();
}

void RedisConnection::enqueue(const QList<QByteArray>& args, ReplyHandler handler, qint64 deadlineNs)
{
    if (args.isEmpty()) {
        handler(RedisReply::failure(RedisErrorKind::Protocol, tr("empty command")));
        return;
    }
    if (m_destroying) {
        handler(RedisReply::failure(RedisErrorKind::ConnectionLost, tr("connection closed")));
        return;
    }
    switch (m_state) {
    case State::Ready:
        writeCommand(args, std::move(handler), deadlineNs);
        return;
    case State::Disconnected:
        if (!m_options.autoReconnect && m_wantOpen) {
            handler(RedisReply::failure(RedisErrorKind::NotConnected,
                                        m_lastError.isEmpty() ? tr("not connected") : m_lastError));
            return;
        }
        m_waiting.push_back({formatCommand(args), std::move(handler), deadlineNs});
        armTimeout(deadlineNs);
        open();
        return;
    case State::Connecting:
    case State::Handshaking:
        m_waiting.push_back({formatCommand(args), std::move(handler), deadlineNs});
        armTimeout(deadlineNs);
        return;
    case State::WaitingToReconnect:
        // The node is known to be down: say so now rather than after a timeout.
        handler(RedisReply::failure(m_lastErrorKind == RedisErrorKind::None ? RedisErrorKind::NotConnected
                                                                            : m_lastErrorKind,
                                    tr("node down: %1").arg(m_lastError)));
        return;
    }
}

void RedisConnection::writeWire(const QByteArray& wire, ReplyHandler handler, qint64 deadlineNs)
{
    m_outgoing += wire;
    ++m_commandsWritten;
    m_inflight.push_back({std::move(handler), deadlineNs, false});
    armTimeout(deadlineNs);
}

void RedisConnection::writeCommand(const QList<QByteArray>& args, ReplyHandler handler, qint64 deadlineNs)
{
    appendCommand(m_outgoing, args);
    ++m_commandsWritten;
    m_inflight.push_back({std::move(handler), deadlineNs, false});
    armTimeout(deadlineNs);
}

void RedisConnection::flush(bool evenIfHeld)
{
    if (!m_io || m_outgoing.isEmpty() || (!evenIfHeld && HoldWrites::hold(this)))
        return;
    // One write per batch (a pipeline, the handshake, a Redlock request): one syscall per node and round.
    // The batch moves to m_writing first, so m_outgoing is empty whatever write() reports. Both buffers keep
    // their capacity, so a steady stream of rounds encodes and writes its commands without allocating.
    std::swap(m_outgoing, m_writing);
    const bool complete = m_io->write(m_writing.constData(), m_writing.size()) == m_writing.size();
    if (m_writing.capacity() > kKeptBufferBytes)
        m_writing = QByteArray(); // after a large pipeline: not kept for the life of the connection
    else
        m_writing.resize(0);
    if (!complete) {
        // Reported from the event loop: flush() runs inside callers' handlers, which must not see the
        // connection torn down under them.
        QMetaObject::invokeMethod(
            this,
            [this, io = QPointer<QIODevice>(m_io), why = m_io->errorString()] {
                if (io && io == m_io)
                    onTransportError(RedisErrorKind::ConnectionLost, why);
            },
            Qt::QueuedConnection);
        return;
    }
    if (m_tcp)
        m_tcp->flush();
    else if (m_local)
        m_local->flush();
}

void RedisConnection::armTimeout(qint64 deadlineNs)
{
    if (m_timeoutTimer.isActive() && deadlineNs >= m_armedDeadlineNs)
        return;
    m_armedDeadlineNs = deadlineNs;
    const qint64 remainingNs = deadlineNs - nowNs();
    m_timeoutTimer.start(static_cast<int>(std::max<qint64>(0, (remainingNs + kNsPerMs - 1) / kNsPerMs)));
}

void RedisConnection::onTimeoutTimer()
{
    // A small slack: QTimer has millisecond resolution and may fire a fraction early.
    const qint64 now = nowNs() + 200'000;
    const qint64 graceNs = qint64(m_options.lateReplyGraceMs) * kNsPerMs;
    std::vector<ReplyHandler> expired;
    qint64 next = 0;
    const auto soonest = [&next](qint64 at) {
        if (next == 0 || at < next)
            next = at;
    };
    // A command that timed out earlier and whose late reply has not come within the grace: the connection goes
    // (its commands fail), and a new one is made. While a stopped (SIGSTOP) node is within the grace, its health
    // is the NodeSession's to say ("not answering"); after it, the node is down until it answers a handshake.
    if (graceNs > 0 && std::any_of(m_inflight.cbegin(), m_inflight.cend(),
                                   [&](const Pending& p) { return p.answered && p.deadlineNs + graceNs <= now; })) {
        onTransportError(
            RedisErrorKind::Timeout,
            tr("no reply within %1 ms after a command timed out: connection dropped").arg(m_options.lateReplyGraceMs));
        return;
    }
    for (auto& p : m_inflight) {
        if (p.answered) {
            if (graceNs > 0)
                soonest(p.deadlineNs + graceNs);
            continue;
        }
        if (p.deadlineNs <= now) {
            p.answered = true; // keeps its place so the late reply is matched and dropped
            expired.push_back(std::move(p.handler));
            if (graceNs > 0)
                soonest(p.deadlineNs + graceNs);
        } else {
            soonest(p.deadlineNs);
        }
    }
    for (auto it = m_waiting.begin(); it != m_waiting.end();) {
        if (it->deadlineNs <= now) {
            expired.push_back(std::move(it->handler));
            it = m_waiting.erase(it);
        } else {
            soonest(it->deadlineNs);
            ++it;
        }
    }
    if (next != 0)
        armTimeout(next);
    const QString why = m_state == State::Ready ? tr("no reply in time") : tr("timed out while connecting");
    const RedisReply failure = RedisReply::failure(RedisErrorKind::Timeout, why);
    for (auto& h : expired) {
        if (h)
            h(failure);
    }
}

QByteArray RedisConnection::formatCommand(const QList<QByteArray>& args)
{
    QByteArray wire;
    appendCommand(wire, args);
    return wire;
}

void RedisConnection::appendCommand(QByteArray& out, const QList<QByteArray>& args)
{
    // RESP multi-bulk, byte for byte what hiredis' redisFormatCommandArgv writes ("*<argc>\r\n" then
    // "$<len>\r\n<bytes>\r\n" per argument), without its sprintf calls: profiling a Redlock benchmark with
    // callgrind put redisFormatCommandArgv at 35% of the client's instructions, most of it in sprintf.
    // Replies are still decoded by hiredis' reader.
    const auto digitCount = [](qsizetype number) {
        int count = 1;
        for (; number >= 10; number /= 10)
            ++count;
        return count;
    };
    qsizetype size = 1 + digitCount(args.size()) + 2;
    for (const QByteArray& arg : args)
        size += 1 + digitCount(arg.size()) + 2 + arg.size() + 2;
    // Written through a pointer into space of the exact size: QByteArray::append costs more per call than
    // the bytes it appends here. Appending to the connection's batch directly saves a buffer per command.
    const qsizetype start = out.size();
    out.resize(start + size);
    char* cursor = out.data() + start;
    const auto putHeader = [&cursor, &digitCount](char prefix, qsizetype number) {
        *cursor++ = prefix;
        const int digits = digitCount(number);
        for (int i = digits - 1; i >= 0; --i, number /= 10)
            cursor[i] = static_cast<char>('0' + number % 10);
        cursor += digits;
        *cursor++ = '\r';
        *cursor++ = '\n';
    };
    putHeader('*', args.size());
    for (const QByteArray& arg : args) {
        putHeader('$', arg.size());
        if (!arg.isEmpty())
            std::memcpy(cursor, arg.constData(), static_cast<size_t>(arg.size()));
        cursor += arg.size();
        *cursor++ = '\r';
        *cursor++ = '\n';
    }
    Q_ASSERT(cursor == out.constData() + out.size());
}

} // namespace redlock
