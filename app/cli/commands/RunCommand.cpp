#include "cli/CommandLine.h"
#include "cli/Commands.h"

#include "redlock/LockKeeper.h"
#include "redlock/RedlockClient.h"
#include "runtime/StopSignals.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTimer>

#include <csignal>
#include <optional>
#include <sys/types.h>
#include <unistd.h>

namespace redlock::cli {

// The translation context of this file's messages.
class RunCommand
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::RunCommand)
};

namespace {

// What a shell returns for a command it could not start (POSIX: 127 not found, 126 found but not executable).
constexpr int kExitCommandNotFound = 127;
constexpr int kExitCommandNotExecutable = 126;

enum class OnLost { Term, Kill, None };

struct RunSettings
{
    RedlockOptions options;
    qint64 ttlMs = 10000;
    qint64 waitMs = 0;
    bool fencing = false;
    OnLost onLost = OnLost::Term;
    QByteArray key;
    QString program; // resolved path
    QStringList arguments;
};

QString exitCodes()
{
    return RunCommand::tr("Exit codes:\n"
                          "  the command's own exit status, or 128+N if it died of signal N (as shells report it)\n"
                          "  1    the lock was not acquired within --wait (the command did not run)\n"
                          "  2    usage or configuration error (nothing was sent to any node)\n"
                          "  3    no quorum reachable: too many nodes timed out or refused the connection\n"
                          "  8    the lock was lost while the command ran (whatever the command's own status)\n"
                          "  126  the command was found but could not be started\n"
                          "  127  the command was not found\n"
                          "An acquired lock is released when the command ends, whatever the exit code.\n");
}

// The command's path, as execvp would find it; an error message and the exit code when it cannot run.
bool resolveProgram(const QString& name, QString* path, int* exitCode)
{
    const QString found = name.contains(u'/') ? name : QStandardPaths::findExecutable(name);
    const QFileInfo info(found);
    if (found.isEmpty() || !info.exists()) {
        printDiagnostic(RunCommand::tr("%1: command not found").arg(printableText(name, 200)));
        *exitCode = kExitCommandNotFound;
        return false;
    }
    if (info.isDir() || !info.isExecutable()) {
        printDiagnostic(RunCommand::tr("%1: not an executable file").arg(printableText(name, 200)));
        *exitCode = kExitCommandNotExecutable;
        return false;
    }
    *path = found;
    return true;
}

// Parses everything before "--" and the command after it. Returns false when the command should not run.
bool readSettings(const QStringList& args, RunSettings* settings, int* exitCode)
{
    QCommandLineParser parser;
    addNodeOptions(parser);
    parser.addOption({QStringLiteral("ttl"),
                      RunCommand::tr("Time to live in milliseconds (default 10000). The lock is extended by this much "
                                     "each time a third of it is left, for as long as the command runs."),
                      RunCommand::tr("MS"), QStringLiteral("10000")});
    parser.addOption({QStringLiteral("wait"),
                      RunCommand::tr("Keep trying to acquire for up to MS milliseconds (default 0: one attempt)."),
                      RunCommand::tr("MS"), QStringLiteral("0")});
    parser.addOption({{QStringLiteral("retry-delay"), QStringLiteral("retryDelay")},
                      RunCommand::tr("Base wait between attempts in ms (default 200)."),
                      RunCommand::tr("MS")});
    parser.addOption({QStringLiteral("jitter"),
                      RunCommand::tr("Random extra wait of 0..MS between attempts (default 100)."),
                      RunCommand::tr("MS")});
    parser.addOption({{QStringLiteral("drift-factor"), QStringLiteral("driftFactor")},
                      RunCommand::tr("Clock drift allowance: drift = ttl * F + 2 ms (default 0.01)."),
                      RunCommand::tr("F")});
    parser.addOption({QStringLiteral("node-timeout"),
                      RunCommand::tr("Per-node timeout in milliseconds, small against the TTL (default 50)."),
                      RunCommand::tr("MS")});
    parser.addOption({QStringLiteral("client-name"),
                      RunCommand::tr("Name written into the lock token and CLIENT SETNAME (default: redlock-run)."),
                      RunCommand::tr("NAME"), QStringLiteral("redlock-run")});
    parser.addOption({QStringLiteral("fencing"),
                      RunCommand::tr("Also issue a fencing token, passed to the command as REDLOCK_FENCING_TOKEN.")});
    parser.addOption({QStringLiteral("on-lost"),
                      RunCommand::tr("What the command gets when the lock is lost: term (SIGTERM, the default), kill "
                                     "(SIGKILL) or none. Either way redlock waits for it to end and exits 8."),
                      RunCommand::tr("ACTION"), QStringLiteral("term")});
    parser.addPositionalArgument(QStringLiteral("key"), RunCommand::tr("The lock key."), RunCommand::tr("KEY"));
    parser.addPositionalArgument(QStringLiteral("command"),
                                 RunCommand::tr("The command to run while holding the lock."),
                                 RunCommand::tr("-- COMMAND [ARG...]"));

    // Everything after the first "--" is the command's, options included; the parser sees only what comes before.
    const qsizetype separator = args.indexOf(QStringLiteral("--"), 1);
    const QStringList ours = separator < 0 ? args : args.mid(0, separator);
    if (!parseArguments(
            parser, ours, RunCommand::tr("run [options] --nodes LIST KEY -- COMMAND [ARG...]"),
            RunCommand::tr(
                "Run a command while holding a Redlock lock, like flock(1) across machines: acquire KEY (trying for "
                "up to --wait ms), start the command with REDLOCK_TOKEN (and, with --fencing, "
                "REDLOCK_FENCING_TOKEN) in its environment, extend the lock automatically while it runs, and "
                "release it when the command ends.\n\n"
                "If an extension fails (the nodes lost the key, or too many cannot be reached) the lock counts as "
                "lost a safety margin (a tenth of the TTL) before its validity ends: the command gets --on-lost's "
                "signal, so that it can stop touching the resource before another holder may take it, and redlock "
                "exits 8 once it has ended. SIGINT, SIGTERM and SIGHUP sent to redlock are passed on to the "
                "command (Ctrl+C at the terminal reaches it directly). stdin, stdout and stderr are the command's; "
                "redlock's own messages go to stderr."),
            exitCode, exitCodes()))
        return false;
    *exitCode = ExitUsage;
    if (separator < 0) {
        printDiagnostic(RunCommand::tr("give the command after \"--\": redlock run [options] KEY -- COMMAND"));
        return false;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printDiagnostic(RunCommand::tr("name exactly one lock key before \"--\""));
        return false;
    }
    if (positional.first().isEmpty()) {
        printDiagnostic(RunCommand::tr("a resource name cannot be empty"));
        return false;
    }
    settings->key = positional.first().toUtf8();
    const QStringList command = args.mid(separator + 1);
    if (command.isEmpty() || command.first().isEmpty()) {
        printDiagnostic(RunCommand::tr("no command given after \"--\""));
        return false;
    }

    auto nodes = nodesFromOptions(parser);
    if (!nodes)
        return false;
    RedlockOptions& o = settings->options;
    o.nodes = *nodes;
    o.clientName = parser.value(QStringLiteral("client-name"));
    qint64 nodeTimeout = o.nodeTimeoutMs;
    qint64 retryDelay = o.retryDelayMs;
    qint64 jitter = o.retryJitterMs;
    if (!intOption(parser, QStringLiteral("ttl"), 1, 365LL * 24 * 3600 * 1000, &settings->ttlMs) ||
        !intOption(parser, QStringLiteral("wait"), 0, 365LL * 24 * 3600 * 1000, &settings->waitMs) ||
        !intOption(parser, QStringLiteral("node-timeout"), 1, 600000, &nodeTimeout) ||
        !intOption(parser, QStringLiteral("retry-delay"), 0, 3600000, &retryDelay) ||
        !intOption(parser, QStringLiteral("jitter"), 0, 3600000, &jitter) || !driftFactorOption(parser, &o.driftFactor))
        return false;
    o.nodeTimeoutMs = static_cast<int>(nodeTimeout);
    o.retryDelayMs = static_cast<int>(retryDelay);
    o.retryJitterMs = static_cast<int>(jitter);
    o.retryCount = 0; // run retries itself, until --wait runs out
    settings->fencing = parser.isSet(QStringLiteral("fencing"));
    const QString onLost = parser.value(QStringLiteral("on-lost"));
    if (onLost == u"term") {
        settings->onLost = OnLost::Term;
    } else if (onLost == u"kill") {
        settings->onLost = OnLost::Kill;
    } else if (onLost == u"none") {
        settings->onLost = OnLost::None;
    } else {
        printDiagnostic(
            RunCommand::tr("--on-lost takes term, kill or none, not \"%1\"").arg(printableText(onLost, 50)));
        return false;
    }

    const ConfigCheck check = RedlockClient::validate(o, settings->ttlMs);
    for (const QString& warning : check.warnings)
        printDiagnostic(RunCommand::tr("warning: %1").arg(printableText(warning, -1)));
    for (const QString& error : check.errors)
        printDiagnostic(RunCommand::tr("configuration error: %1").arg(printableText(error, -1)));
    if (!check.ok())
        return false;

    // Before anything is locked: a typo in the command must not hold the lock (and fail) first.
    if (!resolveProgram(command.first(), &settings->program, exitCode))
        return false;
    settings->arguments = command.mid(1);
    return true;
}

// Waits on this thread's event loop for ms milliseconds, or less if a stop signal comes.
void pause(qint64 ms, const StopSignals& stopSignals)
{
    QEventLoop loop;
    QTimer::singleShot(std::chrono::milliseconds(ms), &loop, &QEventLoop::quit);
    QObject::connect(&stopSignals, &StopSignals::received, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    loop.exec();
}

// The exit status a shell would report for the finished process.
int shellStatus(const QProcess& process)
{
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : 128 + process.exitCode();
}

} // namespace

int runRun(const QStringList& args)
{
    RunSettings settings;
    int exitCode = ExitOk;
    if (!readSettings(args, &settings, &exitCode))
        return exitCode;

    // Installed before the first attempt: Ctrl+C while waiting for the lock stops waiting.
    StopSignals stopSignals;
    int stopSignal = 0;
    QObject::connect(&stopSignals, &StopSignals::received, &stopSignals, [&stopSignal](int s) { stopSignal = s; });

    RedlockClient client(settings.options);
    AcquireOptions acquireOptions;
    acquireOptions.ttlMs = settings.ttlMs;
    acquireOptions.retryCount = 0;
    acquireOptions.fencing = settings.fencing;
    const QString keyText = u'"' + printableBytes(settings.key) + u'"';
    const qint64 deadlineNs = client.nowNs() + settings.waitMs * 1'000'000;
    AcquireResult acquired;
    for (;;) {
        acquired = awaitOnThisThread(client.acquire(settings.key, acquireOptions)).value_or(AcquireResult{});
        if (acquired.ok || stopSignal != 0)
            break;
        const qint64 delayMs = settings.options.retryDelayMs +
                               (settings.options.retryJitterMs > 0
                                    ? QRandomGenerator::global()->bounded(settings.options.retryJitterMs + 1)
                                    : 0);
        if (client.nowNs() + delayMs * 1'000'000 >= deadlineNs)
            break;
        pause(delayMs, stopSignals);
        if (stopSignal != 0)
            break;
    }
    if (stopSignal != 0) {
        if (acquired.ok)
            awaitOnThisThread(client.release(acquired.lock));
        awaitOnThisThread(client.whenIdle());
        printDiagnostic(RunCommand::tr("stopped by signal %1 before the command started").arg(stopSignal));
        return 128 + stopSignal;
    }
    if (!acquired.ok) {
        const QList<NodeOutcome> lastNodes =
            acquired.attempts.isEmpty() ? QList<NodeOutcome>{} : acquired.attempts.last().nodes;
        printDiagnostic(RunCommand::tr("not acquired %1: %2")
                            .arg(keyText, printableText(acquired.error.isEmpty() ? RunCommand::tr("the client stopped")
                                                                                 : acquired.error,
                                                        500)));
        awaitOnThisThread(client.whenIdle());
        return quorumUnreachable(lastNodes, client.quorum()) ? ExitNoQuorumReachable : ExitNotAcquired;
    }

    LockKeeper keeper(&client, acquired.lock);
    bool lost = false;
    QProcess child;
    child.setProgram(settings.program);
    child.setArguments(settings.arguments);
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    child.setInputChannelMode(QProcess::ForwardedInputChannel);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("REDLOCK_TOKEN"), QString::fromUtf8(acquired.lock.token));
    if (acquired.lock.fencingToken >= 0)
        environment.insert(QStringLiteral("REDLOCK_FENCING_TOKEN"), QString::number(acquired.lock.fencingToken));
    child.setProcessEnvironment(environment);

    const auto signalChild = [&child](int signalNumber) {
        const qint64 pid = child.processId();
        if (pid > 0 && child.state() == QProcess::Running)
            ::kill(static_cast<pid_t>(pid), signalNumber);
    };
    QEventLoop loop;
    QObject::connect(&keeper, &LockKeeper::lost, &loop, [&](const QString& reason) {
        lost = true;
        const char* action =
            settings.onLost == OnLost::Term
                ? QT_TRANSLATE_NOOP("redlock::cli::RunCommand", "sending SIGTERM to the command")
            : settings.onLost == OnLost::Kill
                ? QT_TRANSLATE_NOOP("redlock::cli::RunCommand", "sending SIGKILL to the command")
                : QT_TRANSLATE_NOOP("redlock::cli::RunCommand", "the command goes on (--on-lost none)");
        printDiagnostic(RunCommand::tr("the lock on %1 is lost (%2): %3")
                            .arg(keyText, printableText(reason, 500), RunCommand::tr(action)));
        if (settings.onLost == OnLost::Term)
            signalChild(SIGTERM);
        else if (settings.onLost == OnLost::Kill)
            signalChild(SIGKILL);
    });
    // Passed on rather than acted upon: the command decides how to stop, and the lock is released once it has.
    // Except Ctrl+C at a terminal we run in the foreground of: the terminal sent it to the command already
    // (the same process group), and a second SIGINT reads as "press again to force" to some programs.
    const bool foregroundOfTerminal = ::isatty(STDIN_FILENO) && ::tcgetpgrp(STDIN_FILENO) == ::getpgrp();
    QObject::connect(&stopSignals, &StopSignals::received, &loop, [&](int signalNumber) {
        if (!(signalNumber == SIGINT && foregroundOfTerminal))
            signalChild(signalNumber);
    });
    QObject::connect(&child, &QProcess::finished, &loop, &QEventLoop::quit);

    // The acquire may have taken so long that little validity is left: the command must not start on a lock
    // that is about to lapse.
    if (!keeper.isHeld()) {
        printDiagnostic(RunCommand::tr("the lock on %1 was acquired with too little validity left to run the command")
                            .arg(keyText));
        awaitOnThisThread(client.release(acquired.lock));
        awaitOnThisThread(client.whenIdle());
        return ExitLockLost;
    }
    keeper.start();
    child.start();
    if (!child.waitForStarted(-1)) {
        printDiagnostic(RunCommand::tr("cannot start %1: %2")
                            .arg(printableText(settings.program, 200), printableText(child.errorString(), 500)));
        keeper.stop();
        awaitOnThisThread(client.release(acquired.lock));
        awaitOnThisThread(client.whenIdle());
        return kExitCommandNotExecutable;
    }
    if (child.state() == QProcess::Running)
        loop.exec();
    // Ended while the clock still says held, or it did not all run under the lock.
    lost = lost || !keeper.isHeld();
    const Lock lastLock = keeper.lock();
    keeper.stop();
    // After a loss too: compare-and-delete removes only our own leftovers from the nodes that still have them.
    const std::optional<ReleaseResult> released = awaitOnThisThread(client.release(lastLock));
    if (!lost && (!released || !released->ok)) {
        printDiagnostic(RunCommand::tr("warning: the lock on %1 was not released on a quorum (%2); it expires "
                                       "with its TTL")
                            .arg(keyText, printableText(released ? released->error : QString(), 500)));
    }
    awaitOnThisThread(client.whenIdle());
    return lost ? int(ExitLockLost) : shellStatus(child);
}

} // namespace redlock::cli
