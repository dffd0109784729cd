// Force release against real redis-server processes: compare-and-delete with the token the operator saw,
// per-node preview and result, a lock that changed hands is left alone, unreachable nodes, other key types,
// the write-ahead audit log (an intent line on disk before any delete, then the result line; a log that
// cannot be written, synced or appended is an error, in the core and in the CLI), and read-only mode.

#include "operate/AuditLog.h"
#include "operate/ForceRelease.h"
#include "support/DirectRedis.h"
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

        const ForceReleaseReport preview = wait(fr->preview(key, "token-seen"));
        QVERIFY2(!preview.refused, qPrintable(preview.error));
        QCOMPARE(kinds(preview),
                 (QList<Kind>{Kind::WillDelete, Kind::WillDelete, Kind::WillDelete, Kind::TokenChanged, Kind::Gone}));
        QCOMPARE(preview.nodes[3].foundToken, QByteArray("someone-else"));
        QVERIFY(preview.nodes[0].pttlMs > 0);
        QCOMPARE(preview.matched(), 3);
        // A preview writes nothing, not even to the audit log.
        QCOMPARE(valueOn(0, key), std::optional<QByteArray>("token-seen"));
        QVERIFY(!QFile::exists(auditPath()));

        const ForceReleaseReport done = wait(fr->execute(key, "token-seen", QStringLiteral("client crashed")));
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

    void lockThatChangedHandsAfterThePreviewIsUntouched()
    {
        const QByteArray key = "changing-hands";
        setOn({0, 1, 2, 3, 4}, key, "old-holder");
        auto fr = make(m_cluster.endpoints());
        const ForceReleaseReport preview = wait(fr->preview(key, "old-holder"));
        QCOMPARE(preview.matched(), 5);

        // The old lock expires and a new client acquires it on a majority before the operator confirms.
        setOn({0, 1, 2}, key, "new-holder");
        const ForceReleaseReport done = wait(fr->execute(key, "old-holder"));
        QCOMPARE(kinds(done), (QList<Kind>{Kind::TokenChanged, Kind::TokenChanged, Kind::TokenChanged, Kind::Deleted,
                                           Kind::Deleted}));
        for (int i : {0, 1, 2}) {
            QCOMPARE(valueOn(i, key), std::optional<QByteArray>("new-holder"));
            QCOMPARE(done.nodes[i].foundToken, QByteArray("new-holder"));
            QVERIFY(DirectRedis(m_cluster.port(i)).pttl(key) > 0);
        }
        QVERIFY(!DirectRedis(m_cluster.port(3)).exists(key));
        QVERIFY(!forceReleaseKindName(Kind::TokenChanged).isEmpty());

        // Nothing matched at all: nothing is deleted anywhere and the log says so.
        const ForceReleaseReport none = wait(fr->execute(key, "old-holder"));
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
        const ForceReleaseReport preview = wait(fr->preview(key, "tok"));
        QCOMPARE(kinds(preview), (QList<Kind>{Kind::WillDelete, Kind::Unreachable, Kind::WillDelete}));
        QVERIFY(!preview.nodes[1].error.isEmpty());
        QCOMPARE(preview.unreachable(), 1);

        const ForceReleaseReport done = wait(fr->execute(key, "tok"));
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
        const ForceReleaseReport done = wait(fr->execute(key, token));
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
        QFuture<ForceReleaseReport> future = fr->execute(key, "tok");
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
