#pragma once

#include "observe/ObservationTypes.h" // printableBytes / printableText: every untrusted byte shown goes through them
#include "protocol/NodeEndpoint.h"
#include "redlock/RedlockTypes.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFuture>
#include <QFutureWatcher>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// What every subcommand of the CLI shares: exit codes, parsing with per-subcommand help, the node options,
// output, and the mapping of core results to text and JSON. The observation commands use it too.
namespace redlock::cli {

// Exit codes scripts can rely on (also listed in every subcommand's --help).
enum ExitCode : int {
    ExitOk = 0,
    ExitNotAcquired = 1,       // lock not acquired / not held / not released: the nodes answered "no"
    ExitUsage = 2,             // bad arguments or configuration; nothing was sent to any node
    ExitNoQuorumReachable = 3, // too many nodes unreachable (connection errors, timeouts) to form a quorum
    ExitSevereFinding = 4,     // audit: at least one severe finding
    ExitOutputFailed = 5,      // the result could not be written to stdout (acquire: the lock was released)
};

// The translation context of the messages every command shares: usage, node options, result tables.
class CommandLine
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::CommandLine)
};

// The exit code paragraph shown in --help.
QString exitCodeHelp();

// Parses args (args[0] = "redlock <name>") and handles --help. Returns false when the command should not
// run, with the exit code in *exitCode (ExitOk after --help, ExitUsage after an error printed to stderr).
// usage is the synopsis without the program name, e.g. "acquire [options] --nodes LIST RESOURCE...".
// exitCodes replaces the general exit code paragraph in --help for a command whose codes mean more.
// An option that takes a value may be given once: a second one is an error, never "the last one wins".
bool parseArguments(QCommandLineParser& parser, const QStringList& args, const QString& usage,
                    const QString& description, int* exitCode, const QString& exitCodes = QString());

// Integer / floating point option with a range check; on error prints it and returns false.
bool intOption(const QCommandLineParser& parser, const QString& name, qint64 min, qint64 max, qint64* value);
bool doubleOption(const QCommandLineParser& parser, const QString& name, double min, double max, double* value);

// --nodes, --password-env, --user: the node list shared by every command that talks to nodes.
void addNodeOptions(QCommandLineParser& parser);
// Parses the node options; prints the error and returns nullopt on a bad list or a missing variable.
std::optional<QList<NodeEndpoint>> nodesFromOptions(const QCommandLineParser& parser);

// stdout / stderr, UTF-8, flushed per line so that scripts reading a pipe see lines at once.
void printOut(const QString& line);
void printErr(const QString& line);
void printJson(const QJsonObject& object);
// True when stdout could not take everything written to it (a full disk, /dev/full, a closed file):
// flushes first. The caller must not report success for output nobody got.
bool outputFailed();

// Aligned text table: the first row is the header.
QString formatTable(const QList<QStringList>& rows, const QString& indent = QStringLiteral("  "));

// A text table written row by row, for tables as large as the data (inspect): each column is as wide as its
// widest cell up to its cap, and a longer cell is elided ("…"). A line stays bounded whatever the keys and
// values are, and no row is kept: measure() every row in a first pass, then line() each in a second.
class TextTable
{
public:
    // One cap per column; -1 = no cap.
    explicit TextTable(QList<int> caps, QString indent = {});
    void measure(const QStringList& row);
    QString line(const QStringList& row) const;

private:
    QList<int> m_caps;
    QList<qsizetype> m_widths;
    QString m_indent;
};

// The text cut to at most `width` characters, the last one "…" when something was cut (never half of a
// surrogate pair). For text that is already printable (see printableBytes).
QString elide(const QString& text, qsizetype width);

// A stable, untranslated identifier for scripts ("acquired", "held-by-other", ...).
QString outcomeKindKey(NodeOutcome::Kind kind);
QJsonObject outcomeToJson(const NodeOutcome& outcome, const QList<NodeEndpoint>& nodes);
// Rows of a per-node table (without the header) and its header.
QStringList outcomeTableHeader();
QList<QStringList> outcomeTableRows(const QList<NodeOutcome>& outcomes, const QList<NodeEndpoint>& nodes);

// True when so many nodes timed out or could not be reached that the others cannot form a quorum.
bool quorumUnreachable(const QList<NodeOutcome>& outcomes, int quorum);

// Waits for a future that completes on this thread's event loop (the client lives on this thread).
template <typename T> std::optional<T> awaitOnThisThread(const QFuture<T>& future)
{
    if (!future.isFinished()) {
        QEventLoop loop;
        QFutureWatcher<T> watcher;
        QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(future);
        if (!future.isFinished())
            loop.exec();
    }
    if (future.resultCount() == 0)
        return std::nullopt;
    return future.result();
}

} // namespace redlock::cli
