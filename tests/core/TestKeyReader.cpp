// KeyReader's two ways of reading a page of lock keys on a real redis-server: one read-only script per page
// (EVALSHA_RO) and the per-key commands (MGET + PTTL, TYPE + GET + HGETALL for the rest). Both must observe
// the same thing for every kind of key, and a node that refuses the script is read per key and says so.

#include "observe/KeyReader.h"
#include "operate/AclPresets.h"
#include "support/DirectRedis.h"
#include "support/TestSupport.h"

#include <QtTest>

using namespace redlock;

namespace {

constexpr qint64 kTtlMs = 600000;

QByteArray printable(const QByteArray& bytes)
{
    return bytes.toPercentEncoding();
}

} // namespace

class TestKeyReader : public QObject
{
    Q_OBJECT

private:
    LocalCluster m_cluster;
    QList<QByteArray> m_keys;

    struct Reader
    {
        std::shared_ptr<bool> alive = std::make_shared<bool>(true);
        std::unique_ptr<RedisConnection> connection;
        std::unique_ptr<KeyReader> keys;
        qint64 commands = 0;

        ~Reader() { *alive = false; } // before the connection fails what is pending
    };

    std::unique_ptr<Reader> reader(bool pageScripts, bool onlyLockFormats, const QString& user = {},
                                   const QString& password = {})
    {
        auto r = std::make_unique<Reader>();
        NodeEndpoint endpoint = m_cluster.endpoint(0);
        endpoint.user = user;
        endpoint.password = password;
        r->connection = std::make_unique<RedisConnection>(endpoint, ConnectionOptions{});
        // Pages of 7 keys: the set spans several pages, read at once.
        r->keys = std::make_unique<KeyReader>(
            r->connection.get(), 0, 7, 5000, SteadyClock::system(), r->alive,
            KeyReader::Hooks{[c = &r->commands](qint64 n, bool) { *c += n; }, [](qint64) {}}, onlyLockFormats);
        r->keys->setPageScripts(pageScripts);
        r->connection->open();
        return r;
    }

    static QList<KeyRead> readAll(Reader& r, const QList<QByteArray>& keys)
    {
        bool done = false;
        QList<KeyRead> reads;
        r.keys->read(keys, true, [&](QList<KeyRead> got) {
            reads = std::move(got);
            done = true;
        });
        if (!QTest::qWaitFor([&done] { return done; }, 15000))
            qWarning("the reads did not complete");
        return reads;
    }

    // Identical observations: everything but the instant of the read, and the PTTL only as far as the two reads
    // moments apart can agree (both none, both absent, or both counting down from the TTL the test set).
    static void compareReads(const QList<KeyRead>& script, const QList<KeyRead>& perKey)
    {
        QCOMPARE(script.size(), perKey.size());
        for (qsizetype i = 0; i < script.size(); ++i) {
            const KeyRead& a = script[i];
            const KeyRead& b = perKey[i];
            const QByteArray what = printable(a.key);
            QVERIFY2(a.key == b.key, what.constData());
            QVERIFY2(a.node == b.node, what.constData());
            QVERIFY2(a.state.presence == b.state.presence, what.constData());
            QVERIFY2(a.state.token == b.state.token,
                     QByteArray(what + " token " + printable(a.state.token) + " vs " + printable(b.state.token))
                         .constData());
            QVERIFY2(a.state.hashFields == b.state.hashFields, what.constData());
            QVERIFY2(a.state.note == b.state.note,
                     qPrintable(QString::fromLatin1(what) + u": " + a.state.note + u" vs " + b.state.note));
            QVERIFY2(a.skip == b.skip, what.constData());
            QVERIFY2(a.nodeFailed == b.nodeFailed, what.constData());
            const bool aCounting = a.state.pttlMs > 0 && a.state.pttlMs <= kTtlMs;
            const bool bCounting = b.state.pttlMs > 0 && b.state.pttlMs <= kTtlMs;
            QVERIFY2(a.state.pttlMs == b.state.pttlMs || (aCounting && bCounting),
                     qPrintable(QString::fromLatin1(what) +
                                QStringLiteral(": PTTL %1 vs %2").arg(a.state.pttlMs).arg(b.state.pttlMs)));
        }
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(1, {}, &error), qPrintable(error));
        DirectRedis d(m_cluster.port(0));
        const QByteArray ttl = QByteArray::number(kTtlMs);
        const QByteArray token = "rl1:" + QByteArray(32, 'a') + ":1:svc:";
        auto set = [&](const QByteArray& key, const QByteArray& value, bool expires) {
            if (expires)
                d.command({"SET", key, value, "PX", ttl});
            else
                d.command({"SET", key, value});
            m_keys << key;
        };
        auto hash = [&](const QByteArray& key, const QList<QByteArray>& fieldsAndValues, bool expires) {
            QList<QByteArray> command{"HSET", key};
            command << fieldsAndValues;
            d.command(command);
            if (expires)
                d.command({"PEXPIRE", key, ttl});
            m_keys << key;
        };
        // Plain locks: a lock library's format and an opaque token.
        for (int i = 0; i < 10; ++i)
            set("lk:plain:" + QByteArray::number(i), token + QByteArray::number(i), true);
        set("lk:opaque", "7f3c2a", true);
        set("lk:empty-value", "", true);
        set("lk:binary-value", QByteArray("\x00\xff\r\n\"'", 6), true);
        // No expiry: a lock that never expires (lock-like) and application data (not).
        set("lk:forever", token + "forever", false);
        set("lk:data-no-ttl", "plain data", false);
        // Redisson: RLock (a holder field), RReadWriteLock (mode + holders), with and without TTL; a plain hash.
        hash("lk:redisson", {"6a1f0b3c-8d2e-4c5a-9b7d-1e2f3a4b5c6d:1", "1"}, true);
        hash("lk:redisson-rw",
             {"mode", "read", "6a1f0b3c-8d2e-4c5a-9b7d-1e2f3a4b5c6d:7", "2", "0e9d8c7b-6a5f-4e3d-2c1b-0a9f8e7d6c5b:3",
              "1"},
             true);
        hash("lk:redisson-forever", {"6a1f0b3c-8d2e-4c5a-9b7d-1e2f3a4b5c6d:2", "1"}, false);
        hash("lk:profile", {"name", "bob", "age", "7"}, true);
        // Other types.
        d.command({"RPUSH", "lk:list", "a", "b"});
        d.command({"PEXPIRE", "lk:list", ttl});
        m_keys << "lk:list";
        d.command({"SADD", "lk:set", "x"});
        m_keys << "lk:set";
        // Hostile names: NUL, bytes that are no UTF-8, CR LF, glob and Lua syntax, a very long one.
        set(QByteArray("lk:\x00nul", 7), token + "nul", true);
        set("lk:\xff\xfe", token + "ff", true);
        set("lk:\r\n*?[]", token + "crlf", true);
        set("lk:]]--\"'\\", "lua", true);
        set("lk:" + QByteArray(2000, 'x'), token + "long", true);
        // Gone between SCAN and the read: names the reader is given whose keys are not there (deleted, expired).
        set("lk:deleted", token + "deleted", true);
        d.command({"DEL", "lk:deleted"});
        m_keys << "lk:never-there" << QByteArray("lk:gone\x00", 8);
        QVERIFY(m_keys.size() > 3 * 7); // several pages
    }

    void pathsObserveAlike_data()
    {
        QTest::addColumn<bool>("onlyLockFormats");
        QTest::newRow("pattern names locks") << false;
        QTest::newRow("pattern names no lock") << true;
    }

    void pathsObserveAlike()
    {
        QFETCH(bool, onlyLockFormats);
        // The page script is loaded on the first NOSCRIPT (a node whose script cache was flushed).
        DirectRedis(m_cluster.port(0)).command({"SCRIPT", "FLUSH"});
        auto script = reader(true, onlyLockFormats);
        auto perKey = reader(false, onlyLockFormats);
        QTRY_VERIFY(script->connection->isReady() && perKey->connection->isReady());
        const QList<KeyRead> byScript = readAll(*script, m_keys);
        const QList<KeyRead> byKey = readAll(*perKey, m_keys);
        QCOMPARE(script->keys->readPath(), ReadPath::PageScript);
        QCOMPARE(perKey->keys->readPath(), ReadPath::PerKey);
        compareReads(byScript, byKey);
        if (QTest::currentTestFailed())
            return;
        // One command per page on the node (and the reload): the pages were read by the script, not per key.
        const auto stats = DirectRedis(m_cluster.port(0)).command({"INFO", "commandstats"}).str;
        QVERIFY2(stats.contains("cmdstat_evalsha_ro:") && stats.contains("cmdstat_eval_ro:"), stats.constData());
        // Both read what is there: a sample of what the set holds.
        QCOMPARE(byScript.size(), m_keys.size());
        auto find = [&byScript](const QByteArray& key) {
            return *std::find_if(byScript.cbegin(), byScript.cend(), [&key](const KeyRead& r) { return r.key == key; });
        };
        QCOMPARE(find("lk:plain:3").state.presence, NodeLockState::Presence::Holding);
        QCOMPARE(find("lk:redisson").state.token, QByteArray("6a1f0b3c-8d2e-4c5a-9b7d-1e2f3a4b5c6d:1"));
        QCOMPARE(find("lk:redisson-rw").state.hashFields.size(), 3);
        QCOMPARE(find("lk:forever").state.pttlMs, -1);
        QCOMPARE(find("lk:data-no-ttl").skip, KeyRead::Skip::NoTtl);
        QCOMPARE(find("lk:list").skip, KeyRead::Skip::OtherType);
        QCOMPARE(find("lk:never-there").state.presence, NodeLockState::Presence::Absent);
        QCOMPARE(find(QByteArray("lk:\x00nul", 7)).state.presence, NodeLockState::Presence::Holding);
        // Read again: the script is cached now, and the observations are still the same.
        compareReads(readAll(*script, m_keys), readAll(*perKey, m_keys));
        if (QTest::currentTestFailed())
            return;
    }

    // A user with the monitoring preset but without +evalsha_ro / +eval_ro: its pages are read per key, the
    // node stays on that path (not asked again for every page), and says why.
    void refusedScriptFallsBackPerKey()
    {
        DirectRedis d(m_cluster.port(0));
        QList<QByteArray> rules{"ACL", "SETUSER", "noscript", "reset", "on", ">noscript-pw"};
        rules << AclPresets::monitoring("lk:*") << "-evalsha_ro"
              << "-eval_ro";
        QCOMPARE(d.command(rules).str, QByteArray("OK"));
        auto refused = reader(true, false, QStringLiteral("noscript"), QStringLiteral("noscript-pw"));
        auto perKey = reader(false, false);
        QTRY_VERIFY(refused->connection->isReady() && perKey->connection->isReady());
        const QList<KeyRead> first = readAll(*refused, m_keys);
        QCOMPARE(refused->keys->readPath(), ReadPath::PerKey);
        QVERIFY2(refused->keys->readPathNote().contains(u"evalsha_ro"), qPrintable(refused->keys->readPathNote()));
        compareReads(first, readAll(*perKey, m_keys));
        if (QTest::currentTestFailed())
            return;
        // Remembered: the next read sends no script.
        const qint64 before = refused->commands;
        compareReads(readAll(*refused, m_keys), readAll(*perKey, m_keys));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(refused->commands - before >= m_keys.size()); // per key: at least a PTTL each
        QCOMPARE(refused->keys->readPath(), ReadPath::PerKey);

        // The full monitoring preset runs it.
        QList<QByteArray> monitor{"ACL", "SETUSER", "monitor", "reset", "on", ">monitor-pw"};
        monitor << AclPresets::monitoring("lk:*");
        QCOMPARE(d.command(monitor).str, QByteArray("OK"));
        auto allowed = reader(true, false, QStringLiteral("monitor"), QStringLiteral("monitor-pw"));
        QTRY_VERIFY(allowed->connection->isReady());
        compareReads(readAll(*allowed, m_keys), readAll(*perKey, m_keys));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(allowed->keys->readPath(), ReadPath::PageScript);
    }

    void cleanupTestCase() { m_cluster.stopAll(); }
};

QTEST_GUILESS_MAIN(TestKeyReader)
#include "TestKeyReader.moc"
