#include "observe/ObservationTypes.h"
#include "redlock/LockToken.h"

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

    // A force release with lock-delay leaves a tombstone: it names who released the lock and when, and it is
    // never taken for a holder's token (LockToken::decode refuses it, decodeHolder labels it a tombstone).
    void tombstoneRoundTripAndNeverAHolder()
    {
        LockTombstone t;
        t.releasedBy = QStringLiteral("alice@ops:host/锁");
        t.releasedAtMs = 1795000000123;
        const QByteArray wire = t.encode();
        QVERIFY(wire.startsWith("rl1-released:alice@"));
        QCOMPARE(wire.count(':'), 2); // separators only: the name's ':' is encoded, '@' is kept
        QVERIFY(wire.endsWith(":1795000000123"));
        const auto back = LockTombstone::decode(wire);
        QVERIFY(back.has_value());
        QCOMPARE(back->releasedBy, t.releasedBy);
        QCOMPARE(back->releasedAtMs, t.releasedAtMs);
        QVERIFY(!LockToken::decode(wire).has_value());

        const HolderInfo holder = decodeHolder("locks:released", wire);
        QCOMPARE(holder.format, HolderFormat::Tombstone);
        QVERIFY(!holder.token.has_value());
        QVERIFY(holder.tombstone.has_value());
        QCOMPARE(holder.tombstone->releasedAtMs, t.releasedAtMs);
        QVERIFY2(holder.summary.contains(QStringLiteral("alice@ops:host/锁")), qPrintable(holder.summary));
        QCOMPARE(holderFormatId(HolderFormat::Tombstone), QStringLiteral("tombstone"));

        // Names are escaped in the summary like every other decoded name.
        const HolderInfo hostile = decodeHolder("k", "rl1-released:x%1B%5D0%3Bpwned%07:1");
        QCOMPARE(hostile.format, HolderFormat::Tombstone);
        QVERIFY(!hostile.summary.contains(QChar(u'\x1b')));
    }

    void notTombstones_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("holder token") << QByteArray("rl1:0123456789abcdef0123456789abcdef:4:h:c");
        QTest::newRow("no time") << QByteArray("rl1-released:alice@h:");
        QTest::newRow("time not a number") << QByteArray("rl1-released:alice@h:12x");
        QTest::newRow("negative time") << QByteArray("rl1-released:alice@h:-12");
        QTest::newRow("extra part") << QByteArray("rl1-released:alice:h:12");
        QTest::newRow("no parts") << QByteArray("rl1-released:");
        QTest::newRow("prefix only inside") << QByteArray("xrl1-released:a:1");
        QTest::newRow("huge") << QByteArray("rl1-released:") + QByteArray(4096, 'x') + ":1";
    }

    void notTombstones()
    {
        QFETCH(QByteArray, value);
        QVERIFY(!LockTombstone::decode(value).has_value());
        QVERIFY(decodeHolder("k", value).format != HolderFormat::Tombstone);
    }

    void longIdentityIsBounded()
    {
        const LockToken t = LockToken::generate(QString(1000, u'n'));
        QVERIFY(t.encode().size() < 512);
        QVERIFY(LockToken::decode(t.encode()).has_value());
    }

    // The one display escaping (D4): what reaches a terminal or a table cell carries no control character,
    // no line break and no bidi override; valid UTF-8 text is kept; the backslash is escaped so that an
    // escape in the output always stands for a byte.
    void printableBytesEscapesWhatDrivesATerminal_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain") << QByteArray("locks:a-1") << QStringLiteral("locks:a-1");
        QTest::newRow("utf-8 kept") << QByteArray("锁:é") << QStringLiteral("锁:é");
        QTest::newRow("osc title") << QByteArray("h\x1b]0;pwned\x07") << QStringLiteral("h\\x1b]0;pwned\\x07");
        QTest::newRow("forged line") << QByteArray("a\r\nb") << QStringLiteral("a\\x0d\\x0ab");
        QTest::newRow("nul and del") << QByteArray("a\0\x7f", 3) << QStringLiteral("a\\x00\\x7f");
        QTest::newRow("c1 csi") << QByteArray("\xc2\x9b"
                                              "31m")
                                << QStringLiteral("\\xc2\\x9b31m");
        QTest::newRow("line separator") << QByteArray("a\xe2\x80\xa8"
                                                      "b")
                                        << QStringLiteral("a\\xe2\\x80\\xa8b");
        QTest::newRow("bidi override") << QByteArray("a\xe2\x80\xae"
                                                     "b")
                                       << QStringLiteral("a\\xe2\\x80\\xaeb");
        QTest::newRow("backslash") << QByteArray("a\\x1b") << QStringLiteral("a\\x5cx1b");
        QTest::newRow("invalid utf-8") << QByteArray("a\xff\xc3") << QStringLiteral("a\\xff\\xc3");
        QTest::newRow("overlong") << QByteArray("\xc0\x8a") << QStringLiteral("\\xc0\\x8a");
        QTest::newRow("astral kept") << QByteArray("\xf0\x9f\x94\x92") << QStringLiteral("🔒");
    }
    void printableBytesEscapesWhatDrivesATerminal()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, shown);
        QCOMPARE(printableBytes(bytes), shown);
        QCOMPARE(printableText(QString::fromUtf8(bytes)).contains(QChar(u'\x1b')), false);
    }

    void printableBytesIsBounded()
    {
        const QByteArray huge(1 << 20, 'K');
        const QString shown = printableBytes(huge, 80);
        QCOMPARE(shown, QString(80, u'K') + QStringLiteral("…"));
        // An escape is never cut in half: it is left out whole.
        QCOMPARE(printableBytes(QByteArray("abc\x1b"), 5), QStringLiteral("abc…"));
        QCOMPARE(printableBytes(huge, -1).size(), huge.size());
    }

    // The holder's host and client name are percent-decoded from the token: anyone who can write a lock value
    // chooses them. The one-line summary shows them escaped.
    void decodedHolderNamesAreEscaped()
    {
        const QByteArray value = "rl1:00000000000000000000000000000000:1:h%1B%5D0%3Bpwned%07:x%0Alocks%3Apay%20%252";
        const HolderInfo holder = decodeHolder("locks:inj", value);
        QCOMPARE(holder.format, HolderFormat::RedlockConsole);
        QCOMPARE(holder.summary, QStringLiteral("h\\x1b]0;pwned\\x07 pid 1 (x\\x0alocks:pay %2)"));
    }
};

QTEST_GUILESS_MAIN(TestLockToken)
#include "TestLockToken.moc"
