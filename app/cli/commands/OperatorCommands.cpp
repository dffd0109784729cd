#include "CommandLine.h"
#include "Commands.h"

#include "observe/ObservationTypes.h"
#include "operate/AuditLog.h"
#include "operate/ForceRelease.h"

#include <QCoreApplication>
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
    QJsonObject o{{QStringLiteral("nodes"), nodesJson(report, nodes)},
                  {QStringLiteral("matched"), report.matched()},
                  {QStringLiteral("unreachable"), report.unreachable()},
                  {QStringLiteral("elapsedUs"), report.elapsedUs}};
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
                             OperatorCommands::tr("PTTL ms"), OperatorCommands::tr("detail")}};
    for (const ForceReleaseNode& n : report.nodes) {
        rows.append({QString::number(n.node + 1), nodes.value(n.node).displayName(), forceReleaseKindName(n.kind),
                     n.foundToken.isNull() ? printableText(n.foundType) : printableBytes(n.foundToken),
                     n.pttlMs > -3 ? QString::number(n.pttlMs) : QString(), printableText(n.error)});
    }
    std::fputs(formatTable(rows).toUtf8().constData(), stdout);
    std::fflush(stdout);
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
bool confirmOnTerminal(const QByteArray& key)
{
    if (!::isatty(STDIN_FILENO))
        return false;
    std::fputs(OperatorCommands::tr("Type the key name to delete it where the token matches: ").toUtf8().constData(),
               stdout);
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
         OperatorCommands::tr("The token you saw on the lock (required): only keys that still hold it are deleted."),
         OperatorCommands::tr("TOKEN")});
    parser.addOption(
        {QStringLiteral("dry-run"), OperatorCommands::tr("Show what each node would do; delete nothing.")});
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
        {QStringLiteral("read-only"), OperatorCommands::tr("Refuse to delete anything (the preview still runs).")});
    parser.addPositionalArgument(QStringLiteral("key"), OperatorCommands::tr("The lock key."),
                                 OperatorCommands::tr("KEY"));
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, OperatorCommands::tr("force-release [options] --nodes LIST --token TOKEN KEY"),
            OperatorCommands::tr(
                "Force release a stuck lock safely: first a preview of what each node will do (delete "
                "where the token still matches; skip where another token holds the key, the key is "
                "gone or is not a string lock; unreachable), then a compare-and-delete with that token "
                "on every node, never a bare DEL. A lock that changed hands in between is left to its "
                "new holder. Every execution is appended to the audit log. Redisson hash locks are "
                "reported and left alone."),
            &exitCode,
            OperatorCommands::tr("Exit codes:\n"
                                 "  0  deleted on at least one node (--dry-run: would delete)\n"
                                 "  1  nothing matched the token\n"
                                 "  2  usage error, refused (read-only, configuration), or not confirmed: nothing was "
                                 "deleted\n"
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
    ForceReleaseOptions options;
    options.nodes = *nodes;
    options.nodeTimeoutMs = static_cast<int>(nodeTimeout);
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
                    {QStringLiteral("token"), printableBytes(token, -1)}};
    auto finishJson = [&out, json](int code) {
        if (json) {
            out.insert(QStringLiteral("exitCode"), code);
            out.insert(QStringLiteral("ok"), code == ExitOk);
            printJson(out);
        }
        return code;
    };

    const ForceReleaseReport preview = awaitOnThisThread(release.preview(key, token)).value_or(ForceReleaseReport{});
    out.insert(QStringLiteral("preview"), reportJson(preview, *nodes));
    if (!json) {
        printOut(OperatorCommands::tr("preview of force release of \"%1\" with token %2:")
                     .arg(printableBytes(key), printableBytes(token)));
        printReport(preview, *nodes);
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
        printErr(OperatorCommands::tr("redlock: read-only mode: nothing deleted"));
        out.insert(QStringLiteral("executed"), false);
        return finishJson(ExitUsage);
    }
    if (!parser.isSet(QStringLiteral("yes")) && (json || !confirmOnTerminal(key))) {
        printErr(
            OperatorCommands::tr("redlock: not confirmed: pass --yes to execute (or --dry-run for the preview only)"));
        out.insert(QStringLiteral("executed"), false);
        return finishJson(ExitUsage);
    }

    const ForceReleaseReport result =
        awaitOnThisThread(release.execute(key, token, parser.value(QStringLiteral("reason"))))
            .value_or(ForceReleaseReport{});
    out.insert(QStringLiteral("executed"), !result.refused);
    out.insert(QStringLiteral("result"), reportJson(result, *nodes));
    out.insert(QStringLiteral("auditLog"), AuditLog(options.auditLogPath).path());
    if (!json) {
        if (result.refused) {
            printErr(OperatorCommands::tr("redlock: %1").arg(printableText(result.error, 500)));
        } else {
            printOut(OperatorCommands::tr("deleted on %1 of %2 nodes:").arg(result.matched()).arg(nodes->size()));
            printReport(result, *nodes);
            if (!result.audited)
                printErr(OperatorCommands::tr(
                             "redlock: error: the deletes ran, but their result could not be written to the audit "
                             "log (the intent line is there): %1")
                             .arg(printableText(result.auditError, 500)));
        }
    }
    return finishJson(exitFor(result));
}

} // namespace redlock::cli
