#include "CommandLine.h"
#include "Commands.h"

#include "observe/ObservationTypes.h"
#include "operate/AuditLog.h"
#include "operate/ForceRelease.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QTextStream>

#include <cstdio>
#include <unistd.h>

namespace redlock::cli {

// The translation context of this file's messages.
class OperatorCommands
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::OperatorCommands)
};

namespace {

QJsonArray nodesJson(const ForceReleaseReport& report, const QList<NodeEndpoint>& nodes)
{
    QJsonArray array;
    for (const ForceReleaseNode& n : report.nodes) {
        QJsonObject o{{QStringLiteral("node"), n.node},
                      {QStringLiteral("endpoint"), nodes.value(n.node).displayName()},
                      {QStringLiteral("result"), forceReleaseKindId(n.kind)}};
        if (!n.foundType.isEmpty())
            o.insert(QStringLiteral("type"), printableText(n.foundType, -1));
        if (!n.foundToken.isNull())
            o.insert(QStringLiteral("foundToken"), printableBytes(n.foundToken, -1));
        if (n.pttlMs > -3)
            o.insert(QStringLiteral("pttlMs"), n.pttlMs);
        if (n.lockDelayMs > 0)
            o.insert(QStringLiteral("lockDelayMs"), n.lockDelayMs);
        if (n.lockDelayRaised)
            o.insert(QStringLiteral("lockDelayRaised"), true);
        if (!n.error.isEmpty())
            o.insert(QStringLiteral("error"), printableText(n.error, -1));
        if (n.latencyUs >= 0)
            o.insert(QStringLiteral("latencyUs"), n.latencyUs);
        array.append(o);
    }
    return array;
}

QJsonObject reportJson(const ForceReleaseReport& report, const QList<NodeEndpoint>& nodes)
{
    QJsonObject o{
        {QStringLiteral("nodes"), nodesJson(report, nodes)},   {QStringLiteral("matched"), report.matched()},
        {QStringLiteral("unreachable"), report.unreachable()}, {QStringLiteral("lockDelay"), report.lockDelay.id()},
        {QStringLiteral("freeInMs"), report.freeInMs},         {QStringLiteral("elapsedUs"), report.elapsedUs}};
    if (report.longestLockDelayMs() >= 0)
        o.insert(QStringLiteral("lockDelayMs"), report.longestLockDelayMs());
    if (report.lockDelayRaisedCount() > 0)
        o.insert(QStringLiteral("lockDelayRaisedNodes"), report.lockDelayRaisedCount());
    if (report.freeAtMs() >= 0)
        o.insert(QStringLiteral("freeAt"),
                 QDateTime::fromMSecsSinceEpoch(report.freeAtMs(), Qt::UTC).toString(Qt::ISODateWithMs));
    if (!report.tombstone.isEmpty())
        o.insert(QStringLiteral("tombstone"), printableBytes(report.tombstone, -1));
    if (report.refused)
        o.insert(QStringLiteral("refused"), printableText(report.error, -1));
    if (report.stage == ForceReleaseReport::Stage::Execute && !report.refused) {
        o.insert(QStringLiteral("audited"), report.audited);
        if (!report.auditError.isEmpty())
            o.insert(QStringLiteral("auditError"), printableText(report.auditError, -1));
    }
    return o;
}

void printReport(const ForceReleaseReport& report, const QList<NodeEndpoint>& nodes)
{
    QList<QStringList> rows{{OperatorCommands::tr("node"), OperatorCommands::tr("endpoint"),
                             OperatorCommands::tr("action"), OperatorCommands::tr("found"),
                             OperatorCommands::tr("PTTL ms"), OperatorCommands::tr("lock-delay ms"),
                             OperatorCommands::tr("detail")}};
    for (const ForceReleaseNode& n : report.nodes) {
        rows.append({QString::number(n.node + 1), nodes.value(n.node).displayName(), forceReleaseKindName(n.kind),
                     n.foundToken.isNull() ? printableText(n.foundType) : printableBytes(n.foundToken),
                     n.pttlMs > -3 ? QString::number(n.pttlMs) : QString(),
                     n.lockDelayMs > 0 ? QString::number(n.lockDelayMs) : QString(), printableText(n.error)});
    }
    std::fputs(formatTable(rows).toUtf8().constData(), stdout);
    std::fflush(stdout);
}

// One line under the table: how long the lock-delay lasts and when a newcomer can acquire the lock.
QString lockDelayLine(const ForceReleaseReport& report)
{
    const bool preview = report.stage == ForceReleaseReport::Stage::Preview;
    QString delay;
    switch (report.lockDelay.mode) {
    case LockDelay::Mode::Delete:
        delay = OperatorCommands::tr("lock-delay 0: the key is deleted");
        break;
    case LockDelay::Mode::Auto:
        delay = report.longestLockDelayMs() >= 0
                    ? OperatorCommands::tr("lock-delay auto (remaining validity + drift): tombstones for up to %1 ms")
                          .arg(report.longestLockDelayMs())
                    : OperatorCommands::tr("lock-delay auto (remaining validity + drift)");
        break;
    case LockDelay::Mode::Fixed:
        delay = report.lockDelayRaisedCount() > 0
                    ? OperatorCommands::tr("lock-delay %1 ms, raised to up to %2 ms on %3 node(s) to cover the "
                                           "holder's remaining validity plus drift")
                          .arg(report.lockDelay.fixedMs)
                          .arg(report.longestLockDelayMs())
                          .arg(report.lockDelayRaisedCount())
                    : OperatorCommands::tr("lock-delay %1 ms: tombstones for that long").arg(report.lockDelay.fixedMs);
        break;
    }
    QString free;
    if (report.freeInMs == 0)
        free = preview ? OperatorCommands::tr("free at once") : OperatorCommands::tr("free now");
    else if (report.freeInMs > 0)
        free = OperatorCommands::tr("free at %1 (in %2 ms)")
                   .arg(QDateTime::fromMSecsSinceEpoch(report.freeAtMs()).toString(Qt::ISODateWithMs))
                   .arg(report.freeInMs);
    else
        free = OperatorCommands::tr("free: not by itself, or unknown (nodes without expiry or unreachable)");
    return delay + QStringLiteral("; ") + free;
}

int exitFor(const ForceReleaseReport& report)
{
    if (report.refused)
        return ExitUsage;
    if (report.matched() > 0)
        return ExitOk;
    return report.unreachable() > 0 ? ExitNoQuorumReachable : ExitNotAcquired;
}

// Interactive confirmation when a person is at the terminal; scripts pass --yes.
bool confirmOnTerminal(const QByteArray& key, LockDelay lockDelay)
{
    if (!::isatty(STDIN_FILENO))
        return false;
    const QString question =
        lockDelay.mode == LockDelay::Mode::Delete
            ? OperatorCommands::tr("Type the key name to delete it where the token matches: ")
            : OperatorCommands::tr("Type the key name to release it with the lock-delay where the token matches: ");
    std::fputs(question.toUtf8().constData(), stdout);
    std::fflush(stdout);
    QTextStream in(stdin);
    return in.readLine().toUtf8() == key;
}

} // namespace

int runForceRelease(const QStringList& args)
{
    QCommandLineParser parser;
    addNodeOptions(parser);
    parser.addOption(
        {QStringLiteral("token"),
         OperatorCommands::tr("The token you saw on the lock (required): only keys that still hold it are released."),
         OperatorCommands::tr("TOKEN")});
    parser.addOption(
        {QStringLiteral("lock-delay"),
         OperatorCommands::tr("How long the released lock stays unavailable: \"auto\" (the default) replaces the token "
                              "with a tombstone for the key's remaining PTTL on each node plus the clock drift, so "
                              "the old holder's validity ends before anyone else can acquire; MS gives the tombstone "
                              "that many milliseconds, raised on a node where the key's remaining PTTL plus the "
                              "drift is longer (so MS never ends the old holder's validity early; a key without "
                              "expiry gets exactly MS); 0 deletes the key (free at once, even for a holder that is "
                              "only paused)."),
         OperatorCommands::tr("MS|auto"), QStringLiteral("auto")});
    parser.addOption({QStringLiteral("drift-factor"),
                      OperatorCommands::tr("Clock drift allowance for the lock-delay (auto, and the floor of MS): "
                                           "drift = PTTL * F + 2 ms (default 0.01)."),
                      OperatorCommands::tr("F")});
    parser.addOption(
        {QStringLiteral("dry-run"), OperatorCommands::tr("Show what each node would do; change nothing.")});
    parser.addOption(
        {QStringLiteral("yes"), OperatorCommands::tr("Execute without asking (needed when stdin is not a terminal).")});
    parser.addOption({QStringLiteral("json"), OperatorCommands::tr("Print one JSON object instead of text.")});
    parser.addOption({QStringLiteral("node-timeout"),
                      OperatorCommands::tr("Per-node timeout in milliseconds (default 2000)."),
                      OperatorCommands::tr("MS")});
    parser.addOption(
        {QStringLiteral("reason"), OperatorCommands::tr("Why, for the audit log."), OperatorCommands::tr("TEXT")});
    parser.addOption({QStringLiteral("profile"),
                      OperatorCommands::tr("Profile name written to the audit log (default: cli)."),
                      OperatorCommands::tr("NAME"), QStringLiteral("cli")});
    parser.addOption({QStringLiteral("audit-log"),
                      OperatorCommands::tr("Audit log file (JSON lines; default: %1).").arg(AuditLog::defaultPath()),
                      OperatorCommands::tr("PATH")});
    parser.addOption(
        {QStringLiteral("read-only"), OperatorCommands::tr("Refuse to change anything (the preview still runs).")});
    parser.addPositionalArgument(QStringLiteral("key"), OperatorCommands::tr("The lock key."),
                                 OperatorCommands::tr("KEY"));
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, OperatorCommands::tr("force-release [options] --nodes LIST --token TOKEN KEY"),
            OperatorCommands::tr(
                "Force release a stuck lock safely: first a preview of what each node will do (release "
                "where the token still matches; skip where another token holds the key, the key is "
                "gone or is not a string lock; unreachable), how long the lock-delay lasts and when the "
                "lock is free, then a compare-and-set with that token on every node, never a bare DEL. "
                "With a lock-delay (the default) the token is replaced by a tombstone "
                "(rl1-released:<user@host>:<unix-ms>) that expires after the lock-delay: the old holder "
                "can no longer extend or release, and no client (node-redlock, Redsync, Redisson, this "
                "one) can acquire before the old holder's validity is over (a fixed MS is raised to that "
                "where needed; a lock without expiry stays blocked for MS). A lock that changed hands in "
                "between is left to its new holder. Every execution is appended to the audit log. "
                "Redisson hash locks are reported and left alone."),
            &exitCode,
            OperatorCommands::tr("Exit codes:\n"
                                 "  0  released (tombstone or deleted) on at least one node (--dry-run: would "
                                 "release)\n"
                                 "  1  nothing matched the token (or, with --lock-delay auto, the lock has no "
                                 "expiry: give MS)\n"
                                 "  2  usage error, refused (read-only, configuration), or not confirmed: nothing was "
                                 "changed\n"
                                 "  3  nothing matched and nodes were unreachable\n"
                                 "  5  the result could not be written to stdout\n")))
        return exitCode;

    const auto nodes = nodesFromOptions(parser);
    if (!nodes)
        return ExitUsage;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printErr(OperatorCommands::tr("redlock: name exactly one lock key"));
        return ExitUsage;
    }
    const QByteArray key = positional.first().toUtf8();
    if (key.isEmpty()) {
        printErr(OperatorCommands::tr("redlock: the lock key cannot be empty"));
        return ExitUsage;
    }
    const QByteArray token = parser.value(QStringLiteral("token")).toUtf8();
    if (token.isEmpty()) {
        printErr(OperatorCommands::tr("redlock: --token is required: force release deletes only the token you saw"));
        return ExitUsage;
    }
    qint64 nodeTimeout = 2000;
    if (!intOption(parser, QStringLiteral("node-timeout"), 1, 600000, &nodeTimeout))
        return ExitUsage;
    const std::optional<LockDelay> lockDelay = LockDelay::parse(parser.value(QStringLiteral("lock-delay")));
    if (!lockDelay) {
        printErr(OperatorCommands::tr("redlock: --lock-delay takes \"auto\" or milliseconds from 0 to %1")
                     .arg(LockDelay::kMaxFixedMs));
        return ExitUsage;
    }
    double driftFactor = 0.01;
    if (!doubleOption(parser, QStringLiteral("drift-factor"), 0.0, 0.999, &driftFactor))
        return ExitUsage;
    ForceReleaseOptions options;
    options.nodes = *nodes;
    options.nodeTimeoutMs = static_cast<int>(nodeTimeout);
    options.driftFactor = driftFactor;
    options.readOnly = parser.isSet(QStringLiteral("read-only"));
    options.profileName = parser.value(QStringLiteral("profile"));
    options.auditLogPath = parser.value(QStringLiteral("audit-log"));
    const bool json = parser.isSet(QStringLiteral("json"));

    ForceRelease release(options);
    if (!release.configErrors().isEmpty()) {
        for (const QString& e : release.configErrors())
            printErr(OperatorCommands::tr("redlock: configuration error: %1").arg(e));
        return ExitUsage;
    }
    QJsonObject out{{QStringLiteral("command"), QStringLiteral("force-release")},
                    {QStringLiteral("key"), printableBytes(key, -1)},
                    {QStringLiteral("token"), printableBytes(token, -1)},
                    {QStringLiteral("lockDelay"), lockDelay->id()}};
    auto finishJson = [&out, json](int code) {
        if (json) {
            out.insert(QStringLiteral("exitCode"), code);
            out.insert(QStringLiteral("ok"), code == ExitOk);
            printJson(out);
        }
        return code;
    };

    const ForceReleaseReport preview =
        awaitOnThisThread(release.preview(key, token, *lockDelay)).value_or(ForceReleaseReport{});
    out.insert(QStringLiteral("preview"), reportJson(preview, *nodes));
    if (!json) {
        printOut(OperatorCommands::tr("preview of force release of \"%1\" with token %2:")
                     .arg(printableBytes(key), printableBytes(token)));
        printReport(preview, *nodes);
        if (!preview.refused)
            printOut(lockDelayLine(preview));
    }
    if (preview.refused) {
        printErr(OperatorCommands::tr("redlock: %1").arg(printableText(preview.error, 500)));
        return finishJson(ExitUsage);
    }
    if (parser.isSet(QStringLiteral("dry-run"))) {
        out.insert(QStringLiteral("executed"), false);
        return finishJson(exitFor(preview));
    }
    if (options.readOnly) {
        printErr(OperatorCommands::tr("redlock: read-only mode: nothing changed"));
        out.insert(QStringLiteral("executed"), false);
        return finishJson(ExitUsage);
    }
    if (!parser.isSet(QStringLiteral("yes")) && (json || !confirmOnTerminal(key, *lockDelay))) {
        printErr(
            OperatorCommands::tr("redlock: not confirmed: pass --yes to execute (or --dry-run for the preview only)"));
        out.insert(QStringLiteral("executed"), false);
        return finishJson(ExitUsage);
    }

    const ForceReleaseReport result =
        awaitOnThisThread(release.execute(key, token, parser.value(QStringLiteral("reason")), *lockDelay))
            .value_or(ForceReleaseReport{});
    out.insert(QStringLiteral("executed"), !result.refused);
    out.insert(QStringLiteral("result"), reportJson(result, *nodes));
    out.insert(QStringLiteral("auditLog"), AuditLog(options.auditLogPath).path());
    if (!json) {
        if (result.refused) {
            printErr(OperatorCommands::tr("redlock: %1").arg(printableText(result.error, 500)));
        } else {
            printOut(lockDelay->mode == LockDelay::Mode::Delete
                         ? OperatorCommands::tr("deleted on %1 of %2 nodes:").arg(result.matched()).arg(nodes->size())
                         : OperatorCommands::tr("released with lock-delay on %1 of %2 nodes:")
                               .arg(result.matched())
                               .arg(nodes->size()));
            printReport(result, *nodes);
            printOut(lockDelayLine(result));
            if (!result.audited)
                printErr(OperatorCommands::tr(
                             "redlock: error: the release ran, but its result could not be written to the audit "
                             "log (the intent line is there): %1")
                             .arg(printableText(result.auditError, 500)));
        }
    }
    return finishJson(exitFor(result));
}

} // namespace redlock::cli
