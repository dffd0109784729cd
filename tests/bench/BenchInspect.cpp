// bench-inspect: time to a full LockInspector pass over many lock keys on 5 local nodes.
// Prints figures; not a test.
//   bench-inspect [keys=100000] [nodesPerKey=5] [--baseline raw] [--passes N]
//   bench-inspect --nodes LIST [--pattern GLOB] [--baseline raw] [--passes N]   (nodes that hold the keys already)
// --baseline raw: each pass is followed by a pass of the raw hiredis floor (RawScanFloor.h) on the same nodes,
// and the medians of both and their ratio are printed.

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

#include <algorithm>
#include <cstdio>
#include <ctime>
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
    auto* inspector = io.create<LockInspector>(options);
    QSignalSpy finished(inspector, &LockInspector::inspectionFinished);
    std::vector<qint64> oursMs;
    std::vector<qint64> rawMs;
    // The client's own CPU per pass: unlike wall time, not stretched by other processes on a shared machine.
    std::vector<qint64> oursCpuMs;
    std::vector<qint64> rawCpuMs;
    auto inspectorCpuMs = [inspector] {
        qint64 ms = 0;
        QMetaObject::invokeMethod(
            inspector, [&ms] { ms = threadCpuMs(); }, Qt::BlockingQueuedConnection);
        return ms;
    };
    for (int round = 1; round <= passes; ++round) {
        finished.clear();
        const qint64 cpuBeforeMs = inspectorCpuMs();
        timer.restart();
        QMetaObject::invokeMethod(inspector, &LockInspector::refresh);
        if (!waitForCount(finished, 1, 120000)) {
            std::fprintf(stderr, "inspection did not finish\n");
            return 1;
        }
        const qint64 wallMs = timer.elapsed();
        oursMs.push_back(wallMs);
        oursCpuMs.push_back(inspectorCpuMs() - cpuBeforeMs);
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
        if (!raw)
            continue;
        RawScanFigures floor;
        QString error;
        const qint64 rawCpuBeforeMs = threadCpuMs();
        if (!rawScanPass(endpoints, options.pattern, options.scanCount, options.readBatchKeys, 2, &floor, &error)) {
            std::fprintf(stderr, "raw floor failed: %s\n", qPrintable(error));
            return 1;
        }
        rawMs.push_back(floor.elapsedUs / 1000);
        rawCpuMs.push_back(threadCpuMs() - rawCpuBeforeMs);
        std::printf("raw hiredis floor %d: %lld ms, %lld keys read on every node, %lld (key, node) holding, %lld names "
                    "scanned, %lld commands, CPU %lld ms\n",
                    round, static_cast<long long>(floor.elapsedUs / 1000), static_cast<long long>(floor.keysRead),
                    static_cast<long long>(floor.holding), static_cast<long long>(floor.namesScanned),
                    static_cast<long long>(floor.commands), static_cast<long long>(rawCpuMs.back()));
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
    } else {
        std::printf("inspector thread CPU per pass: median %lld ms (%s)\n", static_cast<long long>(median(oursCpuMs)),
                    qPrintable(joined(oursCpuMs)));
    }
    qint64 slow = 0;
    for (const NodeEndpoint& e : std::as_const(endpoints))
        slow += runCommand(e, {"SLOWLOG", "LEN"}).integer();
    std::printf("server-side calls over 20 ms (SLOWLOG, all nodes): %lld\n", static_cast<long long>(slow));
    return 0;
}
