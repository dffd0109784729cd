// redlock exporter: the observation core (NodeSession, LockInspector, SafetyAudit) behind a Prometheus /metrics.

#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/commands/ObserveOptions.h"

#include "export/MetricsHttpServer.h"
#include "export/PrometheusExporter.h"
#include "export/WebConfig.h"
#include "runtime/StopSignals.h"
#include "watch/ClusterWatch.h"

#include <QEventLoop>

#include <utility>

namespace redlock::cli {

// The translation context of this file's messages.
class ExporterCommand
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::ExporterCommand)
};

int runExporter(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser, false);
    addRescanOptions(parser);
    parser.addOption({QStringLiteral("listen"),
                      ExporterCommand::tr("Address and port to serve /metrics on (default 127.0.0.1:9721: this "
                                          "machine only; 0.0.0.0:9721 every interface; port 0 any free port)."),
                      ExporterCommand::tr("ADDRESS:PORT"), QStringLiteral("127.0.0.1:9721")});
    parser.addOption(
        {QStringLiteral("web.config.file"),
         ExporterCommand::tr("TLS and basic auth for the scrapes, in the format of Prometheus's exporters "
                             "(exporter-toolkit): tls_server_config (cert_file, key_file, client_ca_file, "
                             "client_auth_type, min_version) serves HTTPS only; basic_auth_users (user: bcrypt "
                             "hash) asks every request for a user's password. Read once at start."),
         ExporterCommand::tr("FILE")});
    parser.addOption(
        {QStringLiteral("max-ttl"),
         ExporterCommand::tr("Largest lock TTL in use, in ms, for the audit's restart rule (default %1); a larger "
                             "PTTL seen on the nodes raises it.")
             .arg(rules::kDefaultMaxTtlMs),
         ExporterCommand::tr("MS")});
    parser.addOption(
        {QStringLiteral("node-timeout"),
         ExporterCommand::tr("Per-node timeout of each observing command, in ms (default 1000 for the per-second "
                             "PING and TIME and the INFO, 2000 for the lock reads): for nodes far away. A node that "
                             "does not answer within it counts as down until it does."),
         ExporterCommand::tr("MS")});
    parser.addOption({QStringLiteral("key-labels"),
                      ExporterCommand::tr("Also export one series per lock key (redlock_lock_holders{key,verdict}): "
                                          "one series per key, up to --max-series.")});
    parser.addOption(
        {QStringLiteral("max-series"),
         ExporterCommand::tr("With --key-labels, the most per-key series a scrape exports (default %1): past it the "
                             "keys after the first N in key order are left out, redlock_key_series_dropped says how "
                             "many, and a warning is printed once.")
             .arg(ExporterOptions::kDefaultMaxKeySeries),
         ExporterCommand::tr("N")});
    // The always-on writer of the lock history (issue 30): the same journal and options as `watch --journal`.
    addJournalOptions(parser);
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, QStringLiteral("exporter [options] --nodes LIST"),
            ExporterCommand::tr(
                "Serve the cluster's state on http://ADDRESS:PORT/metrics in the Prometheus text format until "
                "Ctrl+C: locks by verdict; per node up, latency, clock offset, restarts and what observing costs "
                "it; audit findings by rule and severity; lock age, remaining validity and hold duration "
                "histograms; lock event counters (contention: contested, token-changed). It watches like `watch` "
                "(keyspace events where the nodes send them, a background rescan within --budget) and adds one "
                "PING and TIME per second and one INFO per 5 s per node; a scrape is answered from memory and "
                "never waits for a node. Labels name nodes as host:port, never users, passwords or lock values; "
                "lock keys only with --key-labels. With --journal it also keeps the lock history (`redlock history` "
                "reads "
                "it) for as long as it runs; the journal is written on a thread of its own and never delays a "
                "scrape."),
            &exitCode,
            ExporterCommand::tr("Exit codes:\n"
                                "  0  stopped by SIGINT or SIGTERM\n"
                                "  2  usage error, --listen bad or busy, or --web.config.file unreadable or "
                                "refused: nothing was sent to any node\n")))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command) || !readRescanOptions(parser, &command.options))
        return ExitUsage;
    qint64 maxTtl = 0;
    if (!intOption(parser, QStringLiteral("max-ttl"), 1, 365LL * 24 * 3600 * 1000, &maxTtl))
        return ExitUsage;
    qint64 maxSeries = ExporterOptions::kDefaultMaxKeySeries;
    if (!intOption(parser, QStringLiteral("max-series"), 1, 10'000'000, &maxSeries))
        return ExitUsage;
    NodeSessionOptions sessionOptions;
    sessionOptions.readOnly = true;
    if (parser.isSet(QStringLiteral("node-timeout"))) {
        qint64 nodeTimeout = 0;
        if (!intOption(parser, QStringLiteral("node-timeout"), 1, 3600 * 1000, &nodeTimeout))
            return ExitUsage;
        sessionOptions.commandTimeoutMs = command.options.commandTimeoutMs = static_cast<int>(nodeTimeout);
    }
    JournalOptions journalOptions;
    if (!readJournalOptions(parser, QStringLiteral("exporter"), &journalOptions))
        return ExitUsage;
    QString error;
    const auto listen = ListenAddress::parse(parser.value(QStringLiteral("listen")), &error);
    if (!listen) {
        return fail(ExitUsage, ExporterCommand::tr("bad --listen: %1").arg(error));
    }

    std::optional<WebConfig> webConfig;
    std::optional<QSslConfiguration> tls;
    if (parser.isSet(QStringLiteral("web.config.file"))) {
        webConfig = WebConfig::load(parser.value(QStringLiteral("web.config.file")), &error);
        if (webConfig && webConfig->tls)
            tls = webConfig->sslConfiguration(&error);
        if (!webConfig || (webConfig->tls && !tls)) {
            return fail(ExitUsage, ExporterCommand::tr("bad --web.config.file: %1").arg(error));
        }
    }

    QEventLoop loop;
    StopSignals stopSignals;
    if (!stopSignals.isActive()) {
        return fail(ExitUsage, ExporterCommand::tr("cannot install signal handlers"));
    }
    // Queued: a stop before the loop runs quits it as soon as it does.
    QObject::connect(&stopSignals, &StopSignals::received, &loop, &QEventLoop::quit, Qt::QueuedConnection);

    const InspectorOptions& options = command.options;
    ExporterOptions exporterOptions;
    exporterOptions.nodes = options.nodes;
    exporterOptions.driftFactor = options.driftFactor;
    exporterOptions.maxTtlMs = maxTtl;
    exporterOptions.budgetPerNode = options.budgetPerNode;
    exporterOptions.perKeyMetrics = parser.isSet(QStringLiteral("key-labels"));
    exporterOptions.maxKeySeries = maxSeries;
    PrometheusExporter exporter(exporterOptions);
    // Bound before any node is contacted: a bad or busy address is a usage error with nothing sent.
    MetricsHttpServer server([&exporter] { return exporter.exposition(); });
    if (tls)
        server.setTls(*tls);
    const bool withAuth = webConfig && !webConfig->basicAuthUsers.isEmpty();
    if (withAuth)
        server.setBasicAuth(webConfig->basicAuthUsers);
    if (!server.listen(*listen, &error)) {
        return fail(ExitUsage, error);
    }
    const ListenAddress bound = server.serverAddress();
    printDiagnostic(ExporterCommand::tr("serving %1://%2/metrics")
                        .arg(tls ? QStringLiteral("https") : QStringLiteral("http"), bound.toString()));
    if (withAuth)
        printDiagnostic(ExporterCommand::tr("basic auth for %n user(s)", nullptr,
                                            static_cast<int>(webConfig->basicAuthUsers.size())));
    if (!bound.address.isLoopback() && !withAuth)
        printDiagnostic(ExporterCommand::tr("%1 is not a loopback address: whoever reaches it can read the "
                                            "metrics (lock counts, node names)")
                            .arg(bound.address.toString()));

    // The observation, as the console's and `watch`'s (core/watch/ClusterWatch.h): node health, the audit and its
    // max TTL come from it. It lives on this thread, as the exporter does, so a scrape reads a consistent state
    // between two updates and never waits for the I/O thread.
    // Before the watch: it outlives the inspector's thread that records into it.
    std::unique_ptr<LockJournal> journal;
    ClusterWatchOptions watchOptions;
    watchOptions.inspector = options;
    // A full pass goes out in parts, each built once the previous one was taken, as `watch`'s: at 1M locks one change
    // set of every lock took the exporter to 1.8 GB at its peak (1.4 GB after).
    watchOptions.inspector.fullPassChunk = 2048;
    watchOptions.inspector.fullPassChunksAhead = 2;
    watchOptions.session = sessionOptions;
    watchOptions.configuredMaxTtlMs = maxTtl;
    ClusterWatch watch(watchOptions);
    journal = startJournal(journalOptions, &watch);
    QObject* context = &server;
    QObject::connect(&watch, &ClusterWatch::nodeFactsChanged, context,
                     [&exporter, &watch](int node) { exporter.addFacts(watch.nodeFacts()[node]); });
    QObject::connect(&watch, &ClusterWatch::nodeSampled, context,
                     [&exporter](const NodeSample& s) { exporter.addSample(s); });
    QObject::connect(&watch, &ClusterWatch::nodeRestarted, context,
                     [&exporter](const NodeFacts& f) { exporter.addRestart(f); });
    QObject::connect(&watch, &ClusterWatch::auditChanged, context,
                     [&exporter, &watch] { exporter.setFindings(watch.findings()); });
    // Past --max-series, said once: the scrapes stay bounded, but the per-key series are no longer complete.
    bool warnedSeriesLimit = false;
    QObject::connect(&watch, &ClusterWatch::locksChanged, context,
                     [&exporter, &warnedSeriesLimit, maxSeries](const LockChangeSet& changes) {
                         exporter.addChanges(changes);
                         if (warnedSeriesLimit || exporter.keysOverSeriesLimit() == 0)
                             return;
                         warnedSeriesLimit = true;
                         printDiagnostic(ExporterCommand::tr("more lock keys than --max-series %1: only the first "
                                                             "%1 in key order get a per-key series, "
                                                             "redlock_key_series_dropped counts the others")
                                             .arg(maxSeries));
                     });
    QObject::connect(&watch, &ClusterWatch::lockEvents, context,
                     [&exporter](const QList<LockEvent>& events) { exporter.addEvents(events); });
    // A large pass's summary comes before the last parts of its locks. redlock_inspections_total >= 1 says the lock
    // metrics are whole, so the first pass counts once its last lock is told (as the console's first refresh); a later
    // one as it ends (until its parts are told, a lock is as the pass before saw it, none is missing).
    // (Without a bounded hand-off there is no fullPassTold: a pass's summary comes after its locks.)
    bool firstPassTold = !(watchOptions.inspector.fullPassChunk > 0 && watchOptions.inspector.fullPassChunksAhead > 0);
    QList<InspectionSummary> beforeTold;
    QObject::connect(&watch, &ClusterWatch::fullPassTold, context, [&exporter, &firstPassTold, &beforeTold] {
        if (std::exchange(firstPassTold, true))
            return;
        for (const InspectionSummary& summary : std::as_const(beforeTold))
            exporter.addInspection(summary);
        beforeTold.clear();
    });
    QObject::connect(&watch, &ClusterWatch::inspectionFinished, context,
                     [&exporter, &firstPassTold, &beforeTold](const InspectionSummary& summary) {
                         if (firstPassTold)
                             exporter.addInspection(summary);
                         else
                             beforeTold.append(summary);
                     });
    QObject::connect(&watch, &ClusterWatch::observerLoad, context,
                     [&exporter](const QList<ObserverLoad>& load) { exporter.addObserverLoad(load); });
    if (!watch.start(&error)) {
        return fail(ExitUsage, error);
    }
    loop.exec();
    finishJournal(journal.get(), &watch);
    return ExitOk;
}

} // namespace redlock::cli
