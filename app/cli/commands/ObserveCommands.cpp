// redlock inspect / watch / audit: the observation core (LockInspector, NodeSession, SafetyAudit) headless.

#include "CommandLine.h"
#include "Commands.h"

#include "observe/LockInspector.h"
#include "observe/NodeSession.h"
#include "observe/SafetyAudit.h"
#include "redlock/RedlockRules.h"
#include "runtime/IoThread.h"
#include "runtime/StopSignals.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace redlock::cli {

// The translation context of this file's messages.
class ObserveCommands
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::ObserveCommands)
};

namespace {

struct InspectCommand
{
    InspectorOptions options;
    bool json = false;
};

void addInspectOptions(QCommandLineParser& parser)
{
    addNodeOptions(parser);
    parser.addOption({QStringLiteral("pattern"),
                      ObserveCommands::tr("SCAN MATCH pattern of the lock keys (default *)."),
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
        printErr(
            ObserveCommands::tr("redlock: --pattern cannot be empty (it would match no key; * matches every key)"));
        return false;
    }
    qint64 scanCount = o.scanCount;
    if (!intOption(parser, QStringLiteral("scan-count"), 1, 100000, &scanCount) ||
        !intOption(parser, QStringLiteral("expiring"), 0, 365LL * 24 * 3600 * 1000, &o.expiringThresholdMs) ||
        !doubleOption(parser, QStringLiteral("drift-factor"), 0.0, 1.0, &o.driftFactor))
        return false;
    o.scanCount = static_cast<int>(scanCount);
    command->json = parser.isSet(QStringLiteral("json"));
    return true;
}

QString presenceKey(NodeLockState::Presence presence)
{
    switch (presence) {
    case NodeLockState::Presence::Unreachable:
        return QStringLiteral("unreachable");
    case NodeLockState::Presence::Absent:
        return QStringLiteral("absent");
    case NodeLockState::Presence::Holding:
        return QStringLiteral("holding");
    case NodeLockState::Presence::NotALock:
        return QStringLiteral("not-a-lock");
    case NodeLockState::Presence::Refused:
        return QStringLiteral("refused");
    }
    return {};
}

QJsonObject viewToJson(const LockView& view, const QList<NodeEndpoint>& nodes, qint64 nowNs)
{
    QJsonArray perNode;
    for (qsizetype i = 0; i < view.nodes.size(); ++i) {
        const NodeLockState& s = view.nodes[i];
        QJsonObject n{{QStringLiteral("node"), nodes.value(i).displayName()},
                      {QStringLiteral("state"), presenceKey(s.presence)}};
        if (s.presence == NodeLockState::Presence::Holding || s.presence == NodeLockState::Presence::NotALock) {
            n.insert(QStringLiteral("value"), printableBytes(s.token, -1));
            n.insert(QStringLiteral("pttlMs"), s.pttlMs);
        }
        if (!s.note.isEmpty())
            n.insert(QStringLiteral("note"), printableText(s.note, -1));
        perNode.append(n);
    }
    QJsonArray restsOn;
    for (const int i : view.restsOn)
        restsOn.append(nodes.value(i).displayName());
    return {{QStringLiteral("key"), printableBytes(view.key, -1)},
            {QStringLiteral("verdict"), lockVerdictId(view.verdict)},
            {QStringLiteral("token"), printableBytes(view.token, -1)},
            {QStringLiteral("holders"), view.holders},
            {QStringLiteral("quorum"), view.quorum},
            {QStringLiteral("validityMs"), view.remainingValidityMs(nowNs)},
            {QStringLiteral("format"), holderFormatId(view.holder.format)},
            {QStringLiteral("holder"), view.holder.summary},
            {QStringLiteral("restsOn"), restsOn},
            {QStringLiteral("nodes"), perNode}};
}

// Text columns of inspect: KEY VERDICT HOLDERS VALIDITY HOLDER, then one per node. Keys, holders and node
// cells are capped; the other columns are short by construction.
QList<int> inspectColumnCaps(qsizetype nodeCount)
{
    QList<int> caps{60, -1, -1, -1, 60};
    for (qsizetype i = 0; i < nodeCount; ++i)
        caps << 24;
    return caps;
}

QStringList inspectHeader(const QList<NodeEndpoint>& nodes)
{
    QStringList header{ObserveCommands::tr("KEY"), ObserveCommands::tr("VERDICT"), ObserveCommands::tr("HOLDERS"),
                       ObserveCommands::tr("VALIDITY"), ObserveCommands::tr("HOLDER")};
    for (const NodeEndpoint& n : nodes)
        header << n.displayName();
    return header;
}

QStringList inspectRow(const LockView& v, qsizetype nodeCount, qint64 nowNs)
{
    const qint64 validity = v.remainingValidityMs(nowNs);
    // printableBytes does only the work its cap needs, whatever the key's size.
    QStringList row{
        printableBytes(v.key, 60), lockVerdictName(v.verdict), QStringLiteral("%1/%2").arg(v.holders).arg(nodeCount),
        validity < 0 ? QStringLiteral("-") : ObserveCommands::tr("%1 ms").arg(validity), elide(v.holder.summary, 60)};
    for (const NodeLockState& s : v.nodes) {
        switch (s.presence) {
        case NodeLockState::Presence::Unreachable:
            row << ObserveCommands::tr("unreachable");
            break;
        case NodeLockState::Presence::Refused:
            row << ObserveCommands::tr("no permission");
            break;
        case NodeLockState::Presence::Absent:
            row << QStringLiteral("-");
            break;
        case NodeLockState::Presence::NotALock:
            row << ObserveCommands::tr("not a lock");
            break;
        case NodeLockState::Presence::Holding: {
            const QString ttl =
                s.pttlMs < 0 ? ObserveCommands::tr("no expiry") : ObserveCommands::tr("%1 ms").arg(s.pttlMs);
            row << (s.token == v.token ? ttl : ObserveCommands::tr("other %1").arg(ttl));
            break;
        }
        }
    }
    return row;
}

// One full inspection on an I/O thread; the summary is delivered back to this thread.
std::optional<InspectionSummary> inspectOnce(IoThread& io, LockInspector* inspector)
{
    std::optional<InspectionSummary> summary;
    QEventLoop loop;
    QObject::connect(
        inspector, &LockInspector::inspectionFinished, &loop,
        [&](const InspectionSummary& s) {
            summary = s;
            loop.quit();
        },
        Qt::QueuedConnection);
    io.runAndWait([inspector] { inspector->refresh(); });
    loop.exec();
    return summary;
}

} // namespace

int runInspect(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    int exitCode = ExitOk;
    if (!parseArguments(parser, args, QStringLiteral("inspect [options] --nodes LIST"),
                        ObserveCommands::tr(
                            "Find the lock keys on every node (SCAN, never KEYS) and show one merged view per lock: "
                            "verdict, holder, observed validity and what each node holds."),
                        &exitCode))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command))
        return ExitUsage;
    command.options.keyspaceEvents = false;
    command.options.reconcileIntervalMs = 0;

    IoThread io;
    auto* inspector = io.create<LockInspector>(command.options);
    const auto summary = inspectOnce(io, inspector);
    if (!summary)
        return ExitNoQuorumReachable;
    const LockSnapshot snapshot = inspector->snapshot();
    QList<QByteArray> keys = snapshot.keys();
    std::sort(keys.begin(), keys.end());
    const QList<NodeEndpoint>& nodes = command.options.nodes;
    const int reachable = static_cast<int>(summary->nodeReachable.count(true));
    const qint64 nowNs = SteadyClock::system()->nowNs();

    if (command.json) {
        QJsonArray locks;
        for (const QByteArray& key : keys)
            locks.append(viewToJson(snapshot.value(key), nodes, nowNs));
        QJsonArray errors;
        for (const QString& e : summary->errors)
            errors.append(printableText(e, -1));
        printJson({{QStringLiteral("locks"), locks},
                   {QStringLiteral("nodesReachable"), reachable},
                   {QStringLiteral("nodes"), static_cast<int>(nodes.size())},
                   {QStringLiteral("elapsedMs"), summary->elapsedUs / 1000},
                   {QStringLiteral("skipped"),
                    QJsonObject{{QStringLiteral("noTtl"), summary->skipped.noTtl},
                                {QStringLiteral("otherType"), summary->skipped.otherType},
                                {QStringLiteral("outsidePattern"), summary->skipped.outsidePattern},
                                {QStringLiteral("redissonHelpers"), summary->skipped.redissonHelpers}}},
                   {QStringLiteral("errors"), errors}});
    } else {
        // Streamed with capped columns: one 1 MB key made every row 1 MB wide, and the buffered table of
        // 10,000 locks took 14 GB. Two passes over the snapshot (widths, then rows), written in 64 KB pieces.
        const QStringList header = inspectHeader(nodes);
        TextTable table(inspectColumnCaps(nodes.size()));
        table.measure(header);
        for (const QByteArray& key : keys)
            table.measure(inspectRow(snapshot[key], nodes.size(), nowNs));
        QByteArray out = table.line(header).toUtf8() + '\n';
        for (const QByteArray& key : keys) {
            out += table.line(inspectRow(snapshot[key], nodes.size(), nowNs)).toUtf8() + '\n';
            if (out.size() >= 64 * 1024) {
                std::fwrite(out.constData(), 1, static_cast<size_t>(out.size()), stdout);
                out.clear();
            }
        }
        std::fwrite(out.constData(), 1, static_cast<size_t>(out.size()), stdout);
        printOut(QString());
        printOut(QCoreApplication::translate(
                     "redlock",
                     "%n lock(s) on %1 of %2 nodes in %3 ms; %4 key(s) skipped (no TTL, other type, helpers).", nullptr,
                     static_cast<int>(keys.size()))
                     .arg(reachable)
                     .arg(nodes.size())
                     .arg(summary->elapsedUs / 1000)
                     .arg(summary->skipped.total()));
        for (const QString& e : summary->errors)
            printErr(ObserveCommands::tr("redlock: %1").arg(printableText(e, 500)));
        // A key a reachable node did not give (an ACL refusal, NOPERM) shows in its cell without the reason:
        // the reason goes here, once per node and reason (D11: it read as "unreachable", with no reason).
        QMap<std::pair<int, QString>, int> notRead;
        for (const QByteArray& key : keys) {
            const LockView v = snapshot.value(key);
            for (int i = 0; i < v.nodes.size(); ++i) {
                const NodeLockState& s = v.nodes[i];
                const bool read = s.presence == NodeLockState::Presence::Holding ||
                                  s.presence == NodeLockState::Presence::Absent ||
                                  s.presence == NodeLockState::Presence::NotALock;
                if (!read && !s.note.isEmpty() && summary->nodeReachable.value(i))
                    ++notRead[{i, s.note}];
            }
        }
        for (auto it = notRead.cbegin(); it != notRead.cend(); ++it)
            printErr(ObserveCommands::tr("redlock: %1: %n key(s) not read: %2", nullptr, it.value())
                         .arg(nodes.value(it.key().first).displayName(), printableText(it.key().second, 500)));
    }
    return reachable < rules::quorum(static_cast<int>(nodes.size())) ? ExitNoQuorumReachable : ExitOk;
}

int runWatch(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    parser.addOption({QStringLiteral("reconcile"),
                      ObserveCommands::tr("Pause between two background rescans, in ms (default 5000)."),
                      ObserveCommands::tr("MS")});
    parser.addOption(
        {QStringLiteral("budget"),
         ObserveCommands::tr("Commands per second the background rescan may send each node (default %1; 0 = no limit, "
                             "a full SCAN at full speed).")
             .arg(kDefaultBudgetPerNode),
         ObserveCommands::tr("N")});
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, QStringLiteral("watch [options] --nodes LIST"),
            ObserveCommands::tr("Print lock events (acquired, released, expired, token changed, contested) as they "
                                "happen, until Ctrl+C. Live changes come from keyspace notifications where the nodes "
                                "have them enabled (this command never enables them); a background rescan within a "
                                "budget of commands per second per node catches the rest, and is the only source on "
                                "nodes without them."),
            &exitCode))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command))
        return ExitUsage;
    qint64 reconcile = 5000;
    qint64 budget = kDefaultBudgetPerNode;
    if (!intOption(parser, QStringLiteral("reconcile"), 100, 3600000, &reconcile) ||
        !intOption(parser, QStringLiteral("budget"), 0, 10000000, &budget))
        return ExitUsage;
    command.options.reconcileIntervalMs = static_cast<int>(reconcile);
    command.options.budgetPerNode = static_cast<int>(budget);

    QEventLoop loop;
    StopSignals stopSignals;
    if (!stopSignals.isActive()) {
        printErr(ObserveCommands::tr("redlock: cannot install signal handlers"));
        return ExitUsage;
    }
    // Queued: a stop before the loop runs quits it as soon as it does.
    QObject::connect(&stopSignals, &StopSignals::received, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    IoThread io;
    auto* inspector = io.create<LockInspector>(command.options);
    const QList<NodeEndpoint> nodes = command.options.nodes;
    const bool json = command.json;
    QObject::connect(
        inspector, &LockInspector::lockEvents, &loop,
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
                    std::fputs(QJsonDocument(o).toJson(QJsonDocument::Compact).constData(), stdout);
                    std::fputc('\n', stdout);
                    std::fflush(stdout);
                } else {
                    QString line = QStringLiteral("%1  %2  %3  %4")
                                       .arg(at, lockEventKindName(e.kind).leftJustified(13), printableBytes(e.key),
                                            e.holderSummary);
                    if (!lostOn.isEmpty())
                        line += QLatin1String("  ") +
                                ObserveCommands::tr("(restarted without it: %1)").arg(lostOn.join(u", "));
                    printOut(line);
                }
            }
        },
        Qt::QueuedConnection);
    // Nodes: a restart, and reachability as each full pass found it (only changes are printed).
    QObject::connect(
        inspector, &LockInspector::nodeRestarted, &loop,
        [nodes](int node) {
            printErr(ObserveCommands::tr(
                         "redlock: %1: restarted (new run_id): the locks it held are gone unless it persisted them")
                         .arg(nodes.value(node).displayName()));
        },
        Qt::QueuedConnection);
    auto reachable = std::make_shared<QList<bool>>(nodes.size(), true);
    QObject::connect(
        inspector, &LockInspector::inspectionFinished, &loop,
        [nodes, reachable](const InspectionSummary& summary) {
            if (summary.nodeReachable == *reachable)
                return;
            const int quorum = rules::quorum(static_cast<int>(nodes.size()));
            const bool hadQuorum = reachable->count(true) >= quorum;
            for (int i = 0; i < nodes.size() && i < summary.nodeReachable.size(); ++i) {
                if (summary.nodeReachable[i] == reachable->value(i))
                    continue;
                if (summary.nodeReachable[i]) {
                    printErr(ObserveCommands::tr("redlock: %1: reachable again").arg(nodes[i].displayName()));
                } else {
                    QString why;
                    for (const QString& e : summary.errors) {
                        if (e.startsWith(nodes[i].displayName() + QLatin1String(": ")))
                            why = e.mid(nodes[i].displayName().size() + 2);
                    }
                    printErr(why.isEmpty() ? ObserveCommands::tr("redlock: %1: unreachable").arg(nodes[i].displayName())
                                           : ObserveCommands::tr("redlock: %1: unreachable (%2)")
                                                 .arg(nodes[i].displayName(), printableText(why)));
                }
            }
            *reachable = summary.nodeReachable;
            const int up = static_cast<int>(reachable->count(true));
            if (up == 0)
                printErr(ObserveCommands::tr("redlock: no node reachable: no lock events can be seen"));
            else if (up < quorum)
                printErr(
                    ObserveCommands::tr("redlock: only %1 of %2 nodes reachable (quorum %3): locks read as unknown")
                        .arg(up)
                        .arg(nodes.size())
                        .arg(quorum));
            else if (!hadQuorum)
                printErr(ObserveCommands::tr("redlock: a quorum of nodes is reachable again (%1 of %2)")
                             .arg(up)
                             .arg(nodes.size()));
        },
        Qt::QueuedConnection);
    // Per node, where changes come from: said once, and again when it changes.
    const QString pace = budget > 0 ? ObserveCommands::tr("the background rescan (%1 commands/s)").arg(budget)
                                    : ObserveCommands::tr("the background rescan (no budget)");
    QObject::connect(
        inspector, &LockInspector::liveSourceChanged, &loop,
        [nodes, pace](int node, bool eventsLive, const QString& why) {
            if (eventsLive)
                printErr(ObserveCommands::tr("redlock: %1: keyspace events: changes show live")
                             .arg(nodes.value(node).displayName()));
            else
                printErr(ObserveCommands::tr("redlock: %1: no keyspace events (%2): changes show only through %3")
                             .arg(nodes.value(node).displayName(), printableText(why), pace));
        },
        Qt::QueuedConnection);
    io.runAndWait([inspector] { inspector->start(); });
    loop.exec();
    return ExitOk;
}

int runAudit(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    parser.addOption(
        {QStringLiteral("max-ttl"),
         ObserveCommands::tr("Largest lock TTL in use, in ms (default: the largest PTTL seen on the nodes, at least "
                             "10000)."),
         ObserveCommands::tr("MS")});
    int exitCode = ExitOk;
    if (!parseArguments(parser, args, QStringLiteral("audit [options] --nodes LIST"),
                        ObserveCommands::tr(
                            "Check the nodes against what breaks Redlock: replicas, persistence and early restarts, "
                            "eviction, clock offset, the same server listed twice, N even or below 3. Exit code %1 "
                            "when a finding is severe.")
                            .arg(ExitSevereFinding),
                        &exitCode))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command))
        return ExitUsage;
    qint64 maxTtl = 0;
    if (!intOption(parser, QStringLiteral("max-ttl"), 1, 365LL * 24 * 3600 * 1000, &maxTtl))
        return ExitUsage;
    command.options.keyspaceEvents = false;
    command.options.reconcileIntervalMs = 0;
    const QList<NodeEndpoint>& nodes = command.options.nodes;

    IoThread io;
    // Facts: one session per node; done when each has INFO (or is known not to give it) and a clock sample.
    QList<NodeFacts> facts(nodes.size());
    QList<bool> settled(nodes.size(), false);
    QEventLoop loop;
    auto check = [&] {
        if (!settled.contains(false))
            loop.quit();
    };
    for (int i = 0; i < nodes.size(); ++i) {
        NodeSessionOptions o;
        o.pingIntervalMs = 200;
        o.factsIntervalMs = 1000;
        auto* session = io.create<NodeSession>(i, nodes[i], o);
        QObject::connect(
            session, &NodeSession::factsChanged, &loop,
            [&, i](const NodeFacts& f) {
                facts[i] = f;
                const bool refusedInfo = f.refusedCommands.contains(QStringLiteral("INFO"));
                settled[i] = (f.health == NodeHealth::Up && (f.infoKnown || refusedInfo) &&
                              (f.clockOffsetUs.has_value() || f.refusedCommands.contains(QStringLiteral("TIME")))) ||
                             f.health == NodeHealth::AuthFailed || f.health == NodeHealth::NoPermission ||
                             f.health == NodeHealth::Down;
                check();
            },
            Qt::QueuedConnection);
        io.runAndWait([session] { session->start(); });
    }
    QTimer::singleShot(5000, &loop, &QEventLoop::quit); // nodes that never answer stay unverified
    loop.exec();

    if (maxTtl == 0) {
        auto* inspector = io.create<LockInspector>(command.options);
        if (inspectOnce(io, inspector))
            maxTtl = std::max<qint64>(10000, SafetyAudit::largestPttlMs(inspector->snapshot().values()));
    }
    AuditInput input{facts, maxTtl, command.options.driftFactor};
    const QList<AuditFinding> findings = SafetyAudit::run(input);
    const int reachable = static_cast<int>(
        std::count_if(facts.cbegin(), facts.cend(), [](const NodeFacts& f) { return f.health == NodeHealth::Up; }));
    const int quorum = rules::quorum(static_cast<int>(nodes.size()));
    // No quorum reachable outranks a severe finding: the same exit code as every other command gives then.
    const int auditExit = reachable < quorum                 ? ExitNoQuorumReachable
                          : SafetyAudit::hasSevere(findings) ? ExitSevereFinding
                                                             : ExitOk;

    if (command.json) {
        QJsonArray out;
        for (const AuditFinding& f : findings) {
            QJsonArray concerned;
            for (const int i : f.nodes)
                concerned.append(nodes.value(i).displayName());
            out.append(QJsonObject{{QStringLiteral("rule"), f.ruleId},
                                   {QStringLiteral("severity"), severityId(f.severity)},
                                   {QStringLiteral("nodes"), concerned},
                                   {QStringLiteral("title"), f.title},
                                   {QStringLiteral("explanation"), f.explanation}});
        }
        printJson({{QStringLiteral("findings"), out},
                   {QStringLiteral("maxTtlMs"), maxTtl},
                   {QStringLiteral("nodes"), static_cast<int>(nodes.size())},
                   {QStringLiteral("nodesReachable"), reachable},
                   {QStringLiteral("quorum"), quorum},
                   {QStringLiteral("severe"), SafetyAudit::hasSevere(findings)},
                   {QStringLiteral("exitCode"), auditExit}});
    } else if (findings.isEmpty()) {
        printOut(ObserveCommands::tr("No findings: %n node(s) checked, max TTL %1 ms.", nullptr,
                                     static_cast<int>(nodes.size()))
                     .arg(maxTtl));
    } else {
        for (const AuditFinding& f : findings) {
            printOut(QStringLiteral("[%1] %2 (%3)").arg(severityName(f.severity).toUpper(), f.title, f.ruleId));
            printOut(QStringLiteral("    ") + printableText(f.explanation, -1));
        }
    }
    if (reachable < quorum)
        printErr(
            ObserveCommands::tr("redlock: only %1 of %2 nodes reachable, quorum %3: the cluster cannot grant locks")
                .arg(reachable)
                .arg(nodes.size())
                .arg(quorum));
    return auditExit;
}

} // namespace redlock::cli
