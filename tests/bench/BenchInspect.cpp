// bench-inspect: time to a full LockInspector pass over many lock keys on 5 local nodes.
// Prints figures; not a test. Usage: bench-inspect [keys=100000] [nodesPerKey=5]

#include "localcluster/LocalCluster.h"
#include "observe/LockInspector.h"
#include "runtime/IoThread.h"
#include "support/ObservationTestSupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>

#include <cstdio>

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

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int keys = args.size() > 1 ? args[1].toInt() : 100000;
    const int nodesPerKey = args.size() > 2 ? args[2].toInt() : 5;
    constexpr int nodes = 5;

    LocalCluster cluster;
    QString error;
    if (!cluster.start(nodes, {}, &error)) {
        std::fprintf(stderr, "cannot start the cluster: %s\n", qPrintable(error));
        return 1;
    }
    QElapsedTimer timer;
    timer.start();
    // Each key on nodesPerKey consecutive nodes (rotating), written with pipelined SET PX as clients would.
    for (int n = 0; n < nodes; ++n) {
        QList<QList<QByteArray>> batch;
        for (int k = 0; k < keys; ++k) {
            if ((n - k % nodes + nodes) % nodes >= nodesPerKey)
                continue;
            batch.append({"SET", "lock:bench:" + QByteArray::number(k),
                          "rl1:" + QByteArray::number(k, 16).rightJustified(32, '0') + ":1:bench:", "PX", "600000"});
            if (batch.size() == 10000) {
                runCommands(cluster.endpoint(n), batch, 30000);
                batch.clear();
            }
        }
        if (!batch.isEmpty())
            runCommands(cluster.endpoint(n), batch, 30000);
        // Count server-side calls slower than 20 ms during the inspection.
        runCommands(cluster.endpoint(n), {{"CONFIG", "SET", "slowlog-log-slower-than", "20000"}, {"SLOWLOG", "RESET"}});
    }
    std::printf("wrote %d keys x %d nodes in %lld ms; RSS before inspection %s\n", keys, nodesPerKey,
                static_cast<long long>(timer.elapsed()), qPrintable(rss()));

    IoThread io;
    InspectorOptions options;
    options.nodes = cluster.endpoints();
    options.pattern = "lock:*";
    options.keyspaceEvents = false;
    options.reconcileIntervalMs = 0;
    auto* inspector = io.create<LockInspector>(options);
    QSignalSpy finished(inspector, &LockInspector::inspectionFinished);
    for (int round = 1; round <= 2; ++round) {
        finished.clear();
        timer.restart();
        QMetaObject::invokeMethod(inspector, &LockInspector::refresh);
        if (!waitForCount(finished, 1, 60000)) {
            std::fprintf(stderr, "inspection did not finish\n");
            return 1;
        }
        const qint64 wallMs = timer.elapsed();
        const auto summary = finished.first().first().value<InspectionSummary>();
        std::printf("pass %d (%s): %lld ms to full inspection (%lld ms in the inspector), %d locks, %lld names "
                    "scanned, %lld commands, longest round trip %.1f ms, %.0f keys/s, RSS %s\n",
                    round, round == 1 ? "all new" : "unchanged", static_cast<long long>(wallMs),
                    static_cast<long long>(summary.elapsedUs / 1000), summary.locks,
                    static_cast<long long>(summary.keysScanned), static_cast<long long>(summary.commandsSent),
                    double(summary.longestCallUs) / 1000.0,
                    double(summary.locks) * 1000.0 / double(qMax<qint64>(1, wallMs)), qPrintable(rss()));
    }
    qint64 slow = 0;
    for (int n = 0; n < nodes; ++n)
        slow += runCommand(cluster.endpoint(n), {"SLOWLOG", "LEN"}).integer();
    std::printf("server-side calls over 20 ms (SLOWLOG, all nodes): %lld\n", static_cast<long long>(slow));
    return 0;
}
