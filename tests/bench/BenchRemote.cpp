// bench-remote: the nodes at a distance (issue 12, item 4). Prints figures; not a test.
//   bench-remote [keys=100000] [addedRttMs=2]
// Five local nodes, each behind a FaultProxy (tests/FaultProxy.h) that delays every chunk by half the added
// round trip in each direction (whole milliseconds, so an odd addedRttMs is rounded up).
//  1. A full LockInspector pass over `keys` locks: directly, through the proxies without delay, and through
//     the proxies with the delay. The target: delayed <= 1.5x undelayed (pipelining depth, not round trips
//     per key).
//  2. Acquire with the nodes at different distances (one-way 1..5 x addedRttMs/2): each node's PING round
//     trip through its proxy (p50), and the acquire p50 of a RedlockClient (acquire+release in a closed
//     loop). A quorum of 3 answers decides an acquire, so the target is acquire p50 <= 1.1x the
//     third-fastest node's round trip.

#include "localcluster/LocalCluster.h"
#include "observe/LockInspector.h"
#include "redlock/RedlockClient.h"
#include "runtime/IoThread.h"
#include "support/FaultProxy.h"
#include "support/ObservationTestSupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QSignalSpy>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

using namespace redlock;

namespace {

template <typename T> T await(const QFuture<T>& future)
{
    if (!future.isFinished()) {
        QEventLoop loop;
        QFutureWatcher<T> watcher;
        QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(future);
        if (!future.isFinished())
            loop.exec();
    }
    return future.result();
}

double medianUs(std::vector<qint64> ns)
{
    if (ns.empty())
        return 0;
    std::sort(ns.begin(), ns.end());
    return double(ns[(ns.size() - 1) / 2]) / 1000.0;
}

// Wall time of one full pass over `nodes`, in ms; -1 when it did not finish.
qint64 passMs(const QList<NodeEndpoint>& nodes)
{
    IoThread io;
    InspectorOptions options;
    options.nodes = nodes;
    options.pattern = "lock:*";
    options.keyspaceEvents = false;
    options.reconcileIntervalMs = 0;
    options.commandTimeoutMs = 30000;
    auto* inspector = io.create<LockInspector>(options);
    // Counted only: the views are not kept (as `redlock inspect` runs it).
    io.runAndWait([inspector] { inspector->setViewSink([](LockView&&) {}); });
    QSignalSpy finished(inspector, &LockInspector::inspectionFinished);
    QElapsedTimer timer;
    timer.start();
    QMetaObject::invokeMethod(inspector, &LockInspector::refresh);
    if (!waitForCount(finished, 1, 300000))
        return -1;
    const auto summary = finished.first().first().value<InspectionSummary>();
    if (!summary.errors.isEmpty())
        std::fprintf(stderr, "pass errors: %s\n", qPrintable(summary.errors.join(u"; ")));
    return timer.elapsed();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int keys = args.size() > 1 ? args[1].toInt() : 100000;
    const int addedRttMs = args.size() > 2 ? args[2].toInt() : 2;
    const int oneWayMs = (addedRttMs + 1) / 2;
    constexpr int nodes = 5;

    LocalCluster cluster;
    QString error;
    if (!cluster.start(nodes, {}, &error)) {
        std::fprintf(stderr, "cannot start the cluster: %s\n", qPrintable(error));
        return 1;
    }
    for (int n = 0; n < nodes; ++n) {
        QList<QList<QByteArray>> batch;
        for (int k = 0; k < keys; ++k) {
            batch.append({"SET", "lock:bench:" + QByteArray::number(k),
                          "rl1:" + QByteArray::number(k, 16).rightJustified(32, '0') + ":1:bench:", "PX", "600000"});
            if (batch.size() == 10000) {
                runCommands(cluster.endpoint(n), batch, 30000);
                batch.clear();
            }
        }
        if (!batch.isEmpty())
            runCommands(cluster.endpoint(n), batch, 30000);
    }
    std::vector<std::unique_ptr<FaultProxy>> proxies;
    QList<NodeEndpoint> proxied;
    for (int n = 0; n < nodes; ++n) {
        proxies.push_back(std::make_unique<FaultProxy>(cluster.port(n)));
        NodeEndpoint e = cluster.endpoint(n);
        e.port = proxies.back()->port();
        proxied.append(e);
    }
    auto setOneWay = [&](const std::vector<int>& ms) {
        for (int n = 0; n < nodes; ++n)
            proxies[size_t(n)]->setLatencyMs(ms[size_t(n)]);
    };

    // 1. Passes.
    std::printf("%d locks on %d nodes; one-way delay %d ms per node (round trip +%d ms)\n", keys, nodes, oneWayMs,
                2 * oneWayMs);
    setOneWay(std::vector<int>(nodes, 0));
    const qint64 direct = passMs(cluster.endpoints());
    const qint64 viaProxy = passMs(proxied);
    setOneWay(std::vector<int>(nodes, oneWayMs));
    const qint64 delayed = passMs(proxied);
    std::printf("full pass: direct %lld ms, through the proxies %lld ms, with +%d ms round trip %lld ms: "
                "%.2fx the undelayed proxied pass (target <= 1.5)\n",
                static_cast<long long>(direct), static_cast<long long>(viaProxy), 2 * oneWayMs,
                static_cast<long long>(delayed), double(delayed) / double(std::max<qint64>(1, viaProxy)));

    // 2. Acquire with the nodes at different distances.
    std::vector<int> oneWay;
    for (int n = 0; n < nodes; ++n)
        oneWay.push_back(oneWayMs * (n + 1));
    setOneWay(oneWay);
    std::vector<double> rttUs;
    for (int n = 0; n < nodes; ++n) {
        RedisConnection c(proxied[n]);
        std::vector<qint64> samples;
        for (int i = 0; i < 40; ++i) {
            QElapsedTimer t;
            t.start();
            bool done = false;
            QEventLoop loop;
            c.send({"PING"}, [&](const RedisReply&) {
                done = true;
                loop.quit();
            });
            if (!done)
                loop.exec();
            if (i >= 5)
                samples.push_back(t.nsecsElapsed());
        }
        rttUs.push_back(medianUs(samples));
    }
    std::vector<double> sortedRtt = rttUs;
    std::sort(sortedRtt.begin(), sortedRtt.end());
    RedlockOptions options;
    options.nodes = proxied;
    options.nodeTimeoutMs = 1000;
    options.retryCount = 0;
    RedlockClient client(options);
    client.connectAll();
    AcquireOptions acquireOptions;
    acquireOptions.ttlMs = 30000;
    acquireOptions.retryCount = 0;
    std::vector<qint64> acquireNs;
    int failures = 0;
    for (int i = 0; i < 220; ++i) {
        QElapsedTimer t;
        t.start();
        const AcquireResult acquired = await(client.acquire(QByteArrayLiteral("bench-remote:lock"), acquireOptions));
        const qint64 ns = t.nsecsElapsed();
        if (!acquired.ok) {
            ++failures;
            continue;
        }
        if (i >= 20)
            acquireNs.push_back(ns);
        await(client.release(acquired.lock));
    }
    const double acquireP50 = medianUs(acquireNs);
    std::printf("node round trips (PING p50 through the proxies, us):");
    for (const double us : rttUs)
        std::printf(" %.0f", us);
    std::printf("\nacquire p50 %.0f us over %zu acquires (%d failed), third-fastest node %.0f us: %.2fx (target "
                "<= 1.1)\n",
                acquireP50, acquireNs.size(), failures, sortedRtt[2], acquireP50 / std::max(1.0, sortedRtt[2]));
    return 0;
}
