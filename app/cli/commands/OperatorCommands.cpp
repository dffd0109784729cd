#include "cli/CommandLine.h"
#include "cli/Commands.h"

#include "observe/ObservationTypes.h"
#include "operate/AuditLog.h"
#include "operate/ForceRelease.h"
#include "redlock/LockToken.h"
#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
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

// What a force release came to, for the lock as a whole (the per-node table says what each node did). One
// outcome, one exit code, one JSON id: the table in --help (and docs/cli.md, made from it) lists them. A
// preview (--dry-run) has the outcome the release would have now.
enum class Outcome {
    Released,          // released on every node that held the token
    ReleasedPartially, // released on some nodes; others may still hold it (unreachable, Redis error, no expiry)
    HeldByOther,       // another token holds the lock on a quorum (it changed hands): left to it, not freed
    NothingMatched,    // no node holds the token: nothing to release
    NotReleased,       // the token is there, but could not be released (no expiry with lock-delay auto, errors)
    Unreachable,       // nothing released where nodes answered; the others may still hold the token
    Refused,           // nothing was sent: usage, read-only, configuration, intent not logged, not confirmed
};

struct Verdict
{
    Outcome outcome = Outcome::Refused;
    int mayStillHold = 0;   // nodes that may still hold the token: unreachable, Redis error, no expiry
    QByteArray otherHolder; // HeldByOther: the token that holds the lock now
    int otherHolderNodes = 0;
};

Verdict verdictOf(const ForceReleaseReport& report)
{
    using Kind = ForceReleaseNode::Kind;
    Verdict v;
    if (report.refused)
        return v;
    v.mayStillHold = report.count(Kind::Unreachable) + report.count(Kind::RedisError) + report.count(Kind::NoExpiry);
    // One token on a quorum is a holder; a tombstone (another operator's release) is not, and tokens that are
    // each on fewer nodes only contest the key.
    QHash<QByteArray, int> others;
    for (const ForceReleaseNode& n : report.nodes) {
        if (n.kind == Kind::TokenChanged && !LockTombstone::decode(n.foundToken).has_value())
            ++others[n.foundToken];
    }
    for (auto it = others.cbegin(); it != others.cend(); ++it) {
        if (it.value() > v.otherHolderNodes) {
            v.otherHolder = it.key();
            v.otherHolderNodes = it.value();
        }
    }
    if (v.otherHolderNodes >= rules::quorum(static_cast<int>(report.nodes.size())))
        v.outcome = Outcome::HeldByOther;
    else if (report.matched() > 0)
        v.outcome = v.mayStillHold > 0 ? Outcome::ReleasedPartially : Outcome::Released;
    else if (report.unreachable() > 0)
        v.outcome = Outcome::Unreachable;
    else if (v.mayStillHold > 0)
        v.outcome = Outcome::NotReleased;
    else
        v.outcome = Outcome::NothingMatched;
    return v;
}

QString outcomeId(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Released:
        return QStringLiteral("released");
    case Outcome::ReleasedPartially:
        return QStringLiteral("released-partially");
    case Outcome::HeldByOther:
        return QStringLiteral("held-by-other");
    case Outcome::NothingMatched:
        return QStringLiteral("nothing-matched");
    case Outcome::NotReleased:
        return QStringLiteral("not-released");
    case Outcome::Unreachable:
        return QStringLiteral("unreachable");
    case Outcome::Refused:
        return QStringLiteral("refused");
    }
    return {};
}

int exitCodeOf(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Released:
        return ExitOk;
    case Outcome::ReleasedPartially:
        return ExitReleasedPartially;
    case Outcome::HeldByOther:
        return ExitHeldByOther;
    case Outcome::NothingMatched:
    case Outcome::NotReleased:
        return ExitNotAcquired;
    case Outcome::Unreachable:
        return ExitNoQuorumReachable;
    case Outcome::Refused:
        return ExitUsage;
    }
    return ExitUsage;
}

// The lock is (or, in a preview, would be) freed by this release: only then do "free at" and the tombstone
// describe what it did. Otherwise they would be another holder's expiry, or a value written nowhere.
bool frees(const Verdict& verdict)
{
    return verdict.outcome == Outcome::Released || verdict.outcome == Outcome::ReleasedPartially;
}

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
    const Verdict verdict = verdictOf(report);
    QJsonObject o{
        {QStringLiteral("outcome"), outcomeId(verdict.outcome)}, {QStringLiteral("nodes"), nodesJson(report, nodes)},
        {QStringLiteral("matched"), report.matched()},           {QStringLiteral("mayStillHold"), verdict.mayStillHold},
        {QStringLiteral("unreachable"), report.unreachable()},   {QStringLiteral("lockDelay"), report.lockDelay.id()},
        {QStringLiteral("elapsedUs"), report.elapsedUs}};
    if (verdict.outcome == Outcome::HeldByOther) {
        o.insert(QStringLiteral("holderToken"), printableBytes(verdict.otherHolder, -1));
        o.insert(QStringLiteral("holderNodes"), verdict.otherHolderNodes);
    }
    if (report.longestLockDelayMs() >= 0)
        o.insert(QStringLiteral("lockDelayMs"), report.longestLockDelayMs());
    if (report.lockDelayRaisedCount() > 0)
        o.insert(QStringLiteral("lockDelayRaisedNodes"), report.lockDelayRaisedCount());
    if (frees(verdict)) {
        o.insert(QStringLiteral("freeInMs"), report.freeInMs);
        if (report.freeAtMs() >= 0)
            o.insert(QStringLiteral("freeAt"),
                     QDateTime::fromMSecsSinceEpoch(report.freeAtMs(), Qt::UTC).toString(Qt::ISODateWithMs));
    }
    if (!report.tombstone.isEmpty() && report.count(ForceReleaseNode::Kind::Tombstoned) > 0)
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
    writeOut(formatTable(rows).toUtf8());
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

// The line under the table: when the lock is free, or why it is not freed.
QString outcomeLine(const ForceReleaseReport& report)
{
    const Verdict verdict = verdictOf(report);
    const int nodeCount = static_cast<int>(report.nodes.size());
    switch (verdict.outcome) {
    case Outcome::Released:
        return lockDelayLine(report);
    case Outcome::ReleasedPartially:
        return lockDelayLine(report) + u'\n' +
               OperatorCommands::tr("not released everywhere: %n node(s) may still hold the token (unreachable, a "
                                    "Redis error, or no expiry): run force-release again once they answer",
                                    nullptr, verdict.mayStillHold);
    case Outcome::HeldByOther:
        return OperatorCommands::tr("not freed: another token holds the lock on %1 of %2 nodes (quorum %3), %4: "
                                    "the lock is left to its holder")
            .arg(QString::number(verdict.otherHolderNodes), QString::number(nodeCount),
                 QString::number(rules::quorum(nodeCount)), printableBytes(verdict.otherHolder));
    case Outcome::NothingMatched:
        return OperatorCommands::tr("nothing to release: no node holds the token (the key is gone, or other tokens "
                                    "hold it on fewer than a quorum of nodes)");
    case Outcome::NotReleased:
        return OperatorCommands::tr("nothing released: the token is there but could not be released (see the "
                                    "table: no expiry with --lock-delay auto, or a Redis error)");
    case Outcome::Unreachable:
        return OperatorCommands::tr("nothing released where nodes answered: %n node(s) did not answer and may "
                                    "still hold the token",
                                    nullptr, report.unreachable());
    case Outcome::Refused:
        break;
    }
    return {};
}

// The table of outcomes, once (docs/cli.md and the man page are made from --help): exit code, outcome id,
// and what it means, wrapped under its column.
QString outcomeHelp()
{
    struct Row
    {
        int code;
        QString id;
        QString meaning;
    };
    const QList<Row> rows{
        {ExitOk, outcomeId(Outcome::Released),
         OperatorCommands::tr("the token was released (tombstone or deleted) on every node that held it")},
        {ExitNotAcquired, outcomeId(Outcome::NothingMatched),
         OperatorCommands::tr("no node holds the token: the key is gone, or other tokens hold it on fewer than a "
                              "quorum of nodes; nothing was changed")},
        {ExitNotAcquired, outcomeId(Outcome::NotReleased),
         OperatorCommands::tr("the token is there but was not released: it has no expiry and --lock-delay is auto "
                              "(give MS), or the nodes answered with an error")},
        {ExitUsage, outcomeId(Outcome::Refused),
         OperatorCommands::tr("usage error, read-only, configuration, the audit intent could not be written, or not "
                              "confirmed: nothing was changed")},
        {ExitNoQuorumReachable, outcomeId(Outcome::Unreachable),
         OperatorCommands::tr("nothing released where nodes answered, and some did not answer (they may still hold "
                              "the token)")},
        {ExitOutputFailed, QString(), OperatorCommands::tr("the result could not be written to stdout")},
        {ExitHeldByOther, outcomeId(Outcome::HeldByOther),
         OperatorCommands::tr("another token holds the lock on a quorum of nodes (it changed hands since the "
                              "preview, or the token given is not the holder's): left to its holder, not freed")},
        {ExitReleasedPartially, outcomeId(Outcome::ReleasedPartially),
         OperatorCommands::tr("released on some nodes; others may still hold the token (unreachable, a Redis error, "
                              "no expiry): run it again once they answer")},
    };
    constexpr qsizetype kIndent = 24; // "  7 released-partially  "
    constexpr qsizetype kWidth = 79;
    QString text = OperatorCommands::tr("Outcomes (\"outcome\" in the JSON) and exit codes:") + u'\n';
    for (const Row& row : rows) {
        QString line = QStringLiteral("  %1 %2").arg(row.code).arg(row.id).leftJustified(kIndent);
        qsizetype lineStart = 0;
        for (const QString& word : row.meaning.split(u' ', Qt::SkipEmptyParts)) {
            if (line.size() - lineStart + word.size() + 1 > kWidth && line.size() - lineStart > kIndent) {
                line += u'\n';
                lineStart = line.size();
                line += QString(kIndent, u' ');
            } else if (line.size() - lineStart > kIndent) {
                line += u' ';
            }
            line += word;
        }
        text += line + u'\n';
    }
    return text;
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
    writeOut(question.toUtf8());
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
                "Redisson hash locks are reported and left alone.\n\n"
                "The outcome says what became of the lock as a whole (the table says what each node did); "
                "--dry-run has the outcome the release would have now. With --json, \"executed\" is true when "
                "at least one node was changed, and \"freeAt\", \"freeInMs\" and \"tombstone\" are there only "
                "when the release frees the lock (released, released-partially)."),
            &exitCode, outcomeHelp()))
        return exitCode;

    const auto nodes = nodesFromOptions(parser);
    if (!nodes)
        return ExitUsage;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        return fail(ExitUsage, OperatorCommands::tr("name exactly one lock key"));
    }
    const QByteArray key = positional.first().toUtf8();
    if (key.isEmpty()) {
        return fail(ExitUsage, OperatorCommands::tr("the lock key cannot be empty"));
    }
    const QByteArray token = parser.value(QStringLiteral("token")).toUtf8();
    if (token.isEmpty()) {
        return fail(ExitUsage,
                    OperatorCommands::tr("--token is required: force release deletes only the token you saw"));
    }
    qint64 nodeTimeout = 2000;
    if (!intOption(parser, QStringLiteral("node-timeout"), 1, 600000, &nodeTimeout))
        return ExitUsage;
    const std::optional<LockDelay> lockDelay = LockDelay::parse(parser.value(QStringLiteral("lock-delay")));
    if (!lockDelay) {
        return fail(ExitUsage, OperatorCommands::tr("--lock-delay takes \"auto\" or milliseconds from 0 to %1")
                                   .arg(LockDelay::kMaxFixedMs));
    }
    double driftFactor = rules::kDefaultDriftFactor;
    if (!driftFactorOption(parser, &driftFactor))
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
            printDiagnostic(OperatorCommands::tr("configuration error: %1").arg(e));
        return ExitUsage;
    }
    QJsonObject out{{QStringLiteral("command"), QStringLiteral("force-release")},
                    {QStringLiteral("key"), printableBytes(key, -1)},
                    {QStringLiteral("token"), printableBytes(token, -1)},
                    {QStringLiteral("lockDelay"), lockDelay->id()}};
    // The outcome of the last stage that ran (the preview's when the release did not run), its exit code, and
    // whether anything was changed.
    auto finish = [&out, json](Outcome outcome, bool executed) {
        const int code = exitCodeOf(outcome);
        if (json) {
            out.insert(QStringLiteral("outcome"), outcomeId(outcome));
            out.insert(QStringLiteral("executed"), executed);
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
            printOut(outcomeLine(preview));
    }
    if (preview.refused) {
        printDiagnostic(printableText(preview.error, 500));
        return finish(Outcome::Refused, false);
    }
    if (parser.isSet(QStringLiteral("dry-run")))
        return finish(verdictOf(preview).outcome, false);
    if (options.readOnly) {
        printDiagnostic(OperatorCommands::tr("read-only mode: nothing changed"));
        return finish(Outcome::Refused, false);
    }
    if (!parser.isSet(QStringLiteral("yes")) && (json || !confirmOnTerminal(key, *lockDelay))) {
        printDiagnostic(
            OperatorCommands::tr("not confirmed: pass --yes to execute (or --dry-run for the preview only)"));
        return finish(Outcome::Refused, false);
    }

    // The result of a release must reach whoever asked for it: with stdout already gone (closed, its reader
    // gone, or the text preview above not written), nothing is changed.
    if (outputCannotReachAnyone()) {
        return fail(
            ExitOutputFailed,
            OperatorCommands::tr("nothing changed: the result could not be reported")); // main() says why stdout failed
    }
    const ForceReleaseReport result =
        awaitOnThisThread(release.execute(key, token, parser.value(QStringLiteral("reason")), *lockDelay))
            .value_or(ForceReleaseReport{});
    const Verdict verdict = verdictOf(result);
    out.insert(QStringLiteral("result"), reportJson(result, *nodes));
    out.insert(QStringLiteral("auditLog"), AuditLog(options.auditLogPath).path());
    if (!json) {
        if (result.refused) {
            printDiagnostic(printableText(result.error, 500));
        } else {
            printOut(lockDelay->mode == LockDelay::Mode::Delete
                         ? OperatorCommands::tr("deleted on %1 of %2 nodes:").arg(result.matched()).arg(nodes->size())
                         : OperatorCommands::tr("released with lock-delay on %1 of %2 nodes:")
                               .arg(result.matched())
                               .arg(nodes->size()));
            printReport(result, *nodes);
            printOut(outcomeLine(result));
            if (!result.audited)
                printDiagnostic(
                    OperatorCommands::tr("error: the release ran, but its result could not be written to the audit "
                                         "log (the intent line is there): %1")
                        .arg(printableText(result.auditError, 500)));
        }
    }
    return finish(verdict.outcome, !result.refused && result.matched() > 0);
}

} // namespace redlock::cli
