// redlock inspect / watch / audit: the observation core (LockInspector, NodeSession, SafetyAudit) headless.

#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/commands/ObserveOptions.h"

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
        printErr(
            ObserveCommands::tr("redlock: --pattern cannot be empty (it would match no key; * matches every key)"));
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
                                          "this many MiB (default 256; 0 = no limit)."),
                      ObserveCommands::tr("MB")});
}

bool readJournalOptions(const QCommandLineParser& parser, const QString& source, JournalOptions* options)
{
    options->source = source;
    options->path = parser.value(QStringLiteral("journal"));
    qint64 retainDays = options->retainMs / (24 * 3600'000LL);
    qint64 retainMb = options->retainBytes / (1024 * 1024);
    if (!intOption(parser, QStringLiteral("retain-days"), 0, 100 * 365, &retainDays) ||
        !intOption(parser, QStringLiteral("retain-mb"), 0, 1024 * 1024, &retainMb))
        return false;
    if (parser.isSet(QStringLiteral("journal")) && options->path.isEmpty()) {
        printErr(ObserveCommands::tr("redlock: --journal needs a file name"));
        return false;
    }
    if (const QString problem = LockJournal::locationProblem(options->path); !problem.isEmpty()) {
        printErr(QStringLiteral("redlock: ") + problem);
        return false;
    }
    options->retainMs = retainDays * 24 * 3600'000LL;
    options->retainBytes = retainMb * 1024 * 1024;
    return true;
}

std::unique_ptr<LockJournal> startJournal(const JournalOptions& options, ClusterWatch* watch)
{
    if (options.path.isEmpty())
        return nullptr;
    auto journal = std::make_unique<LockJournal>(options);
    // Emitted on the journal's thread, printed on this one.
    QObject::connect(
        journal.get(), &LockJournal::problem, journal.get(),
        [](const QString& message) { printErr(QStringLiteral("redlock: ") + message); }, Qt::QueuedConnection);
    QObject::connect(
        journal.get(), &LockJournal::recovered, journal.get(),
        [](const QString& message) { printErr(QStringLiteral("redlock: ") + message); }, Qt::QueuedConnection);
    QObject::connect(
        journal.get(), &LockJournal::warning, journal.get(),
        [](const QString& message) { printErr(QStringLiteral("redlock: warning: ") + message); }, Qt::QueuedConnection);
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
        printErr(ObserveCommands::tr("redlock: the journal %1 did not take %2 event(s) (%3 dropped earlier): %4")
                     .arg(QDir::toNativeSeparators(journal->path()))
                     .arg(status.pending)
                     .arg(status.dropped)
                     .arg(status.error));
}

namespace {

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

// JSON text of a string: quotes, backslashes and control characters escaped (RFC 8259). `utf8` is valid UTF-8
// (the printable forms are), so the output is too.
void appendJsonString(QByteArray& out, QByteArrayView utf8)
{
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    const char* run = utf8.data();
    const char* const end = utf8.data() + utf8.size();
    for (const char* p = run; p < end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(run, p - run);
        run = p + 1;
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        }
    }
    out.append(run, end - run);
    out += '"';
}

void appendJsonString(QByteArray& out, const QString& text)
{
    appendJsonString(out, QByteArrayView(text.toUtf8()));
}

// One lock as one line of JSON (JSON Lines), written directly: at 100,000 locks a QJsonObject per lock cost
// more than the inspection. The fields are those of the documented format (see the command's --help).
void appendLockJson(QByteArray& out, const LockView& view, const QList<QByteArray>& nodeNames, qint64 nowNs)
{
    QByteArray token;
    appendJsonString(token, printableBytes(view.token, -1));
    out += R"({"type":"lock","key":)";
    appendJsonString(out, printableBytes(view.key, -1));
    out += R"(,"verdict":")";
    out += lockVerdictId(view.verdict).toLatin1();
    out += R"(","token":)";
    out += token;
    out += R"(,"holders":)";
    out += QByteArray::number(view.holders);
    out += R"(,"quorum":)";
    out += QByteArray::number(view.quorum);
    out += R"(,"validityMs":)";
    out += QByteArray::number(view.remainingValidityMs(nowNs));
    if (view.verdict == LockVerdict::ReleasedByOperator) {
        out += R"(,"freeInMs":)";
        out += QByteArray::number(view.remainingFreeInMs(nowNs));
    }
    out += R"(,"format":")";
    out += holderFormatId(view.holder->format).toLatin1();
    out += R"(","holder":)";
    appendJsonString(out, view.holder->summary);
    out += R"(,"restsOn":[)";
    for (qsizetype r = 0; r < view.restsOn.size(); ++r) {
        if (r > 0)
            out += ',';
        out += nodeNames.value(view.restsOn[r]);
    }
    out += ']';
    if (!view.noExpiryNodes.isEmpty()) {
        // A value without expiry beside the verdict (or as it, stuck): its own fact, with the value it is.
        out += R"(,"noExpiryOn":[)";
        for (qsizetype r = 0; r < view.noExpiryNodes.size(); ++r) {
            if (r > 0)
                out += ',';
            out += nodeNames.value(view.noExpiryNodes[r]);
        }
        out += R"(],"noExpiryValue":)";
        appendJsonString(out, printableBytes(view.noExpiryToken, -1));
    }
    if (view.validityEnded)
        out += R"(,"validityEnded":true)";
    out += R"(,"nodes":[)";
    for (qsizetype i = 0; i < view.nodes.size(); ++i) {
        const NodeLockState& s = view.nodes[i];
        if (i > 0)
            out += ',';
        out += R"({"node":)";
        out += nodeNames.value(i);
        out += R"(,"state":")";
        out += presenceKey(s.presence).toLatin1();
        out += '"';
        if (s.presence == NodeLockState::Presence::Holding || s.presence == NodeLockState::Presence::NotALock) {
            out += R"(,"value":)";
            if (s.token == view.token)
                out += token; // escaped once: a lock has the same value on every node
            else
                appendJsonString(out, printableBytes(s.token, -1));
            out += R"(,"pttlMs":)";
            out += QByteArray::number(s.pttlMs);
        }
        if (!s.note.isEmpty()) {
            out += R"(,"note":)";
            appendJsonString(out, printableText(s.note, -1));
        }
        out += '}';
    }
    out += "]}\n";
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
    const qint64 freeIn = v.verdict == LockVerdict::ReleasedByOperator ? v.remainingFreeInMs(nowNs) : -1;
    // printableBytes does only the work its cap needs, whatever the key's size.
    QStringList row{printableBytes(v.key, 60), lockVerdictName(v.verdict),
                    QStringLiteral("%1/%2").arg(v.holders).arg(nodeCount),
                    freeIn >= 0    ? ObserveCommands::tr("free in %1 ms").arg(freeIn)
                    : validity < 0 ? QStringLiteral("-")
                                   : ObserveCommands::tr("%1 ms").arg(validity),
                    elide(v.holder->summary, 60)};
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

// One full inspection on an I/O thread; the summary is delivered back to this thread. With
// stopWhenOutputFails, a reader of stdout that has gone ends the wait at once, without a summary (the pass is
// abandoned: `inspect | head -3` does not scan the rest for nobody).
std::optional<InspectionSummary> inspectOnce(IoThread& io, LockInspector* inspector, bool stopWhenOutputFails = false)
{
    std::optional<InspectionSummary> summary;
    QEventLoop loop;
    const auto outputGuard = stopWhenOutputFails ? quitWhenOutputFails(&loop) : nullptr;
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

// The keys an inspection passed over, by reason (InspectionSummary::skipped), for --json.
QJsonObject skippedKeysJson(const SkippedKeys& skipped)
{
    return QJsonObject{{QStringLiteral("noTtl"), skipped.noTtl},
                       {QStringLiteral("otherType"), skipped.otherType},
                       {QStringLiteral("outsidePattern"), skipped.outsidePattern},
                       {QStringLiteral("redissonHelpers"), skipped.redissonHelpers},
                       {QStringLiteral("notALockFormat"), skipped.notALockFormat}};
}

// Keys with a TTL passed over under the default pattern: why, and how to have them counted.
QString notALockFormatText(qint64 count)
{
    return ObserveCommands::tr("%n key(s) with a TTL passed over: not in a lock format this tool recognises (under the "
                               "default pattern * only recognised lock values count; --pattern names your lock keys, "
                               "and then every value with a TTL under it counts).",
                               nullptr, int(std::min<qint64>(count, std::numeric_limits<int>::max())));
}

// Up to this many locks are sorted by key before anything is written; past it, the locks are written as the
// inspection finds them, so memory does not grow with their number.
constexpr qsizetype kSortedLocks = 1000;

// What `inspect` writes, fed with each lock as the inspection merges it (LockInspector's view sink, on the
// inspector's thread; finish() on the command's thread once the pass is over). Keeps at most kSortedLocks
// views and a 64 KB piece of output.
class InspectWriter
{
public:
    InspectWriter(const QList<NodeEndpoint>& nodes, bool json)
        : m_nodes(nodes), m_json(json), m_table(inspectColumnCaps(nodes.size())), m_clock(SteadyClock::system())
    {
        for (const NodeEndpoint& n : nodes) {
            QByteArray name;
            appendJsonString(name, printableText(n.displayName(), -1));
            m_nodeNames.append(name);
        }
    }

    void add(LockView&& view)
    {
        if (outputErrno() != 0)
            return; // nobody reads any more: the command is ending
        countNotRead(view);
        if (m_streaming) {
            write(view);
            return;
        }
        m_held.append(std::move(view));
        if (m_held.size() > kSortedLocks)
            writeHeld(false);
    }

    void finish(const InspectionSummary& summary)
    {
        if (!m_streaming)
            writeHeld(true);
        if (m_json) {
            QJsonArray errors;
            for (const QString& e : summary.errors)
                errors.append(printableText(e, -1));
            const QJsonObject object{
                {QStringLiteral("type"), QStringLiteral("summary")},
                {QStringLiteral("locks"), summary.locks},
                {QStringLiteral("sorted"), m_sorted},
                {QStringLiteral("nodesReachable"), static_cast<int>(summary.nodeReachable.count(true))},
                {QStringLiteral("nodes"), static_cast<int>(m_nodes.size())},
                {QStringLiteral("elapsedMs"), summary.elapsedUs / 1000},
                {QStringLiteral("skipped"), skippedKeysJson(summary.skipped)},
                {QStringLiteral("errors"), errors}};
            m_out += QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
            flush();
            return;
        }
        flush();
        printOut(QString());
        printOut(ObserveCommands::tr(
                     "%n lock(s) on %1 of %2 nodes in %3 ms; %4 key(s) skipped (no TTL, other type, helpers).", nullptr,
                     summary.locks)
                     .arg(summary.nodeReachable.count(true))
                     .arg(m_nodes.size())
                     .arg(summary.elapsedUs / 1000)
                     .arg(summary.skipped.total() - summary.skipped.notALockFormat));
        if (summary.skipped.notALockFormat > 0)
            printOut(notALockFormatText(summary.skipped.notALockFormat));
        if (!m_sorted)
            printOut(
                ObserveCommands::tr("(more than %1 locks: listed in the order found, not sorted)").arg(kSortedLocks));
        for (const QString& e : summary.errors)
            printErr(ObserveCommands::tr("redlock: %1").arg(printableText(e, 500)));
        // A key a reachable node did not give (an ACL refusal, NOPERM) shows in its cell without the reason:
        // the reason goes here, once per node and reason (D11: it read as "unreachable", with no reason).
        for (auto it = m_notRead.cbegin(); it != m_notRead.cend(); ++it) {
            if (!summary.nodeReachable.value(it.key().first))
                continue;
            printErr(ObserveCommands::tr("redlock: %1: %n key(s) not read: %2", nullptr, it.value())
                         .arg(m_nodes.value(it.key().first).displayName(), printableText(it.key().second, 500)));
        }
    }

private:
    // The locks held so far: sorted when they are all there is (`all`); otherwise in the order found, and
    // from now on every lock is written as it comes. The text table's columns are as wide as these rows need.
    void writeHeld(bool all)
    {
        m_sorted = all;
        if (all)
            std::sort(m_held.begin(), m_held.end(), [](const LockView& a, const LockView& b) { return a.key < b.key; });
        if (!m_json) {
            const QStringList header = inspectHeader(m_nodes);
            m_table.measure(header);
            const qint64 nowNs = m_clock->nowNs();
            for (const LockView& v : std::as_const(m_held))
                m_table.measure(inspectRow(v, m_nodes.size(), nowNs));
            m_out += m_table.line(header).toUtf8() + '\n';
        }
        for (const LockView& v : std::as_const(m_held))
            write(v);
        m_held = {};
        m_streaming = true;
    }

    void write(const LockView& view)
    {
        const qint64 nowNs = m_clock->nowNs();
        if (m_json)
            appendLockJson(m_out, view, m_nodeNames, nowNs);
        else
            m_out += m_table.line(inspectRow(view, m_nodes.size(), nowNs)).toUtf8() + '\n';
        if (m_out.size() >= 64 * 1024)
            flush();
    }

    void flush()
    {
        writeOut(m_out);
        m_out.clear();
    }

    void countNotRead(const LockView& v)
    {
        for (int i = 0; i < v.nodes.size(); ++i) {
            const NodeLockState& s = v.nodes[i];
            const bool read = s.presence == NodeLockState::Presence::Holding ||
                              s.presence == NodeLockState::Presence::Absent ||
                              s.presence == NodeLockState::Presence::NotALock;
            if (!read && !s.note.isEmpty())
                ++m_notRead[{i, s.note}];
        }
    }

    const QList<NodeEndpoint> m_nodes;
    const bool m_json;
    QList<QByteArray> m_nodeNames; // JSON strings
    TextTable m_table;
    std::shared_ptr<SteadyClock> m_clock;
    QList<LockView> m_held;
    bool m_streaming = false;
    bool m_sorted = false;
    QByteArray m_out;
    QMap<std::pair<int, QString>, int> m_notRead;
};

} // namespace

int runInspect(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, QStringLiteral("inspect [options] --nodes LIST"),
            ObserveCommands::tr(
                "Find the lock keys on every node (SCAN, never KEYS) and show one merged view per lock: "
                "verdict, holder, observed validity and what each node holds. Output is streamed: up to %1 "
                "locks are sorted by key; past that, locks are written in the order the inspection finds them, "
                "and memory grows only by the names of the keys read (kept so that each is read once).\n\n"
                "--json writes JSON Lines: one compact object per line. First one line per lock (\"type\": "
                "\"lock\"; key, verdict, token, holders, quorum, validityMs, freeInMs (verdict "
                "released-by-operator only: ms until a newcomer can acquire, -1 unknown), format, holder, "
                "restsOn, noExpiryOn and noExpiryValue (only when some node holds a value without expiry, beside "
                "the verdict or as it: stuck), validityEnded (only when true), and nodes: "
                "per node its node, state, and value, pttlMs and note where they apply), then one summary line "
                "(\"type\": \"summary\"; locks, sorted, nodesReachable, nodes, elapsedMs, skipped, errors). "
                "Keys, tokens and values are the printable form of their bytes: valid UTF-8 as is, and each byte "
                "of a control character, a line separator, a bidirectional override, an invalid sequence or a "
                "backslash as \\xNN; replacing every \\xNN by its byte gives the exact bytes back.\n\n"
                "A reader that has gone (`inspect | head -3`) stops the scan at once: exit code 5.")
                .arg(kSortedLocks),
            &exitCode))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command))
        return ExitUsage;
    command.options.keyspaceEvents = false;
    command.options.reconcileIntervalMs = 0;

    const QList<NodeEndpoint>& nodes = command.options.nodes;
    InspectWriter writer(nodes, command.json);
    IoThread io;
    auto* inspector = io.create<LockInspector>(command.options);
    // Written on the inspector's thread as the locks are merged: a slow stdout slows the pass, nothing piles up.
    io.runAndWait(
        [inspector, &writer] { inspector->setViewSink([&writer](LockView&& v) { writer.add(std::move(v)); }); });
    const auto summary = inspectOnce(io, inspector, true);
    if (!summary)
        return outputFailed() ? ExitOutputFailed : ExitNoQuorumReachable;
    writer.finish(*summary);
    const int reachable = static_cast<int>(summary->nodeReachable.count(true));
    return reachable < rules::quorum(static_cast<int>(nodes.size())) ? ExitNoQuorumReachable : ExitOk;
}

// --alert RULE=MS|off,... over the defaults.
bool readAlertOptions(const QCommandLineParser& parser, AlertThresholds* thresholds)
{
    const QString list = parser.value(QStringLiteral("alert"));
    for (const QString& value : list.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = value.indexOf(u'=');
        if (value.left(eq) == QLatin1String("clear")) {
            bool ok = false;
            thresholds->clearAfterMs = value.mid(eq + 1).toLongLong(&ok);
            if (ok && thresholds->clearAfterMs >= 0)
                continue;
        }
        const auto rule = alertRuleFromId(value.left(eq));
        const QString setting = eq < 0 ? QString() : value.mid(eq + 1);
        bool ok = false;
        const qint64 ms = setting.toLongLong(&ok);
        if (!rule || (setting != QLatin1String("off") && (!ok || ms < 0))) {
            QStringList ids;
            for (int i = 0; i < kAlertRuleCount; ++i)
                ids << alertRuleId(static_cast<AlertRule>(i));
            printErr(ObserveCommands::tr("redlock: --alert %1: expected RULE=MS, RULE=off or clear=MS, RULE one of %2")
                         .arg(printableText(value), ids.join(QLatin1String(", "))));
            return false;
        }
        if (setting == QLatin1String("off"))
            thresholds->set(*rule, false, thresholds->after(*rule));
        else
            thresholds->set(*rule, true, ms);
    }
    return true;
}

// Alerts as they are raised and cleared: a line each (or a JSON object with --json).
bool printAlert(const Alert& alert, bool raised, bool json)
{
    const qint64 atMs = raised ? alert.raisedAtMs : alert.clearedAtMs;
    const QString at = QDateTime::fromMSecsSinceEpoch(atMs).toString(Qt::ISODateWithMs);
    if (json) {
        QJsonObject o{
            {QStringLiteral("at"), at},
            {QStringLiteral("event"), raised ? QStringLiteral("alert-raised") : QStringLiteral("alert-cleared")},
            {QStringLiteral("rule"), alertRuleId(alert.rule)},
            {QStringLiteral("id"), printableBytes(alert.id, -1)},
            {QStringLiteral("since"), QDateTime::fromMSecsSinceEpoch(alert.sinceMs).toString(Qt::ISODateWithMs)},
            {QStringLiteral("message"), alert.message}};
        if (!alert.key.isEmpty())
            o.insert(QStringLiteral("key"), printableBytes(alert.key, -1));
        if (alert.node >= 0)
            o.insert(QStringLiteral("node"), alert.node + 1);
        if (alert.group) {
            // One line for a storm of one rule: how many, and a few of them.
            QJsonArray examples;
            for (const QByteArray& e : alert.examples)
                examples.append(printableBytes(e, -1));
            o.insert(QStringLiteral("count"), alert.count);
            o.insert(QStringLiteral("examples"), examples);
        }
        return printJsonLine(o);
    }
    return printOut(QStringLiteral("%1  %2  %3: %4")
                        .arg(at,
                             (raised ? ObserveCommands::tr("ALERT") : ObserveCommands::tr("CLEARED")).leftJustified(13),
                             alertRuleName(alert.rule), alert.message));
}

int runWatch(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    addRescanOptions(parser);
    parser.addOption({QStringLiteral("alert"),
                      ObserveCommands::tr("Alert thresholds, comma-separated: RULE=MS (raised once the condition "
                                          "lasted MS) or RULE=off; clear=MS: how long a condition must be gone before "
                                          "its alert clears (default 5000). Rules: lock-held, lock-contested, "
                                          "minority-leftover, quorum-lost, node-down, severe-finding, clock-offset."),
                      ObserveCommands::tr("RULE=MS,...")});
    parser.addOption({QStringLiteral("no-alerts"), ObserveCommands::tr("Print lock events only, no alerts.")});
    parser.addOption(
        {QStringLiteral("max-ttl"),
         ObserveCommands::tr("Largest lock TTL in use, in ms, for the drift budget of the clock-offset alert and the "
                             "audit (default %1); a larger PTTL seen on the nodes raises it.")
             .arg(rules::kDefaultMaxTtlMs),
         ObserveCommands::tr("MS")});
    addJournalOptions(parser);
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, QStringLiteral("watch [options] --nodes LIST"),
            ObserveCommands::tr(
                "Print lock events (acquired, extended, released, expired, token changed, contested, lost on a node "
                "restart) as they happen, until Ctrl+C; first, each lock already held when watching starts, as "
                "\"seen held\" (its acquisition was not seen: held at least since then). Live changes come from "
                "keyspace notifications where the nodes "
                "have them enabled (this command never enables them); a background rescan within a "
                "budget of commands per second per node catches the rest, and is the only source on "
                "nodes without them. Alerts (a lock held, contested or left over too long, a node down, "
                "quorum lost, a severe audit finding, a clock offset beyond the drift budget) are "
                "printed when raised and when cleared. A reader that has gone ends the watch at once, with exit "
                "code 5 (`watch --json | head -1` ends with head)."),
            &exitCode))
        return exitCode;
    InspectCommand command;
    if (!readInspectOptions(parser, &command))
        return ExitUsage;
    if (!readRescanOptions(parser, &command.options))
        return ExitUsage;
    const int budget = command.options.budgetPerNode;
    AlertThresholds thresholds;
    qint64 maxTtl = 0;
    if (!readAlertOptions(parser, &thresholds) ||
        !intOption(parser, QStringLiteral("max-ttl"), 1, 365LL * 24 * 3600 * 1000, &maxTtl))
        return ExitUsage;
    const bool alerts = !parser.isSet(QStringLiteral("no-alerts"));
    JournalOptions journalOptions;
    if (!readJournalOptions(parser, QStringLiteral("watch"), &journalOptions))
        return ExitUsage;

    QEventLoop loop;
    StopSignals stopSignals;
    if (!stopSignals.isActive()) {
        printErr(ObserveCommands::tr("redlock: cannot install signal handlers"));
        return ExitUsage;
    }
    // Queued: a stop before the loop runs quits it as soon as it does.
    QObject::connect(&stopSignals, &StopSignals::received, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    // Before the watch: it outlives the inspector's thread that records into it.
    std::unique_ptr<LockJournal> journal;
    // The observation, as the console's and the exporter's: node health, quorum, the audit and its max TTL come
    // from it (core/watch/ClusterWatch.h).
    ClusterWatchOptions watchOptions;
    watchOptions.inspector = command.options;
    watchOptions.configuredMaxTtlMs = maxTtl;
    ClusterWatch watch(watchOptions);
    journal = startJournal(journalOptions, &watch);
    const QList<NodeEndpoint> nodes = command.options.nodes;
    const bool json = command.json;
    QObject::connect(
        &watch, &ClusterWatch::lockEvents, &loop,
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
                    // Nobody saw it happen (no keyspace event): after lastSeenHeld, by `at`.
                    if (e.endsUnobserved())
                        o.insert(QStringLiteral("lastSeenHeld"),
                                 QDateTime::fromMSecsSinceEpoch(e.lastSeenHeldMs).toString(Qt::ISODateWithMs));
                    printJsonLine(o);
                } else {
                    QString line = QStringLiteral("%1  %2  %3  %4")
                                       .arg(at, lockEventKindName(e.kind).leftJustified(13), printableBytes(e.key),
                                            e.holderSummary);
                    if (!lostOn.isEmpty())
                        line += QLatin1String("  ") +
                                ObserveCommands::tr("(restarted without it: %1)").arg(lostOn.join(u", "));
                    if (e.endsUnobserved())
                        line +=
                            QLatin1String("  ") +
                            ObserveCommands::tr("(not observed: between %1 and %2)")
                                .arg(QDateTime::fromMSecsSinceEpoch(e.lastSeenHeldMs).toString(Qt::ISODateWithMs), at);
                    printOut(line);
                }
            }
        },
        Qt::QueuedConnection);
    // Nodes: a restart, and reachability by the watch's one rule (a node is up when its session is; only changes
    // are printed, once every node has reported).
    QObject::connect(&watch, &ClusterWatch::nodeRestarted, &loop, [nodes](const NodeFacts& facts) {
        printErr(ObserveCommands::tr(
                     "redlock: %1: restarted (new run_id): the locks it held are gone unless it persisted them")
                     .arg(nodes.value(facts.node).displayName()));
    });
    auto reachable = std::make_shared<QList<bool>>(nodes.size(), true);
    QObject::connect(&watch, &ClusterWatch::nodeFactsChanged, &loop, [nodes, reachable, w = &watch](int) {
        if (!w->allNodesReported())
            return;
        QList<bool> nodeReachable;
        for (int i = 0; i < nodes.size(); ++i)
            nodeReachable << w->isNodeUp(i);
        if (nodeReachable == *reachable)
            return;
        const int quorum = w->quorum();
        const bool hadQuorum = reachable->count(true) >= quorum;
        for (int i = 0; i < nodes.size(); ++i) {
            if (nodeReachable[i] == reachable->value(i))
                continue;
            if (nodeReachable[i]) {
                printErr(ObserveCommands::tr("redlock: %1: reachable again").arg(nodes[i].displayName()));
            } else {
                const QString why = w->nodeFacts()[i].reason;
                printErr(why.isEmpty() ? ObserveCommands::tr("redlock: %1: unreachable").arg(nodes[i].displayName())
                                       : ObserveCommands::tr("redlock: %1: unreachable (%2)")
                                             .arg(nodes[i].displayName(), printableText(why)));
            }
        }
        *reachable = nodeReachable;
        const int up = static_cast<int>(reachable->count(true));
        if (up == 0)
            printErr(ObserveCommands::tr("redlock: no node reachable: no lock events can be seen"));
        else if (up < quorum)
            printErr(ObserveCommands::tr("redlock: only %1 of %2 nodes reachable (quorum %3): locks read as unknown")
                         .arg(up)
                         .arg(nodes.size())
                         .arg(quorum));
        else if (!hadQuorum)
            printErr(ObserveCommands::tr("redlock: a quorum of nodes is reachable again (%1 of %2)")
                         .arg(up)
                         .arg(nodes.size()));
    });
    // Keys passed over as no lock format (the default pattern): said after the first inspection, and again when
    // their number changes.
    QObject::connect(
        &watch, &ClusterWatch::inspectionFinished, &loop,
        [json, said = std::make_shared<qint64>(-1)](const InspectionSummary& summary) {
            const qint64 count = summary.skipped.notALockFormat;
            if (count == *said || (*said < 0 && count == 0))
                return;
            *said = count;
            if (json)
                printJsonLine(
                    QJsonObject{{QStringLiteral("at"),
                                 QDateTime::fromMSecsSinceEpoch(summary.startedAtMs).toString(Qt::ISODateWithMs)},
                                {QStringLiteral("event"), QStringLiteral("keys-passed-over")},
                                {QStringLiteral("skipped"), skippedKeysJson(summary.skipped)}});
            else
                printErr(QStringLiteral("redlock: ") + notALockFormatText(count));
        },
        Qt::QueuedConnection);
    // Per node, where changes come from: said once, and again when it changes.
    const QString pace = budget > 0 ? ObserveCommands::tr("the background rescan (%1 commands/s)").arg(budget)
                                    : ObserveCommands::tr("the background rescan (no budget)");
    QObject::connect(
        &watch, &ClusterWatch::liveSourceChanged, &loop,
        [nodes, pace](int node, bool eventsLive, const QString& why) {
            if (eventsLive)
                printErr(ObserveCommands::tr("redlock: %1: keyspace events: changes show live")
                             .arg(nodes.value(node).displayName()));
            else
                printErr(ObserveCommands::tr("redlock: %1: no keyspace events (%2): changes show only through %3")
                             .arg(nodes.value(node).displayName(), printableText(why), pace));
        },
        Qt::QueuedConnection);

    // Alerts: the same monitor as the console's, fed by the watch (locks, node facts, the audit's findings and max
    // TTL).
    std::unique_ptr<AlertMonitor> monitor;
    if (alerts) {
        AlertMonitorOptions ao;
        ao.nodeCount = static_cast<int>(nodes.size());
        for (const NodeEndpoint& n : nodes)
            ao.nodeNames << n.displayName();
        ao.driftFactor = command.options.driftFactor;
        ao.maxTtlMs = watch.auditMaxTtlMs();
        ao.thresholds = thresholds;
        monitor = std::make_unique<AlertMonitor>(ao);
        AlertMonitor* m = monitor.get();
        QObject::connect(m, &AlertMonitor::alertRaised, &loop, [json](const Alert& a) { printAlert(a, true, json); });
        QObject::connect(m, &AlertMonitor::alertCleared, &loop, [json](const Alert& a) { printAlert(a, false, json); });
        watch.setAlertMonitor(m);
    }
    QString error;
    if (!watch.start(&error)) {
        printErr(ObserveCommands::tr("redlock: %1").arg(error));
        return ExitUsage;
    }
    // A reader that has gone ends the watch (`watch | head -1`): like a filter on SIGPIPE, but the journal is
    // still flushed below.
    const auto outputGuard = quitWhenOutputFails(&loop);
    loop.exec();
    finishJournal(journal.get(), &watch);
    return outputFailed() ? ExitOutputFailed : ExitOk;
}

int runAudit(const QStringList& args)
{
    QCommandLineParser parser;
    addInspectOptions(parser);
    parser.addOption(
        {QStringLiteral("max-ttl"),
         ObserveCommands::tr("Largest lock TTL in use, in ms, for the restart rule and the drift budget (default %1); "
                             "a larger PTTL seen on the nodes raises it.")
             .arg(rules::kDefaultMaxTtlMs),
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
    const QList<NodeEndpoint>& nodes = command.options.nodes;

    // The observation the console and `watch` run, for one pass: the sessions' facts, and the largest PTTL of one
    // inspection for the max TTL (a running maximum: no lock is kept, whatever their number). Done when every node
    // has INFO (or is known not to give it) and a clock sample, or 5 s have passed, and the inspection is over.
    ClusterWatchOptions watchOptions;
    watchOptions.inspector = command.options;
    watchOptions.session.pingIntervalMs = 200;
    watchOptions.session.factsIntervalMs = 1000;
    watchOptions.configuredMaxTtlMs = maxTtl;
    watchOptions.keepLocks = false;
    ClusterWatch watch(watchOptions);
    QList<bool> settled(nodes.size(), false);
    bool factsTimedOut = false;
    QEventLoop loop;
    auto check = [&] {
        if ((factsTimedOut || !settled.contains(false)) && watch.inspectionDone())
            loop.quit();
    };
    QObject::connect(&watch, &ClusterWatch::nodeFactsChanged, &loop, [&](int i) {
        const NodeFacts& f = watch.nodeFacts()[i];
        const bool refusedInfo = f.refusedCommands.contains(QStringLiteral("INFO"));
        settled[i] = (f.health == NodeHealth::Up && (f.infoKnown || refusedInfo) &&
                      (f.clockOffsetUs.has_value() || f.refusedCommands.contains(QStringLiteral("TIME")))) ||
                     f.health == NodeHealth::AuthFailed || f.health == NodeHealth::NoPermission ||
                     f.health == NodeHealth::Down || f.health == NodeHealth::NotAnswering;
        check();
    });
    QObject::connect(&watch, &ClusterWatch::inspectionFinished, &loop, check);
    QString error;
    if (!watch.start(&error)) {
        printErr(ObserveCommands::tr("redlock: %1").arg(error));
        return ExitUsage;
    }
    QTimer::singleShot(5000, &loop, [&] { // nodes that never answer stay unverified
        factsTimedOut = true;
        check();
    });
    loop.exec();
    watch.stop();

    const QList<AuditFinding> findings = watch.findings();
    const qint64 auditMaxTtl = watch.auditMaxTtlMs();
    const int reachable = watch.nodesUp();
    const int quorum = watch.quorum();
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
                   {QStringLiteral("maxTtlMs"), auditMaxTtl},
                   {QStringLiteral("nodes"), static_cast<int>(nodes.size())},
                   {QStringLiteral("nodesReachable"), reachable},
                   {QStringLiteral("quorum"), quorum},
                   {QStringLiteral("severe"), SafetyAudit::hasSevere(findings)},
                   {QStringLiteral("exitCode"), auditExit}});
    } else if (findings.isEmpty()) {
        printOut(ObserveCommands::tr("No findings: %n node(s) checked, max TTL %1 ms.", nullptr,
                                     static_cast<int>(nodes.size()))
                     .arg(auditMaxTtl));
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
