// redlock history: who held a lock when, and how it ended, from the journal the console and `redlock watch
// --journal` write (core/history).

#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "runtime/HumanUnits.h"

#include "history/JournalImport.h"
#include "history/LockJournal.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QStandardPaths>

namespace redlock::cli {

// The translation context of this file's messages.
class HistoryCommand
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::HistoryCommand)
};

namespace {

// The console's journal (history.sqlite in its AppDataLocation). The CLI's application name differs, so it names
// the console's folder here; the core only knows the running application's own.
QString consoleJournalPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/RedlockConsole/redlock-console/history.sqlite");
}

QString isoUtc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString localTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

// redlock history --import FILE --journal URL: a team's embedded history moved into its shared one.
int runHistoryImport(const QCommandLineParser& parser)
{
    const QString file = parser.value(QStringLiteral("import"));
    const QString url = parser.value(QStringLiteral("journal"));
    if (!parser.positionalArguments().isEmpty() || !parser.isSet(QStringLiteral("journal")))
        return fail(ExitUsage, HistoryCommand::tr("--import FILE goes into a shared history: --journal "
                                                  "postgresql://user@host[:port]/database, and no KEY"));
    // An import copies the whole journal: a query option would be silently ignored, and the operator would believe
    // only the matching part was copied.
    for (const QString& query : {QStringLiteral("since"), QStringLiteral("until"), QStringLiteral("holder"),
                                 QStringLiteral("limit"), QStringLiteral("events")}) {
        if (parser.isSet(query))
            return fail(ExitUsage, HistoryCommand::tr("--%1 selects what history reads; --import copies the whole "
                                                      "journal and takes no query options")
                                       .arg(query));
    }
    if (const QString problem = LockJournal::locationProblem(url); !problem.isEmpty())
        return fail(ExitUsage, problem);
    // A file as --journal is refused there too (the import goes into PostgreSQL), before anything is read.
    const JournalImportResult r = JournalImport::importSqlite(file, url);
    if (!r.error.isEmpty())
        return fail(ExitUsage, r.error);
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(QJsonObject{{QStringLiteral("imported"), QDir::toNativeSeparators(file)},
                              {QStringLiteral("journal"), LockJournal::displayLocation(url)},
                              {QStringLiteral("sessions"), r.sessions},
                              {QStringLiteral("intervals"), r.intervals},
                              {QStringLiteral("events"), r.events},
                              {QStringLiteral("sessionsPresent"), r.sessionsPresent},
                              {QStringLiteral("intervalsPresent"), r.intervalsPresent},
                              {QStringLiteral("eventsPresent"), r.eventsPresent}});
        return ExitOk;
    }
    printOut(HistoryCommand::tr("Imported %1 into %2: %3 holder intervals, %4 events, %5 writer sessions; already "
                                "there: %6 intervals, %7 events, %8 sessions.")
                 .arg(QDir::toNativeSeparators(file), LockJournal::displayLocation(url))
                 .arg(r.intervals)
                 .arg(r.events)
                 .arg(r.sessions)
                 .arg(r.intervalsPresent)
                 .arg(r.eventsPresent)
                 .arg(r.sessionsPresent));
    return ExitOk;
}

// The writer that saw a tenure or an event (its session: "exporter", "watch", "console"), null when the journal does
// not know it (a session pruned, a journal from before).
QJsonValue writerJson(const HistoryWriter& writer)
{
    if (!writer.isKnown())
        return QJsonValue();
    return QJsonObject{
        {QStringLiteral("source"), printableText(writer.source, -1)},
        {QStringLiteral("pid"), writer.pid > 0 ? QJsonValue(writer.pid) : QJsonValue()},
        {QStringLiteral("host"), writer.host.isEmpty() ? QJsonValue() : QJsonValue(printableText(writer.host, -1))}};
}

} // namespace

int runHistory(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("KEY"),
                                 HistoryCommand::tr("Lock key or glob (*, ?, [a-z]); default * (every key)."));
    parser.addOption({QStringLiteral("journal"),
                      HistoryCommand::tr("The journal to read (default: the console's, named below): a file, or "
                                         "a shared history in PostgreSQL, postgresql://user@host[:port]/database "
                                         "(the password from PGPASSWORD or ~/.pgpass, never in the URL)."),
                      HistoryCommand::tr("FILE|URL")});
    parser.addOption({QStringLiteral("since"),
                      HistoryCommand::tr("From this time (default -24h): ISO 8601 such as 2026-11-23T14:03 (local "
                                         "time) or 2026-11-23T14:03:00Z, or relative: -90s, -30m, -1h, -2d, -1w."),
                      HistoryCommand::tr("TIME")});
    parser.addOption({QStringLiteral("until"),
                      HistoryCommand::tr("Up to this time (default now), written as for --since. --since and --until "
                                         "the same instant: who held the key at that instant."),
                      HistoryCommand::tr("TIME")});
    parser.addOption({QStringLiteral("holder"),
                      HistoryCommand::tr("Only holders whose summary or token contains this text (any case)."),
                      HistoryCommand::tr("TEXT")});
    parser.addOption({QStringLiteral("limit"), HistoryCommand::tr("At most this many intervals (default 1000)."),
                      HistoryCommand::tr("N")});
    parser.addOption({QStringLiteral("events"), HistoryCommand::tr("Also list every journaled event in the range.")});
    parser.addOption({QStringLiteral("json"), HistoryCommand::tr("Print JSON instead of text.")});
    parser.addOption({QStringLiteral("import"),
                      HistoryCommand::tr("Instead of reading: copy this SQLite journal (the console's, or one `redlock "
                                         "watch` or `redlock exporter` wrote) into the shared history that --journal "
                                         "postgresql://... names, every holder, event, writer and span nobody "
                                         "watched at its own time. Importing it again adds only what is new; a file "
                                         "that is no journal, or a failure part-way, writes nothing. Takes none of "
                                         "the query options (KEY, --since, --until, --holder, --limit, --events). "
                                         "Stop the journal's writer first."),
                      HistoryCommand::tr("FILE")});
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, QStringLiteral("history [options] [KEY]"),
            HistoryCommand::tr(
                "Who held a lock when: every holder's interval (from the moment its token was seen on a quorum to "
                "the moment it was not), how it ended (released, expired, taken over, lost on a node restart, "
                "force-released, observation ended, or ended while not watched) and how often it was extended, from "
                "the lock history journal that the console, `redlock watch --journal FILE` and `redlock exporter "
                "--journal FILE` write. Intervals that "
                "overlap the time range are listed; \"still held\" means held when last observed. A holder that "
                "already held the lock when watching started is shown \"at least since\" the moment it was first "
                "seen (JSON: \"atLeastSince\": true): when it acquired the lock is not known. A holder seen again "
                "by the next watch keeps one interval; one that was gone by then \"ended while not watched\", "
                "after the time shown. The spans when no writer watched (a console closed, a watch or exporter "
                "stopped, "
                "restarted or killed) are listed as \"not watched\" (JSON: \"unwatched\"): what happened then is not "
                "in the journal.\n\nThe console's journal: %1")
                .arg(LockJournal::pathForDisplay(consoleJournalPath())),
            &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(QStringLiteral("import")))
        return runHistoryImport(parser);
    if (positional.size() > 1) {
        return fail(ExitUsage, HistoryCommand::tr("history takes one KEY (a glob matches several)"));
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    HistoryQuery query;
    query.keyPattern = positional.isEmpty() ? QByteArrayLiteral("*") : positional.first().toUtf8();
    query.withEvents = parser.isSet(QStringLiteral("events"));
    query.holder = parser.value(QStringLiteral("holder"));
    const auto timeOption = [&](const QString& name, qint64 fallback, qint64* out) {
        if (!parser.isSet(name)) {
            *out = fallback;
            return true;
        }
        QString outOfRange;
        const auto parsed = parseHistoryTime(parser.value(name), now, &outOfRange);
        if (!parsed && !outOfRange.isEmpty()) {
            printDiagnostic(HistoryCommand::tr("--%1: %2").arg(name, outOfRange));
            return false;
        }
        if (!parsed) {
            printDiagnostic(HistoryCommand::tr("--%1: \"%2\" is no time: write ISO 8601 (2026-11-23T14:03, "
                                               "2026-11-23T14:03:00Z) or relative (-30m, -1h, -2d)")
                                .arg(name, printableText(parser.value(name))));
            return false;
        }
        *out = *parsed;
        return true;
    };
    qint64 limit = 1000;
    if (!timeOption(QStringLiteral("since"), now - 24 * 3600'000LL, &query.sinceMs) ||
        !timeOption(QStringLiteral("until"), now, &query.untilMs) ||
        !intOption(parser, QStringLiteral("limit"), 1, 10'000'000, &limit))
        return ExitUsage;
    if (query.untilMs < query.sinceMs) {
        return fail(ExitUsage, HistoryCommand::tr("--until is before --since"));
    }
    query.limit = int(limit);
    const QString path =
        parser.isSet(QStringLiteral("journal")) ? parser.value(QStringLiteral("journal")) : consoleJournalPath();
    if (path.isEmpty()) {
        return fail(ExitUsage, HistoryCommand::tr("--journal needs a file name"));
    }
    if (const QString problem = LockJournal::locationProblem(path); !problem.isEmpty()) {
        printDiagnostic(problem);
        return ExitUsage;
    }

    const HistoryResult result = LockJournal::queryFile(path, query, now);
    if (!result.error.isEmpty()) {
        return fail(ExitUsage, result.error);
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray intervals;
        for (const HolderInterval& i : result.intervals) {
            intervals.append(QJsonObject{
                {QStringLiteral("key"), printableBytes(i.key, -1)},
                {QStringLiteral("token"), printableBytes(i.token, -1)},
                {QStringLiteral("holder"), holderDisplayText(i.holder, {}, -1)},
                {QStringLiteral("from"), isoUtc(i.fromMs)},
                {QStringLiteral("to"), i.isOpen() ? QJsonValue() : QJsonValue(isoUtc(i.toMs))},
                {QStringLiteral("fromMs"), i.fromMs},
                {QStringLiteral("toMs"), i.isOpen() ? QJsonValue() : QJsonValue(i.toMs)},
                {QStringLiteral("durationMs"), i.durationMs(now)},
                {QStringLiteral("endedBy"), i.isOpen() ? QJsonValue() : QJsonValue(i.endedBy)},
                {QStringLiteral("stillHeld"), i.isOpen()},
                {QStringLiteral("atLeastSince"), i.atLeastSince},
                // An end nobody saw: it ended after `to` (last seen held) and by `goneBy` (found gone).
                {QStringLiteral("goneBy"), i.goneByMs < 0 ? QJsonValue() : QJsonValue(isoUtc(i.goneByMs))},
                {QStringLiteral("goneByMs"), i.goneByMs < 0 ? QJsonValue() : QJsonValue(i.goneByMs)},
                {QStringLiteral("extensions"), i.extensions},
                {QStringLiteral("seenBy"), writerJson(i.writer)},
            });
        }
        // Nobody watched then: an end in such a span is never a release (to null: not watched since from).
        QJsonArray unwatched;
        for (const UnwatchedSpan& span : result.unwatched) {
            unwatched.append(QJsonObject{
                {QStringLiteral("from"), isoUtc(span.fromMs)},
                {QStringLiteral("fromMs"), span.fromMs},
                {QStringLiteral("to"), span.isOpen() ? QJsonValue() : QJsonValue(isoUtc(span.toMs))},
                {QStringLiteral("toMs"), span.isOpen() ? QJsonValue() : QJsonValue(span.toMs)},
                {QStringLiteral("before"), printableText(span.before, -1)},
            });
        }
        QJsonObject out{{QStringLiteral("journal"), LockJournal::displayLocation(path)},
                        {QStringLiteral("key"), printableBytes(query.keyPattern, -1)},
                        {QStringLiteral("since"), isoUtc(query.sinceMs)},
                        {QStringLiteral("until"), isoUtc(query.untilMs)},
                        {QStringLiteral("intervals"), intervals},
                        {QStringLiteral("unwatched"), unwatched},
                        {QStringLiteral("truncated"), result.truncated}};
        if (query.withEvents) {
            QJsonArray events;
            for (const JournalEvent& e : result.events) {
                QJsonObject o{{QStringLiteral("at"), isoUtc(e.atMs)},
                              {QStringLiteral("event"), e.kind},
                              {QStringLiteral("key"), printableBytes(e.key, -1)},
                              {QStringLiteral("token"), printableBytes(e.token, -1)},
                              {QStringLiteral("holder"), holderDisplayText(e.holder, {}, -1)}};
                if (!e.previousToken.isEmpty())
                    o.insert(QStringLiteral("previousToken"), printableBytes(e.previousToken, -1));
                if (!e.detail.isEmpty())
                    o.insert(QStringLiteral("detail"), printableText(e.detail, -1));
                if (e.endsUnobserved()) {
                    o.insert(QStringLiteral("lastSeenHeld"), isoUtc(e.lastSeenHeldMs));
                    o.insert(QStringLiteral("lastSeenHeldMs"), e.lastSeenHeldMs);
                }
                o.insert(QStringLiteral("seenBy"), writerJson(e.writer));
                events.append(o);
            }
            out.insert(QStringLiteral("events"), events);
        }
        printJson(out);
        return ExitOk;
    }
    if (result.intervals.isEmpty()) {
        printOut(HistoryCommand::tr("No holder of %1 between %2 and %3 in %4.")
                     .arg(printableBytes(query.keyPattern), localTime(query.sinceMs), localTime(query.untilMs),
                          QDir::toNativeSeparators(path)));
    } else {
        QList<QStringList> rows{{HistoryCommand::tr("KEY"), HistoryCommand::tr("HOLDER"), HistoryCommand::tr("FROM"),
                                 HistoryCommand::tr("TO"), HistoryCommand::tr("HELD"), HistoryCommand::tr("ENDED"),
                                 HistoryCommand::tr("EXTENDED"), HistoryCommand::tr("SEEN BY")}};
        for (const HolderInterval& i : result.intervals) {
            // Held when first seen: since then at least; when it was acquired is not known.
            const QString from =
                i.atLeastSince ? HistoryCommand::tr("at least since %1").arg(localTime(i.fromMs)) : localTime(i.fromMs);
            // An end nobody saw: held at least until it was last seen, gone by the read that found it gone.
            const bool unseenEnd = !i.isOpen() && i.goneByMs >= 0;
            const QString held = i.atLeastSince || unseenEnd
                                     ? HistoryCommand::tr("at least %1").arg(HumanUnits::duration(i.durationMs(now)))
                                     : HumanUnits::duration(i.durationMs(now));
            const QString to =
                i.isOpen()  ? QStringLiteral("-")
                : unseenEnd ? HistoryCommand::tr("between %1 and %2").arg(localTime(i.toMs), localTime(i.goneByMs))
                            : localTime(i.toMs);
            rows.append({printableBytes(i.key, 60), elide(holderDisplayText(i.holder, i.token), 60), from, to, held,
                         intervalEndName(i.endedBy), QString::number(i.extensions),
                         i.writer.isKnown() ? elide(historyWriterText(i.writer), 60) : QStringLiteral("-")});
        }
        printOut(formatTable(rows, QString()));
    }
    if (!result.unwatched.isEmpty()) {
        printOut(QString());
        for (const UnwatchedSpan& span : result.unwatched) {
            const QString writer = printableText(span.before);
            printOut(span.isOpen()
                         ? HistoryCommand::tr("not watched since %1 (%2 stopped or died; no writer since)")
                               .arg(localTime(span.fromMs), writer)
                         : HistoryCommand::tr("not watched from %1 to %2 (%3; %4 stopped or died): what happened "
                                              "then is not in the journal")
                               .arg(localTime(span.fromMs), localTime(span.toMs),
                                    HumanUnits::duration(span.toMs - span.fromMs), writer));
        }
    }
    if (query.withEvents && !result.events.isEmpty()) {
        printOut(QString());
        for (const JournalEvent& e : result.events) {
            QString line = QStringLiteral("%1  %2  %3  %4")
                               .arg(localTime(e.atMs), journalKindName(e.kind).leftJustified(16), printableBytes(e.key),
                                    holderDisplayText(e.holder, e.token));
            if (!e.detail.isEmpty())
                line += QStringLiteral("  (%1)").arg(printableText(e.detail));
            if (e.endsUnobserved())
                line += HistoryCommand::tr("  (not observed: between %1 and %2)")
                            .arg(localTime(e.lastSeenHeldMs), localTime(e.atMs));
            printOut(line);
        }
    }
    if (result.truncated)
        printDiagnostic(HistoryCommand::tr("more than %1 matched; the first %1 are shown (--limit)").arg(query.limit));
    return ExitOk;
}

} // namespace redlock::cli
