#include "LockToken.h"

#include <QtTest>

using namespace redlock;

class TestLockToken : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const LockToken t = LockToken::generate(QStringLiteral("billing worker:7/锁"));
        QCOMPARE(t.random.size(), 32);
        const QByteArray wire = t.encode();
        QVERIFY(wire.startsWith("rl1:"));
        QCOMPARE(wire.count(':'), 4); // separators only: the name's ':' is encoded
        const auto back = LockToken::decode(wire);
        QVERIFY(back.has_value());
        QCOMPARE(back->random, t.random);
        QCOMPARE(back->pid, t.pid);
        QCOMPARE(back->host, t.host);
        QCOMPARE(back->client, QStringLiteral("billing worker:7/锁"));
    }

    void unique()
    {
        QSet<QByteArray> seen;
        for (int i = 0; i < 10000; ++i)
            seen.insert(LockToken::generate({}).random);
        QCOMPARE(seen.size(), 10000);
    }

    void foreignValuesAreNotDecoded_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("node-redlock hex") << QByteArray("a3f1c2d4e5b6a7980011223344556677");
        QTest::newRow("uuid") << QByteArray("6f1c8a52-3c1e-4d5e-9b7a-0c2d4e6f8a9b");
        QTest::newRow("short random") << QByteArray("rl1:abc:1:h:c");
        QTest::newRow("bad hex") << QByteArray("rl1:zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz:1:h:c");
        QTest::newRow("negative pid") << QByteArray("rl1:0123456789abcdef0123456789abcdef:-4:h:c");
        QTest::newRow("too many parts") << QByteArray("rl1:0123456789abcdef0123456789abcdef:4:h:c:x");
        QTest::newRow("too few parts") << QByteArray("rl1:0123456789abcdef0123456789abcdef:4:h");
        QTest::newRow("pid not a number") << QByteArray("rl1:0123456789abcdef0123456789abcdef:4x:h:c");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("huge") << QByteArray("rl1:0123456789abcdef0123456789abcdef:4:h:") + QByteArray(4096, 'x');
    }

    void foreignValuesAreNotDecoded()
    {
        QFETCH(QByteArray, value);
        QVERIFY(!LockToken::decode(value).has_value());
    }

    void longIdentityIsBounded()
    {
        const LockToken t = LockToken::generate(QString(1000, u'n'));
        QVERIFY(t.encode().size() < 512);
        QVERIFY(LockToken::decode(t.encode()).has_value());
    }
};

QTEST_GUILESS_MAIN(TestLockToken)
#include "TestLockToken.moc"
