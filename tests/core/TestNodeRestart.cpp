// Delayed node restarts against real redis-server processes: default delay and impact from a live
// LockInspector snapshot, the quorum refusal and its override, a managed (LocalCluster) restart that waits
// out the full delay on the monotonic clock whatever the wall clock does, SHUTDOWN NOSAVE with a node that
// comes back early (flagged, not kept out), a stop command whose node does not go down (the delay waits for
// the confirmed stop), operator commands run without a shell, pending restarts reloaded from their file (the
// later of the wall-clock and monotonic due times; a stop that was still running is re-based), a start that
// fails at its due time (its port taken by another listener) retried with backoff until it succeeds or is
// given up, also across a reload, and read-only mode across every destructive core path.

#include "localcluster/LocalClusterRestartBackend.h"
#include "operate/AuditLog.h"
#include "operate/ForceRelease.h"
#include "operate/NodeRestartScheduler.h"
#include "redlock/RedlockClient.h"
#include "support/DirectRedis.h"
#include "support/ObservationTestSupport.h"
#include "support/ShiftedClock.h"
#include "support/TestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <map>

using namespace redlock;
using State = PendingRestart::State;

namespace {

LockSnapshot inspectOnce(const QList<NodeEndpoint>& nodes)
{
    IoThread io;
    InspectorOptions options;
    options.nodes = nodes;
    options.pattern = QByteArrayLiteral("lock-*"); // the operator names the lock keys (plain values count as locks)
    options.keyspaceEvents = false;
    options.reconcileIntervalMs = 0;
    auto* inspector = io.create<LockInspector>(options);
    QSignalSpy finished(inspector, &LockInspector::inspectionFinished);
    QMetaObject::invokeMethod(inspector, &LockInspector::refresh);
    if (!waitForCount(finished, 1, 15000))
        return {};
    return inspector->snapshot();
}

QByteArray runIdOf(quint16 port)
{
    for (const QByteArray& line : DirectRedis(port).command({"INFO", "server"}).str.split('\n'))
        if (line.startsWith("run_id:"))
            return line.mid(7).trimmed();
    return {};
}

QStringList actions(const QString& auditPath)
{
    QStringList out;
    for (const QJsonObject& line : AuditLog::read(auditPath))
        out << line.value(QStringLiteral("action")).toString();
    return out;
}

} // namespace

class TestNodeRestart : public QObject
{
    Q_OBJECT

private:
    LocalCluster m_cluster;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<ShiftedWallClock> m_clock;
    std::shared_ptr<ShiftedClock> m_steady;

    // Time passes for the scheduler: both clocks move together, as they do unless the wall clock steps.
    void advance(qint64 ms)
    {
        m_clock->advanceMs(ms);
        m_steady->advanceMs(ms);
    }

    QString auditPath() const { return m_dir->filePath(QStringLiteral("audit.jsonl")); }
    QString statePath() const { return m_dir->filePath(QStringLiteral("pending-restarts.json")); }

    RestartSchedulerOptions options(bool readOnly = false) const
    {
        RestartSchedulerOptions o;
        o.nodes = m_cluster.endpoints();
        o.configuredMaxTtlMs = 30000;
        o.stateFile = statePath();
        o.auditLogPath = auditPath();
        o.profileName = QStringLiteral("test-profile");
        o.localClusterBackend = LocalClusterRestartBackend::factory(const_cast<LocalCluster*>(&m_cluster));
        o.clock = m_clock;
        o.steadyClock = m_steady;
        o.tickIntervalMs = 20;
        o.probeTimeoutMs = 300;
        o.readOnly = readOnly;
        return o;
    }

    static ScheduleResult wait(QFuture<ScheduleResult> future)
    {
        QFutureWatcher<ScheduleResult> watcher;
        QSignalSpy finished(&watcher, &QFutureWatcherBase::finished);
        watcher.setFuture(future);
        if (!future.isFinished())
            finished.wait(10000);
        return future.resultCount() > 0 ? future.result() : ScheduleResult{};
    }

    RestartRequest request(int node, qint64 delayMs = -1) const
    {
        RestartRequest r;
        r.node = node;
        r.delayMs = delayMs;
        r.method.kind = RestartMethod::Kind::LocalCluster;
        r.reason = QStringLiteral("kernel update");
        return r;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(3, {}, &error), qPrintable(error));
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_clock = std::make_shared<ShiftedWallClock>();
        m_steady = std::make_shared<ShiftedClock>();
        for (int i = 0; i < m_cluster.size(); ++i) {
            if (!m_cluster.isRunning(i))
                QVERIFY(m_cluster.startNode(i));
            DirectRedis(m_cluster.port(i)).flushAll();
        }
    }

    void planFromLiveSnapshot()
    {
        // Quorum 2 of 3. lock-a would drop to one node without node 0; lock-b keeps two; lock-c is not on 0.
        for (int i : {0, 1})
            DirectRedis(m_cluster.port(i)).set("lock-a", "tok-a", 50000);
        for (int i : {0, 1, 2})
            DirectRedis(m_cluster.port(i)).set("lock-b", "tok-b", 20000);
        for (int i : {1, 2})
            DirectRedis(m_cluster.port(i)).set("lock-c", "tok-c", 90000);
        const LockSnapshot snapshot = inspectOnce(m_cluster.endpoints());
        QCOMPARE(snapshot.size(), 3);

        NodeRestartScheduler scheduler(options());
        const RestartPlan p = scheduler.plan(0, RestartPlanner::locksOf(snapshot), {}, {});
        QCOMPARE(p.quorum, 2);
        QVERIFY(p.largestPttlMs > 45000 && p.largestPttlMs <= 50000);
        // max(configured 30000, largest PTTL) + drift (ttl * 0.01 + 2).
        QCOMPARE(p.defaultDelayMs, p.largestPttlMs + p.largestPttlMs / 100 + 2);
        QCOMPARE(p.affected.size(), 1);
        QCOMPARE(p.affected.first().key, QByteArray("lock-a"));
        QCOMPARE(p.affected.first().holdersNow, 2);
        QCOMPARE(p.affected.first().holdersWhileDown, 1);
        QVERIFY(!p.breaksQuorum);
        QCOMPARE(p.nodesUpDuring, 2);

        // Node 2 holds nothing but lock-c (90 s): the largest PTTL wins over the configured TTL.
        QVERIFY(scheduler.plan(2, RestartPlanner::locksOf(snapshot), {}, {}).defaultDelayMs > 85000);
        // With node 1 already down, restarting node 0 leaves one node: below quorum, and lock-b is hit too.
        const RestartPlan broken = scheduler.plan(0, RestartPlanner::locksOf(snapshot), {1}, {});
        QVERIFY(broken.breaksQuorum);
        QCOMPARE(broken.nodesUpDuring, 1);
        QVERIFY(!broken.quorumExplanation.isEmpty());
        QCOMPARE(broken.affected.size(), 2);
        // No locks: the configured TTL decides.
        QCOMPARE(RestartPlanner::defaultDelayMs(30000, -1, 0.01), 30302);
    }

    // With a node down every lock can fall below quorum: the plan counts them all and lists (unpacks) only the first
    // RestartPlanner::kAffectedListed by key, whatever order the locks come in.
    void planListsTheFirstAffectedLocksByKey()
    {
        const int count = RestartPlanner::kAffectedListed + 25;
        const QByteArray script = "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'lock-n' .. i, 'tok-' .. i, "
                                  "'PX', 60000) end return 0";
        for (int i : {0, 1})
            DirectRedis(m_cluster.port(i)).command({"EVAL", script, "0", QByteArray::number(count)});
        const LockSnapshot snapshot = inspectOnce(m_cluster.endpoints());
        QCOMPARE(snapshot.size(), count);
        QList<QByteArray> keys = snapshot.keys();
        std::sort(keys.begin(), keys.end());

        NodeRestartScheduler scheduler(options());
        const RestartPlan p = scheduler.plan(0, RestartPlanner::locksOf(snapshot), {}, {});
        QCOMPARE(p.affectedCount, count);
        QCOMPARE(p.affected.size(), RestartPlanner::kAffectedListed);
        for (int i = 0; i < RestartPlanner::kAffectedListed; ++i) {
            QCOMPARE(p.affected[i].key, keys[i]);
            QCOMPARE(p.affected[i].token, snapshot.value(keys[i]).token);
            QCOMPARE(p.affected[i].holdersWhileDown, 1);
        }
        // The request carries the count: the audit line says how many locks fell below quorum, not how many listed.
        RestartRequest req = request(0); // the default delay: the survey's largest PTTL sets it
        req.locks = LockSurvey{p.largestPttlMs, p.affected, p.affectedCount};
        const ScheduleResult result = wait(scheduler.schedule(req));
        QVERIFY2(result.accepted, qPrintable(result.error));
        QCOMPARE(result.plan.affectedCount, count);
        QCOMPARE(result.plan.defaultDelayMs, p.defaultDelayMs);
        QVERIFY(scheduler.abandon(0)); // the next test's init() starts node 0 again
    }

    // The Restart dialog's walk in slices over a table that changes between them: each slice goes on after the last key
    // walked. A lock added behind the walk and one removed ahead of it are not counted, one changed ahead of it is
    // counted as it is then, none twice; on locks that do not change, the result is survey()'s.
    void surveyWalkGoesOnAfterTheLastKeyWhileTheLocksChange()
    {
        const QByteArray script = "for i = 1, 10 do redis.call('SET', 'lock-n' .. i, 'tok-' .. i, 'PX', 60000) end "
                                  "return 0";
        for (int i : {0, 1})
            DirectRedis(m_cluster.port(i)).command({"EVAL", script, "0"});
        for (int i : {1, 2})
            DirectRedis(m_cluster.port(i)).set("lock-other", "tok-other", 60000); // not on node 0
        const LockSnapshot snapshot = inspectOnce(m_cluster.endpoints());
        QCOMPARE(snapshot.size(), 11);
        std::map<QByteArray, PackedLockView> table;
        for (const LockView& view : snapshot)
            table.emplace(view.key, PackedLockView(view));
        const PackedLockView notOnZero = table.at("lock-other");
        table.erase("lock-other");
        const auto source = [&table](const QByteArray* after, qsizetype count,
                                     const RestartPlanner::LockVisitor& visit) {
            auto it = after ? table.upper_bound(*after) : table.begin();
            qsizetype visited = 0;
            for (; it != table.end() && visited < count; ++it, ++visited)
                visit(it->first, it->second);
            return visited;
        };
        const auto whole = [&table](const RestartPlanner::LockVisitor& visit) {
            for (const auto& [key, view] : table)
                visit(key, view);
        };
        const auto keysOf = [](const LockSurvey& s) {
            QList<QByteArray> keys;
            for (const AffectedLock& a : s.affected)
                keys << a.key;
            return keys;
        };

        // Unchanged: slice by slice (3, 3, 3, then 1: done) the same survey as one walk.
        const LockSurvey once = RestartPlanner::survey(whole, 0, 3, {}, {});
        QCOMPARE(once.affectedCount, 10);
        SurveyWalk unchanged(source, qsizetype(table.size()), 0, 3, {}, {});
        int steps = 0;
        while (!unchanged.step(3))
            ++steps;
        QCOMPARE(steps, 3);
        QCOMPARE(unchanged.walked(), 10);
        QCOMPARE(unchanged.result().affectedCount, once.affectedCount);
        QCOMPARE(keysOf(unchanged.result()), keysOf(once));
        QCOMPARE(unchanged.result().largestPttlMs, once.largestPttlMs);
        // Slices that end exactly at the last lock: one more, empty, says it is done.
        SurveyWalk exact(source, qsizetype(table.size()), 0, 3, {}, {});
        QVERIFY(!exact.step(5));
        QVERIFY(!exact.step(5));
        QVERIFY(exact.step(5));
        QCOMPARE(exact.walked(), 10);
        QCOMPARE(exact.result().affectedCount, 10);

        // Key order: lock-n1, lock-n10, lock-n2, lock-n3, ... The first slice walks lock-n1, lock-n10, lock-n2.
        SurveyWalk walk(source, qsizetype(table.size()), 0, 3, {}, {});
        QVERIFY(!walk.step(3));
        QCOMPARE(walk.walked(), 3);
        QCOMPARE(walk.result().affectedCount, 3);
        table.emplace("lock-a", table.at("lock-n1")); // behind the walk: not counted
        table.erase("lock-n1");                       // walked already: still counted once
        table.erase("lock-n5");                       // ahead, gone: not counted
        table.at("lock-n7") = notOnZero;              // ahead, changed: counted as it is now, not on node 0
        while (!walk.step(3)) {
        }
        QCOMPARE(walk.walked(), 9); // 3, then lock-n3..lock-n9 without lock-n5
        QCOMPARE(walk.total(), 10); // as given: the progress shown
        const LockSurvey walked = walk.result();
        QCOMPARE(walked.affectedCount, 8);
        QCOMPARE(keysOf(walked), (QList<QByteArray>{"lock-n1", "lock-n10", "lock-n2", "lock-n3", "lock-n4", "lock-n6",
                                                    "lock-n8", "lock-n9"}));
        QVERIFY(walk.isDone());
        QVERIFY(walk.step(3)); // done stays done
        QCOMPARE(walk.walked(), 9);
    }

    // One redis-server under two names (its TCP port and its unix socket: one run_id) is one server. Taking out
    // either name takes out both, so the plan counts servers: with three servers listed under four names (quorum 3),
    // any restart leaves two, and the lock on all of them has three holders, two while the node is out. Counted by
    // names, the plan said three stay and let the scheduler stop the node.
    void aliasesOfOneServerGoOutTogether()
    {
        LocalCluster cluster; // outlives the schedulers below
        QString error;
        const QList<NodeEndpoint> named = startWithSocketAlias(cluster, 3, &error);
        QVERIFY2(!named.isEmpty(), qPrintable(error));
        QList<QByteArray> runIds;
        for (int i = 0; i < cluster.size(); ++i)
            runIds << runIdOf(cluster.port(i));
        QVERIFY(!runIds.contains(QByteArray()));
        runIds << runIds[0]; // what the alias' NodeFacts::runId says
        for (int i = 0; i < cluster.size(); ++i)
            DirectRedis(cluster.port(i)).set("lock-all", "tok-all", 50000);
        const LockSnapshot snapshot = inspectOnce(named);
        QCOMPARE(snapshot.value("lock-all").verdict, LockVerdict::Held);

        RestartSchedulerOptions o = options();
        o.nodes = named;
        o.localClusterBackend = LocalClusterRestartBackend::factory(&cluster);
        NodeRestartScheduler scheduler(o);
        QCOMPARE(scheduler.quorum(), 3);

        const RestartPlan first = scheduler.plan(0, RestartPlanner::locksOf(snapshot), {}, runIds);
        QCOMPARE(first.sameServer, QList<int>{3});
        QCOMPARE(first.nodesUpDuring, 2);
        QVERIFY(first.breaksQuorum);
        QVERIFY2(first.sameServerNote.startsWith(QStringLiteral("node 1 is the same Redis server as node")) &&
                     first.sameServerNote.contains(QStringLiteral("4 (same run_id)")),
                 qPrintable(first.sameServerNote));
        QVERIFY2(first.quorumExplanation.endsWith(first.sameServerNote), qPrintable(first.quorumExplanation));
        QCOMPARE(first.affected.size(), 1);
        QCOMPARE(first.affected.first().holdersNow, 3);
        QCOMPARE(first.affected.first().holdersWhileDown, 2);
        // The socket name is the same server: the same plan, seen from it.
        const RestartPlan viaSocket = scheduler.plan(3, RestartPlanner::locksOf(snapshot), {}, runIds);
        QCOMPARE(viaSocket.sameServer, QList<int>{0});
        QCOMPARE(viaSocket.nodesUpDuring, 2);
        QVERIFY(viaSocket.breaksQuorum);

        // A node without another name: the server listed twice still counts once among those left.
        const RestartPlan second = scheduler.plan(1, RestartPlanner::locksOf(snapshot), {}, runIds);
        QVERIFY(second.sameServer.isEmpty());
        QVERIFY(second.sameServerNote.isEmpty());
        QCOMPARE(second.nodesUpDuring, 2);
        QVERIFY(second.breaksQuorum);
        QCOMPARE(second.affected.size(), 1);
        QCOMPARE(second.affected.first().holdersWhileDown, 2);
        // run_ids not known: every name is a server of its own.
        QVERIFY(!scheduler.plan(1, RestartPlanner::locksOf(snapshot), {}, {}).breaksQuorum);

        RestartRequest req = request(1, 60000);
        req.runIds = runIds;
        const ScheduleResult refused = wait(scheduler.schedule(req));
        QVERIFY(!refused.accepted);
        QVERIFY2(refused.error.contains(QStringLiteral("quorum")), qPrintable(refused.error));
        QVERIFY(cluster.isRunning(1));

        // With the override the server goes out; its other name cannot be restarted while it is kept down.
        req = request(0, 60000);
        req.runIds = runIds;
        req.overrideQuorum = true;
        const ScheduleResult forced = wait(scheduler.schedule(req));
        QVERIFY2(forced.accepted, qPrintable(forced.error));
        QVERIFY(!cluster.isRunning(0));
        req.node = 3;
        const ScheduleResult again = wait(scheduler.schedule(req));
        QVERIFY(!again.accepted);
        QVERIFY2(again.error.contains(QStringLiteral("node 4 is the same Redis server as node 1")),
                 qPrintable(again.error));
        QCOMPARE(forced.restart.sameServer, QList<int>{3});
        // Kept out under both names for the whole delay: a server brought back early (a supervisor after SHUTDOWN
        // NOSAVE, a stop command that did not stop it) would vote through its socket name otherwise.
        QCOMPARE(scheduler.quarantinedNodes(), (QList<int>{0, 3}));
        QVERIFY(scheduler.isQuarantined(3));
        const RestartPlan during = scheduler.plan(1, {}, {}, {}); // run_ids not known: four servers, two out
        QCOMPARE(during.unavailable, (QList<int>{0, 3}));
        QCOMPARE(during.nodesUpDuring, 1);
        // Either name ends it.
        QVERIFY(scheduler.abandon(3));
        QVERIFY(scheduler.quarantinedNodes().isEmpty());
    }

    // A console restart resumes the restart with every name of the server kept out: the state file names the other
    // names by identity, so that a profile listing its nodes in another order finds them.
    void otherNamesStayOutAfterAConsoleRestart()
    {
        LocalCluster cluster;
        QString error;
        const QList<NodeEndpoint> named = startWithSocketAlias(cluster, 3, &error);
        QVERIFY2(!named.isEmpty(), qPrintable(error));
        const NodeEndpoint alias = named.last();
        QList<QByteArray> runIds;
        for (int i = 0; i < cluster.size(); ++i)
            runIds << runIdOf(cluster.port(i));
        runIds << runIds[0];
        RestartSchedulerOptions o = options();
        o.nodes = named;
        o.localClusterBackend = LocalClusterRestartBackend::factory(&cluster);
        {
            NodeRestartScheduler first(o);
            RestartRequest req = request(0, 60000);
            req.runIds = runIds;
            req.overrideQuorum = true;
            const ScheduleResult forced = wait(first.schedule(req));
            QVERIFY2(forced.accepted, qPrintable(forced.error));
            QCOMPARE(first.quarantinedNodes(), (QList<int>{0, 3}));
        }
        QVERIFY(!cluster.isRunning(0));
        // The console comes back with the socket name listed first.
        RestartSchedulerOptions reordered = o;
        reordered.nodes = QList<NodeEndpoint>{alias} + cluster.endpoints();
        NodeRestartScheduler second(reordered);
        QSignalSpy finished(&second, &NodeRestartScheduler::restartFinished);
        QCOMPARE(second.loadPending(&error), 1);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(second.pending().first().node, 1);
        QCOMPARE(second.pending().first().sameServer, QList<int>{0});
        QCOMPARE(second.quarantinedNodes(), (QList<int>{0, 1}));
        // Still out until the delay has passed, under either name; then neither is.
        advance(30000);
        QCOMPARE(second.quarantinedNodes(), (QList<int>{0, 1}));
        advance(31000);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(second.quarantinedNodes().isEmpty());
        QVERIFY(cluster.isRunning(0));
    }

    void restartThatBreaksQuorumIsRefusedUnlessOverridden()
    {
        NodeRestartScheduler scheduler(options());
        const ScheduleResult first = wait(scheduler.schedule(request(0, 60000)));
        QVERIFY2(first.accepted, qPrintable(first.error));
        QVERIFY(!m_cluster.isRunning(0));
        QCOMPARE(scheduler.quarantinedNodes(), QList<int>{0});

        // Node 0 is quarantined, so taking node 1 out too leaves 1 of 3.
        const ScheduleResult refused = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY(!refused.accepted);
        QVERIFY2(refused.error.contains(QStringLiteral("quorum")), qPrintable(refused.error));
        QVERIFY(refused.plan.breaksQuorum);
        QVERIFY(m_cluster.isRunning(1));
        // A node the caller sees down counts the same way.
        NodeRestartScheduler other(options());
        RestartRequest seenDown = request(2, 60000);
        seenDown.nodesDown = {1};
        const ScheduleResult refusedToo = wait(other.schedule(seenDown));
        QVERIFY(!refusedToo.accepted);
        QCOMPARE(refusedToo.plan.unavailable, QList<int>{1});
        QVERIFY(m_cluster.isRunning(2));

        RestartRequest overridden = request(1, 60000);
        overridden.overrideQuorum = true;
        const ScheduleResult forced = wait(scheduler.schedule(overridden));
        QVERIFY2(forced.accepted, qPrintable(forced.error));
        QVERIFY(!m_cluster.isRunning(1));
        QCOMPARE(scheduler.quarantinedNodes(), (QList<int>{0, 1}));

        // A delay under the default is refused too.
        NodeRestartScheduler third(options());
        const ScheduleResult shortDelay = wait(third.schedule(request(2, 1000)));
        QVERIFY(!shortDelay.accepted);
        QVERIFY(m_cluster.isRunning(2));

        QVERIFY(scheduler.abandon(0));
        QVERIFY(scheduler.abandon(1));
        QVERIFY(scheduler.quarantinedNodes().isEmpty());
        QVERIFY(!m_cluster.isRunning(0)); // abandoning does not start it
        const QStringList logged = actions(auditPath());
        QVERIFY(logged.contains(QStringLiteral("node-restart-abandoned")));
        const QList<QJsonObject> lines = AuditLog::read(auditPath());
        bool overrideLogged = false;
        for (const QJsonObject& l : lines)
            overrideLogged = overrideLogged || l.value(QStringLiteral("overrideQuorum")).toBool();
        QVERIFY(overrideLogged);
    }

    void managedRestartWaitsOutTheFullDelay()
    {
        NodeRestartScheduler scheduler(options());
        QSignalSpy countdown(&scheduler, &NodeRestartScheduler::countdown);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        QSignalSpy started(&m_cluster, &LocalCluster::nodeStarted);
        const qint64 pidBefore = m_cluster.pid(1);
        const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QCOMPARE(r.restart.state, State::Quarantined);
        QCOMPARE(r.restart.dueAtMs - r.restart.stoppedAtMs, 60000);
        QVERIFY(!m_cluster.isRunning(1));

        // Ticks go by; the node stays down and the countdown runs.
        QVERIFY(waitForCount(countdown, 5));
        QCOMPARE(countdown.last().at(0).toInt(), 1);
        QVERIFY(countdown.last().at(1).toLongLong() > 59000);
        advance(59000);
        const int seen = static_cast<int>(countdown.size());
        QVERIFY(waitForCount(countdown, seen + 3));
        const qint64 remaining = countdown.last().at(1).toLongLong();
        QVERIFY2(remaining > 0 && remaining <= 1000, qPrintable(QString::number(remaining)));
        QVERIFY(!m_cluster.isRunning(1));
        QVERIFY(finished.isEmpty());
        QVERIFY(started.isEmpty());

        advance(1500);
        QVERIFY(waitForCount(finished, 1));
        const PendingRestart done = finished.first().first().value<PendingRestart>();
        QCOMPARE(done.state, State::Done);
        QVERIFY(m_clock->nowMs() >= done.dueAtMs);
        QVERIFY(m_cluster.isRunning(1));
        QVERIFY(m_cluster.pid(1) != pidBefore);
        QCOMPARE(DirectRedis(m_cluster.port(1)).command({"PING"}).str, QByteArray("PONG"));
        QVERIFY(scheduler.quarantinedNodes().isEmpty());
        QCOMPARE(actions(auditPath()),
                 (QStringList{QStringLiteral("node-restart-scheduled"), QStringLiteral("node-stop"),
                              QStringLiteral("node-start-intent"), QStringLiteral("node-start")}));
    }

    void managedRestartWithShortTtlInRealTime()
    {
        // No clock tricks: a 300 ms TTL, and the process must not start before stop + delay.
        RestartSchedulerOptions o = options();
        o.clock = nullptr;
        o.steadyClock = nullptr;
        o.configuredMaxTtlMs = 300;
        NodeRestartScheduler scheduler(o);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        qint64 startedAtMs = 0;
        connect(&m_cluster, &LocalCluster::nodeStarted, this, [&startedAtMs](int index) {
            if (index == 2)
                startedAtMs = QDateTime::currentMSecsSinceEpoch();
        });
        const ScheduleResult r = wait(scheduler.schedule(request(2)));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QCOMPARE(r.restart.delayMs, 305); // 300 + 300 * 0.01 + 2
        QVERIFY(waitForCount(finished, 1));
        disconnect(&m_cluster, &LocalCluster::nodeStarted, this, nullptr);
        const PendingRestart done = finished.first().first().value<PendingRestart>();
        QCOMPARE(done.state, State::Done);
        QVERIFY(startedAtMs > 0);
        QVERIFY2(startedAtMs - done.stoppedAtMs >= done.delayMs,
                 qPrintable(QStringLiteral("started %1 ms after the stop").arg(startedAtMs - done.stoppedAtMs)));
    }

    void shutdownNoSaveAndANodeThatReturnsEarly()
    {
        NodeRestartScheduler scheduler(options());
        RestartRequest req = request(0, 60000);
        req.method.kind = RestartMethod::Kind::ShutdownNoSave;
        const ScheduleResult unconfirmed = wait(scheduler.schedule(req));
        QVERIFY(!unconfirmed.accepted);
        QVERIFY(m_cluster.isRunning(0));

        req.confirmShutdown = true;
        QSignalSpy early(&scheduler, &NodeRestartScheduler::nodeReturnedEarly);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        const ScheduleResult r = wait(scheduler.schedule(req));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QVERIFY(!r.restart.runIdBefore.isEmpty());
        QTRY_VERIFY(!m_cluster.isRunning(0));
        QVERIFY(early.isEmpty());

        // Someone (a supervisor) brings it back long before the delay has passed.
        QVERIFY(m_cluster.startNode(0));
        QVERIFY(waitForCount(early, 1));
        QCOMPARE(early.first().at(0).toInt(), 0);
        QVERIFY(early.first().at(1).toLongLong() > 50000);
        // Nothing keeps a SHUTDOWN NOSAVE node out, and the message says so instead of promising a quarantine.
        const QString detail = early.first().at(2).toString();
        QVERIFY2(detail.contains(QStringLiteral("before the delay has passed")) &&
                     detail.contains(QStringLiteral("clients count it again")) &&
                     detail.contains(QStringLiteral("cannot keep it out")),
                 qPrintable(detail));
        QVERIFY(!restartMethodEnforcesDelay(RestartMethod::Kind::ShutdownNoSave));
        QVERIFY(restartMethodName(RestartMethod::Kind::ShutdownNoSave).contains(QStringLiteral("only watched")));
        QVERIFY(scheduler.isQuarantined(0)); // the console itself still leaves it out until the delay has passed
        QVERIFY(scheduler.pending().first().returnedEarly);
        QVERIFY(actions(auditPath()).contains(QStringLiteral("node-returned-early")));

        advance(61000);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(!scheduler.isQuarantined(0));
    }

    void wallClockStepsDoNotMoveTheCountdown()
    {
        NodeRestartScheduler scheduler(options());
        QSignalSpy countdown(&scheduler, &NodeRestartScheduler::countdown);
        QSignalSpy changed(&scheduler, &NodeRestartScheduler::restartChanged);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QVERIFY(r.restart.stopConfirmed); // the local cluster waited for the process to exit
        const qint64 dueBefore = r.restart.dueAtMs;

        // An NTP step of the wall clock past the due time: the countdown runs on the monotonic clock.
        m_clock->advanceMs(61000);
        const int seen = static_cast<int>(countdown.size());
        QVERIFY(waitForCount(countdown, seen + 5));
        QVERIFY2(countdown.last().at(1).toLongLong() > 55000, qPrintable(countdown.last().at(1).toString()));
        QVERIFY(!m_cluster.isRunning(1));
        QVERIFY(finished.isEmpty());
        // The wall-clock due time (shown, and used after a console restart) moved with the step.
        QTRY_VERIFY(!scheduler.pending().isEmpty() && scheduler.pending().first().dueAtMs > dueBefore + 55000);
        QVERIFY(!changed.isEmpty());

        // A step back by an hour does not lengthen it either.
        m_clock->advanceMs(-3'661'000);
        m_steady->advanceMs(60500);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(m_cluster.isRunning(1));
    }

    void resumeTakesTheLaterOfWallAndMonotonicDueTimes()
    {
        {
            NodeRestartScheduler first(options());
            QVERIFY(wait(first.schedule(request(2, 60000))).accepted);
        }
        // While the console is away, 5 s pass and the wall clock is stepped 50 s forward.
        m_steady->advanceMs(5000);
        m_clock->advanceMs(55000);
        {
            NodeRestartScheduler second(options());
            QSignalSpy countdown(&second, &NodeRestartScheduler::countdown);
            QCOMPARE(second.loadPending(), 1);
            QVERIFY(waitForCount(countdown, 2));
            // The monotonic clock (same boot) says 55 s are left; the wall clock alone would say 5 s.
            const qint64 left = countdown.last().at(1).toLongLong();
            QVERIFY2(left > 50000 && left <= 55000, qPrintable(QString::number(left)));
        }
        // After a reboot (another boot id) only the wall clock is left to go by.
        QFile file(statePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonArray restarts = doc.value(QStringLiteral("restarts")).toArray();
        QCOMPARE(restarts.size(), 1);
        QJsonObject entry = restarts.first().toObject();
        QJsonObject steady = entry.value(QStringLiteral("steady")).toObject();
        QVERIFY(!steady.value(QStringLiteral("bootId")).toString().isEmpty());
        steady.insert(QStringLiteral("bootId"), QStringLiteral("another-boot"));
        entry.insert(QStringLiteral("steady"), steady);
        restarts[0] = entry;
        doc.insert(QStringLiteral("restarts"), restarts);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(doc).toJson());
        file.close();
        m_clock->advanceMs(10000); // 10 s later by the wall clock
        NodeRestartScheduler third(options());
        QSignalSpy countdown(&third, &NodeRestartScheduler::countdown);
        QSignalSpy finished(&third, &NodeRestartScheduler::restartFinished);
        QCOMPARE(third.loadPending(), 1);
        QVERIFY(waitForCount(countdown, 2));
        const qint64 left = countdown.last().at(1).toLongLong();
        QVERIFY2(left > 40000 && left <= 45000, qPrintable(QString::number(left)));
        advance(46000);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
    }

    void stopCommandThatDoesNotStopTheNodeKeepsTheCountdownFromStarting()
    {
        const QString trueProgram = QStandardPaths::findExecutable(QStringLiteral("true"));
        QVERIFY(!trueProgram.isEmpty());
        NodeRestartScheduler scheduler(options());
        QSignalSpy countdown(&scheduler, &NodeRestartScheduler::countdown);
        QSignalSpy early(&scheduler, &NodeRestartScheduler::nodeReturnedEarly);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        RestartRequest req = request(2, 60000);
        req.method.kind = RestartMethod::Kind::Commands;
        req.method.stopProgram = trueProgram; // exits 0 and stops nothing (like systemctl stop --no-block)
        req.method.startProgram = trueProgram;
        const ScheduleResult r = wait(scheduler.schedule(req));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QVERIFY(!r.restart.stopConfirmed);

        // The old instance still answers: flagged, and the delay has not started.
        QVERIFY(waitForCount(early, 1));
        QVERIFY2(early.first().at(2).toString().contains(QStringLiteral("has not gone down")),
                 qPrintable(early.first().at(2).toString()));
        advance(61000);
        int seen = static_cast<int>(countdown.size());
        QVERIFY(waitForCount(countdown, seen + 5));
        QVERIFY2(countdown.last().at(1).toLongLong() > 55000, qPrintable(countdown.last().at(1).toString()));
        QVERIFY(finished.isEmpty());
        QVERIFY(actions(auditPath()).contains(QStringLiteral("node-still-up")));

        // Now it really goes down: the delay counts from the confirmed stop.
        QVERIFY(m_cluster.stopNode(2));
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.pending().isEmpty() && scheduler.pending().first().stopConfirmed, 10000);
        QVERIFY(actions(auditPath()).contains(QStringLiteral("node-stop-confirmed")));
        advance(30000);
        seen = static_cast<int>(countdown.size());
        QVERIFY(waitForCount(countdown, seen + 3));
        QVERIFY(countdown.last().at(1).toLongLong() > 25000);
        QVERIFY(finished.isEmpty());
        advance(31000);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(m_cluster.startNode(2));
    }

    void resumedStopIsRebasedOnTheConfirmedStop()
    {
        // The console goes away while the stop step still runs: the saved stop time is provisional.
        const QString sleepProgram = QStandardPaths::findExecutable(QStringLiteral("sleep"));
        QVERIFY(!sleepProgram.isEmpty());
        {
            NodeRestartScheduler first(options());
            RestartRequest req = request(2, 60000);
            req.method.kind = RestartMethod::Kind::Commands;
            req.method.stopProgram = sleepProgram;
            req.method.stopArguments = {QStringLiteral("30")};
            req.method.startProgram = sleepProgram;
            req.method.startArguments = {QStringLiteral("0")};
            QSignalSpy changed(&first, &NodeRestartScheduler::restartChanged);
            first.schedule(req);
            QVERIFY(waitForCount(changed, 1));
            QCOMPARE(changed.first().first().value<PendingRestart>().state, State::Stopping);
        }
        // The stop really finishes much later.
        advance(50000);
        QVERIFY(m_cluster.stopNode(2));
        const qint64 resumedAt = m_clock->nowMs();
        NodeRestartScheduler second(options());
        QSignalSpy countdown(&second, &NodeRestartScheduler::countdown);
        QSignalSpy finished(&second, &NodeRestartScheduler::restartFinished);
        QCOMPARE(second.loadPending(), 1);
        QVERIFY(second.pending().first().stoppedAtMs >= resumedAt);
        QTRY_VERIFY_WITH_TIMEOUT(!second.pending().isEmpty() && second.pending().first().stopConfirmed, 10000);
        QVERIFY(waitForCount(countdown, 2));
        // Counted from the confirmed stop (now), not from the provisional time 50 s ago.
        QVERIFY2(countdown.last().at(1).toLongLong() > 55000, qPrintable(countdown.last().at(1).toString()));
        advance(15000);
        const int seen = static_cast<int>(countdown.size());
        QVERIFY(waitForCount(countdown, seen + 3));
        QVERIFY(finished.isEmpty());
        QVERIFY(!m_cluster.isRunning(2));
        advance(46000);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(m_cluster.startNode(2));
    }

    void operatorCommandsRunWithoutAShell()
    {
        const QString cli = QStandardPaths::findExecutable(QStringLiteral("redis-cli"));
        QVERIFY2(!cli.isEmpty(), "redis-cli is not on PATH (package redis-tools, installed by scripts/setup-deps.sh)");
        const QString marker = m_dir->filePath(QStringLiteral("injected"));
        NodeRestartScheduler scheduler(options());
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        RestartRequest req = request(2, 60000);
        req.method.kind = RestartMethod::Kind::Commands;
        req.method.stopProgram = cli;
        req.method.stopArguments = {QStringLiteral("-p"), QString::number(m_cluster.port(2)),
                                    QStringLiteral("shutdown"), QStringLiteral("nosave")};
        // Shell syntax in an argument stays a literal argument.
        req.method.startProgram = cli;
        req.method.startArguments = {QStringLiteral("-p"), QString::number(m_cluster.port(1)), QStringLiteral("echo"),
                                     QStringLiteral("$(touch %1); started").arg(marker)};
        const ScheduleResult r = wait(scheduler.schedule(req));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QTRY_VERIFY(!m_cluster.isRunning(2));
        // A stop command's exit proves nothing; the probe confirms the stop, and the delay counts from there.
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.pending().isEmpty() && scheduler.pending().first().stopConfirmed, 10000);
        QVERIFY(actions(auditPath()).contains(QStringLiteral("node-stop-confirmed")));
        advance(61000);
        QVERIFY(waitForCount(finished, 1));
        const PendingRestart done = finished.first().first().value<PendingRestart>();
        QCOMPARE(done.state, State::Done);
        QVERIFY2(done.output.contains(QStringLiteral("$(touch")), qPrintable(done.output));
        QVERIFY(!QFile::exists(marker));

        // A stop program that cannot run: reported, and the node is not quarantined.
        QVERIFY(m_cluster.startNode(2));
        RestartRequest bad = request(2, 60000);
        bad.method.kind = RestartMethod::Kind::Commands;
        bad.method.stopProgram = m_dir->filePath(QStringLiteral("no-such-program"));
        bad.method.startProgram = cli;
        const ScheduleResult failed = wait(scheduler.schedule(bad));
        QVERIFY(!failed.accepted);
        QVERIFY2(failed.error.contains(QStringLiteral("could not be started")), qPrintable(failed.error));
        QVERIFY(waitForCount(finished, 2));
        QCOMPARE(finished.last().first().value<PendingRestart>().state, State::Failed);
        QVERIFY(!scheduler.isQuarantined(2));

        // A stop program that fails: exit code and output reported.
        bad.method.stopProgram = cli;
        bad.method.stopArguments = {QStringLiteral("-p"), QString::number(closedPort()), QStringLiteral("shutdown")};
        const ScheduleResult exitCode = wait(scheduler.schedule(bad));
        QVERIFY(!exitCode.accepted);
        QVERIFY2(exitCode.error.contains(QStringLiteral("exited with code")), qPrintable(exitCode.error));
        QVERIFY(!exitCode.restart.output.isEmpty());
        QVERIFY(m_cluster.isRunning(2));
    }

    void pendingRestartsReloadFromTheirFile()
    {
        qint64 dueAt = 0;
        {
            NodeRestartScheduler first(options());
            const ScheduleResult r = wait(first.schedule(request(2, 60000)));
            QVERIFY2(r.accepted, qPrintable(r.error));
            dueAt = r.restart.dueAtMs;
        } // the console goes away: the node stays down, the restart stays in the file
        QVERIFY(!m_cluster.isRunning(2));
        QFile file(statePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("restarts")).toArray().size(),
                 1);
        file.close();

        NodeRestartScheduler second(options());
        QSignalSpy countdown(&second, &NodeRestartScheduler::countdown);
        QSignalSpy finished(&second, &NodeRestartScheduler::restartFinished);
        QString error;
        QCOMPARE(second.loadPending(&error), 1);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(second.pending().size(), 1);
        QCOMPARE(second.pending().first().dueAtMs, dueAt);
        QCOMPARE(second.pending().first().state, State::Quarantined);
        QVERIFY(second.isQuarantined(2));
        QVERIFY(waitForCount(countdown, 2));
        QVERIFY(countdown.last().at(1).toLongLong() > 50000);
        QVERIFY(!m_cluster.isRunning(2));

        advance(61000);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(m_cluster.isRunning(2));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("restarts")).toArray().size(),
                 0);
    }

    // A file an earlier version wrote names nodes by "host|port|db" (before one server became one vote): its
    // pending restarts are still this profile's nodes, resumed, not dropped while the node stays down.
    void pendingRestartsOfTheOldIdentityFormatResume()
    {
        {
            NodeRestartScheduler first(options());
            const ScheduleResult r = wait(first.schedule(request(2, 60000)));
            QVERIFY2(r.accepted, qPrintable(r.error));
        }
        QVERIFY(!m_cluster.isRunning(2));
        QFile file(statePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonArray restarts = doc.value(QStringLiteral("restarts")).toArray();
        QCOMPARE(restarts.size(), 1);
        QJsonObject entry = restarts.first().toObject();
        const QString identity = entry.value(QStringLiteral("identity")).toString();
        QCOMPARE(identity, m_cluster.endpoint(2).identity());
        entry.insert(QStringLiteral("identity"), QString(identity + QStringLiteral("|0")));
        restarts[0] = entry;
        doc.insert(QStringLiteral("restarts"), restarts);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(doc).toJson());
        file.close();

        NodeRestartScheduler second(options());
        QSignalSpy finished(&second, &NodeRestartScheduler::restartFinished);
        QString error;
        QCOMPARE(second.loadPending(&error), 1);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(second.isQuarantined(2));
        advance(61000);
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(m_cluster.isRunning(2));
    }

    // The node's port is taken by another listener when the restart is due: redis-server cannot bind, the start
    // fails, and is retried after 1 s, 2 s, ... while the node stays quarantined; once the port is free again
    // the next attempt starts it.
    void failedStartIsRetriedWithBackoff()
    {
        RestartSchedulerOptions o = options();
        o.startRetryInitialMs = 1000;
        o.startRetryMaxMs = 3000;
        o.startAttempts = 5;
        NodeRestartScheduler scheduler(o);
        QSignalSpy failed(&scheduler, &NodeRestartScheduler::startFailed);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QVERIFY(!m_cluster.isRunning(1));
        QTcpServer squatter;
        QVERIFY2(squatter.listen(QHostAddress::LocalHost, m_cluster.port(1)), qPrintable(squatter.errorString()));

        advance(61000);
        QVERIFY(waitForCount(failed, 1, 30000));
        PendingRestart p = failed.last().at(0).value<PendingRestart>();
        QCOMPARE(failed.last().at(1).toLongLong(), 1000);
        QCOMPARE(p.startFailures, 1);
        QCOMPARE(p.state, State::Quarantined);
        QVERIFY2(!p.error.isEmpty(), "the failure says why");
        QVERIFY(scheduler.isQuarantined(1));
        QVERIFY(!m_cluster.isRunning(1));
        QVERIFY(finished.isEmpty());

        // Not before the backoff has passed: ticks go by without a new attempt.
        QSignalSpy countdown(&scheduler, &NodeRestartScheduler::countdown);
        QVERIFY(waitForCount(countdown, 5));
        QCOMPARE(failed.size(), 1);

        advance(1000);
        QVERIFY(waitForCount(failed, 2, 30000));
        QCOMPARE(failed.last().at(1).toLongLong(), 2000);
        advance(2000);
        QVERIFY(waitForCount(failed, 3, 30000));
        QCOMPARE(failed.last().at(1).toLongLong(), 3000); // bounded by startRetryMaxMs
        QVERIFY(scheduler.isQuarantined(1));
        // Persisted with the failures so far.
        QFile file(statePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray saved =
            QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("restarts")).toArray();
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved.first().toObject().value(QStringLiteral("startFailures")).toInt(), 3);

        squatter.close();
        advance(3000);
        QVERIFY(waitForCount(finished, 1, 30000));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QCOMPARE(failed.size(), 3);
        QVERIFY(m_cluster.isRunning(1));
        QCOMPARE(DirectRedis(m_cluster.port(1)).command({"PING"}).str, QByteArray("PONG"));
        QVERIFY(scheduler.quarantinedNodes().isEmpty());
        const QStringList log = actions(auditPath());
        QCOMPARE(log.count(QStringLiteral("node-start")), 4);
    }

    // Every attempt fails: the restart is given up with the last error, reported once as such.
    void failedStartIsGivenUpAfterTheLastAttempt()
    {
        RestartSchedulerOptions o = options();
        o.startRetryInitialMs = 500;
        o.startRetryMaxMs = 500;
        o.startAttempts = 3;
        NodeRestartScheduler scheduler(o);
        QSignalSpy failed(&scheduler, &NodeRestartScheduler::startFailed);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        const ScheduleResult r = wait(scheduler.schedule(request(2, 60000)));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QTcpServer squatter;
        QVERIFY2(squatter.listen(QHostAddress::LocalHost, m_cluster.port(2)), qPrintable(squatter.errorString()));
        advance(61000);
        QVERIFY(waitForCount(failed, 1, 30000));
        advance(500);
        QVERIFY(waitForCount(failed, 2, 30000));
        QVERIFY(finished.isEmpty());
        QVERIFY(scheduler.isQuarantined(2));
        advance(500);
        QVERIFY(waitForCount(finished, 1, 30000));
        QCOMPARE(failed.size(), 3);
        QCOMPARE(failed.last().at(1).toLongLong(), -1); // given up
        const PendingRestart done = finished.first().first().value<PendingRestart>();
        QCOMPARE(done.state, State::Failed);
        QCOMPARE(done.startFailures, 3);
        QVERIFY2(done.error.contains(QLatin1String("3")), qPrintable(done.error));
        QVERIFY(!m_cluster.isRunning(2));
        QVERIFY(actions(auditPath()).contains(QStringLiteral("node-start-given-up")));
        squatter.close();
    }

    // A console that goes away between two attempts: the reloaded restart keeps its failures, tries again at
    // once, and with the port free again the node comes back.
    void failedStartResumesFromTheStateFile()
    {
        RestartSchedulerOptions o = options();
        o.startRetryInitialMs = 60000;
        o.startAttempts = 4;
        QTcpServer squatter;
        {
            NodeRestartScheduler first(o);
            QSignalSpy failed(&first, &NodeRestartScheduler::startFailed);
            const ScheduleResult r = wait(first.schedule(request(1, 60000)));
            QVERIFY2(r.accepted, qPrintable(r.error));
            QVERIFY2(squatter.listen(QHostAddress::LocalHost, m_cluster.port(1)), qPrintable(squatter.errorString()));
            advance(61000);
            QVERIFY(waitForCount(failed, 1, 30000));
        }
        squatter.close();
        QVERIFY(!m_cluster.isRunning(1));
        NodeRestartScheduler second(o);
        QSignalSpy finished(&second, &NodeRestartScheduler::restartFinished);
        QCOMPARE(second.loadPending(), 1);
        QCOMPARE(second.pending().first().startFailures, 1);
        QVERIFY(second.isQuarantined(1));
        QVERIFY(waitForCount(finished, 1, 30000));
        const PendingRestart done = finished.first().first().value<PendingRestart>();
        QCOMPARE(done.state, State::Done);
        QCOMPARE(done.startFailures, 1);
        QVERIFY(m_cluster.isRunning(1));
    }

    // A failed start waits for its retry, the console goes away, and meanwhile someone else starts the node: the
    // reloaded restart, due for its retry at once, finds a new instance answering. It is back, and done: no second
    // start (which would fail on the running node and, as the last attempt, give the restart up).
    void nodeStartedBySomeoneElseBeforeTheRetryIsBack()
    {
        const QString cli = QStandardPaths::findExecutable(QStringLiteral("redis-cli"));
        QVERIFY2(!cli.isEmpty(), "redis-cli is not on PATH (package redis-tools, installed by scripts/setup-deps.sh)");
        const QString falseProgram = QStandardPaths::findExecutable(QStringLiteral("false"));
        QVERIFY(!falseProgram.isEmpty());
        RestartSchedulerOptions o = options();
        o.startRetryInitialMs = 60000;
        o.startAttempts = 2;
        o.probeTimeoutMs = 5000; // the probe decides here: a loaded machine must not turn it into a start
        RestartRequest req = request(2, 60000);
        req.method.kind = RestartMethod::Kind::Commands;
        req.method.stopProgram = cli;
        req.method.stopArguments = {QStringLiteral("-p"), QString::number(m_cluster.port(2)),
                                    QStringLiteral("shutdown"), QStringLiteral("nosave")};
        req.method.startProgram = falseProgram; // a start that fails, as on a port someone else took
        {
            NodeRestartScheduler first(o);
            QSignalSpy failed(&first, &NodeRestartScheduler::startFailed);
            const ScheduleResult r = wait(first.schedule(req));
            QVERIFY2(r.accepted, qPrintable(r.error));
            QTRY_VERIFY_WITH_TIMEOUT(!first.pending().isEmpty() && first.pending().first().stopConfirmed, 10000);
            advance(61000);
            QVERIFY(waitForCount(failed, 1, 30000));
            QCOMPARE(failed.first().at(1).toLongLong(), 60000);
        }
        QVERIFY(m_cluster.startNode(2)); // someone else, while the console is away
        NodeRestartScheduler second(o);
        QSignalSpy failed(&second, &NodeRestartScheduler::startFailed);
        QSignalSpy finished(&second, &NodeRestartScheduler::restartFinished);
        QCOMPARE(second.loadPending(), 1);
        QVERIFY(waitForCount(finished, 1, 30000));
        const PendingRestart done = finished.first().first().value<PendingRestart>();
        QCOMPARE(done.state, State::Done);
        QVERIFY2(done.error.contains(QStringLiteral("is back")), qPrintable(done.error));
        QVERIFY(failed.isEmpty());
        const QStringList log = actions(auditPath());
        QCOMPARE(log.count(QStringLiteral("node-start")), 1);
        QVERIFY(log.contains(QStringLiteral("node-back")));
        QVERIFY(!second.isQuarantined(2));
    }

    // The start step fails while the node it started comes up as a new instance whose run_id cannot be read:
    // still loading its data (a start step that times out while Redis loads: every command but a few refused
    // with -LOADING, the probe's handshake included), or refusing INFO (an ACL without +info). The stop was
    // confirmed, so any answer is a new instance: the node is back and the restart done, never started a second
    // time (which would fail on the taken port and give up on a node that is up).
    void newInstanceWithoutReadableRunIdIsBack_data()
    {
        QTest::addColumn<bool>("loading");
        QTest::addColumn<QString>("settings"); // for the instance the start step starts
        // Loading data saved before the stop, slowed to about 20 s (0.5 ms a key).
        QTest::newRow("loading") << true
                                 << QStringLiteral("--key-load-delay 500 --loading-process-events-interval-bytes 1024");
        QTest::newRow("noperm on INFO") << false
                                        << QStringLiteral("--user default on nopass '~*' '&*' '+@all' '-info'");
    }
    void newInstanceWithoutReadableRunIdIsBack()
    {
        QFETCH(bool, loading);
        QFETCH(QString, settings);
        const QString cli = QStandardPaths::findExecutable(QStringLiteral("redis-cli"));
        QVERIFY2(!cli.isEmpty(), "redis-cli is not on PATH (package redis-tools, installed by scripts/setup-deps.sh)");
        const QString shell = QStandardPaths::findExecutable(QStringLiteral("sh"));
        QVERIFY(!shell.isEmpty());
        // A cluster of its own: its node 2 is replaced by one the start step starts.
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        const QString port = QString::number(cluster.port(2));
        const QString dir = cluster.dataDir(2);
        const QString pidFile = QDir(dir).filePath(QStringLiteral("started-by-the-test.pid"));
        // That instance is daemonized: stopped here whatever happens.
        const auto stopStarted = qScopeGuard([&] {
            QFile file(pidFile);
            if (file.open(QIODevice::ReadOnly)) {
                const pid_t pid = file.readAll().trimmed().toInt();
                if (pid > 0)
                    ::kill(pid, SIGKILL);
            }
        });
        RestartSchedulerOptions o = options();
        o.nodes = cluster.endpoints();
        o.startRetryInitialMs = 60000;
        o.startAttempts = 2; // a second start would be the last attempt: the restart given up
        o.probeTimeoutMs = 5000;
        RestartRequest req = request(2, 60000);
        req.method.kind = RestartMethod::Kind::Commands;
        req.method.stopProgram = cli;
        req.method.stopArguments = {QStringLiteral("-p"), port, QStringLiteral("shutdown"), QStringLiteral("nosave")};
        // The start step starts redis-server and fails (as one that timed out would).
        req.method.startProgram = shell;
        req.method.startArguments = {
            QStringLiteral("-c"),
            QStringLiteral(R"("$0" --port "$1" --bind 127.0.0.1 --dir "$2" --pidfile "$3" --daemonize yes --save "" )"
                           R"(--protected-mode no --logfile "$2/started-by-the-test.log" %1; exit 1)")
                .arg(settings),
            LocalCluster::redisServerPath(),
            port,
            dir,
            pidFile};
        if (loading) {
            DirectRedis direct(cluster.port(2));
            QCOMPARE(direct.command({"DEBUG", "POPULATE", "40000", "bulk", "16"}).str, QByteArray("OK"));
            QCOMPARE(direct.command({"SAVE"}).str, QByteArray("OK"));
        }
        NodeRestartScheduler scheduler(o);
        QSignalSpy failed(&scheduler, &NodeRestartScheduler::startFailed);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        const ScheduleResult r = wait(scheduler.schedule(req));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QTRY_VERIFY_WITH_TIMEOUT(!scheduler.pending().isEmpty() && scheduler.pending().first().stopConfirmed, 10000);
        advance(61000);
        QVERIFY(waitForCount(failed, 1, 30000));
        // The new instance is up, its run_id unreadable.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pidFile), 10000);
        if (loading)
            QTRY_VERIFY_WITH_TIMEOUT(DirectRedis(cluster.port(2)).command({"PING"}).str.startsWith("LOADING"), 10000);
        else
            QTRY_VERIFY_WITH_TIMEOUT(DirectRedis(cluster.port(2)).command({"INFO"}).str.startsWith("NOPERM"), 10000);

        // While the retry waits (its 60 s never pass here), every tick looks for a new instance: once the probe
        // reaches the one the start step started, the restart is done, without a second start.
        QVERIFY(waitForCount(finished, 1, 30000));
        const PendingRestart done = finished.first().first().value<PendingRestart>();
        QVERIFY2(done.state == State::Done, qPrintable(done.error));
        QVERIFY2(done.error.contains(QStringLiteral("is back")), qPrintable(done.error));
        QCOMPARE(failed.size(), 1);
        const QStringList log = actions(auditPath());
        QCOMPARE(log.count(QStringLiteral("node-start")), 1);
        QVERIFY(log.contains(QStringLiteral("node-back")));
        QVERIFY(!scheduler.isQuarantined(2));
        if (loading) // still loading: the probe did not wait for the data
            QVERIFY(DirectRedis(cluster.port(2)).command({"PING"}).str.startsWith("LOADING"));
    }

    // One policy for every destructive step: its intent is on disk (the pending-restart file that keeps the node
    // out across a console restart, then the audit line, both fsynced) before the node is touched, or the step is
    // refused and the operator told why.
    void stopIsRefusedWhenItsIntentCannotBeWritten()
    {
        RestartSchedulerOptions o = options();
        o.auditLogPath = QStringLiteral("/dev/full"); // opens, and every write fails (ENOSPC)
        {
            NodeRestartScheduler scheduler(o);
            const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
            QVERIFY(!r.accepted);
            QVERIFY2(r.error.contains(QStringLiteral("audit log could not be written")) &&
                         r.error.contains(QStringLiteral("not stopped")),
                     qPrintable(r.error));
            QVERIFY(m_cluster.isRunning(1));
            QVERIFY(!scheduler.isQuarantined(1));
        }
        // Nothing is left in the file: a console restarted now does not keep a running node out.
        NodeRestartScheduler reloaded(options());
        QString error;
        QCOMPARE(reloaded.loadPending(&error), 0);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        // The pending-restart file cannot be written (its folder is a file).
        QFile blocker(m_dir->filePath(QStringLiteral("not-a-folder")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        o = options();
        o.stateFile = blocker.fileName() + QStringLiteral("/pending-restarts.json");
        NodeRestartScheduler scheduler(o);
        const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY(!r.accepted);
        QVERIFY2(r.error.contains(QStringLiteral("could not be saved")) &&
                     r.error.contains(QStringLiteral("not stopped")),
                 qPrintable(r.error));
        QVERIFY(m_cluster.isRunning(1));
        QVERIFY(!scheduler.isQuarantined(1));
        QVERIFY(!actions(auditPath()).contains(QStringLiteral("node-restart-scheduled")));
    }

    // The start (the node votes again) and the abandon (the console counts it again) follow the same policy: with
    // the audit log unwritable the start is refused, counted as a failed start and retried, and the abandon is
    // refused; the node stays out. Once the log can be written, the retry starts it.
    void startAndAbandonAreRefusedWhenTheirIntentCannotBeWritten()
    {
        RestartSchedulerOptions o = options();
        o.startRetryInitialMs = 1000;
        o.startAttempts = 3;
        NodeRestartScheduler scheduler(o);
        QSignalSpy failed(&scheduler, &NodeRestartScheduler::startFailed);
        QSignalSpy finished(&scheduler, &NodeRestartScheduler::restartFinished);
        QSignalSpy alerts(&scheduler, &NodeRestartScheduler::operatorAlert);
        const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QVERIFY(!m_cluster.isRunning(1));

        QVERIFY(QFile::remove(auditPath()));
        QVERIFY(QFile::link(QStringLiteral("/dev/full"), auditPath()));
        advance(61000);
        QVERIFY(waitForCount(failed, 1, 30000));
        const PendingRestart refused = failed.first().at(0).value<PendingRestart>();
        QVERIFY2(refused.error.contains(QStringLiteral("not started")) &&
                     refused.error.contains(QStringLiteral("audit log")),
                 qPrintable(refused.error));
        QCOMPARE(failed.first().at(1).toLongLong(), 1000);
        QVERIFY(!m_cluster.isRunning(1));
        QVERIFY(scheduler.isQuarantined(1));
        QVERIFY(finished.isEmpty());

        QString error;
        QVERIFY(!scheduler.abandon(1, &error));
        QVERIFY2(error.contains(QStringLiteral("still tracked")), qPrintable(error));
        QVERIFY(scheduler.isQuarantined(1));
        QCOMPARE(alerts.size(), 1); // the console hears of it too (its abandon action has no reply)
        QCOMPARE(alerts.first().at(0).toInt(), 1);

        QVERIFY(QFile::remove(auditPath()));
        advance(1000);
        QVERIFY(waitForCount(finished, 1, 30000));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, State::Done);
        QVERIFY(m_cluster.isRunning(1));
        QCOMPARE(actions(auditPath()),
                 (QStringList{QStringLiteral("node-start-intent"), QStringLiteral("node-start")}));
    }

    // A save that fails after the node was stopped cannot be undone: the operator is told (once), and when a
    // later save succeeds.
    void aStateFileThatCannotBeSavedIsReported()
    {
        RestartSchedulerOptions o = options();
        const QString folder = m_dir->filePath(QStringLiteral("state"));
        QVERIFY(QDir().mkpath(folder));
        o.stateFile = folder + QStringLiteral("/pending-restarts.json");
        NodeRestartScheduler scheduler(o);
        QSignalSpy alerts(&scheduler, &NodeRestartScheduler::operatorAlert);
        const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY2(r.accepted, qPrintable(r.error));
        QVERIFY(alerts.isEmpty());
        QVERIFY(QDir(folder).removeRecursively());
        QFile blocker(folder);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        m_clock->advanceMs(5000); // a wall-clock step: the moved due time is saved at the next tick
        QVERIFY(waitForCount(alerts, 1));
        QCOMPARE(alerts.first().at(0).toInt(), -1);
        QVERIFY2(alerts.first().at(1).toString().contains(QStringLiteral("could not be saved")),
                 qPrintable(alerts.first().at(1).toString()));
        QVERIFY(scheduler.abandon(1)); // the same failure again: not repeated
        QCOMPARE(alerts.size(), 1);
        QVERIFY(m_cluster.startNode(1));
    }

    // U6: a damaged or unknown-version pending-restart file is a clear error; it is kept aside (never written
    // over), and a node it names stays out: not counted, never started by the console, until the operator
    // abandons its restart; a console restarted again says so again.
    void damagedStateFileKeepsItsNodesOut_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << QStringLiteral("truncated");
        QTest::newRow("unknown version") << QStringLiteral("version");
        QTest::newRow("unreadable entry") << QStringLiteral("entry");
    }
    void damagedStateFileKeepsItsNodesOut()
    {
        QFETCH(QString, damage);
        {
            NodeRestartScheduler first(options());
            const ScheduleResult r = wait(first.schedule(request(2, 60000)));
            QVERIFY2(r.accepted, qPrintable(r.error));
        }
        QVERIFY(!m_cluster.isRunning(2));
        QFile file(statePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray bytes = file.readAll();
        file.close();
        QJsonObject doc = QJsonDocument::fromJson(bytes).object();
        if (damage == u"truncated") {
            bytes = bytes.left(bytes.indexOf("\"method\"")); // a disk that filled up mid-write
        } else if (damage == u"version") {
            doc.insert(QStringLiteral("version"), 3); // written by a newer console
            bytes = QJsonDocument(doc).toJson();
        } else {
            QJsonArray restarts = doc.value(QStringLiteral("restarts")).toArray();
            QJsonObject entry = restarts.first().toObject();
            entry.insert(QStringLiteral("method"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("teleport")}});
            restarts[0] = entry;
            doc.insert(QStringLiteral("restarts"), restarts);
            bytes = QJsonDocument(doc).toJson();
        }
        QVERIFY(bytes.contains(m_cluster.endpoint(2).identity().toUtf8()));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();

        {
            NodeRestartScheduler second(options());
            QString error;
            QCOMPARE(second.loadPending(&error), 1);
            QVERIFY2(error.contains(QStringLiteral("is damaged")) &&
                         error.contains(statePath() + QStringLiteral(".damaged")) &&
                         error.contains(QStringLiteral("#3")),
                     qPrintable(error));
            QFile aside(statePath() + QStringLiteral(".damaged"));
            QVERIFY(aside.open(QIODevice::ReadOnly));
            QCOMPARE(aside.readAll(), bytes);
            QVERIFY(second.isQuarantined(2));
            QVERIFY(second.pending().first().held);

            // However long it waits, the console does not start it: another restart's ticks run meanwhile.
            QSignalSpy countdown(&second, &NodeRestartScheduler::countdown);
            RestartRequest other = request(0, 6000000);
            other.overrideQuorum = true;
            const ScheduleResult r = wait(second.schedule(other));
            QVERIFY2(r.accepted, qPrintable(r.error));
            advance(600000);
            const int seen = static_cast<int>(countdown.size());
            QVERIFY(waitForCount(countdown, seen + 5));
            for (const QList<QVariant>& tick : std::as_const(countdown))
                QCOMPARE(tick.at(0).toInt(), 0);
            QVERIFY(!m_cluster.isRunning(2));
            QVERIFY(second.isQuarantined(2));
        }
        QVERIFY(!actions(auditPath()).contains(QStringLiteral("node-start-intent")));
        QVERIFY(actions(auditPath()).contains(QStringLiteral("node-restart-held")));

        NodeRestartScheduler third(options());
        QString error;
        QCOMPARE(third.loadPending(&error), 2);
        QVERIFY2(error.contains(QStringLiteral("still kept out")), qPrintable(error));
        QVERIFY(third.isQuarantined(2));
        QVERIFY(third.abandon(2));
        QVERIFY(!third.isQuarantined(2));
        QVERIFY(third.abandon(0));
        QVERIFY(!m_cluster.isRunning(2));
    }

    // A pending-restart file that cannot be read at all (here: a folder where the file should be) is left as it is:
    // the error says so, and no restart is scheduled (its save would write over what may be in it).
    void unreadableStateFileIsNeverWrittenOver()
    {
        QVERIFY(QDir().mkpath(statePath()));
        NodeRestartScheduler scheduler(options());
        QString error;
        QCOMPARE(scheduler.loadPending(&error), 0);
        QVERIFY2(error.contains(QStringLiteral("cannot be read")), qPrintable(error));
        const ScheduleResult r = wait(scheduler.schedule(request(1, 60000)));
        QVERIFY(!r.accepted);
        QVERIFY2(r.error.contains(QStringLiteral("not stopped")) && r.error.contains(QStringLiteral("cannot be read")),
                 qPrintable(r.error));
        QVERIFY(m_cluster.isRunning(1));
        QVERIFY(QFileInfo(statePath()).isDir());
    }

    // N8: the console went away after saving a restart ("stopping") and before its stop step took effect. The
    // node still answers as the instance seen before: the restart is dropped with a message, not stopped now
    // (that stop would skip the quorum check the operator saw then), and the node counts again.
    void resumedRestartWhoseStopNeverRanIsDropped()
    {
        const QString sleepProgram = QStandardPaths::findExecutable(QStringLiteral("sleep"));
        QVERIFY(!sleepProgram.isEmpty());
        QByteArray runId;
        for (const QByteArray& line : DirectRedis(m_cluster.port(2)).command({"INFO", "server"}).str.split('\n'))
            if (line.startsWith("run_id:"))
                runId = line.mid(7).trimmed();
        QVERIFY(!runId.isEmpty());
        {
            NodeRestartScheduler first(options());
            RestartRequest req = request(2, 60000);
            req.method.kind = RestartMethod::Kind::Commands;
            req.method.stopProgram = sleepProgram; // still running when the console goes away (and killed with it)
            req.method.stopArguments = {QStringLiteral("30")};
            req.method.startProgram = sleepProgram;
            req.method.startArguments = {QStringLiteral("0")};
            QSignalSpy changed(&first, &NodeRestartScheduler::restartChanged);
            first.schedule(req);
            QVERIFY(waitForCount(changed, 1));
            QCOMPARE(changed.first().first().value<PendingRestart>().state, State::Stopping);
        }
        QVERIFY(m_cluster.isRunning(2));

        NodeRestartScheduler second(options());
        QSignalSpy finished(&second, &NodeRestartScheduler::restartFinished);
        QSignalSpy alerts(&second, &NodeRestartScheduler::operatorAlert);
        QCOMPARE(second.loadPending(), 1);
        QVERIFY(waitForCount(finished, 1));
        const PendingRestart dropped = finished.first().first().value<PendingRestart>();
        QCOMPARE(dropped.state, State::Failed);
        QVERIFY2(dropped.error.contains(QStringLiteral("same instance")) &&
                     dropped.error.contains(QString::fromLatin1(runId)) &&
                     dropped.error.contains(QStringLiteral("dropped")),
                 qPrintable(dropped.error));
        QCOMPARE(alerts.size(), 1);
        QVERIFY(!second.isQuarantined(2));
        QVERIFY(m_cluster.isRunning(2));
        QVERIFY(actions(auditPath()).contains(QStringLiteral("node-restart-dropped")));
        NodeRestartScheduler third(options());
        QCOMPARE(third.loadPending(), 0);
    }

    void readOnlyRefusesEveryDestructiveActionInCore()
    {
        // Node restart.
        NodeRestartScheduler scheduler(options(true));
        RestartRequest req = request(0, 60000);
        req.overrideQuorum = true;
        const ScheduleResult r = wait(scheduler.schedule(req));
        QVERIFY(!r.accepted);
        QVERIFY(r.error.contains(QStringLiteral("read-only")));
        req.method.kind = RestartMethod::Kind::ShutdownNoSave;
        req.confirmShutdown = true;
        QVERIFY(!wait(scheduler.schedule(req)).accepted);
        QVERIFY(m_cluster.isRunning(0));

        // Force release.
        DirectRedis(m_cluster.port(0)).set("ro-lock", "tok", 60000);
        IoThread io;
        ForceReleaseOptions fo;
        fo.nodes = m_cluster.endpoints();
        fo.readOnly = true;
        fo.auditLogPath = auditPath();
        auto fr = ownedOnIoThread(io, io.create<ForceRelease>(fo));
        auto executed = fr->execute("ro-lock", "tok");
        executed.waitForFinished();
        QVERIFY(executed.result().refused);
        QCOMPARE(DirectRedis(m_cluster.port(0)).get("ro-lock"), std::optional<QByteArray>("tok"));

        // The Redlock client: acquire, extend, release.
        RedlockOptions ro;
        ro.nodes = m_cluster.endpoints();
        ro.readOnly = true;
        auto client = ownedOnIoThread(io, io.create<RedlockClient>(ro));
        QVERIFY(!client->acquireAndWait({"ro-new"}).ok);
        Lock lock;
        lock.resources = {"ro-lock"};
        lock.token = "tok";
        lock.acquiredAtNs = client->nowNs();
        lock.validUntilNs = client->nowNs() + 60'000'000'000LL;
        QVERIFY(!client->releaseAndWait(lock).ok);
        QVERIFY(!client->extendAndWait(lock, 60000).ok);
        QCOMPARE(DirectRedis(m_cluster.port(0)).get("ro-lock"), std::optional<QByteArray>("tok"));
        QVERIFY(!DirectRedis(m_cluster.port(1)).exists("ro-new"));
        QVERIFY(!QFile::exists(auditPath()));

        // A restart pending from before read-only mode was switched on is not started when due.
        {
            NodeRestartScheduler writable(options());
            QVERIFY(wait(writable.schedule(request(1, 60000))).accepted);
        }
        NodeRestartScheduler readOnly(options(true));
        QSignalSpy finished(&readOnly, &NodeRestartScheduler::restartFinished);
        QCOMPARE(readOnly.loadPending(), 1);
        advance(61000);
        QVERIFY(waitForCount(finished, 1));
        const PendingRestart failed = finished.first().first().value<PendingRestart>();
        QCOMPARE(failed.state, State::Failed);
        QVERIFY(failed.error.contains(QStringLiteral("read-only")));
        QVERIFY(!m_cluster.isRunning(1));
        QVERIFY(!actions(auditPath()).contains(QStringLiteral("node-start")));
    }

    // A lock whose value never expires on a quorum is held for good: restarting one of its nodes affects it
    // like any held lock (it was left out as "not held" when the stuck verdict came in).
    void stuckLockIsAffectedByARestart()
    {
        for (int i : {0, 1})
            DirectRedis(m_cluster.port(i)).set("lock-stuck", "6b1c1a2e-0d5a-4a44-9d2b-3f8f6c1d2e7a"); // no PX
        const LockSnapshot snapshot = inspectOnce(m_cluster.endpoints());
        QCOMPARE(snapshot.value("lock-stuck").verdict, LockVerdict::Stuck);
        NodeRestartScheduler scheduler(options());
        const RestartPlan p = scheduler.plan(0, RestartPlanner::locksOf(snapshot), {}, {});
        QCOMPARE(p.affected.size(), 1);
        QCOMPARE(p.affected.first().key, QByteArray("lock-stuck"));
        QCOMPARE(p.affected.first().holdersWhileDown, 1);
    }
};

QTEST_GUILESS_MAIN(TestNodeRestart)
#include "TestNodeRestart.moc"
