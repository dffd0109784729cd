#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QSet>

#include <functional>
#include <optional>

class QTcpServer;
class QTcpSocket;

namespace redlock {

// Where to listen: an IP address literal and a port ("127.0.0.1:9721", "[::1]:9721", "0.0.0.0:9721", port 0 = any
// free port). Host names are refused: no resolver is consulted, and "localhost" is the loopback address.
struct ListenAddress
{
    Q_DECLARE_TR_FUNCTIONS(redlock::ListenAddress)

public:
    QHostAddress address;
    quint16 port = 0;

    static std::optional<ListenAddress> parse(const QString& text, QString* error);
    QString toString() const; // "127.0.0.1:9721", "[::1]:9721"
};

// A minimal HTTP/1.1 server for Prometheus scrapes: GET (or HEAD) /metrics answers 200 with the body the provider
// returns now, as `text/plain; version=0.0.4; charset=utf-8`; any other path is 404, any other method 405. One
// request per connection (Connection: close). A request head larger than kMaxRequestBytes is answered 431, a
// client that has not sent a complete request head within kRequestHeadTimeoutMs is dropped, one that has not
// taken its answer within kConnectionTimeoutMs too, and at most kMaxConnections are open at once: when full, a new
// connection makes room by dropping the oldest one still waiting for its request head (only when every open one
// has been answered is the new one closed). Idle or slow clients (slowloris) cannot make the exporter hold memory
// or sockets, nor starve a real scrape.
//
// The provider runs on this object's thread and must not wait for I/O (the exporter renders what it holds).
// Core, not the CLI: a service that embeds the core's observation can serve its own /metrics, as the console can.
class MetricsHttpServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MetricsHttpServer)

public:
    static constexpr qsizetype kMaxRequestBytes = 8192;
    static constexpr int kRequestHeadTimeoutMs = 2000;
    static constexpr int kConnectionTimeoutMs = 10000;
    static constexpr int kMaxConnections = 32;

    using Provider = std::function<QByteArray()>;
    explicit MetricsHttpServer(Provider provider, QObject* parent = nullptr);
    ~MetricsHttpServer() override;

    // False with *error (translated) when the address cannot be bound (in use, not local, no permission).
    bool listen(const ListenAddress& where, QString* error);
    ListenAddress serverAddress() const;
    quint64 scrapes() const { return m_scrapes; }

signals:
    void scraped();

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket* socket);
    void forget(QTcpSocket* socket); // no longer open (disconnected or dropped); deleted later
    void drop(QTcpSocket* socket);   // closed by the server: forgotten, then aborted
    void respond(QTcpSocket* socket, const QByteArray& status, const QByteArray& contentType, const QByteArray& body,
                 bool withBody, const QByteArray& extraHeaders = {});

    Provider m_provider;
    QTcpServer* m_server = nullptr;
    QSet<QTcpSocket*> m_open;
    QSet<QTcpSocket*> m_answered;
    QList<QTcpSocket*> m_waiting; // open, no complete request head yet; oldest first
    quint64 m_scrapes = 0;
};

} // namespace redlock
