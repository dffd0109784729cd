#include "localcluster/LocalCluster.h"
#include "observe/NodeSession.h"
#include "observe/SafetyAudit.h"
#include "redlock/FencingCounters.h"
#include "runtime/IoThread.h"
#include "support/FakeClock.h"
#include "support/ObservationTestSupport.h"

#include <QtTest>

#include <memory>

using namespace redlock;

namespace {

// Watches a set of endpoints with NodeSessions, as the console does, and hands their latest facts out.
class Watcher
{
public:
    static NodeSessionOptions fastOptions()
    {
        NodeSessionOptions o;
        o.pingIntervalMs = 100;
        o.factsIntervalMs = 100;
        o.connection.backoffInitialMs = 50;
        o.connection.backoffMaxMs = 200;
        return o;
    }
    explicit Watcher(const QList<NodeEndpoint>& endpoints, const NodeSessionOptions& o = fastOptions())
    {
        for (int i = 0; i < endpoints.size(); ++i) {
            auto* session = m_io.create<NodeSession>(i, endpoints[i], o);
            m_spies.push_back(std::make_unique<QSignalSpy>(session, &NodeSession::factsChanged));
            m_sessions.append(session);
            QMetaObject::invokeMethod(session, &NodeSession::start);
        }
    }
    QList<NodeFacts> facts() const
    {
        QList<NodeFacts> out;
        for (const auto& spy : m_spies)
            out << (spy->isEmpty() ? NodeFacts{} : spy->last().first().value<NodeFacts>());
        return out;
    }
    bool allKnown() const
    {
        const auto all = facts();
        return std::all_of(all.cbegin(), all.cend(), [](const NodeFacts& f) { return f.infoKnown; });
    }
    // INFO and CONFIG GET read, and a clock sample taken, on every node.
    bool allAudited() const
    {
        const auto all = facts();
        return std::all_of(all.cbegin(), all.cend(), [](const NodeFacts& f) {
            return f.infoKnown && !f.appendFsync.isEmpty() && f.clockOffsetUs.has_value();
        });
    }

private:
    IoThread m_io;
    QList<NodeSession*> m_sessions;
    std::vector<std::unique_ptr<QSignalSpy>> m_spies;
};

QList<AuditFinding> findingsOf(const QList<AuditFinding>& all, const QString& rule)
{
    QList<AuditFinding> out;
    for (const auto& f : all) {
        if (f.ruleId == rule)
            out << f;
    }
    return out;
}

NodeFacts safeFacts(int node, const QByteArray& runId)
{
    NodeFacts f;
    f.node = node;
    f.endpoint.host = QStringLiteral("10.0.0.%1").arg(node + 1);
    f.health = NodeHealth::Up;
    f.infoKnown = true;
    f.role = QStringLiteral("master");
    f.connectedReplicas = 0;
    f.runId = runId;
    f.uptimeSeconds = 86400;
    f.maxmemoryPolicy = QStringLiteral("noeviction");
    f.maxmemoryBytes = 0;
    f.aofEnabled = 1;
    f.appendFsync = QStringLiteral("always");
    f.clockOffsetUs = 1000;
    return f;
}

} // namespace

class TestSafetyAudit : public QObject
{
    Q_OBJECT

private slots:
    void safeClusterHasNoFindings()
    {
        AuditInput in;
        for (int i = 0; i < 5; ++i)
            in.nodes << safeFacts(i, QByteArray(40, char('a' + i)));
        in.maxTtlMs = 30000;
        QVERIFY(SafetyAudit::run(in).isEmpty());
    }

    void nodeCountAndClockRules()
    {
        AuditInput in;
        in.nodes = {safeFacts(0, "r0"), safeFacts(1, "r1")};
        auto findings = findingsOf(SafetyAudit::run(in), QStringLiteral("node-count"));
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings.first().severity, AuditFinding::Severity::Severe);
        in.nodes << safeFacts(2, "r2") << safeFacts(3, "r3");
        findings = findingsOf(SafetyAudit::run(in), QStringLiteral("node-count"));
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings.first().severity, AuditFinding::Severity::Warning);

        in.nodes << safeFacts(4, "r4");
        in.maxTtlMs = 10000; // drift budget 102 ms
        in.nodes[3].clockOffsetUs = 250'000;
        const auto all = SafetyAudit::run(in);
        findings = findingsOf(all, QStringLiteral("clock-offset"));
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings.first().nodes, QList<int>{3});
        QVERIFY(!findings.first().explanation.isEmpty());
        QVERIFY(!SafetyAudit::hasSevere(all));
    }

    void replicaIsFlagged()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(2, {}, &error), qPrintable(error));
        LocalNodeOptions replica;
        replica.extraArgs = {QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                             QString::number(cluster.port(0))};
        QCOMPARE(cluster.addNode(replica, &error), 2);
        Watcher watcher(cluster.endpoints());
        QTRY_VERIFY(watcher.allKnown() && watcher.facts()[0].connectedReplicas > 0);
        const auto all = SafetyAudit::run({watcher.facts(), 10000});
        const auto replicas = findingsOf(all, QStringLiteral("replica"));
        QCOMPARE(replicas.size(), 1);
        QCOMPARE(replicas.first().nodes, QList<int>{2});
        QCOMPARE(replicas.first().severity, AuditFinding::Severity::Severe);
        const auto masters = findingsOf(all, QStringLiteral("has-replicas"));
        QCOMPARE(masters.size(), 1);
        QCOMPARE(masters.first().nodes, QList<int>{0});
        QVERIFY(SafetyAudit::hasSevere(all));
    }

    void nonPersistentNodeRestartedEarly()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable;
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(cluster.start(2, durable, &error), qPrintable(error));
        QCOMPARE(cluster.addNode({}, &error), 2); // no AOF
        Watcher watcher(cluster.endpoints());
        QTRY_VERIFY(watcher.allKnown());
        const QByteArray before = watcher.facts()[2].runId;
        for (int i = 0; i < 3; ++i)
            runCommand(cluster.endpoint(i), {"SET", "lock:a", "t", "NX", "PX", "30000"});
        // Crash and come straight back: the lock written there is gone while it is still valid elsewhere.
        QVERIFY(cluster.killNode(2));
        QVERIFY2(cluster.startNode(2, &error), qPrintable(error));
        QTRY_VERIFY(watcher.facts()[2].runId != before && !watcher.facts()[2].runId.isEmpty());
        QCOMPARE(watcher.facts()[2].previousRunId, before);
        AuditInput in{watcher.facts(), 30000};
        const auto all = SafetyAudit::run(in);
        const auto early = findingsOf(all, QStringLiteral("restart-early"));
        QCOMPARE(early.size(), 1);
        QCOMPARE(early.first().nodes, QList<int>{2});
        QCOMPARE(early.first().severity, AuditFinding::Severity::Severe);
        const auto persistence = findingsOf(all, QStringLiteral("persistence"));
        QCOMPARE(persistence.size(), 1);
        QCOMPARE(persistence.first().nodes, QList<int>{2}); // the AOF+always nodes are fine
    }

    // The downtime estimate errs toward flagging (review item 13): the session's last answer came long before
    // the crash and uptime_in_seconds is truncated, yet the estimate never exceeds the real downtime, so a
    // restart quicker than the TTL is severe.
    void downtimeEstimateNeverExceedsTheRealDowntime()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error)); // no AOF
        NodeSessionOptions o = Watcher::fastOptions();
        o.pingIntervalMs = 600000; // the last answer before the crash is the first one
        o.factsIntervalMs = 600000;
        Watcher watcher(cluster.endpoints(), o);
        QTRY_VERIFY(watcher.allKnown());
        const QByteArray before = watcher.facts()[2].runId;
        // Three seconds without a word from the node, then a crash and a quick restart.
        QTest::qWait(3000);
        QElapsedTimer down;
        down.start();
        QVERIFY(cluster.killNode(2));
        QVERIFY2(cluster.startNode(2, &error), qPrintable(error));
        const qint64 realDowntimeAtMostMs = down.elapsed();
        QTRY_VERIFY_WITH_TIMEOUT(watcher.facts()[2].runId != before && !watcher.facts()[2].runId.isEmpty(), 10000);
        const NodeFacts restarted = watcher.facts()[2];
        QVERIFY2(restarted.downtimeMs >= 0 && restarted.downtimeMs <= realDowntimeAtMostMs,
                 qPrintable(QStringLiteral("estimated %1 ms, really at most %2 ms")
                                .arg(restarted.downtimeMs)
                                .arg(realDowntimeAtMostMs)));
        // A TTL just above the real downtime: the restart broke it, and the audit says so.
        const qint64 ttl = realDowntimeAtMostMs + 200;
        const auto early =
            findingsOf(SafetyAudit::run(AuditInput{watcher.facts(), ttl}), QStringLiteral("restart-early"));
        QCOMPARE(early.size(), 1);
        QCOMPARE(early.first().nodes, QList<int>{2});
        QCOMPARE(early.first().severity, AuditFinding::Severity::Severe);
    }

    // The rule takes the drift into account: a downtime of exactly the TTL is still inside TTL + drift.
    void restartWithinTtlPlusDriftIsEarly()
    {
        QList<NodeFacts> facts{safeFacts(0, "a"), safeFacts(1, "b"), safeFacts(2, "c")};
        facts[2].aofEnabled = 0;
        facts[2].previousRunId = "old";
        facts[2].restartSeenAtMs = 1;
        facts[2].downtimeMs = 10000; // = the TTL; the holder's clock may run 1 % slow: 100 + 2 ms more
        const auto early =
            findingsOf(SafetyAudit::run(AuditInput{facts, 10000, 0.01}), QStringLiteral("restart-early"));
        QCOMPARE(early.size(), 1);
        facts[2].downtimeMs = 10000 + 102;
        QVERIFY(
            findingsOf(SafetyAudit::run(AuditInput{facts, 10000, 0.01}), QStringLiteral("restart-early")).isEmpty());
    }

    void appendfsyncOtherThanAlwaysIsFlagged()
    {
        // AOF on every node, fsync'ed on every write only on the first: the others lose the last second
        // (everysec) or whatever the OS had not written (no) in a crash.
        LocalCluster cluster;
        QString error;
        LocalNodeOptions aof;
        aof.appendOnly = true;
        for (const QString& fsync : {QStringLiteral("always"), QStringLiteral("everysec"), QStringLiteral("no")}) {
            aof.appendFsync = fsync;
            QVERIFY2(cluster.addNode(aof, &error) >= 0, qPrintable(error));
        }
        Watcher watcher(cluster.endpoints());
        QTRY_VERIFY_WITH_TIMEOUT(watcher.allAudited(), 15000);
        QCOMPARE(watcher.facts()[1].appendFsync, QStringLiteral("everysec"));
        QCOMPARE(watcher.facts()[1].aofEnabled, 1);
        auto all = SafetyAudit::run({watcher.facts(), 10000});
        auto persistence = findingsOf(all, QStringLiteral("persistence"));
        QCOMPARE(persistence.size(), 1);
        QCOMPARE(persistence.first().nodes, (QList<int>{1, 2}));
        QCOMPARE(persistence.first().severity, AuditFinding::Severity::Warning);
        QVERIFY(persistence.first().explanation.contains(cluster.endpoint(1).displayName()));
        QVERIFY(!persistence.first().explanation.contains(cluster.endpoint(0).displayName()));
        QVERIFY(findingsOf(all, QStringLiteral("restart-early")).isEmpty());

        // The same nodes switched to always: nothing to say about persistence; and the first one back to
        // everysec is flagged alone.
        for (int i : {1, 2})
            QVERIFY(!runCommand(cluster.endpoint(i), {"CONFIG", "SET", "appendfsync", "always"}).isError());
        QVERIFY(!runCommand(cluster.endpoint(0), {"CONFIG", "SET", "appendfsync", "everysec"}).isError());
        QTRY_VERIFY_WITH_TIMEOUT(watcher.facts()[0].appendFsync == u"everysec" &&
                                     watcher.facts()[1].appendFsync == u"always" &&
                                     watcher.facts()[2].appendFsync == u"always",
                                 15000);
        persistence = findingsOf(SafetyAudit::run({watcher.facts(), 10000}), QStringLiteral("persistence"));
        QCOMPARE(persistence.size(), 1);
        QCOMPARE(persistence.first().nodes, QList<int>{0});
    }

    void clockOffsetOfARealNode()
    {
        // Three durable nodes; the third runs 5 s ahead of this machine (libfaketime).
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable;
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(cluster.start(2, durable, &error), qPrintable(error));
        LocalNodeOptions ahead = durable;
        QVERIFY2(withClockOffset(&ahead, 5, &error), qPrintable(error));
        QVERIFY2(cluster.addNode(ahead, &error) == 2, qPrintable(error));
        Watcher watcher(cluster.endpoints());
        QTRY_VERIFY_WITH_TIMEOUT(watcher.allAudited(), 15000);
        const QList<NodeFacts> facts = watcher.facts();
        QVERIFY2(qAbs(*facts[0].clockOffsetUs) < 1'000'000, qPrintable(QString::number(*facts[0].clockOffsetUs)));
        QVERIFY2(*facts[2].clockOffsetUs > 4'000'000 && *facts[2].clockOffsetUs < 6'000'000,
                 qPrintable(QString::number(*facts[2].clockOffsetUs)));

        // 10 s locks: a drift budget of 102 ms, far below 5 s.
        const auto all = SafetyAudit::run({facts, 10000});
        const auto offset = findingsOf(all, QStringLiteral("clock-offset"));
        QCOMPARE(offset.size(), 1);
        QCOMPARE(offset.first().nodes, QList<int>{2});
        QCOMPARE(offset.first().severity, AuditFinding::Severity::Warning);
        QVERIFY(offset.first().explanation.contains(cluster.endpoint(2).displayName()));
        QVERIFY(!SafetyAudit::hasSevere(all));
        // 10-minute locks: the budget (6002 ms) covers the 5 s.
        QVERIFY(findingsOf(SafetyAudit::run({facts, 600000}), QStringLiteral("clock-offset")).isEmpty());
    }

    // Core review item 2: fencing counters are permanent, so the delayed restart does not protect them. With
    // counters on the nodes, persistence that can lose data is severe; without, it stays a warning.
    void weakPersistenceIsSevereWhenFencingIsInUse()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable;
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(cluster.start(2, durable, &error), qPrintable(error));
        QCOMPARE(cluster.addNode({}, &error), 2); // no AOF
        Watcher watcher(cluster.endpoints());
        QTRY_VERIFY(watcher.allKnown() && watcher.facts()[0].fencingCounters == 0);
        auto persistenceOf = [&] {
            const auto found = findingsOf(SafetyAudit::run({watcher.facts(), 30000}), QStringLiteral("persistence"));
            AuditFinding none;
            none.severity = AuditFinding::Severity::Info;
            return found.size() == 1 ? found.first() : none;
        };
        QCOMPARE(persistenceOf().severity, AuditFinding::Severity::Warning);
        // A fenced acquire leaves counters (on the durable nodes here): fencing is in use.
        for (int i = 0; i < 2; ++i)
            runCommand(cluster.endpoint(i), {"HSET", fenceCountersKey(), "job", "7"});
        QTRY_VERIFY(watcher.facts()[0].fencingCounters == 1 && watcher.facts()[1].fencingCounters == 1);
        const AuditFinding severe = persistenceOf();
        QCOMPARE(severe.severity, AuditFinding::Severity::Severe);
        QCOMPARE(severe.nodes, QList<int>{2});
        QVERIFY2(severe.explanation.contains(QStringLiteral("backwards")), qPrintable(severe.explanation));
    }

    void youngNodeWithoutAofIsOnlyAWarning()
    {
        // Started 5 s ago, no AOF, 30 s locks: it may have come back too early, but nobody saw it go down.
        QList<NodeFacts> nodes{safeFacts(0, "a"), safeFacts(1, "b"), safeFacts(2, "c")};
        nodes[2].aofEnabled = 0;
        nodes[2].uptimeSeconds = 5;
        const auto all = SafetyAudit::run({nodes, 30000});
        QVERIFY(findingsOf(all, QStringLiteral("restart-early")).isEmpty());
        const auto recent = findingsOf(all, QStringLiteral("recent-start"));
        QCOMPARE(recent.size(), 1);
        QCOMPARE(recent.first().nodes, QList<int>{2});
        QCOMPARE(recent.first().severity, AuditFinding::Severity::Warning);
        QVERIFY(!SafetyAudit::hasSevere(all));
        // Older than the largest TTL: nothing to say about the restart any more.
        nodes[2].uptimeSeconds = 60;
        QVERIFY(findingsOf(SafetyAudit::run({nodes, 30000}), QStringLiteral("recent-start")).isEmpty());
    }

    void evictingNodeIsFlagged()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(2, {}, &error), qPrintable(error));
        LocalNodeOptions evicting;
        evicting.maxmemory = QStringLiteral("64mb");
        evicting.maxmemoryPolicy = QStringLiteral("allkeys-lru");
        QCOMPARE(cluster.addNode(evicting, &error), 2);
        Watcher watcher(cluster.endpoints());
        QTRY_VERIFY(watcher.allKnown());
        const auto eviction = findingsOf(SafetyAudit::run({watcher.facts(), 10000}), QStringLiteral("eviction"));
        QCOMPARE(eviction.size(), 1);
        QCOMPARE(eviction.first().nodes, QList<int>{2});
        QCOMPARE(eviction.first().severity, AuditFinding::Severity::Severe);
    }

    void sameServerTwiceIsFlagged()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withSocket;
        withSocket.unixSocket = true;
        QVERIFY2(cluster.start(3, withSocket, &error), qPrintable(error));
        // The same server once over TCP and once over its unix socket: different endpoints, one vote.
        NodeEndpoint alias;
        alias.unixSocket = cluster.unixSocketPath(1);
        QList<NodeEndpoint> endpoints = cluster.endpoints();
        endpoints.append(alias);
        QVERIFY(endpoints[1].identity() != alias.identity());
        Watcher watcher(endpoints);
        QTRY_VERIFY(watcher.allKnown());
        const auto all = SafetyAudit::run({watcher.facts(), 10000});
        const auto same = findingsOf(all, QStringLiteral("same-server"));
        QCOMPARE(same.size(), 1);
        QCOMPARE(same.first().nodes, (QList<int>{1, 3}));
        QCOMPARE(same.first().severity, AuditFinding::Severity::Severe);
        QCOMPARE(findingsOf(all, QStringLiteral("node-count")).size(), 1); // and 4 is even
    }

    void unreadableNodeIsUnverified()
    {
        AuditInput in;
        in.nodes = {safeFacts(0, "r0"), safeFacts(1, "r1"), safeFacts(2, "r2")};
        in.nodes[1].infoKnown = false;
        in.nodes[1].refusedCommands = {QStringLiteral("INFO")};
        const auto unverified = findingsOf(SafetyAudit::run(in), QStringLiteral("unverified"));
        QCOMPARE(unverified.size(), 1);
        QCOMPARE(unverified.first().nodes, QList<int>{1});
        QCOMPARE(unverified.first().severity, AuditFinding::Severity::Info);
    }

    // Fewer than a quorum audited: severe, so that "nothing severe" never means "nobody looked".
    void noQuorumAuditedIsSevere()
    {
        AuditInput in;
        in.nodes = {safeFacts(0, "r0"), safeFacts(1, "r1"), safeFacts(2, "r2")};
        in.nodes[0].infoKnown = false;
        in.nodes[0].health = NodeHealth::Down;
        in.nodes[2].infoKnown = false;
        in.nodes[2].health = NodeHealth::NotAnswering;
        const QList<AuditFinding> all = SafetyAudit::run(in);
        const auto unverified = findingsOf(all, QStringLiteral("unverified"));
        QCOMPARE(unverified.size(), 1);
        QCOMPARE(unverified.first().nodes, (QList<int>{0, 2}));
        QCOMPARE(unverified.first().severity, AuditFinding::Severity::Severe);
        QVERIFY(SafetyAudit::hasSevere(all));
    }

    // Start-up: a node whose first facts round has not come back is "not yet audited", never "could not be
    // audited": every start (and every watch restart) would open with a false severe finding (tests-audit F3).
    void nodesNotYetReadAreNotYetAudited()
    {
        AuditInput in;
        in.nodes = {safeFacts(0, "r0"), safeFacts(1, "r1"), safeFacts(2, "r2")};
        in.nodes[0].infoKnown = false;
        in.nodes[0].health = NodeHealth::Connecting;
        in.nodes[1].infoKnown = false; // connected: its INFO is on its way
        QList<AuditFinding> all = SafetyAudit::run(in);
        QVERIFY(!SafetyAudit::hasSevere(all));
        QVERIFY(findingsOf(all, QStringLiteral("unverified")).isEmpty());
        auto pending = findingsOf(all, QStringLiteral("not-yet-audited"));
        QCOMPARE(pending.size(), 1);
        QCOMPARE(pending.first().nodes, (QList<int>{0, 1}));
        QCOMPARE(pending.first().severity, AuditFinding::Severity::Info);

        // One of three could not be read and two are not read yet: the two may still make the quorum.
        in.nodes[2].infoKnown = false;
        in.nodes[2].health = NodeHealth::Down;
        all = SafetyAudit::run(in);
        QVERIFY(!SafetyAudit::hasSevere(all));
        QCOMPARE(findingsOf(all, QStringLiteral("unverified")).first().nodes, QList<int>{2});

        // Two of three could not be read: no quorum can be audited, whatever the third says later.
        in.nodes[1].health = NodeHealth::Down;
        all = SafetyAudit::run(in);
        QVERIFY(SafetyAudit::hasSevere(all));
        QCOMPARE(findingsOf(all, QStringLiteral("unverified")).first().nodes, (QList<int>{1, 2}));
        QCOMPARE(findingsOf(all, QStringLiteral("not-yet-audited")).first().nodes, QList<int>{0});

        // A refused INFO is "could not be read", connected or not.
        in.nodes[0].health = NodeHealth::Up;
        in.nodes[0].refusedCommands = {QStringLiteral("INFO")};
        QVERIFY(findingsOf(SafetyAudit::run(in), QStringLiteral("not-yet-audited")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSafetyAudit)
#include "TestSafetyAudit.moc"
