// Force release against real redis-server processes: compare-and-delete with the token the operator saw,
// per-node preview and result, a lock that changed hands is left alone, unreachable nodes, other key types,
// the write-ahead audit log (an intent line on disk before any delete, then the result line; a log that
// cannot be written, synced or appended is an error, in the core and in the CLI), and read-only mode.

#include "operate/AuditLog.h"
#include "operate/ForceRelease.h"
#include "redlock/RedlockClient.h"
#include "redlock/RedlockRules.h"
#include "runtime/SteadyClock.h"
#include "support/DirectRedis.h"
#include "support/FaultProxy.h"
#include "support/NodeActivity.h"
#include "support/TestSupport.h"

#include <QJsonArray>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace redlock;
using Kind = ForceReleaseNode::Kind;

class TestForceRelease : public QObject
{
    Q_OBJECT

private:
    LocalCluster m_cluster;
    std::unique_ptr<IoThread> m_io;
    std::unique_ptr<QTemporaryDir> m_dir;

    QString auditPath() const { return m_dir->filePath(QStringLiteral("audit.jsonl")); }

    std::shared_ptr<ForceRelease> make(const QList<NodeEndpoint>& nodes, bool readOnly = false,
                                       const QString& auditPath = {})
    {
        ForceReleaseOptions o;
        o.nodes = nodes;
        o.readOnly = readOnly;
        o.nodeTimeoutMs = 1000;
        o.profileName = QStringLiteral("test-profile");
        o.auditLogPath = auditPath.isEmpty() ? this->auditPath() : auditPath;
        return ownedOnIoThread(*m_io, m_io->create<ForceRelease>(o));
    }

    static ForceReleaseReport wait(QFuture<ForceReleaseReport> future)
    {
        future.waitForFinished();
        return future.resultCount() > 0 ? future.result() : ForceReleaseReport{};
    }

    QList<Kind> kinds(const ForceReleaseReport& r) const
    {
        QList<Kind> out;
        for (const ForceReleaseNode& n : r.nodes)
            out << n.kind;
        return out;
    }

    void setOn(const QList<int>& nodes, const QByteArray& key, const QByteArray& value)
    {
        for (int i : nodes)
            DirectRedis(m_cluster.port(i)).set(key, value, 60000);
    }

    std::optional<QByteArray> valueOn(int node, const QByteArray& key)
    {
        return DirectRedis(m_cluster.port(node)).get(key);
    }

    std::shared_ptr<RedlockClient> client(const QString& name)
    {
        RedlockOptions o;
        o.nodes = m_cluster.endpoints();
        o.nodeTimeoutMs = 2000; // a loaded 2-core machine; the TTLs below are seconds
        o.retryCount = 0;
        o.clientName = name;
        return ownedOnIoThread(*m_io, m_io->create<RedlockClient>(o));
    }

    // What node-redlock, Redsync and Redisson's plain locks send to acquire: SET key value NX PX ttl, on one
    // node. True when the node took it.
    bool rawSetNx(int node, const QByteArray& key, const QByteArray& value)
    {
        return DirectRedis(m_cluster.port(node)).command({"SET", key, value, "NX", "PX", "10000"}).type ==
               REDIS_REPLY_STATUS;
    }

    int nodesWithKey(const QByteArray& key)
    {
        int n = 0;
        for (int i = 0; i < m_cluster.size(); ++i)
            n += DirectRedis(m_cluster.port(i)).exists(key) ? 1 : 0;
        return n;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(5, {}, &error), qPrintable(error));
        m_io = std::make_unique<IoThread>();
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i)).flushAll();
    }

    void cleanupTestCase() { m_io.reset(); }

    void deletesExactlyWhereTheTokenMatches()
    {
        const QByteArray key = "stuck-lock";
        setOn({0, 1, 2}, key, "token-seen");
        setOn({3}, key, "someone-else");
        auto fr = make(m_cluster.endpoints());

        const ForceReleaseReport preview = wait(fr->preview(key, "token-seen", LockDelay::deleteNow()));
        QVERIFY2(!preview.refused, qPrintable(preview.error));
        QCOMPARE(kinds(preview),
                 (QList<Kind>{Kind::WillDelete, Kind::WillDelete, Kind::WillDelete, Kind::TokenChanged, Kind::Gone}));
        QCOMPARE(preview.nodes[3].foundToken, QByteArray("someone-else"));
        QVERIFY(preview.nodes[0].pttlMs > 0);
        QCOMPARE(preview.matched(), 3);
        // A preview writes nothing, not even to the audit log.
        QCOMPARE(valueOn(0, key), std::optional<QByteArray>("token-seen"));
        QVERIFY(!QFile::exists(auditPath()));

        const ForceReleaseReport done =
            wait(fr->execute(key, "token-seen", QStringLiteral("client crashed"), LockDelay::deleteNow()));
        QVERIFY2(!done.refused, qPrintable(done.error));
        QCOMPARE(kinds(done),
                 (QList<Kind>{Kind::Deleted, Kind::Deleted, Kind::Deleted, Kind::TokenChanged, Kind::Gone}));
        QCOMPARE(done.matched(), 3);
        for (int i : {0, 1, 2})
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists(key));
        QCOMPARE(valueOn(3, key), std::optional<QByteArray>("someone-else"));
        QCOMPARE(done.nodes[3].foundToken, QByteArray("someone-else"));

        QVERIFY2(done.audited, qPrintable(done.auditError));
        int bad = -1;
        const QList<QJsonObject> lines = AuditLog::read(auditPath(), nullptr, &bad);
        QCOMPARE(bad, 0);
        QCOMPARE(lines.size(), 2);
        // First the intent (written before any delete), then the result, tied by the operation id.
        const QJsonObject intent = lines.first();
        QCOMPARE(intent.value(QStringLiteral("action")).toString(), QStringLiteral("force-release-intent"));
        QVERIFY(!done.operationId.isEmpty());
        QCOMPARE(intent.value(QStringLiteral("operation")).toString(), done.operationId);
        QCOMPARE(intent.value(QStringLiteral("reason")).toString(), QStringLiteral("client crashed"));
        QCOMPARE(intent.value(QStringLiteral("endpoints")).toArray().size(), 5);
        QCOMPARE(intent.value(QStringLiteral("token")).toObject().value(QStringLiteral("printable")).toString(),
                 QStringLiteral("token-seen"));
        const QJsonObject line = lines.last();
        QCOMPARE(line.value(QStringLiteral("operation")).toString(), done.operationId);
        QCOMPARE(line.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(line.value(QStringLiteral("profile")).toString(), QStringLiteral("test-profile"));
        QCOMPARE(line.value(QStringLiteral("user")).toString(), AuditLog::osUser());
        QCOMPARE(line.value(QStringLiteral("reason")).toString(), QStringLiteral("client crashed"));
        const QDateTime time = QDateTime::fromString(line.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
        QVERIFY(time.isValid());
        QCOMPARE(time.timeSpec(), Qt::UTC);
        QVERIFY(qAbs(time.msecsTo(QDateTime::currentDateTimeUtc())) < 60000);
        QCOMPARE(
            QByteArray::fromBase64(
                line.value(QStringLiteral("key")).toObject().value(QStringLiteral("base64")).toString().toLatin1()),
            key);
        QCOMPARE(line.value(QStringLiteral("token")).toObject().value(QStringLiteral("printable")).toString(),
                 QStringLiteral("token-seen"));
        const QJsonArray nodes = line.value(QStringLiteral("nodes")).toArray();
        QCOMPARE(nodes.size(), 5);
        QCOMPARE(nodes[0].toObject().value(QStringLiteral("result")).toString(), QStringLiteral("deleted"));
        QCOMPARE(nodes[3].toObject().value(QStringLiteral("result")).toString(), QStringLiteral("token-changed"));
        QCOMPARE(nodes[4].toObject().value(QStringLiteral("result")).toString(), QStringLiteral("gone"));
        QCOMPARE(nodes[1].toObject().value(QStringLiteral("endpoint")).toString(), m_cluster.endpoint(1).displayName());
    }

    void lockDelayParsingAndDefault()
    {
        QCOMPARE(LockDelay{}.mode, LockDelay::Mode::Auto); // the safe default
        QVERIFY(LockDelay::parse(QStringLiteral("auto")) == LockDelay::automatic());
        QVERIFY(LockDelay::parse(QStringLiteral("0")) == LockDelay::deleteNow());
        QVERIFY(LockDelay::parse(QStringLiteral("2500")) == LockDelay::fixed(2500));
        QCOMPARE(LockDelay::fixed(2500).id(), QStringLiteral("2500"));
        QCOMPARE(LockDelay::deleteNow().id(), QStringLiteral("0"));
        QCOMPARE(LockDelay::automatic().id(), QStringLiteral("auto"));
        for (const char* bad : {"", "-1", "1.5", "soon", "604800001"})
            QVERIFY2(!LockDelay::parse(QString::fromLatin1(bad)).has_value(), bad);
        QCOMPARE(LockDelay::automatic().pxFor(10000, 0.01), 10000 + rules::clockDriftMs(10000, 0.01));
        QCOMPARE(LockDelay::automatic().pxFor(-1, 0.01), -1); // no expiry: nothing to measure
        // A fixed lock-delay never ends before the holder's validity plus drift; without expiry it is as given.
        QCOMPARE(LockDelay::fixed(700).pxFor(10000, 0.01), 10000 + rules::clockDriftMs(10000, 0.01));
        QCOMPARE(LockDelay::fixed(70000).pxFor(10000, 0.01), 70000);
        QCOMPARE(LockDelay::fixed(700).pxFor(-1, 0.01), 700);
    }

    // The point of the lock-delay: the stale holder (alive after all: a GC pause, a partition) and a newcomer
    // never overlap. While the tombstones live, the old holder can neither extend nor release, and neither our
    // client nor a raw SET NX PX (node-redlock, Redsync, Redisson's plain locks) can acquire; once they have
    // expired, which is after the old holder's validity, both can.
    void lockDelayKeepsTheStaleHolderAndNewcomersApart()
    {
        const QByteArray key = "orders:12";
        auto stale = client(QStringLiteral("stale-holder"));
        const AcquireResult held = stale->acquireAndWait({key}, AcquireOptions{.ttlMs = 4000, .retryCount = 0});
        QVERIFY2(held.ok, qPrintable(held.error));
        // The acquire is decided once a quorum answers; the last nodes' SETs may still be on their way (a busy
        // machine: the preview then saw 3 holders). Idle: every node answered, all five hold it.
        const QFuture<bool> idle = stale->whenIdle();
        QTRY_VERIFY_WITH_TIMEOUT(idle.isFinished(), 10000);
        QCOMPARE(nodesWithKey(key), 5);
        auto fr = make(m_cluster.endpoints());

        const ForceReleaseReport preview = wait(fr->preview(key, held.lock.token));
        QVERIFY(preview.lockDelay == LockDelay::automatic());
        QCOMPARE(preview.count(Kind::WillTombstone), 5);
        QCOMPARE(preview.matched(), 5);
        QVERIFY(preview.freeInMs > 0 && preview.freeInMs <= 4000 + rules::clockDriftMs(4000, 0.01));
        QVERIFY(preview.freeAtMs() > preview.finishedAtMs);
        QCOMPARE(valueOn(0, key), std::optional<QByteArray>(held.lock.token)); // a preview writes nothing

        const ForceReleaseReport done = wait(fr->execute(key, held.lock.token, QStringLiteral("holder hung")));
        QVERIFY2(!done.refused, qPrintable(done.error));
        QCOMPARE(done.count(Kind::Tombstoned), 5);
        const auto tombstone = LockTombstone::decode(done.tombstone);
        QVERIFY(tombstone.has_value());
        QVERIFY(tombstone->releasedBy.startsWith(AuditLog::osUser() + QLatin1Char('@')));
        QVERIFY(qAbs(tombstone->releasedAtMs - QDateTime::currentMSecsSinceEpoch()) < 60000);
        const qint64 afterNs = SteadyClock::system()->nowNs();
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>(done.tombstone));
            // Each tombstone outlives the validity the stale holder can still believe in.
            QVERIFY2(DirectRedis(m_cluster.port(i)).pttl(key) > held.lock.remainingValidityMs(afterNs),
                     qPrintable(QString::number(i)));
        }

        // The stale holder wakes up: its extend and its release both fail, and leave the tombstone alone.
        const ExtendResult extended = stale->extendAndWait(held.lock, 4000);
        QVERIFY(!extended.ok);
        QCOMPARE(extended.succeededCount, 0);
        const ReleaseResult released = stale->releaseAndWait(held.lock);
        QVERIFY(!released.ok);
        QCOMPARE(released.succeededCount, 0);
        QCOMPARE(nodesWithKey(key), 5);

        // Newcomers are refused: our client ...
        auto newcomer = client(QStringLiteral("newcomer"));
        const AcquireResult early = newcomer->acquireAndWait({key}, AcquireOptions{.ttlMs = 4000, .retryCount = 0});
        QVERIFY(!early.ok);
        QCOMPARE(early.attempts.size(), 1);
        int refusedByTombstone = 0;
        for (const NodeOutcome& n : early.attempts.first().nodes) {
            // The client decides once a quorum is out of reach: the last nodes may not have answered yet.
            QVERIFY(n.kind == NodeOutcome::Kind::HeldByOther || n.kind == NodeOutcome::Kind::NoAnswerYet);
            if (n.kind == NodeOutcome::Kind::HeldByOther && n.holderToken == done.tombstone)
                ++refusedByTombstone;
        }
        QVERIFY(refusedByTombstone >= 5 - rules::quorum(5) + 1); // enough to put a quorum out of reach
        // ... and a raw SET NX PX, on every node.
        for (int i = 0; i < 5; ++i)
            QVERIFY(!rawSetNx(i, key, "a3f1c2d4e5b6a7980011223344556677"));
        QCOMPARE(valueOn(0, key), std::optional<QByteArray>(done.tombstone));

        // After the lock-delay (Redis expires the tombstones; there is no event to wait for in between).
        QTRY_VERIFY_WITH_TIMEOUT(nodesWithKey(key) == 0, 20000);
        QVERIFY(SteadyClock::system()->nowNs() >= held.lock.validUntilNs);
        for (int i = 0; i < 5; ++i)
            QVERIFY(rawSetNx(i, key, "a3f1c2d4e5b6a7980011223344556677"));
        for (int i = 0; i < 5; ++i)
            DirectRedis(m_cluster.port(i)).command({"DEL", key});
        const AcquireResult later = newcomer->acquireAndWait({key}, AcquireOptions{.ttlMs = 4000, .retryCount = 0});
        QVERIFY2(later.ok, qPrintable(later.error));
        QVERIFY(newcomer->releaseAndWait(later.lock).ok);
    }

    // A token that changed between the preview and the execution is left to its new holder, whatever the
    // lock-delay (fixed: the script compares; auto: the read before it does, and the script again).
    void lockDelayLeavesATokenThatChangedUntouched_data()
    {
        QTest::addColumn<LockDelay>("delay");
        QTest::newRow("auto") << LockDelay::automatic();
        QTest::newRow("fixed") << LockDelay::fixed(3000);
    }

    void lockDelayLeavesATokenThatChangedUntouched()
    {
        QFETCH(LockDelay, delay);
        const QByteArray key = "changing-hands-delayed";
        setOn({0, 1, 2, 3, 4}, key, "old-holder");
        auto fr = make(m_cluster.endpoints());
        const ForceReleaseReport preview = wait(fr->preview(key, "old-holder", delay));
        QCOMPARE(preview.count(Kind::WillTombstone), 5);

        setOn({0, 1, 2}, key, "new-holder");
        const ForceReleaseReport done = wait(fr->execute(key, "old-holder", {}, delay));
        QCOMPARE(kinds(done), (QList<Kind>{Kind::TokenChanged, Kind::TokenChanged, Kind::TokenChanged, Kind::Tombstoned,
                                           Kind::Tombstoned}));
        for (int i : {0, 1, 2}) {
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>("new-holder"));
            QCOMPARE(done.nodes[i].foundToken, QByteArray("new-holder"));
            QVERIFY(DirectRedis(m_cluster.port(i)).pttl(key) > 50000); // its own TTL, untouched
        }
        for (int i : {3, 4})
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>(done.tombstone));
        // The new holder keeps a quorum: the lock is not free before its own TTL runs out.
        QVERIFY(done.freeInMs > 50000);
    }

    // Auto: the key's remaining PTTL on each node plus rules::clockDriftMs of it, in the audit log too; a fixed
    // lock-delay is the operator's number; a lock without expiry has nothing to measure and is left alone
    // unless a duration is given.
    void autoLockDelayIsTheRemainingValidityPlusDrift()
    {
        const QByteArray key = "long-lock";
        setOn({0, 1, 2}, key, "tok"); // PX 60000
        auto fr = make(m_cluster.endpoints());
        const ForceReleaseReport preview = wait(fr->preview(key, "tok"));
        QCOMPARE(kinds(preview),
                 (QList<Kind>{Kind::WillTombstone, Kind::WillTombstone, Kind::WillTombstone, Kind::Gone, Kind::Gone}));
        for (int i : {0, 1, 2}) {
            const ForceReleaseNode& n = preview.nodes[i];
            QVERIFY(n.pttlMs > 0);
            QCOMPARE(n.lockDelayMs, n.pttlMs + rules::clockDriftMs(n.pttlMs, 0.01));
        }
        // Three tombstones of five: a newcomer needs one of them gone, the shortest.
        QCOMPARE(preview.freeInMs,
                 std::min({preview.nodes[0].lockDelayMs, preview.nodes[1].lockDelayMs, preview.nodes[2].lockDelayMs}));

        const ForceReleaseReport done = wait(fr->execute(key, "tok"));
        QCOMPARE(done.count(Kind::Tombstoned), 3);
        for (int i : {0, 1, 2}) {
            const ForceReleaseNode& n = done.nodes[i];
            // Measured on the PTTL the script itself read (whatever time passed since the SET), plus its drift:
            // longer than the holder's own remaining validity, never longer than the lock's TTL plus drift.
            QVERIFY2(n.pttlMs > 0 && n.pttlMs <= 60000, qPrintable(QString::number(n.pttlMs)));
            QCOMPARE(n.lockDelayMs, n.pttlMs + rules::clockDriftMs(n.pttlMs, 0.01));
            QVERIFY(n.lockDelayMs > n.pttlMs);
            const qint64 tombstonePttl = DirectRedis(m_cluster.port(i)).pttl(key);
            QVERIFY2(tombstonePttl > 0 && tombstonePttl <= n.lockDelayMs, qPrintable(QString::number(tombstonePttl)));
        }
        const QList<QJsonObject> lines = AuditLog::read(auditPath());
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.first().value(QStringLiteral("lockDelay")).toString(), QStringLiteral("auto"));
        QCOMPARE(lines.first().value(QStringLiteral("tombstone")).toString(), QString::fromLatin1(done.tombstone));
        const QJsonObject result = lines.last();
        QCOMPARE(result.value(QStringLiteral("lockDelay")).toString(), QStringLiteral("auto"));
        QCOMPARE(result.value(QStringLiteral("tombstoned")).toInt(), 3);
        QCOMPARE(result.value(QStringLiteral("lockDelayMs")).toInteger(), done.longestLockDelayMs());
        QCOMPARE(
            result.value(QStringLiteral("nodes")).toArray()[0].toObject().value(QStringLiteral("result")).toString(),
            QStringLiteral("tombstoned"));
        QCOMPARE(result.value(QStringLiteral("nodes"))
                     .toArray()[1]
                     .toObject()
                     .value(QStringLiteral("lockDelayMs"))
                     .toInteger(),
                 done.nodes[1].lockDelayMs);
        const QDateTime freeAt =
            QDateTime::fromString(result.value(QStringLiteral("freeAt")).toString(), Qt::ISODateWithMs);
        QVERIFY(freeAt.isValid());
        QCOMPARE(freeAt.toMSecsSinceEpoch(), done.freeAtMs());

        // Fixed, longer than the lock's validity: the operator's duration on every node.
        const QByteArray fixedKey = "fixed-lock";
        setOn({0, 1, 2}, fixedKey, "tok");
        const ForceReleaseReport fixed = wait(fr->execute(fixedKey, "tok", {}, LockDelay::fixed(90000)));
        QCOMPARE(fixed.count(Kind::Tombstoned), 3);
        QCOMPARE(fixed.nodes[0].lockDelayMs, 90000);
        QCOMPARE(fixed.lockDelayRaisedCount(), 0);
        QVERIFY(DirectRedis(m_cluster.port(0)).pttl(fixedKey) <= 90000);
        QVERIFY(DirectRedis(m_cluster.port(0)).pttl(fixedKey) > 60000);

        // No expiry: auto cannot measure anything and changes nothing; a given duration works.
        const QByteArray stuck = "stuck-lock";
        for (int i : {0, 1, 2})
            DirectRedis(m_cluster.port(i)).set(stuck, "tok");
        QCOMPARE(wait(fr->preview(stuck, "tok")).count(Kind::NoExpiry), 3);
        const ForceReleaseReport refused = wait(fr->execute(stuck, "tok"));
        QCOMPARE(refused.count(Kind::NoExpiry), 3);
        QCOMPARE(refused.matched(), 0);
        QCOMPARE(refused.freeInMs, -1);
        QCOMPARE(valueOn(0, stuck), std::optional<QByteArray>("tok"));
        QCOMPARE(DirectRedis(m_cluster.port(0)).pttl(stuck), -1);
        const ForceReleaseReport given = wait(fr->execute(stuck, "tok", {}, LockDelay::fixed(2000)));
        QCOMPARE(given.count(Kind::Tombstoned), 3);
        QVERIFY(DirectRedis(m_cluster.port(0)).pttl(stuck) > 0);
    }

    // A fixed lock-delay shorter than the lock's remaining validity would free the lock while its (paused, not
    // dead) holder still believes it holds it: the tombstone is raised to the PTTL plus drift on each node, in
    // the atomic script (so an extension just before counts), and the preview and result say so per node.
    void fixedLockDelayNeverEndsBeforeTheHoldersValidity()
    {
        const QByteArray key = "five-minutes-left";
        for (int i : {0, 1, 2})
            DirectRedis(m_cluster.port(i)).set(key, "tok", 300000);
        DirectRedis(m_cluster.port(3)).set(key, "tok", 10000); // shorter than the fixed value: kept as given
        auto fr = make(m_cluster.endpoints());
        const ForceReleaseReport preview = wait(fr->preview(key, "tok", LockDelay::fixed(30000)));
        QCOMPARE(preview.matched(), 4);
        QCOMPARE(preview.lockDelayRaisedCount(), 3);
        for (int i : {0, 1, 2}) {
            const ForceReleaseNode& n = preview.nodes[i];
            QVERIFY(n.lockDelayRaised);
            QCOMPARE(n.lockDelayMs, n.pttlMs + rules::clockDriftMs(n.pttlMs, 0.01));
        }
        QVERIFY(!preview.nodes[3].lockDelayRaised);
        QCOMPARE(preview.nodes[3].lockDelayMs, 30000);
        // Free once a third node's tombstone is gone: not before the holder's validity.
        QVERIFY2(preview.freeInMs > 290000, qPrintable(QString::number(preview.freeInMs)));

        const ForceReleaseReport done = wait(fr->execute(key, "tok", {}, LockDelay::fixed(30000)));
        QCOMPARE(done.count(Kind::Tombstoned), 4);
        QCOMPARE(done.lockDelayRaisedCount(), 3);
        for (int i : {0, 1, 2}) {
            QVERIFY(done.nodes[i].lockDelayRaised);
            QVERIFY2(done.nodes[i].lockDelayMs > 300000, qPrintable(QString::number(done.nodes[i].lockDelayMs)));
            QVERIFY(DirectRedis(m_cluster.port(i)).pttl(key) > 290000);
        }
        QVERIFY(!done.nodes[3].lockDelayRaised);
        QCOMPARE(done.nodes[3].lockDelayMs, 30000);
        QVERIFY2(done.freeInMs > 290000, qPrintable(QString::number(done.freeInMs)));
        const QJsonObject result = AuditLog::read(auditPath()).last();
        QCOMPARE(result.value(QStringLiteral("lockDelay")).toString(), QStringLiteral("30000"));
        const QJsonArray nodes = result.value(QStringLiteral("nodes")).toArray();
        QVERIFY(nodes[0].toObject().value(QStringLiteral("lockDelayRaised")).toBool());
        QVERIFY(!nodes[3].toObject().contains(QStringLiteral("lockDelayRaised")));
    }

    // The holder extends its lock (30 s to 10 min) after the PTTL was read and before the script runs: the
    // tombstone covers the extended validity plus the drift on it (6 s), not the drift on the PTTL read before
    // (0.3 s). Node 0 is reached through a proxy that holds its replies: the release's read has run there (the node
    // reports it, MONITOR) and waits for its answer while the holder extends; then the answer goes through and the
    // script follows.
    void driftIsTakenOnThePttlTheScriptSees()
    {
        const QByteArray key = "extended-meanwhile";
        for (int i : {0, 1, 2})
            DirectRedis(m_cluster.port(i)).set(key, "tok", 30000);
        FaultProxy proxy(m_cluster.port(0));
        QList<NodeEndpoint> nodes = m_cluster.endpoints().mid(0, 3);
        nodes[0].port = proxy.port();
        ForceReleaseOptions o;
        o.nodes = nodes;
        o.nodeTimeoutMs = 10000;
        o.profileName = QStringLiteral("test-profile");
        o.auditLogPath = auditPath();
        auto fr = ownedOnIoThread(*m_io, m_io->create<ForceRelease>(o));
        // Connected (and the preview read) before the replies are held.
        const ForceReleaseReport preview = wait(fr->preview(key, "tok"));
        QCOMPARE(preview.nodes[0].kind, Kind::WillTombstone);
        QVERIFY(preview.nodes[0].pttlMs <= 30000);
        NodeMonitor monitor(m_cluster.port(0));
        QVERIFY(monitor.ok());
        proxy.setHoldReplies(true);

        QFuture<ForceReleaseReport> release = fr->execute(key, "tok");
        QVERIFY(monitor.readUntil([&key](const NodeMonitor::Command& c) {
            return c.source != "lua" && c.name() == "PTTL" && c.args.value(1) == key;
        }));
        QCOMPARE(DirectRedis(m_cluster.port(0)).command({"PEXPIRE", key, "600000"}).integer, 1);
        proxy.setHoldReplies(false);
        const ForceReleaseReport done = wait(release);
        const ForceReleaseNode& n = done.nodes[0];
        QCOMPARE(n.kind, Kind::Tombstoned);
        // Measured on the extended PTTL, the one the script saw, with the drift on it.
        QVERIFY2(n.pttlMs > 590000, qPrintable(QString::number(n.pttlMs)));
        QCOMPARE(n.lockDelayMs, n.pttlMs + rules::clockDriftMs(n.pttlMs, 0.01));
        const qint64 tombstonePttl = DirectRedis(m_cluster.port(0)).pttl(key);
        QVERIFY2(tombstonePttl > 600000 + 3000, qPrintable(QString::number(tombstonePttl)));
        // The nodes that were not extended: their own PTTL plus its drift.
        for (int i : {1, 2}) {
            QVERIFY(done.nodes[i].pttlMs > 0 && done.nodes[i].pttlMs <= 30000);
            QCOMPARE(done.nodes[i].lockDelayMs, done.nodes[i].pttlMs + rules::clockDriftMs(done.nodes[i].pttlMs, 0.01));
        }
    }

    // U4: the lock changes hands on a node between force release's own read of the token there and its write: the
    // new holder's lock is left alone, in delete-now and in lock-delay modes, because the write is one script that
    // compares and writes atomically; and no node ever gets a write outside a script from it (no bare DEL). Node 0
    // is reached through a proxy that holds its replies: once the node has run the release's token read (its GET,
    // or the script when that is the first thing it sends), a new holder takes the key there, then the release
    // hears its answer and goes on. A GET, compare, DEL sequence would delete the new holder's lock here.
    void aLockThatChangesHandsBetweenTheReadAndTheWriteIsLeftAlone_data()
    {
        QTest::addColumn<LockDelay>("delay");
        QTest::newRow("delete-now") << LockDelay::deleteNow();
        QTest::newRow("lock-delay auto") << LockDelay::automatic();
        QTest::newRow("lock-delay fixed") << LockDelay::fixed(90000);
    }
    void aLockThatChangesHandsBetweenTheReadAndTheWriteIsLeftAlone()
    {
        QFETCH(LockDelay, delay);
        const QByteArray key = "changes-hands-midway";
        setOn({0, 1, 2}, key, "old-holder");
        FaultProxy proxy(m_cluster.port(0));
        QList<NodeEndpoint> nodes = m_cluster.endpoints().mid(0, 3);
        nodes[0].port = proxy.port();
        ForceReleaseOptions o;
        o.nodes = nodes;
        o.nodeTimeoutMs = 10000;
        o.auditLogPath = auditPath();
        auto fr = ownedOnIoThread(*m_io, m_io->create<ForceRelease>(o));
        QCOMPARE(wait(fr->preview(key, "old-holder", delay)).matched(), 3); // connected before the hold
        std::vector<std::unique_ptr<NodeMonitor>> monitors;
        for (int i = 0; i < 3; ++i) {
            monitors.push_back(std::make_unique<NodeMonitor>(m_cluster.port(i)));
            QVERIFY(monitors.back()->ok());
        }
        proxy.setHoldReplies(true);

        QFuture<ForceReleaseReport> release = fr->execute(key, "old-holder", {}, delay);
        const auto read = monitors[0]->readUntil([&key](const NodeMonitor::Command& c) {
            return c.source != "lua" && (c.name() == "GET" || c.name().startsWith("EVAL")) && c.args.contains(key);
        });
        QVERIFY(read);
        const QByteArray releaseClient = read->last().source;
        DirectRedis(m_cluster.port(0)).set(key, "new-holder", 60000);
        proxy.setHoldReplies(false);
        const ForceReleaseReport done = wait(release);
        QVERIFY2(!done.refused, qPrintable(done.error));

        QCOMPARE(valueOn(0, key), std::optional<QByteArray>("new-holder"));
        if (delay.mode == LockDelay::Mode::Delete && read->last().name().startsWith("EVAL")) {
            // The compare-and-delete is the release's only command: it ran, whole, before the new holder came.
            QCOMPARE(done.nodes[0].kind, Kind::Deleted);
        } else {
            QCOMPARE(done.nodes[0].kind, Kind::TokenChanged);
            QCOMPARE(done.nodes[0].foundToken, QByteArray("new-holder"));
        }
        for (int i : {1, 2})
            QCOMPARE(done.nodes[i].kind, delay.mode == LockDelay::Mode::Delete ? Kind::Deleted : Kind::Tombstoned);

        // What each node ran for the release: writes only inside its scripts.
        static const QList<QByteArray> writes{"DEL",    "UNLINK",  "GETDEL",  "SET",    "GETSET", "SETEX", "PSETEX",
                                              "EXPIRE", "PEXPIRE", "PERSIST", "RENAME", "MSET",   "GETEX"};
        for (int i = 0; i < 3; ++i) {
            QList<NodeMonitor::Command> ran = monitors[i]->readAll();
            if (i == 0)
                ran = *read + ran;
            int scripts = 0;
            for (const NodeMonitor::Command& c : std::as_const(ran)) {
                if (c.source == "lua")
                    continue;
                if (i == 0 && c.source != releaseClient)
                    continue; // the new holder's SET
                scripts += c.name().startsWith("EVAL") ? 1 : 0;
                QVERIFY2(!writes.contains(c.name()), qPrintable(QStringLiteral("node %1 got %2 from the release")
                                                                    .arg(i)
                                                                    .arg(QString::fromLatin1(c.args.join(' ')))));
            }
            QVERIFY(scripts >= 1);
        }
    }

    void lockThatChangedHandsAfterThePreviewIsUntouched()
    {
        const QByteArray key = "changing-hands";
        setOn({0, 1, 2, 3, 4}, key, "old-holder");
        auto fr = make(m_cluster.endpoints());
        const ForceReleaseReport preview = wait(fr->preview(key, "old-holder", LockDelay::deleteNow()));
        QCOMPARE(preview.matched(), 5);

        // The old lock expires and a new client acquires it on a majority before the operator confirms.
        setOn({0, 1, 2}, key, "new-holder");
        const ForceReleaseReport done = wait(fr->execute(key, "old-holder", {}, LockDelay::deleteNow()));
        QCOMPARE(kinds(done), (QList<Kind>{Kind::TokenChanged, Kind::TokenChanged, Kind::TokenChanged, Kind::Deleted,
                                           Kind::Deleted}));
        for (int i : {0, 1, 2}) {
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>("new-holder"));
            QCOMPARE(done.nodes[i].foundToken, QByteArray("new-holder"));
            QVERIFY(DirectRedis(m_cluster.port(i)).pttl(key) > 0);
        }
        QVERIFY(!DirectRedis(m_cluster.port(3)).exists(key));

        // Nothing matched at all: nothing is deleted anywhere and the log says so.
        const ForceReleaseReport none = wait(fr->execute(key, "old-holder", {}, LockDelay::deleteNow()));
        QCOMPARE(none.matched(), 0);
        QCOMPARE(valueOn(0, key), std::optional<QByteArray>("new-holder"));
        const QList<QJsonObject> lines = AuditLog::read(auditPath());
        QCOMPARE(lines.size(), 4); // intent and result, twice
        QCOMPARE(lines.last().value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(lines.last().value(QStringLiteral("deleted")).toInt(), 0);
    }

    void unreachableNodeIsReported()
    {
        const QByteArray key = "with-a-dead-node";
        setOn({0, 2}, key, "tok");
        QList<NodeEndpoint> nodes = m_cluster.endpoints().mid(0, 3);
        nodes[1] = downEndpoint();
        auto fr = make(nodes);
        const ForceReleaseReport preview = wait(fr->preview(key, "tok", LockDelay::deleteNow()));
        QCOMPARE(kinds(preview), (QList<Kind>{Kind::WillDelete, Kind::Unreachable, Kind::WillDelete}));
        QVERIFY(!preview.nodes[1].error.isEmpty());
        QCOMPARE(preview.unreachable(), 1);

        const ForceReleaseReport done = wait(fr->execute(key, "tok", {}, LockDelay::deleteNow()));
        QCOMPARE(kinds(done), (QList<Kind>{Kind::Deleted, Kind::Unreachable, Kind::Deleted}));
        QVERIFY(!done.nodes[1].error.isEmpty());
        const QJsonArray logged = AuditLog::read(auditPath()).last().value(QStringLiteral("nodes")).toArray();
        QCOMPARE(logged[1].toObject().value(QStringLiteral("result")).toString(), QStringLiteral("unreachable"));
    }

    void otherTypesAreRefusedAndLeftAlone()
    {
        // A Redisson RLock: a hash at the lock name. Not handled: reported, never deleted.
        const QByteArray key = "redisson-lock";
        for (int i = 0; i < 3; ++i) {
            DirectRedis r(m_cluster.port(i));
            r.command({"HSET", key, "b5a3c1d2-0000-4000-8000-000000000001:1", "1"});
            r.command({"PEXPIRE", key, "60000"});
        }
        auto fr = make(m_cluster.endpoints().mid(0, 3));
        const QByteArray token = "b5a3c1d2-0000-4000-8000-000000000001:1";
        const ForceReleaseReport preview = wait(fr->preview(key, token));
        QCOMPARE(kinds(preview), (QList<Kind>{Kind::OtherType, Kind::OtherType, Kind::OtherType}));
        QCOMPARE(preview.nodes[0].foundType, QStringLiteral("hash"));
        QVERIFY(preview.nodes[0].error.contains(QStringLiteral("Redisson")));
        const ForceReleaseReport done = wait(fr->execute(key, token));
        QCOMPARE(kinds(done), (QList<Kind>{Kind::OtherType, Kind::OtherType, Kind::OtherType}));
        for (int i = 0; i < 3; ++i)
            QVERIFY(DirectRedis(m_cluster.port(i)).exists(key));
    }

    void binaryKeysAndTokens()
    {
        const QByteArray key("bin\0key\nwith\xff", 13);
        const QByteArray token("tok\0\x01", 5);
        setOn({0, 1, 2}, key, token);
        auto fr = make(m_cluster.endpoints().mid(0, 3));
        const ForceReleaseReport done = wait(fr->execute(key, token, {}, LockDelay::deleteNow()));
        QCOMPARE(done.matched(), 3);
        const QJsonObject line = AuditLog::read(auditPath()).first();
        const QJsonObject k = line.value(QStringLiteral("key")).toObject();
        QCOMPARE(QByteArray::fromBase64(k.value(QStringLiteral("base64")).toString().toLatin1()), key);
        QVERIFY(!k.value(QStringLiteral("printable")).toString().contains(QChar(u'\n')));
        QCOMPARE(
            QByteArray::fromBase64(
                line.value(QStringLiteral("token")).toObject().value(QStringLiteral("base64")).toString().toLatin1()),
            token);
    }

    void refusals()
    {
        const QByteArray key = "refused-lock";
        setOn({0, 1, 2}, key, "tok");
        auto fr = make(m_cluster.endpoints().mid(0, 3));
        const ForceReleaseReport noToken = wait(fr->execute(key, {}));
        QVERIFY(noToken.refused);
        QCOMPARE(kinds(noToken), (QList<Kind>{Kind::NotAttempted, Kind::NotAttempted, Kind::NotAttempted}));
        QVERIFY(wait(fr->execute({}, "tok")).refused);

        // No audit trail, no deletion.
        QFile blocker(m_dir->filePath(QStringLiteral("not-a-dir")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        auto unaudited =
            make(m_cluster.endpoints().mid(0, 3), false, blocker.fileName() + QStringLiteral("/audit.jsonl"));
        const ForceReleaseReport r = wait(unaudited->execute(key, "tok"));
        QVERIFY(r.refused);
        QVERIFY(r.error.contains(QStringLiteral("audit")));
        QCOMPARE(valueOn(0, key), std::optional<QByteArray>("tok"));

        QList<NodeEndpoint> duplicate{m_cluster.endpoint(0), m_cluster.endpoint(0)};
        auto dup = make(duplicate);
        QVERIFY(!dup->configErrors().isEmpty());
        QVERIFY(wait(dup->preview(key, "tok")).refused);
    }

    void nothingIsDeletedWhenTheIntentCannotBeWritten()
    {
        const QByteArray key = "unlogged-lock";
        setOn({0, 1, 2}, key, "tok");
        // A device that is always full: the file opens, the write fails (ENOSPC).
        auto full = make(m_cluster.endpoints().mid(0, 3), false, QStringLiteral("/dev/full"));
        const ForceReleaseReport r = wait(full->execute(key, "tok"));
        QVERIFY(r.refused);
        QVERIFY2(r.error.contains(QStringLiteral("nothing was deleted")) &&
                     r.error.contains(QStringLiteral("/dev/full")),
                 qPrintable(r.error));
        QCOMPARE(kinds(r), (QList<Kind>{Kind::NotAttempted, Kind::NotAttempted, Kind::NotAttempted}));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>("tok"));

        // A FIFO (with a reader, so it opens and takes the write): fsync fails (EINVAL), and that counts.
        const QString fifo = m_dir->filePath(QStringLiteral("audit.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const int reader = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        auto unsynced = make(m_cluster.endpoints().mid(0, 3), false, fifo);
        const ForceReleaseReport notSynced = wait(unsynced->execute(key, "tok"));
        ::close(reader);
        QVERIFY(notSynced.refused);
        QVERIFY2(notSynced.error.contains(QStringLiteral("sync")), qPrintable(notSynced.error));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>("tok"));
    }

    void aResultLineThatCannotBeWrittenIsReported()
    {
        // The intent goes to the log; while a node is paused (the deletes wait for it), the log is replaced by
        // a full device, so the result line fails after the deletes ran.
        const QByteArray key = "half-logged-lock";
        setOn({0, 1, 2}, key, "tok");
        ForceReleaseOptions o;
        o.nodes = m_cluster.endpoints().mid(0, 3);
        o.nodeTimeoutMs = 10000;
        o.auditLogPath = auditPath();
        auto fr = ownedOnIoThread(*m_io, m_io->create<ForceRelease>(o));
        QVERIFY(m_cluster.pauseNode(2));
        auto resume = qScopeGuard([this] { m_cluster.resumeNode(2); });
        QFuture<ForceReleaseReport> future = fr->execute(key, "tok", {}, LockDelay::deleteNow());
        QTRY_VERIFY_WITH_TIMEOUT(AuditLog::read(auditPath()).size() == 1, 5000);
        QCOMPARE(AuditLog::read(auditPath()).first().value(QStringLiteral("action")).toString(),
                 QStringLiteral("force-release-intent"));
        QVERIFY(QFile::remove(auditPath()));
        QVERIFY(QFile::link(QStringLiteral("/dev/full"), auditPath()));
        QVERIFY(m_cluster.resumeNode(2));
        const ForceReleaseReport r = wait(future);
        QVERIFY2(!r.refused, qPrintable(r.error));
        QCOMPARE(r.matched(), 3);
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists(key));
        QVERIFY(!r.audited);
        QVERIFY2(r.auditError.contains(QStringLiteral("cannot write")), qPrintable(r.auditError));
    }

    void cliSaysSoWhenTheAuditLogCannotBeWritten()
    {
        const QByteArray key = "cli-unlogged";
        setOn({0, 1, 2}, key, "tok");
        QStringList nodes;
        for (int i = 0; i < 3; ++i)
            nodes << m_cluster.endpoint(i).displayName();
        QProcess cli;
        cli.start(QStringLiteral(REDLOCK_CLI_PATH),
                  {QStringLiteral("force-release"), QStringLiteral("--nodes"), nodes.join(u','),
                   QStringLiteral("--token"), QStringLiteral("tok"), QStringLiteral("--yes"),
                   QStringLiteral("--audit-log"), QStringLiteral("/dev/full"), QString::fromUtf8(key)});
        QVERIFY(cli.waitForFinished(20000));
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QVERIFY2(cli.exitCode() == 2, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("nothing was deleted")), qPrintable(err));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>("tok"));
    }

    void readOnlyRefusesAndLogsNothing()
    {
        const QByteArray key = "read-only-lock";
        setOn({0, 1, 2}, key, "tok");
        auto fr = make(m_cluster.endpoints().mid(0, 3), true);
        // Looking is allowed ...
        QCOMPARE(wait(fr->preview(key, "tok")).matched(), 3);
        // ... deleting is not, whoever calls.
        QSignalSpy spy(fr.get(), &ForceRelease::executeFinished);
        const ForceReleaseReport r = wait(fr->execute(key, "tok"));
        QVERIFY(r.refused);
        QVERIFY(r.error.contains(QStringLiteral("read-only")));
        QCOMPARE(r.matched(), 0);
        QCOMPARE(kinds(r), (QList<Kind>{Kind::NotAttempted, Kind::NotAttempted, Kind::NotAttempted}));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>("tok"));
        QVERIFY(!QFile::exists(auditPath()));
        QTRY_COMPARE(spy.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestForceRelease)
#include "TestForceRelease.moc"
