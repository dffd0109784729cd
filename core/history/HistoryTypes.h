#pragma once

// Value types of the lock history: what the journal stores (one row per observed transition) and what a
// query returns (who held a key, from when to when, and how it ended). Plain copyable values.

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace redlock {

// The writer whose session journaled a row (the sessions table): who saw it. Read back by queries; a producer
// leaves it empty (the journal that writes the row knows its own session).
struct HistoryWriter
{
    QString source; // "console", "watch", "exporter"; empty: not known (a session pruned, a journal from before)
    qint64 pid = 0;
    QString host; // the machine it ran on; empty: not known (a journal from before hosts were recorded)
    bool isKnown() const { return !source.isEmpty(); }
};
// The writer as `redlock history` shows it: "exporter (pid 4242 on db1)"; empty when not known. Escaped for a
// terminal.
QString historyWriterText(const HistoryWriter& writer);

// One observed transition, as journaled. `kind` is a stable id: the LockEvent ids (lockEventKindId:
// "acquired", "released", "expired", "token-changed", "contested", "lost-on-restart", "extended", "seen-held",
// "released-or-expired", "evicted") and
// "force-released" (an operator's force release that deleted the lock on enough nodes that its holder no longer
// has a quorum), "force-released-minority" (one that deleted it on a minority only: the holder still holds, its
// interval goes on). "seen-held" is no transition: a
// holder found on a quorum whose acquisition was not observed (held when watching started, or while the lock's
// state was unknown).
struct JournalEvent
{
    qint64 atMs = 0; // wall clock when observed
    QByteArray key;
    QString kind;
    QByteArray token;         // the holder the event is about
    QByteArray previousToken; // token-changed: the one before
    QString holder;           // the holder's summary as the console shows it
    QString detail;           // lost: the nodes that restarted without it; force-released: operator and reason
    // An end nobody saw happen (LockEvent::lastSeenHeldMs): it happened after this instant (the last read that saw
    // the holder) and by atMs (the read that found it gone). 0: at atMs. Journals from before it have none.
    qint64 lastSeenHeldMs = 0;
    bool endsUnobserved() const { return lastSeenHeldMs > 0; }
    HistoryWriter writer; // read back: the writer that saw it
};

// One holder's tenure of one key, rebuilt from the journal: from the instant its token was seen on a quorum
// to the instant it was not.
//
// Across watching sessions (the console or `redlock watch` stopped, or died, and started again) a tenure is one
// interval: when the first observation of the new session finds the same token holding the key as the one whose
// interval the journal had open (or had ended as "unobserved" when the old session stopped), that interval goes
// on (the same token is the same tenure: clients draw a random token per acquisition; Redisson's
// `<client>:<thread>` is the exception, a release and re-acquire by the same thread while nobody watched looks
// like one tenure). When it finds another holder, or the key already taken over before the new session saw it
// free, the old interval ends as "ended-unwatched" at the last instant it was seen held: it ended some time
// between then and the next holder's start, when is not known; it is never told as released at a made-up time.
struct HolderInterval
{
    QByteArray key;
    QByteArray token;
    QString holder;
    qint64 fromMs = 0;
    qint64 toMs = -1; // -1: still held when last observed (or observation ended while it was held)
    // "released", "expired", "released-or-expired" (nobody saw which: keyspace events off), "evicted",
    // "token-changed", "lost-on-restart", "force-released"; "unobserved" (watching stopped
    // while it was held: toMs is the last instant it was seen held, whether and when it ended is not known);
    // "ended-unwatched" (the next session found another holder or none: it ended after toMs, when is not
    // known); empty: still held
    QString endedBy;
    // An end nobody saw happen (no keyspace event told it): toMs is the last instant it was seen held, and it was
    // found gone at goneByMs; it ended somewhere between the two. -1: it ended at toMs (or is open).
    qint64 goneByMs = -1;
    int extensions = 0; // extends observed while it was held
    // The holder already held the key when it was first seen (watching started, or the lock's state had been
    // unknown): fromMs is that first sight, not its acquisition, which is earlier and unknown. Say "at least since
    // fromMs", never "acquired at".
    bool atLeastSince = false;
    // Read back: the writer that saw it last (a tenure that went on across a restart belongs to the session that
    // took it over).
    HistoryWriter writer;
    bool isOpen() const { return toMs < 0; }
    // How long it was held, up to nowMs when still held (with atLeastSince: at least this long).
    qint64 durationMs(qint64 nowMs) const { return (toMs < 0 ? nowMs : toMs) - fromMs; }
};

// What the history view and `redlock history` ask for. Times are wall clock ms since the epoch.
struct HistoryQuery
{
    QByteArray keyPattern;  // Redis glob (*, ?, [a-z], \ escapes), binary safe; empty = every key
    QString holder;         // substring of the holder summary or the printable token, case-insensitive; empty = any
    qint64 sinceMs = 0;     // intervals that end at or after this instant (or are still open)
    qint64 untilMs = -1;    // ... and start at or before this one; -1 = now
    int limit = 10000;      // at most this many intervals; HistoryResult::truncated says when more matched
    bool withEvents = true; // also the journaled events of the matching keys in the time range
};

// A span when no writer watched (journaled): between one writer's session and the next (a console closed, `redlock
// watch` or the exporter stopped, restarted or killed), or after the last one. A writer that dies says nothing, but
// it writes at least every kJournalHeartbeatMs: its session ends at its last write. What happened in the span is
// not in the journal: a tenure that ended there is "ended-unwatched" or "unobserved", never a release.
constexpr qint64 kJournalHeartbeatMs = 30'000;
// A session without an end that has not written for this long is gone (four heartbeats missed).
constexpr qint64 kJournalSilentAfterMs = 120'000;
struct UnwatchedSpan
{
    qint64 fromMs = 0; // the last instant the writer before it was known to watch
    qint64 toMs = -1;  // when the next writer started; -1: none has since (not watched since fromMs)
    QString before;    // the writer that watched up to fromMs: "console", "watch", "exporter"
    bool isOpen() const { return toMs < 0; }
};

struct HistoryResult
{
    QList<HolderInterval> intervals; // by key, then start
    QList<JournalEvent> events;      // by time
    QList<UnwatchedSpan> unwatched;  // the spans of the range nobody watched, by time
    bool truncated = false;
    QString error; // the journal could not be read (translated); empty = success
    qint64 queriedAtMs = 0;
};

// Translated names of the stored ids, for display.
// What a journaled event does to its key's tenure (HolderInterval), the same in every store (JournalStore,
// PostgresJournalStore): Begin (acquired, token-changed, seen-held: a tenure of the event's token begins, or goes on
// when it is the open one), Extend, End (the holder's own end: released, expired, lost-on-restart,
// released-or-expired, evicted; an event of another token ends no one else's), ForceEnd (force-released: ends the
// token's tenure, even one that is no longer the open one), None (contested: no token has a quorum, the one that had
// it was closed already; force-released-minority: the holder kept its quorum, its tenure goes on).
enum class TenureStep { None, Begin, Extend, End, ForceEnd };
TenureStep tenureStepOf(const QString& kindId);
QString journalKindName(const QString& kindId);
QString intervalEndName(const QString& endedBy);

// The holder of an interval or event as shown (console and CLI, text and JSON). The summary is display text
// already: decodeHolder escaped what it took from the lock value there, once (printableText, printableBytes), so
// it is shown as it is; without one, the token is escaped (printableBytes, at most maxChars). The result is never
// escaped again: "\x1b" would read "\x5cx1b". A summary that still holds something to escape (a control
// character: not one decodeHolder made) is escaped as a whole.
QString holderDisplayText(const QString& holder, const QByteArray& token, int maxChars = 200);

// A point in time on the command line: ISO 8601 ("2026-11-23T14:03", "2026-11-23 14:03:00", with or without
// a zone offset or Z; local time without), "now", or relative to now: "-1h", "-30m", "-2d", "-90s", "-1w"
// (also "1h ago"). nullopt when it is none of these, or when a relative time reaches back further than
// kHistoryTimeMaxBackYears (such a count of ms would overflow): then *error (when given) says so (translated),
// otherwise it is left empty.
constexpr qint64 kHistoryTimeMaxBackYears = 10000;
std::optional<qint64> parseHistoryTime(const QString& text, qint64 nowMs, QString* error = nullptr);

} // namespace redlock

Q_DECLARE_METATYPE(redlock::JournalEvent)
Q_DECLARE_METATYPE(redlock::HolderInterval)
Q_DECLARE_METATYPE(redlock::HistoryQuery)
Q_DECLARE_METATYPE(redlock::HistoryResult)
