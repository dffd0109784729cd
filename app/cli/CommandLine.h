#pragma once

#include "observe/ObservationTypes.h" // printableBytes / printableText: every untrusted byte shown goes through them
#include "protocol/NodeEndpoint.h"
#include "redlock/RedlockTypes.h"

#include <QByteArrayView>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFuture>
#include <QFutureWatcher>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
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
    // stdout failed or its reader has gone before the result was written (acquire: before the token line, and
    // the lock was released again); watch and inspect stop at once when their reader goes
    ExitOutputFailed = 5,
    // force-release only (its --help has the table of its outcomes and their codes)
    ExitHeldByOther = 6,       // another token holds the lock on a quorum: left to its holder, not freed
    ExitReleasedPartially = 7, // released on some nodes; others may still hold the token
    // run only: the lock was lost while the command ran (the command got --on-lost's signal)
    ExitLockLost = 8,
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
// --drift-factor, checked by the one rule (rules::driftFactorError): every command takes the same range.
bool driftFactorOption(const QCommandLineParser& parser, double* value);

// --nodes, --password-env, --user and the TLS options (redis-cli's --tls, --cacert, --cacertdir, --cert, --key,
// --sni, --insecure): the node list shared by every command that talks to nodes. keyOption = false leaves the
// TLS key as --tls-key only, for a command whose --key is something else.
// redis-cli's habits too: -u (= --nodes), -h/-p (instead of --nodes: one host and a list of ports, or a list of
// hosts and one port), -a/--pass with redis-cli's warning, REDISCLI_AUTH, -n DB. -h is then the host, and
// parseArguments() keeps --help (and a bare -h) for help.
void addNodeOptions(QCommandLineParser& parser, bool keyOption = true);
// Parses the node options; prints the error and returns nullopt on a bad list or a missing variable.
std::optional<QList<NodeEndpoint>> nodesFromOptions(const QCommandLineParser& parser);

// stdout / stderr, UTF-8, flushed per line so that scripts reading a pipe see lines at once.
// Every write to stdout goes through writeOut (printOut, printJson too). It returns false when stdout has
// failed, by this write or an earlier one: a failed stdout stays failed and nothing more is written to it
// (a reader that has gone does not come back). Any thread may write.
bool writeOut(QByteArrayView bytes);
// Called first in main(): a standard descriptor the parent left closed (0, 1 or 2) is held by /dev/null, so the
// first socket or file the process opens cannot take its number and receive what is meant for stdout (a JSON
// report written into a Redis connection). A closed stdout counts as failed output (EBADF) from the start.
void holdClosedStandardDescriptors();
bool printOut(const QString& line);
// One line on stderr, without terminal control characters (a key or a node's error is untrusted text).
void printErr(const QString& line);
// What every message of redlock's own on stderr starts with ("redlock: --ttl expects ..."). Added here, in one
// place, so that no translated message carries it (and no translation can lose or alter it).
inline constexpr QLatin1StringView kDiagnosticPrefix("redlock: ");
// One message of redlock's own on stderr: the prefix, then `message` (printErr writes it).
void printDiagnostic(const QString& message);
// How a command fails: the message (as printDiagnostic writes it) on stderr, and the exit code the command returns
// (ExitCode: the one table of codes, documented in --help and docs/cli.md). `return fail(ExitUsage, ...);`
[[nodiscard]] int fail(ExitCode code, const QString& message);
bool printJson(const QJsonObject& object);
bool printJsonLine(const QJsonObject& object); // compact, one line (JSON Lines)
// True when stdout could not take everything written to it (a full disk, /dev/full, a reader that has gone):
// flushes first. The caller must not report success for output nobody got.
bool outputFailed();
// Why stdout failed ("Broken pipe", "No space left on device"): the errno of the write that failed, kept when
// it failed (errno itself is long overwritten by the time the command ends).
QString outputError();
// outputFailed(), and also true when nothing written from now on could reach anyone, found without writing:
// stdout closed, or a pipe whose reader has already gone. A destructive command asks this before it acts, so
// a script never loses the report of a change it made (a full disk is found only by a write: the text preview).
bool outputCannotReachAnyone();
int outputErrno(); // 0 while stdout works
// True once anything was written to stdout through writeOut.
bool outputWritten();
// The lines printErr wrote so far (the first 50), for a JSON error object when a --json command fails before
// it could write its own.
QStringList errorLines();
// The command has dealt with a failed stdout itself: what mattered had been written before it failed
// (acquire: the token line), so main() keeps the command's exit code instead of ExitOutputFailed.
void excuseOutputFailure();
bool outputFailureExcused();

// While the returned object lives, `loop` quits as soon as the reader of stdout is gone: at the first write to
// stdout that fails (from any thread), and, when stdout is a pipe, as soon as its reader has closed it, without
// waiting for something to write (`redlock watch | head -1` ends with head). outputFailed() is true then.
// Like a Unix filter on SIGPIPE, but the command still ends cleanly (the journal is flushed) and exits
// ExitOutputFailed.
[[nodiscard]] std::unique_ptr<QObject> quitWhenOutputFails(QEventLoop* loop);

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
