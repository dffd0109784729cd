#include "cli/CommandLine.h"
#include "cli/Commands.h"

#include "redlock/RedlockClient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>

#include <algorithm>
#include <cerrno>
#include <limits>

namespace redlock::cli {

// The translation context of this file's messages.
class LockCommands
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::LockCommands)
};

namespace {

enum class Operation { Acquire, Extend, Release };

// What acquire, extend and release share: the nodes and the client's settings.
struct LockCommand
{
    RedlockOptions options;
    qint64 ttlMs = 10000;
    QList<QByteArray> resources;
    bool json = false;
    QStringList warnings;
};

void addClientOptions(QCommandLineParser& parser, Operation operation)
{
    addNodeOptions(parser);
    parser.addOption({QStringLiteral("ttl"),
                      operation == Operation::Extend
                          ? LockCommands::tr("New time to live in milliseconds (default 10000).")
                          : LockCommands::tr("Time to live in milliseconds (default 10000)."),
                      LockCommands::tr("MS"), QStringLiteral("10000")});
    parser.addOption({{QStringLiteral("drift-factor"), QStringLiteral("driftFactor")},
                      LockCommands::tr("Clock drift allowance: drift = ttl * F + 2 ms (default 0.01)."),
                      LockCommands::tr("F")});
    parser.addOption(
        {QStringLiteral("node-timeout"),
         LockCommands::tr("Per-node timeout in milliseconds, small against the TTL (default 50). It includes "
                          "connecting, since a CLI process starts without connections."),
         LockCommands::tr("MS")});
    parser.addOption({QStringLiteral("client-name"),
                      LockCommands::tr("Name written into the lock token and CLIENT SETNAME (default: redlock-cli)."),
                      LockCommands::tr("NAME"), QStringLiteral("redlock-cli")});
    parser.addOption({QStringLiteral("json"), LockCommands::tr("Print one JSON object instead of text.")});
    parser.addOption(
        {QStringLiteral("read-only"),
         LockCommands::tr("Read-only mode: the client refuses to write, nothing is sent to the nodes (exit code 2).")});
}

// Parses the options every lock command has; prints what is wrong and returns false on a usage error.
bool readClientOptions(const QCommandLineParser& parser, LockCommand* command)
{
    auto nodes = nodesFromOptions(parser);
    if (!nodes)
        return false;
    RedlockOptions& o = command->options;
    o.nodes = *nodes;
    o.clientName = parser.value(QStringLiteral("client-name"));
    o.readOnly = parser.isSet(QStringLiteral("read-only"));
    qint64 nodeTimeout = o.nodeTimeoutMs;
    if (!intOption(parser, QStringLiteral("ttl"), 1, 365LL * 24 * 3600 * 1000, &command->ttlMs) ||
        !intOption(parser, QStringLiteral("node-timeout"), 1, 600000, &nodeTimeout) ||
        !driftFactorOption(parser, &o.driftFactor))
        return false;
    o.nodeTimeoutMs = static_cast<int>(nodeTimeout);
    command->json = parser.isSet(QStringLiteral("json"));
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        printDiagnostic(LockCommands::tr("name at least one resource (the lock key)"));
        return false;
    }
    for (const QString& resource : positional) {
        // An unset shell variable must not lock the key "".
        if (resource.isEmpty()) {
            printDiagnostic(LockCommands::tr("a resource name cannot be empty"));
            return false;
        }
        command->resources.append(resource.toUtf8());
    }
    return true;
}

// Configuration errors refuse the command before anything is sent; warnings go to stderr (and JSON).
bool checkConfiguration(LockCommand* command)
{
    const ConfigCheck check = RedlockClient::validate(command->options, command->ttlMs);
    for (const QString& warning : check.warnings)
        printDiagnostic(LockCommands::tr("warning: %1").arg(printableText(warning, -1)));
    for (const QString& error : check.errors)
        printDiagnostic(LockCommands::tr("configuration error: %1").arg(printableText(error, -1)));
    command->warnings = check.warnings;
    return check.ok();
}

QJsonArray resourcesJson(const QList<QByteArray>& resources)
{
    QJsonArray array;
    for (const QByteArray& r : resources)
        array.append(printableBytes(r, -1));
    return array;
}

QString resourcesText(const QList<QByteArray>& resources)
{
    QStringList names;
    for (const QByteArray& r : resources)
        names << u'"' + printableBytes(r) + u'"';
    return names.join(QStringLiteral(", "));
}

QJsonArray outcomesJson(const QList<NodeOutcome>& outcomes, const QList<NodeEndpoint>& nodes)
{
    QJsonArray array;
    for (const NodeOutcome& o : outcomes)
        array.append(outcomeToJson(o, nodes));
    return array;
}

QJsonObject commonJson(const char* name, const LockCommand& command, int exitCode, const QString& error)
{
    QJsonArray nodes;
    for (const NodeEndpoint& n : command.options.nodes)
        nodes.append(n.displayName());
    QJsonObject json{{QStringLiteral("command"), QLatin1String(name)},
                     {QStringLiteral("ok"), exitCode == ExitOk},
                     {QStringLiteral("exitCode"), exitCode},
                     {QStringLiteral("resources"), resourcesJson(command.resources)},
                     {QStringLiteral("nodes"), nodes},
                     {QStringLiteral("quorum"), rules::quorum(static_cast<int>(command.options.nodes.size()))},
                     {QStringLiteral("warnings"), QJsonArray::fromStringList(command.warnings)}};
    if (!error.isEmpty())
        json.insert(QStringLiteral("error"), error);
    return json;
}

// The wall-clock instant a steady-clock deadline corresponds to, for output other processes can use.
qint64 toEpochMs(qint64 steadyDeadlineNs, qint64 steadyNowNs)
{
    return QDateTime::currentMSecsSinceEpoch() + (steadyDeadlineNs - steadyNowNs) / 1'000'000;
}

int exitCodeFor(const RedlockOptions& options, bool ok, const QList<NodeOutcome>& outcomes, int quorum)
{
    if (ok)
        return ExitOk;
    if (options.readOnly)
        return ExitUsage; // the client refused every write: nothing was sent
    return quorumUnreachable(outcomes, quorum) ? ExitNoQuorumReachable : ExitNotAcquired;
}

// The nodes still to answer when the quorum decided: the command waits for them before it exits, but their
// answers come after the line was written. Said on it, so that "3 of 5" does not read as 2 failures.
QString undecidedNote(const QList<NodeOutcome>& outcomes)
{
    const auto pending = std::count_if(outcomes.cbegin(), outcomes.cend(),
                                       [](const NodeOutcome& o) { return o.kind == NodeOutcome::Kind::NoAnswerYet; });
    return pending == 0
               ? QString()
               : LockCommands::tr("; %n more had not answered when it was decided", nullptr, static_cast<int>(pending));
}

QString tokenHelp()
{
    return LockCommands::tr("The lock's token, as printed by 'redlock acquire' (the whole value stored in the keys).");
}

// A failed write to stdout after what the reader came for was written (`acquire | head -2` stops reading after
// the token line): the command's result stands. A reader that left says nothing more (EPIPE, as a filter on
// SIGPIPE); any other error is worth a warning.
void excuseLaterOutputFailure(const QString& whatWasWritten)
{
    if (outputErrno() != EPIPE)
        printDiagnostic(LockCommands::tr("warning: the output after %1 could not be written: %2")
                            .arg(whatWasWritten, outputError()));
    excuseOutputFailure();
}

// Returns whether the token reached stdout: the whole JSON object, or the text's first two lines (the summary
// and "token: ..."), written and flushed before anything else. The per-node tables come after them, so a
// reader that stops at the token line (`head -2`, `grep -m1 token:`) has the token whatever becomes of the
// rest.
bool printAcquire(const LockCommand& command, const AcquireResult& result, int exitCode, int quorum, qint64 now)
{
    const QList<NodeEndpoint>& nodes = command.options.nodes;
    if (command.json) {
        QJsonObject json = commonJson("acquire", command, exitCode, result.error);
        json.insert(QStringLiteral("ttlMs"), command.ttlMs);
        json.insert(QStringLiteral("totalElapsedUs"), result.totalElapsedUs);
        if (result.ok) {
            json.insert(QStringLiteral("token"), QString::fromUtf8(result.lock.token));
            json.insert(QStringLiteral("validityMs"), result.lock.remainingValidityMs(now));
            json.insert(QStringLiteral("validUntilEpochMs"), toEpochMs(result.lock.validUntilNs, now));
            json.insert(QStringLiteral("driftMs"), result.lock.driftMs);
            if (result.lock.fencingToken >= 0)
                json.insert(QStringLiteral("fencingToken"), result.lock.fencingToken);
        }
        QJsonArray attempts;
        for (const AcquireAttempt& a : std::as_const(result.attempts)) {
            QJsonObject attempt{{QStringLiteral("number"), a.number},
                                {QStringLiteral("acquiredCount"), a.acquiredCount},
                                {QStringLiteral("quorumReached"), a.quorumReached},
                                {QStringLiteral("elapsedUs"), a.elapsedUs},
                                {QStringLiteral("validityMs"), a.validityMs},
                                {QStringLiteral("outcomes"), outcomesJson(a.nodes, nodes)}};
            if (!a.fenceWriteNodes.isEmpty())
                attempt.insert(QStringLiteral("fenceWriteOutcomes"), outcomesJson(a.fenceWriteNodes, nodes));
            attempts.append(attempt);
        }
        json.insert(QStringLiteral("attempts"), attempts);
        return printJson(json);
    }

    bool tokenWritten = false;
    if (result.ok) {
        // One arg() call for the whole line: a resource named "%2" must not take the next value's place.
        printOut(LockCommands::tr("acquired %1 on %2 of %3 nodes (quorum %4%5): validity %6 ms")
                     .arg(resourcesText(command.resources), QString::number(result.attempts.last().acquiredCount),
                          QString::number(nodes.size()), QString::number(quorum),
                          undecidedNote(result.attempts.last().nodes),
                          QString::number(result.lock.remainingValidityMs(now))));
        tokenWritten = printOut(LockCommands::tr("token: %1").arg(printableBytes(result.lock.token, -1)));
        if (result.lock.fencingToken >= 0)
            printOut(LockCommands::tr("fencing token: %1").arg(result.lock.fencingToken));
    } else {
        printOut(LockCommands::tr("not acquired %1: %2")
                     .arg(resourcesText(command.resources), printableText(result.error, 500)));
    }
    for (const AcquireAttempt& a : std::as_const(result.attempts)) {
        printOut(LockCommands::tr("attempt %1: %2 of %3 nodes in %4 µs")
                     .arg(a.number)
                     .arg(a.acquiredCount)
                     .arg(nodes.size())
                     .arg(a.elapsedUs));
        QList<QStringList> rows{outcomeTableHeader()};
        rows << outcomeTableRows(a.nodes, nodes);
        writeOut(formatTable(rows).toUtf8());
        if (!a.fenceWriteNodes.isEmpty()) {
            printOut(LockCommands::tr("fencing token write-back:"));
            QList<QStringList> fenceRows{outcomeTableHeader()};
            fenceRows << outcomeTableRows(a.fenceWriteNodes, nodes);
            writeOut(formatTable(fenceRows).toUtf8());
        }
    }
    return tokenWritten;
}

} // namespace

int runAcquire(const QStringList& args)
{
    QCommandLineParser parser;
    addClientOptions(parser, Operation::Acquire);
    // node-redlock's option names as aliases (docs/guide.md, "Coming from redis-cli or node-redlock", has the table).
    parser.addOption({{QStringLiteral("retry"), QStringLiteral("retryCount")},
                      LockCommands::tr("Attempts after the first (default 3)."),
                      LockCommands::tr("N")});
    parser.addOption({{QStringLiteral("retry-delay"), QStringLiteral("retryDelay")},
                      LockCommands::tr("Base wait between attempts in ms (default 200)."),
                      LockCommands::tr("MS")});
    parser.addOption({QStringLiteral("jitter"),
                      LockCommands::tr("Random extra wait of 0..MS between attempts (default 100)."),
                      LockCommands::tr("MS")});
    parser.addOption({QStringLiteral("retryJitter"),
                      LockCommands::tr("node-redlock's jitter: wait --retry-delay ± MS between attempts (instead of "
                                       "--jitter; MS at most --retry-delay)."),
                      LockCommands::tr("MS")});
    parser.addOption({QStringLiteral("fencing"),
                      LockCommands::tr("Also issue a fencing token that strictly increases across acquisitions of the "
                                       "resource(s) while a majority of nodes keep their data.")});
    parser.addPositionalArgument(
        QStringLiteral("resource"),
        LockCommands::tr("Lock key(s). Several resources make one lock over all of them (all or "
                         "nothing on each node)."),
        LockCommands::tr("RESOURCE..."));
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, LockCommands::tr("acquire [options] --nodes LIST RESOURCE..."),
            LockCommands::tr("Acquire a Redlock lock: the same random token is set with NX PX on all nodes at "
                             "once; the lock is held when a quorum (N/2+1) set it and validity (ttl - elapsed - "
                             "drift) is left. A failed attempt is undone on all nodes. Prints the token that "
                             "extend and release need.") +
                QStringLiteral("\n\n") +
                LockCommands::tr("The text output starts with the result line and the \"token:\" line, each written "
                                 "and flushed before the rest: once the token line is written the lock is the "
                                 "caller's, even when the rest cannot be (`| head -2` and `| grep -m1 token:` keep the "
                                 "lock, exit 0). If the token line itself cannot be written (`> /dev/full`, a reader "
                                 "gone before it), nobody has the token: the lock is released again (exit 5). --json "
                                 "is one object: the lock is kept only when all of it was written."),
            &exitCode))
        return exitCode;

    LockCommand command;
    qint64 retry = command.options.retryCount;
    qint64 retryDelay = command.options.retryDelayMs;
    qint64 jitter = command.options.retryJitterMs;
    if (!readClientOptions(parser, &command) || !intOption(parser, QStringLiteral("retry"), 0, 1000, &retry) ||
        !intOption(parser, QStringLiteral("retry-delay"), 0, 3600000, &retryDelay) ||
        !intOption(parser, QStringLiteral("jitter"), 0, 3600000, &jitter))
        return ExitUsage;
    if (parser.isSet(QStringLiteral("retryJitter"))) {
        // ±J around the delay D is a wait of D-J plus 0..2J: the same uniform spread.
        if (parser.isSet(QStringLiteral("jitter"))) {
            return fail(ExitUsage, LockCommands::tr("--jitter and --retryJitter both set the jitter: give one"));
        }
        qint64 plusMinus = 0;
        if (!intOption(parser, QStringLiteral("retryJitter"), 0, retryDelay, &plusMinus))
            return ExitUsage;
        retryDelay -= plusMinus;
        jitter = 2 * plusMinus;
    }
    command.options.retryCount = static_cast<int>(retry);
    command.options.retryDelayMs = static_cast<int>(retryDelay);
    command.options.retryJitterMs = static_cast<int>(jitter);
    if (!checkConfiguration(&command))
        return ExitUsage;

    RedlockClient client(command.options);
    AcquireOptions acquireOptions;
    acquireOptions.ttlMs = command.ttlMs;
    acquireOptions.fencing = parser.isSet(QStringLiteral("fencing"));
    const std::optional<AcquireResult> maybeResult =
        awaitOnThisThread(client.acquire(command.resources, acquireOptions));
    AcquireResult result = maybeResult.value_or(AcquireResult{});
    if (!maybeResult)
        result.error = LockCommands::tr("the client stopped without a result");
    const qint64 now = client.nowNs();
    const int quorum = client.quorum();
    const QList<NodeOutcome> lastNodes =
        result.attempts.isEmpty() ? QList<NodeOutcome>{} : result.attempts.last().nodes;
    exitCode = exitCodeFor(command.options, result.ok, lastNodes, quorum);
    const bool tokenWritten = printAcquire(command, result, exitCode, quorum, now);
    if (result.ok && tokenWritten && outputFailed()) {
        // The token got out: the lock is the caller's, who will extend or release it. Only what came after
        // the token could not be written.
        excuseLaterOutputFailure(LockCommands::tr("the token"));
    } else if (result.ok && !tokenWritten) {
        // Nobody got the token, so nobody can extend or release this lock: it would only be in the way until
        // it expires. Undo it (behind the SETs on each connection) and say so.
        const QString why = outputError();
        const RoundResult undone = awaitOnThisThread(client.release(result.lock)).value_or(RoundResult{});
        printDiagnostic(
            LockCommands::tr("the token could not be written to stdout (%1): the lock was released again on %2 "
                             "of %3 nodes")
                .arg(why, QString::number(undone.succeededCount), QString::number(command.options.nodes.size())));
        awaitOnThisThread(client.whenIdle());
        return ExitOutputFailed;
    }
    // Decided by the first quorum; the slower nodes still get their SET (or the cleanup) before the exit.
    awaitOnThisThread(client.whenIdle());
    return exitCode;
}

namespace {

int runRound(const QStringList& args, Operation operation)
{
    const bool extend = operation == Operation::Extend;
    QCommandLineParser parser;
    addClientOptions(parser, operation);
    parser.addOption({QStringLiteral("token"), tokenHelp(), LockCommands::tr("TOKEN")});
    if (extend) {
        parser.addOption(
            {QStringLiteral("valid-until"),
             LockCommands::tr("The lock's current validity deadline in ms since the epoch (validUntilEpochMs of "
                              "acquire's or extend's JSON output). When given, the extension is refused or "
                              "reported lost if it cannot land before that moment."),
             LockCommands::tr("EPOCH_MS")});
    }
    parser.addPositionalArgument(QStringLiteral("resource"),
                                 LockCommands::tr("The lock's key(s), in the order given to acquire."),
                                 LockCommands::tr("RESOURCE..."));
    const QString description =
        extend ? LockCommands::tr(
                     "Extend a lock: compare-and-pexpire on all nodes; only keys that still hold the token are "
                     "renewed, and the extension succeeds only if a quorum renewed it.\n\n"
                     "The process that acquired the lock has exited, so this command cannot know how much of "
                     "the lock's validity is left. Without --valid-until it trusts you that the lock is still "
                     "valid: success means a quorum of nodes still held the token when it was renewed, not "
                     "that the lock never lapsed in between (another client may have held it meanwhile if it "
                     "had expired). The new validity is measured from the start of the extend round: "
                     "ttl - elapsed - drift.")
               : LockCommands::tr(
                     "Release a lock: compare-and-delete on all nodes; a key is deleted only if it still holds "
                     "the token, so a lock that expired and was taken by someone else is never removed. "
                     "Succeeds when a quorum of nodes held and released the token.");
    int exitCode = ExitOk;
    if (!parseArguments(parser, args,
                        extend ? LockCommands::tr("extend [options] --nodes LIST --token TOKEN RESOURCE...")
                               : LockCommands::tr("release [options] --nodes LIST --token TOKEN RESOURCE..."),
                        description, &exitCode))
        return exitCode;

    LockCommand command;
    if (!readClientOptions(parser, &command))
        return ExitUsage;
    if (parser.value(QStringLiteral("token")).isEmpty()) {
        return fail(ExitUsage, LockCommands::tr("--token is required"));
    }
    qint64 validUntilEpochMs = -1;
    if (extend && !intOption(parser, QStringLiteral("valid-until"), 0, std::numeric_limits<qint64>::max() / 2,
                             &validUntilEpochMs))
        return ExitUsage;
    if (!checkConfiguration(&command))
        return ExitUsage;

    RedlockClient client(command.options);
    Lock lock;
    lock.resources = command.resources;
    lock.token = parser.value(QStringLiteral("token")).toUtf8();
    const qint64 now = client.nowNs();
    lock.acquiredAtNs = now;
    if (validUntilEpochMs >= 0) {
        lock.validUntilNs = now + (validUntilEpochMs - QDateTime::currentMSecsSinceEpoch()) * 1'000'000;
    } else {
        // Trusted by the operator (see --help): the only deadline left is that the round itself must finish
        // within the validity the new TTL gives.
        lock.validUntilNs =
            now + (command.ttlMs - rules::clockDriftMs(command.ttlMs, command.options.driftFactor)) * 1'000'000;
    }
    lock.ttlMs = command.ttlMs;

    const std::optional<RoundResult> maybeResult =
        awaitOnThisThread(extend ? client.extend(lock, command.ttlMs) : client.release(lock));
    RoundResult result = maybeResult.value_or(RoundResult{});
    if (!maybeResult)
        result.error = LockCommands::tr("the client stopped without a result");
    const int quorum = client.quorum();
    exitCode = exitCodeFor(command.options, result.ok, result.nodes, quorum);
    const QList<NodeEndpoint>& nodes = command.options.nodes;
    const qint64 after = client.nowNs();

    bool resultWritten = false;
    if (command.json) {
        QJsonObject json = commonJson(extend ? "extend" : "release", command, exitCode, result.error);
        json.insert(QStringLiteral("token"), printableBytes(lock.token, -1));
        json.insert(QStringLiteral("succeededCount"), result.succeededCount);
        json.insert(QStringLiteral("elapsedUs"), result.elapsedUs);
        if (extend) {
            json.insert(QStringLiteral("ttlMs"), command.ttlMs);
            if (result.ok) {
                json.insert(QStringLiteral("validityMs"), result.lock.remainingValidityMs(after));
                json.insert(QStringLiteral("validUntilEpochMs"), toEpochMs(result.lock.validUntilNs, after));
            }
        }
        json.insert(QStringLiteral("outcomes"), outcomesJson(result.nodes, nodes));
        resultWritten = printJson(json);
    } else if (result.ok && extend) {
        resultWritten =
            printOut(LockCommands::tr("extended %1 on %2 of %3 nodes (quorum %4%5): validity %6 ms")
                         .arg(resourcesText(command.resources), QString::number(result.succeededCount),
                              QString::number(nodes.size()), QString::number(quorum), undecidedNote(result.nodes),
                              QString::number(result.lock.remainingValidityMs(after))));
    } else if (result.ok) {
        resultWritten = printOut(LockCommands::tr("released %1 on %2 of %3 nodes (quorum %4)")
                                     .arg(resourcesText(command.resources), QString::number(result.succeededCount),
                                          QString::number(nodes.size()), QString::number(quorum)));
    } else {
        resultWritten =
            printOut((extend ? LockCommands::tr("not extended %1: %2") : LockCommands::tr("not released %1: %2"))
                         .arg(resourcesText(command.resources), printableText(result.error, 500)));
    }
    if (!command.json) {
        QList<QStringList> rows{outcomeTableHeader()};
        rows << outcomeTableRows(result.nodes, nodes);
        writeOut(formatTable(rows).toUtf8());
    }
    // The first line is the result (the lock's new validity, or that it was released); the table under it is
    // the detail a reader may not want (`extend ... | head -1`).
    if (resultWritten && outputFailed())
        excuseLaterOutputFailure(LockCommands::tr("the result line"));
    // An extend is decided by the first quorum: the slower nodes still get their PEXPIRE before the exit.
    awaitOnThisThread(client.whenIdle());
    return exitCode;
}

} // namespace

int runExtend(const QStringList& args)
{
    return runRound(args, Operation::Extend);
}

int runRelease(const QStringList& args)
{
    return runRound(args, Operation::Release);
}

} // namespace redlock::cli
