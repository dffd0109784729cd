#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QSslConfiguration>
#include <QThreadPool>

#include "export/WebConfig.h"

#include <functional>
#include <memory>
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
// returns now, as `text/plain; version=0.0.4; charset=utf-8`; GET / a small HTML page that links /metrics; any
// other path is 404, any other method 405. One
// request per connection (Connection: close). A request head larger than kMaxRequestBytes is answered 431.
//
// Bounds, so that idle, slow or hostile clients cannot make the exporter hold memory or sockets, nor starve a real
// scrape (a slowloris, or clients that send a request and never read the answer):
// - a client that has not sent a complete request head within requestHeadTimeoutMs is dropped;
// - an answered client that takes no byte of its answer for writeStallTimeoutMs is dropped, and no connection
//   lives longer than connectionTimeoutMs;
// - answers not yet taken by their clients hold at most maxPendingBytes together: a new answer that would pass it
//   drops the oldest answered connections first (one answer alone may pass it: a scrape is always served);
// - at most maxConnections are open at once: when full, a new connection makes room by dropping the oldest one
//   still waiting for its request head, or else the oldest answered one. The newcomer is never the one refused.
//
// With setTls() it speaks HTTPS only (a client that does not complete a TLS handshake is dropped like one that
// sends no request: the same bounds hold while it handshakes). With setBasicAuth() every path asks for HTTP basic
// auth: 401 with `WWW-Authenticate: Basic` without valid credentials (WebConfig.h: exporter-toolkit's format).
// bcrypt never runs on this object's thread, so a flood of bad logins cannot stall a scrape: credentials already
// verified are recognised at once; others are checked on a worker thread, at most maxAuthChecks at a time, and
// checks that fail spend a budget (authFailureBurst, refilled at authFailuresPerSecond). A request whose check
// finds the bound reached or the budget spent is answered 429 with Retry-After, without a bcrypt.
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
    static constexpr int kWriteStallTimeoutMs = 3000;
    static constexpr int kConnectionTimeoutMs = 10000;
    static constexpr int kMaxConnections = 32;
    static constexpr qint64 kMaxPendingBytes = 64 * 1024 * 1024;
    static constexpr int kMaxAuthChecks = 2;
    static constexpr int kAuthFailureBurst = 10;
    static constexpr int kAuthFailuresPerSecond = 5;

    struct Limits
    {
        int maxConnections = kMaxConnections;
        int requestHeadTimeoutMs = kRequestHeadTimeoutMs;
        int writeStallTimeoutMs = kWriteStallTimeoutMs;
        int connectionTimeoutMs = kConnectionTimeoutMs;
        qint64 maxPendingBytes = kMaxPendingBytes;
        int maxAuthChecks = kMaxAuthChecks;                 // bcrypt checks in flight (worker threads)
        int authFailureBurst = kAuthFailureBurst;           // failed checks allowed at once, then ...
        int authFailuresPerSecond = kAuthFailuresPerSecond; // ... this many a second
    };

    using Provider = std::function<QByteArray()>;
    explicit MetricsHttpServer(Provider provider, QObject* parent = nullptr);
    MetricsHttpServer(Provider provider, const Limits& limits, QObject* parent = nullptr);
    ~MetricsHttpServer() override;

    // Before listen(): HTTPS with this configuration (its certificate, key, and client verification).
    void setTls(const QSslConfiguration& configuration);
    bool isTls() const { return m_tls.has_value(); }
    // Before listen(): every request needs the credentials of one of these users (user -> bcrypt hash).
    void setBasicAuth(const QMap<QString, QByteArray>& users);

    // False with *error (translated) when the address cannot be bound (in use, not local, no permission).
    bool listen(const ListenAddress& where, QString* error);
    ListenAddress serverAddress() const;
    const Limits& limits() const { return m_limits; }
    quint64 scrapes() const { return m_scrapes; }
    // Connections open now, and the bytes of their answers their clients have not taken yet.
    int openConnections() const { return static_cast<int>(m_open.size()); }
    qint64 pendingBytes() const;
    // Connections the server closed because of a bound (full, stalled, too old, too much pending output).
    quint64 droppedConnections() const { return m_dropped; }
    // Basic auth: bcrypt checks running now, the most that ever ran at once, and requests answered 429.
    int authChecksInFlight() const { return m_authInFlight; }
    int peakAuthChecksInFlight() const { return m_authPeak; }
    quint64 authChecksRefused() const { return m_authRefused; }

signals:
    void scraped();

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket* socket);
    // The request, once its credentials (if any are asked for) are good.
    void serve(QTcpSocket* socket, const QByteArray& method, const QByteArray& path);
    void unauthorized(QTcpSocket* socket);
    void startAuthCheck(QTcpSocket* socket, BasicAuthenticator::Check check, const QByteArray& method,
                        const QByteArray& path);
    bool takeFailureToken();
    void forget(QTcpSocket* socket); // no longer open (disconnected or dropped); deleted later
    void drop(QTcpSocket* socket);   // closed by the server: forgotten, then aborted
    void respond(QTcpSocket* socket, const QByteArray& status, const QByteArray& contentType, const QByteArray& body,
                 bool withBody, const QByteArray& extraHeaders = {});

    class Listener;

    Provider m_provider;
    Limits m_limits;
    std::optional<QSslConfiguration> m_tls;
    std::unique_ptr<BasicAuthenticator> m_auth;
    Listener* m_server = nullptr;
    QSet<QTcpSocket*> m_open;
    QList<QTcpSocket*> m_answered; // open, answer written (maybe not yet taken); oldest first
    QList<QTcpSocket*> m_waiting;  // open, no complete request head yet; oldest first
    quint64 m_scrapes = 0;
    quint64 m_dropped = 0;
    QThreadPool* m_authPool = nullptr;      // bcrypt, off this thread
    QHash<QTcpSocket*, quint64> m_checking; // open, credentials being checked: the check's serial
    quint64 m_checkSerial = 0;
    int m_authInFlight = 0;
    int m_authPeak = 0;
    quint64 m_authRefused = 0;
    double m_failureTokens = 0;
    QElapsedTimer m_failureClock; // refills m_failureTokens
};

} // namespace redlock
