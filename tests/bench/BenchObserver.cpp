// bench-observer: what watching the locks costs the nodes (issue 12, item 1). Prints figures; not a test.
//
// 5 local nodes with keyspace events on, N lock keys on each, and a churn on its own thread changing 1% of
// the locks per second (half releases, half acquires of the keys released a second earlier, on every node).
// Three phases of S seconds each, in the same run: the churn alone (the baseline), the churn watched the new
// way (keyspace events + a rescan within the budget), and the churn watched the old way (a full pass at full
// speed every 5 s + events). A watcher is what the console runs against the nodes: a LockInspector and a
// NodeSession per node. Per node and phase: CPU (INFO used_cpu_sys + used_cpu_user deltas, % of a core, net
// of the baseline), commands/s from INFO commandstats minus the churn's and the bench's own, the console's
// own count of what it sent, and how long a churn write takes to show as a lock event (p50/p99).
//
// Usage: bench-observer [--locks N=100000] [--seconds S=60] [--churn PERCENT=1] [--budget B=500]
//                       [--phases baseline,new,old]

#include "localcluster/LocalCluster.h"
#include "observe/LockInspector.h"
#include "observe/NodeSession.h"
#include "runtime/IoThread.h"
#include "support/ObservationTestSupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMutex>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

using namespace redlock;

namespace {

constexpr int kNodes = 5;

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QByteArray keyName(int k)
{
    return "lock:obs:" + QByteArray::number(k);
}

// One INFO per node and sample: CPU seconds and calls per command.
struct NodeCounters
{
    double cpuSeconds = 0;
    qint64 calls = 0;
};

NodeCounters countersOf(const NodeEndpoint& endpoint)
{
    NodeCounters c;
    const RedisReply reply = runCommand(endpoint, {"INFO", "cpu", "commandstats"});
    for (const QByteArray& raw : reply.bytes().split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:"))
            c.cpuSeconds += line.mid(line.indexOf(':') + 1).toDouble();
        else if (line.startsWith("cmdstat_")) {
            const qsizetype at = line.indexOf("calls=");
            c.calls += line.mid(at + 6, line.indexOf(',', at) - at - 6).toLongLong();
        }
    }
    return c;
}

// Writes from a churn, when each was sent, until the watcher shows it.
struct Pending
{
    QMutex mutex;
    QHash<QByteArray, qint64> sentNs; // key -> send instant of its latest change
    std::vector<double> latenciesMs;
    qint64 shown = 0;
    bool measuring = false;
};

// Changes `perSecond` locks per second on every node: each tick releases keys (DEL) and acquires again
// (SET NX PX, a new token) the keys it released a second earlier.
class Churn final : public QObject
{
public:
    Churn(const QList<NodeEndpoint>& nodes, int keys, int perSecond, Pending* pending)
        : m_keys(keys), m_perSecond(perSecond), m_pending(pending)
    {
        for (const NodeEndpoint& ep : nodes) {
            auto* c = new RedisConnection(ep, {}, this);
            c->open();
            m_connections.append(c);
        }
        m_timer.setInterval(10);
        connect(&m_timer, &QTimer::timeout, this, &Churn::tick);
        m_clock.start();
    }
    void start() { m_timer.start(); }
    quint64 commandsWritten(int node) const { return m_connections[node]->commandsWritten(); }
    qint64 errors() const { return m_errors; }

private:
    void tick()
    {
        // Ops due by now at perSecond, half releases and half acquires.
        const qint64 due = m_clock.elapsed() * m_perSecond / 1000;
        while (m_done < due) {
            const bool release = m_done % 2 == 0;
            const qint64 index = m_done / 2;
            // The key released a second's worth of releases ago is acquired again.
            const qint64 lag = std::max<qint64>(1, m_perSecond / 2);
            if (release) {
                send(keyName(int(index % m_keys)), {"DEL"});
            } else if (index >= lag) {
                const QByteArray key = keyName(int((index - lag) % m_keys));
                send(key, {"SET", "rl1:" + QByteArray::number(m_done, 16).rightJustified(32, '0') + ":1:churn:", "NX",
                           "PX", "3600000"});
            }
            ++m_done;
        }
    }
    void send(const QByteArray& key, QList<QByteArray> parts)
    {
        QList<QByteArray> args{parts.takeFirst(), key};
        args.append(parts);
        {
            QMutexLocker lock(&m_pending->mutex);
            if (m_pending->measuring)
                m_pending->sentNs.insert(key, steadyNs());
        }
        for (RedisConnection* c : std::as_const(m_connections))
            c->send(args, [this](const RedisReply& r) {
                if (r.isError())
                    ++m_errors;
            });
    }

    QList<RedisConnection*> m_connections;
    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_keys;
    int m_perSecond;
    qint64 m_done = 0;
    qint64 m_errors = 0;
    Pending* m_pending;
};

struct PhaseResult
{
    QString name;
    std::vector<double> cpuPercent;     // per node, raw
    std::vector<double> commandsPerSec; // per node, net of the churn and the bench
    std::vector<double> consolePerSec;  // per node, as the console counted it
    std::vector<double> latenciesMs;
    qint64 changesSent = 0;
    qint64 notShown = 0;
    int passes = 0;
};

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * double(v.size())))];
}

double mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return v.empty() ? 0 : s / double(v.size());
}

double maxOf(const std::vector<double>& v)
{
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("locks"), QStringLiteral("Lock keys on every node."), QStringLiteral("N"),
                      QStringLiteral("100000")});
    parser.addOption({QStringLiteral("seconds"), QStringLiteral("Length of each phase."), QStringLiteral("S"),
                      QStringLiteral("60")});
    parser.addOption({QStringLiteral("churn"), QStringLiteral("Locks changed per second, percent of all."),
                      QStringLiteral("PERCENT"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("budget"), QStringLiteral("Rescan budget of the new watcher, commands/s/node."),
                      QStringLiteral("B"), QString::number(kDefaultBudgetPerNode)});
    parser.addOption({QStringLiteral("phases"), QStringLiteral("Phases to run, in order."), QStringLiteral("LIST"),
                      QStringLiteral("baseline,new,old")});
    parser.addHelpOption();
    parser.process(app);
    const int keys = parser.value(QStringLiteral("locks")).toInt();
    const int seconds = parser.value(QStringLiteral("seconds")).toInt();
    const double churnPercent = parser.value(QStringLiteral("churn")).toDouble();
    const int budget = parser.value(QStringLiteral("budget")).toInt();
    const QStringList phases = parser.value(QStringLiteral("phases")).split(u',');
    const int perSecond = std::max(2, static_cast<int>(keys * churnPercent / 100.0));

    LocalCluster cluster;
    QString error;
    LocalNodeOptions nodeOptions;
    nodeOptions.notifyKeyspaceEvents = QString::fromLatin1(LockInspector::keyspaceEventFlags());
    if (!cluster.start(kNodes, nodeOptions, &error)) {
        std::fprintf(stderr, "cannot start the cluster: %s\n", qPrintable(error));
        return 1;
    }
    QElapsedTimer timer;
    timer.start();
    for (int n = 0; n < kNodes; ++n) {
        QList<QList<QByteArray>> batch;
        for (int k = 0; k < keys; ++k) {
            batch.append({"SET", keyName(k),
                          "rl1:" + QByteArray::number(k, 16).rightJustified(32, '0') + ":1:bench:", "PX", "3600000"});
            if (batch.size() == 10000) {
                runCommands(cluster.endpoint(n), batch, 30000);
                batch.clear();
            }
        }
        if (!batch.isEmpty())
            runCommands(cluster.endpoint(n), batch, 30000);
    }
    std::printf("bench-observer: %d nodes x %d locks written in %lld ms; churn %d changes/s (%.2f%%/s), %d s per "
                "phase, new watcher's budget %d commands/s per node\n",
                kNodes, keys, static_cast<long long>(timer.elapsed()), perSecond, churnPercent, seconds, budget);
    std::fflush(stdout);

    Pending pending;
    IoThread churnThread;
    auto* churn = churnThread.create<Churn>(cluster.endpoints(), keys, perSecond, &pending);
    QMetaObject::invokeMethod(churn, [churn] { churn->start(); });

    std::vector<PhaseResult> results;
    for (const QString& phase : phases) {
        PhaseResult result;
        result.name = phase;
        IoThread watcherThread;
        LockInspector* inspector = nullptr;
        QList<NodeSession*> sessions;
        QTimer* oldTimer = nullptr;
        const bool watching = phase != QLatin1String("baseline");
        // The console's own count, weighted by the time each report covers (reports may come late).
        std::vector<double> consoleSum(kNodes, 0);
        double consoleSeconds = 0;
        qint64 lastReportNs = 0;
        if (watching) {
            InspectorOptions o;
            o.nodes = cluster.endpoints();
            o.pattern = "lock:*";
            if (phase == QLatin1String("old")) {
                // Before issue 12: a full pass at full speed every 5 s (a periodic refresh()).
                o.budgetPerNode = 0;
                o.reconcileIntervalMs = 0;
            } else {
                o.budgetPerNode = budget;
            }
            inspector = watcherThread.create<LockInspector>(o);
            for (int n = 0; n < kNodes; ++n)
                sessions.append(watcherThread.create<NodeSession>(n, cluster.endpoint(n)));
            QObject::connect(
                inspector, &LockInspector::lockEvents, inspector,
                [&pending](const QList<LockEvent>& events) {
                    const qint64 now = steadyNs();
                    QMutexLocker lock(&pending.mutex);
                    for (const LockEvent& e : events) {
                        const auto it = pending.sentNs.find(e.key);
                        if (it == pending.sentNs.end())
                            continue;
                        if (pending.measuring)
                            pending.latenciesMs.push_back(double(now - it.value()) / 1e6);
                        ++pending.shown;
                        pending.sentNs.erase(it);
                    }
                },
                Qt::DirectConnection);
            QObject::connect(
                inspector, &LockInspector::observerLoad, inspector,
                [&](const QList<ObserverLoad>& load) {
                    const qint64 now = steadyNs();
                    QMutexLocker lock(&pending.mutex);
                    const qint64 last = std::exchange(lastReportNs, now);
                    if (!pending.measuring || last == 0)
                        return;
                    const double covered = double(now - last) / 1e9;
                    for (const ObserverLoad& l : load)
                        consoleSum[size_t(l.node)] += l.commandsPerSecond * covered;
                    consoleSeconds += covered;
                },
                Qt::DirectConnection);
            QSignalSpy finished(inspector, &LockInspector::inspectionFinished);
            watcherThread.runAndWait([&] {
                for (NodeSession* s : std::as_const(sessions))
                    s->start();
                inspector->start();
                if (phase == QLatin1String("old")) {
                    oldTimer = new QTimer(inspector);
                    QObject::connect(oldTimer, &QTimer::timeout, inspector, &LockInspector::refresh);
                    oldTimer->start(5000);
                }
            });
            // The first full pass (the baseline of the view, at full speed) is not part of the steady state.
            if (!waitForCount(finished, 1, 120000)) {
                std::fprintf(stderr, "the first inspection did not finish\n");
                return 1;
            }
            QTest::qWait(2000);
        } else {
            QTest::qWait(2000);
        }
        std::vector<NodeCounters> before, after;
        std::vector<quint64> churnBefore;
        for (int n = 0; n < kNodes; ++n) {
            before.push_back(countersOf(cluster.endpoint(n)));
            churnThread.runAndWait([&] { churnBefore.push_back(churn->commandsWritten(n)); });
        }
        std::unique_ptr<QSignalSpy> passes;
        if (inspector)
            passes = std::make_unique<QSignalSpy>(inspector, &LockInspector::inspectionFinished);
        {
            QMutexLocker lock(&pending.mutex);
            pending.measuring = true;
            pending.latenciesMs.clear();
            pending.sentNs.clear();
            pending.shown = 0;
        }
        QElapsedTimer window;
        window.start();
        QTest::qWait(seconds * 1000);
        const double elapsed = window.nsecsElapsed() / 1e9;
        for (int n = 0; n < kNodes; ++n) {
            after.push_back(countersOf(cluster.endpoint(n)));
            quint64 churnNow = 0;
            churnThread.runAndWait([&] { churnNow = churn->commandsWritten(n); });
            result.cpuPercent.push_back((after[size_t(n)].cpuSeconds - before[size_t(n)].cpuSeconds) * 100.0 / elapsed);
            // The churn's commands and the bench's own INFO (one per node per sample) are not the watcher's.
            const double calls = double(after[size_t(n)].calls - before[size_t(n)].calls) -
                                 double(churnNow - churnBefore[size_t(n)]) - 1;
            result.commandsPerSec.push_back(calls / elapsed);
        }
        {
            QMutexLocker lock(&pending.mutex);
            pending.measuring = false;
            result.latenciesMs = pending.latenciesMs;
            result.changesSent = pending.shown + pending.sentNs.size();
            // Writes of the last second may still be on their way: only older ones count as not shown.
            const qint64 now = steadyNs();
            for (const qint64 sent : std::as_const(pending.sentNs))
                if (now - sent > 2'000'000'000LL)
                    ++result.notShown;
            for (int n = 0; n < kNodes; ++n)
                result.consolePerSec.push_back(consoleSeconds > 0 ? consoleSum[size_t(n)] / consoleSeconds : 0);
        }
        result.passes = passes ? int(passes->size()) : 0;
        if (watching) {
            watcherThread.runAndWait([&] {
                if (oldTimer)
                    oldTimer->stop();
                inspector->stop();
                for (NodeSession* s : std::as_const(sessions))
                    s->stop();
            });
        }
        results.push_back(result);
        std::printf("phase %-8s done: %.1f s\n", qPrintable(phase), elapsed);
        std::fflush(stdout);
    }

    const PhaseResult* baseline = nullptr;
    for (const PhaseResult& r : results)
        if (r.name == QLatin1String("baseline"))
            baseline = &r;
    std::printf("\nper node: CPU %% of a core (net of the churn-only baseline) | commands/s on the node (net of the "
                "churn) | the console's own count (inspector)\n");
    for (const PhaseResult& r : results) {
        std::printf("%-8s", qPrintable(r.name));
        for (int n = 0; n < kNodes; ++n) {
            const double net = r.cpuPercent[size_t(n)] - (baseline ? baseline->cpuPercent[size_t(n)] : 0);
            std::printf("  #%d %.2f%% (%+.2f) %5.0f/s %5.0f/s", n + 1, r.cpuPercent[size_t(n)], net,
                        r.commandsPerSec[size_t(n)], r.consolePerSec[size_t(n)]);
        }
        std::printf("\n");
    }
    std::printf("\n%-8s %-26s %-16s %-24s %s\n", "watcher", "CPU per node, net (mean/max)", "commands/s/node",
                "change shown p50 / p99", "passes; changes not shown in 2 s");
    for (const PhaseResult& r : results) {
        if (r.name == QLatin1String("baseline")) {
            std::printf("%-8s CPU %.2f%% of a core per node with the churn alone (%d changes/s)\n", "baseline",
                        mean(r.cpuPercent), perSecond);
            continue;
        }
        std::vector<double> net;
        for (int n = 0; n < kNodes; ++n)
            net.push_back(r.cpuPercent[size_t(n)] - (baseline ? baseline->cpuPercent[size_t(n)] : 0));
        std::printf("%-8s %6.2f%% / %6.2f%%          %8.0f         %7.0f ms / %7.0f ms     %d; %lld of %lld\n",
                    qPrintable(r.name), mean(net), maxOf(net), mean(r.commandsPerSec), percentile(r.latenciesMs, 0.5),
                    percentile(r.latenciesMs, 0.99), r.passes, static_cast<long long>(r.notShown),
                    static_cast<long long>(r.changesSent));
    }
    std::printf("target   <= 1.00%% of a core per node at %d locks, changes shown within 1000 ms\n", keys);
    qint64 churnErrors = 0;
    churnThread.runAndWait([&] { churnErrors = churn->errors(); });
    if (churnErrors > 0)
        std::printf("(churn: %lld writes failed)\n", static_cast<long long>(churnErrors));
    return 0;
}
