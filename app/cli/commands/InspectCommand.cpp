// redlock inspect: one full inspection of the cluster (LockInspector) headless, as a table or JSON Lines.

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

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>

namespace redlock::cli {

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

// A line of output being built: std::string's appends are inline, QByteArray's each go through its general
// insert(). A JSON line is some 60 appends; it goes to the output in one.
class Line
{
public:
    void clear() { m_bytes.clear(); }
    void append(const char* data, qsizetype size) { m_bytes.append(data, size_t(size)); }
    template <size_t N> Line& operator+=(const char (&literal)[N])
    {
        m_bytes.append(literal, N - 1);
        return *this;
    }
    Line& operator+=(char c)
    {
        m_bytes.push_back(c);
        return *this;
    }
    Line& operator+=(const QByteArray& bytes)
    {
        append(bytes.constData(), bytes.size());
        return *this;
    }
    Line& operator+=(const Line& other)
    {
        m_bytes.append(other.m_bytes);
        return *this;
    }
    bool isEmpty() const { return m_bytes.empty(); }
    const char* data() const { return m_bytes.data(); }
    qsizetype size() const { return qsizetype(m_bytes.size()); }

private:
    std::string m_bytes;
};

// The JSON string of printableBytes(bytes, -1), appended: bytes that are all ASCII go straight through
// (printableBytes shows them as they are, except the controls, DEL and the backslash, which it writes as \xNN
// and JSON then escapes once more); anything else takes the general path. At 1M locks this runs a few million
// times: no QString on the way.
void appendPrintableJson(Line& out, QByteArrayView bytes)
{
    static constexpr char hex[] = "0123456789abcdef";
    const char* const begin = bytes.data();
    const char* const end = begin + bytes.size();
    for (const char* p = begin; p < end; ++p) {
        if (static_cast<unsigned char>(*p) >= 0x80) {
            QByteArray general;
            appendJsonString(general, printableBytes(bytes.toByteArray(), -1));
            out += general;
            return;
        }
    }
    out += '"';
    const char* run = begin;
    for (const char* p = begin; p < end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            continue;
        out.append(run, p - run);
        run = p + 1;
        if (c == '"') {
            out += "\\\"";
        } else { // printableBytes' \xNN, its backslash escaped for JSON
            out += "\\\\x";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        }
    }
    out.append(run, end - run);
    out += '"';
}

void appendNumber(Line& out, qint64 value)
{
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, result.ptr - digits);
}

// The stable ids of an enum's values as bytes, each converted once.
template <typename Enum, QString (*id)(Enum), int Count> const QByteArray& idBytes(Enum value)
{
    static const std::array<QByteArray, Count> ids = [] {
        std::array<QByteArray, Count> all;
        for (int i = 0; i < Count; ++i)
            all[size_t(i)] = id(static_cast<Enum>(i)).toLatin1();
        return all;
    }();
    return ids[size_t(value)];
}

// One lock as one line of JSON (JSON Lines), written directly: at 100,000 locks a QJsonObject per lock cost
// more than the inspection. The fields are those of the documented format (see the command's --help).
class LockJson
{
public:
    void append(QByteArray& out, const LockView& view, const QList<QByteArray>& nodeNames, qint64 nowNs);

private:
    Line m_line;
    Line m_token;            // the view's token as a JSON string: escaped once, reused by the nodes that hold it
    QString m_holderSummary; // the last holder summary and its JSON string (the locks of one client share it)
    QByteArray m_holderJson;
};

void LockJson::append(QByteArray& output, const LockView& view, const QList<QByteArray>& nodeNames, qint64 nowNs)
{
    Line& out = m_line;
    out.clear();
    m_token.clear();
    appendPrintableJson(m_token, view.token);
    out += R"({"type":"lock","key":)";
    appendPrintableJson(out, view.key);
    out += R"(,"verdict":")";
    out += idBytes<LockVerdict, lockVerdictId, int(LockVerdict::ReleasedByOperator) + 1>(view.verdict);
    out += R"(","token":)";
    out += m_token;
    out += R"(,"holders":)";
    appendNumber(out, view.holders);
    out += R"(,"quorum":)";
    appendNumber(out, view.quorum);
    out += R"(,"validityMs":)";
    appendNumber(out, view.remainingValidityMs(nowNs));
    if (view.verdict == LockVerdict::ReleasedByOperator) {
        out += R"(,"freeInMs":)";
        appendNumber(out, view.remainingFreeInMs(nowNs));
    }
    const HolderInfo& holder = *view.holder;
    out += R"(,"format":")";
    out += idBytes<HolderFormat, holderFormatId, int(HolderFormat::Tombstone) + 1>(holder.format);
    out += R"(","holder":)";
    if (holder.summary != m_holderSummary || m_holderJson.isEmpty()) {
        m_holderSummary = holder.summary;
        m_holderJson.truncate(0);
        appendJsonString(m_holderJson, holder.summary);
    }
    out += m_holderJson;
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
        appendPrintableJson(out, view.noExpiryToken);
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
        out += idBytes<NodeLockState::Presence, presenceKey, int(NodeLockState::Presence::Refused) + 1>(s.presence);
        out += '"';
        if (s.presence == NodeLockState::Presence::Holding || s.presence == NodeLockState::Presence::NotALock) {
            out += R"(,"value":)";
            if ((s.token.constData() == view.token.constData() && s.token.size() == view.token.size()) ||
                s.token == view.token)
                out += m_token; // escaped once: a lock has the same value on every node
            else
                appendPrintableJson(out, s.token);
            out += R"(,"pttlMs":)";
            appendNumber(out, s.pttlMs);
        }
        if (!s.note.isEmpty()) {
            out += R"(,"note":)";
            QByteArray note;
            appendJsonString(note, printableText(s.note, -1));
            out += note;
        }
        out += '}';
    }
    out += "]}\n";
    output.append(out.data(), out.size());
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

// Up to this many locks are sorted by key before anything is written; past it, the locks are written as the
// inspection finds them, so memory does not grow with their number.
constexpr qsizetype kSortedLocks = 1000;

// inspect writes its output in pieces of about this size.
constexpr qsizetype kOutputPiece = 64 * 1024;

// What `inspect` writes, fed with each lock as the inspection merges it (LockInspector's view sink, on the
// inspector's thread; finish() on the command's thread once the pass is over). Keeps at most kSortedLocks
// views and a 64 KB piece of output.
class InspectWriter
{
public:
    InspectWriter(const QList<NodeEndpoint>& nodes, bool json)
        : m_nodes(nodes), m_json(json), m_table(inspectColumnCaps(nodes.size())), m_clock(SteadyClock::system())
    {
        m_out.reserve(kOutputPiece + 16 * 1024);
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
            printDiagnostic(printableText(e, 500));
        // A key a reachable node did not give (an ACL refusal, NOPERM) shows in its cell without the reason:
        // the reason goes here, once per node and reason (D11: it read as "unreachable", with no reason).
        for (auto it = m_notRead.cbegin(); it != m_notRead.cend(); ++it) {
            if (!summary.nodeReachable.value(it.key().first))
                continue;
            printDiagnostic(ObserveCommands::tr("%1: %n key(s) not read: %2", nullptr, it.value())
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
            m_lockJson.append(m_out, view, m_nodeNames, nowNs);
        else
            m_out += m_table.line(inspectRow(view, m_nodes.size(), nowNs)).toUtf8() + '\n';
        if (m_out.size() >= kOutputPiece)
            flush();
    }

    void flush()
    {
        writeOut(m_out);
        m_out.truncate(0); // keeps its capacity: the next piece is not grown again from nothing
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
    LockJson m_lockJson;
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

} // namespace redlock::cli
