// The `redlock` CLI's observation and operator commands as scripts use them: inspect, watch, audit,
// force-release, bench, and --read-only on every command that writes. The real binary is run with QProcess
// against real redis-server nodes; exit codes, output, and what really is (or is not) on the nodes, read
// with hiredis directly.

#include "redlock/LockToken.h"
#include "redlock/RedlockRules.h"
#include "support/CliTestSupport.h"
#include "support/FakeClock.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QSet>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace redlock;

namespace {

// A lock value as written by the test: a quorum of keys (or fewer) with one token, like a client would.
void setOn(const LocalCluster& cluster, const QList<int>& nodes, const QByteArray& key, const QByteArray& value,
           qint64 pxMs = 60000)
{
    for (const int i : nodes)
        DirectRedis(cluster.port(i)).set(key, value, pxMs);
}

QJsonObject findLock(const QJsonArray& locks, const QString& key)
{
    for (const QJsonValue& l : locks) {
        if (l.toObject().value(QStringLiteral("key")).toString() == key)
            return l.toObject();
    }
    return {};
}

QStringList strings(const QJsonValue& array)
{
    QStringList out;
    for (const QJsonValue& v : array.toArray())
        out << v.toString();
    return out;
}

QJsonObject findingOf(const QJsonObject& audit, const QString& rule)
{
    for (const QJsonValue& f : audit.value(QStringLiteral("findings")).toArray()) {
        if (f.toObject().value(QStringLiteral("rule")).toString() == rule)
            return f.toObject();
    }
    return {};
}

// One run of the CLI as a direct child, for what QProcess cannot tell: its peak resident memory (wait4's
// rusage, in kB, of that process alone). stdout goes to `outFile`; nullopt when it did not end in 120 s.
struct MeasuredRun
{
    int exitCode = -1;
    qint64 peakRssKb = 0;
};
std::optional<MeasuredRun> runMeasured(const QStringList& args, const QString& outFile)
{
    QList<QByteArray> storage{QByteArrayLiteral(REDLOCK_CLI_PATH)};
    for (const QString& a : args)
        storage << a.toLocal8Bit();
    std::vector<char*> argv;
    for (QByteArray& a : storage)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // Under AddressSanitizer, freed memory is held back (its quarantine, 256 MB by default) and counts in the child's
    // peak RSS: the measured child runs without it, so that what is measured is what the program keeps.
    QList<QByteArray> envStorage;
    for (char** e = environ; *e != nullptr; ++e)
        envStorage << QByteArray(*e);
#if defined(__SANITIZE_ADDRESS__)
    const auto asan = std::find_if(envStorage.begin(), envStorage.end(),
                                   [](const QByteArray& e) { return e.startsWith("ASAN_OPTIONS="); });
    if (asan == envStorage.end())
        envStorage << QByteArrayLiteral("ASAN_OPTIONS=quarantine_size_mb=0");
    else
        *asan += QByteArrayLiteral(":quarantine_size_mb=0");
#endif
    std::vector<char*> envp;
    for (QByteArray& e : envStorage)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const QByteArray out = QFile::encodeName(outFile);
    const pid_t pid = ::fork();
    if (pid == 0) { // only async-signal-safe calls until exec
        const int fd = ::open(out.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int null = ::open("/dev/null", O_WRONLY);
        if (fd < 0 || null < 0 || ::dup2(fd, STDOUT_FILENO) < 0 || ::dup2(null, STDERR_FILENO) < 0)
            ::_exit(126);
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    if (pid < 0)
        return std::nullopt;
    QDeadlineTimer deadline(120000);
    int status = 0;
    rusage usage{};
    pid_t done = 0;
    while ((done = ::wait4(pid, &status, WNOHANG, &usage)) == 0 && !deadline.hasExpired())
        QTest::qWait(20); // waiting for the child to end, not for time to pass
    if (done != pid) {
        ::kill(pid, SIGKILL);
        ::wait4(pid, &status, 0, &usage);
        return std::nullopt;
    }
    return MeasuredRun{WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
}

QStringList ruleIds(const QJsonObject& audit)
{
    QStringList out;
    for (const QJsonValue& f : audit.value(QStringLiteral("findings")).toArray())
        out << f.toObject().value(QStringLiteral("rule")).toString();
    return out;
}

// Per-node results ("will-delete", "deleted", ...) of a force-release report.
QStringList results(const QJsonObject& report)
{
    QStringList out;
    for (const QJsonValue& n : report.value(QStringLiteral("nodes")).toArray())
        out << n.toObject().value(QStringLiteral("result")).toString();
    return out;
}

// Reads `watch --json` lines as they come.
class WatchProcess
{
public:
    explicit WatchProcess(const QStringList& args) { m_process.start(QStringLiteral(REDLOCK_CLI_PATH), args); }
    ~WatchProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    QProcess& process() { return m_process; }

    // The next event for `key` of the given kind, skipping others; empty after timeoutMs.
    QJsonObject waitFor(const QString& kind, const QString& key, int timeoutMs)
    {
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            while (m_process.canReadLine()) {
                const QByteArray line = m_process.readLine();
                m_seen += line;
                const QJsonObject event = QJsonDocument::fromJson(line).object();
                if (event.value(QStringLiteral("event")).toString() == kind &&
                    event.value(QStringLiteral("key")).toString() == key)
                    return event;
            }
            if (deadline.hasExpired() || m_process.state() != QProcess::Running)
                return {};
            m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        }
    }
    // The next event of the given kind for each of `keys`, in any order, skipping others; those missing after
    // timeoutMs are not in the result.
    QHash<QString, QJsonObject> waitForEach(const QString& kind, const QStringList& keys, int timeoutMs)
    {
        QHash<QString, QJsonObject> found;
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            while (m_process.canReadLine()) {
                const QByteArray line = m_process.readLine();
                m_seen += line;
                const QJsonObject event = QJsonDocument::fromJson(line).object();
                const QString key = event.value(QStringLiteral("key")).toString();
                if (event.value(QStringLiteral("event")).toString() == kind && keys.contains(key) &&
                    !found.contains(key))
                    found.insert(key, event);
            }
            if (found.size() == keys.size() || deadline.hasExpired() || m_process.state() != QProcess::Running)
                return found;
            m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        }
    }
    // The next alert event ("alert-raised" / "alert-cleared") of the rule, skipping others; empty after timeoutMs.
    QJsonObject waitForAlert(const QString& event, const QString& rule, int timeoutMs)
    {
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            while (m_process.canReadLine()) {
                const QByteArray line = m_process.readLine();
                m_seen += line;
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                if (o.value(QStringLiteral("event")).toString() == event &&
                    o.value(QStringLiteral("rule")).toString() == rule)
                    return o;
            }
            if (deadline.hasExpired() || m_process.state() != QProcess::Running)
                return {};
            m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        }
    }
    QString seen() { return QString::fromUtf8(m_seen + m_process.readAllStandardError()); }

    // Locks that exist when watch starts are its baseline, not events: writes fresh ones until the first is
    // reported. Then watch is live (and its signal handlers are installed: that happens before it starts).
    bool makeLive(const redlock::LocalCluster& cluster)
    {
        for (int probe = 0; probe < 20; ++probe) {
            const QByteArray key = "locks:probe" + QByteArray::number(probe);
            setOn(cluster, {0, 1, 2}, key, "probe");
            if (!waitFor(QStringLiteral("acquired"), QString::fromLatin1(key), 1000).isEmpty())
                return true;
        }
        return false;
    }

private:
    QProcess m_process;
    QByteArray m_seen;
};

// Read commands a client may run in read-only mode (connection set-up, observation, force release's preview).
const QSet<QByteArray>& readCommands()
{
    static const QSet<QByteArray> commands{"ping",   "hello", "auth",    "client|setname", "select",     "info",
                                           "time",   "get",   "mget",    "pttl",           "type",       "hgetall",
                                           "exists", "scan",  "command", "config|get",     "evalsha_ro", "eval_ro"};
    return commands;
}

} // namespace

class TestCliCommands : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(QStringLiteral(REDLOCK_CLI_PATH)), REDLOCK_CLI_PATH);
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_cluster.start(3, {}, &error), qPrintable(error));
        m_nodes = nodeList(m_cluster);
    }

    void init()
    {
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i)).flushAll();
    }

    // ---- inspect ----------------------------------------------------------------------------------------

    void inspectMergesEveryNode()
    {
        const CliRun acquired =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--ttl"),
                    QStringLiteral("60000"), QStringLiteral("--json"), QStringLiteral("locks:held")});
        QVERIFY2(acquired.exitCode == 0, qPrintable(acquired.describe()));
        const QString token = acquired.json.value(QStringLiteral("token")).toString();
        setOn(m_cluster, {0}, "locks:leftover", "left-behind");
        setOn(m_cluster, {0}, "locks:fight", "first");
        setOn(m_cluster, {1}, "locks:fight", "second");
        setOn(m_cluster, {2}, "locks:fight", "third");
        DirectRedis(m_cluster.port(1)).set("locks:no-ttl", "x");      // not a lock: no TTL
        setOn(m_cluster, {0, 1, 2}, "other:held", "outside-pattern"); // not matched by --pattern

        const CliRun run = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                   QStringLiteral("--pattern"), QStringLiteral("locks:*"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const InspectLines parsed = parseInspectLines(run.out);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error + u'\n' + run.describe()));
        QCOMPARE(parsed.summary.value(QStringLiteral("nodesReachable")).toInt(), 3);
        QCOMPARE(parsed.summary.value(QStringLiteral("nodes")).toInt(), 3);
        QCOMPARE(parsed.summary.value(QStringLiteral("locks")).toInt(), 3);
        QCOMPARE(parsed.summary.value(QStringLiteral("sorted")).toBool(), true);
        const QJsonArray locks = parsed.locks;
        QCOMPARE(locks.size(), 3);
        QVERIFY(findLock(locks, QStringLiteral("other:held")).isEmpty());
        QVERIFY(findLock(locks, QStringLiteral("locks:no-ttl")).isEmpty());
        QCOMPARE(parsed.summary.value(QStringLiteral("skipped")).toObject().value(QStringLiteral("noTtl")).toInt(), 1);

        const QJsonObject held = findLock(locks, QStringLiteral("locks:held"));
        QCOMPARE(held.value(QStringLiteral("verdict")).toString(), QStringLiteral("held"));
        QCOMPARE(held.value(QStringLiteral("token")).toString(), token);
        QCOMPARE(held.value(QStringLiteral("holders")).toInt(), 3);
        QCOMPARE(held.value(QStringLiteral("quorum")).toInt(), 2);
        QCOMPARE(held.value(QStringLiteral("format")).toString(), QStringLiteral("redlock-console"));
        QVERIFY(held.value(QStringLiteral("validityMs")).toInteger() > 50000);
        QCOMPARE(strings(held.value(QStringLiteral("restsOn"))), m_nodes.split(u','));
        for (const QJsonValue& n : held.value(QStringLiteral("nodes")).toArray()) {
            QCOMPARE(n.toObject().value(QStringLiteral("state")).toString(), QStringLiteral("holding"));
            QCOMPARE(n.toObject().value(QStringLiteral("value")).toString(), token);
        }

        const QJsonObject leftover = findLock(locks, QStringLiteral("locks:leftover"));
        QCOMPARE(leftover.value(QStringLiteral("verdict")).toString(), QStringLiteral("minority-leftover"));
        QCOMPARE(leftover.value(QStringLiteral("holders")).toInt(), 1);
        const QJsonArray leftoverNodes = leftover.value(QStringLiteral("nodes")).toArray();
        QCOMPARE(leftoverNodes[0].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("holding"));
        QCOMPARE(leftoverNodes[1].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("absent"));
        QCOMPARE(leftoverNodes[2].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("absent"));

        QCOMPARE(findLock(locks, QStringLiteral("locks:fight")).value(QStringLiteral("verdict")).toString(),
                 QStringLiteral("contested"));

        // The same as a table: one row per lock, a column per node, and the summary line.
        const CliRun text = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                    QStringLiteral("--pattern"), QStringLiteral("locks:*")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
        const QStringList lines = QString::fromUtf8(text.out).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() == 5, qPrintable(text.describe())); // header, 3 locks, summary
        QVERIFY(lines[0].startsWith(QStringLiteral("KEY")));
        for (const NodeEndpoint& e : m_cluster.endpoints())
            QVERIFY2(lines[0].contains(e.displayName()), qPrintable(lines[0]));
        // Sorted by key: fight, held, leftover.
        QVERIFY2(lines[1].startsWith(QStringLiteral("locks:fight")) && lines[1].contains(QStringLiteral("contested")),
                 qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(QStringLiteral("locks:held")) && lines[2].contains(QStringLiteral("held")) &&
                     lines[2].contains(QStringLiteral("3/3")),
                 qPrintable(lines[2]));
        QVERIFY2(lines[3].startsWith(QStringLiteral("locks:leftover")) &&
                     lines[3].contains(QStringLiteral("minority leftover")) && lines[3].contains(QStringLiteral("1/3")),
                 qPrintable(lines[3]));
        QVERIFY2(lines[4].startsWith(QStringLiteral("3 lock(s) on 3 of 3 nodes")), qPrintable(lines[4]));
    }

    // Interop t10: under the default pattern a cache entry with a TTL is no lock, in `inspect` (text and --json) and
    // in `watch --json`; the keys passed over are counted and said. A pattern the operator names counts them.
    void defaultPatternCountsOnlyLockFormats()
    {
        setOn(m_cluster, {0, 1, 2}, "cache:page:/home", "<html><body>hello</body></html>");
        setOn(m_cluster, {1}, "session:8f3a", "{\"user\":\"alice\"}");
        setOn(m_cluster, {0, 1, 2}, "orders:42", "rl1:0123456789abcdef0123456789abcdef:42:host:worker");
        const CliRun run =
            runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const InspectLines parsed = parseInspectLines(run.out);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error + u'\n' + run.describe()));
        QCOMPARE(parsed.locks.size(), 1);
        QCOMPARE(parsed.locks[0].toObject().value(QStringLiteral("key")).toString(), QStringLiteral("orders:42"));
        const QJsonObject skipped = parsed.summary.value(QStringLiteral("skipped")).toObject();
        QCOMPARE(skipped.value(QStringLiteral("notALockFormat")).toInt(), 2);
        const CliRun text = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes});
        QVERIFY2(text.exitCode == 0 && text.out.contains("2 key(s) with a TTL passed over") &&
                     !text.out.contains("cache:page"),
                 qPrintable(text.describe()));

        const CliRun named = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                     QStringLiteral("--pattern"), QStringLiteral("cache:*"), QStringLiteral("--json")});
        const InspectLines cache = parseInspectLines(named.out);
        QVERIFY2(cache.error.isEmpty() && cache.locks.size() == 1, qPrintable(named.describe()));
        QCOMPARE(cache.locks[0].toObject().value(QStringLiteral("verdict")).toString(), QStringLiteral("held"));

        WatchProcess watch({QStringLiteral("watch"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--json")});
        QVERIFY(watch.process().waitForStarted());
        const QJsonObject passedOver = watch.waitFor(QStringLiteral("keys-passed-over"), QString(), 15000);
        QVERIFY2(!passedOver.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(passedOver.value(QStringLiteral("skipped")).toObject().value(QStringLiteral("notALockFormat")).toInt(),
                 2);
        QVERIFY2(!watch.seen().contains(u"cache:page"), qPrintable(watch.seen())); // no "seen held" for it
    }

    void inspectWithNodesDown()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        const QString nodes = nodeList(cluster);
        setOn(cluster, {0, 1, 2}, "locks:a", "token-a");
        QVERIFY(cluster.stopNode(2));
        // One of three down: the view is still complete enough; the lock rests on the other two.
        const CliRun one = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), nodes,
                                   QStringLiteral("--pattern"), QStringLiteral("locks:*"), QStringLiteral("--json")});
        QVERIFY2(one.exitCode == 0, qPrintable(one.describe()));
        const InspectLines lines = parseInspectLines(one.out);
        QVERIFY2(lines.error.isEmpty(), qPrintable(lines.error + u'\n' + one.describe()));
        QCOMPARE(lines.summary.value(QStringLiteral("nodesReachable")).toInt(), 2);
        const QJsonObject lock = findLock(lines.locks, QStringLiteral("locks:a"));
        QCOMPARE(lock.value(QStringLiteral("verdict")).toString(), QStringLiteral("held"));
        QCOMPARE(lock.value(QStringLiteral("holders")).toInt(), 2);
        QCOMPARE(lock.value(QStringLiteral("nodes")).toArray()[2].toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("unreachable"));
        QVERIFY(!lines.summary.value(QStringLiteral("errors")).toArray().isEmpty());
        // Two of three down: no quorum reachable.
        QVERIFY(cluster.stopNode(1));
        const CliRun two = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), nodes});
        QVERIFY2(two.exitCode == 3, qPrintable(two.describe()));
        // Usage errors send nothing.
        QCOMPARE(runCli({QStringLiteral("inspect")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), nodes, QStringLiteral("--scan-count"),
                         QStringLiteral("0")})
                     .exitCode,
                 2);
    }

    // More locks than inspect sorts: written as the inspection finds them, each once, in both formats, with
    // the summary saying they are not sorted and the table's rows still aligned to the header.
    void inspectStreamsManyLocks()
    {
        constexpr int count = 1500;
        for (int i = 0; i < m_cluster.size(); ++i) {
            DirectRedis node(m_cluster.port(i));
            for (int k = 0; k < count; ++k)
                node.set("many:" + QByteArray::number(k), "tok" + QByteArray::number(k), 120000);
        }
        const CliRun json = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                    QStringLiteral("--pattern"), QStringLiteral("many:*"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.describe().left(2000)));
        const InspectLines lines = parseInspectLines(json.out);
        QVERIFY2(lines.error.isEmpty(), qPrintable(lines.error));
        QCOMPARE(lines.summary.value(QStringLiteral("locks")).toInt(), count);
        QCOMPARE(lines.summary.value(QStringLiteral("sorted")).toBool(true), false);
        QSet<QString> keys;
        for (const QJsonValue& lock : lines.locks) {
            const QJsonObject o = lock.toObject();
            keys.insert(o.value(QStringLiteral("key")).toString());
            QCOMPARE(o.value(QStringLiteral("verdict")).toString(), QStringLiteral("held"));
            QCOMPARE(o.value(QStringLiteral("token")).toString(),
                     QStringLiteral("tok") + o.value(QStringLiteral("key")).toString().mid(5));
        }
        QCOMPARE(lines.locks.size(), count);
        QCOMPARE(keys.size(), count);

        const CliRun text = runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), m_nodes,
                                    QStringLiteral("--pattern"), QStringLiteral("many:*")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe().left(2000)));
        const QStringList rows = QString::fromUtf8(text.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 1 + count + 2); // header, the locks, summary, "not sorted"
        const qsizetype verdictColumn = rows[0].indexOf(QStringLiteral("VERDICT"));
        QSet<QString> rowKeys;
        for (qsizetype r = 1; r <= count; ++r) {
            QVERIFY2(rows[r].startsWith(QStringLiteral("many:")), qPrintable(rows[r]));
            QCOMPARE(rows[r].mid(verdictColumn, 4), QStringLiteral("held"));
            rowKeys.insert(rows[r].section(u' ', 0, 0));
        }
        QCOMPARE(rowKeys.size(), count);
        QVERIFY2(rows[count + 1].startsWith(QStringLiteral("1500 lock(s) on 3 of 3 nodes")),
                 qPrintable(rows[count + 1]));
        QVERIFY2(rows[count + 2].contains(QStringLiteral("not sorted")), qPrintable(rows[count + 2]));
    }

    // Hostile N5: `inspect | head -3` read all 100,000 keys (2 s) after its reader had gone. It stops scanning
    // then: fewer SCAN calls than half of a full pass's reach the nodes, and it exits 5.
    void inspectStopsScanningWhenItsReaderHasGone()
    {
        constexpr int count = 30000;
        for (int i = 0; i < m_cluster.size(); ++i) {
            DirectRedis(m_cluster.port(i))
                .command({"EVAL",
                          "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'many:' .. i, 'tok' .. i, 'PX', 600000) "
                          "end return 1",
                          "0", QByteArray::number(count)});
        }
        auto scans = [&] { return NodeActivity::of(m_cluster.port(0)).calls.value("scan"); };
        const qint64 beforeFull = scans();
        const CliRun full =
            runShell(QStringLiteral("\"$1\" inspect --nodes \"$2\" --pattern 'many:*' --scan-count 100 > /dev/null"),
                     {m_nodes}, 120000);
        QVERIFY2(full.exitCode == 0, qPrintable(full.describe()));
        const qint64 fullScans = scans() - beforeFull;
        QVERIFY2(fullScans >= count / 200, qPrintable(QString::number(fullScans))); // about count / scan-count

        const qint64 beforePiped = scans();
        const CliRun piped =
            runShell(QStringLiteral("\"$1\" inspect --nodes \"$2\" --pattern 'many:*' --scan-count 100 | head -3\n"
                                    "echo \"inspect=${PIPESTATUS[0]}\" >&2"),
                     {m_nodes}, 120000);
        const qint64 pipedScans = scans() - beforePiped;
        QCOMPARE(piped.out.count('\n'), 3);
        QVERIFY2(piped.err.contains("inspect=5") && piped.err.contains("cannot write the output: Broken pipe"),
                 qPrintable(piped.describe()));
        QVERIFY2(pipedScans < fullScans / 2,
                 qPrintable(QStringLiteral("SCAN calls: %1 with the reader gone, %2 for a full pass")
                                .arg(pipedScans)
                                .arg(fullScans)));
    }

    // ---- watch ------------------------------------------------------------------------------------------

    void watchPrintsLockEventsUntilSigterm()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withEvents;
        withEvents.notifyKeyspaceEvents = QStringLiteral("Kg$x");
        QVERIFY2(cluster.start(3, withEvents, &error), qPrintable(error));
        WatchProcess watch({QStringLiteral("watch"), QStringLiteral("--nodes"), nodeList(cluster),
                            QStringLiteral("--pattern"), QStringLiteral("locks:*"), QStringLiteral("--reconcile"),
                            QStringLiteral("1000"), QStringLiteral("--json")});
        QVERIFY(watch.process().waitForStarted());
        QVERIFY2(watch.makeLive(cluster), qPrintable(watch.seen()));

        setOn(cluster, {0, 1, 2}, "locks:job", "rl1:0123456789abcdef0123456789abcdef:42:host:worker");
        const QJsonObject acquired = watch.waitFor(QStringLiteral("acquired"), QStringLiteral("locks:job"), 10000);
        QVERIFY2(!acquired.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(acquired.value(QStringLiteral("token")).toString(),
                 QStringLiteral("rl1:0123456789abcdef0123456789abcdef:42:host:worker"));
        QVERIFY(acquired.value(QStringLiteral("holder")).toString().contains(QStringLiteral("worker")));
        QVERIFY(QDateTime::fromString(acquired.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs).isValid());

        setOn(cluster, {0, 1, 2}, "locks:job", "rl1:fedcba9876543210fedcba9876543210:43:host:other");
        const QJsonObject changed = watch.waitFor(QStringLiteral("token-changed"), QStringLiteral("locks:job"), 10000);
        QVERIFY2(!changed.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(changed.value(QStringLiteral("previousToken")).toString(),
                 QStringLiteral("rl1:0123456789abcdef0123456789abcdef:42:host:worker"));

        for (int i = 0; i < 3; ++i)
            DirectRedis(cluster.port(i)).command({"DEL", "locks:job"});
        QVERIFY2(!watch.waitFor(QStringLiteral("released"), QStringLiteral("locks:job"), 10000).isEmpty(),
                 qPrintable(watch.seen()));

        setOn(cluster, {0, 1, 2}, "locks:short", "short-lived", 1500);
        QVERIFY2(!watch.waitFor(QStringLiteral("expired"), QStringLiteral("locks:short"), 15000).isEmpty(),
                 qPrintable(watch.seen()));

        watch.process().terminate(); // SIGTERM, as a service manager stops it
        QVERIFY(watch.process().waitForFinished(10000));
        QCOMPARE(watch.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(watch.process().exitCode(), 0);
    }

    // Alerts in watch --json: a lock held past its threshold raised and, released, cleared; a stopped node
    // raised as down; a bad --alert refused.
    void watchPrintsAlerts()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable; // no restart-early finding when a node comes back
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        durable.notifyKeyspaceEvents = QStringLiteral("Kg$x");
        QVERIFY2(cluster.start(3, durable, &error), qPrintable(error));
        WatchProcess watch({QStringLiteral("watch"), QStringLiteral("--nodes"), nodeList(cluster),
                            QStringLiteral("--pattern"), QStringLiteral("locks:*"), QStringLiteral("--reconcile"),
                            QStringLiteral("1000"), QStringLiteral("--json"), QStringLiteral("--alert"),
                            QStringLiteral("lock-held=1000,node-down=1000,clear=500")});
        QVERIFY(watch.process().waitForStarted());
        setOn(cluster, {0, 1, 2}, "locks:long", "long-holder");
        const QJsonObject held = watch.waitForAlert(QStringLiteral("alert-raised"), QStringLiteral("lock-held"), 20000);
        QVERIFY2(!held.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(held.value(QStringLiteral("key")).toString(), QStringLiteral("locks:long"));
        QCOMPARE(held.value(QStringLiteral("id")).toString(), QStringLiteral("lock-held:key:locks:long"));
        QVERIFY(held.value(QStringLiteral("message")).toString().contains(QStringLiteral("locks:long")));

        for (int i = 0; i < 3; ++i)
            DirectRedis(cluster.port(i)).command({"DEL", "locks:long"});
        const QJsonObject cleared =
            watch.waitForAlert(QStringLiteral("alert-cleared"), QStringLiteral("lock-held"), 20000);
        QVERIFY2(!cleared.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(cleared.value(QStringLiteral("id")).toString(), QStringLiteral("lock-held:key:locks:long"));

        QVERIFY(cluster.stopNode(2));
        const QJsonObject down = watch.waitForAlert(QStringLiteral("alert-raised"), QStringLiteral("node-down"), 20000);
        QVERIFY2(!down.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(down.value(QStringLiteral("node")).toInt(), 3);
        watch.process().terminate();
        QVERIFY(watch.process().waitForFinished(10000));

        QProcess bad;
        bad.start(QStringLiteral(REDLOCK_CLI_PATH),
                  {QStringLiteral("watch"), QStringLiteral("--nodes"), nodeList(cluster), QStringLiteral("--alert"),
                   QStringLiteral("lock-hold=5")});
        QVERIFY(bad.waitForFinished(10000));
        QVERIFY(bad.exitCode() != 0);
        QVERIFY2(bad.readAllStandardError().contains("lock-held"), "the error lists the rules");
    }

    // A leftover on hundreds of locks (what a restart without persistence leaves, hostile N16): watch prints one
    // grouped alert with the count and a few example keys, not one line per key, and one line when it clears.
    void watchGroupsAnAlertStorm()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withEvents;
        withEvents.notifyKeyspaceEvents = QStringLiteral("Kg$x");
        QVERIFY2(cluster.start(3, withEvents, &error), qPrintable(error));
        constexpr int kKeys = 300;
        QCOMPARE(DirectRedis(cluster.port(0))
                     .command({"EVAL",
                               "for i = 1, tonumber(ARGV[1]) do redis.call('SET', string.format('storm:%04d', i), "
                               "'holder', 'PX', 600000) end return 'OK'",
                               "0", QByteArray::number(kKeys)})
                     .str,
                 QByteArray("OK"));
        WatchProcess watch({QStringLiteral("watch"), QStringLiteral("--nodes"), nodeList(cluster),
                            QStringLiteral("--pattern"), QStringLiteral("storm:*"), QStringLiteral("--json"),
                            QStringLiteral("--alert"), QStringLiteral("minority-leftover=1000,clear=500")});
        QVERIFY(watch.process().waitForStarted());
        const QJsonObject raised =
            watch.waitForAlert(QStringLiteral("alert-raised"), QStringLiteral("minority-leftover"), 30000);
        QVERIFY2(!raised.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(raised.value(QStringLiteral("id")).toString(), QStringLiteral("minority-leftover:group"));
        QCOMPARE(raised.value(QStringLiteral("count")).toInt(), kKeys);
        QCOMPARE(raised.value(QStringLiteral("examples")).toArray().first().toString(), QStringLiteral("storm:0001"));
        QVERIFY(raised.value(QStringLiteral("message")).toString().contains(QString::number(kKeys)));

        DirectRedis(cluster.port(0)).flushAll();
        const QJsonObject cleared =
            watch.waitForAlert(QStringLiteral("alert-cleared"), QStringLiteral("minority-leftover"), 30000);
        QVERIFY2(!cleared.isEmpty(), qPrintable(watch.seen()));
        QCOMPARE(cleared.value(QStringLiteral("id")).toString(), QStringLiteral("minority-leftover:group"));
        QCOMPARE(watch.seen().count(QStringLiteral("\"alert-raised\"")), 1);
        watch.process().terminate();
        QVERIFY(watch.process().waitForFinished(10000));
    }

    void watchStopsOnSigintAndRefusesBadOptions()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withEvents;
        withEvents.notifyKeyspaceEvents = QStringLiteral("Kg$x");
        QVERIFY2(cluster.start(3, withEvents, &error), qPrintable(error));
        WatchProcess watch({QStringLiteral("watch"), QStringLiteral("--nodes"), nodeList(cluster),
                            QStringLiteral("--pattern"), QStringLiteral("locks:*"), QStringLiteral("--json")});
        QVERIFY(watch.process().waitForStarted());
        QVERIFY2(watch.makeLive(cluster), qPrintable(watch.seen()));
        ::kill(static_cast<pid_t>(watch.process().processId()), SIGINT);
        QVERIFY(watch.process().waitForFinished(10000));
        QCOMPARE(watch.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(watch.process().exitCode(), 0);

        QCOMPARE(runCli({QStringLiteral("watch")}).exitCode, 2);
        const CliRun fast = runCli({QStringLiteral("watch"), QStringLiteral("--nodes"), m_nodes,
                                    QStringLiteral("--reconcile"), QStringLiteral("5")});
        QVERIFY2(fast.exitCode == 2 && fast.err.contains("--reconcile"), qPrintable(fast.describe()));
    }

    // ---- history ----------------------------------------------------------------------------------------

    // watch --journal writes the lock history; history reads it back (text and --json), by time and key glob,
    // with hostile key names escaped.
    void watchJournalsAndHistoryReadsIt()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withEvents;
        withEvents.notifyKeyspaceEvents = QStringLiteral("Kg$x");
        QVERIFY2(cluster.start(3, withEvents, &error), qPrintable(error));
        const QString journal = m_dir.filePath(QStringLiteral("history.sqlite"));
        WatchProcess watch({QStringLiteral("watch"), QStringLiteral("--nodes"), nodeList(cluster),
                            QStringLiteral("--pattern"), QStringLiteral("locks:*"), QStringLiteral("--journal"),
                            journal, QStringLiteral("--json")});
        QVERIFY(watch.process().waitForStarted());
        const qint64 watchPid = watch.process().processId();
        QVERIFY2(watch.makeLive(cluster), qPrintable(watch.seen()));

        setOn(cluster, {0, 1, 2}, "locks:job", "rl1:0123456789abcdef0123456789abcdef:42:host:worker");
        const QJsonObject acquired = watch.waitFor(QStringLiteral("acquired"), QStringLiteral("locks:job"), 10000);
        QVERIFY2(!acquired.isEmpty(), qPrintable(watch.seen()));
        QTest::qWait(300); // a tenure of measurable length, so that an instant inside it can be asked about
        for (int i = 0; i < 3; ++i)
            DirectRedis(cluster.port(i)).command({"DEL", "locks:job"});
        const QJsonObject released = watch.waitFor(QStringLiteral("released"), QStringLiteral("locks:job"), 10000);
        QVERIFY2(!released.isEmpty(), qPrintable(watch.seen()));
        const QByteArray hostile("locks:\x1b]0;pwned\x07\nx");
        setOn(cluster, {0, 1, 2}, hostile, "evil\x1b[2J");
        QVERIFY2(!watch.waitFor(QStringLiteral("acquired"), QStringLiteral("locks:\\x1b]0;pwned\\x07\\x0ax"), 10000)
                      .isEmpty(),
                 qPrintable(watch.seen()));
        watch.process().terminate(); // the journal is flushed on the way out
        QVERIFY(watch.process().waitForFinished(10000));
        QCOMPARE(watch.process().exitCode(), 0);

        const CliRun all =
            runCli({QStringLiteral("history"), QStringLiteral("locks:*"), QStringLiteral("--journal"), journal,
                    QStringLiteral("--since"), QStringLiteral("-1h"), QStringLiteral("--json")});
        QVERIFY2(all.exitCode == 0, qPrintable(all.describe()));
        const QJsonArray intervals = all.json.value(QStringLiteral("intervals")).toArray();
        QStringList keys;
        for (const QJsonValue& v : intervals)
            keys << v.toObject().value(QStringLiteral("key")).toString();
        QVERIFY2(keys.contains(QStringLiteral("locks:job")), qPrintable(all.describe()));
        QVERIFY2(keys.contains(QStringLiteral("locks:\\x1b]0;pwned\\x07\\x0ax")), qPrintable(all.describe()));
        QVERIFY(!all.out.contains('\x1b'));
        QJsonObject job;
        for (const QJsonValue& v : intervals) {
            if (v.toObject().value(QStringLiteral("key")).toString() == u"locks:job")
                job = v.toObject();
        }
        QCOMPARE(job.value(QStringLiteral("endedBy")).toString(), QStringLiteral("released"));
        QVERIFY(job.value(QStringLiteral("holder")).toString().contains(QLatin1String("worker")));
        // Who saw it: the watch process, on this machine.
        const QJsonObject seenBy = job.value(QStringLiteral("seenBy")).toObject();
        QCOMPARE(seenBy.value(QStringLiteral("source")).toString(), QStringLiteral("watch"));
        QCOMPARE(seenBy.value(QStringLiteral("pid")).toInteger(), watchPid);
        QCOMPARE(seenBy.value(QStringLiteral("host")).toString(), QSysInfo::machineHostName());
        const qint64 fromMs = job.value(QStringLiteral("fromMs")).toInteger();
        QCOMPARE(fromMs, QDateTime::fromString(acquired.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs)
                             .toMSecsSinceEpoch());
        QCOMPARE(
            QDateTime::fromString(job.value(QStringLiteral("from")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch(),
            fromMs);
        const qint64 toMs = job.value(QStringLiteral("toMs")).toInteger();
        QVERIFY(toMs > fromMs);
        QCOMPARE(job.value(QStringLiteral("durationMs")).toInteger(), toMs - fromMs);
        // The watcher stopped while the hostile key was held: that tenure ends with the observation.
        for (const QJsonValue& v : intervals) {
            if (v.toObject().value(QStringLiteral("key")).toString() != u"locks:job")
                QCOMPARE(v.toObject().value(QStringLiteral("endedBy")).toString(), QStringLiteral("unobserved"));
        }

        // Who held locks:job at an instant inside its tenure (ISO 8601, UTC), and just after it.
        const QString inside = QDateTime::fromMSecsSinceEpoch((fromMs + toMs) / 2, Qt::UTC).toString(Qt::ISODateWithMs);
        const CliRun at =
            runCli({QStringLiteral("history"), QStringLiteral("locks:job"), QStringLiteral("--journal"), journal,
                    QStringLiteral("--since"), inside, QStringLiteral("--until"), inside, QStringLiteral("--json")});
        QVERIFY2(at.exitCode == 0, qPrintable(at.describe()));
        QCOMPARE(at.json.value(QStringLiteral("intervals")).toArray().size(), 1);
        const QString after = QDateTime::fromMSecsSinceEpoch(toMs + 1, Qt::UTC).toString(Qt::ISODateWithMs);
        const CliRun none =
            runCli({QStringLiteral("history"), QStringLiteral("locks:job"), QStringLiteral("--journal"), journal,
                    QStringLiteral("--since"), after, QStringLiteral("--until"), after, QStringLiteral("--json")});
        QCOMPARE(none.json.value(QStringLiteral("intervals")).toArray().size(), 0);

        // Text: a table, the hostile key escaped.
        const CliRun text = runCli({QStringLiteral("history"), QStringLiteral("--journal"), journal,
                                    QStringLiteral("--since=-1h"), QStringLiteral("--events")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
        QVERIFY2(text.out.contains("locks:job") && text.out.contains("released") &&
                     text.out.contains("locks:\\x1b]0;pwned\\x07\\x0ax"),
                 qPrintable(text.describe()));
        QVERIFY(!text.out.contains('\x1b') && !text.out.contains('\x07'));
        // Each tenure says which writer saw it.
        const QString seenByText =
            QStringLiteral("watch (pid %1 on %2)").arg(watchPid).arg(QSysInfo::machineHostName());
        QVERIFY2(text.out.contains("SEEN BY") && QString::fromUtf8(text.out).contains(seenByText),
                 qPrintable(text.describe()));
        // The hostile holder (its lock value) escaped once: "\x1b", never the escape escaped again ("\x5cx1b").
        QVERIFY2(text.out.contains("evil\\x1b[2J") && !text.out.contains("\\x5c"), qPrintable(text.describe()));
        QStringList holders;
        for (const QJsonValue& v : intervals)
            holders << v.toObject().value(QStringLiteral("holder")).toString();
        QVERIFY2(holders.contains(QStringLiteral("evil\\x1b[2J")), qPrintable(holders.join(u'|')));
        const CliRun events =
            runCli({QStringLiteral("history"), QStringLiteral("--journal"), journal, QStringLiteral("--since=-1h"),
                    QStringLiteral("--events"), QStringLiteral("--json")});
        QVERIFY2(events.exitCode == 0, qPrintable(events.describe()));
        QStringList eventHolders;
        for (const QJsonValue& v : events.json.value(QStringLiteral("events")).toArray())
            eventHolders << v.toObject().value(QStringLiteral("holder")).toString();
        QVERIFY2(eventHolders.contains(QStringLiteral("evil\\x1b[2J")), qPrintable(eventHolders.join(u'|')));
        for (const QJsonValue& v : events.json.value(QStringLiteral("events")).toArray())
            QCOMPARE(v.toObject().value(QStringLiteral("seenBy")).toObject().value(QStringLiteral("pid")).toInteger(),
                     watchPid);

        // Bad input: a clear error, exit 2.
        const CliRun badTime = runCli({QStringLiteral("history"), QStringLiteral("--journal"), journal,
                                       QStringLiteral("--since"), QStringLiteral("yesterday")});
        QVERIFY2(badTime.exitCode == 2 && badTime.err.contains("--since"), qPrintable(badTime.describe()));
        // A relative time beyond any range (it would overflow the ms count): said so, exit 2, nothing printed.
        for (const QString& option : {QStringLiteral("--since"), QStringLiteral("--until")}) {
            for (const QString& huge :
                 {QStringLiteral("-99999999999999999999w"), QStringLiteral("99999999999999999999w ago")}) {
                const CliRun far =
                    runCli({QStringLiteral("history"), QStringLiteral("--journal"), journal, option, huge});
                QVERIFY2(far.exitCode == 2 && far.err.contains(option.toUtf8()) && far.err.contains(huge.toUtf8()) &&
                             far.err.contains("out of range") && far.out.isEmpty(),
                         qPrintable(far.describe()));
            }
        }
        const CliRun missing = runCli(
            {QStringLiteral("history"), QStringLiteral("--journal"), m_dir.filePath(QStringLiteral("nothing.sqlite"))});
        QVERIFY2(missing.exitCode == 2 && missing.err.contains("no such journal"), qPrintable(missing.describe()));
    }

    // Core N2: keyspace events off (Redis's default). A lock watch saw held runs out and the rescan finds it gone:
    // `watch` says "released or expired" and since when it was last seen held, never "expired" at a made-up instant,
    // and `redlock history` shows the tenure held at least until it was last seen, ended between then and the read
    // that found it gone.
    void withoutKeyspaceEventsWatchAndHistorySayWhatIsKnown()
    {
        const QString journal = m_dir.filePath(QStringLiteral("untold.sqlite"));
        WatchProcess watch({QStringLiteral("watch"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--pattern"),
                            QStringLiteral("locks:*"), QStringLiteral("--reconcile"), QStringLiteral("200"),
                            QStringLiteral("--journal"), journal, QStringLiteral("--json")});
        QVERIFY(watch.process().waitForStarted());
        QVERIFY2(watch.makeLive(m_cluster), qPrintable(watch.seen()));
        setOn(m_cluster, {0, 1, 2}, "locks:n2", "rl1:0123456789abcdef0123456789abcdef:42:host:worker", 4000);
        const QJsonObject acquired = watch.waitFor(QStringLiteral("acquired"), QStringLiteral("locks:n2"), 4000);
        QVERIFY2(!acquired.isEmpty(), qPrintable(watch.seen()));
        const QJsonObject ended =
            watch.waitFor(QStringLiteral("released-or-expired"), QStringLiteral("locks:n2"), 15000);
        QVERIFY2(!ended.isEmpty(), qPrintable(watch.seen()));
        const auto instant = [](const QJsonValue& v) {
            return QDateTime::fromString(v.toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
        };
        const qint64 lastSeen = instant(ended.value(QStringLiteral("lastSeenHeld")));
        QVERIFY2(lastSeen >= instant(acquired.value(QStringLiteral("at"))) &&
                     lastSeen <= instant(ended.value(QStringLiteral("at"))),
                 qPrintable(watch.seen()));
        QVERIFY2(!watch.seen().contains(u"\"event\":\"expired\""), qPrintable(watch.seen()));
        watch.process().terminate();
        QVERIFY(watch.process().waitForFinished(10000));
        QCOMPARE(watch.process().exitCode(), 0);

        const CliRun all =
            runCli({QStringLiteral("history"), QStringLiteral("locks:n2"), QStringLiteral("--journal"), journal,
                    QStringLiteral("--since"), QStringLiteral("-1h"), QStringLiteral("--json")});
        QVERIFY2(all.exitCode == 0, qPrintable(all.describe()));
        const QJsonArray intervals = all.json.value(QStringLiteral("intervals")).toArray();
        QCOMPARE(intervals.size(), 1);
        const QJsonObject tenure = intervals[0].toObject();
        QCOMPARE(tenure.value(QStringLiteral("endedBy")).toString(), QStringLiteral("released-or-expired"));
        QCOMPARE(tenure.value(QStringLiteral("toMs")).toInteger(), lastSeen);
        QCOMPARE(tenure.value(QStringLiteral("goneByMs")).toInteger(), instant(ended.value(QStringLiteral("at"))));
        const CliRun text = runCli({QStringLiteral("history"), QStringLiteral("locks:n2"), QStringLiteral("--journal"),
                                    journal, QStringLiteral("--since=-1h"), QStringLiteral("--events")});
        QVERIFY2(text.exitCode == 0 && text.out.contains("released or expired") && text.out.contains("between") &&
                     text.out.contains("not observed"),
                 qPrintable(text.describe()));
    }

    // Locks held before watch starts are printed and journaled as seen held, and `redlock history` says "at least
    // since" for them. A second watch on the same journal continues the interval of a holder that still holds the
    // lock, and ends the one whose lock changed hands meanwhile as "ended while not watched", never "released".
    void historyOfLocksHeldBeforeWatchingAndAcrossRestarts()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withEvents;
        withEvents.notifyKeyspaceEvents = QStringLiteral("Kg$x");
        QVERIFY2(cluster.start(3, withEvents, &error), qPrintable(error));
        const QString journal = m_dir.filePath(QStringLiteral("restart-history.sqlite"));
        setOn(cluster, {0, 1, 2}, "locks:kept", "rl1:00112233445566778899aabbccddeeff:7:host:early", 120000);
        setOn(cluster, {0, 1, 2}, "locks:swap", "old-holder-token", 120000);
        const QStringList watchArgs{
            QStringLiteral("watch"),   QStringLiteral("--nodes"),   nodeList(cluster), QStringLiteral("--pattern"),
            QStringLiteral("locks:*"), QStringLiteral("--journal"), journal,           QStringLiteral("--json")};
        const auto atOf = [](const QJsonObject& o) {
            return QDateTime::fromString(o.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs)
                .toMSecsSinceEpoch();
        };
        qint64 firstSeenKept = 0, firstSeenSwap = 0;
        {
            WatchProcess watch(watchArgs);
            QVERIFY(watch.process().waitForStarted());
            const auto seen = watch.waitForEach(QStringLiteral("seen-held"),
                                                {QStringLiteral("locks:kept"), QStringLiteral("locks:swap")}, 15000);
            QVERIFY2(seen.size() == 2, qPrintable(watch.seen()));
            firstSeenKept = atOf(seen.value(QStringLiteral("locks:kept")));
            firstSeenSwap = atOf(seen.value(QStringLiteral("locks:swap")));
            QVERIFY2(!watch.seen().contains(QLatin1String("\"acquired\"")), qPrintable(watch.seen()));
            watch.process().terminate();
            QVERIFY(watch.process().waitForFinished(10000));
            QCOMPARE(watch.process().exitCode(), 0);
        }
        const qint64 firstStopped = QDateTime::currentMSecsSinceEpoch();

        // Nobody watches: locks:swap changes hands, locks:kept stays with its holder.
        setOn(cluster, {0, 1, 2}, "locks:swap", "new-holder-token", 120000);
        qint64 secondSeenSwap = 0;
        {
            WatchProcess watch(watchArgs);
            QVERIFY(watch.process().waitForStarted());
            const QJsonObject swap = watch.waitFor(QStringLiteral("seen-held"), QStringLiteral("locks:swap"), 15000);
            QVERIFY2(!swap.isEmpty(), qPrintable(watch.seen()));
            QCOMPARE(swap.value(QStringLiteral("token")).toString(), QStringLiteral("new-holder-token"));
            secondSeenSwap = atOf(swap);
            watch.process().terminate();
            QVERIFY(watch.process().waitForFinished(10000));
            QCOMPARE(watch.process().exitCode(), 0);
        }

        const CliRun json = runCli({QStringLiteral("history"), QStringLiteral("locks:*"), QStringLiteral("--journal"),
                                    journal, QStringLiteral("--since"), QStringLiteral("-1h"), QStringLiteral("--json"),
                                    QStringLiteral("--events")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.describe()));
        QList<QJsonObject> kept, swap;
        for (const QJsonValue& v : json.json.value(QStringLiteral("intervals")).toArray()) {
            const QJsonObject o = v.toObject();
            (o.value(QStringLiteral("key")).toString() == u"locks:kept" ? kept : swap).append(o);
        }
        // locks:kept: one interval across both watches, "at least since" the first sight.
        QCOMPARE(kept.size(), 1);
        QCOMPARE(kept[0].value(QStringLiteral("atLeastSince")).toBool(), true);
        QCOMPARE(kept[0].value(QStringLiteral("fromMs")).toInteger(), firstSeenKept);
        QCOMPARE(kept[0].value(QStringLiteral("endedBy")).toString(), QStringLiteral("unobserved"));
        QVERIFY(kept[0].value(QStringLiteral("toMs")).toInteger() >= secondSeenSwap);
        // locks:swap: the old holder's interval ended while nobody watched, after it was last seen.
        QCOMPARE(swap.size(), 2);
        QCOMPARE(swap[0].value(QStringLiteral("token")).toString(), QStringLiteral("old-holder-token"));
        QCOMPARE(swap[0].value(QStringLiteral("atLeastSince")).toBool(), true);
        QCOMPARE(swap[0].value(QStringLiteral("fromMs")).toInteger(), firstSeenSwap);
        QCOMPARE(swap[0].value(QStringLiteral("endedBy")).toString(), QStringLiteral("ended-unwatched"));
        QVERIFY(swap[0].value(QStringLiteral("toMs")).toInteger() <= firstStopped);
        QCOMPARE(swap[1].value(QStringLiteral("token")).toString(), QStringLiteral("new-holder-token"));
        QCOMPARE(swap[1].value(QStringLiteral("atLeastSince")).toBool(), true);
        QCOMPARE(swap[1].value(QStringLiteral("fromMs")).toInteger(), secondSeenSwap);
        for (const QJsonValue& v : json.json.value(QStringLiteral("events")).toArray()) {
            const QString kind = v.toObject().value(QStringLiteral("event")).toString();
            QVERIFY2(kind == u"seen-held", qPrintable(json.describe())); // no made-up acquire or release
        }

        // Text: "at least since", "ended while not watched"; never "released" or "acquired".
        const CliRun text =
            runCli({QStringLiteral("history"), QStringLiteral("locks:*"), QStringLiteral("--journal"), journal,
                    QStringLiteral("--since"), QStringLiteral("-1h"), QStringLiteral("--events")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
        QVERIFY2(text.out.contains("at least since") && text.out.contains("ended while not watched") &&
                     text.out.contains("seen held"),
                 qPrintable(text.describe()));
        QVERIFY2(!text.out.contains("released") && !text.out.contains("acquired"), qPrintable(text.describe()));
    }

    // ---- audit ------------------------------------------------------------------------------------------

    void auditOfASafeCluster()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable;
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(cluster.start(3, durable, &error), qPrintable(error));
        const CliRun text = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(cluster),
                                    QStringLiteral("--max-ttl"), QStringLiteral("60000")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
        QVERIFY2(text.out.startsWith("No findings: 3 node(s) checked, max TTL 60000 ms."), qPrintable(text.describe()));
        const CliRun json = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(cluster),
                                    QStringLiteral("--max-ttl"), QStringLiteral("60000"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.describe()));
        QVERIFY(json.json.value(QStringLiteral("findings")).toArray().isEmpty());
        QCOMPARE(json.json.value(QStringLiteral("severe")).toBool(true), false);
        QCOMPARE(json.json.value(QStringLiteral("maxTtlMs")).toInteger(), 60000);

        // Two of those nodes alone: too few for Redlock, severe.
        const CliRun two = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(cluster, 0, 2),
                                   QStringLiteral("--max-ttl"), QStringLiteral("60000"), QStringLiteral("--json")});
        QVERIFY2(two.exitCode == 4, qPrintable(two.describe()));
        QCOMPARE(ruleIds(two.json), QStringList{QStringLiteral("node-count")});
        QCOMPARE(findingOf(two.json, QStringLiteral("node-count")).value(QStringLiteral("severity")).toString(),
                 QStringLiteral("severe"));
    }

    // Hostile N10: `redlock audit` kept every lock of every node to find the largest PTTL (204 MB for 100,000 keys
    // on 5 nodes, 1.7 GB at 100 nodes). It keeps the running maximum only: its peak memory over 60,000 locks on
    // 3 nodes is about that of an audit of no lock at all, and the largest PTTL is still found.
    void auditMemoryDoesNotGrowWithTheLocks()
    {
        constexpr int count = 60000;
        for (int i = 0; i < m_cluster.size(); ++i) {
            DirectRedis node(m_cluster.port(i));
            node.command({"EVAL",
                          "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'many:' .. i, "
                          "'rl1:00112233445566778899aabbccdd' .. (100000 + i) .. ':' .. i, 'PX', 600000 + i) end "
                          "return 1",
                          "0", QByteArray::number(count)});
            node.set("many:longest", "rl1:00112233445566778899aabbccdd999999:longest", 3600000);
        }
        const QString out = m_dir.filePath(QStringLiteral("audit.json"));
        auto audit = [&](const QString& pattern) {
            return runMeasured({QStringLiteral("audit"), QStringLiteral("--nodes"), m_nodes,
                                QStringLiteral("--pattern"), pattern, QStringLiteral("--json")},
                               out);
        };
        const auto none = audit(QStringLiteral("nothing:*"));
        QVERIFY(none && none->exitCode == 0);
        const auto all = audit(QStringLiteral("many:*"));
        QVERIFY(all);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        QVERIFY2(all->exitCode == 0, qPrintable(QString::number(all->exitCode)));
        const qint64 maxTtl = json.value(QStringLiteral("maxTtlMs")).toInteger();
        QVERIFY2(maxTtl > 3500000 && maxTtl <= 3600000, qPrintable(QString::number(maxTtl)));
        const qint64 grownKb = all->peakRssKb - none->peakRssKb;
        qInfo("audit peak: %lld kB with %d locks, %lld kB with none", all->peakRssKb, count, none->peakRssKb);
        QVERIFY2(grownKb < 24 * 1024, qPrintable(QStringLiteral("peak %1 kB with %2 locks, %3 kB with none")
                                                     .arg(all->peakRssKb)
                                                     .arg(count)
                                                     .arg(none->peakRssKb)));
    }

    void auditSevereFindingExitsFour()
    {
        // Two masters and a replica of the first.
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable;
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(cluster.start(2, durable, &error), qPrintable(error));
        LocalNodeOptions replica = durable;
        replica.extraArgs = {QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                             QString::number(cluster.port(0))};
        QVERIFY2(cluster.addNode(replica, &error) == 2, qPrintable(error));

        const CliRun json = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(cluster),
                                    QStringLiteral("--max-ttl"), QStringLiteral("60000"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 4, qPrintable(json.describe()));
        QCOMPARE(json.json.value(QStringLiteral("severe")).toBool(), true);
        const QJsonObject finding = findingOf(json.json, QStringLiteral("replica"));
        QCOMPARE(finding.value(QStringLiteral("severity")).toString(), QStringLiteral("severe"));
        QCOMPARE(strings(finding.value(QStringLiteral("nodes"))), QStringList{cluster.endpoint(2).displayName()});
        QVERIFY(!finding.value(QStringLiteral("explanation")).toString().isEmpty());

        const CliRun text = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(cluster),
                                    QStringLiteral("--max-ttl"), QStringLiteral("60000")});
        QVERIFY2(text.exitCode == 4, qPrintable(text.describe()));
        QVERIFY2(text.out.contains("[SEVERE] Node is a replica (replica)"), qPrintable(text.describe()));
    }

    void auditWarningsExitZero()
    {
        // AOF without fsync on every write on one node, and its clock 5 s ahead on another.
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable;
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(cluster.start(1, durable, &error), qPrintable(error));
        LocalNodeOptions everysec = durable;
        everysec.appendFsync = QStringLiteral("everysec");
        QVERIFY2(cluster.addNode(everysec, &error) == 1, qPrintable(error));
        LocalNodeOptions ahead = durable;
        QVERIFY2(withClockOffset(&ahead, 5, &error), qPrintable(error));
        QVERIFY2(cluster.addNode(ahead, &error) == 2, qPrintable(error));

        const CliRun json = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(cluster),
                                    QStringLiteral("--max-ttl"), QStringLiteral("60000"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.describe()));
        QCOMPARE(json.json.value(QStringLiteral("severe")).toBool(true), false);
        const QJsonObject persistence = findingOf(json.json, QStringLiteral("persistence"));
        QCOMPARE(persistence.value(QStringLiteral("severity")).toString(), QStringLiteral("warning"));
        QCOMPARE(strings(persistence.value(QStringLiteral("nodes"))), QStringList{cluster.endpoint(1).displayName()});
        const QJsonObject clock = findingOf(json.json, QStringLiteral("clock-offset"));
        QCOMPARE(clock.value(QStringLiteral("severity")).toString(), QStringLiteral("warning"));
        QCOMPARE(strings(clock.value(QStringLiteral("nodes"))), QStringList{cluster.endpoint(2).displayName()});

        const CliRun text = runCli({QStringLiteral("audit"), QStringLiteral("--nodes"), nodeList(cluster),
                                    QStringLiteral("--max-ttl"), QStringLiteral("60000")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
        QVERIFY2(text.out.contains("[WARNING] Persistence can lose locks (persistence)"), qPrintable(text.describe()));
        QVERIFY2(text.out.contains("(clock-offset)"), qPrintable(text.describe()));
        QVERIFY2(!text.out.contains("[SEVERE]"), qPrintable(text.describe()));
    }

    // ---- force-release ----------------------------------------------------------------------------------

    void forceReleasePreviewConfirmAndExecute()
    {
        setOn(m_cluster, {0, 1, 2}, "locks:stuck", "stuck-token");
        const QString log = m_dir.filePath(QStringLiteral("audit-execute.jsonl"));
        auto forceRelease = [&](const QStringList& extra) {
            // Lock-delay 0: the plain compare-and-delete (the lock-delay has its own test below).
            return runCli(QStringList{QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes,
                                      QStringLiteral("--audit-log"), log, QStringLiteral("--lock-delay"),
                                      QStringLiteral("0")}
                          << extra);
        };
        auto stillHeld = [&] {
            for (int i = 0; i < 3; ++i) {
                if (DirectRedis(m_cluster.port(i)).get("locks:stuck") != "stuck-token")
                    return false;
            }
            return true;
        };

        // Preview only.
        const CliRun preview =
            forceRelease({QStringLiteral("--token"), QStringLiteral("stuck-token"), QStringLiteral("--dry-run"),
                          QStringLiteral("--json"), QStringLiteral("locks:stuck")});
        QVERIFY2(preview.exitCode == 0, qPrintable(preview.describe()));
        QCOMPARE(preview.json.value(QStringLiteral("executed")).toBool(true), false);
        QCOMPARE(preview.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
        const QJsonObject previewReport = preview.json.value(QStringLiteral("preview")).toObject();
        QCOMPARE(previewReport.value(QStringLiteral("matched")).toInt(), 3);
        QCOMPARE(results(previewReport), QStringList(3, QStringLiteral("will-delete")));
        QVERIFY(stillHeld());

        // Not confirmed: stdin is not a terminal and there is no --yes.
        const CliRun unconfirmed =
            forceRelease({QStringLiteral("--token"), QStringLiteral("stuck-token"), QStringLiteral("locks:stuck")});
        QVERIFY2(unconfirmed.exitCode == 2, qPrintable(unconfirmed.describe()));
        QVERIFY2(unconfirmed.err.contains("--yes"), qPrintable(unconfirmed.describe()));
        QVERIFY(unconfirmed.out.contains("preview"));
        QVERIFY(stillHeld());
        const CliRun unconfirmedJson = forceRelease({QStringLiteral("--token"), QStringLiteral("stuck-token"),
                                                     QStringLiteral("--json"), QStringLiteral("locks:stuck")});
        QVERIFY2(unconfirmedJson.exitCode == 2, qPrintable(unconfirmedJson.describe()));
        QCOMPARE(unconfirmedJson.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("refused"));
        QCOMPARE(unconfirmedJson.json.value(QStringLiteral("executed")).toBool(true), false);

        // Another token holds the lock on every node (the token given is not the holder's): left to it, exit 6.
        const CliRun wrong =
            forceRelease({QStringLiteral("--token"), QStringLiteral("not-the-token"), QStringLiteral("--yes"),
                          QStringLiteral("--json"), QStringLiteral("locks:stuck")});
        QVERIFY2(wrong.exitCode == 6, qPrintable(wrong.describe()));
        QCOMPARE(results(wrong.json.value(QStringLiteral("preview")).toObject()),
                 QStringList(3, QStringLiteral("token-changed")));
        QCOMPARE(wrong.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("held-by-other"));
        QCOMPARE(wrong.json.value(QStringLiteral("executed")).toBool(true), false);
        const QJsonObject wrongResult = wrong.json.value(QStringLiteral("result")).toObject();
        QCOMPARE(wrongResult.value(QStringLiteral("holderToken")).toString(), QStringLiteral("stuck-token"));
        QCOMPARE(wrongResult.value(QStringLiteral("holderNodes")).toInt(), 3);
        QVERIFY2(!wrongResult.contains(QStringLiteral("freeAt")) && !wrongResult.contains(QStringLiteral("freeInMs")) &&
                     !wrongResult.contains(QStringLiteral("tombstone")),
                 qPrintable(wrong.describe()));
        QVERIFY(stillHeld());

        // Executed: deleted everywhere, and one audit line with the reason.
        const CliRun done = forceRelease({QStringLiteral("--token"), QStringLiteral("stuck-token"),
                                          QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("--reason"),
                                          QStringLiteral("worker died"), QStringLiteral("locks:stuck")});
        QVERIFY2(done.exitCode == 0, qPrintable(done.describe()));
        QCOMPARE(done.json.value(QStringLiteral("executed")).toBool(), true);
        QCOMPARE(done.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
        const QJsonObject result = done.json.value(QStringLiteral("result")).toObject();
        QCOMPARE(result.value(QStringLiteral("matched")).toInt(), 3);
        QCOMPARE(results(result), QStringList(3, QStringLiteral("deleted")));
        QCOMPARE(result.value(QStringLiteral("audited")).toBool(), true);
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("locks:stuck"));
        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QList<QJsonObject> lines;
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (!line.isEmpty())
                lines << QJsonDocument::fromJson(line).object();
        }
        // Each execution writes its intent before any delete, then its result, tied by the operation id; the
        // wrong-token one too, with nothing deleted.
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0].value(QStringLiteral("action")).toString(), QStringLiteral("force-release-intent"));
        QCOMPARE(lines[1].value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(lines[1].value(QStringLiteral("deleted")).toInt(-1), 0);
        const QJsonObject intent = lines[2];
        const QJsonObject entry = lines[3];
        QCOMPARE(intent.value(QStringLiteral("action")).toString(), QStringLiteral("force-release-intent"));
        QCOMPARE(intent.value(QStringLiteral("reason")).toString(), QStringLiteral("worker died"));
        QVERIFY(!intent.value(QStringLiteral("operation")).toString().isEmpty());
        QCOMPARE(entry.value(QStringLiteral("operation")), intent.value(QStringLiteral("operation")));
        QCOMPARE(entry.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(entry.value(QStringLiteral("key")).toObject().value(QStringLiteral("printable")).toString(),
                 QStringLiteral("locks:stuck"));
        QCOMPARE(entry.value(QStringLiteral("token")).toObject().value(QStringLiteral("printable")).toString(),
                 QStringLiteral("stuck-token"));
        QCOMPARE(entry.value(QStringLiteral("reason")).toString(), QStringLiteral("worker died"));
        QCOMPARE(entry.value(QStringLiteral("deleted")).toInt(), 3);

        // Gone everywhere now: nothing left to match. The interop report: this said "executed": true, with a
        // tombstone written nowhere and another holder's expiry as "freeAt".
        const CliRun again = forceRelease({QStringLiteral("--token"), QStringLiteral("stuck-token"),
                                           QStringLiteral("--yes"), QStringLiteral("locks:stuck")});
        QVERIFY2(again.exitCode == 1, qPrintable(again.describe()));
        QVERIFY2(again.out.contains("nothing to release: no node holds the token"), qPrintable(again.describe()));
        QVERIFY2(!again.out.contains("free "), qPrintable(again.describe()));
        setOn(m_cluster, {0}, "locks:stuck", "minority-token");
        const CliRun againJson =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--audit-log"),
                    log, QStringLiteral("--token"), QStringLiteral("stuck-token"), QStringLiteral("--yes"),
                    QStringLiteral("--json"), QStringLiteral("locks:stuck")});
        QVERIFY2(againJson.exitCode == 1, qPrintable(againJson.describe()));
        QCOMPARE(againJson.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("nothing-matched"));
        QCOMPARE(againJson.json.value(QStringLiteral("executed")).toBool(true), false);
        const QJsonObject againResult = againJson.json.value(QStringLiteral("result")).toObject();
        QCOMPARE(againResult.value(QStringLiteral("outcome")).toString(), QStringLiteral("nothing-matched"));
        QVERIFY2(!againResult.contains(QStringLiteral("freeAt")) && !againResult.contains(QStringLiteral("freeInMs")) &&
                     !againResult.contains(QStringLiteral("tombstone")),
                 qPrintable(againJson.describe()));
    }

    // Issue 25: a force release whose result could not be written (stdout closed, a reader gone: EPIPE, a full
    // disk) is no success: exit 5, and stderr says why. Stdout is broken before the command starts (closed, a
    // pipe whose reader has already gone, /dev/full), so no reader's timing decides it. Text and --json alike.
    // Nothing is released when that is known before the release: always, except --json into a full disk (no
    // write comes before the JSON object, and only a write finds a full disk).
    void forceReleaseWhoseResultCannotBeWrittenExitsFive_data()
    {
        QTest::addColumn<QString>("stdoutIs");
        QTest::addColumn<bool>("json");
        for (const bool json : {false, true}) {
            const char* suffix = json ? " --json" : "";
            QTest::addRow("closed%s", suffix) << QStringLiteral("closed") << json;
            QTest::addRow("reader gone%s", suffix) << QStringLiteral("reader gone") << json;
            QTest::addRow("/dev/full%s", suffix) << QStringLiteral("/dev/full") << json;
        }
    }

    void forceReleaseWhoseResultCannotBeWrittenExitsFive()
    {
        QFETCH(QString, stdoutIs);
        QFETCH(bool, json);
        const QByteArray key = "locks:unheard";
        setOn(m_cluster, {0, 1, 2}, key, "unheard-token");
        QStringList args{QStringLiteral("force-release"),
                         QStringLiteral("--nodes"),
                         m_nodes,
                         QStringLiteral("--audit-log"),
                         m_dir.filePath(QStringLiteral("audit-unheard.jsonl")),
                         QStringLiteral("--token"),
                         QStringLiteral("unheard-token"),
                         QStringLiteral("--yes"),
                         QStringLiteral("--lock-delay"),
                         QStringLiteral("0")};
        if (json)
            args << QStringLiteral("--json");
        args << QString::fromLatin1(key);
        int readerGone[2] = {-1, -1};
        if (stdoutIs == u"reader gone") {
            QVERIFY(::pipe(readerGone) == 0);
            ::close(readerGone[0]);
        }
        QProcess process;
        process.setProcessEnvironment(cliEnvironment());
        if (stdoutIs == u"/dev/full")
            process.setStandardOutputFile(QStringLiteral("/dev/full"));
        else
            process.setChildProcessModifier([fd = readerGone[1]] {
                if (fd >= 0)
                    ::dup2(fd, STDOUT_FILENO);
                else
                    ::close(STDOUT_FILENO);
            });
        process.start(QStringLiteral(REDLOCK_CLI_PATH), args);
        const bool finished = process.waitForFinished(30000);
        if (readerGone[1] >= 0)
            ::close(readerGone[1]);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(finished && process.exitStatus() == QProcess::NormalExit, err.constData());
        QVERIFY2(process.exitCode() == 5,
                 qPrintable(QStringLiteral("exit %1: %2").arg(process.exitCode()).arg(QString::fromUtf8(err))));
        QVERIFY2(err.contains("redlock: cannot write the output"), err.constData());
        const bool knownBeforeRelease = !(json && stdoutIs == u"/dev/full");
        QVERIFY2(err.contains("nothing changed") == knownBeforeRelease, err.constData());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(DirectRedis(m_cluster.port(i)).exists(key), knownBeforeRelease);
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).command({"DEL", key});
    }

    void forceReleaseLeavesANewHolderAlone()
    {
        setOn(m_cluster, {0, 1}, "locks:moved", "old-token");
        setOn(m_cluster, {2}, "locks:moved", "new-token");
        const CliRun run =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--audit-log"),
                    m_dir.filePath(QStringLiteral("audit-moved.jsonl")), QStringLiteral("--token"),
                    QStringLiteral("old-token"), QStringLiteral("--yes"), QStringLiteral("--lock-delay"),
                    QStringLiteral("0"), QStringLiteral("--json"), QStringLiteral("locks:moved")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QJsonObject result = run.json.value(QStringLiteral("result")).toObject();
        QCOMPARE(results(result),
                 (QStringList{QStringLiteral("deleted"), QStringLiteral("deleted"), QStringLiteral("token-changed")}));
        QCOMPARE(result.value(QStringLiteral("nodes")).toArray()[2].toObject().value(QStringLiteral("foundToken")),
                 QJsonValue(QStringLiteral("new-token")));
        QVERIFY(!DirectRedis(m_cluster.port(0)).exists("locks:moved"));
        QVERIFY(!DirectRedis(m_cluster.port(1)).exists("locks:moved"));
        QCOMPARE(DirectRedis(m_cluster.port(2)).get("locks:moved"), std::optional<QByteArray>("new-token"));
    }

    // Hostile N12: the lock changed hands between the preview and the operator's confirmation. The release
    // leaves the new holder alone (the compare-and-set), and the result says so: "not freed", exit 6, never
    // "free at" (the new holder's expiry, which it may extend) with exit 0. Through a terminal (`script`), as an
    // operator answers the prompt; the tokens are changed on the nodes while the prompt waits.
    void forceReleaseSaysWhenTheLockChangedHandsAfterThePreview()
    {
        setOn(m_cluster, {0, 1, 2}, "locks:handover", "old-holder");
        auto quoted = [](const QString& arg) -> QString {
            return u'\'' + QString(arg).replace(u'\'', QStringLiteral("'\\''")) + u'\'';
        };
        const QString command = QStringList{quoted(QStringLiteral(REDLOCK_CLI_PATH)),
                                            QStringLiteral("force-release"),
                                            QStringLiteral("--nodes"),
                                            quoted(m_nodes),
                                            QStringLiteral("--audit-log"),
                                            quoted(m_dir.filePath(QStringLiteral("audit-handover.jsonl"))),
                                            QStringLiteral("--token"),
                                            QStringLiteral("old-holder"),
                                            QStringLiteral("locks:handover")}
                                    .join(u' ');
        QProcess terminal;
        terminal.setProcessEnvironment(cliEnvironment());
        terminal.start(QStringLiteral("script"),
                       {QStringLiteral("-qfec"), command, QStringLiteral("/dev/null")}); // -e: the command's exit code
        QVERIFY2(terminal.waitForStarted(), qPrintable(terminal.errorString()));
        QByteArray out;
        QTRY_VERIFY2_WITH_TIMEOUT((out += terminal.readAllStandardOutput(), out.contains("Type the key name")),
                                  out.constData(), 20000);
        QVERIFY2(out.contains("free at"), out.constData()); // the preview: the old holder's lock would be freed
        setOn(m_cluster, {1, 2}, "locks:handover", "new-holder");
        const qsizetype answeredAt = out.size();
        terminal.write("locks:handover\n");
        QVERIFY(terminal.waitForFinished(20000));
        out += terminal.readAllStandardOutput();
        const QByteArray result = out.mid(answeredAt);
        QVERIFY2(terminal.exitStatus() == QProcess::NormalExit && terminal.exitCode() == 6, out.constData());
        QVERIFY2(result.contains("not freed: another token holds the lock on 2 of 3 nodes (quorum 2), new-holder: "
                                 "the lock is left to its holder"),
                 out.constData());
        QVERIFY2(!result.contains("free at") && !result.contains("free now"), out.constData());
        QVERIFY(LockTombstone::decode(DirectRedis(m_cluster.port(0)).get("locks:handover").value_or("")).has_value());
        for (const int i : {1, 2})
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("locks:handover"), std::optional<QByteArray>("new-holder"));
    }

    // The outcomes where the token stays somewhere: released on some nodes only (exit 7), and not released at all
    // (exit 1), each with its JSON outcome and the nodes as they really are.
    void forceReleasePartialAndNotReleased()
    {
        // Without expiry on node 3: an automatic lock-delay has nothing to measure there.
        setOn(m_cluster, {0, 1}, "locks:partial", "partial-token");
        DirectRedis(m_cluster.port(2)).set("locks:partial", "partial-token");
        const QString log = m_dir.filePath(QStringLiteral("audit-partial.jsonl"));
        const CliRun partial =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--audit-log"),
                    log, QStringLiteral("--token"), QStringLiteral("partial-token"), QStringLiteral("--yes"),
                    QStringLiteral("--json"), QStringLiteral("locks:partial")});
        QVERIFY2(partial.exitCode == 7, qPrintable(partial.describe()));
        QCOMPARE(partial.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("released-partially"));
        QCOMPARE(partial.json.value(QStringLiteral("executed")).toBool(), true);
        const QJsonObject partialResult = partial.json.value(QStringLiteral("result")).toObject();
        QCOMPARE(results(partialResult), (QStringList{QStringLiteral("tombstoned"), QStringLiteral("tombstoned"),
                                                      QStringLiteral("no-expiry")}));
        QCOMPARE(partialResult.value(QStringLiteral("mayStillHold")).toInt(), 1);
        QVERIFY(partialResult.contains(QStringLiteral("tombstone")));
        QCOMPARE(DirectRedis(m_cluster.port(2)).get("locks:partial"), std::optional<QByteArray>("partial-token"));
        const CliRun partialText =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--audit-log"),
                    log, QStringLiteral("--token"), QStringLiteral("partial-token"), QStringLiteral("--dry-run"),
                    QStringLiteral("locks:partial")});
        // Nodes 1 and 2 hold a tombstone now, node 3 the token without expiry: nothing would be released.
        QVERIFY2(partialText.exitCode == 1, qPrintable(partialText.describe()));
        QVERIFY2(partialText.out.contains("nothing released: the token is there but could not be released"),
                 qPrintable(partialText.describe()));

        setOn(m_cluster, {0, 1, 2}, "locks:forever", "forever-token", 0);
        const CliRun notReleased =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--audit-log"),
                    log, QStringLiteral("--token"), QStringLiteral("forever-token"), QStringLiteral("--yes"),
                    QStringLiteral("--json"), QStringLiteral("locks:forever")});
        QVERIFY2(notReleased.exitCode == 1, qPrintable(notReleased.describe()));
        QCOMPARE(notReleased.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("not-released"));
        QCOMPARE(notReleased.json.value(QStringLiteral("executed")).toBool(true), false);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("locks:forever"), std::optional<QByteArray>("forever-token"));
    }

    // The default: the token becomes a tombstone for the remaining PTTL plus drift; the preview and the result
    // say for how long and when the lock is free; acquires are refused until then (ours and a raw SET NX PX as
    // node-redlock sends it), and succeed after.
    void forceReleaseWithLockDelay()
    {
        setOn(m_cluster, {0, 1, 2}, "locks:delayed", "hung-holder", 60000);
        const QString log = m_dir.filePath(QStringLiteral("audit-delay.jsonl"));
        auto forceRelease = [&](const QStringList& extra) {
            return runCli(QStringList{QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes,
                                      QStringLiteral("--audit-log"), log, QStringLiteral("--token"),
                                      QStringLiteral("hung-holder")}
                          << extra);
        };

        // Auto is the default: the preview shows the lock-delay per node and when the lock is free.
        const CliRun preview = forceRelease({QStringLiteral("--dry-run"), QStringLiteral("locks:delayed")});
        QVERIFY2(preview.exitCode == 0, qPrintable(preview.describe()));
        QVERIFY2(preview.out.contains("lock-delay auto (remaining validity + drift): tombstones for up to"),
                 qPrintable(preview.describe()));
        QVERIFY2(preview.out.contains("free at "), qPrintable(preview.describe()));
        const CliRun previewJson =
            forceRelease({QStringLiteral("--dry-run"), QStringLiteral("--json"), QStringLiteral("locks:delayed")});
        QCOMPARE(previewJson.json.value(QStringLiteral("lockDelay")).toString(), QStringLiteral("auto"));
        const QJsonObject previewReport = previewJson.json.value(QStringLiteral("preview")).toObject();
        QCOMPARE(results(previewReport), QStringList(3, QStringLiteral("will-tombstone")));
        for (const QJsonValue& v : previewReport.value(QStringLiteral("nodes")).toArray()) {
            const QJsonObject n = v.toObject();
            const qint64 pttl = n.value(QStringLiteral("pttlMs")).toInteger();
            QCOMPARE(n.value(QStringLiteral("lockDelayMs")).toInteger(), pttl + rules::clockDriftMs(pttl, 0.01));
        }
        QVERIFY(previewReport.value(QStringLiteral("freeInMs")).toInteger() > 59000);
        QVERIFY(!previewReport.value(QStringLiteral("freeAt")).toString().isEmpty());
        QCOMPARE(DirectRedis(m_cluster.port(0)).get("locks:delayed"), std::optional<QByteArray>("hung-holder"));

        // A fixed lock-delay shorter than the lock's remaining validity is raised to it plus drift: the text, the
        // JSON and the nodes say so (never free while the old holder may still believe it holds the lock).
        const CliRun raisedPreview = forceRelease({QStringLiteral("--lock-delay"), QStringLiteral("3000"),
                                                   QStringLiteral("--dry-run"), QStringLiteral("locks:delayed")});
        QVERIFY2(raisedPreview.exitCode == 0, qPrintable(raisedPreview.describe()));
        QVERIFY2(raisedPreview.out.contains("lock-delay 3000 ms, raised to up to ") &&
                     raisedPreview.out.contains("on 3 node(s) to cover the holder's remaining validity plus drift"),
                 qPrintable(raisedPreview.describe()));
        const CliRun raised =
            forceRelease({QStringLiteral("--lock-delay"), QStringLiteral("3000"), QStringLiteral("--yes"),
                          QStringLiteral("--json"), QStringLiteral("locks:delayed")});
        QVERIFY2(raised.exitCode == 0, qPrintable(raised.describe()));
        const QJsonObject raisedResult = raised.json.value(QStringLiteral("result")).toObject();
        QCOMPARE(results(raisedResult), QStringList(3, QStringLiteral("tombstoned")));
        QCOMPARE(raisedResult.value(QStringLiteral("lockDelayRaisedNodes")).toInt(), 3);
        QVERIFY(raisedResult.value(QStringLiteral("lockDelayMs")).toInteger() > 55000);
        QVERIFY(raisedResult.value(QStringLiteral("freeInMs")).toInteger() > 55000);
        for (const QJsonValue& v : raisedResult.value(QStringLiteral("nodes")).toArray())
            QVERIFY(v.toObject().value(QStringLiteral("lockDelayRaised")).toBool());
        for (int i = 0; i < 3; ++i)
            QVERIFY(DirectRedis(m_cluster.port(i)).pttl("locks:delayed") > 55000);

        // A fixed lock-delay longer than the validity left, executed: exactly that.
        setOn(m_cluster, {0, 1, 2}, "locks:delayed", "hung-holder", 5000);
        QFile::remove(log);
        const CliRun done =
            forceRelease({QStringLiteral("--lock-delay"), QStringLiteral("8000"), QStringLiteral("--yes"),
                          QStringLiteral("--json"), QStringLiteral("locks:delayed")});
        QVERIFY2(done.exitCode == 0, qPrintable(done.describe()));
        const QJsonObject result = done.json.value(QStringLiteral("result")).toObject();
        QCOMPARE(results(result), QStringList(3, QStringLiteral("tombstoned")));
        QCOMPARE(result.value(QStringLiteral("lockDelay")).toString(), QStringLiteral("8000"));
        QCOMPARE(result.value(QStringLiteral("lockDelayMs")).toInteger(), 8000);
        QVERIFY(!result.contains(QStringLiteral("lockDelayRaisedNodes")));
        const QByteArray tombstone = result.value(QStringLiteral("tombstone")).toString().toUtf8();
        QVERIFY2(LockTombstone::decode(tombstone).has_value(), tombstone.constData());
        for (int i = 0; i < 3; ++i) {
            DirectRedis node(m_cluster.port(i));
            QCOMPARE(node.get("locks:delayed"), std::optional<QByteArray>(tombstone));
            QVERIFY(node.pttl("locks:delayed") <= 8000);
        }
        QList<QJsonObject> lines;
        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (!line.isEmpty())
                lines << QJsonDocument::fromJson(line).object();
        }
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[1].value(QStringLiteral("lockDelay")).toString(), QStringLiteral("8000"));
        QCOMPARE(lines[1].value(QStringLiteral("tombstoned")).toInt(), 3);

        // During the lock-delay: our acquire and a raw SET NX PX are refused.
        const CliRun early =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--retry"),
                    QStringLiteral("0"), QStringLiteral("--json"), QStringLiteral("locks:delayed")});
        QVERIFY2(early.exitCode == 1, qPrintable(early.describe()));
        QCOMPARE(DirectRedis(m_cluster.port(0))
                     .command({"SET", "locks:delayed", "a3f1c2d4e5b6a7980011223344556677", "NX", "PX", "10000"})
                     .type,
                 REDIS_REPLY_NIL);
        // After it: both succeed.
        QTRY_VERIFY_WITH_TIMEOUT(!DirectRedis(m_cluster.port(0)).exists("locks:delayed") &&
                                     !DirectRedis(m_cluster.port(1)).exists("locks:delayed") &&
                                     !DirectRedis(m_cluster.port(2)).exists("locks:delayed"),
                                 20000);
        QCOMPARE(DirectRedis(m_cluster.port(0))
                     .command({"SET", "locks:delayed", "a3f1c2d4e5b6a7980011223344556677", "NX", "PX", "10000"})
                     .type,
                 REDIS_REPLY_STATUS);
        DirectRedis(m_cluster.port(0)).command({"DEL", "locks:delayed"});
        const CliRun later =
            runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--retry"),
                    QStringLiteral("0"), QStringLiteral("--json"), QStringLiteral("locks:delayed")});
        QVERIFY2(later.exitCode == 0, qPrintable(later.describe()));

        // Bad values are usage errors, and change nothing.
        for (const QString& bad : {QStringLiteral("soon"), QStringLiteral("-5"), QStringLiteral("1.5")}) {
            const CliRun run = forceRelease(
                {QStringLiteral("--lock-delay"), bad, QStringLiteral("--yes"), QStringLiteral("locks:delayed")});
            QVERIFY2(run.exitCode == 2 && run.err.contains("--lock-delay"), qPrintable(run.describe()));
        }
    }

    void forceReleaseUsageAndUnreachable()
    {
        setOn(m_cluster, {0, 1, 2}, "locks:keep", "keep-token");
        QCOMPARE(runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--yes"),
                         QStringLiteral("locks:keep")})
                     .exitCode,
                 2); // no --token
        QCOMPARE(runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--token"),
                         QStringLiteral("keep-token"), QStringLiteral("--yes"), QStringLiteral("locks:keep"),
                         QStringLiteral("locks:other")})
                     .exitCode,
                 2); // two keys
        for (int i = 0; i < 3; ++i)
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("locks:keep"), std::optional<QByteArray>("keep-token"));

        LocalCluster down;
        QString error;
        QVERIFY2(down.start(3, {}, &error), qPrintable(error));
        const QString nodes = nodeList(down);
        down.stopAll();
        const CliRun run =
            runCli({QStringLiteral("force-release"), QStringLiteral("--nodes"), nodes, QStringLiteral("--audit-log"),
                    m_dir.filePath(QStringLiteral("audit-down.jsonl")), QStringLiteral("--token"), QStringLiteral("t"),
                    QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("locks:keep")});
        QVERIFY2(run.exitCode == 3, qPrintable(run.describe()));
        QCOMPARE(results(run.json.value(QStringLiteral("preview")).toObject()),
                 QStringList(3, QStringLiteral("unreachable")));
        QCOMPARE(run.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("unreachable"));
    }

    // ---- bench ------------------------------------------------------------------------------------------

    void benchAgainstNodes()
    {
        QList<NodeActivity> before;
        for (int i = 0; i < 3; ++i)
            before << NodeActivity::of(m_cluster.port(i));
        const CliRun run =
            runCli({QStringLiteral("bench"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--iterations"),
                    QStringLiteral("200"), QStringLiteral("--warmup"), QStringLiteral("20"), QStringLiteral("--key"),
                    QStringLiteral("bench:k"), QStringLiteral("--json")},
                   120000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(run.json.value(QStringLiteral("nodes")).toInt(), 3);
        QCOMPARE(run.json.value(QStringLiteral("iterations")).toInt(), 200);
        const QJsonObject ours = run.json.value(QStringLiteral("ours")).toObject();
        QCOMPARE(ours.value(QStringLiteral("failures")).toInt(-1), 0);
        QVERIFY(ours.value(QStringLiteral("acquireP50Us")).toDouble() > 0);
        QVERIFY(ours.value(QStringLiteral("acquireP99Us")).toDouble() >=
                ours.value(QStringLiteral("acquireP50Us")).toDouble());
        QVERIFY(ours.value(QStringLiteral("releaseP50Us")).toDouble() > 0);
        QVERIFY(ours.value(QStringLiteral("pairsPerSecond")).toDouble() > 0);
        QVERIFY(run.json.value(QStringLiteral("rssKb")).toInteger() > 0);
        QVERIFY(!run.json.contains(QStringLiteral("raw")));
        // Every pair really went to every node, and nothing is left behind.
        for (int i = 0; i < 3; ++i) {
            const auto calls = NodeActivity::of(m_cluster.port(i)).since(before[i]);
            QVERIFY2(calls.value("set") >= 220, qPrintable(QString::number(calls.value("set"))));
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("bench:k"));
        }

        // As a table, with the raw hiredis client alongside; it releases as the core does (compare-and-delete
        // by EVALSHA), never with a bare DEL.
        for (int i = 0; i < 3; ++i)
            before[i] = NodeActivity::of(m_cluster.port(i));
        const CliRun text = runCli({QStringLiteral("bench"), QStringLiteral("--nodes"), m_nodes,
                                    QStringLiteral("--iterations"), QStringLiteral("100"), QStringLiteral("--warmup"),
                                    QStringLiteral("10"), QStringLiteral("--baseline"), QStringLiteral("raw"),
                                    QStringLiteral("--blocks"), QStringLiteral("2")},
                                   120000);
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains(QStringLiteral("acquire p50 µs")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("redlock core")) && out.contains(QStringLiteral("raw hiredis")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("acquire p50 ours/raw:")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("release p50 ours/raw")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("resident memory after the run:")), qPrintable(out));
        for (int i = 0; i < 3; ++i) {
            const auto calls = NodeActivity::of(m_cluster.port(i)).since(before[i]);
            // 110 pairs each: ours sends its first release as EVAL, the raw client loads the script once. (The
            // script's own DELs count as "del" calls too: no way to tell a bare DEL from them there.)
            QVERIFY2(calls.value("evalsha") >= 215, qPrintable(QString::number(calls.value("evalsha"))));
        }
    }

    // K lockers on distinct keys share one client: a key someone else holds fails only its own locker.
    void benchConcurrentLockers()
    {
        setOn(m_cluster, {0, 1, 2}, "bench:c:3", "someone-else", 120000);
        // What the lockers send to node 0, to see that each has its own key.
        const QString cli = QStandardPaths::findExecutable(QStringLiteral("redis-cli"));
        QVERIFY2(!cli.isEmpty(), "redis-cli is not on PATH (package redis-tools, installed by scripts/setup-deps.sh)");
        QProcess monitor;
        monitor.start(cli, {QStringLiteral("-p"), QString::number(m_cluster.port(0)), QStringLiteral("monitor")});
        QVERIFY(monitor.waitForStarted());
        QByteArray monitored;
        QTRY_VERIFY_WITH_TIMEOUT((monitored += monitor.readAllStandardOutput()).contains("OK"), 10000);
        const CliRun run = runCli({QStringLiteral("bench"), QStringLiteral("--nodes"), m_nodes,
                                   QStringLiteral("--concurrency"), QStringLiteral("8"), QStringLiteral("--iterations"),
                                   QStringLiteral("400"), QStringLiteral("--warmup"), QStringLiteral("40"),
                                   QStringLiteral("--key"), QStringLiteral("bench:c"), QStringLiteral("--json")},
                                  120000);
        monitor.kill();
        monitor.waitForFinished();
        monitored += monitor.readAllStandardOutput();
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(run.json.value(QStringLiteral("concurrency")).toInt(), 8);
        for (int k = 0; k < 8; ++k)
            QVERIFY2(monitored.contains(QByteArray("\"SET\" \"bench:c:" + QByteArray::number(k) + '"')),
                     qPrintable(QString::number(k)));
        const QJsonObject ours = run.json.value(QStringLiteral("ours")).toObject();
        const int failures = ours.value(QStringLiteral("failures")).toInt(-1);
        QVERIFY2(failures > 0 && failures < 400, qPrintable(run.describe()));
        QVERIFY(ours.value(QStringLiteral("pairsPerSecond")).toDouble() > 0);
        QVERIFY(ours.value(QStringLiteral("acquireP99Us")).toDouble() >=
                ours.value(QStringLiteral("acquireP50Us")).toDouble());
        for (int i = 0; i < 3; ++i) {
            DirectRedis node(m_cluster.port(i));
            QCOMPARE(node.get("bench:c:3").value_or(QByteArray()), QByteArray("someone-else"));
            for (int k = 0; k < 8; ++k)
                QVERIFY(k == 3 || !node.exists("bench:c:" + QByteArray::number(k)));
        }
        // The raw client runs one locker.
        const CliRun raw =
            runCli({QStringLiteral("bench"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--concurrency"),
                    QStringLiteral("2"), QStringLiteral("--baseline"), QStringLiteral("raw")});
        QVERIFY2(raw.exitCode == 2, qPrintable(raw.describe()));
    }

    void benchLocalClusterUsageAndNodesDown()
    {
        const CliRun local = runCli({QStringLiteral("bench"), QStringLiteral("--local"), QStringLiteral("3"),
                                     QStringLiteral("--iterations"), QStringLiteral("50"), QStringLiteral("--warmup"),
                                     QStringLiteral("5"), QStringLiteral("--json")},
                                    120000);
        QVERIFY2(local.exitCode == 0, qPrintable(local.describe()));
        QCOMPARE(local.json.value(QStringLiteral("nodes")).toInt(), 3);
        QCOMPARE(local.json.value(QStringLiteral("ours")).toObject().value(QStringLiteral("failures")).toInt(-1), 0);

        QCOMPARE(runCli({QStringLiteral("bench")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("bench"), QStringLiteral("--local"), QStringLiteral("3"),
                         QStringLiteral("--nodes"), m_nodes})
                     .exitCode,
                 2);
        QCOMPARE(runCli({QStringLiteral("bench"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--baseline"),
                         QStringLiteral("redis-py")})
                     .exitCode,
                 2);
        QCOMPARE(runCli({QStringLiteral("bench"), QStringLiteral("--nodes"), m_nodes, QStringLiteral("--unix-socket")})
                     .exitCode,
                 2);

        LocalCluster down;
        QString error;
        QVERIFY2(down.start(3, {}, &error), qPrintable(error));
        const QString nodes = nodeList(down);
        down.stopAll();
        // Every pair fails: stopped after 100 failures in a row, or at the end with nothing measured.
        for (const QString& iterations : {QStringLiteral("300"), QStringLiteral("50")}) {
            const CliRun run =
                runCli({QStringLiteral("bench"), QStringLiteral("--nodes"), nodes, QStringLiteral("--iterations"),
                        iterations, QStringLiteral("--warmup"), QStringLiteral("0")},
                       120000);
            QVERIFY2(run.exitCode == 3, qPrintable(run.describe()));
            QVERIFY2(run.err.contains(iterations == u"300" ? "benchmark stopped" : "no acquire succeeded"),
                     qPrintable(run.describe()));
        }
    }

    // ---- --read-only ------------------------------------------------------------------------------------

    void readOnlyRefusesEveryWrite()
    {
        setOn(m_cluster, {0, 1, 2}, "locks:ro", "ro-token");
        QList<NodeActivity> before;
        for (int i = 0; i < 3; ++i)
            before << NodeActivity::of(m_cluster.port(i));
        const QString ro = QStringLiteral("--read-only");
        const QString nodes = QStringLiteral("--nodes");
        const QString token = QStringLiteral("--token");

        const CliRun acquire = runCli(
            {QStringLiteral("acquire"), nodes, m_nodes, ro, QStringLiteral("--json"), QStringLiteral("locks:ro2")});
        QVERIFY2(acquire.exitCode == 2, qPrintable(acquire.describe()));
        QVERIFY2(acquire.json.value(QStringLiteral("error")).toString().contains(QStringLiteral("read-only")),
                 qPrintable(acquire.describe()));
        const CliRun extend = runCli({QStringLiteral("extend"), nodes, m_nodes, ro, token, QStringLiteral("ro-token"),
                                      QStringLiteral("--ttl"), QStringLiteral("600000"), QStringLiteral("locks:ro")});
        QVERIFY2(extend.exitCode == 2 && extend.out.contains("read-only"), qPrintable(extend.describe()));
        const CliRun release = runCli({QStringLiteral("release"), nodes, m_nodes, ro, token, QStringLiteral("ro-token"),
                                       QStringLiteral("locks:ro")});
        QVERIFY2(release.exitCode == 2 && release.out.contains("read-only"), qPrintable(release.describe()));
        const CliRun force = runCli({QStringLiteral("force-release"), nodes, m_nodes, ro, token,
                                     QStringLiteral("ro-token"), QStringLiteral("--yes"), QStringLiteral("--audit-log"),
                                     m_dir.filePath(QStringLiteral("audit-ro.jsonl")), QStringLiteral("locks:ro")});
        QVERIFY2(force.exitCode == 2 && force.err.contains("read-only"), qPrintable(force.describe()));
        const CliRun bench = runCli({QStringLiteral("bench"), nodes, m_nodes, ro, QStringLiteral("--iterations"),
                                     QStringLiteral("10"), QStringLiteral("--key"), QStringLiteral("locks:ro3")});
        QVERIFY2(bench.exitCode == 2 && bench.err.contains("read-only"), qPrintable(bench.describe()));

        // Nothing was written on any node, nor any writing command run (not even a compare-and-delete that
        // would have found nothing to delete).
        for (int i = 0; i < 3; ++i) {
            DirectRedis node(m_cluster.port(i));
            QCOMPARE(node.get("locks:ro"), std::optional<QByteArray>("ro-token"));
            QVERIFY(node.pttl("locks:ro") <= 60000);
            QVERIFY(!node.exists("locks:ro2"));
            QVERIFY(!node.exists("locks:ro3"));
            const NodeActivity after = NodeActivity::of(m_cluster.port(i));
            QCOMPARE(after.changes, before[i].changes);
            const auto calls = after.since(before[i]);
            for (auto it = calls.cbegin(); it != calls.cend(); ++it)
                QVERIFY2(readCommands().contains(it.key()), it.key().constData());
        }
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("audit-ro.jsonl"))));

        // The same command without --read-only does write: the checks above can see a write.
        const CliRun released = runCli(
            {QStringLiteral("release"), nodes, m_nodes, token, QStringLiteral("ro-token"), QStringLiteral("locks:ro")});
        QVERIFY2(released.exitCode == 0, qPrintable(released.describe()));
        const NodeActivity after = NodeActivity::of(m_cluster.port(0));
        QVERIFY(after.changes > before[0].changes);
        const auto calls = after.since(before[0]);
        QVERIFY(calls.contains("evalsha") || calls.contains("eval")); // the compare-and-delete script
    }

private:
    QTemporaryDir m_dir;
    LocalCluster m_cluster;
    QString m_nodes;
};

QTEST_GUILESS_MAIN(TestCliCommands)
#include "TestCliCommands.moc"
