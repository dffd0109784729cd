// bench-inspect: time to a full LockInspector pass over many lock keys on 5 local nodes.
// Prints figures; not a test.
//   bench-inspect [keys=100000] [nodesPerKey=5] [--baseline raw] [--passes N]
//   bench-inspect --nodes LIST [--pattern GLOB] [--baseline raw] [--passes N]   (nodes that hold the keys already)
// --baseline raw: each pass is followed by a pass of the raw hiredis floor (RawScanFloor.h) on the same nodes,
// and the medians of both and their ratio are printed.
// --page-scripts: the inspector reads with one read-only script per page (InspectorOptions::pageScripts); --per-key
// (the default): per key, pipelined.
// Per pass, of ours and of the floor: the nodes' CPU (INFO CPU used_cpu_sys + used_cpu_user, summed over the nodes),
// and for ours how long the nodes are held: the page script's usec_per_call (INFO commandstats), the longest command
// (LATENCY LATEST, threshold 1 ms) and the slowest PING of a probe client pinging every node beside the pass.

#include "bench/RawScanFloor.h"
#include "localcluster/LocalCluster.h"
#include "observe/LockInspector.h"
#include "runtime/IoThread.h"
#include "support/ObservationTestSupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <thread>
#include <vector>

using namespace redlock;

namespace {

QString rss()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return QStringLiteral("?");
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return QString::fromLatin1(line.mid(6).simplified());
    }
    return QStringLiteral("?");
}

// CPU time of the calling thread, in ms.
qint64 threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

qint64 median(std::vector<qint64> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[(values.size() - 1) / 2];
}

QString joined(const std::vector<qint64>& values)
{
    QStringList list;
    for (const qint64 v : values)
        list << QString::number(v);
    return list.join(u' ');
}

// The nodes' own CPU so far, in ms: used_cpu_sys + used_cpu_user of INFO CPU, summed over the nodes.
double nodesCpuMs(const QList<NodeEndpoint>& endpoints)
{
    double seconds = 0;
    for (const NodeEndpoint& e : endpoints) {
        for (const QByteArray& line : runCommand(e, {"INFO", "CPU"}).bytes().split('\n')) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:"))
                seconds += line.mid(line.indexOf(':') + 1).trimmed().toDouble();
        }
    }
    return seconds * 1000.0;
}

// Before a pass: command statistics and latency events start from zero.
void resetNodeStats(const QList<NodeEndpoint>& endpoints)
{
    for (const NodeEndpoint& e : endpoints)
        runCommands(e, {{"CONFIG", "RESETSTAT"}, {"LATENCY", "RESET"}});
}

struct ScriptStats
{
    qint64 calls = 0;
    double usecPerCall = 0;      // over every node's calls
    qint64 longestCommandMs = 0; // LATENCY LATEST "command" max (0: none reached the 1 ms threshold)
};

ScriptStats scriptStats(const QList<NodeEndpoint>& endpoints)
{
    ScriptStats stats;
    double usec = 0;
    for (const NodeEndpoint& e : endpoints) {
        for (const QByteArray& line : runCommand(e, {"INFO", "commandstats"}).bytes().split('\n')) {
            if (!line.startsWith("cmdstat_evalsha_ro:") && !line.startsWith("cmdstat_eval_ro:"))
                continue;
            // cmdstat_evalsha_ro:calls=200,usec=9000,usec_per_call=45.00,...
            for (const QByteArray& field : line.mid(line.indexOf(':') + 1).split(',')) {
                if (field.startsWith("calls="))
                    stats.calls += field.mid(6).toLongLong();
                else if (field.startsWith("usec="))
                    usec += field.mid(5).toDouble();
            }
        }
        const RedisReply latest = runCommand(e, {"LATENCY", "LATEST"});
        for (const RedisReply& event : latest.elements()) {
            // [name, unix time, latest ms, max ms]
            if (event.elements().size() >= 4 && event.elements()[0].bytes() == "command")
                stats.longestCommandMs = std::max(stats.longestCommandMs, event.elements()[3].integer());
        }
    }
    stats.usecPerCall = stats.calls > 0 ? usec / double(stats.calls) : 0;
    return stats;
}

// A client beside the pass: PINGs every node in turn until stopped; the slowest reply is what a client of the
// nodes waited at worst (the round trip included, on a loaded machine its scheduling too).
class PingProbe
{
public:
    explicit PingProbe(const QList<NodeEndpoint>& endpoints)
    {
        for (const NodeEndpoint& e : endpoints)
            m_ports.push_back(e.port);
        m_thread = std::thread([this] { run(); });
    }
    ~PingProbe() { stop(); }
    qint64 stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        return m_maxUs;
    }
    qint64 pings() const { return m_pings; }

private:
    void run()
    {
        std::vector<redisContext*> contexts;
        for (const int port : m_ports)
            contexts.push_back(redisConnect("127.0.0.1", port));
        while (!m_stop) {
            for (redisContext* c : contexts) {
                if (!c || c->err)
                    continue;
                QElapsedTimer timer;
                timer.start();
                auto* reply = static_cast<redisReply*>(redisCommand(c, "PING"));
                m_maxUs = std::max<qint64>(m_maxUs, timer.nsecsElapsed() / 1000);
                ++m_pings;
                if (reply)
                    freeReplyObject(reply);
            }
        }
        for (redisContext* c : contexts) {
            if (c)
                redisFree(c);
        }
    }
    std::vector<int> m_ports;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    qint64 m_maxUs = 0;
    qint64 m_pings = 0;
};

QString readPaths(const QList<ReadPath>& paths)
{
    QStringList names;
    for (const ReadPath p : paths)
        names << (p == ReadPath::PageScript ? QStringLiteral("page script")
                  : p == ReadPath::PerKey   ? QStringLiteral("per key")
                                            : QStringLiteral("?"));
    return names.join(u',');
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("keys"), QStringLiteral("lock keys to write (default 100000)"));
    parser.addPositionalArgument(QStringLiteral("nodesPerKey"), QStringLiteral("nodes each key is on (default 5)"));
    parser.addOption({QStringLiteral("nodes"), QStringLiteral("Inspect these nodes instead of writing keys."),
                      QStringLiteral("LIST")});
    parser.addOption({QStringLiteral("pattern"), QStringLiteral("SCAN MATCH pattern (default lock:*)."),
                      QStringLiteral("GLOB"), QStringLiteral("lock:*")});
    parser.addOption({QStringLiteral("baseline"), QStringLiteral("\"raw\": also time the raw hiredis floor."),
                      QStringLiteral("KIND")});
    parser.addOption({QStringLiteral("per-key"), QStringLiteral("Read per key (no page script; the default).")});
    parser.addOption({QStringLiteral("page-scripts"), QStringLiteral("Read with one read-only script per page.")});
    parser.addOption({QStringLiteral("passes"), QStringLiteral("Passes of each (default 2)."), QStringLiteral("N"),
                      QStringLiteral("2")});
    parser.addHelpOption();
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    const int keys = args.size() > 0 ? args[0].toInt() : 100000;
    const int nodesPerKey = args.size() > 1 ? args[1].toInt() : 5;
    const bool raw = parser.value(QStringLiteral("baseline")) == u"raw";
    if (parser.isSet(QStringLiteral("baseline")) && !raw) {
        std::fprintf(stderr, "unknown --baseline (known: raw)\n");
        return 2;
    }
    const int passes = std::max(1, parser.value(QStringLiteral("passes")).toInt());
    constexpr int nodes = 5;

    LocalCluster cluster;
    QList<NodeEndpoint> endpoints;
    QElapsedTimer timer;
    if (parser.isSet(QStringLiteral("nodes"))) {
        for (const QString& name : parser.value(QStringLiteral("nodes")).split(u',')) {
            QString error;
            const auto endpoint = NodeEndpoint::parse(name, &error);
            if (!endpoint) {
                std::fprintf(stderr, "bad node %s: %s\n", qPrintable(name), qPrintable(error));
                return 2;
            }
            endpoints.append(*endpoint);
        }
    } else {
        QString error;
        if (!cluster.start(nodes, {}, &error)) {
            std::fprintf(stderr, "cannot start the cluster: %s\n", qPrintable(error));
            return 1;
        }
        endpoints = cluster.endpoints();
        timer.start();
        // Each key on nodesPerKey consecutive nodes (rotating), written with pipelined SET PX as clients would.
        for (int n = 0; n < nodes; ++n) {
            QList<QList<QByteArray>> batch;
            for (int k = 0; k < keys; ++k) {
                if ((n - k % nodes + nodes) % nodes >= nodesPerKey)
                    continue;
                batch.append({"SET", "lock:bench:" + QByteArray::number(k),
                              "rl1:" + QByteArray::number(k, 16).rightJustified(32, '0') + ":1:bench:", "PX",
                              "600000"});
                if (batch.size() == 10000) {
                    runCommands(cluster.endpoint(n), batch, 30000);
                    batch.clear();
                }
            }
            if (!batch.isEmpty())
                runCommands(cluster.endpoint(n), batch, 30000);
        }
        std::printf("wrote %d keys x %d nodes in %lld ms\n", keys, nodesPerKey,
                    static_cast<long long>(timer.elapsed()));
    }
    // Count server-side calls slower than 20 ms during the inspection.
    for (const NodeEndpoint& e : std::as_const(endpoints))
        runCommands(e, {{"CONFIG", "SET", "slowlog-log-slower-than", "20000"}, {"SLOWLOG", "RESET"}});
    std::printf("RSS before inspection %s\n", qPrintable(rss()));

    IoThread io;
    InspectorOptions options;
    options.nodes = endpoints;
    options.pattern = parser.value(QStringLiteral("pattern")).toUtf8();
    options.keyspaceEvents = false;
    options.reconcileIntervalMs = 0;
    options.pageScripts = parser.isSet(QStringLiteral("page-scripts")) && !parser.isSet(QStringLiteral("per-key"));
    for (const NodeEndpoint& e : std::as_const(endpoints))
        runCommands(e, {{"CONFIG", "SET", "latency-monitor-threshold", "1"}});
    auto* inspector = io.create<LockInspector>(options);
    QSignalSpy finished(inspector, &LockInspector::inspectionFinished);
    std::vector<qint64> oursMs;
    std::vector<qint64> rawMs;
    // The client's own CPU per pass: unlike wall time, not stretched by other processes on a shared machine.
    std::vector<qint64> oursCpuMs;
    std::vector<qint64> rawCpuMs;
    // The nodes' CPU per pass (all nodes), ours and the floor's.
    std::vector<qint64> oursNodeCpuMs;
    std::vector<qint64> rawNodeCpuMs;
    auto inspectorCpuMs = [inspector] {
        qint64 ms = 0;
        QMetaObject::invokeMethod(
            inspector, [&ms] { ms = threadCpuMs(); }, Qt::BlockingQueuedConnection);
        return ms;
    };
    for (int round = 1; round <= passes; ++round) {
        finished.clear();
        resetNodeStats(endpoints);
        const double nodeCpuBeforeMs = nodesCpuMs(endpoints);
        const qint64 cpuBeforeMs = inspectorCpuMs();
        auto probe = std::make_unique<PingProbe>(endpoints);
        timer.restart();
        QMetaObject::invokeMethod(inspector, &LockInspector::refresh);
        if (!waitForCount(finished, 1, 120000)) {
            std::fprintf(stderr, "inspection did not finish\n");
            return 1;
        }
        const qint64 wallMs = timer.elapsed();
        const qint64 probeMaxUs = probe->stop();
        const qint64 probePings = probe->pings();
        probe.reset();
        oursMs.push_back(wallMs);
        oursCpuMs.push_back(inspectorCpuMs() - cpuBeforeMs);
        // The probe's PINGs cost the nodes a little CPU too (counted: a few thousand PINGs, well under 1%).
        oursNodeCpuMs.push_back(qint64(nodesCpuMs(endpoints) - nodeCpuBeforeMs));
        const ScriptStats script = scriptStats(endpoints);
        const auto summary = finished.first().first().value<InspectionSummary>();
        std::printf("pass %d (%s): %lld ms to full inspection (%lld ms in the inspector), %d locks, %lld names "
                    "scanned, %lld commands, longest round trip %.1f ms, %.0f keys/s, inspector thread CPU %lld ms, "
                    "RSS %s\n",
                    round, round == 1 ? "all new" : "unchanged", static_cast<long long>(wallMs),
                    static_cast<long long>(summary.elapsedUs / 1000), summary.locks,
                    static_cast<long long>(summary.keysScanned), static_cast<long long>(summary.commandsSent),
                    double(summary.longestCallUs) / 1000.0,
                    double(summary.locks) * 1000.0 / double(qMax<qint64>(1, wallMs)),
                    static_cast<long long>(oursCpuMs.back()), qPrintable(rss()));
        std::printf("  nodes: CPU %lld ms (all nodes), read path %s; page script: %lld calls, %.0f us per call, "
                    "longest command %s; probe PING (%lld pings beside the pass): slowest %.2f ms\n",
                    static_cast<long long>(oursNodeCpuMs.back()), qPrintable(readPaths(summary.readPaths)),
                    static_cast<long long>(script.calls), script.usecPerCall,
                    script.longestCommandMs > 0 ? qPrintable(QStringLiteral("%1 ms").arg(script.longestCommandMs))
                                                : "under 1 ms",
                    static_cast<long long>(probePings), double(probeMaxUs) / 1000.0);
        if (!raw)
            continue;
        RawScanFigures floor;
        QString error;
        const double rawNodeCpuBeforeMs = nodesCpuMs(endpoints);
        const qint64 rawCpuBeforeMs = threadCpuMs();
        if (!rawScanPass(endpoints, options.pattern, options.scanCount, options.readBatchKeys, 2, &floor, &error)) {
            std::fprintf(stderr, "raw floor failed: %s\n", qPrintable(error));
            return 1;
        }
        rawMs.push_back(floor.elapsedUs / 1000);
        rawCpuMs.push_back(threadCpuMs() - rawCpuBeforeMs);
        rawNodeCpuMs.push_back(qint64(nodesCpuMs(endpoints) - rawNodeCpuBeforeMs));
        std::printf("raw hiredis floor %d: %lld ms, %lld keys read on every node, %lld (key, node) holding, %lld names "
                    "scanned, %lld commands, CPU %lld ms, nodes' CPU %lld ms\n",
                    round, static_cast<long long>(floor.elapsedUs / 1000), static_cast<long long>(floor.keysRead),
                    static_cast<long long>(floor.holding), static_cast<long long>(floor.namesScanned),
                    static_cast<long long>(floor.commands), static_cast<long long>(rawCpuMs.back()),
                    static_cast<long long>(rawNodeCpuMs.back()));
    }
    if (raw) {
        const qint64 ours = median(oursMs);
        const qint64 floor = median(rawMs);
        std::printf("median of %d: inspector pass %lld ms, raw hiredis floor %lld ms, inspector/floor %.2f (target "
                    "<= 1.5); passes %s / floor %s\n",
                    passes, static_cast<long long>(ours), static_cast<long long>(floor),
                    double(ours) / double(std::max<qint64>(1, floor)), qPrintable(joined(oursMs)),
                    qPrintable(joined(rawMs)));
        std::printf("client CPU per pass (median): inspector %lld ms, raw hiredis floor %lld ms, ratio %.2f\n",
                    static_cast<long long>(median(oursCpuMs)), static_cast<long long>(median(rawCpuMs)),
                    double(median(oursCpuMs)) / double(std::max<qint64>(1, median(rawCpuMs))));
        std::printf("node CPU per pass (median, all nodes): inspector %lld ms, raw hiredis floor %lld ms, ratio %.2f\n",
                    static_cast<long long>(median(oursNodeCpuMs)), static_cast<long long>(median(rawNodeCpuMs)),
                    double(median(oursNodeCpuMs)) / double(std::max<qint64>(1, median(rawNodeCpuMs))));
    } else {
        std::printf("inspector thread CPU per pass: median %lld ms (%s)\n", static_cast<long long>(median(oursCpuMs)),
                    qPrintable(joined(oursCpuMs)));
        std::printf("node CPU per pass (all nodes): median %lld ms (%s)\n",
                    static_cast<long long>(median(oursNodeCpuMs)), qPrintable(joined(oursNodeCpuMs)));
    }
    qint64 slow = 0;
    for (const NodeEndpoint& e : std::as_const(endpoints))
        slow += runCommand(e, {"SLOWLOG", "LEN"}).integer();
    std::printf("server-side calls over 20 ms (SLOWLOG, all nodes): %lld\n", static_cast<long long>(slow));
    return 0;
}
