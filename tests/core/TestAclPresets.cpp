// The documented least-privilege ACL presets against a real server: the monitoring user sees everything
// the console shows and can change nothing; the operator user can also lock, extend and release; every
// refusal names the refused command.

#include "observe/LockInspector.h"
#include "observe/NodeSession.h"
#include "operate/AclPresets.h"
#include "operate/ForceRelease.h"
#include "redlock/RedlockClient.h"
#include "support/DirectRedis.h"
#include "support/TestSupport.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

class TestAclPresets : public QObject
{
    Q_OBJECT

private:
    LocalCluster m_cluster;
    std::unique_ptr<IoThread> m_io;

    QList<NodeEndpoint> as(const QString& user, const QString& password) const
    {
        QList<NodeEndpoint> nodes = m_cluster.endpoints();
        for (auto& n : nodes) {
            n.user = user;
            n.password = password;
        }
        return nodes;
    }

    std::shared_ptr<RedlockClient> client(const QList<NodeEndpoint>& nodes)
    {
        RedlockOptions o;
        o.nodes = nodes;
        o.retryCount = 0;
        o.nodeTimeoutMs = 500;
        return ownedOnIoThread(*m_io, m_io->create<RedlockClient>(o));
    }

private slots:
    void initTestCase()
    {
        LocalNodeOptions o;
        o.notifyKeyspaceEvents = QStringLiteral("Kg$hxe");
        QString error;
        QVERIFY2(m_cluster.start(3, o, &error), qPrintable(error));
        for (int i = 0; i < 3; ++i) {
            DirectRedis d(m_cluster.port(i));
            QList<QByteArray> monitor{"ACL", "SETUSER", "monitor", "reset", "on", ">monitor-pw"};
            monitor << AclPresets::monitoring("locks:*");
            QCOMPARE(d.command(monitor).str, QByteArray("OK"));
            QList<QByteArray> op{"ACL", "SETUSER", "locker", "reset", "on", ">locker-pw"};
            op << AclPresets::lockOperator("locks:*");
            QCOMPARE(d.command(op).str, QByteArray("OK"));
            // A lock written by some service, and a key outside the pattern.
            d.set("locks:order-42", "svc-token", 60000);
            d.set("unrelated", "x", 60000);
        }
        m_io = std::make_unique<IoThread>();
    }

    void cleanupTestCase() { m_io.reset(); }

    void monitoringUserSeesEverything()
    {
        const QList<NodeEndpoint> nodes = as(QStringLiteral("monitor"), QStringLiteral("monitor-pw"));
        NodeSessionOptions so;
        so.factsIntervalMs = 200;
        auto session = ownedOnIoThread(*m_io, m_io->create<NodeSession>(0, nodes[0], so));
        NodeFacts facts;
        connect(session.get(), &NodeSession::factsChanged, this, [&facts](const NodeFacts& f) { facts = f; });
        m_io->runAndWait([s = session.get()] { s->start(); });
        QTRY_VERIFY(facts.infoKnown && !facts.appendFsync.isEmpty() && facts.clockOffsetUs.has_value());
        QVERIFY2(facts.refusedCommands.isEmpty(), qPrintable(facts.refusedCommands.join(u',')));
        QCOMPARE(facts.health, NodeHealth::Up);

        InspectorOptions io;
        io.nodes = nodes;
        io.pattern = "locks:*";
        io.reconcileIntervalMs = 0;
        io.pageScripts = true; // the preset allows the page script
        auto inspector = ownedOnIoThread(*m_io, m_io->create<LockInspector>(io));
        int finished = 0;
        int subscribed = 0;
        QStringList errors;
        QList<ReadPath> readPaths;
        connect(inspector.get(), &LockInspector::inspectionFinished, this, [&](const InspectionSummary& s) {
            ++finished;
            errors << s.errors;
            readPaths = s.readPaths;
        });
        connect(inspector.get(), &LockInspector::keyspaceSubscription, this,
                [&subscribed](int, bool ok, const QString& m) {
                    subscribed += ok ? 1 : 0;
                    if (!ok)
                        qWarning("%s", qPrintable(m));
                });
        m_io->runAndWait([i = inspector.get()] { i->start(); });
        QTRY_VERIFY(finished >= 1);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
        // The preset allows the read-only page script: one command per page, not a few per key.
        QCOMPARE(readPaths, QList<ReadPath>(3, ReadPath::PageScript));
        const LockSnapshot snap = inspector->snapshot();
        QVERIFY(snap.contains("locks:order-42"));
        QCOMPARE(snap.value("locks:order-42").verdict, LockVerdict::Held);
        QVERIFY(!snap.contains("unrelated"));
        QTRY_COMPARE(subscribed, 3);
    }

    void monitoringUserCannotLock()
    {
        auto c = client(as(QStringLiteral("monitor"), QStringLiteral("monitor-pw")));
        const AcquireResult r = c->acquireAndWait({"locks:new"});
        QVERIFY(!r.ok);
        for (const NodeOutcome& o : r.attempts.first().nodes) {
            if (o.kind == NodeOutcome::Kind::NoAnswerYet || o.kind == NodeOutcome::Kind::NotAttempted)
                continue;
            QCOMPARE(o.kind, NodeOutcome::Kind::RedisError);
            QCOMPARE(o.errorKind, RedisErrorKind::NoPermission);
            QVERIFY2(o.error.contains(QStringLiteral("'set'")), qPrintable(o.error)); // names the command
        }
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("locks:new"));
        // The read-only scripts the preset allows (the inspector's page read) cannot write either.
        DirectRedis d(m_cluster.port(0));
        QCOMPARE(d.command({"AUTH", "monitor", "monitor-pw"}).str, QByteArray("OK"));
        const auto written = d.command({"EVAL_RO", "return redis.call('SET', KEYS[1], 'x')", "1", "locks:new"});
        QCOMPARE(written.type, REDIS_REPLY_ERROR);
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists("locks:new"));
    }

    void operatorUserLocksExtendsReleases()
    {
        auto c = client(as(QStringLiteral("locker"), QStringLiteral("locker-pw")));
        const AcquireResult r = c->acquireAndWait({"locks:job-7"}, {.ttlMs = 10000, .fencing = true});
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.lock.fencingToken > 0);
        const ExtendResult e = c->extendAndWait(r.lock, 20000);
        QVERIFY2(e.ok, qPrintable(e.error));
        const ReleaseResult rel = c->releaseAndWait(e.lock);
        QVERIFY2(rel.ok, qPrintable(rel.error));
        QCOMPARE(rel.succeededCount, 3);
        // Multi-resource (the script path) too.
        const AcquireResult multi = c->acquireAndWait({"locks:a", "locks:b"});
        QVERIFY2(multi.ok, qPrintable(multi.error));
        QVERIFY(c->releaseAndWait(multi.lock).ok);
    }

    // The operator's rules cover a force release with lock-delay too: the script reads (GET, PTTL) and writes
    // the tombstone (SET PX) under the caller's ACL.
    void operatorUserForceReleasesWithLockDelay()
    {
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).set("locks:stuck-op", "svc-token", 60000);
        ForceReleaseOptions o;
        o.nodes = as(QStringLiteral("locker"), QStringLiteral("locker-pw"));
        QTemporaryDir dir;
        o.auditLogPath = dir.filePath(QStringLiteral("audit.jsonl"));
        auto fr = ownedOnIoThread(*m_io, m_io->create<ForceRelease>(o));
        QFuture<ForceReleaseReport> future = fr->execute("locks:stuck-op", "svc-token");
        future.waitForFinished();
        const ForceReleaseReport r = future.result();
        QVERIFY2(!r.refused, qPrintable(r.error));
        QCOMPARE(r.count(ForceReleaseNode::Kind::Tombstoned), 3);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("locks:stuck-op"), std::optional<QByteArray>(r.tombstone));
    }

    void operatorUserStaysInsideItsKeys()
    {
        auto c = client(as(QStringLiteral("locker"), QStringLiteral("locker-pw")));
        const AcquireResult r = c->acquireAndWait({"elsewhere"});
        QVERIFY(!r.ok);
        int refused = 0;
        for (const NodeOutcome& o : r.attempts.first().nodes) {
            if (o.kind == NodeOutcome::Kind::RedisError) {
                QCOMPARE(o.errorKind, RedisErrorKind::NoPermission);
                QVERIFY2(o.error.contains(QStringLiteral("key")), qPrintable(o.error));
                ++refused;
            }
        }
        QVERIFY(refused >= 2);
        // Nothing beyond locking: no FLUSHALL, no CONFIG SET.
        RedisConnection conn(as(QStringLiteral("locker"), QStringLiteral("locker-pw"))[0]);
        for (const QList<QByteArray>& cmd :
             {QList<QByteArray>{"FLUSHALL"}, QList<QByteArray>{"CONFIG", "SET", "maxmemory", "1"}}) {
            bool done = false;
            RedisReply reply;
            conn.send(cmd, [&](const RedisReply& rr) {
                reply = rr;
                done = true;
            });
            QTRY_VERIFY(done);
            QCOMPARE(reply.errorKind(), RedisErrorKind::NoPermission);
            QVERIFY2(reply.errorText().contains(QString::fromLatin1(cmd.first().toLower())),
                     qPrintable(reply.errorText()));
        }
        QVERIFY(DirectRedis(m_cluster.port(0)).exists("unrelated"));
    }
};

QTEST_GUILESS_MAIN(TestAclPresets)
#include "TestAclPresets.moc"
