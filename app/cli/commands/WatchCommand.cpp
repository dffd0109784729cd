// redlock watch: live lock events, node health and alerts from a ClusterWatch, as lines or JSON Lines.

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

namespace {

// --alert RULE=MS|off,... over the defaults.
bool readAlertOptions(const QCommandLineParser& parser, AlertThresholds* thresholds)
{
    const QString list = parser.value(QStringLiteral("alert"));
    for (const QString& value : list.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = value.indexOf(u'=');
        if (value.left(eq) == QLatin1String("clear")) {
            bool ok = false;
            thresholds->clearAfterMs = value.mid(eq + 1).toLongLong(&ok);
            if (ok && thresholds->clearAfterMs >= 0)
                continue;
        }
        const auto rule = alertRuleFromId(value.left(eq));
        const QString setting = eq < 0 ? QString() : value.mid(eq + 1);
        bool ok = false;
        const qint64 ms = setting.toLongLong(&ok);
        if (!rule || (setting != QLatin1String("off") && (!ok || ms < 0))) {
            QStringList ids;
            for (int i = 0; i < kAlertRuleCount; ++i)
                ids << alertRuleId(static_cast<AlertRule>(i));
            printDiagnostic(ObserveCommands::tr("--alert %1: expected RULE=MS, RULE=off or clear=MS, RULE one of %2")
                                .arg(printableText(value), ids.join(QLatin1String(", "))));
            return false;
        }
        if (setting == QLatin1String("off"))
            thresholds->set(*rule, false, thresholds->after(*rule));
        else
            thresholds->set(*rule, true, ms);
    }
    return true;
}

// Alerts as they are raised and cleared: a line each (or a JSON object with --json).
bool printAlert(const Alert& alert, bool raised, bool json)
{
    const qint64 atMs = raised ? alert.raisedAtMs : alert.clearedAtMs;
    const QString at = QDateTime::fromMSecsSinceEpoch(atMs).toString(Qt::ISODateWithMs);
    if (json) {
        QJsonObject o{
            {QStringLiteral("at"), at},
            {QStringLiteral("event"), raised ? QStringLiteral("alert-raised") : QStringLiteral("alert-cleared")},
            {QStringLiteral("rule"), alertRuleId(alert.rule)},
            {QStringLiteral("id"), printableBytes(alert.id, -1)},
            {QStringLiteral("since"), QDateTime::fromMSecsSinceEpoch(alert.sinceMs).toString(Qt::ISODateWithMs)},
            {QStringLiteral("message"), alert.message}};
        if (!alert.key.isEmpty())
            o.insert(QStringLiteral("key"), printableBytes(alert.key, -1));
        if (alert.node >= 0)
            o.insert(QStringLiteral("node"), alert.node + 1);
        if (alert.group) {
            // One line for a storm of one rule: how many, and a few of them.
            QJsonArray examples;
            for (const QByteArray& e : alert.examples)
                examples.append(printableBytes(e, -1));
            o.insert(QStringLiteral("count"), alert.count);
            o.insert(QStringLiteral("examples"), examples);
        }
        return printJsonLine(o);
    }
    return printOut(QStringLiteral("%1  %2  %3: %4")
                        .arg(at,
                             (raised ? ObserveCommands::tr("ALERT") : ObserveCommands::tr("CLEARED")).leftJustified(13),
                             alertRuleName(alert.rule), alert.message));
}

} // namespace

int runWatch(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    addRescanOptions(parser);
    parser.addOption({QStringLiteral("alert"),
                      ObserveCommands::tr("Alert thresholds, comma-separated: RULE=MS (raised once the condition "
                                          "lasted MS) or RULE=off; clear=MS: how long a condition must be gone before "
                                          "its alert clears (default 5000). Rules: lock-held, lock-contested, "
                                          "minority-leftover, quorum-lost, node-down, severe-finding, clock-offset."),
                      ObserveCommands::tr("RULE=MS,...")});
    parser.addOption({QStringLiteral("no-alerts"), ObserveCommands::tr("Print lock events only, no alerts.")});
    parser.addOption(
        {QStringLiteral("max-ttl"),
         ObserveCommands::tr("Largest lock TTL in use, in ms, for the drift budget of the clock-offset alert and the "
                             "audit (default %1); a larger PTTL seen on the nodes raises it.")
             .arg(rules::kDefaultMaxTtlMs),
         ObserveCommands::tr("MS")});
    addJournalOptions(parser);
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, QStringLiteral("watch [options] --nodes LIST"),
            ObserveCommands::tr(
                "Print lock events (acquired, extended, released, expired, token changed, contested, lost on a node "
                "restart) as they happen, until Ctrl+C; first, each lock already held when watching starts, as "
                "\"seen held\" (its acquisition was not seen: held at least since then). Live changes come from "
                "keyspace notifications where the nodes "
                "have them enabled (this command never enables them); a background rescan within a "
                "budget of commands per second per node catches the rest, and is the only source on "
                "nodes without them. Alerts (a lock held, contested or left over too long, a node down, "
                "quorum lost, a severe audit finding, a clock offset beyond the drift budget) are "
                "printed when raised and when cleared. A reader that has gone ends the watch at once, with exit "
                "code 5 (`watch --json | head -1` ends with head)."),
            &exitCode))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command))
        return ExitUsage;
    if (!readRescanOptions(parser, &command.options))
        return ExitUsage;
    const int budget = command.options.budgetPerNode;
    AlertThresholds thresholds;
    qint64 maxTtl = 0;
    if (!readAlertOptions(parser, &thresholds) ||
        !intOption(parser, QStringLiteral("max-ttl"), 1, 365LL * 24 * 3600 * 1000, &maxTtl))
        return ExitUsage;
    const bool alerts = !parser.isSet(QStringLiteral("no-alerts"));
    JournalOptions journalOptions;
    if (!readJournalOptions(parser, QStringLiteral("watch"), &journalOptions))
        return ExitUsage;

    QEventLoop loop;
    StopSignals stopSignals;
    if (!stopSignals.isActive()) {
        return fail(ExitUsage, ObserveCommands::tr("cannot install signal handlers"));
    }
    // Queued: a stop before the loop runs quits it as soon as it does.
    QObject::connect(&stopSignals, &StopSignals::received, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    // Before the watch: it outlives the inspector's thread that records into it.
    std::unique_ptr<LockJournal> journal;
    // The observation, as the console's and the exporter's: node health, quorum, the audit and its max TTL come
    // from it (core/watch/ClusterWatch.h).
    ClusterWatchOptions watchOptions;
    watchOptions.inspector = command.options;
    // Each lock is printed (and alerted on) by itself: the first pass goes out in parts, never 100,000 at once. Small
    // parts: the ones in flight hold each lock's view unpacked and its event (about 900 bytes a lock, the three or
    // four parts between the inspector and the printing took 8 MB of the peak at 2048 a part; 1 MB at 256).
    watchOptions.inspector.fullPassChunk = 256;
    // ... and each part is built once the previous one was taken (printed), not queued ahead of the printing.
    watchOptions.inspector.fullPassChunksAhead = 2;
    watchOptions.configuredMaxTtlMs = maxTtl;
    ClusterWatch watch(watchOptions);
    journal = startJournal(journalOptions, &watch);
    const QList<NodeEndpoint> nodes = command.options.nodes;
    const bool json = command.json;
    QObject::connect(
        &watch, &ClusterWatch::lockEvents, &loop,
        [json, nodes](const QList<LockEvent>& events) {
            for (const LockEvent& e : events) {
                const QString at = QDateTime::fromMSecsSinceEpoch(e.atMs).toString(Qt::ISODateWithMs);
                QStringList lostOn; // Lost: the nodes that restarted without it
                for (const int n : e.nodes)
                    lostOn << nodes.value(n).displayName();
                if (json) {
                    QJsonObject o{{QStringLiteral("at"), at},
                                  {QStringLiteral("event"), lockEventKindId(e.kind)},
                                  {QStringLiteral("key"), printableBytes(e.key, -1)},
                                  {QStringLiteral("token"), printableBytes(e.token, -1)},
                                  {QStringLiteral("holder"), e.holderSummary}};
                    if (!e.previousToken.isEmpty())
                        o.insert(QStringLiteral("previousToken"), printableBytes(e.previousToken, -1));
                    if (!lostOn.isEmpty())
                        o.insert(QStringLiteral("restartedNodes"), QJsonArray::fromStringList(lostOn));
                    // Nobody saw it happen (no keyspace event): after lastSeenHeld, by `at`.
                    if (e.endsUnobserved())
                        o.insert(QStringLiteral("lastSeenHeld"),
                                 QDateTime::fromMSecsSinceEpoch(e.lastSeenHeldMs).toString(Qt::ISODateWithMs));
                    printJsonLine(o);
                } else {
                    QString line = QStringLiteral("%1  %2  %3  %4")
                                       .arg(at, lockEventKindName(e.kind).leftJustified(13), printableBytes(e.key),
                                            e.holderSummary);
                    if (!lostOn.isEmpty())
                        line += QLatin1String("  ") +
                                ObserveCommands::tr("(restarted without it: %1)").arg(lostOn.join(u", "));
                    if (e.endsUnobserved())
                        line +=
                            QLatin1String("  ") +
                            ObserveCommands::tr("(not observed: between %1 and %2)")
                                .arg(QDateTime::fromMSecsSinceEpoch(e.lastSeenHeldMs).toString(Qt::ISODateWithMs), at);
                    printOut(line);
                }
            }
        },
        Qt::QueuedConnection);
    // Nodes: a restart, and reachability by the watch's one rule (a node is up when its session is; only changes
    // are printed, once every node has reported).
    QObject::connect(&watch, &ClusterWatch::nodeRestarted, &loop, [nodes](const NodeFacts& facts) {
        printDiagnostic(
            ObserveCommands::tr("%1: restarted (new run_id): the locks it held are gone unless it persisted them")
                .arg(nodes.value(facts.node).displayName()));
    });
    auto reachable = std::make_shared<QList<bool>>(nodes.size(), true);
    QObject::connect(&watch, &ClusterWatch::nodeFactsChanged, &loop, [nodes, reachable, w = &watch](int) {
        if (!w->allNodesReported())
            return;
        QList<bool> nodeReachable;
        for (int i = 0; i < nodes.size(); ++i)
            nodeReachable << w->isNodeUp(i);
        if (nodeReachable == *reachable)
            return;
        const int quorum = w->quorum();
        const bool hadQuorum = reachable->count(true) >= quorum;
        for (int i = 0; i < nodes.size(); ++i) {
            if (nodeReachable[i] == reachable->value(i))
                continue;
            if (nodeReachable[i]) {
                printDiagnostic(ObserveCommands::tr("%1: reachable again").arg(nodes[i].displayName()));
            } else {
                const QString why = w->nodeFacts()[i].reason;
                printDiagnostic(
                    why.isEmpty()
                        ? ObserveCommands::tr("%1: unreachable").arg(nodes[i].displayName())
                        : ObserveCommands::tr("%1: unreachable (%2)").arg(nodes[i].displayName(), printableText(why)));
            }
        }
        *reachable = nodeReachable;
        const int up = static_cast<int>(reachable->count(true));
        if (up == 0)
            printDiagnostic(ObserveCommands::tr("no node reachable: no lock events can be seen"));
        else if (up < quorum)
            printDiagnostic(ObserveCommands::tr("only %1 of %2 nodes reachable (quorum %3): locks read as unknown")
                                .arg(up)
                                .arg(nodes.size())
                                .arg(quorum));
        else if (!hadQuorum)
            printDiagnostic(
                ObserveCommands::tr("a quorum of nodes is reachable again (%1 of %2)").arg(up).arg(nodes.size()));
    });
    // Keys passed over as no lock format (the default pattern): said after the first inspection, and again when
    // their number changes.
    QObject::connect(
        &watch, &ClusterWatch::inspectionFinished, &loop,
        [json, said = std::make_shared<qint64>(-1)](const InspectionSummary& summary) {
            const qint64 count = summary.skipped.notALockFormat;
            if (count == *said || (*said < 0 && count == 0))
                return;
            *said = count;
            if (json)
                printJsonLine(
                    QJsonObject{{QStringLiteral("at"),
                                 QDateTime::fromMSecsSinceEpoch(summary.startedAtMs).toString(Qt::ISODateWithMs)},
                                {QStringLiteral("event"), QStringLiteral("keys-passed-over")},
                                {QStringLiteral("skipped"), skippedKeysJson(summary.skipped)}});
            else
                printDiagnostic(notALockFormatText(count));
        },
        Qt::QueuedConnection);
    // Per node, where changes come from: said once, and again when it changes.
    const QString pace = budget > 0 ? ObserveCommands::tr("the background rescan (%1 commands/s)").arg(budget)
                                    : ObserveCommands::tr("the background rescan (no budget)");
    QObject::connect(
        &watch, &ClusterWatch::liveSourceChanged, &loop,
        [nodes, pace](int node, bool eventsLive, const QString& why) {
            if (eventsLive)
                printDiagnostic(
                    ObserveCommands::tr("%1: keyspace events: changes show live").arg(nodes.value(node).displayName()));
            else
                printDiagnostic(ObserveCommands::tr("%1: no keyspace events (%2): changes show only through %3")
                                    .arg(nodes.value(node).displayName(), printableText(why), pace));
        },
        Qt::QueuedConnection);

    // Alerts: the same monitor as the console's, fed by the watch (locks, node facts, the audit's findings and max
    // TTL).
    std::unique_ptr<AlertMonitor> monitor;
    if (alerts) {
        AlertMonitorOptions ao;
        ao.nodeCount = static_cast<int>(nodes.size());
        for (const NodeEndpoint& n : nodes)
            ao.nodeNames << n.displayName();
        ao.driftFactor = command.options.driftFactor;
        ao.maxTtlMs = watch.auditMaxTtlMs();
        ao.thresholds = thresholds;
        monitor = std::make_unique<AlertMonitor>(ao);
        AlertMonitor* m = monitor.get();
        QObject::connect(m, &AlertMonitor::alertRaised, &loop, [json](const Alert& a) { printAlert(a, true, json); });
        QObject::connect(m, &AlertMonitor::alertCleared, &loop, [json](const Alert& a) { printAlert(a, false, json); });
        watch.setAlertMonitor(m);
    }
    QString error;
    if (!watch.start(&error)) {
        return fail(ExitUsage, error);
    }
    // A reader that has gone ends the watch (`watch | head -1`): like a filter on SIGPIPE, but the journal is
    // still flushed below.
    const auto outputGuard = quitWhenOutputFails(&loop);
    loop.exec();
    finishJournal(journal.get(), &watch);
    return outputFailed() ? ExitOutputFailed : ExitOk;
}

} // namespace redlock::cli
