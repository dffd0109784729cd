// redlock audit: the safety audit (SafetyAudit) of the cluster's configuration and its locks.

#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/commands/ObserveOptions.h"

#include "alerts/AlertMonitor.h"
#include "history/LockJournal.h"
#include "observe/LockInspector.h"
#include "observe/NodeSession.h"
#include "observe/SafetyAudit.h"
#include "redlock/RedlockRules.h"
#include "runtime/IoThread.h"
#include "runtime/StopSignals.h"
#include "watch/ClusterWatch.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QTimer>

#include <cstdio>
#include <limits>
#include <memory>

namespace redlock::cli {

int runAudit(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    parser.addOption(
        {QStringLiteral("max-ttl"),
         ObserveCommands::tr("Largest lock TTL in use, in ms, for the restart rule and the drift budget (default %1); "
                             "a larger PTTL seen on the nodes raises it.")
             .arg(rules::kDefaultMaxTtlMs),
         ObserveCommands::tr("MS")});
    int exitCode = ExitOk;
    if (!parseArguments(parser, args, QStringLiteral("audit [options] --nodes LIST"),
                        ObserveCommands::tr(
                            "Check the nodes against what breaks Redlock: replicas, persistence and early restarts, "
                            "eviction, clock offset, the same server listed twice, N even or below 3. Exit code %1 "
                            "when a finding is severe.")
                            .arg(ExitSevereFinding),
                        &exitCode))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command))
        return ExitUsage;
    qint64 maxTtl = 0;
    if (!intOption(parser, QStringLiteral("max-ttl"), 1, 365LL * 24 * 3600 * 1000, &maxTtl))
        return ExitUsage;
    const QList<NodeEndpoint>& nodes = command.options.nodes;

    // The observation the console and `watch` run, for one pass: the sessions' facts, and the largest PTTL of one
    // inspection for the max TTL (a running maximum: no lock is kept, whatever their number). Done when every node
    // has INFO (or is known not to give it) and a clock sample, or 5 s have passed, and the inspection is over.
    ClusterWatchOptions watchOptions;
    watchOptions.inspector = command.options;
    watchOptions.session.pingIntervalMs = 200;
    watchOptions.session.factsIntervalMs = 1000;
    watchOptions.configuredMaxTtlMs = maxTtl;
    watchOptions.keepLocks = false;
    ClusterWatch watch(watchOptions);
    QList<bool> settled(nodes.size(), false);
    bool factsTimedOut = false;
    QEventLoop loop;
    auto check = [&] {
        if ((factsTimedOut || !settled.contains(false)) && watch.inspectionDone())
            loop.quit();
    };
    QObject::connect(&watch, &ClusterWatch::nodeFactsChanged, &loop, [&](int i) {
        const NodeFacts& f = watch.nodeFacts()[i];
        const bool refusedInfo = f.refusedCommands.contains(QStringLiteral("INFO"));
        settled[i] = (f.health == NodeHealth::Up && (f.infoKnown || refusedInfo) &&
                      (f.clockOffsetUs.has_value() || f.refusedCommands.contains(QStringLiteral("TIME")))) ||
                     f.health == NodeHealth::AuthFailed || f.health == NodeHealth::NoPermission ||
                     f.health == NodeHealth::Down || f.health == NodeHealth::NotAnswering;
        check();
    });
    QObject::connect(&watch, &ClusterWatch::inspectionFinished, &loop, check);
    QString error;
    if (!watch.start(&error)) {
        return fail(ExitUsage, error);
    }
    QTimer::singleShot(5000, &loop, [&] { // nodes that never answer stay unverified
        factsTimedOut = true;
        check();
    });
    loop.exec();
    watch.stop();

    const QList<AuditFinding> findings = watch.findings();
    const qint64 auditMaxTtl = watch.auditMaxTtlMs();
    const int reachable = watch.nodesUp();
    const int quorum = watch.quorum();
    // No quorum reachable outranks a severe finding: the same exit code as every other command gives then.
    const int auditExit = reachable < quorum                 ? ExitNoQuorumReachable
                          : SafetyAudit::hasSevere(findings) ? ExitSevereFinding
                                                             : ExitOk;

    if (command.json) {
        QJsonArray out;
        for (const AuditFinding& f : findings) {
            QJsonArray concerned;
            for (const int i : f.nodes)
                concerned.append(nodes.value(i).displayName());
            out.append(QJsonObject{{QStringLiteral("rule"), f.ruleId},
                                   {QStringLiteral("severity"), severityId(f.severity)},
                                   {QStringLiteral("nodes"), concerned},
                                   {QStringLiteral("title"), f.title},
                                   {QStringLiteral("explanation"), f.explanation}});
        }
        printJson({{QStringLiteral("findings"), out},
                   {QStringLiteral("maxTtlMs"), auditMaxTtl},
                   {QStringLiteral("nodes"), static_cast<int>(nodes.size())},
                   {QStringLiteral("nodesReachable"), reachable},
                   {QStringLiteral("quorum"), quorum},
                   {QStringLiteral("severe"), SafetyAudit::hasSevere(findings)},
                   {QStringLiteral("exitCode"), auditExit}});
    } else if (findings.isEmpty()) {
        printOut(ObserveCommands::tr("No findings: %n node(s) checked, max TTL %1 ms.", nullptr,
                                     static_cast<int>(nodes.size()))
                     .arg(auditMaxTtl));
    } else {
        for (const AuditFinding& f : findings) {
            printOut(QStringLiteral("[%1] %2 (%3)").arg(severityName(f.severity).toUpper(), f.title, f.ruleId));
            printOut(QStringLiteral("    ") + printableText(f.explanation, -1));
        }
    }
    if (reachable < quorum)
        printDiagnostic(ObserveCommands::tr("only %1 of %2 nodes reachable, quorum %3: the cluster cannot grant locks")
                            .arg(reachable)
                            .arg(nodes.size())
                            .arg(quorum));
    return auditExit;
}

} // namespace redlock::cli
