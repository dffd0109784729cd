// `redlock run KEY -- COMMAND`, flock(1) for Redlock, with real processes: the real binary runs real commands
// (bash) against real redis-server nodes; what is on the nodes is read with hiredis directly.

#include "redlock/RedlockRules.h"
#include "support/CliTestSupport.h"
#include "support/DirectRedis.h"
#include "support/FaultProxy.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace redlock;

namespace {

constexpr int kExitLockLost = 8;

// A `redlock run` in the background: the test reads its stdout (the command's) and writes its stdin.
class RunProcess
{
public:
    explicit RunProcess(const QStringList& args)
    {
        m_process.setProcessEnvironment(cliEnvironment());
        m_process.start(QStringLiteral(REDLOCK_CLI_PATH), QStringList{QStringLiteral("run")} << args);
    }
    ~RunProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
    RunProcess(const RunProcess&) = delete;
    RunProcess& operator=(const RunProcess&) = delete;

    QProcess& process() { return m_process; }

    // The next line of stdout, or an empty string after timeoutMs.
    QByteArray readLine(int timeoutMs = 30000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!m_process.canReadLine() && !deadline.hasExpired()) {
            if (!m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime()))))
                break;
        }
        return m_process.canReadLine() ? m_process.readLine().trimmed() : QByteArray();
    }

    // The exit code, -1 if it did not end in time, -2 if it crashed.
    int finish(int timeoutMs = 30000)
    {
        // waitForFinished() is false for a process that has already ended.
        if (m_process.state() != QProcess::NotRunning && !m_process.waitForFinished(timeoutMs))
            return -1;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -2;
    }
    QString describe()
    {
        return QStringLiteral("stdout: %1\nstderr: %2")
            .arg(QString::fromUtf8(m_process.readAllStandardOutput()),
                 QString::fromUtf8(m_process.readAllStandardError()));
    }

private:
    QProcess m_process;
};

// "start PID" / "end PID" lines of contenders that append to one file: empty when no two runs overlap (each start
// is followed by the end of the same process before any other start), else what is wrong.
QString overlapIn(const QByteArray& log, int* runs)
{
    QByteArray current;
    QSet<QByteArray> seen;
    *runs = 0;
    const QList<QByteArray> lines = log.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QList<QByteArray> words = lines[i].split(' ');
        if (lines[i].isEmpty())
            continue;
        if (words.size() != 2)
            return QStringLiteral("line %1 is malformed: %2").arg(i + 1).arg(QString::fromUtf8(lines[i]));
        if (words[0] == "start") {
            if (!current.isEmpty())
                return QStringLiteral("line %1: %2 starts while %3 holds the lock")
                    .arg(i + 1)
                    .arg(QString::fromUtf8(words[1]), QString::fromUtf8(current));
            if (seen.contains(words[1]))
                return QStringLiteral("line %1: %2 starts twice").arg(i + 1).arg(QString::fromUtf8(words[1]));
            seen.insert(words[1]);
            current = words[1];
            ++*runs;
        } else if (words[0] == "end") {
            if (current != words[1])
                return QStringLiteral("line %1: %2 ends but %3 holds the lock")
                    .arg(i + 1)
                    .arg(QString::fromUtf8(words[1]), QString::fromUtf8(current));
            current.clear();
        } else {
            return QStringLiteral("line %1 is malformed: %2").arg(i + 1).arg(QString::fromUtf8(lines[i]));
        }
    }
    if (!current.isEmpty())
        return QStringLiteral("%1 never ended").arg(QString::fromUtf8(current));
    return {};
}

} // namespace

class TestCliRun : public QObject
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

    // The command runs while the lock is held: the token it gets is the value on the nodes, its exit status is
    // redlock's, and the lock is released once it has ended.
    void commandSeesTheTokenHeldOnTheNodes()
    {
        const QByteArray key = "run:token";
        RunProcess run({QStringLiteral("--nodes"), m_nodes, QStringLiteral("--ttl"), QStringLiteral("10000"),
                        QStringLiteral("--node-timeout"), QStringLiteral("1000"), QStringLiteral("--fencing"),
                        QString::fromLatin1(key), QStringLiteral("--"), QStringLiteral("bash"), QStringLiteral("-c"),
                        QStringLiteral("printf '%s %s\\n' \"$REDLOCK_TOKEN\" \"$REDLOCK_FENCING_TOKEN\"; read -r line; "
                                       "exit 7")});
        const QList<QByteArray> line = run.readLine().split(' ');
        QVERIFY2(line.size() == 2 && !line[0].isEmpty(), qPrintable(run.describe()));
        const QByteArray token = line[0];
        bool numeric = false;
        QVERIFY2(line[1].toLongLong(&numeric) > 0 && numeric, line[1].constData());
        int holding = 0;
        for (int i = 0; i < m_cluster.size(); ++i)
            holding += DirectRedis(m_cluster.port(i)).get(key) == std::optional<QByteArray>(token) ? 1 : 0;
        QVERIFY2(holding >= rules::quorum(m_cluster.size()), qPrintable(QString::number(holding)));

        run.process().write("go\n");
        run.process().closeWriteChannel();
        QCOMPARE(run.finish(), 7);
        for (int i = 0; i < m_cluster.size(); ++i)
            QVERIFY2(!DirectRedis(m_cluster.port(i)).exists(key), qPrintable(QString::number(i)));
    }

    void exitStatusAsShellsReportIt_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("expected");
        QTest::newRow("exit 0") << QStringLiteral("exit 0") << 0;
        QTest::newRow("exit 42") << QStringLiteral("exit 42") << 42;
        QTest::newRow("SIGUSR1") << QStringLiteral("kill -USR1 $$") << 128 + SIGUSR1;
    }
    void exitStatusAsShellsReportIt()
    {
        QFETCH(QString, script);
        QFETCH(int, expected);
        const CliRun run =
            runCli({QStringLiteral("run"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("run:status"),
                    QStringLiteral("--"), QStringLiteral("bash"), QStringLiteral("-c"), script});
        QVERIFY2(run.exitCode == expected, qPrintable(run.describe()));
        for (int i = 0; i < m_cluster.size(); ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("run:status"));
    }

    // A command that cannot run is refused before anything is locked.
    void missingCommandLocksNothing()
    {
        const CliRun run =
            runCli({QStringLiteral("run"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("run:missing"),
                    QStringLiteral("--"), QStringLiteral("redlock-test-no-such-command")});
        QVERIFY2(run.exitCode == 127, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("command not found"), qPrintable(run.describe()));
        const CliRun noCommand =
            runCli({QStringLiteral("run"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("run:missing")});
        QVERIFY2(noCommand.exitCode == 2, qPrintable(noCommand.describe()));
    }

    // Held elsewhere: without --wait one attempt and the command does not run; with --wait it runs once the
    // holder is done.
    void waitsForTheHolder()
    {
        const QByteArray key = "run:wait";
        RunProcess holder({QStringLiteral("--nodes"), m_nodes, QStringLiteral("--node-timeout"), QStringLiteral("1000"),
                           QString::fromLatin1(key), QStringLiteral("--"), QStringLiteral("bash"), QStringLiteral("-c"),
                           QStringLiteral("echo held; read -r line")});
        QCOMPARE(holder.readLine(), QByteArray("held"));
        const CliRun refused =
            runCli({QStringLiteral("run"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--node-timeout"),
                    QStringLiteral("1000"), QString::fromLatin1(key), QStringLiteral("--"), QStringLiteral("echo"),
                    QStringLiteral("ran")});
        QVERIFY2(refused.exitCode == 1 && refused.out.isEmpty(), qPrintable(refused.describe()));

        RunProcess waiter({QStringLiteral("--nodes"), m_nodes, QStringLiteral("--node-timeout"), QStringLiteral("1000"),
                           QStringLiteral("--wait"), QStringLiteral("60000"), QString::fromLatin1(key),
                           QStringLiteral("--"), QStringLiteral("echo"), QStringLiteral("ran")});
        holder.process().write("done\n");
        QCOMPARE(holder.finish(), 0);
        QCOMPARE(waiter.readLine(), QByteArray("ran"));
        QCOMPARE(waiter.finish(), 0);
    }

    // SIGINT / SIGTERM to redlock reach the command; redlock releases once it has ended and exits with its status.
    void stopSignalsAreForwarded_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }
    void stopSignalsAreForwarded()
    {
        QFETCH(int, signalNumber);
        const QByteArray key = "run:forward";
        RunProcess run({QStringLiteral("--nodes"), m_nodes, QStringLiteral("--node-timeout"), QStringLiteral("1000"),
                        QString::fromLatin1(key), QStringLiteral("--"), QStringLiteral("bash"), QStringLiteral("-c"),
                        QStringLiteral("trap 'echo got-signal; kill $!; exit 5' TERM INT HUP; echo ready; "
                                       "sleep 60 </dev/null >/dev/null 2>&1 & wait")});
        QCOMPARE(run.readLine(), QByteArray("ready"));
        ::kill(static_cast<pid_t>(run.process().processId()), signalNumber);
        QCOMPARE(run.readLine(), QByteArray("got-signal"));
        QCOMPARE(run.finish(), 5);
        for (int i = 0; i < m_cluster.size(); ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists(key));
    }

    // The lock is lost while the command runs (its keys deleted, or a majority of nodes paused so that the
    // extension fails): the command gets --on-lost's signal and redlock exits 8 whatever the command's status.
    void lostLockSignalsTheCommand_data()
    {
        QTest::addColumn<bool>("pauseMajority");
        QTest::addColumn<QString>("onLost");
        QTest::newRow("keys deleted, term") << false << QStringLiteral("term");
        QTest::newRow("majority paused, term") << true << QStringLiteral("term");
        QTest::newRow("keys deleted, kill") << false << QStringLiteral("kill");
    }
    void lostLockSignalsTheCommand()
    {
        QFETCH(bool, pauseMajority);
        QFETCH(QString, onLost);
        const QByteArray key = "run:lost";
        RunProcess run({QStringLiteral("--nodes"), m_nodes, QStringLiteral("--ttl"), QStringLiteral("2000"),
                        QStringLiteral("--node-timeout"), QStringLiteral("200"), QStringLiteral("--on-lost"), onLost,
                        QString::fromLatin1(key), QStringLiteral("--"), QStringLiteral("bash"), QStringLiteral("-c"),
                        QStringLiteral("trap 'echo got-term; kill $!; exit 0' TERM; echo ready; "
                                       "sleep 60 </dev/null >/dev/null 2>&1 & wait")});
        QCOMPARE(run.readLine(), QByteArray("ready"));
        if (pauseMajority) {
            QVERIFY(m_cluster.pauseNode(0));
            QVERIFY(m_cluster.pauseNode(1));
        } else {
            for (int i = 0; i < m_cluster.size(); ++i)
                DirectRedis(m_cluster.port(i)).command({"DEL", key});
        }
        const QByteArray line = run.readLine();
        const int exitCode = run.finish();
        if (pauseMajority) {
            QVERIFY(m_cluster.resumeNode(0));
            QVERIFY(m_cluster.resumeNode(1));
        }
        const QString stderrText = QString::fromUtf8(run.process().readAllStandardError());
        QVERIFY2(exitCode == kExitLockLost, qPrintable(QString::number(exitCode) + u'\n' + stderrText));
        QVERIFY2(stderrText.contains(QLatin1String("is lost")), qPrintable(stderrText));
        // SIGTERM runs the command's trap; SIGKILL does not let it say anything.
        QCOMPARE(line, onLost == u"term" ? QByteArray("got-term") : QByteArray());
    }

    // Eight `redlock run` contenders append to one file while nodes are paused (a minority, then a majority so
    // that holders lose the lock): the "start"/"end" lines of two commands never interleave. A command told that
    // its lock is lost writes its "end" line and stops (SIGTERM's trap), within the safety margin before the
    // lock's validity ends.
    void contendersNeverOverlap()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(5, {}, &error), qPrintable(error));
        // Nodes 0-2 (a majority) behind fault proxies, 3 and 4 direct.
        std::vector<std::unique_ptr<FaultProxy>> proxies;
        QStringList names;
        for (int n = 0; n < 5; ++n) {
            if (n < 3) {
                proxies.push_back(std::make_unique<FaultProxy>(cluster.port(n)));
                names << QStringLiteral("127.0.0.1:%1").arg(proxies.back()->port());
            } else {
                names << cluster.endpoint(n).displayName();
            }
        }
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("shared.log"));
        // A TERM (the lock is lost) ends the run with its "end" line if it had started (bash runs a trap between two
        // commands, never inside the echo). The normal "end" line ignores TERM first: a loss reported after it
        // must not write a second one.
        const QString script = QStringLiteral(
            "f=$1; trap 'grep -qx \"start $$\" \"$f\" && echo \"end $$\" >> \"$f\"; kill $! 2>/dev/null; exit 0' TERM; "
            "echo \"start $$\" >> \"$f\"; "
            "sleep 2 </dev/null >/dev/null 2>&1 & wait $!; trap '' TERM; echo \"end $$\" >> \"$f\"");
        std::vector<std::unique_ptr<RunProcess>> contenders;
        for (int i = 0; i < 8; ++i) {
            contenders.push_back(std::make_unique<RunProcess>(QStringList{
                QStringLiteral("--nodes"), names.join(u','), QStringLiteral("--ttl"), QStringLiteral("1500"),
                QStringLiteral("--node-timeout"), QStringLiteral("150"), QStringLiteral("--wait"),
                QStringLiteral("90000"), QStringLiteral("--retry-delay"), QStringLiteral("50"),
                QStringLiteral("--jitter"), QStringLiteral("50"), QStringLiteral("run:mutex"), QStringLiteral("--"),
                QStringLiteral("bash"), QStringLiteral("-c"), script, QStringLiteral("contender"), file}));
        }
        const auto running = [&contenders] {
            return std::any_of(contenders.begin(), contenders.end(), [](const std::unique_ptr<RunProcess>& c) {
                return c->process().state() != QProcess::NotRunning;
            });
        };
        // Faults until every contender is done (bounded): a paused minority, two paused, then a paused majority.
        // A holder extends about 1 s after it acquired (a third of the TTL left) and holds 2 s, longer than the
        // TTL. Each time a command starts, a fault: every other time the majority is cut off for 1.2 s, across
        // that holder's extension, and its connections are then cut (what they held never arrives), so that the
        // holder loses the lock and its keys expire: a command that went on after that would overlap with the
        // next holder. Else the minority is paused (SIGSTOP), which the holder rides out.
        QDeadlineTimer deadline(120000);
        qsizetype seenStarts = 0;
        while (running() && !deadline.hasExpired()) {
            QFile shared(file);
            const qsizetype starts = shared.open(QIODevice::ReadOnly) ? shared.readAll().count("start ") : 0;
            if (starts == seenStarts) {
                QTest::qWait(20);
                continue;
            }
            seenStarts = starts;
            if (starts % 2 == 1) {
                for (const std::unique_ptr<FaultProxy>& proxy : proxies)
                    proxy->setBlackhole(true);
                QTest::qWait(1200);
                for (const std::unique_ptr<FaultProxy>& proxy : proxies) {
                    proxy->cutConnections();
                    proxy->setBlackhole(false);
                }
            } else {
                QVERIFY(cluster.pauseNode(3));
                QVERIFY(cluster.pauseNode(4));
                QTest::qWait(400);
                QVERIFY(cluster.resumeNode(3));
                QVERIFY(cluster.resumeNode(4));
            }
        }
        QStringList exits;
        int lostCount = 0;
        for (const std::unique_ptr<RunProcess>& c : contenders) {
            const int code = c->finish(10000);
            exits << QString::number(code);
            QVERIFY2(code == 0 || code == kExitLockLost, qPrintable(exits.join(u' ') + u'\n' + c->describe()));
            lostCount += code == kExitLockLost ? 1 : 0;
        }
        QFile log(file);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray text = log.readAll();
        int runs = 0;
        const QString overlap = overlapIn(text, &runs);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap + u'\n' + QString::fromUtf8(text)));
        // Every contender that exited 0 ran its command; a lost one may have been stopped before its first line.
        QVERIFY2(runs >= 8 - lostCount, qPrintable(QString::fromUtf8(text)));
        qInfo("%d runs, %d lost the lock (exit codes %s)", runs, lostCount, qPrintable(exits.join(u' ')));
    }

private:
    LocalCluster m_cluster;
    QString m_nodes;
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "TestCliRun.moc"
