#pragma once

// What the observation commands (InspectCommand.cpp, WatchCommand.cpp, AuditCommand.cpp, ExporterCommand.cpp)
// share: the options that say which nodes and keys to watch and how hard (ObserveOptions.cpp).

#include "history/LockJournal.h"
#include "observe/LockInspector.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonObject>

#include <memory>

namespace redlock {
class ClusterWatch;
}

namespace redlock::cli {

// The translation context of the messages of inspect, watch and audit, the shared options' among them (one
// context for the four files, as when they were one: the translations keep their place).
class ObserveCommands
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::ObserveCommands)
};

struct InspectCommand
{
    InspectorOptions options;
    bool json = false;
};

// The node options, --pattern, --scan-count, --drift-factor, --expiring, and --json when the command has it.
void addInspectOptions(QCommandLineParser& parser, bool withJson = true);
// Prints the error and returns false on a bad value.
bool readInspectOptions(const QCommandLineParser& parser, InspectCommand* command);
// --reconcile and --budget: the pace of the background rescan (watch, exporter).
void addRescanOptions(QCommandLineParser& parser);
bool readRescanOptions(const QCommandLineParser& parser, InspectorOptions* options);

// The lock history journal of the long-running commands (watch, exporter), wired the same way for both:
// --journal FILE, --retain-days, --retain-mb.
void addJournalOptions(QCommandLineParser& parser);
// options->path stays empty without --journal; options->source names the writer in the journal's sessions. Prints
// the error and returns false on a bad value.
bool readJournalOptions(const QCommandLineParser& parser, const QString& source, JournalOptions* options);
// Before watch->start(), into a pointer declared before the watch (the journal outlives the thread that records into
// it): the journal, started, its problems and recoveries printed on stderr as they come, and every
// lock event recorded on the watch's I/O thread (record() only appends to a batch: the watch never waits for the
// file; the journal's own thread writes). Null without a path.
std::unique_ptr<LockJournal> startJournal(const JournalOptions& options, ClusterWatch* watch);
// When the command ends: stops the watch (no event reaches the journal after it), writes what waits, and says what
// the journal could not take.
void finishJournal(LockJournal* journal, ClusterWatch* watch);

// The keys an inspection passed over, by reason (InspectionSummary::skipped), for --json (inspect, watch).
QJsonObject skippedKeysJson(const SkippedKeys& skipped);
// Keys with a TTL passed over under the default pattern: why, and how to have them counted.
QString notALockFormatText(qint64 count);

} // namespace redlock::cli
