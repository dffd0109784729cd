// The `redlock` CLI as scripts use it: the real binary, run with QProcess against real redis-server nodes;
// exit codes, JSON output and what is really left on the nodes (read directly with hiredis).

#include "history/LockJournal.h"
#include "localcluster/LocalCluster.h"
#include "redlock/RedlockRules.h"
#include "support/CliTestSupport.h"
#include "support/DirectRedis.h"
#include "support/FaultProxy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace redlock;

namespace {

QStringList outcomeKinds(const QJsonArray& outcomes)
{
    QStringList kinds;
    for (const QJsonValue& o : outcomes)
        kinds << o.toObject().value(QStringLiteral("outcome")).toString();
    return kinds;
}

// Bytes that would drive a terminal or forge output if they reached it raw: ESC, BEL, CR, C1 CSI (as UTF-8).
bool hasTerminalControl(const QByteArray& text)
{
    return text.contains('\x1b') || text.contains('\x07') || text.contains('\r') || text.contains("\xc2\x9b");
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(QStringLiteral(REDLOCK_CLI_PATH)), REDLOCK_CLI_PATH);
        QString error;
        QVERIFY2(m_cluster.start(3, {}, &error), qPrintable(error));
        m_nodes = nodeList(m_cluster);
    }

    void acquireContendExtendRelease()
    {
        const QByteArray key = "cli:lock";
        const CliRun first =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--ttl"),
                    QStringLiteral("5000"), QStringLiteral("--json"), QString::fromLatin1(key)});
        QVERIFY2(first.exitCode == 0, qPrintable(first.describe()));
        QVERIFY2(!first.json.isEmpty(), qPrintable(first.describe()));
        QCOMPARE(first.json.value(QStringLiteral("ok")).toBool(), true);
        const QByteArray token = first.json.value(QStringLiteral("token")).toString().toUtf8();
        QVERIFY(token.startsWith("rl1:"));
        QVERIFY(first.json.value(QStringLiteral("validityMs")).toInteger() > 0);
        const QJsonArray attempts = first.json.value(QStringLiteral("attempts")).toArray();
        QCOMPARE(attempts.size(), 1);
        const QJsonArray outcomes = attempts.first().toObject().value(QStringLiteral("outcomes")).toArray();
        QCOMPARE(outcomes.size(), 3);
        // Every node that reported "acquired" really holds our token.
        int holding = 0;
        for (int i = 0; i < 3; ++i) {
            if (outcomes[i].toObject().value(QStringLiteral("outcome")).toString() == u"acquired") {
                QCOMPARE(DirectRedis(m_cluster.port(i)).get(key).value_or(QByteArray()), token);
                ++holding;
            }
        }
        QVERIFY(holding >= 2);

        // A second acquire of the same resource is refused and names the holder.
        const CliRun second =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--retry"),
                    QStringLiteral("0"), QStringLiteral("--json"), QString::fromLatin1(key)});
        QVERIFY2(second.exitCode == 1, qPrintable(second.describe()));
        QCOMPARE(second.json.value(QStringLiteral("ok")).toBool(), false);
        QVERIFY(!second.json.value(QStringLiteral("error")).toString().isEmpty());
        QVERIFY(!second.json.contains(QStringLiteral("token")));
        const QJsonArray refused = second.json.value(QStringLiteral("attempts"))
                                       .toArray()
                                       .first()
                                       .toObject()
                                       .value(QStringLiteral("outcomes"))
                                       .toArray();
        QCOMPARE(refused.size(), 3);
        // Refused wherever the first holder's token is; a node the first acquire decided without (its SET
        // still in flight when the CLI exited) may be free, but never makes a quorum for the second.
        QVERIFY2(outcomeKinds(refused).count(QStringLiteral("acquired")) < 2, qPrintable(second.describe()));
        for (int i = 0; i < 3; ++i) {
            if (outcomes[i].toObject().value(QStringLiteral("outcome")).toString() == u"acquired")
                QVERIFY2(refused[i].toObject().value(QStringLiteral("outcome")).toString() != u"acquired",
                         qPrintable(second.describe()));
        }
        bool namedHolder = false;
        for (const QJsonValue& o : refused) {
            if (o.toObject().value(QStringLiteral("outcome")).toString() == u"held-by-other") {
                QCOMPARE(o.toObject().value(QStringLiteral("holderToken")).toString().toUtf8(), token);
                QVERIFY(o.toObject().value(QStringLiteral("holderPttlMs")).toInteger() > 0);
                namedHolder = true;
            }
        }
        QVERIFY2(namedHolder, qPrintable(second.describe()));

        // Extend by token: the keys get the new TTL.
        const CliRun extended = runCli({QStringLiteral("extend"), QStringLiteral("--nodes"), m_nodes,
                                        QStringLiteral("--token"), QString::fromUtf8(token), QStringLiteral("--ttl"),
                                        QStringLiteral("60000"), QStringLiteral("--json"), QString::fromLatin1(key)});
        QVERIFY2(extended.exitCode == 0, qPrintable(extended.describe()));
        QVERIFY(extended.json.value(QStringLiteral("validityMs")).toInteger() > 5000);
        int extendedNodes = 0;
        for (int i = 0; i < 3; ++i)
            extendedNodes += DirectRedis(m_cluster.port(i)).pttl(key) > 5000 ? 1 : 0;
        QVERIFY(extendedNodes >= 2);

        // Release with a wrong token: refused, and every key still holds our token.
        const CliRun wrong =
            runCli({QStringLiteral("release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--token"),
                    QStringLiteral("rl1:not-the-holder"), QStringLiteral("--json"), QString::fromLatin1(key)});
        QVERIFY2(wrong.exitCode == 1, qPrintable(wrong.describe()));
        QCOMPARE(outcomeKinds(wrong.json.value(QStringLiteral("outcomes")).toArray()),
                 QStringList(3, QStringLiteral("not-held")));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(DirectRedis(m_cluster.port(i)).get(key).value_or(QByteArray()), token);

        // Release with the right token: gone from every node (release waits for all of them).
        const CliRun released =
            runCli({QStringLiteral("release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--token"),
                    QString::fromUtf8(token), QStringLiteral("--json"), QString::fromLatin1(key)});
        QVERIFY2(released.exitCode == 0, qPrintable(released.describe()));
        QCOMPARE(outcomeKinds(released.json.value(QStringLiteral("outcomes")).toArray()),
                 QStringList(3, QStringLiteral("released")));
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists(key));

        // Released twice: nothing held any more.
        const CliRun again = runCli({QStringLiteral("release"), QStringLiteral("--nodes"), m_nodes,
                                     QStringLiteral("--token"), QString::fromUtf8(token), QString::fromLatin1(key)});
        QVERIFY2(again.exitCode == 1, qPrintable(again.describe()));
    }

    void humanOutputHasSummaryAndPerNodeTable()
    {
        const CliRun run = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes,
                                   QStringLiteral("--ttl"), QStringLiteral("2000"), QStringLiteral("cli:human")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(text.startsWith(QStringLiteral("acquired \"cli:human\"")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("token: rl1:")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("latency µs")), qPrintable(text));
        for (const NodeEndpoint& e : m_cluster.endpoints())
            QVERIFY2(text.contains(e.displayName()), qPrintable(text));
    }

    void multiResourceLock()
    {
        const CliRun run = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes,
                                   QStringLiteral("--json"), QStringLiteral("cli:a"), QStringLiteral("cli:b")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QByteArray token = run.json.value(QStringLiteral("token")).toString().toUtf8();
        QCOMPARE(run.json.value(QStringLiteral("resources")).toArray().size(), 2);
        int both = 0;
        for (int i = 0; i < 3; ++i) {
            DirectRedis node(m_cluster.port(i));
            both += node.get("cli:a") == token && node.get("cli:b") == token ? 1 : 0;
        }
        QVERIFY(both >= 2);
        // One of the two resources is taken: the multi-resource lock fails as a whole.
        const CliRun conflict =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--retry"),
                    QStringLiteral("0"), QStringLiteral("cli:c"), QStringLiteral("cli:b")});
        QVERIFY2(conflict.exitCode == 1, qPrintable(conflict.describe()));
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("cli:c"));
    }

    void badNodeListIsUsageError()
    {
        const CliRun run = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"),
                                   m_cluster.endpoint(0).displayName() + QStringLiteral(",127.0.0.1:notaport"),
                                   QStringLiteral("cli:bad")});
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("notaport"), run.err.constData());
        QVERIFY(run.out.isEmpty());
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists("cli:bad"));
    }

    void duplicateEndpointsAreUsageError()
    {
        const QString port = QString::number(m_cluster.port(0));
        const CliRun run =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"),
                    QStringLiteral("127.0.0.1:%1,localhost:%1,%2").arg(port, m_cluster.endpoint(1).displayName()),
                    QStringLiteral("cli:dup")});
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("same server"), run.err.constData());
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists("cli:dup"));

        // One server under three database numbers is one vote, not three: refused by every command.
        const QString databases =
            QStringLiteral("redis://127.0.0.1:%1/0,redis://127.0.0.1:%1/1,redis://127.0.0.1:%1/2").arg(port);
        for (const QString& command : {QStringLiteral("acquire"), QStringLiteral("audit")}) {
            QStringList args{command, QStringLiteral("--nodes"), databases};
            if (command == u"acquire")
                args << QStringLiteral("cli:dbdup");
            const CliRun byDb = runCli(args);
            QVERIFY2(byDb.exitCode == 2, qPrintable(byDb.describe()));
            QVERIFY2(byDb.err.contains("same server") && byDb.err.contains(QByteArray(':' + port.toLatin1() + "/1")),
                     byDb.err.constData());
        }
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists("cli:dbdup"));
    }

    // One drift-factor range for every command, the console's: [0, 0.5). `acquire` took up to 1, `force-release` up
    // to 0.999, and a profile the console refused was a valid `redlock acquire`.
    void driftFactorHasTheConsolesRangeInEveryCommand()
    {
        const QStringList nodes{QStringLiteral("--nodes"), m_nodes};
        const QList<QStringList> commands{{QStringLiteral("acquire"), QStringLiteral("cli:drift")},
                                          {QStringLiteral("inspect")},
                                          {QStringLiteral("audit")},
                                          {QStringLiteral("force-release"), QStringLiteral("--token"),
                                           QStringLiteral("t"), QStringLiteral("cli:drift")}};
        for (const QStringList& command : commands) {
            for (const QString& factor : {QStringLiteral("0.5"), QStringLiteral("0.9"), QStringLiteral("-0.1")}) {
                const CliRun run = runCli(QStringList{command[0]} + nodes +
                                          QStringList{QStringLiteral("--drift-factor"), factor} + command.mid(1));
                QVERIFY2(run.exitCode == 2, qPrintable(command[0] + u' ' + factor + u'\n' + run.describe()));
                QVERIFY2(run.err.contains("the drift factor must be at least 0 and below 0.5"),
                         qPrintable(run.describe()));
            }
        }
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists("cli:drift"));
        const CliRun ok =
            runCli(QStringList{QStringLiteral("acquire")} + nodes +
                   QStringList{QStringLiteral("--drift-factor"), QStringLiteral("0.49"), QStringLiteral("cli:drift")});
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.describe()));
    }

    void missingTokenAndUnknownOptionAreUsageErrors()
    {
        QCOMPARE(runCli({QStringLiteral("release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("k")}).exitCode,
                 2);
        QCOMPARE(runCli({QStringLiteral("acquire"), QStringLiteral("--frobnicate")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("no-such-command")}).exitCode, 2);
        const CliRun help = runCli({QStringLiteral("acquire"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("Exit codes"));
    }

    void allNodesDownIsNoQuorumReachable()
    {
        LocalCluster down;
        QString error;
        QVERIFY2(down.start(3, {}, &error), qPrintable(error));
        const QString nodes = nodeList(down);
        for (int i = 0; i < 3; ++i)
            QVERIFY(down.stopNode(i));
        const CliRun run =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), nodes, QStringLiteral("--retry"),
                    QStringLiteral("0"), QStringLiteral("--json"), QStringLiteral("cli:down")});
        QVERIFY2(run.exitCode == 3, qPrintable(run.describe()));
        const QStringList kinds = outcomeKinds(run.json.value(QStringLiteral("attempts"))
                                                   .toArray()
                                                   .first()
                                                   .toObject()
                                                   .value(QStringLiteral("outcomes"))
                                                   .toArray());
        QCOMPARE(kinds.size(), 3);
        QVERIFY2(kinds.count(QStringLiteral("connection-error")) >= 2, qPrintable(kinds.join(u' ')));
        const CliRun release = runCli({QStringLiteral("release"), QStringLiteral("--nodes"), nodes,
                                       QStringLiteral("--token"), QStringLiteral("t"), QStringLiteral("cli:down")});
        QVERIFY2(release.exitCode == 3, qPrintable(release.describe()));
    }

    // D2: an audit that could look at fewer than a quorum of nodes must not read as a clean bill of health.
    void auditWithoutQuorumReachableExits3()
    {
        LocalCluster five;
        QString error;
        QVERIFY2(five.start(5, {}, &error), qPrintable(error));
        const QString nodes = nodeList(five);
        for (int i = 0; i < 3; ++i)
            QVERIFY(five.stopNode(i));
        const auto unverifiedSeverity = [](const QJsonObject& json) {
            for (const QJsonValue& f : json.value(QStringLiteral("findings")).toArray()) {
                if (f.toObject().value(QStringLiteral("rule")).toString() == u"unverified")
                    return f.toObject().value(QStringLiteral("severity")).toString();
            }
            return QString();
        };

        // 3 of 5 down: 2 reachable, quorum 3.
        const CliRun threeDown =
            runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodes, QStringLiteral("--max-ttl"),
                    QStringLiteral("10000"), QStringLiteral("--json")});
        QVERIFY2(threeDown.exitCode == 3, qPrintable(threeDown.describe()));
        QCOMPARE(threeDown.json.value(QStringLiteral("severe")).toBool(), true);
        QCOMPARE(threeDown.json.value(QStringLiteral("nodesReachable")).toInt(), 2);
        QCOMPARE(unverifiedSeverity(threeDown.json), QStringLiteral("severe"));

        // Every node down, text output: exit 3 and a severe finding that says why.
        for (int i = 3; i < 5; ++i)
            QVERIFY(five.stopNode(i));
        const CliRun allDown = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodes,
                                       QStringLiteral("--max-ttl"), QStringLiteral("10000")});
        QVERIFY2(allDown.exitCode == 3, qPrintable(allDown.describe()));
        QVERIFY2(allDown.out.contains("[SEVERE] No quorum of nodes could be audited (unverified)"),
                 qPrintable(allDown.describe()));
        QVERIFY2(allDown.err.contains("0 of 5 nodes reachable"), qPrintable(allDown.describe()));
        const CliRun allDownJson =
            runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodes, QStringLiteral("--max-ttl"),
                    QStringLiteral("10000"), QStringLiteral("--json")});
        QVERIFY2(allDownJson.exitCode == 3, qPrintable(allDownJson.describe()));
        QCOMPARE(allDownJson.json.value(QStringLiteral("severe")).toBool(), true);
        QCOMPARE(allDownJson.json.value(QStringLiteral("exitCode")).toInt(), 3);
    }

    // With a quorum reachable the audit still runs as before: a minority down is only "unverified" info.
    void auditWithMinorityDownIsNotNoQuorum()
    {
        LocalCluster three;
        QString error;
        QVERIFY2(three.start(3, {}, &error), qPrintable(error));
        QVERIFY(three.stopNode(2));
        const CliRun run = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(three),
                                   QStringLiteral("--max-ttl"), QStringLiteral("10000"), QStringLiteral("--json")});
        // No persistence on the test nodes: warnings only, nothing severe.
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(run.json.value(QStringLiteral("nodesReachable")).toInt(), 2);
        QCOMPARE(run.json.value(QStringLiteral("severe")).toBool(), false);
    }

    // D4: whoever can write a lock value chooses the holder's host and client name (percent-encoded in the
    // token, decoded for display) and the key; none of it may reach the terminal raw, on any path.
    void untrustedTextIsEscapedOnEveryPath()
    {
        const QByteArray hostile = "rl1:00000000000000000000000000000000:1:h%1B%5D0%3Bpwned%07:x%0Acli%3Apay%20%20free";
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).set("cli:inj", hostile, 120000);

        // inspect: one row for the lock, nothing forged, no control byte.
        const CliRun inspect = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                       QStringLiteral("--pattern"), QStringLiteral("cli:inj*")});
        QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.describe()));
        QVERIFY2(!hasTerminalControl(inspect.out), qPrintable(inspect.describe()));
        const QList<QByteArray> lines = inspect.out.split('\n');
        QVERIFY2(lines.size() >= 2 && lines[1].startsWith("cli:inj "), qPrintable(inspect.describe()));
        QVERIFY2(lines[1].contains("h\\x1b]0;pwned\\x07 pid 1 (x\\x0acli:pay  free)"), qPrintable(inspect.describe()));
        for (const QByteArray& line : lines)
            QVERIFY2(!line.startsWith("cli:pay"), qPrintable(inspect.describe()));

        // watch: an event for a key with control characters in its name and in its holder.
        QProcess watch;
        watch.start(QStringLiteral(REDLOCK_CLI_PATH),
                    {QStringLiteral("watch"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--pattern"),
                     QStringLiteral("cli:w*"), QStringLiteral("--reconcile"), QStringLiteral("200")});
        QVERIFY(watch.waitForStarted());
        QByteArray watched;
        // The first pass is the baseline (no events): a fresh key per try until one is reported.
        int sentinel = 0;
        const auto setEverywhere = [this](const QByteArray& k, const QByteArray& v) {
            for (int i = 0; i < 3; ++i)
                DirectRedis(m_cluster.port(i)).set(k, v, 120000);
        };
        QTRY_VERIFY_WITH_TIMEOUT((setEverywhere("cli:wready:" + QByteArray::number(++sentinel), "r"),
                                  (watched += watch.readAllStandardOutput()).contains("cli:wready:")),
                                 15000);
        const QByteArray key = "cli:w\nnew\x1b]0;pwned\x07";
        setEverywhere(key, hostile);
        QTRY_VERIFY_WITH_TIMEOUT((watched += watch.readAllStandardOutput()).contains("cli:w\\x0anew"), 15000);
        watch.terminate(); // SIGINT/SIGTERM end watch normally
        QVERIFY(watch.waitForFinished(10000));
        watched += watch.readAllStandardOutput();
        QVERIFY2(!hasTerminalControl(watched), watched.constData());
        QVERIFY2(watched.contains("cli:w\\x0anew\\x1b]0;pwned\\x07"), watched.constData());
        for (const QByteArray& line : watched.trimmed().split('\n'))
            QVERIFY2(line.startsWith(QDate::currentDate().toString(Qt::ISODate).left(4).toLatin1()),
                     watched.constData());

        // acquire with a hostile client name, then inspect its holder.
        const CliRun acquired =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--client-name"),
                    QStringLiteral("evil\nname\x1b[31m\x07"), QStringLiteral("cli:injname")});
        QVERIFY2(acquired.exitCode == 0, qPrintable(acquired.describe()));
        QVERIFY2(!hasTerminalControl(acquired.out + acquired.err), qPrintable(acquired.describe()));
        const CliRun holder = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                      QStringLiteral("--pattern"), QStringLiteral("cli:injname")});
        QVERIFY2(!hasTerminalControl(holder.out), qPrintable(holder.describe()));
        QVERIFY2(holder.out.contains("(evil\\x0aname\\x1b[31m\\x07)"), qPrintable(holder.describe()));

        // force-release preview: the key from argv and the value found on the nodes.
        const QByteArray frKey = "cli:fr\x1b]0;k\x07";
        const QByteArray frValue = "tok\x1b]0;v\x07\r\nforged";
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).set(frKey, frValue, 120000);
        const CliRun preview =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--token"),
                    QStringLiteral("other"), QStringLiteral("--dry-run"), QString::fromUtf8(frKey)});
        QVERIFY2(preview.exitCode == 6, qPrintable(preview.describe())); // held by another token: left to it
        QVERIFY2(!hasTerminalControl(preview.out + preview.err), qPrintable(preview.describe()));
        QVERIFY2(preview.out.contains("tok\\x1b]0;v\\x07\\x0d\\x0aforged"), qPrintable(preview.describe()));
        QVERIFY2(!preview.out.contains("\nforged"), qPrintable(preview.describe()));
    }

    // D7: the result is decided by the first quorum, but the process must not exit before the other nodes
    // got the command: on a healthy cluster every acquire lands on every node, every extend renews every node.
    void acquireAndExtendReachEveryNodeBeforeExit()
    {
        LocalCluster five;
        QString error;
        QVERIFY2(five.start(5, {}, &error), qPrintable(error));
        const QString nodes = nodeList(five);
        // A node timeout generous for a loaded machine: a connect that is merely slow must not time out.
        const QStringList common{QStringLiteral("--nodes"), nodes, QStringLiteral("--node-timeout"),
                                 QStringLiteral("2000")};
        QStringList partial;
        for (int i = 0; i < 20; ++i) {
            const QByteArray key = "cli:all" + QByteArray::number(i);
            const CliRun run = runCli(QStringList{QStringLiteral("acquire")}
                                      << common << QStringLiteral("--ttl") << QStringLiteral("60000")
                                      << QStringLiteral("--json") << QString::fromLatin1(key));
            QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
            const QByteArray token = run.json.value(QStringLiteral("token")).toString().toUtf8();
            int holding = 0;
            for (int n = 0; n < 5; ++n)
                holding += DirectRedis(five.port(n)).get(key) == token ? 1 : 0;
            if (holding != 5)
                partial << QStringLiteral("%1 on %2 nodes").arg(QString::fromLatin1(key)).arg(holding);

            const CliRun extended =
                runCli(QStringList{QStringLiteral("extend")} << common << QStringLiteral("--ttl")
                                                             << QStringLiteral("120000") << QStringLiteral("--token")
                                                             << QString::fromUtf8(token) << QString::fromLatin1(key));
            QVERIFY2(extended.exitCode == 0, qPrintable(extended.describe()));
            int renewed = 0;
            for (int n = 0; n < 5; ++n)
                renewed += DirectRedis(five.port(n)).pttl(key) > 60000 ? 1 : 0;
            if (renewed != 5)
                partial << QStringLiteral("%1 extended on %2 nodes").arg(QString::fromLatin1(key)).arg(renewed);
        }
        QVERIFY2(partial.isEmpty(), qPrintable(partial.join(QStringLiteral("; "))));
    }

    // The same with two slow nodes (150 ms each way through a proxy): the quorum of three fast nodes decides
    // long before the slow ones even finished their handshake, so an early exit leaves them without the key.
    void acquireWaitsForSlowNodesBeforeExit()
    {
        LocalCluster five;
        QString error;
        QVERIFY2(five.start(5, {}, &error), qPrintable(error));
        FaultProxy slow3(five.port(3));
        FaultProxy slow4(five.port(4));
        slow3.setLatencyMs(150);
        slow4.setLatencyMs(150);
        QStringList names;
        for (int n = 0; n < 3; ++n)
            names << five.endpoint(n).displayName();
        names << QStringLiteral("127.0.0.1:%1").arg(slow3.port()) << QStringLiteral("127.0.0.1:%1").arg(slow4.port());
        const QStringList common{
            QStringLiteral("--nodes"),
            names.join(u','),
            QStringLiteral("--node-timeout"),
            QStringLiteral("3000"),
        };
        for (int i = 0; i < 3; ++i) {
            const QByteArray key = "cli:slow" + QByteArray::number(i);
            const CliRun run = runCli(QStringList{QStringLiteral("acquire")}
                                      << common << QStringLiteral("--ttl") << QStringLiteral("60000")
                                      << QStringLiteral("--json") << QString::fromLatin1(key));
            QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
            const QByteArray token = run.json.value(QStringLiteral("token")).toString().toUtf8();
            for (int n = 0; n < 5; ++n)
                QVERIFY2(DirectRedis(five.port(n)).get(key) == token, qPrintable(QStringLiteral("node %1").arg(n)));
            const CliRun extended =
                runCli(QStringList{QStringLiteral("extend")} << common << QStringLiteral("--ttl")
                                                             << QStringLiteral("120000") << QStringLiteral("--token")
                                                             << QString::fromUtf8(token) << QString::fromLatin1(key));
            QVERIFY2(extended.exitCode == 0, qPrintable(extended.describe()));
            for (int n = 0; n < 5; ++n)
                QVERIFY2(DirectRedis(five.port(n)).pttl(key) > 60000, qPrintable(QStringLiteral("node %1").arg(n)));
            // Interop report: "extended on 3 of 5 nodes" read as 2 failures while all 5 were renewed. The line
            // says how many had not answered yet when the quorum decided.
            const QRegularExpressionMatch line =
                QRegularExpression(QStringLiteral("^extended \"cli:slow\\d\" on (\\d) of 5 nodes \\(quorum 3(.*)\\): "))
                    .match(QString::fromUtf8(extended.out));
            QVERIFY2(line.hasMatch(), qPrintable(extended.describe()));
            const int decidedOn = line.captured(1).toInt();
            QCOMPARE(line.captured(2),
                     decidedOn == 5
                         ? QString()
                         : QStringLiteral("; %1 more had not answered when it was decided").arg(5 - decidedOn));
        }
    }

    // D9: "not found on any node (expired or taken over)" is said only when every node answered.
    void releaseSaysWhatTheNodesSaid()
    {
        LocalCluster three;
        QString error;
        QVERIFY2(three.start(3, {}, &error), qPrintable(error));
        const QString nodes = nodeList(three);
        QVERIFY(three.stopNode(1));
        QVERIFY(three.stopNode(2));
        const QStringList release{QStringLiteral("release"), QStringLiteral("--nodes"), nodes,
                                  QStringLiteral("--token"), QStringLiteral("t"),       QStringLiteral("cli:gone")};
        const CliRun someDown = runCli(release);
        QVERIFY2(someDown.exitCode == 3, qPrintable(someDown.describe()));
        QVERIFY2(!someDown.out.contains("not found on any node"), qPrintable(someDown.describe()));
        QVERIFY2(someDown.out.contains("not found on the 1 node(s) that answered; 2 node(s) did not answer"),
                 qPrintable(someDown.describe()));
        QVERIFY(three.stopNode(0));
        const CliRun allDown = runCli(release);
        QVERIFY2(allDown.exitCode == 3, qPrintable(allDown.describe()));
        QVERIFY2(!allDown.out.contains("not found on any node"), qPrintable(allDown.describe()));
        QVERIFY2(allDown.out.contains("no node answered"), qPrintable(allDown.describe()));
    }

    // D10: a token nobody received is not a success; the lock is released again.
    void outputThatCannotBeWrittenIsAnError()
    {
        QProcess acquire;
        acquire.setStandardOutputFile(QStringLiteral("/dev/full"));
        // A node timeout generous for a loaded machine (the default is 50 ms): the release that undoes the
        // lock must hear every node to say "3 of 3".
        acquire.start(QStringLiteral(REDLOCK_CLI_PATH),
                      {QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--node-timeout"),
                       QStringLiteral("3000"), QStringLiteral("--ttl"), QStringLiteral("60000"),
                       QStringLiteral("cli:full")});
        QVERIFY(acquire.waitForFinished(20000));
        const QByteArray err = acquire.readAllStandardError();
        QVERIFY2(acquire.exitStatus() == QProcess::NormalExit && acquire.exitCode() == 5, err.constData());
        QVERIFY2(err.contains("released again on 3 of 3 nodes"), err.constData());
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("cli:full"));

        QProcess inspect;
        inspect.setStandardOutputFile(QStringLiteral("/dev/full"));
        inspect.start(QStringLiteral(REDLOCK_CLI_PATH),
                      {QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes});
        QVERIFY(inspect.waitForFinished(20000));
        QVERIFY2(inspect.exitCode() == 5, inspect.readAllStandardError().constData());
    }

    // Hostile N1: a script that stops reading after the token line (`| head -2`, `| grep -m1 token:`) has the
    // token, so the lock is its own: it stays held, and redlock exits 0. It used to meet EPIPE on the table
    // after the token, release the lock and exit 5 (hidden by the pipeline) in about 3 runs of 10. 50 runs
    // through a real shell pipeline per idiom; after them, each lock's holders are read on the nodes.
    void acquireKeepsTheLockOnceTheTokenLineIsOut_data()
    {
        QTest::addColumn<QString>("reader");
        QTest::addColumn<QString>("prefix");
        QTest::newRow("head -2") << QStringLiteral("head -2") << QStringLiteral("cli:pipe:head:");
        QTest::newRow("grep -m1 token:") << QStringLiteral("grep -m1 token:") << QStringLiteral("cli:pipe:grep:");
    }

    void acquireKeepsTheLockOnceTheTokenLineIsOut()
    {
        QFETCH(QString, reader);
        QFETCH(QString, prefix);
        constexpr int kRuns = 50;
        // A node timeout generous for a loaded machine: every node gets the key, as the holder count expects.
        const CliRun run = runShell(QStringLiteral("for i in $(seq 1 %1); do\n"
                                                   "  \"$1\" acquire --nodes \"$2\" --ttl 120000 --node-timeout 3000 "
                                                   "\"$3$i\" | %2\n"
                                                   "  echo \"exit=${PIPESTATUS[0]}\"\n"
                                                   "done")
                                        .arg(kRuns)
                                        .arg(reader),
                                    {m_nodes, prefix}, 240000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QList<QByteArray> tokens;
        QList<int> exits;
        QByteArray token;
        for (const QByteArray& line : run.out.split('\n')) {
            if (line.startsWith("token: ")) {
                token = line.mid(7);
            } else if (line.startsWith("exit=")) {
                tokens << token;
                exits << line.mid(5).toInt();
                token.clear();
            }
        }
        QCOMPARE(tokens.size(), kRuns);
        QStringList lost;
        for (int i = 0; i < kRuns; ++i) {
            const QByteArray key = prefix.toUtf8() + QByteArray::number(i + 1);
            int holders = 0;
            for (int n = 0; n < 3; ++n) {
                if (!tokens[i].isEmpty() && DirectRedis(m_cluster.port(n)).get(key) == tokens[i])
                    ++holders;
            }
            if (tokens[i].isEmpty() || holders < 2 || exits[i] != 0)
                lost << QStringLiteral("run %1: token \"%2\", redlock exit %3, held on %4 of 3 nodes")
                            .arg(i + 1)
                            .arg(QString::fromUtf8(tokens[i]))
                            .arg(exits[i])
                            .arg(holders);
        }
        QVERIFY2(lost.isEmpty(), qPrintable(lost.join(u'\n') + u'\n' + QString::fromUtf8(run.err)));
        QVERIFY2(!run.err.contains("released again"), run.err.constData());

        // extend and release print their result first too: `| head -1` has it, and is no failure. A shell script
        // does not go through runCli: the generous node timeout is given here.
        const QString key = prefix + QStringLiteral("1");
        const CliRun extended =
            runShell(QStringLiteral("for i in $(seq 1 20); do\n"
                                    "  \"$1\" extend --nodes \"$2\" --token \"$3\" --ttl 120000 --node-timeout 2000 "
                                    "\"$4\" | head -1\n"
                                    "  echo \"exit=${PIPESTATUS[0]}\"\n"
                                    "done"),
                     {m_nodes, QString::fromUtf8(tokens[0]), key}, 120000);
        QCOMPARE(extended.out.count("exit=0"), 20);
        QCOMPARE(extended.out.count(QByteArray("extended \"" + key.toUtf8() + "\" on ")), 20);
        for (int i = 0; i < kRuns; ++i) {
            for (int n = 0; n < 3; ++n)
                DirectRedis(m_cluster.port(n)).command({"DEL", prefix.toUtf8() + QByteArray::number(i + 1)});
        }
    }

    // Hostile N5: `watch | head -1` never ended. A watch whose reader has gone stops at once (exit 5, and the
    // reason is the failed write's own, not whatever errno held at exit).
    void watchStopsWhenItsReaderHasGone()
    {
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).set("cli:readergone", "watched-token", 600000);
        // One event only (the lock seen held): head takes it and leaves; nothing more is written after it.
        const CliRun piped = runShell(QStringLiteral("\"$1\" watch --nodes \"$2\" --pattern 'cli:readergone' --json "
                                                     "--no-alerts | head -1\n"
                                                     "echo \"watch=${PIPESTATUS[0]}\" >&2"),
                                      {m_nodes}, 30000);
        QVERIFY2(piped.exitCode == 0 && piped.err.contains("watch=5"), qPrintable(piped.describe()));
        QVERIFY2(piped.err.contains("redlock: cannot write the output: Broken pipe"), qPrintable(piped.describe()));
        const QJsonObject first = QJsonDocument::fromJson(piped.out).object();
        QCOMPARE(first.value(QStringLiteral("event")).toString(), QStringLiteral("seen-held"));
        QCOMPARE(first.value(QStringLiteral("key")).toString(), QStringLiteral("cli:readergone"));

        // A write that fails on something that is no pipe ends it too, with that write's reason.
        const CliRun full = runShell(QStringLiteral("\"$1\" watch --nodes \"$2\" --pattern 'cli:readergone' --json "
                                                    "--no-alerts > /dev/full"),
                                     {m_nodes}, 30000);
        QVERIFY2(full.exitCode == 5, qPrintable(full.describe()));
        QVERIFY2(full.err.contains("redlock: cannot write the output: No space left on device"),
                 qPrintable(full.describe()));
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).command({"DEL", "cli:readergone"});
    }

    // Hostile N17: a --json command with a usage error wrote no JSON at all, only stderr.
    void jsonCommandsReportUsageErrorsInJson()
    {
        const CliRun badNodes = runCli({QStringLiteral("acquire"), QStringLiteral("--json"), QStringLiteral("--nodes"),
                                        QStringLiteral("127.0.0.1:0"), QStringLiteral("cli:json-usage")});
        QVERIFY2(badNodes.exitCode == 2, qPrintable(badNodes.describe()));
        QCOMPARE(badNodes.json.value(QStringLiteral("command")).toString(), QStringLiteral("acquire"));
        QCOMPARE(badNodes.json.value(QStringLiteral("ok")).toBool(true), false);
        QCOMPARE(badNodes.json.value(QStringLiteral("exitCode")).toInt(), 2);
        QVERIFY2(badNodes.json.value(QStringLiteral("error")).toString().contains(u"bad port \"0\""),
                 qPrintable(badNodes.describe()));
        QVERIFY2(badNodes.err.contains("bad --nodes"), qPrintable(badNodes.describe()));
        const CliRun unknownOption = runCli(
            {QStringLiteral("release"), QStringLiteral("--json"), QStringLiteral("--bogus"), QStringLiteral("k")});
        QVERIFY2(unknownOption.exitCode == 2 &&
                     unknownOption.json.value(QStringLiteral("error")).toString().contains(u"bogus"),
                 qPrintable(unknownOption.describe()));
        const CliRun badDelay =
            runCli({QStringLiteral("force-release"), QStringLiteral("--json"), QStringLiteral("--nodes"), m_nodes,
                    QStringLiteral("--token"), QStringLiteral("t"), QStringLiteral("--lock-delay"),
                    QStringLiteral("soon"), QStringLiteral("--yes"), QStringLiteral("cli:json-usage")});
        QVERIFY2(badDelay.exitCode == 2 &&
                     badDelay.json.value(QStringLiteral("error")).toString().contains(u"--lock-delay"),
                 qPrintable(badDelay.describe()));
        // Text commands keep stdout for results only.
        const CliRun text = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), QStringLiteral("127.0.0.1:0"),
                                    QStringLiteral("cli:json-usage")});
        QVERIFY2(text.exitCode == 2 && text.out.isEmpty(), qPrintable(text.describe()));
    }

    // Hostile N14: a password in a node URL was taken without a word (it shows in `ps` and the shell history) and
    // echoed in parse errors; a node text with ESC and BEL reached the terminal raw. A password in a URL is
    // refused, pointing to --password-env, and no message or JSON names it; every error on stderr has its control
    // characters escaped.
    void passwordsInNodeUrlsAreRefusedAndNeverEchoed()
    {
        const QString secret = QStringLiteral("s3cretPW");
        const QString withPassword = QStringLiteral("redis://:%1@%2").arg(secret, m_cluster.endpoint(0).displayName());
        for (const QStringList& args :
             {QStringList{QStringLiteral("acquire"), QStringLiteral("--nodes"), withPassword, QStringLiteral("cli:pw")},
              QStringList{QStringLiteral("acquire"), QStringLiteral("--json"), QStringLiteral("--nodes"), withPassword,
                          QStringLiteral("cli:pw")},
              QStringList{QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes + u',' + withPassword}}) {
            const CliRun run = runCli(args);
            QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
            QVERIFY2(run.err.contains("--password-env"), qPrintable(run.describe()));
            QVERIFY2(!run.err.contains(secret.toUtf8()) && !run.out.contains(secret.toUtf8()),
                     qPrintable(run.describe()));
        }
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists("cli:pw"));
        // A URL that does not parse (port 0) is named with its password masked, in text and in JSON.
        const CliRun badPort =
            runCli({QStringLiteral("acquire"), QStringLiteral("--json"), QStringLiteral("--nodes"),
                    QStringLiteral("redis://:%1@127.0.0.1:0").arg(secret), QStringLiteral("cli:pw")});
        QVERIFY2(badPort.exitCode == 2, qPrintable(badPort.describe()));
        QVERIFY2(badPort.err.contains("redis://:***@127.0.0.1:0"), qPrintable(badPort.describe()));
        QVERIFY2(!badPort.err.contains(secret.toUtf8()) && !badPort.out.contains(secret.toUtf8()),
                 qPrintable(badPort.describe()));
        QVERIFY2(badPort.json.value(QStringLiteral("error")).toString().contains(u"redis://:***@"),
                 qPrintable(badPort.describe()));

        // Control characters from the command line: escaped, in the parse error and in any other message.
        const CliRun escape = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"),
                                      QStringLiteral("\x1b]0;x\x07:7501"), QStringLiteral("cli:x")});
        QVERIFY2(escape.exitCode == 2, qPrintable(escape.describe()));
        QVERIFY2(!escape.err.contains('\x1b') && !escape.err.contains('\x07'), qPrintable(escape.describe()));
        QVERIFY2(escape.err.contains("\\x1b]0;x\\x07"), qPrintable(escape.describe()));
        const CliRun variable =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--password-env"),
                    QStringLiteral("NO_SUCH\x1b[2J\rVAR"), QStringLiteral("cli:x")});
        QVERIFY2(variable.exitCode == 2, qPrintable(variable.describe()));
        QVERIFY2(!variable.err.contains('\x1b') && !variable.err.contains('\r'), qPrintable(variable.describe()));
        QVERIFY2(variable.err.contains("NO_SUCH\\x1b[2J\\x0dVAR"), qPrintable(variable.describe()));
    }

    // Hostile N11, the command line's side: a node list beyond the limit is refused before any node is contacted.
    void tooManyNodesAreRefused()
    {
        QStringList nodes;
        for (int i = 0; i <= rules::kMaxNodes; ++i)
            nodes << QStringLiteral("127.0.0.%1:%2").arg(1 + i / 60000).arg(1 + i % 60000);
        const CliRun run = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), nodes.join(u',')});
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.contains(QStringLiteral("%1 nodes listed: at most %2 are accepted")
                                      .arg(rules::kMaxNodes + 1)
                                      .arg(rules::kMaxNodes)
                                      .toUtf8()),
                 qPrintable(run.describe()));
    }

    // Usage mistakes that used to be taken literally.
    void ambiguousArgumentsAreRefused()
    {
        // An empty resource name (an unset shell variable) locks nothing.
        const CliRun empty = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QString()});
        QVERIFY2(empty.exitCode == 2, qPrintable(empty.describe()));
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists(""));
        const CliRun emptyRelease = runCli({QStringLiteral("release"), QStringLiteral("--nodes"), m_nodes,
                                            QStringLiteral("--token"), QStringLiteral("t"), QString()});
        QVERIFY2(emptyRelease.exitCode == 2, qPrintable(emptyRelease.describe()));
        const CliRun emptyKey =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--token"),
                    QStringLiteral("t"), QStringLiteral("--dry-run"), QString()});
        QVERIFY2(emptyKey.exitCode == 2, qPrintable(emptyKey.describe()));
        const CliRun emptyPattern = runCli(
            {QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--pattern"), QString()});
        QVERIFY2(emptyPattern.exitCode == 2, qPrintable(emptyPattern.describe()));

        // A second --nodes does not replace the first: it is an error, and nothing is locked.
        const CliRun twice =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--nodes"),
                    m_cluster.endpoint(0).displayName(), QStringLiteral("cli:twice")});
        QVERIFY2(twice.exitCode == 2, qPrintable(twice.describe()));
        QVERIFY2(twice.err.contains("--nodes is given 2 times"), qPrintable(twice.describe()));
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("cli:twice"));
    }

    // Every exit code a command can return is in its --help; force-release has its own block only.
    void helpListsEveryExitCode()
    {
        const CliRun general = runCli({QStringLiteral("--help")});
        QVERIFY2(general.out.contains("  4  audit: at least one severe finding"), general.out.constData());
        QVERIFY2(general.out.contains("  5  the result could not be written"), general.out.constData());
        const CliRun watch = runCli({QStringLiteral("watch"), QStringLiteral("--help")});
        QVERIFY2(watch.out.contains("A reader that has gone ends the watch at once, with exit code 5"),
                 watch.out.constData());
        const CliRun audit = runCli({QStringLiteral("audit"), QStringLiteral("--help")});
        QVERIFY2(audit.out.contains("  4  audit: at least one severe finding"), audit.out.constData());
        const CliRun forceRelease = runCli({QStringLiteral("force-release"), QStringLiteral("--help")});
        QCOMPARE(forceRelease.out.count("Exit codes"), 0);
        QCOMPARE(forceRelease.out.count("Outcomes (\"outcome\" in the JSON) and exit codes:"), 1);
        for (const char* row : {"  0 released  ", "  1 nothing-matched  ", "  1 not-released  ", "  2 refused  ",
                                "  3 unreachable  ", "  6 held-by-other  ", "  7 released-partially  "})
            QVERIFY2(forceRelease.out.contains(row), row);
    }

    // Messages follow the locale (the CLI's strings are extracted and translated like the console's); what scripts
    // rely on does not: exit codes, and the keys and ids of the JSON output.
    void messagesFollowTheLocaleExitCodesDoNot()
    {
        const QString zh = QStringLiteral("zh_CN.UTF-8");
        const CliRun help = runCli({QStringLiteral("--help")}, 30000, zh);
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("用法：redlock") && help.out.contains("退出码"), help.out.constData());
        const CliRun acquireHelp = runCli({QStringLiteral("acquire"), QStringLiteral("--help")}, 30000, zh);
        QVERIFY2(acquireHelp.out.contains("法定人数"), acquireHelp.out.constData()); // redlock::cli::LockCommands

        const CliRun noNodes = runCli({QStringLiteral("acquire"), QStringLiteral("k")}, 30000, zh);
        QCOMPARE(noNodes.exitCode, 2);
        QVERIFY2(noNodes.err.contains("必须给出 --nodes"), noNodes.err.constData()); // redlock::cli::CommandLine
        const CliRun badNode = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"),
                                       QStringLiteral("127.0.0.1:99999"), QStringLiteral("k")},
                                      30000, zh);
        QCOMPARE(badNode.exitCode, 2);
        QVERIFY2(badNode.err.contains("端口"), badNode.err.constData()); // redlock::NodeEndpoint, from core

        // Messages, not timing: 2 s per node instead of the default 50 ms, which a loaded machine misses (exit 3).
        const QString nodeTimeout = QStringLiteral("2000");
        const CliRun acquired =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--node-timeout"),
                    nodeTimeout, QStringLiteral("--json"), QStringLiteral("cli:locale")},
                   30000, zh);
        QVERIFY2(acquired.exitCode == 0, qPrintable(acquired.describe()));
        QVERIFY2(acquired.json.contains(QStringLiteral("token")), qPrintable(acquired.describe()));
        QCOMPARE(runCli({QStringLiteral("release"), QStringLiteral("--nodes"), m_nodes,
                         QStringLiteral("--node-timeout"), nodeTimeout, QStringLiteral("--token"),
                         acquired.json.value(QStringLiteral("token")).toString(), QStringLiteral("cli:locale")},
                        30000, zh)
                     .exitCode,
                 0);

        // The same in the C locale is English.
        QVERIFY(runCli({QStringLiteral("--help")}).out.startsWith("Usage: redlock"));
    }

    // The audit log names keys, tokens and operators: created readable by its owner only.
    void auditLogIsPrivate()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString log = dir.filePath(QStringLiteral("audit.jsonl"));
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).set("cli:audited", "tok", 60000);
        const CliRun run = runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes,
                                   QStringLiteral("--token"), QStringLiteral("tok"), QStringLiteral("--yes"),
                                   QStringLiteral("--audit-log"), log, QStringLiteral("cli:audited")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        struct stat info = {};
        QCOMPARE(::stat(QFile::encodeName(log).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
    }

    // Hostile N7: a journal the user may read but not write (a service account's, with its folder; written and
    // closed, so SQLite's -wal and -shm are gone) failed with "attempt to write a readonly database". The file and its
    // folder are made read-only; a root reader loses the capabilities that would let it write them all the same.
    void historyReadsAJournalItMayNotWrite()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("service"));
        const QString path = folder + QStringLiteral("/history.sqlite");
        {
            JournalOptions o;
            o.path = path;
            o.source = QStringLiteral("test");
            LockJournal journal(o);
            journal.start();
            JournalEvent e;
            e.atMs = QDateTime::currentMSecsSinceEpoch() - 60'000;
            e.key = "svc:job";
            e.kind = QStringLiteral("acquired");
            e.token = "tok";
            journal.record(QList<JournalEvent>{e});
            QFuture<bool> flushed = journal.flush();
            flushed.waitForFinished();
            QVERIFY(flushed.result());
        }
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-shm")));
        // Readable by the reader, writable by nobody: the owner's write bits are off. Root ignores them, so as root
        // the reader runs without the capabilities that override file permissions (dropped from its bounding set:
        // exec does not give them back). It stays uid 0, so it still reaches a build tree under /root (0700), where
        // another user such as nobody could not even start the program (a fresh chroot builds there).
        QCOMPARE(::chmod(QFile::encodeName(dir.path()).constData(), 0755), 0);
        QCOMPARE(::chmod(QFile::encodeName(folder).constData(), 0555), 0);
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0444), 0);
        const auto writableAgain = qScopeGuard([folder] { ::chmod(QFile::encodeName(folder).constData(), 0700); });

        QProcess history;
        history.setProcessEnvironment(cliEnvironment());
        if (::geteuid() == 0) {
            history.setChildProcessModifier([] {
                for (const int capability : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER}) {
                    if (::prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0)
                        ::_exit(127);
                }
            });
        }
        history.start(QStringLiteral(REDLOCK_CLI_PATH),
                      {QStringLiteral("history"), QStringLiteral("svc:*"), QStringLiteral("--journal"), path,
                       QStringLiteral("--since"), QStringLiteral("-1h"), QStringLiteral("--json")});
        QVERIFY2(history.waitForFinished(20000), qPrintable(history.errorString()));
        const QByteArray out = history.readAllStandardOutput();
        const QByteArray err = history.readAllStandardError();
        QVERIFY2(history.exitStatus() == QProcess::NormalExit && history.exitCode() == 0, err.constData());
        const QJsonArray intervals = QJsonDocument::fromJson(out).object().value(QStringLiteral("intervals")).toArray();
        QCOMPARE(intervals.size(), 1);
        QCOMPARE(intervals[0].toObject().value(QStringLiteral("key")).toString(), QStringLiteral("svc:job"));
        // The reader changed nothing: no side file left behind in a folder that is not its own.
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-shm")));
    }

    // Hostile N9, with two processes: a second `watch --journal` on a journal another watch writes says which
    // process writes it (the first one's pid), and goes on watching without writing to it.
    void secondWatchOnAJournalNamesTheFirst()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString journal = dir.filePath(QStringLiteral("shared.sqlite"));
        const QStringList args{QStringLiteral("watch"),
                               QStringLiteral("--nodes"),
                               m_nodes,
                               QStringLiteral("--pattern"),
                               QStringLiteral("cli:two-writers:*"),
                               QStringLiteral("--journal"),
                               journal,
                               QStringLiteral("--json")};
        QProcess first;
        first.setProcessEnvironment(cliEnvironment());
        first.start(QStringLiteral(REDLOCK_CLI_PATH), args);
        QVERIFY(first.waitForStarted());
        const auto stop = [](QProcess& p) {
            p.terminate();
            if (!p.waitForFinished(10000)) {
                p.kill();
                p.waitForFinished();
            }
        };
        const auto stopFirst = qScopeGuard([&] { stop(first); });
        // The first has the journal once its writer lock names it.
        const auto lockHolder = [&journal] {
            QFile lock(journal + QStringLiteral("-writer.lock"));
            return lock.open(QIODevice::ReadOnly) ? lock.readLine().trimmed().toLongLong() : 0;
        };
        QTRY_COMPARE_WITH_TIMEOUT(lockHolder(), first.processId(), 15000);

        QProcess second;
        second.setProcessEnvironment(cliEnvironment());
        second.start(QStringLiteral(REDLOCK_CLI_PATH), args);
        QVERIFY(second.waitForStarted());
        const auto stopSecond = qScopeGuard([&] { stop(second); });
        second.setReadChannel(QProcess::StandardError); // waitForReadyRead() wakes on what it says
        const QByteArray expected = QStringLiteral("process %1 (redlock on ").arg(first.processId()).toUtf8();
        QByteArray err;
        QDeadlineTimer deadline(15000);
        while (!err.contains("writes this journal") && !deadline.hasExpired() && second.state() == QProcess::Running) {
            second.waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime())));
            err += second.readAllStandardError();
        }
        QVERIFY2(err.contains("writes this journal") && err.contains(expected), err.constData());
        QCOMPARE(second.state(), QProcess::Running); // watching goes on
        QCOMPARE(lockHolder(), first.processId());
    }

    // `redlock history --journal FIFO` waited forever; a folder said "disk I/O error"; '' said ": no such journal".
    void historyRefusesAJournalThatIsNoFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath(QStringLiteral("journal.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const CliRun onFifo = runCli({QStringLiteral("history"), QStringLiteral("--journal"), fifo}, 10000);
        QVERIFY2(onFifo.exitCode == 2 && onFifo.err.contains("not a regular file (a FIFO)"),
                 qPrintable(onFifo.describe()));
        const CliRun onFolder = runCli({QStringLiteral("history"), QStringLiteral("--journal"), dir.path()}, 10000);
        QVERIFY2(onFolder.exitCode == 2 && onFolder.err.contains("not a regular file (a folder)"),
                 qPrintable(onFolder.describe()));
        const CliRun empty = runCli({QStringLiteral("history"), QStringLiteral("--journal"), QString()}, 10000);
        QVERIFY2(empty.exitCode == 2 && empty.err.contains("--journal needs a file name"),
                 qPrintable(empty.describe()));
    }

    // D1: one 1 MB key made every row of the text table 1 MB wide (14 GB for 10,000 locks). Cells are capped
    // and elided, rows streamed: every line stays short, the key is still recognisable.
    void inspectTextIsBoundedWhateverTheKeys()
    {
        const QByteArray bigKey = "cli:big:" + QByteArray(1 << 20, 'K');
        const QByteArray bigValue = QByteArray(1 << 20, 'V');
        for (int i = 0; i < 3; ++i) {
            DirectRedis node(m_cluster.port(i));
            node.set(bigKey, bigValue, 120000);
            for (int k = 0; k < 50; ++k)
                node.set("cli:big:n" + QByteArray::number(k), "t" + QByteArray::number(k), 120000);
        }
        QElapsedTimer timer;
        timer.start();
        const CliRun run = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                   QStringLiteral("--pattern"), QStringLiteral("cli:big:*")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe().left(2000)));
        QVERIFY2(timer.elapsed() < 15000, qPrintable(QString::number(timer.elapsed())));
        const QList<QByteArray> lines = run.out.split('\n');
        QVERIFY2(lines.size() >= 53, run.out.left(2000).constData()); // header, 51 rows, blank, summary
        qsizetype longest = 0;
        for (const QByteArray& line : lines)
            longest = std::max(longest, QString::fromUtf8(line).size());
        QVERIFY2(longest < 300, qPrintable(QString::number(longest)));
        QVERIFY2(run.out.contains("\ncli:big:KKKK"), run.out.left(2000).constData());
        QVERIFY2(run.out.contains("cli:big:n49 "), run.out.left(2000).constData());
        QVERIFY(run.out.size() < 64 * 1024);
        // JSON keeps the whole key (scripts need it to address the lock).
        const CliRun json =
            runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--pattern"),
                    QStringLiteral("cli:big:K*"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.describe().left(2000)));
        const InspectLines parsed = parseInspectLines(json.out);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QCOMPARE(parsed.locks.size(), 1);
        QCOMPARE(parsed.locks.first().toObject().value(QStringLiteral("key")).toString().toUtf8(), bigKey);
    }

    // inspect --json is JSON Lines: every line parses on its own, whatever bytes the keys and values hold,
    // and the documented decoding (each \\xNN back to its byte) gives the exact key and value bytes back.
    void inspectJsonLinesRoundTripHostileKeys()
    {
        const auto bytes = [](const auto& literal) { return QByteArray(literal, sizeof(literal) - 1); };
        const QList<QByteArray> keys{
            bytes("cli:h:quote\"d\""),
            bytes("cli:h:ctl\x01\x1b[31m\n\r\t\x00"
                  "end"),
            bytes("cli:h:bad\xff\xfe\xc3(\xed\xa0\x80"),
            bytes("cli:h:back\\x41slash\\"),
            QStringLiteral("cli:h:uni\u9501\u202e\U0001F512").toUtf8(),
            bytes("cli:h:json}\n{\"type\":\"summary\"}"),
        };
        const QByteArray value = bytes("v\"\\\x00\xff\x7f\n");
        for (int i = 0; i < 3; ++i) {
            for (const QByteArray& key : keys)
                DirectRedis(m_cluster.port(i)).set(key, value, 120000);
        }
        const CliRun run = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                   QStringLiteral("--pattern"), QStringLiteral("cli:h:*"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(!hasTerminalControl(run.out), qPrintable(run.describe()));
        const InspectLines lines = parseInspectLines(run.out);
        QVERIFY2(lines.error.isEmpty(), qPrintable(lines.error + u'\n' + run.describe()));
        QCOMPARE(lines.locks.size(), keys.size());
        QCOMPARE(lines.summary.value(QStringLiteral("locks")).toInt(), keys.size());
        const auto decode = [](const QString& printable) {
            const QByteArray utf8 = printable.toUtf8();
            QByteArray decoded;
            for (qsizetype i = 0; i < utf8.size(); ++i) {
                if (utf8[i] == '\\' && i + 3 < utf8.size() && utf8[i + 1] == 'x') {
                    decoded += char(utf8.mid(i + 2, 2).toInt(nullptr, 16));
                    i += 3;
                } else {
                    decoded += utf8[i];
                }
            }
            return decoded;
        };
        QList<QByteArray> found;
        for (const QJsonValue& lock : lines.locks) {
            const QJsonObject o = lock.toObject();
            found.append(decode(o.value(QStringLiteral("key")).toString()));
            QCOMPARE(decode(o.value(QStringLiteral("token")).toString()), value);
            QCOMPARE(o.value(QStringLiteral("verdict")).toString(), QStringLiteral("held"));
            for (const QJsonValue& n : o.value(QStringLiteral("nodes")).toArray())
                QCOMPARE(decode(n.toObject().value(QStringLiteral("value")).toString()), value);
        }
        std::sort(found.begin(), found.end());
        QList<QByteArray> expected = keys;
        std::sort(expected.begin(), expected.end());
        QCOMPARE(found, expected);
    }

    // D11: a key the ACL does not let us read was shown as "unreachable" with no reason anywhere.
    void inspectNamesTheReasonAKeyWasNotRead()
    {
        LocalCluster one;
        QString error;
        QVERIFY2(one.start(1, {}, &error), qPrintable(error));
        DirectRedis admin(one.port(0));
        QCOMPARE(admin.command({"ACL", "SETUSER", "limited", "on", ">lpw", "~cli:ok*", "+@all"}).str, QByteArray("OK"));
        admin.set("cli:ok", "3f2b8c1d9e0a4b5c6d7e8f9012345678", 60000); // a lock format: "*" counts it
        admin.set("other:k", "tok2", 60000);
        qputenv("REDLOCK_TEST_PW", "lpw");
        const CliRun run =
            runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), nodeList(one), QStringLiteral("--user"),
                    QStringLiteral("limited"), QStringLiteral("--password-env"), QStringLiteral("REDLOCK_TEST_PW")});
        qunsetenv("REDLOCK_TEST_PW");
        QVERIFY2(run.out.contains("cli:ok"), qPrintable(run.describe()));
        QVERIFY2(run.err.contains("1 key(s) not read: ") && run.err.contains("NOPERM"), qPrintable(run.describe()));
    }

    void clusterCommandRunsUntilSigterm()
    {
        QProcess cluster;
        cluster.start(QStringLiteral(REDLOCK_CLI_PATH),
                      {QStringLiteral("cluster"), QStringLiteral("--nodes-count"), QStringLiteral("3")});
        QVERIFY(cluster.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(cluster.canReadLine(), 15000);
        const QString nodes = QString::fromUtf8(cluster.readLine()).trimmed();
        QCOMPARE(nodes.split(u',').size(), 3);
        const CliRun run = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), nodes, QStringLiteral("k")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        cluster.terminate(); // SIGTERM: the servers are stopped and the directory removed
        QVERIFY(cluster.waitForFinished(15000));
        QCOMPARE(cluster.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cluster.exitCode(), 0);
        // The servers are gone with it.
        const CliRun after = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), nodes,
                                     QStringLiteral("--retry"), QStringLiteral("0"), QStringLiteral("k")});
        QVERIFY2(after.exitCode == 3, qPrintable(after.describe()));
    }

    // watch tells data loss from a release (nodes restarted empty under a held lock), and says when nodes
    // become unreachable, all of them included, instead of staying silent (adversarial D5).
    void watchReportsLostLocksAndUnreachableNodes()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error)); // no persistence
        for (int i = 0; i < 3; ++i)
            DirectRedis(cluster.port(i)).set("watch:held", "holder-token", 600000);
        QProcess watch;
        watch.start(QStringLiteral(REDLOCK_CLI_PATH),
                    {QStringLiteral("watch"), QStringLiteral("--nodes"), nodeList(cluster), QStringLiteral("--pattern"),
                     QStringLiteral("watch:*"), QStringLiteral("--reconcile"), QStringLiteral("300"),
                     QStringLiteral("--budget"), QStringLiteral("250")});
        QVERIFY(watch.waitForStarted());
        QByteArray out, err;
        auto read = [&] {
            out += watch.readAllStandardOutput();
            err += watch.readAllStandardError();
        };
        auto outLineWith = [&](const QByteArray& a, const QByteArray& b) {
            read();
            for (const QByteArray& line : out.split('\n')) {
                if (line.contains(a) && line.contains(b))
                    return true;
            }
            return false;
        };
        // A lock that changes after the first pass (the baseline, which prints nothing) is news: once an event
        // about it is printed, the baseline is done. It changes hands until then.
        int version = 0;
        auto baselineDone = [&] {
            if (outLineWith("watch:later", "  "))
                return true;
            const QByteArray token = "t" + QByteArray::number(++version);
            for (int i = 0; i < 3; ++i)
                DirectRedis(cluster.port(i)).set("watch:later", token, 600000);
            return false;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(baselineDone(), qPrintable(QString::fromUtf8(out + err)), 15000);
        // These nodes send no keyspace events: said per node, with the budget the rescan keeps to.
        QTRY_VERIFY2_WITH_TIMEOUT((read(), err.count("no keyspace events") == 3), qPrintable(QString::fromUtf8(err)),
                                  5000);
        QVERIFY2(err.contains("changes show only through the background rescan (250 commands/s)"),
                 qPrintable(QString::fromUtf8(err)));
        for (const int i : {1, 2})
            QVERIFY(cluster.killNode(i));
        for (const int i : {1, 2})
            QVERIFY2(cluster.startNode(i, &error), qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(outLineWith("lost on node restart", "watch:held"),
                                  qPrintable(QString::fromUtf8(out + err)), 15000);
        QVERIFY2(!outLineWith("released", "watch:held"), qPrintable(QString::fromUtf8(out)));
        QVERIFY2(err.contains("restarted"), qPrintable(QString::fromUtf8(err)));
        for (int i = 0; i < 3; ++i)
            QVERIFY(cluster.stopNode(i));
        QTRY_VERIFY2_WITH_TIMEOUT((read(), err.contains("no node reachable")), qPrintable(QString::fromUtf8(err)),
                                  15000);
        QVERIFY2(err.contains("unreachable"), qPrintable(QString::fromUtf8(err)));
        watch.terminate();
        QVERIFY(watch.waitForFinished(10000));
    }

private:
    LocalCluster m_cluster;
    QString m_nodes;
};

QTEST_GUILESS_MAIN(TestCli)
#include "TestCli.moc"
