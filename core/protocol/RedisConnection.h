#pragma once

#include "protocol/NodeEndpoint.h"
#include "protocol/RedisReply.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <deque>
#include <functional>

class QIODevice;
class QAbstractSocket;
class QLocalSocket;
struct redisReader;

namespace redlock {

/// How a RedisConnection connects, times out and reconnects. Read once by its constructor.
struct ConnectionOptions
{
    int connectTimeoutMs = 2000; ///< TCP (and TLS) connect plus the handshake, before the attempt fails
    int commandTimeoutMs = 5000; ///< default per command; send() can override
    bool autoReconnect = true;   ///< reconnect after a failure or a lost connection (not after close())
    int backoffInitialMs = 100;  ///< first wait before reconnecting; doubles with each failed attempt
    int backoffMaxMs = 5000;     ///< the longest wait between reconnection attempts
    QByteArray clientName;       ///< CLIENT SETNAME after connecting; empty = leave unnamed
    /// INFO server in the handshake, for the server's run_id (serverRunId()): what a server is, whatever name
    /// or socket reaches it. Refused (ACL) or off: the run_id stays unknown.
    bool readServerIdentity = true;
    /// The most a reply may hold while it arrives (its bytes and the elements built for it): a larger one is a
    /// protocol error and the connection is dropped (and reconnects). Lock values, INFO and a page of keys are
    /// far smaller; a hostile or broken node announcing a 1 GB bulk must not take the process's memory with it.
    qint64 maxReplyBytes = 64 * 1024 * 1024;
    /// A command that timed out keeps its place in the pipeline until its late reply comes; when that reply has
    /// not come this long after the command's deadline, the connection is dropped (and reconnects): every command
    /// behind it would only time out too, and a reply that never ends would keep the connection "Ready".
    /// 0 = keep waiting.
    int lateReplyGraceMs = 10000;
};

/// One connection to one Redis node, on the Qt event loop of the thread it lives in.
/// Transport: QTcpSocket, QSslSocket (endpoint.tls) or QLocalSocket (endpoint.unixSocket).
/// Protocol: hiredis' formatter and reader, so replies are binary safe and pipelining is free.
///
/// Every send() gets exactly one callback: the reply, or a Failure reply (timeout, connection lost,
/// not connected). A command that timed out stays in the pipeline so later replies still match their
/// commands; its late reply is dropped. Commands sent while (re)connecting wait for the handshake
/// (AUTH, SELECT, CLIENT SETNAME); commands sent while the node is known to be down fail at once, so
/// a Redlock round never waits on a dead node.
class RedisConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RedisConnection)

public:
    /// Where the connection is: only Ready sends commands to the node at once.
    enum class State { Disconnected, Connecting, Handshaking, Ready, WaitingToReconnect };
    Q_ENUM(State)

    /// Called once per command with its reply (or a Failure), on the connection's thread.
    using ReplyHandler = std::function<void(const RedisReply&)>;
    /// One command of sendPipeline().
    struct Command
    {
        QList<QByteArray> args; ///< the command and its arguments, binary safe
        ReplyHandler handler;   ///< its reply
    };

    /// A connection to `endpoint`, not opened yet (open()). Lives on the thread it is created on, like every
    /// call to it. Destroying it closes the socket and fails every command still waiting (handlers run with a
    /// Failure reply, ConnectionLost) before it returns.
    explicit RedisConnection(const NodeEndpoint& endpoint, const ConnectionOptions& options = {},
                             QObject* parent = nullptr);
    ~RedisConnection() override;

    /// The node, as given to the constructor.
    const NodeEndpoint& endpoint() const { return m_endpoint; }
    /// The options, as given to the constructor.
    const ConnectionOptions& options() const { return m_options; }
    /// The current state.
    State state() const { return m_state; }
    /// True when connected and past the handshake: commands go to the node at once.
    bool isReady() const { return m_state == State::Ready; }
    /// The run_id the server gave in this connection's handshake (empty: not connected yet, or INFO refused):
    /// one server under two names (a unix socket and its port, a hosts alias) has one run_id. Connection
    /// thread only.
    const QByteArray& serverRunId() const { return m_serverRunId; }
    /// Why the last connection attempt failed or the connection was lost; None once Ready.
    RedisErrorKind lastErrorKind() const { return m_lastErrorKind; }
    /// The same, as translated text.
    QString lastError() const { return m_lastError; }
    /// Commands sent and not yet answered by the server (including timed-out ones).
    int inFlight() const { return static_cast<int>(m_inflight.size()); }
    /// Commands written to the server since construction, over every reconnect (the handshake included):
    /// the load this connection puts on its node. Connection thread only.
    quint64 commandsWritten() const { return m_commandsWritten; }

    /// Connects (and reconnects after failures when autoReconnect); progress through stateChanged().
    void open();
    /// Disconnects and stops reconnecting; commands waiting fail with ConnectionLost.
    void close();

    /// Lua scripts this connection has sent to its server since it (re)connected, by SHA1: EVALSHA is safe
    /// for those; a script not yet sent goes as EVAL (see evalScript in LockScripts.h). Connection thread only.
    bool knowsScript(const QByteArray& sha) const { return m_knownScripts.contains(sha); }
    /// Records whether the server has the script `sha` (NOSCRIPT says it does not). Connection thread only.
    void setScriptKnown(const QByteArray& sha, bool known)
    {
        if (known)
            m_knownScripts.insert(sha);
        else
            m_knownScripts.remove(sha);
    }

    /// Sends one command; `handler` gets exactly one call: its reply, or a Failure (Timeout after timeoutMs,
    /// -1 = options().commandTimeoutMs; NotConnected at once while the node is down; ConnectionLost).
    void send(const QList<QByteArray>& args, ReplyHandler handler, int timeoutMs = -1);
    /// Several commands written in one go; each keeps its own handler.
    void sendPipeline(QList<Command> commands, int timeoutMs = -1);

    /// The RESP encoding of a command, byte for byte what hiredis' redisFormatCommandArgv produces (the
    /// tests hold it to that) without its per-argument sprintf.
    static QByteArray formatCommand(const QList<QByteArray>& args);
    /// The same encoding, appended to `out`.
    static void appendCommand(QByteArray& out, const QList<QByteArray>& args);

    /// Pub/Sub: "message" and "pmessage" arrays are not replies to a command; with a handler set they are
    /// delivered here instead of being taken as the answer to the oldest command in flight. Subscriptions
    /// do not survive a reconnect: subscribe again on ready().
    void setPushHandler(ReplyHandler handler) { m_pushHandler = std::move(handler); }

signals:
    /// Every change of state().
    void stateChanged(redlock::RedisConnection::State state);
    /// Connected and past the handshake (after each reconnect too): subscribe again here.
    void ready();
    /// An established connection ended (not by close()); `message` is translated.
    void connectionLost(redlock::RedisErrorKind kind, const QString& message);

private:
    struct Pending
    {
        ReplyHandler handler;
        qint64 deadlineNs = 0;
        bool answered = false;
    };
    struct Queued
    {
        QByteArray wire;
        ReplyHandler handler;
        qint64 deadlineNs = 0;
    };

    void setState(State state);
    void startConnecting();
    void connectThroughTunnel();
    void onTransportConnected();
    void onTransportReadable();
    /// Hands out the complete replies the reader holds; false when this connection must not be touched any more
    /// (an error dropped the transport, a handler closed, reopened or deleted it).
    bool takeReplies();
    qint64 replyInProgressBytes() const;
    void onTransportError(RedisErrorKind kind, const QString& message);
    void startHandshake();
    void failAll(RedisErrorKind kind, const QString& message);
    void dropTransport();
    void scheduleReconnect();
    void enqueue(const QList<QByteArray>& args, ReplyHandler handler, qint64 deadlineNs);
    void writeWire(const QByteArray& wire, ReplyHandler handler, qint64 deadlineNs);
    void writeCommand(const QList<QByteArray>& args, ReplyHandler handler, qint64 deadlineNs);
    void flush(bool evenIfHeld = false);
    /// While a connection hands out the replies of one read, the writes the handlers cause on this thread's
    /// connections are held and made at the end, one per connection (see onTransportReadable).
    class HoldWrites;
    void armTimeout(qint64 deadlineNs);
    void onTimeoutTimer();
    qint64 nowNs() const { return m_clock.nsecsElapsed(); }
    qint64 deadlineFor(int timeoutMs) const;

    NodeEndpoint m_endpoint;
    ConnectionOptions m_options;
    State m_state = State::Disconnected;
    RedisErrorKind m_lastErrorKind = RedisErrorKind::None;
    QString m_lastError;

    QIODevice* m_io = nullptr; ///< owned; one of the two below
    QAbstractSocket* m_tcp = nullptr;
    QLocalSocket* m_local = nullptr;
    redisReader* m_reader = nullptr;
    /// What the reply in progress holds (see maxReplyBytes): bytes fed to m_reader since it was created, the
    /// offset of the first byte after the last complete reply, and the elements built for the reply in progress
    /// (counted by the reply builder through the reader's privdata).
    qint64 m_fedBytes = 0;
    qint64 m_replyStartBytes = 0;
    qint64 m_replyElements = 0;
    QByteArray m_outgoing;    ///< commands formatted since the last flush(), written in one go
    QByteArray m_writing;     ///< the batch flush() is writing; swapped with m_outgoing so both keep their capacity
    bool m_flushHeld = false; ///< listed in this thread's held writes

    std::deque<Pending> m_inflight; ///< written, waiting for the reply, in order
    std::deque<Queued> m_waiting;   ///< sent before the handshake finished
    QByteArray m_serverRunId;
    ReplyHandler m_pushHandler;
    QElapsedTimer m_clock;
    QTimer m_timeoutTimer;
    qint64 m_armedDeadlineNs = 0;
    QTimer m_connectTimer;
    QTimer m_reconnectTimer;
    int m_backoffMs = 0;
    quint64 m_commandsWritten = 0;
    bool m_wantOpen = false;
    QSet<QByteArray> m_knownScripts;
    bool m_handlingError = false;
    bool m_destroying = false;
};

} // namespace redlock
