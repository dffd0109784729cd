#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/commands/RawHiredisBaseline.h"

#include "localcluster/LocalCluster.h"
#include "redlock/RedlockClient.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <vector>

namespace redlock::cli {

// The translation context of this file's messages.
class BenchCommand
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::BenchCommand)
};

namespace {

qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// After this many acquire failures in a row the nodes are taken to be gone and the benchmark stops.
constexpr int kMaxConsecutiveFailures = 100;

// Closed loops on one client: `concurrency` lockers, each on its own key, acquire, release, and acquire again
// as soon as its release completed, until warmup + iterations pairs were started. The client lives on this
// thread and the continuations run synchronously where the client completes its futures, so no thread hop or
// queued event sits between an answer and the next request. Returns only when no round is in flight.
bool runRedlockCore(RedlockClient& client, const QByteArray& key, int concurrency, qint64 ttlMs, int warmup,
                    int iterations, LatencySamples* samples, QString* error)
{
    AcquireOptions options;
    options.ttlMs = ttlMs;
    options.retryCount = 0;
    std::vector<QList<QByteArray>> resources;
    for (int i = 0; i < concurrency; ++i)
        resources.push_back({concurrency == 1 ? key : key + ':' + QByteArray::number(i)});

    QEventLoop loop;
    const int total = warmup + iterations;
    int started = 0;
    int inFlight = 0;
    int consecutiveFailures = 0;
    bool stopped = false;
    qint64 measureStart = steadyNowNs();
    std::function<void(int)> next;
    // A round that fails without I/O (a node known to be down) completes inside the call: the next one then
    // starts from the event loop, so the stack does not grow with the iterations.
    auto nextFromEventLoop = [&](int locker) {
        QMetaObject::invokeMethod(
            &loop, [&, locker] { next(locker); }, Qt::QueuedConnection);
    };
    auto pairDone = [&] {
        if (--inFlight > 0)
            return;
        if (stopped) {
            loop.exit(1);
        } else if (started == total) {
            samples->totalNs += steadyNowNs() - measureStart;
            loop.quit();
        }
    };
    next = [&](int locker) {
        if (stopped || started == total)
            return;
        const int index = started++;
        ++inFlight;
        if (index == warmup)
            measureStart = steadyNowNs();
        const qint64 start = steadyNowNs();
        client.acquire(resources[size_t(locker)], options)
            .then(QtFuture::Launch::Sync, [&, start, index, locker](const AcquireResult& acquire) {
                const qint64 acquired = steadyNowNs();
                if (!acquire.ok) {
                    if (++consecutiveFailures >= kMaxConsecutiveFailures && !stopped) {
                        *error = BenchCommand::tr("%1 acquire failures in a row, the last: %2")
                                     .arg(consecutiveFailures)
                                     .arg(acquire.error);
                        stopped = true;
                    }
                    if (index >= warmup)
                        ++samples->failures;
                    nextFromEventLoop(locker);
                    pairDone();
                    return;
                }
                consecutiveFailures = 0;
                client.release(acquire.lock)
                    .then(QtFuture::Launch::Sync, [&, start, acquired, index, locker](const ReleaseResult& release) {
                        if (index >= warmup) {
                            samples->acquireNs.push_back(acquired - start);
                            samples->releaseNs.push_back(steadyNowNs() - acquired);
                        }
                        if (release.ok)
                            next(locker);
                        else
                            nextFromEventLoop(locker);
                        pairDone();
                    });
            });
    };
    for (int i = 0; i < concurrency; ++i)
        next(i);
    return loop.exec() == 0;
}

qint64 percentileNs(std::vector<qint64> values, double fraction)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<size_t>(std::ceil(fraction * static_cast<double>(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

struct Figures
{
    double acquireP50Us = 0;
    double acquireP99Us = 0;
    double releaseP50Us = 0;
    double releaseP99Us = 0;
    double pairsPerSecond = 0;
    int failures = 0;

    static Figures from(const LatencySamples& s, int iterations)
    {
        Figures f;
        f.acquireP50Us = static_cast<double>(percentileNs(s.acquireNs, 0.50)) / 1000.0;
        f.acquireP99Us = static_cast<double>(percentileNs(s.acquireNs, 0.99)) / 1000.0;
        f.releaseP50Us = static_cast<double>(percentileNs(s.releaseNs, 0.50)) / 1000.0;
        f.releaseP99Us = static_cast<double>(percentileNs(s.releaseNs, 0.99)) / 1000.0;
        f.pairsPerSecond = s.totalNs > 0 ? iterations * 1e9 / static_cast<double>(s.totalNs) : 0.0;
        f.failures = s.failures;
        return f;
    }

    QJsonObject toJson() const
    {
        return {{QStringLiteral("acquireP50Us"), acquireP50Us},
                {QStringLiteral("acquireP99Us"), acquireP99Us},
                {QStringLiteral("releaseP50Us"), releaseP50Us},
                {QStringLiteral("releaseP99Us"), releaseP99Us},
                {QStringLiteral("pairsPerSecond"), std::round(pairsPerSecond)},
                {QStringLiteral("failures"), failures}};
    }

    QStringList row(const QString& name) const
    {
        const auto us = [](double v) { return QString::number(v, 'f', 1); };
        return {name,
                us(acquireP50Us),
                us(acquireP99Us),
                us(releaseP50Us),
                us(releaseP99Us),
                QString::number(std::round(pairsPerSecond), 'f', 0),
                QString::number(failures)};
    }
};

// kB from a line of /proc/self/status such as "VmRSS:     12345 kB"; -1 if unavailable.
qint64 procStatusKb(const QByteArray& field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith(QByteArray(field + ':')))
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

} // namespace

int runBench(const QStringList& args)
{
    QCommandLineParser parser;
    addNodeOptions(parser, false); // --key is the lock key here
    parser.addOption(
        {QStringLiteral("local"),
         BenchCommand::tr("Instead of --nodes, start a local cluster of N redis-server nodes for the run."),
         BenchCommand::tr("N")});
    parser.addOption({QStringLiteral("unix-socket"),
                      BenchCommand::tr("With --local: connect to the nodes over unix domain sockets instead of TCP.")});
    parser.addOption({QStringLiteral("iterations"), BenchCommand::tr("Measured acquire+release pairs (default 20000)."),
                      BenchCommand::tr("N"), QStringLiteral("20000")});
    parser.addOption({QStringLiteral("warmup"), BenchCommand::tr("Unmeasured pairs first (default 1000)."),
                      BenchCommand::tr("N"), QStringLiteral("1000")});
    parser.addOption({QStringLiteral("ttl"), BenchCommand::tr("Lock TTL in ms (default 10000)."),
                      BenchCommand::tr("MS"), QStringLiteral("10000")});
    parser.addOption({QStringLiteral("node-timeout"), BenchCommand::tr("Per-node timeout in ms (default 50)."),
                      BenchCommand::tr("MS"), QStringLiteral("50")});
    parser.addOption({QStringLiteral("blocks"),
                      BenchCommand::tr("With --baseline: run the two clients in N alternating blocks (default 10)."),
                      BenchCommand::tr("N"), QStringLiteral("10")});
    parser.addOption(
        {QStringLiteral("concurrency"),
         BenchCommand::tr("K lockers in this process, each on its own key (KEY:0 ... KEY:K-1), each in its own "
                          "closed loop on one shared client (default 1)."),
         BenchCommand::tr("K"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("key"), BenchCommand::tr("Lock key to use (default redlock-bench:<pid>)."),
                      BenchCommand::tr("KEY")});
    parser.addOption(
        {QStringLiteral("baseline"),
         BenchCommand::tr("Also measure a baseline client; \"raw\": a minimal hiredis client that sends SET NX PX "
                          "to all nodes at once and waits for a majority, then releases with the same "
                          "compare-and-delete script as the core (EVALSHA) on all. One locker only."),
         BenchCommand::tr("KIND")});
    parser.addOption({QStringLiteral("json"), BenchCommand::tr("Print the figures as one JSON object.")});
    parser.addOption(
        {QStringLiteral("read-only"),
         BenchCommand::tr("Read-only mode: the benchmark writes lock keys, so it is refused (exit code 2).")});
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, BenchCommand::tr("bench [options] (--nodes LIST | --local N)"),
            BenchCommand::tr("Measure the Redlock client: a client in a closed loop acquires a lock (one "
                             "resource, no retry) and releases it, --iterations times after a warm-up (with "
                             "--concurrency K, K such loops on distinct keys share the client and the pairs). Prints "
                             "acquire and release latency p50/p99 in microseconds, acquire+release pairs per "
                             "second and the process's resident memory. Latencies are measured around the API "
                             "calls, as a user of the library sees them."),
            &exitCode))
        return exitCode;

    if (parser.isSet(QStringLiteral("read-only"))) {
        return fail(ExitUsage, BenchCommand::tr("read-only mode: bench writes lock keys; nothing was sent"));
    }
    qint64 localCount = 0;
    qint64 iterations = 20000;
    qint64 warmup = 1000;
    qint64 ttlMs = 10000;
    qint64 nodeTimeoutMs = 50;
    qint64 blocks = 10;
    qint64 concurrency = 1;
    if (!intOption(parser, QStringLiteral("concurrency"), 1, 10000, &concurrency) ||
        !intOption(parser, QStringLiteral("local"), 1, 99, &localCount) ||
        !intOption(parser, QStringLiteral("iterations"), 1, 100'000'000, &iterations) ||
        !intOption(parser, QStringLiteral("warmup"), 0, 100'000'000, &warmup) ||
        !intOption(parser, QStringLiteral("ttl"), 1, 3'600'000, &ttlMs) ||
        !intOption(parser, QStringLiteral("node-timeout"), 1, 600'000, &nodeTimeoutMs) ||
        !intOption(parser, QStringLiteral("blocks"), 1, 1000, &blocks))
        return ExitUsage;
    const QString baseline = parser.value(QStringLiteral("baseline"));
    if (!baseline.isEmpty() && baseline != u"raw") {
        return fail(ExitUsage, BenchCommand::tr("unknown --baseline \"%1\" (known: raw)").arg(baseline));
    }
    if (!baseline.isEmpty() && concurrency > 1) {
        return fail(ExitUsage,
                    BenchCommand::tr("the raw baseline runs one locker: --baseline goes with --concurrency 1"));
    }
    if (baseline.isEmpty() || blocks > iterations)
        blocks = 1;
    if (parser.isSet(QStringLiteral("local")) == parser.isSet(QStringLiteral("nodes"))) {
        return fail(ExitUsage, BenchCommand::tr("give either --nodes LIST or --local N"));
    }
    if (parser.isSet(QStringLiteral("unix-socket")) && !parser.isSet(QStringLiteral("local"))) {
        return fail(ExitUsage, BenchCommand::tr(
                                   "--unix-socket goes with --local; with --nodes, name the sockets (unix:/path,...)"));
    }
    const bool json = parser.isSet(QStringLiteral("json"));
    const QByteArray key = parser.isSet(QStringLiteral("key"))
                               ? parser.value(QStringLiteral("key")).toUtf8()
                               : "redlock-bench:" + QByteArray::number(QCoreApplication::applicationPid());

    LocalCluster cluster;
    RedlockOptions options;
    if (localCount > 0) {
        LocalNodeOptions nodeOptions;
        nodeOptions.unixSocket = parser.isSet(QStringLiteral("unix-socket"));
        QString error;
        if (!cluster.start(static_cast<int>(localCount), nodeOptions, &error)) {
            return fail(ExitNoQuorumReachable, BenchCommand::tr("cannot start the local cluster: %1").arg(error));
        }
        options.nodes = cluster.endpoints();
        if (nodeOptions.unixSocket) {
            for (int i = 0; i < cluster.size(); ++i) {
                options.nodes[i] = NodeEndpoint();
                options.nodes[i].unixSocket = cluster.unixSocketPath(i);
            }
        }
    } else {
        auto nodes = nodesFromOptions(parser);
        if (!nodes)
            return ExitUsage;
        options.nodes = *nodes;
    }
    options.clientName = QStringLiteral("redlock-bench");
    options.nodeTimeoutMs = static_cast<int>(nodeTimeoutMs);
    options.retryCount = 0;
    const ConfigCheck check = RedlockClient::validate(options, ttlMs);
    for (const QString& warning : check.warnings)
        printDiagnostic(BenchCommand::tr("warning: %1").arg(warning));
    for (const QString& e : check.errors)
        printDiagnostic(BenchCommand::tr("configuration error: %1").arg(e));
    if (!check.ok())
        return ExitUsage;

    if (!json) {
        printOut(BenchCommand::tr(
                     "redlock bench: %1 nodes, %2 acquire+release pairs after %3 warm-up pairs, %4 locker(s) on "
                     "distinct keys, closed loops, TTL %5 ms%6")
                     .arg(options.nodes.size())
                     .arg(iterations)
                     .arg(warmup)
                     .arg(concurrency)
                     .arg(ttlMs)
                     .arg(blocks > 1 ? BenchCommand::tr(", %1 alternating blocks").arg(blocks) : QString()));
    }

    // Ours and the baseline run in alternating blocks, so that load from other processes on the machine
    // (this is a shared 2-core box) falls on both alike instead of on whichever ran second.
    LatencySamples ours;
    LatencySamples rawSamples;
    QString error;
    RedlockClient client(options);
    client.connectAll();
    std::optional<RawHiredisBaseline> raw;
    if (baseline == u"raw") {
        raw.emplace(options.nodes);
        if (!raw->connect(&error)) {
            return fail(ExitNoQuorumReachable, printableText(error, 500));
        }
    }
    for (qint64 block = 0; block < blocks; ++block) {
        const qint64 begin = iterations * block / blocks;
        const int blockIterations = static_cast<int>(iterations * (block + 1) / blocks - begin);
        const int blockWarmup = block == 0 ? static_cast<int>(warmup) : 0;
        if (!runRedlockCore(client, key, static_cast<int>(concurrency), ttlMs, blockWarmup, blockIterations, &ours,
                            &error)) {
            return fail(ExitNoQuorumReachable,
                        BenchCommand::tr("benchmark stopped: %1").arg(printableText(error, 500)));
        }
        if (raw && !raw->run(key + ":raw", ttlMs, blockWarmup, blockIterations, &rawSamples, &error)) {
            return fail(ExitNoQuorumReachable, printableText(error, 500));
        }
    }
    if (ours.acquireNs.empty()) {
        // Fewer failures than the stop-after count, but not one measured pair: no figures to show.
        return fail(ExitNoQuorumReachable,
                    BenchCommand::tr("no acquire succeeded (%1 failures): nothing to measure").arg(ours.failures));
    }
    const qint64 rssKb = procStatusKb("VmRSS");
    const qint64 peakRssKb = procStatusKb("VmHWM");
    const Figures ourFigures = Figures::from(ours, static_cast<int>(iterations));
    std::optional<Figures> rawFigures;
    if (raw)
        rawFigures = Figures::from(rawSamples, static_cast<int>(iterations));
    const double ratio =
        rawFigures && rawFigures->acquireP50Us > 0 ? ourFigures.acquireP50Us / rawFigures->acquireP50Us : 0.0;
    const double releaseRatio =
        rawFigures && rawFigures->releaseP50Us > 0 ? ourFigures.releaseP50Us / rawFigures->releaseP50Us : 0.0;

    if (json) {
        QJsonObject object{{QStringLiteral("nodes"), static_cast<int>(options.nodes.size())},
                           {QStringLiteral("iterations"), iterations},
                           {QStringLiteral("blocks"), blocks},
                           {QStringLiteral("concurrency"), concurrency},
                           {QStringLiteral("warmup"), warmup},
                           {QStringLiteral("ttlMs"), ttlMs},
                           {QStringLiteral("ours"), ourFigures.toJson()},
                           {QStringLiteral("rssKb"), rssKb},
                           {QStringLiteral("peakRssKb"), peakRssKb}};
        if (rawFigures) {
            object.insert(QStringLiteral("raw"), rawFigures->toJson());
            object.insert(QStringLiteral("acquireP50RatioOursToRaw"), std::round(ratio * 1000.0) / 1000.0);
            object.insert(QStringLiteral("releaseP50RatioOursToRaw"), std::round(releaseRatio * 1000.0) / 1000.0);
        }
        printJson(object);
        return ExitOk;
    }
    QList<QStringList> rows{{QString(), BenchCommand::tr("acquire p50 µs"), BenchCommand::tr("acquire p99 µs"),
                             BenchCommand::tr("release p50 µs"), BenchCommand::tr("release p99 µs"),
                             BenchCommand::tr("pairs/s"), BenchCommand::tr("failures")}};
    rows << ourFigures.row(BenchCommand::tr("redlock core"));
    if (rawFigures)
        rows << rawFigures->row(BenchCommand::tr("raw hiredis"));
    writeOut(formatTable(rows).toUtf8());
    if (rawFigures) {
        printOut(BenchCommand::tr("acquire p50 ours/raw: %1 (target: at most 1.1)").arg(ratio, 0, 'f', 2));
        printOut(BenchCommand::tr("release p50 ours/raw (both compare-and-delete): %1 (target: at most 1.2)")
                     .arg(releaseRatio, 0, 'f', 2));
    }
    printOut(BenchCommand::tr("resident memory after the run: %1 kB (peak %2 kB)").arg(rssKb).arg(peakRssKb));
    return ExitOk;
}

} // namespace redlock::cli
