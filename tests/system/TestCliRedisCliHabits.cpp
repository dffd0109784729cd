// redis-cli's habits in the `redlock` CLI (issue 26 item 4, interop.md §4): -h/-p/-a/--user/-n, -u URI and
// REDISCLI_AUTH, against real redis-servers with requirepass and an ACL user; node-redlock's option names.

#include "localcluster/LocalCluster.h"
#include "support/CliTestSupport.h"
#include "support/DirectRedis.h"

#include <QtTest>

using namespace redlock;

namespace {

const QByteArray kPassword = "rq-s3cret";     // requirepass of every node
const QByteArray kUserPassword = "lk-s3cret"; // the ACL user "locker"'s

// Runs the CLI with REDISCLI_AUTH set to `auth` (unset when empty) for this one run.
CliRun runWithAuth(const QStringList& args, const QByteArray& auth)
{
    if (auth.isEmpty())
        qunsetenv("REDISCLI_AUTH");
    else
        qputenv("REDISCLI_AUTH", auth);
    const CliRun run = runCli(args);
    qunsetenv("REDISCLI_AUTH");
    return run;
}

} // namespace

class TestCliRedisCliHabits : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(QStringLiteral(REDLOCK_CLI_PATH)), REDLOCK_CLI_PATH);
        qunsetenv("REDISCLI_AUTH");
        LocalNodeOptions options;
        options.requirePass = QString::fromLatin1(kPassword);
        QString error;
        QVERIFY2(m_cluster.start(3, options, &error), qPrintable(error));
        for (int i = 0; i < 3; ++i) {
            m_ports << QString::number(m_cluster.port(i));
            DirectRedis admin(m_cluster.port(i), kPassword);
            QCOMPARE(admin.command({"ACL", "SETUSER", "locker", "on", ">" + kUserPassword, "~hab:*", "+@all"}).str,
                     QByteArray("OK"));
        }
    }

    // -h HOST -p PORT,PORT,PORT -a PASSWORD: three nodes, redis-cli's warning, the password never echoed.
    void hostPortAndPassword()
    {
        const CliRun run = runCli({QStringLiteral("acquire"), QStringLiteral("-h"), QStringLiteral("127.0.0.1"),
                                   QStringLiteral("-p"), m_ports.join(u','), QStringLiteral("-a"),
                                   QString::fromLatin1(kPassword), QStringLiteral("--json"), QStringLiteral("hab:a")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("Using a password with '-a'") && run.err.contains("REDISCLI_AUTH"),
                 qPrintable(run.describe()));
        QVERIFY2(!run.err.contains(kPassword) && !run.out.contains(kPassword), qPrintable(run.describe()));
        const QByteArray token = run.json.value(QStringLiteral("token")).toString().toUtf8();
        int holding = 0;
        for (int i = 0; i < 3; ++i)
            holding += DirectRedis(m_cluster.port(i), kPassword).get("hab:a").value_or(QByteArray()) == token ? 1 : 0;
        QVERIFY2(holding >= 2, qPrintable(run.describe()));

        // --no-auth-warning, as in redis-cli.
        const CliRun quiet =
            runCli({QStringLiteral("release"), QStringLiteral("-p"), m_ports.join(u','), QStringLiteral("-a"),
                    QString::fromLatin1(kPassword), QStringLiteral("--no-auth-warning"), QStringLiteral("--token"),
                    QString::fromUtf8(token), QStringLiteral("hab:a")});
        QVERIFY2(quiet.exitCode == 0 && !quiet.err.contains("Warning"), qPrintable(quiet.describe()));
        QVERIFY(!DirectRedis(m_cluster.port(0), kPassword).exists("hab:a"));
    }

    // REDISCLI_AUTH is read when no password option is given; -n selects the database; --user an ACL user.
    void rediscliAuthDatabaseAndUser()
    {
        const CliRun run = runWithAuth({QStringLiteral("acquire"), QStringLiteral("-p"), m_ports.join(u','),
                                        QStringLiteral("-n"), QStringLiteral("3"), QStringLiteral("hab:db")},
                                       kPassword);
        QVERIFY2(run.exitCode == 0 && !run.err.contains("Warning"), qPrintable(run.describe()));
        for (int i = 0; i < 3; ++i) {
            DirectRedis direct(m_cluster.port(i), kPassword);
            QVERIFY(!direct.exists("hab:db")); // not in database 0
            QCOMPARE(direct.command({"SELECT", "3"}).str, QByteArray("OK"));
            QVERIFY2(direct.exists("hab:db"), qPrintable(run.describe()));
        }
        // Without it the nodes refuse: the variable really is what authenticated.
        const CliRun without = runWithAuth({QStringLiteral("acquire"), QStringLiteral("-p"), m_ports.join(u','),
                                            QStringLiteral("--retry"), QStringLiteral("0"), QStringLiteral("hab:no")},
                                           {});
        QVERIFY2(without.exitCode == 3 && without.out.contains("NOAUTH"), qPrintable(without.describe()));

        const CliRun user = runWithAuth({QStringLiteral("acquire"), QStringLiteral("-h"), QStringLiteral("localhost"),
                                         QStringLiteral("-p"), m_ports.join(u','), QStringLiteral("--user"),
                                         QStringLiteral("locker"), QStringLiteral("hab:user")},
                                        kUserPassword);
        QVERIFY2(user.exitCode == 0, qPrintable(user.describe()));
        QVERIFY(DirectRedis(m_cluster.port(1), kPassword).exists("hab:user"));
        // The ACL user's key pattern is enforced: it really was "locker" that logged in.
        const CliRun outside = runWithAuth(
            {QStringLiteral("acquire"), QStringLiteral("-p"), m_ports.join(u','), QStringLiteral("--user"),
             QStringLiteral("locker"), QStringLiteral("--retry"), QStringLiteral("0"), QStringLiteral("other:key")},
            kUserPassword);
        QVERIFY2(outside.exitCode != 0 && QByteArray(outside.out + outside.err).contains("NOPERM"),
                 qPrintable(outside.describe()));
    }

    // -u URI is --nodes: a password inside it is refused like one in --nodes, and never echoed.
    void uriOption()
    {
        QStringList uris;
        for (const QString& port : m_ports)
            uris << QStringLiteral("redis://locker@127.0.0.1:%1/2").arg(port);
        const CliRun run =
            runWithAuth({QStringLiteral("acquire"), QStringLiteral("-u"), uris.join(u','), QStringLiteral("hab:uri")},
                        kUserPassword);
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        DirectRedis direct(m_cluster.port(2), kPassword);
        direct.command({"SELECT", "2"});
        QVERIFY(direct.exists("hab:uri"));

        const CliRun withPassword =
            runCli({QStringLiteral("acquire"), QStringLiteral("-u"),
                    QStringLiteral("redis://:%1@127.0.0.1:%2").arg(QString::fromLatin1(kPassword), m_ports.first()),
                    QStringLiteral("hab:pw")});
        QVERIFY2(withPassword.exitCode == 2 && withPassword.err.contains("REDISCLI_AUTH"),
                 qPrintable(withPassword.describe()));
        QVERIFY2(!withPassword.err.contains(kPassword) && !withPassword.out.contains(kPassword),
                 qPrintable(withPassword.describe()));
    }

    // The ways to name nodes do not mix, and -h keeps asking for help when it has no value.
    void nodeOptionsCombine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("--nodes and -p") << QStringList{QStringLiteral("--nodes"), QStringLiteral("127.0.0.1:1"),
                                                       QStringLiteral("-p"), QStringLiteral("2"), QStringLiteral("k")}
                                        << 2 << QStringLiteral("not both");
        QTest::newRow("two lists") << QStringList{QStringLiteral("-h"), QStringLiteral("a,b"), QStringLiteral("-p"),
                                                  QStringLiteral("1,2"), QStringLiteral("k")}
                                   << 2 << QStringLiteral("both lists");
        QTest::newRow("-a and --password-env") << QStringList{QStringLiteral("-p"),
                                                              QStringLiteral("1"),
                                                              QStringLiteral("-a"),
                                                              QStringLiteral("x"),
                                                              QStringLiteral("--password-env"),
                                                              QStringLiteral("HOME"),
                                                              QStringLiteral("k")}
                                               << 2 << QStringLiteral("give one");
        QTest::newRow("bad port") << QStringList{QStringLiteral("-p"), QStringLiteral("http"), QStringLiteral("k")} << 2
                                  << QStringLiteral("bad -h/-p");
        QTest::newRow("bare -h") << QStringList{QStringLiteral("-h")} << 0 << QStringLiteral("--host <HOST>");
        QTest::newRow("-h before an option")
            << QStringList{QStringLiteral("-h"), QStringLiteral("--json")} << 0 << QStringLiteral("Usage:");
    }

    void nodeOptionsCombine()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliRun run = runCli(QStringList{QStringLiteral("acquire")} + args);
        QVERIFY2(run.exitCode == exitCode, qPrintable(run.describe()));
        QVERIFY2(QByteArray(run.out + run.err).contains(message.toUtf8()), qPrintable(run.describe()));
    }

    // node-redlock's names: retryCount, retryDelay, retryJitter (±, as theirs), driftFactor.
    void nodeRedlockOptionNames()
    {
        const CliRun run =
            runWithAuth({QStringLiteral("acquire"), QStringLiteral("-p"), m_ports.join(u','), QStringLiteral("--ttl"),
                         QStringLiteral("10000"), QStringLiteral("--retryCount"), QStringLiteral("2"),
                         QStringLiteral("--retryDelay"), QStringLiteral("100"), QStringLiteral("--retryJitter"),
                         QStringLiteral("50"), QStringLiteral("--driftFactor"), QStringLiteral("0.02"),
                         QStringLiteral("--json"), QStringLiteral("hab:nr")},
                        kPassword);
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(run.json.value(QStringLiteral("driftMs")).toInteger(), 10000 * 2 / 100 + 2);
        // ± larger than the delay would be a negative wait.
        const CliRun tooMuch = runCli(
            {QStringLiteral("acquire"), QStringLiteral("-p"), m_ports.join(u','), QStringLiteral("--retryDelay"),
             QStringLiteral("100"), QStringLiteral("--retryJitter"), QStringLiteral("150"), QStringLiteral("hab:x")});
        QVERIFY2(tooMuch.exitCode == 2 && tooMuch.err.contains("--retryJitter"), qPrintable(tooMuch.describe()));
    }

private:
    LocalCluster m_cluster;
    QStringList m_ports;
};

QTEST_GUILESS_MAIN(TestCliRedisCliHabits)
#include "TestCliRedisCliHabits.moc"
