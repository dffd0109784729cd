// Mutual exclusion under the faults the Redlock seeds and debate describe: K clients (threads and separate
// processes) contend for one resource, each records its critical sections, and a checker verifies that no
// two sections overlap and that fencing tokens strictly increase in order of acquisition. A negative
// control (restart without persistence and without delay) must be caught: a checker that cannot fail
// proves nothing.

#include "Contender.h"
#include "DirectRedis.h"
#include "FaultProxy.h"
#include "NodeSession.h"
#include "RedlockClient.h"
#include "SafetyAudit.h"
#include "TestSupport.h"

#include <QJsonDocument>
#include <QProcess>
#include <QtTest>

#include <future>

using namespace redlock;

namespace {
constexpr int kNodes = 5;
constexpr qint64 kTtlMs = 400;
constexpr int kDurationMs = 2500;
constexpr int kResourceNode = kNodes; // an extra server holding the fenced resource
} // namespace

class TestMutualExclusion : public QObject
{
    Q_OBJECT

private:
    LocalCluster m_cluster;
    std::vector<std::unique_ptr<FaultProxy>> m_proxies;

    QList<NodeEndpoint> viaProxies() const
    {
        QList<NodeEndpoint> out;
        for (const auto& p : m_proxies) {
            NodeEndpoint ep;
            ep.host = QStringLiteral("127.0.0.1");
            ep.port = p->port();
            out.append(ep);
        }
        return out;
    }

    static QString nodeList(const QList<NodeEndpoint>& nodes)
    {
        QStringList parts;
        for (const auto& n : nodes)
            parts << n.displayName();
        return parts.join(u',');
    }

    struct Run
    {
        QList<Section> sections;
        int failures = 0;
    };

    // Two contenders in threads of this process and two in separate processes, for kDurationMs; `faults`
    // runs on this thread meanwhile (it may wait with QTest::qWait, which keeps the event loop going).
    Run contend(const QByteArray& resource, const std::function<void()>& faults, int pauseAfterAcquireMs = 0,
                int durationMs = kDurationMs)
    {
        const QList<NodeEndpoint> nodes = viaProxies();
        std::vector<std::future<std::pair<QList<Section>, int>>> threads;
        for (int i = 0; i < 2; ++i) {
            ContenderConfig c;
            c.name = QStringLiteral("thread-%1").arg(i);
            c.nodes = nodes;
            c.resourcePort = m_cluster.port(kResourceNode);
            c.resource = resource;
            c.ttlMs = kTtlMs;
            c.durationMs = durationMs;
            c.pauseAfterAcquireMs = i == 0 ? pauseAfterAcquireMs : 0;
            threads.push_back(std::async(std::launch::async, [c] {
                int failures = 0;
                QList<Section> s = runContender(c, &failures);
                return std::make_pair(s, failures);
            }));
        }
        std::vector<std::unique_ptr<QProcess>> processes;
        for (int i = 0; i < 2; ++i) {
            auto p = std::make_unique<QProcess>();
            p->setProcessChannelMode(QProcess::SeparateChannels);
            p->start(QStringLiteral(REDLOCK_CONTENDER_PATH),
                     {QStringLiteral("process-%1").arg(i), nodeList(nodes), QString::fromUtf8(resource),
                      QString::number(m_cluster.port(kResourceNode)), QString::number(kTtlMs),
                      QString::number(durationMs)});
            processes.push_back(std::move(p));
        }
        if (faults)
            faults();
        Run run;
        for (auto& t : threads) {
            auto [sections, failures] = t.get();
            run.sections << sections;
            run.failures += failures;
        }
        for (auto& p : processes) {
            if (!p->waitForFinished(durationMs + 60000)) {
                p->kill();
                p->waitForFinished();
            }
            const QList<QByteArray> lines = p->readAllStandardOutput().split('\n');
            for (const QByteArray& line : lines) {
                if (!line.trimmed().isEmpty())
                    run.sections << Section::fromJson(QJsonDocument::fromJson(line).object());
            }
        }
        return run;
    }

    void expectSafe(const Run& run, int minimumSections = 10)
    {
        const CheckReport report = checkMutualExclusion(run.sections);
        QCOMPARE(report.resources, 1); // every contender on the same key, or the check means nothing
        QVERIFY2(report.overlaps == 0, qPrintable(report.details.join(u'\n')));
        QVERIFY2(report.fenceOrderErrors == 0, qPrintable(report.details.join(u'\n')));
        QVERIFY2(
            report.sections >= minimumSections,
            qPrintable(
                QStringLiteral("only %1 sections (%2 failed acquisitions)").arg(report.sections).arg(run.failures)));
        QMap<QString, int> perClient;
        for (const Section& s : run.sections)
            ++perClient[s.client];
        QStringList counts;
        for (auto it = perClient.cbegin(); it != perClient.cend(); ++it)
            counts << QStringLiteral("%1: %2").arg(it.key()).arg(it.value());
        QVERIFY2(perClient.size() >= 3,
                 qPrintable(QStringLiteral("contention needs several clients getting through (%1; %2 failed)")
                                .arg(counts.join(QStringLiteral(", ")))
                                .arg(run.failures)));
    }

    void expectNothingLeft(const QByteArray& key)
    {
        // Everyone released; what a partition or crash kept from being released has expired by now.
        for (int i = 0; i < kNodes; ++i) {
            if (m_cluster.isRunning(i))
                QTRY_VERIFY_WITH_TIMEOUT(!DirectRedis(m_cluster.port(i)).exists(key), 5000);
        }
    }

private slots:
    void initTestCase()
    {
        QString error;
        LocalNodeOptions durable; // node 0: AOF with fsync on every write
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(m_cluster.addNode(durable, &error) == 0, qPrintable(error));
        for (int i = 1; i <= kNodes; ++i)
            QVERIFY2(m_cluster.addNode({}, &error) == i, qPrintable(error));
        for (int i = 0; i < kNodes; ++i)
            m_proxies.push_back(std::make_unique<FaultProxy>(m_cluster.port(i)));
    }

    void init()
    {
        for (auto& p : m_proxies) {
            p->setLatencyMs(0);
            p->setBlackhole(false);
        }
        for (int i = 0; i <= kNodes; ++i) {
            if (!m_cluster.isRunning(i))
                QVERIFY(m_cluster.startNode(i));
            if (m_cluster.isPaused(i))
                QVERIFY(m_cluster.resumeNode(i));
        }
    }

    void checkerCatchesOverlap()
    {
        // The checker itself: two clients inside their validity at once is an overlap.
        Section a{QStringLiteral("a"), "r", 1000, 5000, 1100, 1500, 1, true, {}};
        Section b{QStringLiteral("b"), "r", 1400, 6000, 1450, 1800, 2, true, {}};
        QCOMPARE(checkMutualExclusion({a, b}).overlaps, 1);
        b.acquiredNs = 1600;
        QCOMPARE(checkMutualExclusion({a, b}).overlaps, 0);
        b.fence = 1;
        QCOMPARE(checkMutualExclusion({a, b}).fenceOrderErrors, 1);
    }

    void noFault()
    {
        expectSafe(contend("contended", {}));
        expectNothingLeft("contended");
    }

    void minorityPaused()
    {
        const Run run = contend("contended", [this] {
            QTest::qWait(500);
            QVERIFY(m_cluster.pauseNode(3));
            QVERIFY(m_cluster.pauseNode(4));
            QTest::qWait(1000);
            QVERIFY(m_cluster.resumeNode(3));
            QVERIFY(m_cluster.resumeNode(4));
        });
        expectSafe(run);
        expectNothingLeft("contended");
    }

    void slowNode()
    {
        const Run run = contend("contended", [this] {
            m_proxies[1]->setLatencyMs(30);
            QTest::qWait(1500);
            m_proxies[1]->setLatencyMs(0);
        });
        expectSafe(run);
        expectNothingLeft("contended");
    }

    void minorityPartition()
    {
        const Run run = contend("contended", [this] {
            QTest::qWait(400);
            m_proxies[0]->setBlackhole(true);
            m_proxies[2]->setBlackhole(true);
            QTest::qWait(1200);
            m_proxies[0]->setBlackhole(false);
            m_proxies[2]->setBlackhole(false);
        });
        expectSafe(run);
        expectNothingLeft("contended");
    }

    void majorityPartition()
    {
        qint64 cutNs = 0;
        qint64 healNs = 0;
        const Run run = contend("contended", [&] {
            QTest::qWait(400);
            cutNs = SteadyClock::system()->nowNs();
            for (int i : {1, 2, 3})
                m_proxies[i]->setBlackhole(true);
            QTest::qWait(1200);
            healNs = SteadyClock::system()->nowNs();
            for (int i : {1, 2, 3})
                m_proxies[i]->setBlackhole(false);
        });
        expectSafe(run, 5);
        // Cut off from a majority, nobody acquires: only sections from before the cut (plus one attempt's
        // timeout) or after the heal.
        for (const Section& s : run.sections) {
            const bool during = s.acquiredNs > cutNs + 200'000'000 && s.acquiredNs < healNs;
            QVERIFY2(!during, qPrintable(s.client));
        }
        QVERIFY(run.failures > 0);
        expectNothingLeft("contended");
    }

    void crashAndRestartWithFsyncAlways()
    {
        const Run run = contend("contended", [this] {
            QTest::qWait(600);
            QVERIFY(m_cluster.killNode(0)); // AOF, appendfsync always
            QVERIFY(m_cluster.startNode(0));
            QTest::qWait(600);
            QVERIFY(m_cluster.killNode(0));
            QVERIFY(m_cluster.startNode(0));
        });
        expectSafe(run);
        expectNothingLeft("contended");
    }

    void crashWithoutPersistenceRestartedAfterTheDelay()
    {
        const Run run = contend("contended", [this] {
            QTest::qWait(500);
            QVERIFY(m_cluster.killNode(2)); // no persistence: it comes back empty
            // The seeds' rule: stay down longer than the largest TTL, so no lock it granted is still valid.
            QTest::qWait(int(kTtlMs) + 200);
            QVERIFY(m_cluster.startNode(2));
        });
        expectSafe(run);
        expectNothingLeft("contended");
    }

    void clientPausedAfterAcquiringIsFencedOff()
    {
        // thread-0 stops for three TTLs right after its first acquisition, then does its write.
        const Run run = contend("contended", {}, int(3 * kTtlMs));
        expectSafe(run);
        const CheckReport report = checkMutualExclusion(run.sections);
        QVERIFY2(report.lateWrites >= 1, "the paused client wrote late");
        QCOMPARE(report.lateWritesAccepted, 0); // rejected by the resource: a newer fencing token came first
        expectNothingLeft("contended");
    }

    void negativeControlRestartWithoutDelay()
    {
        // The seeds' counterexample, made to happen: A holds nodes 0-2 of 5; node 2 restarts at once without
        // persistence; B then takes 2-4 while A's lock is still valid. The checker must see the overlap.
        IoThread io;
        RedlockOptions o;
        o.nodes = m_cluster.endpoints().mid(0, kNodes);
        o.retryCount = 0;
        o.nodeTimeoutMs = 200;
        auto a = ownedOnIoThread(io, io.create<RedlockClient>(o));
        auto b = ownedOnIoThread(io, io.create<RedlockClient>(o));

        NodeSessionOptions so;
        so.factsIntervalMs = 100;
        auto* session = io.create<NodeSession>(2, m_cluster.endpoint(2), so);
        QList<NodeFacts> seen;
        connect(session, &NodeSession::factsChanged, this, [&seen](const NodeFacts& f) { seen << f; });
        io.runAndWait([session] { session->start(); });
        QTRY_VERIFY(!seen.isEmpty() && !seen.last().runId.isEmpty());

        DirectRedis(m_cluster.port(3)).set("victim", "blocker", 60000);
        DirectRedis(m_cluster.port(4)).set("victim", "blocker", 60000);
        const AcquireResult ra = a->acquireAndWait({"victim"}, {.ttlMs = 5000});
        QVERIFY2(ra.ok, qPrintable(ra.error));
        Section sa{
            QStringLiteral("A"), "victim", SteadyClock::system()->nowNs(), ra.lock.validUntilNs, 0, 0, -1, true, {}};

        QVERIFY(m_cluster.killNode(2));
        QVERIFY(m_cluster.startNode(2)); // no persistence, no delay: A's key on node 2 is gone
        DirectRedis(m_cluster.port(3)).command({"DEL", "victim"});
        DirectRedis(m_cluster.port(4)).command({"DEL", "victim"});
        const AcquireResult rb = b->acquireAndWait({"victim"}, {.ttlMs = 5000});
        QVERIFY2(rb.ok, qPrintable(rb.error)); // the double grant
        Section sb{
            QStringLiteral("B"), "victim", SteadyClock::system()->nowNs(), rb.lock.validUntilNs, 0, 0, -1, true, {}};
        sa.writeNs = sa.exitNs = sb.acquiredNs + 1'000'000; // A is still working inside its validity
        sb.writeNs = sb.exitNs = sb.acquiredNs + 2'000'000;
        QVERIFY(sa.exitNs < sa.validUntilNs);

        const CheckReport report = checkMutualExclusion({sa, sb});
        QCOMPARE(report.overlaps, 1);

        // And the observation audit flags the early restart it watched.
        QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty() && !seen.last().previousRunId.isEmpty(), 10000);
        const auto findings = SafetyAudit::run({{seen.last()}, 5000});
        bool flagged = false;
        for (const AuditFinding& f : findings)
            flagged = flagged || (f.ruleId == u"restart-early" && f.severity == AuditFinding::Severity::Severe);
        QVERIFY(flagged);
        io.runAndWait([session] { delete session; });
        a->releaseAndWait(ra.lock);
        b->releaseAndWait(rb.lock);
    }

    void soak()
    {
        // About a minute of contention while faults come and go (REDLOCK_SOAK_SECONDS for longer runs, see
        // scripts/soak.sh): nothing overlaps, tokens keep increasing, nothing is left behind.
        const int seconds = qEnvironmentVariableIsSet("REDLOCK_SOAK_SECONDS")
                                ? qEnvironmentVariableIntValue("REDLOCK_SOAK_SECONDS")
                                : 60;
        const qint64 endNs = SteadyClock::system()->nowNs() + qint64(seconds) * 1'000'000'000;
        int cycles = 0;
        const Run run = contend(
            "soaked",
            [&] {
                while (SteadyClock::system()->nowNs() + 3'000'000'000LL < endNs) {
                    switch (cycles++ % 4) {
                    case 0: // a paused minority
                        QVERIFY(m_cluster.pauseNode(1));
                        QTest::qWait(700);
                        QVERIFY(m_cluster.resumeNode(1));
                        break;
                    case 1: // a minority partition with a slow third node
                        m_proxies[3]->setBlackhole(true);
                        m_proxies[4]->setBlackhole(true);
                        m_proxies[2]->setLatencyMs(20);
                        QTest::qWait(900);
                        m_proxies[3]->setBlackhole(false);
                        m_proxies[4]->setBlackhole(false);
                        m_proxies[2]->setLatencyMs(0);
                        break;
                    case 2: // the durable node crashes and comes back at once
                        QVERIFY(m_cluster.killNode(0));
                        QVERIFY(m_cluster.startNode(0));
                        break;
                    case 3: // connections cut under the clients' feet
                        for (auto& p : m_proxies)
                            p->cutConnections();
                        break;
                    }
                    QTest::qWait(800);
                }
            },
            0, seconds * 1000);
        qInfo("soak: %d fault cycles, %lld sections, %d failed acquisitions", cycles,
              static_cast<long long>(run.sections.size()), run.failures);
        expectSafe(run, seconds * 5);
        expectNothingLeft("soaked");
    }

    void noLeakedConnections()
    {
        // After every scenario's clients are gone, only this check's own connection is on each node.
        for (int i = 0; i < kNodes; ++i) {
            DirectRedis d(m_cluster.port(i));
            QTRY_COMPARE_WITH_TIMEOUT(d.command({"CLIENT", "LIST"}).str.count('\n'), 1, 10000);
        }
    }

    void cleanupTestCase() { m_proxies.clear(); }
};

QTEST_GUILESS_MAIN(TestMutualExclusion)
#include "TestMutualExclusion.moc"
