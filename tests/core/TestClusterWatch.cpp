// core/watch/ClusterWatch: the observation pipeline assembled once (sessions, inspector, audit, max TTL, the node-up
// and quorum rule), on real redis-server nodes. The last test runs `redlock watch --json`, `redlock audit --json` and
// `redlock exporter` beside a ClusterWatch over one deployment and takes nodes down under all of them: each step,
// every front end reports the same nodes up, the same quorum and the same audit findings, and, with keyspace events
// off, the same untold end of a lock; started before any node answers, none reports a node up or a lock free that it
// did not read; with one server under two names, all count it once, in the nodes up and in every verdict.

#include "alerts/AlertMonitor.h"
#include "localcluster/LocalCluster.h"
#include "redlock/LockToken.h"
#include "support/CliTestSupport.h"
#include "support/DirectRedis.h"
#include "watch/ClusterWatch.h"

#include <QDeadlineTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QtTest>

#include <chrono>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>

using namespace redlock;

namespace {

// A token in the format RedlockClient writes, so that every observer reads the value as a lock.
QByteArray lockToken(int n)
{
    return "rl1:00112233445566778899aabbccdd" + QByteArray::number(1000 + n) + ":" + QByteArray::number(n);
}

void setOnAll(const LocalCluster& cluster, const QByteArray& key, const QByteArray& value, qint64 pxMs)
{
    for (int i = 0; i < cluster.size(); ++i)
        DirectRedis(cluster.port(i)).set(key, value, pxMs);
}

ClusterWatchOptions fastOptions(const LocalCluster& cluster)
{
    ClusterWatchOptions o;
    o.inspector.nodes = cluster.endpoints();
    o.inspector.pattern = "locks:*";
    o.inspector.reconcileIntervalMs = 500;
    o.inspector.budgetPerNode = 0;
    o.session.pingIntervalMs = 200;
    o.session.factsIntervalMs = 300;
    o.session.commandTimeoutMs = 1000;
    o.session.connection.backoffInitialMs = 50;
    o.session.connection.backoffMaxMs = 200;
    return o;
}

// Every node reported, each up one with its INFO read, and a full inspection done.
bool settled(const ClusterWatch& watch)
{
    if (!watch.allNodesReported() || !watch.inspectionDone())
        return false;
    for (const NodeFacts& f : watch.nodeFacts()) {
        if (f.health == NodeHealth::Up && !f.infoKnown)
            return false;
    }
    return true;
}

// "rule|severity|node names" per finding, sorted: what `audit --json` prints of a finding.
QStringList findingKeys(const QList<AuditFinding>& findings, const QList<NodeEndpoint>& nodes)
{
    QStringList out;
    for (const AuditFinding& f : findings) {
        QStringList names;
        for (const int i : f.nodes)
            names << nodes.value(i).displayName();
        out << f.ruleId + u'|' + severityId(f.severity) + u'|' + names.join(u',');
    }
    out.sort();
    return out;
}

QStringList findingKeys(const QJsonObject& audit)
{
    QStringList out;
    for (const QJsonValue& v : audit.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject f = v.toObject();
        QStringList names;
        for (const QJsonValue& n : f.value(QStringLiteral("nodes")).toArray())
            names << n.toString();
        out << f.value(QStringLiteral("rule")).toString() + u'|' + f.value(QStringLiteral("severity")).toString() +
                   u'|' + names.join(u',');
    }
    out.sort();
    return out;
}

// "rule|severity" once per finding and node concerned (once for a finding about the whole deployment): what the
// exporter's redlock_audit_findings{node,rule,severity} counts.
QStringList ruleSeverities(const QList<AuditFinding>& findings)
{
    QStringList out;
    for (const AuditFinding& f : findings) {
        for (qsizetype i = 0; i < std::max<qsizetype>(1, f.nodes.size()); ++i)
            out << f.ruleId + u'|' + severityId(f.severity);
    }
    out.sort();
    return out;
}

QStringList ruleSeverities(const QByteArray& exposition)
{
    static const QRegularExpression sample(QStringLiteral(
        "^redlock_audit_findings\\{(?:node=\"[^\"]*\",)?rule=\"([^\"]*)\",severity=\"([^\"]*)\"\\} (\\d+)$"));
    QStringList out;
    for (const QByteArray& line : exposition.split('\n')) {
        const QRegularExpressionMatch m = sample.match(QString::fromUtf8(line));
        if (!m.hasMatch())
            continue;
        for (int i = 0; i < m.captured(3).toInt(); ++i)
            out << m.captured(1) + u'|' + m.captured(2);
    }
    out.sort();
    return out;
}

// A child process of the test, killed when the test ends however it ends; stdout and stderr kept apart.
class Child
{
public:
    Child(const QStringList& args)
    {
        m_process.setProcessEnvironment(cliEnvironment());
        m_process.start(QStringLiteral(REDLOCK_CLI_PATH), args);
    }
    ~Child()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }
    bool running() const { return m_process.state() == QProcess::Running; }
    const QByteArray& out()
    {
        m_out += m_process.readAllStandardOutput();
        return m_out;
    }
    const QByteArray& err()
    {
        m_err += m_process.readAllStandardError();
        return m_err;
    }
    QString seen() { return QString::fromUtf8(out() + "\n--- stderr\n" + err()); }
    // A JSON line of stdout with these fields, if one was printed.
    bool printedJson(const QJsonObject& fields)
    {
        for (const QByteArray& line : out().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            bool all = !o.isEmpty();
            for (auto it = fields.begin(); it != fields.end() && all; ++it)
                all = o.value(it.key()) == it.value();
            if (all)
                return true;
        }
        return false;
    }
    // The port `exporter --listen 127.0.0.1:0` serves on, 0 until it says.
    quint16 servingPort()
    {
        static const QRegularExpression serving(QStringLiteral("serving http://127\\.0\\.0\\.1:(\\d+)/metrics"));
        const QRegularExpressionMatch m = serving.match(QString::fromUtf8(err()));
        return m.hasMatch() ? static_cast<quint16>(m.captured(1).toUInt()) : 0;
    }

private:
    QProcess m_process;
    QByteArray m_out;
    QByteArray m_err;
};

// One scrape of /metrics (HTTP/1.0: the body once the server closes).
QByteArray scrape(quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write("GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    QByteArray raw;
    const QDeadlineTimer deadline(10000);
    while (socket.state() == QAbstractSocket::ConnectedState && !deadline.hasExpired()) {
        socket.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        raw += socket.readAll();
    }
    raw += socket.readAll();
    const qsizetype split = raw.indexOf("\r\n\r\n");
    return split < 0 ? QByteArray() : raw.mid(split + 4);
}

double sampleValue(const QByteArray& exposition, const QByteArray& series)
{
    for (const QByteArray& line : exposition.split('\n')) {
        if (line.startsWith(QByteArray(series + ' ')))
            return line.mid(series.size() + 1).toDouble();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

// Per node, 1 or 0 as the exporter's redlock_node_up says (-1 when absent).
QList<int> nodeUp(const QByteArray& exposition, const QList<NodeEndpoint>& nodes)
{
    QList<int> out;
    for (const NodeEndpoint& n : nodes) {
        const double v = sampleValue(exposition, "redlock_node_up{node=\"" + n.displayName().toUtf8() + "\"}");
        out << (std::isnan(v) ? -1 : int(v));
    }
    return out;
}

QList<int> nodeUp(const ClusterWatch& watch)
{
    QList<int> out;
    for (int i = 0; i < watch.nodeCount(); ++i)
        out << int(watch.isNodeUp(i));
    return out;
}

} // namespace

class TestClusterWatch : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(QFile::exists(QStringLiteral(REDLOCK_CLI_PATH)), REDLOCK_CLI_PATH); }

    // The configuration the watch refuses, by the rules every front end applies: no node, one server twice, a drift
    // factor out of [0, 0.5).
    void refusesWhatTheRulesRefuse()
    {
        ClusterWatchOptions o;
        QVERIFY(!ClusterWatch::configErrors(o).isEmpty());
        o.inspector.nodes = {NodeEndpoint::parse(QStringLiteral("127.0.0.1:1")).value(),
                             NodeEndpoint::parse(QStringLiteral("127.0.0.1:2")).value(),
                             NodeEndpoint::parse(QStringLiteral("127.0.0.1:3")).value()};
        QCOMPARE(ClusterWatch::configErrors(o), QStringList());
        o.inspector.driftFactor = 0.5;
        QCOMPARE(ClusterWatch::configErrors(o), QStringList{rules::driftFactorError(0.5)});
        ClusterWatch refused(o);
        QString error;
        QVERIFY(!refused.start(&error));
        QCOMPARE(error, rules::driftFactorError(0.5));
        QVERIFY(!refused.isRunning());
        o.inspector.driftFactor = rules::kDefaultDriftFactor;
        o.inspector.nodes << o.inspector.nodes[0];
        QCOMPARE(ClusterWatch::configErrors(o).size(), 1);
    }

    // Up is what the session says, less the quarantined nodes; the quorum is counted from that, and a node that
    // stopped answering is audited as unverified, not by what it said before it went down.
    void quorumAndAuditFollowTheOneNodeUpRule()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        ClusterWatch watch(fastOptions(cluster));
        QSignalSpy quorum(&watch, &ClusterWatch::quorumStateChanged);
        QSignalSpy upChanged(&watch, &ClusterWatch::nodeUpChanged);
        QVERIFY(watch.start());
        QTRY_VERIFY_WITH_TIMEOUT(settled(watch) && watch.nodesUp() == 3, 20000);
        QVERIFY(watch.hasQuorum());
        QCOMPARE(quorum.last(), (QVariantList{3, 3, true}));
        QCOMPARE(upChanged.size(), 3); // each node once, up, at its first report; nothing while connecting

        // A delayed restart keeps a node out: not up, whatever its session says.
        watch.setQuarantinedNodes({0});
        QVERIFY(!watch.isNodeUp(0));
        QCOMPARE(watch.nodesUp(), 2);
        QCOMPARE(quorum.last(), (QVariantList{2, 3, true}));
        QCOMPARE(upChanged.last(), (QVariantList{0, false}));
        watch.setQuarantinedNodes({0, 1});
        QCOMPARE(quorum.last(), (QVariantList{1, 3, false}));
        QVERIFY(!watch.hasQuorum());
        watch.setQuarantinedNodes({});
        QCOMPARE(quorum.last(), (QVariantList{3, 3, true}));
        // Quarantined nodes that answer are still audited (their restart is what the audit judges).
        QVERIFY(!findingKeys(watch.findings(), cluster.endpoints()).join(u' ').contains(u"unverified"));

        QVERIFY(cluster.stopNode(2));
        QTRY_VERIFY_WITH_TIMEOUT(!watch.isNodeUp(2), 10000);
        QCOMPARE(upChanged.last(), (QVariantList{2, false}));
        QCOMPARE(quorum.last(), (QVariantList{2, 3, true}));
        // Its INFO of a moment ago is no audit of it now.
        const QString unverified = QStringLiteral("unverified|info|") + cluster.endpoint(2).displayName();
        QVERIFY2(findingKeys(watch.findings(), cluster.endpoints()).contains(unverified),
                 qPrintable(findingKeys(watch.findings(), cluster.endpoints()).join(u'\n')));
        QVERIFY(cluster.startNode(2, &error));
        QTRY_VERIFY_WITH_TIMEOUT(watch.isNodeUp(2) && watch.nodeFacts()[2].infoKnown, 10000);
        QCOMPARE(upChanged.last(), (QVariantList{2, true}));
        QTRY_VERIFY_WITH_TIMEOUT(!findingKeys(watch.findings(), cluster.endpoints()).contains(unverified), 10000);
    }

    // One server under two names (its TCP port and its unix socket) is one vote for the quorum, in the watch and in
    // `redlock audit` alike, and the audit says why (issue 24 item 6).
    void oneServerUnderTwoNamesIsOneVote()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withSocket;
        withSocket.unixSocket = true;
        QVERIFY2(cluster.start(3, withSocket, &error), qPrintable(error));
        NodeEndpoint alias;
        alias.unixSocket = cluster.unixSocketPath(0);
        ClusterWatchOptions o = fastOptions(cluster);
        o.inspector.nodes.append(alias);
        ClusterWatch watch(o);
        QVERIFY(watch.start());
        QTRY_VERIFY_WITH_TIMEOUT(settled(watch) && watch.isNodeUp(3), 20000);
        QCOMPARE(watch.nodeCount(), 4);
        QCOMPARE(watch.quorum(), 3);
        QCOMPARE(watch.nodesUp(), 3); // four names, three servers
        QVERIFY(watch.hasQuorum());
        QVERIFY(findingKeys(watch.findings(), o.inspector.nodes).join(u' ').contains(u"same-server|severe"));

        // Another server stopped: three names still answer, but they are two servers, fewer than the quorum.
        QVERIFY(cluster.stopNode(1));
        QTRY_VERIFY_WITH_TIMEOUT(!watch.isNodeUp(1), 10000);
        QCOMPARE(watch.nodesUp(), 2);
        QVERIFY(!watch.hasQuorum());

        QStringList list;
        for (const NodeEndpoint& n : o.inspector.nodes)
            list << n.displayName();
        const CliRun audit = runCli(
            {QStringLiteral("audit"), QStringLiteral("--json"), QStringLiteral("--nodes"), list.join(u',')}, 60000);
        QVERIFY2(audit.json.value(QStringLiteral("nodesReachable")).toInt(-1) == 2, qPrintable(audit.describe()));
        QCOMPARE(audit.exitCode, 3); // fewer than a quorum of servers reachable
    }

    // `redlock audit`: the max TTL is the largest PTTL of a lock value met in one pass (a tombstone's is no TTL a
    // client uses), and neither a lock view nor a key name is kept for it: memory does not grow with the number of
    // locks (each node reads what its own SCAN returns, so no set of the names read is needed).
    void oneShotAuditKeepsTheLargestPttlAndNoLocks()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        for (int i = 0; i < cluster.size(); ++i) {
            DirectRedis node(cluster.port(i));
            // 300 locks of 5 to 8 s, one of 45 s, and a force release's tombstone that outlives them all.
            node.command({"EVAL",
                          "for i = 1, 300 do redis.call('SET', 'locks:' .. i, 'rl1:00112233445566778899aabbccdd' .. "
                          "(1000 + i) .. ':' .. i, 'PX', 5000 + i * 10) end",
                          "0"});
            node.set("locks:long", lockToken(7), 45000);
            node.set("locks:released", LockTombstone{QStringLiteral("ops@host"), 1}.encode(), 3600000);
        }
        ClusterWatchOptions o = fastOptions(cluster);
        o.keepLocks = false;
        ClusterWatch watch(o);
        QSignalSpy locks(&watch, &ClusterWatch::locksChanged);
        QVERIFY(watch.start());
        QTRY_VERIFY_WITH_TIMEOUT(watch.inspectionDone(), 20000);
        QVERIFY2(watch.largestPttlSeenMs() > 40000 && watch.largestPttlSeenMs() <= 45000,
                 qPrintable(QString::number(watch.largestPttlSeenMs())));
        QCOMPARE(watch.auditMaxTtlMs(), watch.largestPttlSeenMs());
        // One view per node a lock is on (the tombstone is a row of its own), handed over and dropped.
        QCOMPARE(watch.lastInspection().locks, 302 * cluster.size());
        QCOMPARE(watch.lastInspection().keysRemembered, 0);
        QVERIFY(watch.inspector()->snapshot().isEmpty());
        QCOMPARE(locks.size(), 0);

        // A watch that keeps its locks reads each key once on every node, and remembers every name for that.
        ClusterWatch keeping(fastOptions(cluster));
        QVERIFY(keeping.start());
        QTRY_VERIFY_WITH_TIMEOUT(keeping.inspectionDone(), 20000);
        QCOMPARE(keeping.lastInspection().locks, 302);
        QCOMPARE(keeping.lastInspection().keysRemembered, 302);
        QCOMPARE(keeping.largestPttlSeenMs() > 40000, true);
    }

    // `redlock watch --journal` stopped while its bounded first pass is still handed over (a slow stdout, `| head`,
    // Ctrl+C): the event tap, where a journal records, has still been told of every lock held, not only the chunks
    // the consumer took. This thread's event loop does not run until the stop, so nothing is taken: one chunk out.
    void stoppingMidHandOffTellsTheTapEveryLock()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        constexpr int held = 500;
        for (int i = 0; i < cluster.size(); ++i) {
            DirectRedis(cluster.port(i))
                .command({"EVAL",
                          "for i = 1, 500 do redis.call('SET', 'locks:' .. i, 'rl1:00112233445566778899aabbccdd' .. "
                          "(1000 + i) .. ':' .. i, 'PX', 600000) end",
                          "0"});
        }
        ClusterWatchOptions o = fastOptions(cluster);
        o.inspector.fullPassChunk = 50;
        o.inspector.fullPassChunksAhead = 1;
        std::mutex mutex;
        std::condition_variable told;
        QSet<QByteArray> seenHeld; // filled on the I/O thread
        ClusterWatch watch(o);
        watch.setLockEventTap([&](const QList<LockEvent>& events) {
            const std::lock_guard lock(mutex);
            for (const LockEvent& e : events) {
                if (e.kind == LockEvent::Kind::SeenHeld)
                    seenHeld.insert(e.key);
            }
            told.notify_all();
        });
        QVERIFY(watch.start());
        {
            std::unique_lock lock(mutex);
            QVERIFY(told.wait_for(lock, std::chrono::seconds(60), [&] { return !seenHeld.isEmpty(); }));
            QVERIFY2(seenHeld.size() < held, qPrintable(QString::number(seenHeld.size()))); // the bound holds
        }
        watch.stop();
        const std::lock_guard lock(mutex);
        QCOMPARE(seenHeld.size(), held);
    }

    // The console's and `watch`'s watch: the largest PTTL seen is a running maximum over every change set, a lock
    // extended past it included (the console took only new locks), and the audit runs again when it grows.
    void maxTtlFollowsTheLargestPttlSeen()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions events;
        events.notifyKeyspaceEvents = QStringLiteral("Kg$hxe");
        QVERIFY2(cluster.start(3, events, &error), qPrintable(error));
        setOnAll(cluster, "locks:job", lockToken(1), 20000);
        ClusterWatchOptions o = fastOptions(cluster);
        o.configuredMaxTtlMs = 30000;
        ClusterWatch watch(o);
        QSignalSpy audits(&watch, &ClusterWatch::auditChanged);
        QVERIFY(watch.start());
        QTRY_VERIFY_WITH_TIMEOUT(settled(watch), 20000);
        QVERIFY2(watch.largestPttlSeenMs() > 15000 && watch.largestPttlSeenMs() <= 20000,
                 qPrintable(QString::number(watch.largestPttlSeenMs())));
        QCOMPARE(watch.auditMaxTtlMs(), qint64(30000)); // the operator's is larger

        // The holder extends it to 90 s: a change of a known lock, not a new one.
        for (int i = 0; i < cluster.size(); ++i)
            DirectRedis(cluster.port(i)).command({"PEXPIRE", "locks:job", "90000"});
        const qsizetype before = audits.size();
        QTRY_VERIFY2_WITH_TIMEOUT(watch.auditMaxTtlMs() > 85000, qPrintable(QString::number(watch.auditMaxTtlMs())),
                                  15000);
        QVERIFY(watch.auditMaxTtlMs() <= 90000);
        QVERIFY(audits.size() > before);
        // Never lowered: the lock goes, the TTL its clients use stays.
        for (int i = 0; i < cluster.size(); ++i)
            DirectRedis(cluster.port(i)).command({"DEL", "locks:job"});
        const qint64 largest = watch.auditMaxTtlMs();
        QSignalSpy changes(&watch, &ClusterWatch::locksChanged);
        QTRY_VERIFY_WITH_TIMEOUT(!changes.isEmpty(), 15000);
        QCOMPARE(watch.auditMaxTtlMs(), largest);
    }

    // Issue 24 (hostile N4, tests U1): a node the watch sees down or not answering counts as unreachable in every
    // verdict at once, not when a read next fails (no rescan runs here): a lock whose quorum needs it turns unknown,
    // never released, and held again once the node answers; a majority gone leaves it unknown, never released.
    void locksOnANodeDownAreJudgedAgainAtOnce()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        setOnAll(cluster, "locks:everywhere", lockToken(1), 600000);
        for (const int i : {0, 1})
            DirectRedis(cluster.port(i)).set("locks:on-two", lockToken(2), 600000);
        ClusterWatchOptions o = fastOptions(cluster);
        o.inspector.reconcileIntervalMs = 0; // no rescan: only the node's health can change the verdicts
        o.inspector.keyspaceEvents = false;
        ClusterWatch watch(o);
        QSignalSpy events(&watch, &ClusterWatch::lockEvents);
        QVERIFY(watch.start());
        QTRY_VERIFY_WITH_TIMEOUT(settled(watch) && watch.nodesUp() == 3, 20000);
        auto verdictOf = [&](const QByteArray& key) { return watch.inspector()->snapshot().value(key).verdict; };
        QCOMPARE(verdictOf("locks:on-two"), LockVerdict::Held);

        QVERIFY(cluster.pauseNode(1));
        QTRY_VERIFY_WITH_TIMEOUT(!watch.isNodeUp(1), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(verdictOf("locks:on-two"), LockVerdict::Unknown, 5000);
        QCOMPARE(verdictOf("locks:everywhere"), LockVerdict::Held); // nodes 1 and 3 still hold it
        QVERIFY(cluster.resumeNode(1));
        QTRY_VERIFY_WITH_TIMEOUT(watch.isNodeUp(1), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(verdictOf("locks:on-two"), LockVerdict::Held, 5000);

        // A majority shut down: unknown, never released, never gone.
        QVERIFY(cluster.stopNode(1));
        QVERIFY(cluster.stopNode(2));
        QTRY_VERIFY_WITH_TIMEOUT(!watch.isNodeUp(1) && !watch.isNodeUp(2), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(verdictOf("locks:everywhere"), LockVerdict::Unknown, 5000);
        QCOMPARE(verdictOf("locks:on-two"), LockVerdict::Unknown);
        for (const auto& args : std::as_const(events)) {
            for (const LockEvent& e : args.first().value<QList<LockEvent>>())
                QVERIFY2(e.kind == LockEvent::Kind::SeenHeld, qPrintable(lockEventKindId(e.kind)));
        }
    }

    // One deployment, four observers: a ClusterWatch, `redlock watch --json`, `redlock audit --json` and `redlock
    // exporter`. Started while every node hangs, then all nodes up, then one node shut down, then a second (quorum
    // lost), then one server under two names: at each step they report the same nodes up (distinct servers), the same
    // quorum, the same findings (audit and exporter) and the same verdicts as the ClusterWatch.
    void everyFrontEndReportsWhatTheWatchDoes()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions withSocket; // the last step reaches node 1 under a second name, its unix socket
        withSocket.unixSocket = true;
        QVERIFY2(cluster.start(3, withSocket, &error), qPrintable(error)); // no AOF: persistence, recent-start
        // A 10-minute lock: the max TTL every observer finds is above the 10 s they are told.
        setOnAll(cluster, "locks:long", lockToken(1), 600000);
        const QList<NodeEndpoint> nodes = cluster.endpoints();
        const QString list = nodeList(cluster);
        const QStringList common{QStringLiteral("--nodes"),   list,
                                 QStringLiteral("--pattern"), QStringLiteral("locks:*"),
                                 QStringLiteral("--max-ttl"), QStringLiteral("10000")};

        ClusterWatchOptions o = fastOptions(cluster);
        o.configuredMaxTtlMs = 10000;
        ClusterWatch watch(o);
        AlertMonitorOptions mo;
        mo.nodeCount = cluster.size();
        mo.evaluateIntervalMs = 200;
        AlertMonitor monitor(mo); // as the console's and `watch`'s
        watch.setAlertMonitor(&monitor);
        QSignalSpy watchEvents(&watch, &ClusterWatch::lockEvents);
        QSignalSpy watchUp(&watch, &ClusterWatch::nodeUpChanged);
        // Start-up (issue 24 item 5): every front end starts while every node hangs (connected, answering nothing),
        // so nothing has been read when they first report.
        for (int i = 0; i < cluster.size(); ++i)
            QVERIFY(cluster.pauseNode(i));
        QVERIFY(watch.start());
        // The rescan is their only source (the nodes have keyspace events off): as often as the watch's.
        const QStringList rescan{QStringLiteral("--reconcile"), QStringLiteral("500")};
        Child watchCli(QStringList{QStringLiteral("watch"), QStringLiteral("--json"), QStringLiteral("--alert"),
                                   QStringLiteral("node-down=0,quorum-lost=0,clear=0")} +
                       common + rescan);
        Child exporter(
            QStringList{QStringLiteral("exporter"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")} +
            common + rescan);
        // ---- start-up: no node read. No node is up, no lock is free or held, in any front end; the findings say
        // the nodes could not be read, the same in each.
        QTRY_VERIFY_WITH_TIMEOUT(watch.allNodesReported(), 20000);
        QCOMPARE(watch.nodesUp(), 0);
        QVERIFY(!watch.hasQuorum());
        for (const QList<QVariant>& args : std::as_const(watchUp))
            QVERIFY2(!args.at(1).toBool(), qPrintable(QString::number(args.at(0).toInt())));
        auto readNothing = [&] {
            for (const LockView& v : watch.inspector()->snapshot()) {
                if (v.verdict != LockVerdict::Unknown)
                    return false;
            }
            return true;
        };
        QVERIFY(readNothing());
        const CliRun startAudit =
            runCli(QStringList{QStringLiteral("audit"), QStringLiteral("--json")} + common, 60000);
        QCOMPARE(startAudit.exitCode, 3);
        QCOMPARE(startAudit.json.value(QStringLiteral("nodesReachable")).toInt(-1), 0);
        QTRY_VERIFY2_WITH_TIMEOUT(
            findingKeys(startAudit.json) == findingKeys(watch.findings(), nodes),
            qPrintable(findingKeys(watch.findings(), nodes).join(u' ') + u'\n' + startAudit.describe()), 10000);
        QVERIFY(findingKeys(watch.findings(), nodes).join(u' ').contains(u"unverified|severe|"));
        QTRY_VERIFY_WITH_TIMEOUT(exporter.servingPort() != 0, 20000);
        QByteArray startMetrics;
        QTRY_VERIFY2_WITH_TIMEOUT((startMetrics = scrape(exporter.servingPort()),
                                   nodeUp(startMetrics, nodes) == (QList<int>{0, 0, 0}) &&
                                       sampleValue(startMetrics, "redlock_servers_up") == 0 &&
                                       ruleSeverities(startMetrics) == ruleSeverities(watch.findings())),
                                  qPrintable(QString::fromUtf8(startMetrics)), 20000);
        for (const char* verdict : {"free", "held", "expiring", "minority-leftover", "contested", "stuck"})
            QVERIFY2(sampleValue(startMetrics, QByteArray("redlock_locks{verdict=\"") + verdict + "\"}") == 0, verdict);
        // `watch` saw every node down (its alerts say so) and reported no lock, free or held.
        for (int node = 1; node <= cluster.size(); ++node)
            QTRY_VERIFY2_WITH_TIMEOUT(watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("alert-raised")},
                                                            {QStringLiteral("rule"), QStringLiteral("node-down")},
                                                            {QStringLiteral("node"), node}}),
                                      qPrintable(watchCli.seen()), 20000);
        QTRY_VERIFY2_WITH_TIMEOUT(watchCli.err().contains("no node reachable"), qPrintable(watchCli.seen()), 10000);
        QVERIFY2(!watchCli.out().contains("\"key\""), qPrintable(watchCli.seen()));
        QVERIFY(readNothing());
        for (int i = 0; i < cluster.size(); ++i)
            QVERIFY(cluster.resumeNode(i));
        // What `watch` says from here on (stderr): each node reachable again, then only what the steps change.
        for (const NodeEndpoint& n : nodes)
            QTRY_VERIFY2_WITH_TIMEOUT(
                watchCli.err().contains(QByteArray(n.displayName().toUtf8() + ": reachable again")),
                qPrintable(watchCli.seen()), 20000);
        const qsizetype errFromHere = watchCli.err().size();
        auto watchSaid = [&] { return watchCli.err().mid(errFromHere); };

        QTRY_VERIFY_WITH_TIMEOUT(settled(watch) && watch.nodesUp() == 3, 20000);
        // The start-up pass read nothing: the max TTL is found by the first pass that reads the nodes.
        QTRY_VERIFY2_WITH_TIMEOUT(watch.auditMaxTtlMs() > 590000 && watch.auditMaxTtlMs() <= 600000,
                                  qPrintable(QString::number(watch.auditMaxTtlMs())), 10000);
        const quint16 port = exporter.servingPort();

        auto auditNow = [&] {
            return runCli(QStringList{QStringLiteral("audit"), QStringLiteral("--json")} + common, 60000);
        };
        // The same nodes up, quorum and findings as the watch, in `audit --json`.
        auto auditAgrees = [&](const CliRun& audit, int expectedExit) {
            QString why;
            if (audit.exitCode != expectedExit)
                why += QStringLiteral("exit %1, expected %2\n").arg(audit.exitCode).arg(expectedExit);
            if (audit.json.value(QStringLiteral("nodesReachable")).toInt(-1) != watch.nodesUp())
                why += QStringLiteral("nodesReachable differs\n");
            if (audit.json.value(QStringLiteral("quorum")).toInt(-1) != watch.quorum())
                why += QStringLiteral("quorum differs\n");
            const qint64 maxTtl = audit.json.value(QStringLiteral("maxTtlMs")).toInteger();
            if (!(maxTtl > 500000 && maxTtl <= watch.auditMaxTtlMs())) // the 10-minute lock, aged by the steps
                why += QStringLiteral("maxTtlMs %1\n").arg(maxTtl);
            if (findingKeys(audit.json) != findingKeys(watch.findings(), nodes))
                why += QStringLiteral("findings: audit %1, watch %2\n")
                           .arg(findingKeys(audit.json).join(u' '), findingKeys(watch.findings(), nodes).join(u' '));
            return why.isEmpty() ? why : why + audit.describe();
        };
        // The exporter's node_up and findings by rule and severity, as the watch's.
        QByteArray metrics;
        auto exporterAgrees = [&] {
            metrics = scrape(port);
            return sampleValue(metrics, "redlock_inspections_total") >= 1 && nodeUp(metrics, nodes) == nodeUp(watch) &&
                   sampleValue(metrics, "redlock_servers_up") == watch.nodesUp() &&
                   ruleSeverities(metrics) == ruleSeverities(watch.findings());
        };
        auto exporterWhy = [&] {
            return QStringLiteral("exporter: up %1 findings %2\nwatch: up %3 findings %4\n%5")
                .arg(QString::number(sampleValue(metrics, "redlock_servers_up")), ruleSeverities(metrics).join(u' '),
                     QString::number(watch.nodesUp()), ruleSeverities(watch.findings()).join(u' '),
                     QString::fromUtf8(metrics));
        };

        // ---- all up
        QString why = auditAgrees(auditNow(), 0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(findingKeys(watch.findings(), nodes).join(u' ').contains(u"recent-start|warning"));
        QTRY_VERIFY2_WITH_TIMEOUT(exporterAgrees(), qPrintable(exporterWhy()), 20000);
        // watch is live (its first pass is done) once a lock acquired after it started is reported.
        QTRY_VERIFY2_WITH_TIMEOUT((setOnAll(cluster, "locks:probe", lockToken(2), 600000),
                                   watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("acquired")},
                                                         {QStringLiteral("key"), QStringLiteral("locks:probe")}})),
                                  qPrintable(watchCli.seen()), 20000);
        QVERIFY2(!watchSaid().contains("unreachable"), qPrintable(watchCli.seen()));

        // ---- stuck beside a live holder (issue 24 item 2): an old value without expiry on node 3, a live quorum of
        // another token on nodes 1 and 2. Held by the live holder for everyone, the value without expiry a fact of
        // its own: an alert at once (minority leftover, core N6) and the exporter's count of such keys.
        const QByteArray old = LockToken::generate(QStringLiteral("crashed-worker")).encode(); // a lock, without TTL
        const QByteArray live = lockToken(4);
        DirectRedis(cluster.port(2)).set("locks:stuck", old); // no PX
        for (const int i : {0, 1})
            DirectRedis(cluster.port(i)).set("locks:stuck", live, 600000);
        auto stuckView = [&] { return watch.inspector()->snapshot().value("locks:stuck"); };
        QTRY_VERIFY_WITH_TIMEOUT(stuckView().verdict == LockVerdict::Held, 15000);
        QCOMPARE(stuckView().token, live);
        QCOMPARE(stuckView().noExpiryNodes, QList<int>{2});
        QCOMPARE(stuckView().releaseToken(), old);
        const QByteArray stuckAlert = "minority-leftover:" + AlertMonitor::keySubject("locks:stuck");
        QTRY_VERIFY_WITH_TIMEOUT(monitor.alert(stuckAlert).has_value(), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("acquired")},
                                                        {QStringLiteral("key"), QStringLiteral("locks:stuck")},
                                                        {QStringLiteral("token"), QString::fromLatin1(live)}}),
                                  qPrintable(watchCli.seen()), 20000);
        QTRY_VERIFY2_WITH_TIMEOUT(watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("alert-raised")},
                                                        {QStringLiteral("rule"), QStringLiteral("minority-leftover")},
                                                        {QStringLiteral("key"), QStringLiteral("locks:stuck")}}),
                                  qPrintable(watchCli.seen()), 20000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            (metrics = scrape(port), sampleValue(metrics, "redlock_locks_without_expiry") == 1 &&
                                         sampleValue(metrics, "redlock_locks{verdict=\"stuck\"}") == 0),
            qPrintable(QString::fromUtf8(metrics)), 20000);
        for (int i = 0; i < cluster.size(); ++i)
            DirectRedis(cluster.port(i)).command({"DEL", "locks:stuck"});
        QTRY_VERIFY_WITH_TIMEOUT(!watch.inspector()->snapshot().contains("locks:stuck"), 15000);

        // ---- expiry between reads, events off (Redis's default; issue 24 items 3 and 4): a lock every observer saw
        // held runs out, none keeps it held, and only a read finds it gone. Nobody was told whether it was released or
        // expired, nor when: every front end says "released or expired", after the last read that saw it held; none
        // says "expired" at a made-up instant.
        const auto watchSaw = [&](LockEvent::Kind kind, const QByteArray& key) -> std::optional<LockEvent> {
            for (const QList<QVariant>& args : watchEvents) {
                for (const LockEvent& e : args.first().value<QList<LockEvent>>()) {
                    if (e.kind == kind && e.key == key)
                        return e;
                }
            }
            return std::nullopt;
        };
        const double acquiredBefore = sampleValue(scrape(port), "redlock_lock_events_total{event=\"acquired\"}");
        setOnAll(cluster, "locks:n2", lockToken(3), 8000);
        QTRY_VERIFY2_WITH_TIMEOUT(watchSaw(LockEvent::Kind::Acquired, "locks:n2") &&
                                      watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("acquired")},
                                                            {QStringLiteral("key"), QStringLiteral("locks:n2")}}) &&
                                      sampleValue(scrape(port), "redlock_lock_events_total{event=\"acquired\"}") >
                                          acquiredBefore,
                                  qPrintable(watchCli.seen()), 7000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            watchSaw(LockEvent::Kind::ReleasedOrExpired, "locks:n2") &&
                watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("released-or-expired")},
                                      {QStringLiteral("key"), QStringLiteral("locks:n2")}}) &&
                sampleValue(scrape(port), "redlock_lock_events_total{event=\"released-or-expired\"}") >= 1,
            qPrintable(watchCli.seen() + QString::fromUtf8(scrape(port))), 20000);
        const LockEvent untold = *watchSaw(LockEvent::Kind::ReleasedOrExpired, "locks:n2");
        QVERIFY(untold.endsUnobserved() && untold.lastSeenHeldMs <= untold.atMs);
        QVERIFY(!watchSaw(LockEvent::Kind::Expired, "locks:n2"));
        QVERIFY2(!watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("expired")}}),
                 qPrintable(watchCli.seen()));
        QVERIFY2(watchCli.out().contains("\"lastSeenHeld\""), qPrintable(watchCli.seen()));
        QCOMPARE(sampleValue(scrape(port), "redlock_lock_events_total{event=\"expired\"}"), 0.0);
        QTRY_VERIFY_WITH_TIMEOUT(!watch.inspector()->snapshot().contains("locks:n2"), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            (metrics = scrape(port), sampleValue(metrics, "redlock_locks{verdict=\"held\"}") == 2 &&
                                         sampleValue(metrics, "redlock_locks_without_expiry") == 0),
            qPrintable(QString::fromUtf8(metrics)), 20000);
        // The 10-minute lock taken up again: the steps below find the max TTL they found at the start.
        setOnAll(cluster, "locks:long", lockToken(1), 600000);

        // ---- node 1 hung (SIGSTOP): connected, answering nothing. Not answering is down for every observer, as a
        // node whose connection is gone (issue 24 item 1: it was shown up for as long as it hung).
        QVERIFY(cluster.pauseNode(0));
        QTRY_VERIFY_WITH_TIMEOUT(!watch.isNodeUp(0) && watch.nodesUp() == 2, 15000);
        QCOMPARE(watch.nodeFacts()[0].health, NodeHealth::NotAnswering);
        QVERIFY(watch.hasQuorum());
        QTRY_VERIFY2_WITH_TIMEOUT(watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("alert-raised")},
                                                        {QStringLiteral("rule"), QStringLiteral("node-down")},
                                                        {QStringLiteral("node"), 1}}),
                                  qPrintable(watchCli.seen()), 15000);
        why = auditAgrees(auditNow(), 0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(
            findingKeys(watch.findings(), nodes).contains(QStringLiteral("unverified|info|") + nodes[0].displayName()));
        QTRY_VERIFY2_WITH_TIMEOUT(exporterAgrees(), qPrintable(exporterWhy()), 20000);
        QVERIFY(cluster.resumeNode(0));
        QTRY_VERIFY_WITH_TIMEOUT(watch.nodesUp() == 3, 15000);
        QTRY_VERIFY2_WITH_TIMEOUT(exporterAgrees(), qPrintable(exporterWhy()), 20000);

        // ---- node 3 shut down: 2 of 3 up, the quorum kept
        QVERIFY(cluster.stopNode(2));
        QTRY_VERIFY_WITH_TIMEOUT(!watch.isNodeUp(2) && watch.nodesUp() == 2, 10000);
        QVERIFY(watch.hasQuorum());
        QTRY_VERIFY2_WITH_TIMEOUT(watchSaid().contains(QByteArray(nodes[2].displayName().toUtf8() + ": unreachable")),
                                  qPrintable(watchCli.seen()), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("alert-raised")},
                                                        {QStringLiteral("rule"), QStringLiteral("node-down")},
                                                        {QStringLiteral("node"), 3}}),
                                  qPrintable(watchCli.seen()), 10000);
        QVERIFY2(!watchSaid().contains("nodes reachable"), qPrintable(watchCli.seen()));
        why = auditAgrees(auditNow(), 0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(
            findingKeys(watch.findings(), nodes).contains(QStringLiteral("unverified|info|") + nodes[2].displayName()));
        QTRY_VERIFY2_WITH_TIMEOUT(exporterAgrees(), qPrintable(exporterWhy()), 20000);

        // ---- node 2 shut down too: 1 of 3 up, no quorum
        QVERIFY(cluster.stopNode(1));
        QTRY_VERIFY_WITH_TIMEOUT(watch.nodesUp() == 1, 10000);
        QVERIFY(!watch.hasQuorum());
        QTRY_VERIFY2_WITH_TIMEOUT(watchSaid().contains("only 1 of 3 nodes reachable (quorum 2)"),
                                  qPrintable(watchCli.seen()), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(watchCli.printedJson({{QStringLiteral("event"), QStringLiteral("alert-raised")},
                                                        {QStringLiteral("rule"), QStringLiteral("quorum-lost")}}),
                                  qPrintable(watchCli.seen()), 10000);
        why = auditAgrees(auditNow(), 3);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(findingKeys(watch.findings(), nodes).join(u' ').contains(u"unverified|severe|"));
        QTRY_VERIFY2_WITH_TIMEOUT(exporterAgrees(), qPrintable(exporterWhy()), 20000);
        QVERIFY2(watchCli.running(), qPrintable(watchCli.seen()));
        QVERIFY2(exporter.running(), qPrintable(exporter.seen()));

        // ---- one server under two names (issue 24 item 6): node 1 also through its unix socket, four names of three
        // servers, a quorum of 3. A lock on servers 1 and 2 is on three names, but two servers: no quorum for any
        // front end; a lock on all three servers is held. Every front end counts three servers up.
        QVERIFY(cluster.startNode(1, &error));
        QVERIFY(cluster.startNode(2, &error));
        for (int i = 0; i < cluster.size(); ++i)
            DirectRedis(cluster.port(i)).command({"FLUSHALL"});
        for (const int i : {0, 1})
            DirectRedis(cluster.port(i)).set("locks:two-servers", lockToken(5), 600000);
        setOnAll(cluster, "locks:three-servers", lockToken(6), 600000);
        NodeEndpoint alias;
        alias.unixSocket = cluster.unixSocketPath(0);
        const QList<NodeEndpoint> named = nodes + QList<NodeEndpoint>{alias};
        const QStringList aliasCommon{QStringLiteral("--nodes"),   list + u',' + alias.displayName(),
                                      QStringLiteral("--pattern"), QStringLiteral("locks:*"),
                                      QStringLiteral("--max-ttl"), QStringLiteral("10000")};
        ClusterWatchOptions ao = fastOptions(cluster);
        ao.inspector.nodes = named;
        ao.configuredMaxTtlMs = 10000;
        ClusterWatch aliasWatch(ao);
        QVERIFY(aliasWatch.start());
        Child aliasCli(QStringList{QStringLiteral("watch"), QStringLiteral("--json")} + aliasCommon + rescan);
        Child aliasExporter(
            QStringList{QStringLiteral("exporter"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")} +
            aliasCommon + rescan);
        QTRY_VERIFY_WITH_TIMEOUT(settled(aliasWatch) && aliasWatch.isNodeUp(3), 20000);
        QCOMPARE(aliasWatch.quorum(), 3);
        QCOMPARE(aliasWatch.nodesUp(), 3);
        auto aliasVerdict = [&](const QByteArray& key) {
            return aliasWatch.inspector()->snapshot().value(key).verdict;
        };
        QTRY_COMPARE_WITH_TIMEOUT(aliasVerdict("locks:three-servers"), LockVerdict::Held, 10000);
        QCOMPARE(aliasVerdict("locks:two-servers"), LockVerdict::MinorityLeftover);
        QCOMPARE(aliasWatch.inspector()->snapshot().value("locks:two-servers").holders, 2);

        const CliRun aliasAudit =
            runCli(QStringList{QStringLiteral("audit"), QStringLiteral("--json")} + aliasCommon, 60000);
        QCOMPARE(aliasAudit.json.value(QStringLiteral("nodesReachable")).toInt(-1), 3);
        QCOMPARE(aliasAudit.json.value(QStringLiteral("quorum")).toInt(-1), 3);
        QVERIFY2(findingKeys(aliasAudit.json).join(u' ').contains(u"same-server|severe"),
                 qPrintable(aliasAudit.describe()));
        QTRY_VERIFY2_WITH_TIMEOUT(
            findingKeys(aliasAudit.json) == findingKeys(aliasWatch.findings(), named),
            qPrintable(findingKeys(aliasWatch.findings(), named).join(u' ') + u'\n' + aliasAudit.describe()), 10000);
        QCOMPARE(aliasAudit.exitCode, 4); // a severe finding, with a quorum of servers reachable

        QTRY_VERIFY_WITH_TIMEOUT(aliasExporter.servingPort() != 0, 20000);
        QByteArray aliasMetrics;
        QTRY_VERIFY2_WITH_TIMEOUT((aliasMetrics = scrape(aliasExporter.servingPort()),
                                   sampleValue(aliasMetrics, "redlock_inspections_total") >= 1 &&
                                       sampleValue(aliasMetrics, "redlock_servers_up") == aliasWatch.nodesUp() &&
                                       nodeUp(aliasMetrics, named) == nodeUp(aliasWatch) &&
                                       sampleValue(aliasMetrics, "redlock_locks{verdict=\"held\"}") == 1 &&
                                       sampleValue(aliasMetrics, "redlock_locks{verdict=\"minority-leftover\"}") == 1 &&
                                       ruleSeverities(aliasMetrics) == ruleSeverities(aliasWatch.findings())),
                                  qPrintable(QString::fromUtf8(aliasMetrics)), 20000);

        // `watch` reports the lock its first pass found held, and not the one on two servers: that pass reads both.
        QTRY_VERIFY2_WITH_TIMEOUT(
            aliasCli.printedJson({{QStringLiteral("event"), QStringLiteral("seen-held")},
                                  {QStringLiteral("key"), QStringLiteral("locks:three-servers")}}),
            qPrintable(aliasCli.seen()), 20000);
        for (const QString& event : {QStringLiteral("seen-held"), QStringLiteral("acquired")})
            QVERIFY2(!aliasCli.printedJson({{QStringLiteral("event"), event},
                                            {QStringLiteral("key"), QStringLiteral("locks:two-servers")}}),
                     qPrintable(aliasCli.seen()));
        QVERIFY2(!aliasCli.err().contains("nodes reachable"), qPrintable(aliasCli.seen()));
    }
};

QTEST_GUILESS_MAIN(TestClusterWatch)
#include "TestClusterWatch.moc"
