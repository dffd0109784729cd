#include "localcluster/LocalCluster.h"
#include "observe/NodeSession.h"
#include "runtime/IoThread.h"
#include "support/ObservationTestSupport.h"

#include <QScopeGuard>
#include <QTcpServer>
#include <QtTest>

#include <limits>

using namespace redlock;

namespace {

NodeSessionOptions fastOptions()
{
    NodeSessionOptions o;
    o.pingIntervalMs = 100;
    o.factsIntervalMs = 200;
    o.commandTimeoutMs = 1000;
    o.connection.backoffInitialMs = 50;
    o.connection.backoffMaxMs = 200;
    return o;
}

NodeFacts lastFacts(const QSignalSpy& spy)
{
    return spy.isEmpty() ? NodeFacts{} : spy.last().first().value<NodeFacts>();
}

} // namespace

class TestNodeSession : public QObject
{
    Q_OBJECT

private slots:
    void upWithFactsLatencyAndOffset()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(1, {}, &error), qPrintable(error));
        IoThread io;
        auto* session = io.create<NodeSession>(0, cluster.endpoint(0), fastOptions());
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QList<NodeSample> samples; // collected on this thread: the session's signals arrive queued
        QObject receiver;          // goes first, with any sample still queued for it
        connect(session, &NodeSession::sampled, &receiver, [&samples](const NodeSample& s) {
            if (s.clockOffsetUs)
                samples.append(s);
        });
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_VERIFY(lastFacts(facts).infoKnown && lastFacts(facts).notifyKeyspaceEvents.has_value());
        const NodeFacts f = lastFacts(facts);
        QCOMPARE(f.health, NodeHealth::Up);
        QVERIFY(f.refusedCommands.isEmpty());
        QCOMPARE(f.role, QStringLiteral("master"));
        QCOMPARE(f.connectedReplicas, 0);
        QCOMPARE(f.runId.size(), 40);
        QVERIFY(f.uptimeSeconds >= 0);
        QVERIFY(f.redisVersion.startsWith(QStringLiteral("7")) || f.redisVersion.startsWith(QStringLiteral("6")));
        QCOMPARE(f.maxmemoryPolicy, QStringLiteral("noeviction"));
        QCOMPARE(f.aofEnabled, 0);
        QCOMPARE(f.appendFsync, QStringLiteral("everysec"));
        QCOMPARE(*f.notifyKeyspaceEvents, QString());

        // Same machine, same clock: an offset is wrong by at most half its round trip and TIME's microseconds.
        // A stall on a loaded machine lengthens some round trips, not all: the best of several samples counts.
        QTRY_VERIFY_WITH_TIMEOUT(samples.size() >= 5, 10000);
        qint64 bestLatencyUs = std::numeric_limits<qint64>::max();
        qint64 bestOffsetUs = std::numeric_limits<qint64>::max();
        for (const NodeSample& s : std::as_const(samples)) {
            QVERIFY(s.latencyUs >= 0);
            QVERIFY2(qAbs(*s.clockOffsetUs) < 1'000'000, qPrintable(QString::number(*s.clockOffsetUs)));
            bestLatencyUs = std::min(bestLatencyUs, s.latencyUs);
            bestOffsetUs = std::min(bestOffsetUs, qAbs(*s.clockOffsetUs));
        }
        QVERIFY2(bestLatencyUs < 500'000, qPrintable(QString::number(bestLatencyUs)));
        QVERIFY2(bestOffsetUs < 50'000, qPrintable(QString::number(bestOffsetUs)));

        // The offset shown is that of the sample with the shortest round trip of the last few, with half that
        // round trip as its uncertainty. On one machine the true offset is 0, and the server read its clock
        // between our send and its reply: the estimate is within its uncertainty (plus TIME's microsecond).
        for (const NodeSample& s : std::as_const(samples)) {
            QVERIFY(s.clockOffsetUncertaintyUs >= 0);
            QVERIFY2(qAbs(*s.clockOffsetUs) <= s.clockOffsetUncertaintyUs + 2,
                     qPrintable(QStringLiteral("%1 ± %2").arg(*s.clockOffsetUs).arg(s.clockOffsetUncertaintyUs)));
        }
    }

    // A hung node (SIGSTOP: the connection stays open, nothing answers) is not "up": once a PING gets no reply
    // within the command timeout it is NotAnswering, which every front end counts as down; it is Up again as
    // soon as it answers. The connection is never lost meanwhile, so nothing else would ever say so.
    void hungNodeIsNotAnswering()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(1, {}, &error), qPrintable(error));
        IoThread io;
        NodeSessionOptions options = fastOptions();
        options.pingIntervalMs = 200;
        options.commandTimeoutMs = 500;
        auto* session = io.create<NodeSession>(0, cluster.endpoint(0), options);
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_VERIFY(lastFacts(facts).infoKnown && lastFacts(facts).clockOffsetUs.has_value());
        QCOMPARE(lastFacts(facts).health, NodeHealth::Up);

        QVERIFY(cluster.pauseNode(0));
        QTRY_COMPARE_WITH_TIMEOUT(lastFacts(facts).health, NodeHealth::NotAnswering, 10000);
        const NodeFacts hung = lastFacts(facts);
        QCOMPARE(hung.errorKind, RedisErrorKind::Timeout);
        QVERIFY2(hung.reason.contains(QStringLiteral("500 ms")), qPrintable(hung.reason));
        QCOMPARE(hung.latencyUs, -1);
        QVERIFY(!hung.clockOffsetUs.has_value());
        QCOMPARE(nodeHealthName(hung.health), QStringLiteral("not answering"));
        for (const QList<QVariant>& f : std::as_const(facts))
            QVERIFY(f.first().value<NodeFacts>().health != NodeHealth::Down); // the connection stayed

        QVERIFY(cluster.resumeNode(0));
        QTRY_COMPARE_WITH_TIMEOUT(lastFacts(facts).health, NodeHealth::Up, 10000);
        QVERIFY(lastFacts(facts).reason.isEmpty());
        QCOMPARE(lastFacts(facts).errorKind, RedisErrorKind::None);
    }

    // Core N4: a timed-out command's reply is not awaited for ever. A node hung for longer than the grace loses
    // its connection: not answering, then down (never "up" while it hangs), and up again once it answers.
    void nodeHungBeyondTheGraceIsDownThenUp()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(1, {}, &error), qPrintable(error));
        IoThread io;
        NodeSessionOptions options = fastOptions();
        options.pingIntervalMs = 200;
        options.commandTimeoutMs = 500;
        options.connection.lateReplyGraceMs = 1000;
        options.connection.backoffInitialMs = 50;
        options.connection.backoffMaxMs = 200;
        auto* session = io.create<NodeSession>(0, cluster.endpoint(0), options);
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_VERIFY(lastFacts(facts).infoKnown);
        QCOMPARE(lastFacts(facts).health, NodeHealth::Up);
        QVERIFY(cluster.pauseNode(0));
        auto resume = qScopeGuard([&] { cluster.resumeNode(0); });
        const qsizetype before = facts.size();
        QTRY_COMPARE_WITH_TIMEOUT(lastFacts(facts).health, NodeHealth::Down, 15000);
        QVERIFY2(lastFacts(facts).reason.contains(QStringLiteral("connection dropped")) ||
                     lastFacts(facts).errorKind == RedisErrorKind::Timeout,
                 qPrintable(lastFacts(facts).reason));
        QList<NodeHealth> seen;
        for (qsizetype i = before; i < facts.size(); ++i)
            seen << facts.at(i).first().value<NodeFacts>().health;
        // A sample answered just before the pause may still say "up"; from "not answering" on, nothing does.
        const qsizetype hung = seen.indexOf(NodeHealth::NotAnswering);
        QVERIFY(hung >= 0);
        QVERIFY(!seen.mid(hung).contains(NodeHealth::Up));
        QVERIFY(seen.indexOf(NodeHealth::Down, hung) > hung);
        QVERIFY(cluster.resumeNode(0));
        QTRY_COMPARE_WITH_TIMEOUT(lastFacts(facts).health, NodeHealth::Up, 15000);
        QVERIFY(lastFacts(facts).reason.isEmpty());
    }

    void wrongPasswordIsAuthFailed()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions options;
        options.requirePass = QStringLiteral("secret");
        QVERIFY2(cluster.start(1, options, &error), qPrintable(error));
        IoThread io;
        NodeEndpoint wrong = cluster.endpoint(0);
        wrong.password = QStringLiteral("not-the-secret");
        NodeEndpoint none = cluster.endpoint(0);
        none.password.clear();
        auto* withWrong = io.create<NodeSession>(0, wrong, fastOptions());
        auto* withNone = io.create<NodeSession>(1, none, fastOptions());
        QSignalSpy wrongFacts(withWrong, &NodeSession::factsChanged);
        QSignalSpy noneFacts(withNone, &NodeSession::factsChanged);
        QMetaObject::invokeMethod(withWrong, &NodeSession::start);
        QMetaObject::invokeMethod(withNone, &NodeSession::start);
        QTRY_COMPARE(lastFacts(wrongFacts).health, NodeHealth::AuthFailed);
        QTRY_COMPARE(lastFacts(noneFacts).health, NodeHealth::AuthFailed); // NOAUTH
        QVERIFY(!lastFacts(wrongFacts).reason.isEmpty());
    }

    void refusedCommandsDegradeOnly()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(1, {}, &error), qPrintable(error));
        const RedisReply acl = runCommand(
            cluster.endpoint(0), {"ACL", "SETUSER", "watcher", "on", ">pw", "~*", "&*", "+@all", "-info", "-config"});
        QVERIFY2(!acl.isError(), qPrintable(acl.errorText()));
        NodeEndpoint ep = cluster.endpoint(0);
        ep.user = QStringLiteral("watcher");
        ep.password = QStringLiteral("pw");
        IoThread io;
        auto* session = io.create<NodeSession>(0, ep, fastOptions());
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QSignalSpy samples(session, &NodeSession::sampled);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_VERIFY(lastFacts(facts).refusedCommands.size() == 2);
        const NodeFacts f = lastFacts(facts);
        QCOMPARE(f.health, NodeHealth::Up);
        QVERIFY(f.isDegraded());
        QVERIFY(f.refusedCommands.contains(QStringLiteral("INFO")));
        QVERIFY(f.refusedCommands.contains(QStringLiteral("CONFIG GET")));
        QVERIFY(!f.infoKnown);
        QVERIFY(f.appendFsync.isEmpty());
        // PING and TIME still work.
        QTRY_VERIFY(!samples.isEmpty() && samples.last().first().value<NodeSample>().latencyUs >= 0);
        QTRY_VERIFY(lastFacts(facts).clockOffsetUs.has_value() ||
                    samples.last().first().value<NodeSample>().clockOffsetUs.has_value());
    }

    void downThenRestarted()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(1, {}, &error), qPrintable(error));
        IoThread io;
        auto* session = io.create<NodeSession>(0, cluster.endpoint(0), fastOptions());
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QSignalSpy restarted(session, &NodeSession::restarted);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_VERIFY(lastFacts(facts).infoKnown);
        const QByteArray firstRunId = lastFacts(facts).runId;

        QVERIFY(cluster.killNode(0));
        QTRY_COMPARE(lastFacts(facts).health, NodeHealth::Down);
        QVERIFY(!lastFacts(facts).reason.isEmpty());
        QVERIFY(cluster.startNode(0, &error));
        QVERIFY(waitForCount(restarted, 1, 5000));
        const NodeFacts f = restarted.first().first().value<NodeFacts>();
        QCOMPARE(f.previousRunId, firstRunId);
        QVERIFY(f.runId != firstRunId);
        QVERIFY(f.restartSeenAtMs > 0);
        QVERIFY2(f.downtimeMs >= 0 && f.downtimeMs < 5000, qPrintable(QString::number(f.downtimeMs)));
        QTRY_COMPARE(lastFacts(facts).health, NodeHealth::Up);
    }

    void unreachableEndpointIsDown()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        NodeEndpoint ep;
        ep.host = QStringLiteral("127.0.0.1");
        ep.port = probe.serverPort();
        probe.close();
        IoThread io;
        auto* session = io.create<NodeSession>(0, ep, fastOptions());
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QSignalSpy samples(session, &NodeSession::sampled);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_COMPARE(lastFacts(facts).health, NodeHealth::Down);
        QCOMPARE(lastFacts(facts).errorKind, RedisErrorKind::ConnectionRefused);
        QTRY_VERIFY(!samples.isEmpty());
        QCOMPARE(samples.last().first().value<NodeSample>().latencyUs, -1);
    }

    void enablingKeyspaceEventsIsExplicit()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions options;
        options.notifyKeyspaceEvents = QStringLiteral("Ex");
        QVERIFY2(cluster.start(1, options, &error), qPrintable(error));
        IoThread io;
        auto* session = io.create<NodeSession>(0, cluster.endpoint(0), fastOptions());
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QSignalSpy configured(session, &NodeSession::keyspaceEventsConfigured);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_VERIFY(lastFacts(facts).notifyKeyspaceEvents.has_value());
        QVERIFY(!lastFacts(facts).notifyKeyspaceEvents->contains(u'K')); // nothing changed by watching
        QMetaObject::invokeMethod(session, [session] { session->enableKeyspaceEvents("Kg$hxe"); });
        QTRY_COMPARE(configured.size(), 1);
        QVERIFY2(configured.first().at(1).toBool(), qPrintable(configured.first().at(2).toString()));
        const QByteArray now =
            runCommand(cluster.endpoint(0), {"CONFIG", "GET", "notify-keyspace-events"}).elements().value(1).bytes();
        for (const char c : QByteArray("KEg$hx"))
            QVERIFY2(now.contains(c), now.constData()); // the existing E flag is kept
    }

    void enablingKeyspaceEventsIsRefusedReadOnly()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions options;
        options.notifyKeyspaceEvents = QStringLiteral("Ex");
        QVERIFY2(cluster.start(1, options, &error), qPrintable(error));
        NodeSessionOptions readOnly = fastOptions();
        readOnly.readOnly = true;
        IoThread io;
        auto* session = io.create<NodeSession>(0, cluster.endpoint(0), readOnly);
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QSignalSpy configured(session, &NodeSession::keyspaceEventsConfigured);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_VERIFY(lastFacts(facts).notifyKeyspaceEvents.has_value());
        const auto configSetCalls = [&] {
            const QByteArray stats = runCommand(cluster.endpoint(0), {"INFO", "commandstats"}).bytes();
            const qsizetype at = stats.indexOf("cmdstat_config|set:calls=");
            return at < 0 ? 0 : stats.mid(at + 25, stats.indexOf(',', at) - at - 25).toInt();
        };
        QCOMPARE(configSetCalls(), 0);
        QMetaObject::invokeMethod(session, [session] { session->enableKeyspaceEvents("Kg$hxe"); });
        QTRY_COMPARE(configured.size(), 1);
        QCOMPARE(configured.first().at(1).toBool(), false);
        QVERIFY2(configured.first().at(2).toString().contains(QStringLiteral("read-only")),
                 qPrintable(configured.first().at(2).toString()));
        // Nothing was sent: the flags are as the server was started, and no CONFIG SET ever reached it.
        const QByteArray now =
            runCommand(cluster.endpoint(0), {"CONFIG", "GET", "notify-keyspace-events"}).elements().value(1).bytes();
        QVERIFY2(!now.contains('K') && !now.contains('g'), now.constData());
        QCOMPARE(configSetCalls(), 0);
    }

    // The core names its connections after the application embedding it, never after the console: a service
    // built on the core is listed as itself in CLIENT LIST.
    void connectionIsNamedAfterTheEmbeddingApplication()
    {
        const QString before = QCoreApplication::applicationName();
        const auto restore = qScopeGuard([&before] { QCoreApplication::setApplicationName(before); });
        QCoreApplication::setApplicationName(QStringLiteral("billing service"));
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(1, {}, &error), qPrintable(error));
        IoThread io;
        auto* session = io.create<NodeSession>(0, cluster.endpoint(0), fastOptions());
        QSignalSpy facts(session, &NodeSession::factsChanged);
        QMetaObject::invokeMethod(session, &NodeSession::start);
        QTRY_COMPARE(lastFacts(facts).health, NodeHealth::Up);
        const QByteArray clients = runCommand(cluster.endpoint(0), {"CLIENT", "LIST"}).bytes();
        QVERIFY2(clients.contains("name=billing-service:observe "), clients.constData());
        QVERIFY2(!clients.contains("redlock-console"), clients.constData());
    }
};

QTEST_GUILESS_MAIN(TestNodeSession)
#include "TestNodeSession.moc"
