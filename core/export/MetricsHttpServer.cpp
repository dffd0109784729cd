#include "export/MetricsHttpServer.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

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

MetricsHttpServer::MetricsHttpServer(Provider provider, QObject* parent)
    : QObject(parent), m_provider(std::move(provider)), m_server(new QTcpServer(this))
{
    m_server->setMaxPendingConnections(kMaxConnections);
    connect(m_server, &QTcpServer::newConnection, this, &MetricsHttpServer::onNewConnection);
}

MetricsHttpServer::~MetricsHttpServer() = default;

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

void MetricsHttpServer::onNewConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        if (m_open.size() >= kMaxConnections) {
            if (m_waiting.isEmpty()) {
                // Every open connection has its answer and is closing: they go soon, this one now.
                socket->abort();
                socket->deleteLater();
                continue;
            }
            // Make room by the connection that has waited longest without sending a request: an idle client
            // (or a slowloris) cannot starve a scraper.
            drop(m_waiting.constFirst());
        }
        m_open.insert(socket);
        m_waiting.append(socket);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { forget(socket); });
        // A client that does not complete its request head soon, or does not take its answer, loses the socket.
        QTimer::singleShot(kRequestHeadTimeoutMs, socket, [this, socket] {
            if (!m_answered.contains(socket))
                drop(socket);
        });
        QTimer::singleShot(kConnectionTimeoutMs, socket, [this, socket] { drop(socket); });
    }
}

void MetricsHttpServer::forget(QTcpSocket* socket)
{
    m_open.remove(socket);
    m_answered.remove(socket);
    m_waiting.removeOne(socket);
    socket->deleteLater();
}

void MetricsHttpServer::drop(QTcpSocket* socket)
{
    forget(socket);
    socket->abort();
}

void MetricsHttpServer::onReadyRead(QTcpSocket* socket)
{
    if (m_answered.contains(socket)) {
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
    const bool isHead = method == "HEAD";
    if (path != "/metrics") {
        respond(socket, "404 Not Found", "text/plain; charset=utf-8", "not found: the metrics are at /metrics\n",
                !isHead);
        return;
    }
    if (method != "GET" && !isHead) {
        respond(socket, "405 Method Not Allowed", "text/plain; charset=utf-8", "method not allowed\n", true,
                "Allow: GET, HEAD\r\n");
        return;
    }
    ++m_scrapes;
    respond(socket, "200 OK", "text/plain; version=0.0.4; charset=utf-8", m_provider(), !isHead);
    emit scraped();
}

void MetricsHttpServer::respond(QTcpSocket* socket, const QByteArray& status, const QByteArray& contentType,
                                const QByteArray& body, bool withBody, const QByteArray& extraHeaders)
{
    m_answered.insert(socket); // one request per connection
    m_waiting.removeOne(socket);
    socket->readAll();
    QByteArray response = "HTTP/1.1 " + status + "\r\nContent-Type: " + contentType +
                          "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n" + extraHeaders +
                          "Connection: close\r\n\r\n";
    if (withBody)
        response += body;
    socket->write(response);
    socket->disconnectFromHost(); // after the answer is written; disconnected() then deletes the socket
}

} // namespace redlock
