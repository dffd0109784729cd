// The node connection: Qt socket transport + hiredis protocol against real redis-server processes,
// plus a raw TCP peer for replies no healthy server sends (cut mid-reply, malformed).

#include "protocol/LockScripts.h"
#include "protocol/RedisConnection.h"
#include "support/DirectRedis.h"
#include "support/TestSupport.h"

#include <hiredis/hiredis.h>

#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

using namespace redlock;

namespace {

// Collects one reply; QTRY_VERIFY(done) waits for it on this thread's event loop.
struct Await
{
    bool done = false;
    RedisReply reply;
    RedisConnection::ReplyHandler handler()
    {
        return [this](const RedisReply& r) {
            reply = r;
            done = true;
        };
    }
};

// A node that answers every command with +OK (the handshake passes), except a GET on its first connection:
// that one gets `header` followed by `unit` over and over, as fast as the client takes it (never more than
// 1 MB waits in our write buffer), until `stopAt` bytes were sent or the client hangs up. Later connections
// answer GET with "ok". What a hostile or broken node does when it streams an endless reply, or stalls
// in the middle of one (stopAt reached with the reply incomplete).
class HostilePeer : public QObject
{
public:
    HostilePeer(QByteArray header, QByteArray unit, qint64 stopAt)
        : m_header(std::move(header)), m_unit(std::move(unit)), m_stopAt(stopAt)
    {
        while (m_unit.size() < 256 * 1024 && !m_unit.isEmpty())
            m_unit += m_unit;
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* peer = m_server.nextPendingConnection()) {
                const int index = m_connections++;
                auto* reader = RedisReply::createReader();
                connect(peer, &QObject::destroyed, this, [reader] { redisReaderFree(reader); });
                connect(peer, &QTcpSocket::disconnected, this, [this, peer, index] {
                    if (index == 0)
                        m_firstClosed = true;
                    peer->deleteLater();
                });
                connect(peer, &QTcpSocket::bytesWritten, this, [this, peer, index] {
                    if (index == 0 && m_streaming)
                        pump(peer);
                });
                connect(peer, &QTcpSocket::readyRead, this, [this, peer, reader, index] {
                    const QByteArray in = peer->readAll();
                    redisReaderFeed(reader, in.constData(), static_cast<size_t>(in.size()));
                    void* raw = nullptr;
                    while (redisReaderGetReply(reader, &raw) == REDIS_OK && raw) {
                        const RedisReply command = RedisReply::takeFromReader(raw);
                        const bool get = command.isArray() && command.elements().value(0).bytes() == "GET";
                        if (get && index == 0) {
                            m_streaming = true;
                            peer->write(m_header);
                            m_sent += m_header.size();
                            pump(peer);
                        } else {
                            peer->write(get ? "$2\r\nok\r\n" : "+OK\r\n");
                        }
                    }
                });
            }
        });
    }

    quint16 port() const { return m_server.serverPort(); }
    NodeEndpoint endpoint() const
    {
        NodeEndpoint ep;
        ep.host = QStringLiteral("127.0.0.1");
        ep.port = port();
        return ep;
    }
    // Bytes of the first connection's reply handed to the kernel or waiting in our buffer: an upper bound of
    // what the client can have buffered.
    qint64 sent() const { return m_sent; }
    bool firstClosed() const { return m_firstClosed; }
    int connections() const { return m_connections; }

private:
    void pump(QTcpSocket* peer)
    {
        while (peer->state() == QAbstractSocket::ConnectedState && peer->bytesToWrite() < 1024 * 1024 &&
               m_sent < m_stopAt) {
            const qint64 n = std::min<qint64>(m_unit.size(), m_stopAt - m_sent);
            peer->write(m_unit.constData(), n);
            m_sent += n;
        }
    }

    QTcpServer m_server;
    QByteArray m_header;
    QByteArray m_unit;
    qint64 m_stopAt = 0;
    qint64 m_sent = 0;
    bool m_streaming = false;
    bool m_firstClosed = false;
    int m_connections = 0;
};

} // namespace

class TestRedisConnection : public QObject
{
    Q_OBJECT

private:
    LocalCluster m_cluster; // 0: plain, 1: password, 2: replica of 0, 3: unix socket

    RedisReply roundTrip(RedisConnection& c, const QList<QByteArray>& args, int timeoutMs = 5000)
    {
        Await a;
        c.send(args, a.handler(), timeoutMs);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(a.done, 10000); }();
        return a.reply;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.addNode({}, &error) == 0, qPrintable(error));
        LocalNodeOptions withPassword;
        withPassword.requirePass = QStringLiteral("right-password");
        QVERIFY2(m_cluster.addNode(withPassword, &error) == 1, qPrintable(error));
        LocalNodeOptions replica;
        replica.extraArgs = {QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                             QString::number(m_cluster.port(0))};
        QVERIFY2(m_cluster.addNode(replica, &error) == 2, qPrintable(error));
        LocalNodeOptions unixSocket;
        unixSocket.unixSocket = true;
        QVERIFY2(m_cluster.addNode(unixSocket, &error) == 3, qPrintable(error));
    }

    void pipelineKeepsOrder()
    {
        RedisConnection c(m_cluster.endpoint(0));
        QList<int> seen;
        QList<RedisConnection::Command> batch;
        for (int i = 0; i < 2000; ++i)
            batch.append({{"INCR", "order-counter"}, [&seen](const RedisReply& r) { seen.append(int(r.integer())); }});
        c.sendPipeline(batch);
        QTRY_COMPARE(seen.size(), 2000);
        for (int i = 0; i < 2000; ++i)
            QCOMPARE(seen[i], i + 1);
        QCOMPARE(c.state(), RedisConnection::State::Ready);
    }

    // Commands that reply handlers send while one read's replies are handed out go out in one write per
    // connection, not one each: with many rounds in flight, each write woke a node that then preempted us.
    // Counted with the process's write syscalls (/proc/self/io syscw): 200 handlers each send a command on a
    // second connection.
    void writesFromOneReadAreCoalesced()
    {
        RedisConnection first(m_cluster.endpoint(0));
        RedisConnection second(m_cluster.endpoint(0));
        QCOMPARE(roundTrip(first, {"PING"}).bytes(), QByteArray("PONG"));
        QCOMPARE(roundTrip(second, {"PING"}).bytes(), QByteArray("PONG"));
        const auto writeSyscalls = [] {
            QFile io(QStringLiteral("/proc/self/io"));
            if (!io.open(QIODevice::ReadOnly))
                return qint64(-1);
            for (const QByteArray& line : io.readAll().split('\n')) {
                if (line.startsWith("syscw:"))
                    return line.mid(6).trimmed().toLongLong();
            }
            return qint64(-1);
        };
        constexpr int count = 200;
        int answered = 0;
        QList<RedisConnection::Command> batch;
        for (int i = 0; i < count; ++i) {
            batch.append({{"PING"}, [&](const RedisReply&) {
                              second.send({"INCR", "coalesced-counter"}, [&](const RedisReply& r) {
                                  if (r.isInteger())
                                      ++answered;
                              });
                          }});
        }
        const qint64 before = writeSyscalls();
        QVERIFY(before >= 0);
        first.sendPipeline(batch);
        QTRY_COMPARE_WITH_TIMEOUT(answered, count, 10000);
        const qint64 writes = writeSyscalls() - before;
        // One for the pipeline, then one per read of its replies (usually one or two).
        QVERIFY2(writes >= 2 && writes < 20, qPrintable(QString::number(writes)));
    }

    // A command sent just before close() (or deleting the connection) from a reply handler goes out, held
    // writes or not, as it did when every send wrote at once.
    void commandSentBeforeCloseInAHandlerGoesOut()
    {
        RedisConnection first(m_cluster.endpoint(0));
        RedisConnection second(m_cluster.endpoint(0));
        auto* third = new RedisConnection(m_cluster.endpoint(0));
        QCOMPARE(roundTrip(second, {"PING"}).bytes(), QByteArray("PONG"));
        QCOMPARE(roundTrip(*third, {"PING"}).bytes(), QByteArray("PONG"));
        Await a;
        first.send({"PING"}, [&](const RedisReply& r) {
            second.send({"SET", "sent-before-close", "1"}, [](const RedisReply&) {});
            second.close();
            third->send({"SET", "sent-before-delete", "1"}, [](const RedisReply&) {});
            delete third;
            a.handler()(r);
        });
        QTRY_VERIFY_WITH_TIMEOUT(a.done, 10000);
        DirectRedis check(m_cluster.port(0));
        QTRY_VERIFY_WITH_TIMEOUT(check.exists("sent-before-close"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(check.exists("sent-before-delete"), 5000);
    }

    void encodesLikeHiredis()
    {
        // hiredis stays the reference for the wire format.
        auto* random = QRandomGenerator::global();
        for (int round = 0; round < 5000; ++round) {
            QList<QByteArray> args;
            const int argc = 1 + random->bounded(12);
            for (int i = 0; i < argc; ++i) {
                QByteArray arg(random->bounded(round % 50 == 0 ? 70000 : 40), Qt::Uninitialized);
                for (char& c : arg)
                    c = static_cast<char>(random->bounded(256));
                args.append(arg);
            }
            std::vector<const char*> argv;
            std::vector<size_t> lens;
            for (const auto& a : args) {
                argv.push_back(a.constData());
                lens.push_back(static_cast<size_t>(a.size()));
            }
            char* reference = nullptr;
            const int len = redisFormatCommandArgv(&reference, argc, argv.data(), lens.data());
            QVERIFY(len > 0);
            const QByteArray expected(reference, len);
            redisFreeCommand(reference);
            QCOMPARE(RedisConnection::formatCommand(args), expected);
        }
    }

    void binarySafe()
    {
        RedisConnection c(m_cluster.endpoint(0));
        QByteArray bytes;
        for (int i = 0; i < 256; ++i)
            bytes.append(char(i));
        bytes += QByteArray("\r\n$-1\r\n\0", 8);
        QCOMPARE(roundTrip(c, {"SET", bytes, bytes}).bytes(), QByteArray("OK"));
        const RedisReply r = roundTrip(c, {"GET", bytes});
        QVERIFY(r.isString());
        QCOMPARE(r.bytes(), bytes);
        QCOMPARE(DirectRedis(m_cluster.port(0)).get(bytes).value_or(QByteArray()), bytes);
        QVERIFY(roundTrip(c, {"GET", "no-such-key"}).isNil());
    }

    void timeoutKeepsLaterRepliesMatched()
    {
        RedisConnection c(m_cluster.endpoint(0));
        QCOMPARE(roundTrip(c, {"PING"}).bytes(), QByteArray("PONG"));
        Await slow, next;
        // The server sleeps for seconds, the first command times out after 50 ms: the test thread sees the
        // timeout long before the sleep ends, even on a loaded machine.
        c.send({"DEBUG", "SLEEP", "2"}, slow.handler(), 50);
        c.send({"ECHO", "after"}, next.handler(), 10000);
        QTRY_VERIFY(slow.done);
        QCOMPARE(slow.reply.errorKind(), RedisErrorKind::Timeout);
        QVERIFY(!next.done); // still queued behind the sleeping command
        QTRY_VERIFY_WITH_TIMEOUT(next.done, 10000);
        QCOMPARE(next.reply.bytes(), QByteArray("after")); // not DEBUG SLEEP's "OK"
    }

    void refusedAndReconnect()
    {
        NodeEndpoint down = downEndpoint();
        ConnectionOptions o;
        // A long back-off: the connection stays "waiting to reconnect" (known down) for the whole check.
        o.backoffInitialMs = 20000;
        o.backoffMaxMs = 20000;
        RedisConnection c(down, o);
        const RedisReply r = roundTrip(c, {"PING"});
        QCOMPARE(r.type(), RedisReply::Type::Failure);
        QCOMPARE(r.errorKind(), RedisErrorKind::ConnectionRefused);
        QVERIFY(!r.errorText().isEmpty());
        QTRY_COMPARE(c.state(), RedisConnection::State::WaitingToReconnect);
        // While the node is known down, commands fail at once instead of waiting out a timeout (60 s) or the
        // next reconnection attempt (at least 16 s away).
        Await fast;
        c.send({"PING"}, fast.handler(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(fast.done, 5000);
        QCOMPARE(fast.reply.type(), RedisReply::Type::Failure);
        QCOMPARE(c.state(), RedisConnection::State::WaitingToReconnect);
    }

    void reconnectsAfterNodeRestart()
    {
        ConnectionOptions o;
        o.backoffInitialMs = 20;
        o.backoffMaxMs = 100;
        RedisConnection c(m_cluster.endpoint(0), o);
        QCOMPARE(roundTrip(c, {"PING"}).bytes(), QByteArray("PONG"));
        QSignalSpy lost(&c, &RedisConnection::connectionLost);
        QVERIFY(m_cluster.killNode(0));
        QTRY_VERIFY(lost.count() >= 1);
        QVERIFY(m_cluster.startNode(0));
        QTRY_VERIFY_WITH_TIMEOUT(c.isReady(), 10000);
        QCOMPARE(roundTrip(c, {"PING"}).bytes(), QByteArray("PONG"));
    }

    void authentication()
    {
        NodeEndpoint wrong = m_cluster.endpoint(1);
        wrong.password = QStringLiteral("wrong-password");
        RedisConnection bad(wrong);
        const RedisReply r = roundTrip(bad, {"PING"});
        QCOMPARE(r.errorKind(), RedisErrorKind::AuthFailed);
        QVERIFY2(r.errorText().contains(QStringLiteral("AUTH")), qPrintable(r.errorText()));
        QCOMPARE(bad.lastErrorKind(), RedisErrorKind::AuthFailed);

        NodeEndpoint none = m_cluster.endpoint(1);
        none.password.clear();
        RedisConnection missing(none);
        QCOMPARE(roundTrip(missing, {"PING"}).errorKind(), RedisErrorKind::AuthFailed);

        RedisConnection good(m_cluster.endpoint(1));
        QCOMPARE(roundTrip(good, {"PING"}).bytes(), QByteArray("PONG"));

        // An ACL user with a key pattern: NOPERM on what it may not touch.
        QCOMPARE(roundTrip(good, {"ACL", "SETUSER", "watcher", "on", ">watch-pw", "~locks:*", "+get", "+ping"}).bytes(),
                 QByteArray("OK"));
        NodeEndpoint user = m_cluster.endpoint(1);
        user.user = QStringLiteral("watcher");
        user.password = QStringLiteral("watch-pw");
        RedisConnection limited(user);
        QVERIFY(roundTrip(limited, {"GET", "locks:a"}).isNil());
        const RedisReply denied = roundTrip(limited, {"SET", "locks:a", "x"});
        QCOMPARE(denied.errorKind(), RedisErrorKind::NoPermission);
        QCOMPARE(roundTrip(limited, {"GET", "other"}).errorKind(), RedisErrorKind::NoPermission);
    }

    void typedServerErrors()
    {
        RedisConnection c(m_cluster.endpoint(0));
        roundTrip(c, {"HSET", "h", "f", "v"});
        QCOMPARE(roundTrip(c, {"GET", "h"}).errorKind(), RedisErrorKind::WrongType);
        QCOMPARE(roundTrip(c, {"EVALSHA", "0123456789012345678901234567890123456789", "0"}).errorKind(),
                 RedisErrorKind::NoScript);
        QCOMPARE(roundTrip(c, {"NOSUCHCOMMAND"}).errorKind(), RedisErrorKind::ServerError);

        RedisConnection replica(m_cluster.endpoint(2));
        QCOMPARE(roundTrip(replica, {"SET", "k", "v"}).errorKind(), RedisErrorKind::ReadOnly);

        QCOMPARE(RedisReply::classifyServerError("LOADING Redis is loading the dataset in memory"),
                 RedisErrorKind::Loading);
        QCOMPARE(RedisReply::classifyServerError("ERR Error running script: @user_script:1: WRONGTYPE Operation"),
                 RedisErrorKind::WrongType);
    }

    void selectAndClientName()
    {
        NodeEndpoint ep = m_cluster.endpoint(0);
        ep.db = 3;
        ConnectionOptions o;
        o.clientName = "console-test";
        RedisConnection c(ep, o);
        QCOMPARE(roundTrip(c, {"SET", "in-db-3", "yes"}).bytes(), QByteArray("OK"));
        QCOMPARE(roundTrip(c, {"CLIENT", "GETNAME"}).bytes(), QByteArray("console-test"));
        DirectRedis d(m_cluster.port(0));
        QVERIFY(!d.exists("in-db-3"));
        d.command({"SELECT", "3"});
        QVERIFY(d.exists("in-db-3"));
    }

    void unixSocket()
    {
        NodeEndpoint ep;
        ep.unixSocket = m_cluster.unixSocketPath(3);
        RedisConnection c(ep);
        QCOMPARE(roundTrip(c, {"PING"}).bytes(), QByteArray("PONG"));
    }

    void droppedMidCommand()
    {
        ConnectionOptions o;
        o.clientName = "to-be-killed";
        RedisConnection c(m_cluster.endpoint(0), o);
        QCOMPARE(roundTrip(c, {"PING"}).bytes(), QByteArray("PONG"));
        Await pending;
        c.send({"BLPOP", "never-filled", "10"}, pending.handler(), 20000);
        DirectRedis admin(m_cluster.port(0));
        QTRY_VERIFY(admin.command({"CLIENT", "LIST"}).str.contains("name=to-be-killed"));
        QCOMPARE(admin.command({"CLIENT", "KILL", "SKIPME", "yes", "TYPE", "normal"}).integer >= 1, true);
        QTRY_VERIFY(pending.done);
        QCOMPARE(pending.reply.type(), RedisReply::Type::Failure);
        QCOMPARE(pending.reply.errorKind(), RedisErrorKind::ConnectionLost);
    }

    // Core review item 4: a command sent from a failure handler while the transport is torn down. It used to
    // be queued as in flight on the transport that was gone, survived the reconnect, took the handshake's
    // first reply (CLIENT SETNAME's OK) and left PING unanswered until the handshake timed out.
    void commandSentFromAFailureHandlerDoesNotSurviveTheReconnect()
    {
        ConnectionOptions o;
        o.clientName = "victim";
        o.backoffInitialMs = 20;
        o.backoffMaxMs = 50;
        RedisConnection c(m_cluster.endpoint(0), o);
        DirectRedis admin(m_cluster.port(0));
        admin.set("handler-key", "value-of-k");
        QCOMPARE(roundTrip(c, {"PING"}).bytes(), QByteArray("PONG"));
        QSignalSpy lost(&c, &RedisConnection::connectionLost);
        Await fromHandler;
        bool blockingFailed = false;
        c.send(
            {"BLPOP", "never-filled", "30"},
            [&](const RedisReply& r) {
                blockingFailed = r.type() == RedisReply::Type::Failure;
                c.send({"GET", "handler-key"}, fromHandler.handler(), 5000);
            },
            40000);
        QTRY_VERIFY(admin.command({"CLIENT", "LIST"}).str.contains("name=victim"));
        QVERIFY(admin.command({"CLIENT", "KILL", "SKIPME", "yes", "TYPE", "normal"}).integer >= 1);
        QTRY_VERIFY(fromHandler.done);
        QVERIFY(blockingFailed);
        // Sent while the node was down: it fails, it never takes another command's reply.
        QCOMPARE(fromHandler.reply.type(), RedisReply::Type::Failure);
        // The reconnect's handshake gets its own replies and succeeds at the first try.
        QTRY_VERIFY_WITH_TIMEOUT(c.isReady(), 10000);
        QCOMPARE(lost.count(), 1);
        QCOMPARE(roundTrip(c, {"GET", "handler-key"}).bytes(), QByteArray("value-of-k"));
    }

    // Core N4: a node that streams a reply without end (a 1 GB bulk, an array of 2^31 elements) grew the client
    // by 80 MB a second on a connection that stayed "ready". The reply in progress is capped (its bytes and
    // the elements built for it): the command fails with a protocol error, the connection is dropped before
    // the client took more than the cap, and a new connection works. The array's elements cost far more
    // memory than their 4 bytes on the wire: its stream stays well under the cap in bytes.
    void aReplyBeyondTheCapDropsTheConnection_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("unit");
        QTest::addColumn<qint64>("cap");
        QTest::addColumn<qint64>("stopAt");
        const qint64 defaultCap = ConnectionOptions{}.maxReplyBytes;
        QTest::newRow("1 GB bulk, default cap")
            << QByteArray("$1000000000\r\n") << QByteArray("x") << defaultCap << defaultCap + 48 * 1024 * 1024;
        const qint64 arrayCap = 8 * 1024 * 1024;
        QTest::newRow("endless array") << QByteArray("*2147483647\r\n") << QByteArray(":1\r\n") << arrayCap
                                       << arrayCap * 3 / 4;
    }

    void aReplyBeyondTheCapDropsTheConnection()
    {
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, unit);
        QFETCH(qint64, cap);
        QFETCH(qint64, stopAt);
        HostilePeer peer(header, unit, stopAt);
        QVERIFY(peer.port() != 0);
        ConnectionOptions o;
        o.maxReplyBytes = cap;
        o.backoffInitialMs = 20;
        o.backoffMaxMs = 100;
        RedisConnection c(peer.endpoint(), o);
        QSignalSpy lost(&c, &RedisConnection::connectionLost);
        Await big;
        c.send({"GET", "big"}, big.handler(), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(big.done, 30000);
        const qint64 sentAtFailure = peer.sent();
        QCOMPARE(big.reply.type(), RedisReply::Type::Failure);
        QCOMPARE(big.reply.errorKind(), RedisErrorKind::Protocol);
        QVERIFY2(big.reply.errorText().contains(QStringLiteral("reply larger than")),
                 qPrintable(big.reply.errorText()));
        // What the client can have taken: the cap, plus what the kernel's socket buffers and our 1 MB write
        // buffer held when it hung up.
        QVERIFY2(sentAtFailure < cap + 24 * 1024 * 1024, qPrintable(QString::number(sentAtFailure)));
        QCOMPARE(lost.count(), 1);
        QCOMPARE(lost.first().first().value<RedisErrorKind>(), RedisErrorKind::Protocol);
        QTRY_VERIFY(peer.firstClosed());
        QTRY_VERIFY_WITH_TIMEOUT(c.isReady(), 10000);
        QCOMPARE(peer.connections(), 2);
        QCOMPARE(roundTrip(c, {"GET", "small"}).bytes(), QByteArray("ok"));
    }

    // Core N4: a command that timed out stays in the pipeline for its late reply; a reply that never ends (it
    // stalls in the middle) kept the connection "ready" for ever, every later command timing out behind it. Once
    // the grace after the deadline is over, the connection is dropped and a new one made.
    void aLateReplyThatNeverComesDropsTheConnection()
    {
        HostilePeer peer("$100\r\nhalf a reply", QByteArray(), 0);
        ConnectionOptions o;
        o.lateReplyGraceMs = 300;
        o.backoffInitialMs = 20;
        o.backoffMaxMs = 100;
        RedisConnection c(peer.endpoint(), o);
        QSignalSpy lost(&c, &RedisConnection::connectionLost);
        Await stalled;
        c.send({"GET", "stalls"}, stalled.handler(), 100);
        QTRY_VERIFY(stalled.done);
        QCOMPARE(stalled.reply.errorKind(), RedisErrorKind::Timeout);
        QTRY_VERIFY_WITH_TIMEOUT(lost.count() == 1, 10000);
        QCOMPARE(lost.first().first().value<RedisErrorKind>(), RedisErrorKind::Timeout);
        QVERIFY2(lost.first().last().toString().contains(QStringLiteral("connection dropped")),
                 qPrintable(lost.first().last().toString()));
        QTRY_VERIFY_WITH_TIMEOUT(c.isReady(), 10000);
        QCOMPARE(roundTrip(c, {"GET", "small"}).bytes(), QByteArray("ok"));
    }

    // What a raw peer's bytes decode to, or fail as: it answers the handshake PING, then sends `wire` for our GET.
    RedisReply replyFromRawPeer(const QByteArray& wire, bool close)
    {
        QTcpServer server;
        if (!server.listen(QHostAddress::LocalHost, 0))
            return RedisReply::failure(RedisErrorKind::Unreachable, QStringLiteral("cannot listen"));
        QPointer<QTcpSocket> peer;
        connect(&server, &QTcpServer::newConnection, this, [&] {
            peer = server.nextPendingConnection();
            connect(peer, &QTcpSocket::readyRead, peer, [&, p = peer.data()] {
                if (p->readAll().contains("GET")) {
                    p->write(wire);
                    p->flush();
                    if (close)
                        p->disconnectFromHost();
                } else {
                    p->write("+PONG\r\n");
                }
            });
        });
        NodeEndpoint ep;
        ep.host = QStringLiteral("127.0.0.1");
        ep.port = server.serverPort();
        ConnectionOptions o;
        o.autoReconnect = false;
        // The handshake is PING alone, answered by one "+PONG" per read: with INFO server before it (the run_id),
        // both came in one read, got one reply, and the handshake timed out (every row failed as a timeout).
        o.readServerIdentity = false;
        RedisConnection c(ep, o);
        return roundTrip(c, {"GET", "x"});
    }

    void cutMidReplyAndMalformed_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("close");
        QTest::addColumn<int>("kind");
        QTest::newRow("cut mid bulk") << QByteArray("$10\r\nabc") << true << int(RedisErrorKind::ConnectionLost);
        QTest::newRow("malformed") << QByteArray("?what\r\n") << false << int(RedisErrorKind::Protocol);
        // The reader drops the part of the reply built so far (under ASan with detect_leaks=1: freed, not leaked).
        QTest::newRow("malformed inside nested arrays")
            << QByteArray("*3\r\n$1\r\na\r\n*2\r\n:1\r\n?x\r\n") << false << int(RedisErrorKind::Protocol);
        QTest::newRow("cut inside nested arrays")
            << QByteArray("*2\r\n*2\r\n$1\r\na\r\n") << true << int(RedisErrorKind::ConnectionLost);
        // An array header announcing 2^31 - 1 elements: nothing that large is made before the elements come.
        QTest::newRow("huge array header, then cut")
            << QByteArray("*2147483647\r\n:1\r\n") << true << int(RedisErrorKind::ConnectionLost);
    }

    void cutMidReplyAndMalformed()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, close);
        QFETCH(int, kind);
        const RedisReply r = replyFromRawPeer(wire, close);
        QCOMPARE(r.type(), RedisReply::Type::Failure);
        QCOMPARE(int(r.errorKind()), kind);
    }

    // The acquire script's reply as a raw peer sends it: the well-formed shapes are read field by field, anything
    // else (an old or broken node, another script behind the same SHA) is refused whole, never half read.
    void acquireReplyIsDecodedOrRefusedWhole_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("acquired");
        QTest::addColumn<qint64>("fence");
        QTest::addColumn<int>("conflictIndex");
        QTest::addColumn<QByteArray>("holder");
        QTest::addColumn<qint64>("pttl");
        const QByteArray none;
        QTest::newRow("acquired, no fencing")
            << QByteArray("*2\r\n:1\r\n:0\r\n") << true << true << qint64(0) << 0 << none << qint64(-1);
        QTest::newRow("acquired, fence 41")
            << QByteArray("*2\r\n:1\r\n:41\r\n") << true << true << qint64(41) << 0 << none << qint64(-1);
        QTest::newRow("conflict on #2") << QByteArray("*5\r\n:0\r\n:2\r\n$3\r\ntok\r\n:1500\r\n:7\r\n") << true << false
                                        << qint64(7) << 2 << QByteArray("tok") << qint64(1500);
        QTest::newRow("conflict, no expiry, binary holder")
            << (QByteArray("*5\r\n:0\r\n:1\r\n$3\r\na") + '\0' + "c\r\n:-1\r\n:0\r\n") << true << false << qint64(0)
            << 1 << QByteArray("a\0c", 3) << qint64(-1);
        const auto malformed = [&](const char* name, const QByteArray& wire) {
            QTest::newRow(name) << wire << false << false << qint64(0) << 0 << none << qint64(-1);
        };
        malformed("nil", "$-1\r\n");
        malformed("integer", ":1\r\n");
        malformed("status", "+OK\r\n");
        malformed("bulk string", "$2\r\n{}\r\n");
        malformed("server error", "-ERR the fencing counter of r is not a number\r\n");
        malformed("empty array", "*0\r\n");
        malformed("acquired, too short", "*1\r\n:1\r\n");
        malformed("acquired, too long", "*3\r\n:1\r\n:0\r\n:0\r\n");
        malformed("acquired, fence as string", "*2\r\n:1\r\n$1\r\n7\r\n");
        malformed("unknown verdict", "*2\r\n:2\r\n:0\r\n");
        malformed("verdict as string", "*2\r\n$1\r\n1\r\n:0\r\n");
        malformed("conflict, too short", "*4\r\n:0\r\n:1\r\n$3\r\ntok\r\n:1500\r\n");
        malformed("conflict, too long", "*6\r\n:0\r\n:1\r\n$3\r\ntok\r\n:1500\r\n:0\r\n:0\r\n");
        malformed("conflict, holder nil", "*5\r\n:0\r\n:1\r\n$-1\r\n:1500\r\n:0\r\n");
        malformed("conflict, holder integer", "*5\r\n:0\r\n:1\r\n:5\r\n:1500\r\n:0\r\n");
        malformed("conflict, holder status", "*5\r\n:0\r\n:1\r\n+tok\r\n:1500\r\n:0\r\n");
        malformed("conflict, PTTL as string", "*5\r\n:0\r\n:1\r\n$3\r\ntok\r\n$4\r\n1500\r\n:0\r\n");
        malformed("conflict, fence nil", "*5\r\n:0\r\n:1\r\n$3\r\ntok\r\n:1500\r\n$-1\r\n");
        malformed("conflict, index 0", "*5\r\n:0\r\n:0\r\n$3\r\ntok\r\n:1500\r\n:0\r\n");
        malformed("conflict, index beyond int", "*5\r\n:0\r\n:4294967296\r\n$3\r\ntok\r\n:1500\r\n:0\r\n");
        malformed("conflict, nested array", "*5\r\n:0\r\n:1\r\n*1\r\n$3\r\ntok\r\n:1500\r\n:0\r\n");
    }

    void acquireReplyIsDecodedOrRefusedWhole()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, valid);
        const RedisReply reply = replyFromRawPeer(wire, false);
        QVERIFY2(reply.type() != RedisReply::Type::Failure, qPrintable(reply.errorText()));
        const std::optional<scripts::AcquireReply> decoded = scripts::decodeAcquireReply(reply);
        QCOMPARE(decoded.has_value(), valid);
        if (!valid)
            return;
        QTEST(decoded->acquired, "acquired");
        QTEST(decoded->fence, "fence");
        QTEST(decoded->conflictIndex, "conflictIndex");
        QTEST(decoded->holderToken, "holder");
        QTEST(decoded->holderPttlMs, "pttl");
    }

    // Every RESP2 shape, nested, decoded byte for byte (hiredis parses, RedisReply is built as it goes).
    void decodesEveryReplyShape()
    {
        const char wire[] = "*7\r\n"
                            "$3\r\na\0c\r\n"
                            ":-42\r\n"
                            "$-1\r\n"
                            "*-1\r\n"
                            "*2\r\n*0\r\n*3\r\n+OK\r\n+QUEUED\r\n-WRONGTYPE bad type\r\n"
                            "$0\r\n\r\n"
                            "-ERR not nested\r\n";
        const RedisReply r = replyFromRawPeer(QByteArray(wire, sizeof wire - 1), false);
        QCOMPARE(r.type(), RedisReply::Type::Array);
        const auto& e = r.elements();
        QCOMPARE(e.size(), 7);
        QCOMPARE(e[0].type(), RedisReply::Type::String);
        QCOMPARE(e[0].bytes(), QByteArray("a\0c", 3));
        QCOMPARE(e[1].type(), RedisReply::Type::Integer);
        QCOMPARE(e[1].integer(), -42);
        QCOMPARE(e[2].type(), RedisReply::Type::Nil);
        QCOMPARE(e[3].type(), RedisReply::Type::Nil);
        QCOMPARE(e[4].type(), RedisReply::Type::Array);
        QCOMPARE(e[4].elements().size(), 2);
        QCOMPARE(e[4].elements()[0].type(), RedisReply::Type::Array);
        QVERIFY(e[4].elements()[0].elements().isEmpty());
        const auto& inner = e[4].elements()[1].elements();
        QCOMPARE(inner.size(), 3);
        QCOMPARE(inner[0].type(), RedisReply::Type::Status);
        QCOMPARE(inner[0].bytes(), QByteArray("OK"));
        QCOMPARE(inner[1].bytes(), QByteArray("QUEUED"));
        QCOMPARE(inner[2].type(), RedisReply::Type::Error);
        QCOMPARE(int(inner[2].errorKind()), int(RedisErrorKind::WrongType));
        QCOMPARE(inner[2].bytes(), QByteArray("WRONGTYPE bad type"));
        QCOMPARE(e[5].type(), RedisReply::Type::String);
        QVERIFY(e[5].bytes().isEmpty());
        QCOMPARE(e[6].type(), RedisReply::Type::Error);
        QCOMPARE(int(e[6].errorKind()), int(RedisErrorKind::ServerError));

        // A top-level nil, integer and error, one reply each.
        QCOMPARE(replyFromRawPeer("$-1\r\n", false).type(), RedisReply::Type::Nil);
        QCOMPARE(replyFromRawPeer(":9223372036854775807\r\n", false).integer(), std::numeric_limits<qint64>::max());
        const RedisReply error = replyFromRawPeer("-NOPERM no\r\n", false);
        QCOMPARE(error.type(), RedisReply::Type::Error);
        QCOMPARE(int(error.errorKind()), int(RedisErrorKind::NoPermission));
    }
};

QTEST_GUILESS_MAIN(TestRedisConnection)
#include "TestRedisConnection.moc"
