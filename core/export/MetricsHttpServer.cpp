#include "export/MetricsHttpServer.h"

#include "export/WebConfig.h"

#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>

namespace redlock {

std::optional<ListenAddress> ListenAddress::parse(const QString& rawText, QString* error)
{
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const QString text = rawText.trimmed();
    QString host;
    QString port;
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(QLatin1String("]:"));
        if (close < 0)
            return fail(tr("\"%1\": expected [IPv6 address]:port").arg(text));
        host = text.mid(1, close - 1);
        port = text.mid(close + 2);
    } else {
        const qsizetype colon = text.lastIndexOf(u':');
        if (colon < 0)
            return fail(tr("\"%1\": expected address:port, e.g. 127.0.0.1:9721").arg(text));
        host = text.left(colon);
        port = text.mid(colon + 1);
        if (host.contains(u':'))
            return fail(tr("\"%1\": write an IPv6 address in brackets, e.g. [::1]:9721").arg(text));
    }
    if (host.isEmpty())
        return fail(tr("\"%1\": no address (127.0.0.1 serves this machine only, 0.0.0.0 every interface)").arg(text));
    bool ok = false;
    const uint portNumber = port.toUInt(&ok);
    if (!ok || portNumber > 65535)
        return fail(tr("\"%1\": the port must be a number from 0 to 65535").arg(text));
    ListenAddress out;
    out.port = static_cast<quint16>(portNumber);
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        out.address = QHostAddress(QHostAddress::LocalHost);
    else if (!out.address.setAddress(host))
        return fail(tr("\"%1\": %2 is not an IP address (host names are not resolved)").arg(text, host));
    return out;
}

QString ListenAddress::toString() const
{
    const QString host =
        address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']' : address.toString();
    return host + u':' + QString::number(port);
}

// Qt 6.4 has no QSslServer: a QTcpServer whose connections are QSslSockets that start the server side of the
// handshake at once. Everything after it reads and writes them as the QTcpSockets they also are.
class MetricsHttpServer::Listener final : public QTcpServer
{
public:
    explicit Listener(MetricsHttpServer* owner) : QTcpServer(owner), m_owner(owner) {}

protected:
    void incomingConnection(qintptr descriptor) override
    {
        if (!m_owner->m_tls) {
            QTcpServer::incomingConnection(descriptor);
            return;
        }
        auto* socket = new QSslSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        socket->setSslConfiguration(*m_owner->m_tls);
        addPendingConnection(socket);
        socket->startServerEncryption();
    }

private:
    MetricsHttpServer* m_owner;
};

MetricsHttpServer::MetricsHttpServer(Provider provider, QObject* parent)
    : MetricsHttpServer(std::move(provider), Limits{}, parent)
{}

MetricsHttpServer::MetricsHttpServer(Provider provider, const Limits& limits, QObject* parent)
    : QObject(parent), m_provider(std::move(provider)), m_limits(limits), m_server(new Listener(this)),
      m_authPool(new QThreadPool(this))
{
    m_server->setMaxPendingConnections(m_limits.maxConnections);
    connect(m_server, &QTcpServer::newConnection, this, &MetricsHttpServer::onNewConnection);
    m_authPool->setMaxThreadCount(std::max(1, m_limits.maxAuthChecks));
    m_failureTokens = m_limits.authFailureBurst;
    m_failureClock.start();
}

MetricsHttpServer::~MetricsHttpServer()
{
    // A check still running posts its answer to this object: it must be over first (at most one bcrypt each).
    m_authPool->clear();
    m_authPool->waitForDone();
}

void MetricsHttpServer::setTls(const QSslConfiguration& configuration)
{
    m_tls = configuration;
}

void MetricsHttpServer::setBasicAuth(const QMap<QString, QByteArray>& users)
{
    m_auth = users.isEmpty() ? nullptr : std::make_unique<BasicAuthenticator>(users);
}

bool MetricsHttpServer::listen(const ListenAddress& where, QString* error)
{
    if (m_server->listen(where.address, where.port))
        return true;
    if (error)
        *error = ListenAddress::tr("cannot listen on %1: %2").arg(where.toString(), m_server->errorString());
    return false;
}

ListenAddress MetricsHttpServer::serverAddress() const
{
    ListenAddress out;
    out.address = m_server->serverAddress();
    out.port = m_server->serverPort();
    return out;
}

qint64 MetricsHttpServer::pendingBytes() const
{
    qint64 total = 0;
    for (const QTcpSocket* socket : m_answered) {
        total += socket->bytesToWrite();
        // A TLS socket encrypts at once what it is given: its unsent bytes wait as ciphertext.
        if (const auto* tls = qobject_cast<const QSslSocket*>(socket))
            total += tls->encryptedBytesToWrite();
    }
    return total;
}

void MetricsHttpServer::onNewConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        if (m_open.size() >= m_limits.maxConnections) {
            // Make room by the connection that has waited longest without sending a request (an idle client, a
            // slowloris), or else by the oldest answered one (a client that does not read its answer): neither
            // can starve a scraper that connects now.
            drop(!m_waiting.isEmpty() ? m_waiting.constFirst() : m_answered.constFirst());
        }
        m_open.insert(socket);
        m_waiting.append(socket);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { forget(socket); });
        if (auto* tls = qobject_cast<QSslSocket*>(socket)) {
            // A client that fails the handshake (plain HTTP, an unknown CA, no client certificate) is closed now.
            connect(tls, &QSslSocket::errorOccurred, this, [this, socket](QAbstractSocket::SocketError error) {
                if (error == QAbstractSocket::SslHandshakeFailedError || error == QAbstractSocket::SslInternalError)
                    drop(socket);
            });
        }
        // A client that does not complete its request head soon loses the socket; none keeps it for long.
        QTimer::singleShot(m_limits.requestHeadTimeoutMs, socket, [this, socket] {
            if (m_waiting.contains(socket))
                drop(socket);
        });
        QTimer::singleShot(m_limits.connectionTimeoutMs, socket, [this, socket] { drop(socket); });
    }
}

void MetricsHttpServer::forget(QTcpSocket* socket)
{
    m_open.remove(socket);
    m_answered.removeOne(socket);
    m_waiting.removeOne(socket);
    m_checking.remove(socket);
    socket->deleteLater();
}

void MetricsHttpServer::drop(QTcpSocket* socket)
{
    if (!m_open.contains(socket))
        return; // already gone (a timer that fired after the disconnect)
    ++m_dropped;
    forget(socket);
    socket->abort();
}

void MetricsHttpServer::onReadyRead(QTcpSocket* socket)
{
    if (m_checking.contains(socket))
        return; // its credentials are being checked; what it sends more is read with its answer
    if (!m_waiting.contains(socket)) {
        // What comes after the answered head (a body, a pipelined request) is read and dropped: data left
        // unread when the socket closes would make the kernel reset the connection, and the client could lose
        // the answer.
        socket->readAll();
        return;
    }
    const QByteArray head = socket->peek(kMaxRequestBytes + 1);
    qsizetype end = head.indexOf("\r\n\r\n");
    if (end < 0)
        end = head.indexOf("\n\n"); // bare line feeds, as some hand-written clients send
    if (end < 0) {
        if (head.size() > kMaxRequestBytes) {
            respond(socket, "431 Request Header Fields Too Large", "text/plain; charset=utf-8",
                    "request header too large\n", true);
        }
        return; // not complete yet
    }
    const qsizetype lineEnd = head.indexOf('\n');
    const QByteArray requestLine = head.left(lineEnd).trimmed();
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3 || !parts[2].startsWith("HTTP/1.")) {
        respond(socket, "400 Bad Request", "text/plain; charset=utf-8", "bad request\n", true);
        return;
    }
    const QByteArray& method = parts[0];
    const QByteArray path = parts[1].split('?').first();
    if (m_auth) {
        QByteArray authorization;
        for (const QByteArray& line : head.left(end).split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().compare("Authorization", Qt::CaseInsensitive) == 0) {
                authorization = line.mid(colon + 1);
                break;
            }
        }
        auto step = m_auth->begin(authorization);
        if (auto* check = std::get_if<BasicAuthenticator::Check>(&step))
            startAuthCheck(socket, std::move(*check), method, path);
        else if (std::get<bool>(step))
            serve(socket, method, path);
        else
            unauthorized(socket);
        return;
    }
    serve(socket, method, path);
}

void MetricsHttpServer::unauthorized(QTcpSocket* socket)
{
    respond(socket, "401 Unauthorized", "text/plain; charset=utf-8", "unauthorized\n", true,
            "WWW-Authenticate: Basic realm=\"redlock exporter\", charset=\"UTF-8\"\r\n");
}

bool MetricsHttpServer::takeFailureToken()
{
    const double elapsed = static_cast<double>(m_failureClock.restart()) / 1000.0;
    m_failureTokens =
        std::min<double>(m_limits.authFailureBurst, m_failureTokens + elapsed * m_limits.authFailuresPerSecond);
    if (m_failureTokens < 1)
        return false;
    m_failureTokens -= 1;
    return true;
}

void MetricsHttpServer::startAuthCheck(QTcpSocket* socket, BasicAuthenticator::Check check, const QByteArray& method,
                                       const QByteArray& path)
{
    // Every check may fail, so it takes a failure's token before it runs; a success gives it back.
    if (m_authInFlight >= m_limits.maxAuthChecks || !takeFailureToken()) {
        ++m_authRefused;
        respond(socket, "429 Too Many Requests", "text/plain; charset=utf-8", "too many login attempts\n", true,
                "Retry-After: 1\r\n");
        return;
    }
    ++m_authInFlight;
    m_authPeak = std::max(m_authPeak, m_authInFlight);
    const quint64 serial = ++m_checkSerial;
    m_checking.insert(socket, serial);
    m_authPool->start([this, check = std::move(check), socket, serial, method, path] {
        const bool ok = check.run();
        // Back on this object's thread; the socket pointer is only compared until its serial says it is the same.
        QMetaObject::invokeMethod(
            this,
            [this, ok, digest = check.digest, socket, serial, method, path] {
                --m_authInFlight;
                if (ok) {
                    m_auth->remember(digest);
                    m_failureTokens = std::min<double>(m_limits.authFailureBurst, m_failureTokens + 1);
                }
                const auto it = m_checking.constFind(socket);
                if (it == m_checking.cend() || *it != serial)
                    return; // closed meanwhile (timed out, made room for another)
                m_checking.remove(socket);
                if (ok)
                    serve(socket, method, path);
                else
                    unauthorized(socket);
            },
            Qt::QueuedConnection);
    });
}

void MetricsHttpServer::serve(QTcpSocket* socket, const QByteArray& method, const QByteArray& path)
{
    const bool isHead = method == "HEAD";
    if (path != "/metrics" && path != "/") {
        respond(socket, "404 Not Found", "text/plain; charset=utf-8", "not found: the metrics are at /metrics\n",
                !isHead);
        return;
    }
    if (method != "GET" && !isHead) {
        respond(socket, "405 Method Not Allowed", "text/plain; charset=utf-8", "method not allowed\n", true,
                "Allow: GET, HEAD\r\n");
        return;
    }
    if (path == "/") {
        // A person who opens the address in a browser finds where the metrics are, as on Prometheus's exporters.
        static const QByteArray landing =
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Redlock exporter</title></head>\n"
            "<body><h1>Redlock exporter</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";
        respond(socket, "200 OK", "text/html; charset=utf-8", landing, !isHead);
        return;
    }
    ++m_scrapes;
    respond(socket, "200 OK", "text/plain; version=0.0.4; charset=utf-8", m_provider(), !isHead);
    emit scraped();
}

void MetricsHttpServer::respond(QTcpSocket* socket, const QByteArray& status, const QByteArray& contentType,
                                const QByteArray& body, bool withBody, const QByteArray& extraHeaders)
{
    m_waiting.removeOne(socket);
    socket->readAll();
    const QByteArray head = "HTTP/1.1 " + status + "\r\nContent-Type: " + contentType +
                            "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n" + extraHeaders +
                            "Connection: close\r\n\r\n";
    const qint64 size = head.size() + (withBody ? body.size() : 0);
    // Answers nobody takes must not pile up: the oldest answered connections make room for this one.
    while (!m_answered.isEmpty() && pendingBytes() + size > m_limits.maxPendingBytes)
        drop(m_answered.constFirst());
    m_answered.append(socket); // one request per connection
    // Written apart: the body is not copied once more into a joined buffer.
    socket->write(head);
    if (withBody)
        socket->write(body);
    // A client that takes nothing of its answer for a while is gone or hostile: each byte it takes restarts the
    // clock, so a slow but live reader keeps its connection (up to connectionTimeoutMs).
    auto* stall = new QTimer(socket);
    stall->setSingleShot(true);
    stall->setInterval(m_limits.writeStallTimeoutMs);
    connect(socket, &QTcpSocket::bytesWritten, stall, qOverload<>(&QTimer::start));
    // On TLS bytesWritten says the bytes were encrypted; the client took them when encryptedBytesWritten says so.
    if (auto* tls = qobject_cast<QSslSocket*>(socket))
        connect(tls, &QSslSocket::encryptedBytesWritten, stall, qOverload<>(&QTimer::start));
    connect(stall, &QTimer::timeout, this, [this, socket] { drop(socket); });
    stall->start();
    socket->disconnectFromHost(); // after the answer is written; disconnected() then deletes the socket
}

} // namespace redlock
