#include "protocol/NodeEndpoint.h"

#include <QtTest>

using namespace redlock;

class TestNodeEndpoint : public QObject
{
    Q_OBJECT

private slots:
    void parsesGoodForms()
    {
        auto ep = NodeEndpoint::parse(QStringLiteral("10.0.0.5:7001"));
        QVERIFY(ep);
        QCOMPARE(ep->host, QStringLiteral("10.0.0.5"));
        QCOMPARE(ep->port, 7001);

        ep = NodeEndpoint::parse(QStringLiteral("redis-a"));
        QVERIFY(ep);
        QCOMPARE(ep->port, 6379);

        ep = NodeEndpoint::parse(QStringLiteral("[::1]:6380"));
        QVERIFY(ep);
        QCOMPARE(ep->host, QStringLiteral("::1"));
        QCOMPARE(ep->displayName(), QStringLiteral("[::1]:6380"));

        ep = NodeEndpoint::parse(QStringLiteral("rediss://locker:s3cret@redis.example:6390/2"));
        QVERIFY(ep);
        QVERIFY(ep->tls);
        QCOMPARE(ep->user, QStringLiteral("locker"));
        QCOMPARE(ep->password, QStringLiteral("s3cret"));
        QCOMPARE(ep->db, 2);
        QVERIFY(!ep->displayName().contains(QStringLiteral("s3cret")));

        ep = NodeEndpoint::parse(QStringLiteral("unix:/run/redis/r.sock?db=3"));
        QVERIFY(ep);
        QCOMPARE(ep->unixSocket, QStringLiteral("/run/redis/r.sock"));
        QCOMPARE(ep->db, 3);
    }

    void rejectsBadForms_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mention");
        QTest::newRow("empty") << QString() << QStringLiteral("empty");
        QTest::newRow("port 0") << QStringLiteral("h:0") << QStringLiteral("port");
        QTest::newRow("port 70000") << QStringLiteral("h:70000") << QStringLiteral("port");
        QTest::newRow("port text") << QStringLiteral("h:abc") << QStringLiteral("port");
        QTest::newRow("bad host") << QStringLiteral("bad host:1") << QStringLiteral("host");
        QTest::newRow("bare v6") << QStringLiteral("::1:6379") << QStringLiteral("brackets");
        QTest::newRow("relative socket") << QStringLiteral("unix:r.sock") << QStringLiteral("absolute");
        QTest::newRow("bad db") << QStringLiteral("redis://h:1/x") << QStringLiteral("database");
    }

    void rejectsBadForms()
    {
        QFETCH(QString, text);
        QFETCH(QString, mention);
        QString error;
        QVERIFY(!NodeEndpoint::parse(text, &error));
        QVERIFY2(error.contains(mention), qPrintable(error));
    }

    void listNamesTheBadEntry()
    {
        QString error;
        QVERIFY(!NodeEndpoint::parseList(QStringLiteral("a:1,b:99999,c:3"), &error));
        QVERIFY2(error.contains(QStringLiteral("b:99999")), qPrintable(error));
        const auto list = NodeEndpoint::parseList(QStringLiteral("a:1, b:2 ,c:3"));
        QVERIFY(list);
        QCOMPARE(list->size(), 3);
    }

    // Hostile N14: a password in a URL was echoed in parse errors, and ESC/BEL reached the terminal raw. Node text
    // in an error has its password masked and its control characters escaped.
    void errorsMaskPasswordsAndEscapeControlCharacters()
    {
        QCOMPARE(NodeEndpoint::shownText(QStringLiteral("redis://user:s3cret@host:1/2")),
                 QStringLiteral("redis://user:***@host:1/2"));
        QCOMPARE(NodeEndpoint::shownText(QStringLiteral("rediss://:s3cret@host")),
                 QStringLiteral("rediss://:***@host"));
        QCOMPARE(NodeEndpoint::shownText(QStringLiteral("redis://user@host:1")), QStringLiteral("redis://user@host:1"));
        QString error;
        QVERIFY(!NodeEndpoint::parseList(QStringLiteral("a:1,redis://:s3cretPW@127.0.0.1:0"), &error));
        QVERIFY2(!error.contains(QStringLiteral("s3cretPW")) &&
                     error.contains(QStringLiteral("\"redis://:***@127.0.0.1:0\"")),
                 qPrintable(error));
        QVERIFY(!NodeEndpoint::parseList(QStringLiteral("redis://:s3cret@[::1"), &error));
        QVERIFY2(!error.contains(QStringLiteral("s3cret")), qPrintable(error));
        QVERIFY(!NodeEndpoint::parseList(QStringLiteral("\x1b]0;x\x07:7501"), &error));
        QVERIFY2(!error.contains(QChar(0x1b)) && !error.contains(QChar(0x07)), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("bad host \"\\x1b]0;x\\x07\"")), qPrintable(error));
    }

    void identityCatchesAliases()
    {
        const auto a = NodeEndpoint::parse(QStringLiteral("localhost:7000"));
        const auto b = NodeEndpoint::parse(QStringLiteral("127.0.0.1:7000"));
        const auto c = NodeEndpoint::parse(QStringLiteral("LOCALHOST:7000"));
        const auto d = NodeEndpoint::parse(QStringLiteral("127.0.0.1:7001"));
        QCOMPARE(a->identity(), b->identity());
        QCOMPARE(a->identity(), c->identity());
        QVERIFY(a->identity() != d->identity());
    }

    // The spellings of one address that hostile N2 got past the check: each is one server, one vote.
    void identityCatchesAddressSpellings()
    {
        const auto same = [](const char* x, const char* y) {
            const auto a = NodeEndpoint::parse(QString::fromLatin1(x));
            const auto b = NodeEndpoint::parse(QString::fromLatin1(y));
            return a && b && a->identity() == b->identity();
        };
        QVERIFY(same("0.0.0.0:7501", "127.0.0.1:7501"));
        QVERIFY(same("[::ffff:127.0.0.1]:7501", "127.0.0.1:7501"));
        QVERIFY(same("[::ffff:10.1.2.3]:7501", "10.1.2.3:7501"));
        QVERIFY(same("[::]:7501", "[::1]:7501"));
        QVERIFY(same("unix:/tmp/nodes/7501.sock", "unix:/tmp/nodes/../nodes/7501.sock"));
        QVERIFY(same("unix:/tmp/nodes/7501.sock", "unix:/tmp//nodes/./7501.sock"));
        QVERIFY(!same("0.0.0.0:7501", "127.0.0.1:7502"));
        QVERIFY(!same("[::ffff:10.1.2.3]:7501", "10.1.2.4:7501"));
        QVERIFY(!same("unix:/tmp/nodes/7501.sock", "unix:/tmp/nodes/7502.sock"));

        // A socket reached through a symbolic link is the socket itself.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile target(dir.filePath(QStringLiteral("real.sock")));
        QVERIFY(target.open(QIODevice::WriteOnly));
        target.close();
        QVERIFY(QFile::link(target.fileName(), dir.filePath(QStringLiteral("alias.sock"))));
        NodeEndpoint real, alias;
        real.unixSocket = target.fileName();
        alias.unixSocket = dir.filePath(QStringLiteral("alias.sock"));
        QCOMPARE(alias.identity(), real.identity());
    }

    // One server under several database numbers is one server: one vote (adversarial D3).
    void databasesOfOneServerAreOneServer()
    {
        const auto nodes = NodeEndpoint::parseList(QStringLiteral(
            "redis://127.0.0.1:7401/0,redis://localhost:7401/1,redis://127.0.0.1:7401/2,127.0.0.1:7402"));
        QVERIFY(nodes);
        QCOMPARE(nodes->at(0).identity(), nodes->at(1).identity());
        QCOMPARE(nodes->at(0).identity(), nodes->at(2).identity());
        QVERIFY(nodes->at(0).identity() != nodes->at(3).identity());
        const QStringList errors = NodeEndpoint::duplicateErrors(*nodes);
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors[0].contains(QStringLiteral("nodes 1 and 2 are the same server")), qPrintable(errors[0]));
        QVERIFY2(errors[1].contains(QStringLiteral("nodes 1 and 3")), qPrintable(errors[1]));
        QVERIFY2(errors[1].contains(QStringLiteral("127.0.0.1:7401/2")), qPrintable(errors[1]));
        QVERIFY(NodeEndpoint::duplicateErrors(nodes->mid(2)).isEmpty());
        // The database shows when it is not 0.
        QCOMPARE(nodes->at(0).displayName(), QStringLiteral("127.0.0.1:7401"));
        QCOMPARE(nodes->at(1).displayName(), QStringLiteral("localhost:7401/1"));
        QCOMPARE(NodeEndpoint::parse(QStringLiteral("unix:/tmp/r.sock?db=3"))->displayName(),
                 QStringLiteral("unix:/tmp/r.sock/3"));
    }
};

QTEST_GUILESS_MAIN(TestNodeEndpoint)
#include "TestNodeEndpoint.moc"
