// What the observation commands share: their options, the journal of the long-running ones, and the words
// for the keys an inspection passed over.

#include "cli/commands/ObserveOptions.h"
#include "cli/CommandLine.h"
#include "cli/Commands.h"

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

void addInspectOptions(QCommandLineParser& parser, bool withJson)
{
    addNodeOptions(parser);
    parser.addOption({QStringLiteral("pattern"),
                      ObserveCommands::tr("SCAN MATCH pattern of the lock keys (default *: then only values in a "
                                          "lock format this tool recognises count as locks; under any other pattern "
                                          "every value with a TTL does)."),
                      ObserveCommands::tr("GLOB"), QStringLiteral("*")});
    parser.addOption({QStringLiteral("scan-count"), ObserveCommands::tr("SCAN COUNT per call (default 1000)."),
                      ObserveCommands::tr("N")});
    parser.addOption({QStringLiteral("drift-factor"),
                      ObserveCommands::tr("Clock drift allowance: drift = ttl * F + 2 ms (default 0.01)."),
                      ObserveCommands::tr("F")});
    parser.addOption(
        {QStringLiteral("expiring"),
         ObserveCommands::tr("A held lock with less observed validity than this is \"expiring\" (default 1000)."),
         ObserveCommands::tr("MS")});
    if (withJson)
        parser.addOption({QStringLiteral("json"), ObserveCommands::tr("Print JSON instead of text.")});
}

bool readInspectOptions(const QCommandLineParser& parser, InspectCommand* command)
{
    auto nodes = nodesFromOptions(parser);
    if (!nodes)
        return false;
    InspectorOptions& o = command->options;
    o.nodes = *nodes;
    o.pattern = parser.value(QStringLiteral("pattern")).toUtf8();
    if (o.pattern.isEmpty()) {
        printDiagnostic(ObserveCommands::tr("--pattern cannot be empty (it would match no key; * matches every key)"));
        return false;
    }
    qint64 scanCount = o.scanCount;
    if (!intOption(parser, QStringLiteral("scan-count"), 1, 100000, &scanCount) ||
        !intOption(parser, QStringLiteral("expiring"), 0, 365LL * 24 * 3600 * 1000, &o.expiringThresholdMs) ||
        !driftFactorOption(parser, &o.driftFactor))
        return false;
    o.scanCount = static_cast<int>(scanCount);
    // optionNames(): the options given; unlike isSet() it does not warn for a command without --json (exporter).
    command->json = parser.optionNames().contains(QStringLiteral("json"));
    return true;
}

void addRescanOptions(QCommandLineParser& parser)
{
    parser.addOption({QStringLiteral("reconcile"),
                      ObserveCommands::tr("Pause between two background rescans, in ms (default 5000)."),
                      ObserveCommands::tr("MS")});
    parser.addOption(
        {QStringLiteral("budget"),
         ObserveCommands::tr("Commands per second the background rescan may send each node (default %1; 0 = no limit, "
                             "a full SCAN at full speed).")
             .arg(kDefaultBudgetPerNode),
         ObserveCommands::tr("N")});
}

bool readRescanOptions(const QCommandLineParser& parser, InspectorOptions* options)
{
    qint64 reconcile = 5000;
    qint64 budget = kDefaultBudgetPerNode;
    if (!intOption(parser, QStringLiteral("reconcile"), 100, 3600000, &reconcile) ||
        !intOption(parser, QStringLiteral("budget"), 0, 10000000, &budget))
        return false;
    options->reconcileIntervalMs = static_cast<int>(reconcile);
    options->budgetPerNode = static_cast<int>(budget);
    return true;
}

void addJournalOptions(QCommandLineParser& parser)
{
    parser.addOption({QStringLiteral("journal"),
                      ObserveCommands::tr("Also write every event to this lock history journal: a file (SQLite; "
                                          "`redlock history --journal FILE` reads it; `redlock history --help` names "
                                          "the console's) or a team's shared history in PostgreSQL, "
                                          "postgresql://user@host[:port]/database (the password from PGPASSWORD or "
                                          "~/.pgpass, never in the URL)."),
                      ObserveCommands::tr("FILE|URL")});
    parser.addOption({QStringLiteral("retain-days"),
                      ObserveCommands::tr("With --journal: prune what is older than this many days (default 30; 0 "
                                          "= keep)."),
                      ObserveCommands::tr("DAYS")});
    parser.addOption({QStringLiteral("retain-mb"),
                      ObserveCommands::tr("With --journal: then prune the oldest until the journal holds at most "
                                          "this many MiB (default 256 for a file, no limit for PostgreSQL: a "
                                          "shared history is trimmed by size only where this is given; 0 = no "
                                          "limit)."),
                      ObserveCommands::tr("MB")});
}

bool readJournalOptions(const QCommandLineParser& parser, const QString& source, JournalOptions* options)
{
    options->source = source;
    options->path = parser.value(QStringLiteral("journal"));
    qint64 retainDays = options->retainMs / (24 * 3600'000LL);
    qint64 retainMb = 0;
    if (!intOption(parser, QStringLiteral("retain-days"), 0, 100 * 365, &retainDays) ||
        !intOption(parser, QStringLiteral("retain-mb"), 0, 1024 * 1024, &retainMb))
        return false;
    if (parser.isSet(QStringLiteral("journal")) && options->path.isEmpty()) {
        printDiagnostic(ObserveCommands::tr("--journal needs a file name"));
        return false;
    }
    if (const QString problem = LockJournal::locationProblem(options->path); !problem.isEmpty()) {
        printDiagnostic(problem);
        return false;
    }
    options->retainMs = retainDays * 24 * 3600'000LL;
    if (parser.isSet(QStringLiteral("retain-mb")))
        options->retainBytes = retainMb * 1024 * 1024; // else the store's default (JournalOptions::retainBytes)
    return true;
}

std::unique_ptr<LockJournal> startJournal(const JournalOptions& options, ClusterWatch* watch)
{
    if (options.path.isEmpty())
        return nullptr;
    auto journal = std::make_unique<LockJournal>(options);
    // Emitted on the journal's thread, printed on this one.
    QObject::connect(
        journal.get(), &LockJournal::problem, journal.get(), [](const QString& message) { printDiagnostic(message); },
        Qt::QueuedConnection);
    QObject::connect(
        journal.get(), &LockJournal::recovered, journal.get(), [](const QString& message) { printDiagnostic(message); },
        Qt::QueuedConnection);
    QObject::connect(
        journal.get(), &LockJournal::warning, journal.get(),
        [](const QString& message) { printDiagnostic(QStringLiteral("warning: ") + message); }, Qt::QueuedConnection);
    journal->start();
    // On the inspector's thread: record() only appends to the journal's batch, it never waits for the file.
    watch->setLockEventTap([j = journal.get()](const QList<LockEvent>& events) { j->record(events); });
    return journal;
}

void finishJournal(LockJournal* journal, ClusterWatch* watch)
{
    if (!journal)
        return;
    watch->stop(); // no event reaches the journal after this
    journal->flush().waitForFinished();
    const JournalStatus status = journal->status();
    if (status.pending > 0 || status.dropped > 0)
        printDiagnostic(ObserveCommands::tr("the journal %1 did not take %2 event(s) (%3 dropped earlier): %4")
                            .arg(QDir::toNativeSeparators(journal->path()))
                            .arg(status.pending)
                            .arg(status.dropped)
                            .arg(status.error));
}

QJsonObject skippedKeysJson(const SkippedKeys& skipped)
{
    return QJsonObject{{QStringLiteral("noTtl"), skipped.noTtl},
                       {QStringLiteral("otherType"), skipped.otherType},
                       {QStringLiteral("outsidePattern"), skipped.outsidePattern},
                       {QStringLiteral("redissonHelpers"), skipped.redissonHelpers},
                       {QStringLiteral("notALockFormat"), skipped.notALockFormat}};
}

QString notALockFormatText(qint64 count)
{
    return ObserveCommands::tr("%n key(s) with a TTL passed over: not in a lock format this tool recognises (under the "
                               "default pattern * only recognised lock values count; --pattern names your lock keys, "
                               "and then every value with a TTL under it counts).",
                               nullptr, int(std::min<qint64>(count, std::numeric_limits<int>::max())));
}

} // namespace redlock::cli
