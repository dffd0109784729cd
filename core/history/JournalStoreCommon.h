#pragma once

// What the two journal stores (JournalStore: a SQLite file; PostgresJournalStore: a deployment's PostgreSQL) do
// alike, written once: only their SQL differs.

#include "history/HistoryTypes.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>

#include <functional>
#include <optional>

namespace redlock::journal {

// This process as a writer of the journal (its sessions row): the source given, its pid, and the machine's host name.
HistoryWriter thisWriter(const QString& source);

// What a query's key glob narrows the rows to: an index range (the glob's literal prefix, or the key itself) in SQL,
// then the glob itself on each row read.
class KeyFilter
{
public:
    explicit KeyFilter(const QByteArray& pattern);
    // " AND <column> = :key", a range on the prefix, or nothing (a glob that begins with a wildcard).
    QString sql(const QString& column) const;
    void bind(QSqlQuery& query) const;
    bool matches(const QByteArray& key) const;

private:
    QByteArray m_pattern, m_prefix, m_prefixEnd;
    bool m_exact = false;
};

// The query's holder filter: a substring of the holder summary or of the printable token, case-insensitive.
bool holderMatches(const HistoryQuery& query, const QString& holder, const QByteArray& token);

// A row of either store's interval query: key, token, holder, from_ms, to_ms, ended, extensions, at_least_since,
// gone_by_ms, then the writer's source, pid, host.
HolderInterval intervalFromRow(const QSqlQuery& row);
// A row of either store's event query: at_ms, key, kind, token, previous_token, holder, detail, last_seen_held_ms,
// then the writer's source, pid, host (further columns are the store's own).
JournalEvent eventFromRow(const QSqlQuery& row);

// What differs in the SQL of the two stores' write() and prune(); the statements themselves are written once (below).
struct Dialect
{
    QString tablePrefix; // "" (SQLite) or "redlock_" (a shared PostgreSQL database): <prefix>events, ...
    QString greatest;    // the scalar maximum: SQLite's max, PostgreSQL's greatest
    QString beginWrite;  // BEGIN IMMEDIATE (SQLite: a write takes the file's lock at once) or BEGIN
    QString returningId; // " RETURNING id" where the driver gives no inserted row id (PostgreSQL), else empty
    // Several writers at once (PostgreSQL): taking over or ending an earlier session's interval also checks that the
    // interval is still that session's (another writer may have taken it first; adopt then returns no row), and a
    // late force release marks only this session's intervals.
    bool severalWriters = false;
    // Retention's delete of ended sessions before ? that no interval names any more.
    QString deleteEndedSessions;
    // Closes the open intervals of the sessions other than ? that ended or have not written since ?, as "unobserved"
    // at the session's last write.
    QString closeAbandoned;
    // Several writers: appended to a SELECT of intervals (id, key) whose rows a multi-row UPDATE then changes, so that
    // it locks them in the one order every writer locks intervals in (key, id; see PostgresJournalStore::writeOnce)
    // before it changes any: two writers updating the same keys' intervals in different orders deadlock. Empty (SQLite:
    // one writer at a time) = the plain UPDATE.
    QString lockInOrder;
};

// A writer's session rows, in the dialect's SQL; false: a statement failed (*failed).
// Registers this process as a writer: *session, the new session's id.
bool insertSession(const QSqlDatabase& db, const Dialect& dialect, const QString& source, qint64 nowMs, qint64* session,
                   QSqlError* failed);
// Closes the session's open intervals as "unobserved" at nowMs, and ends it.
bool endSession(const QSqlDatabase& db, const Dialect& dialect, qint64 session, qint64 nowMs, QSqlError* failed);
bool closeAbandoned(const QSqlDatabase& db, const Dialect& dialect, qint64 session, qint64 staleBeforeMs,
                    QSqlError* failed);

// This session's open interval of each key, kept in memory by a writer (write() would otherwise ask for it per event).
struct OpenInterval
{
    qint64 id = 0;
    QByteArray token;
};
using OpenIntervals = QHash<QByteArray, OpenInterval>;
// Reads this session's open intervals into *open. False: the query failed (*failed).
bool loadOpenIntervals(const QSqlDatabase& db, const Dialect& dialect, qint64 session, OpenIntervals* open,
                       QSqlError* failed);

// A statement of write(), bound by position (from 1): a QSqlQuery (QueryStatement), or SQLite's own statement for the
// hot ones (JournalStore.cpp).
class Statement
{
public:
    virtual ~Statement() = default;
    // A value bound may be used as it is, not copied: it must live until exec().
    virtual void bind(int i, qint64 value) = 0;
    virtual void bind(int i, const QByteArray& value) = 0;
    virtual void bind(int i, const QString& value) = 0;
    virtual void bindNull(int i, QMetaType::Type type) = 0; // type: the column's (PostgreSQL types its NULLs)
    virtual bool exec() = 0;
    // After exec(): the id of the row written (SQLite's last row id, or the row a RETURNING id gave); false: none.
    virtual bool writtenId(qint64* id) = 0;
    virtual QSqlError lastError() const = 0;
};

class QueryStatement final : public Statement
{
public:
    QueryStatement(const QSqlDatabase& db, const QString& sql);
    void bind(int i, qint64 value) override;
    void bind(int i, const QByteArray& value) override;
    void bind(int i, const QString& value) override;
    void bindNull(int i, QMetaType::Type type) override;
    bool exec() override;
    bool writtenId(qint64* id) override;
    QSqlError lastError() const override;

private:
    QSqlQuery m_query;
};

// The SQL of write()'s hot statements (an event's row, a tenure's start and end), for a store that prepares them
// itself.
struct HotStatementsSql
{
    QString insertEvent, openInterval, closeOpen;
};
HotStatementsSql hotStatementsSql(const Dialect& dialect);

// An earlier session's interval of a key, that this session's first sight of the key continues (the same token) or
// ends (ended-unwatched).
struct EarlierInterval
{
    qint64 id = 0;
    QByteArray token;
    bool open = false;         // no end yet; else it ended "unobserved"
    qint64 toMs = 0;           // its end, if it has one
    qint64 session = 0;        // whose it is
    qint64 sessionLastMs = -1; // until when that session watched (-1: unknown)
};
// A row of a store's lookup of such an interval: id, token, to_ms, until when its session watched (then the store's
// own columns).
EarlierInterval earlierFromRow(const QSqlQuery& row);

// Both stores' write(): the events' rows, and the tenures they begin, extend and end (TenureStep), in one transaction,
// with this session's open intervals in memory. What is the store's: its dialect, its hot statements if it prepares
// them itself, and which earlier interval a first sight takes over.
struct EventWriting
{
    QSqlDatabase db;
    const Dialect* dialect = nullptr;
    qint64 session = -1;
    OpenIntervals* open = nullptr;
    // Null: a QueryStatement of hotStatementsSql().
    Statement* insertEvent = nullptr;
    Statement* openInterval = nullptr;
    Statement* closeOpen = nullptr;
    // The interval a first sight of e.key in this session continues or ends, if any (*found); false: the lookup failed
    // (*failed).
    std::function<bool(const JournalEvent& e, std::optional<EarlierInterval>* found, QSqlError* failed)> findEarlier;
    // Run first in the write's transaction (null: nothing): where several writers write, takes the row locks the batch
    // may need on other sessions' intervals, in one order for every writer, so that two writers cannot deadlock.
    // False: it failed (*failed).
    std::function<bool(const QList<JournalEvent>& events, QSqlError* failed)> lockInOrder;
    // A statement failed: what the store tells (said before the rollback: a PostgreSQL store asks its connection).
    // inTransaction: the transaction had begun and is rolled back (what the store holds in memory may be too).
    std::function<void(const QSqlError& failure, bool inTransaction)> failed;
};
bool writeEvents(const QList<JournalEvent>& events, qint64 nowMs, const EventWriting& writing);

// Both stores' prune(): the events and closed intervals older than a cutoff, then retention by size (pruneToSize),
// with the store's measure and the store's way of giving space back.
struct Retention
{
    QSqlDatabase db;
    const Dialect* dialect = nullptr;
    std::function<qint64()> retainedBytes; // what retention by size keeps under the target (SizeRetention::dataBytes)
    std::function<bool(qint64 maxBytes)> sizeDue; // whether to trim by size at all now; null: always
    // After trimming by size (removed: it deleted rows); null: nothing.
    std::function<void(qint64 maxBytes, bool removed)> compact;
    std::function<void(const QSqlError& failure)> failed; // a delete failed: what the store tells
};
bool prune(qint64 olderThanMs, qint64 maxBytes, qint64* removed, const Retention& store);

// Both stores' query(): the intervals in the range (intervalFromRow's columns), the spans nobody watched, and with
// events the events in the range (eventFromRow's), filtered by key glob and holder and cut at the query's limit. The
// SQL is the store's, with %1 where the key filter's condition on its key column goes.
struct HistoryReading
{
    QSqlDatabase db;
    const Dialect* dialect = nullptr;
    QString intervalsSql, intervalKey; // binds :until and :since
    QString eventsSql, eventKey;       // binds :since and :until
    // Several writers' intervals of one tenure made one (PostgreSQL; the limit counts what it gives); null: the rows.
    std::function<QList<HolderInterval>(const QList<HolderInterval>&)> mergeTenures;
    // An event another writer's report of which was told already (PostgreSQL); null: none is.
    std::function<bool(const JournalEvent& e, const QSqlQuery& row)> toldAlready;
    std::function<QString(const QSqlError& failure)> failed; // why a query failed, translated
};
HistoryResult readHistory(const HistoryQuery& query, qint64 nowMs, const HistoryReading& reading);

// The sessions of the store's sessions table as spans, and those that no session covers (unwatchedSpans below).
QList<UnwatchedSpan> unwatchedSpans(const QSqlDatabase& db, const Dialect& dialect, qint64 sinceMs, qint64 untilMs,
                                    qint64 nowMs);

// Retention by size, with the store's statements: rounds that remove the oldest events and closed tenures (never an
// open one), as large a share of them as the data is over the target and a tenth more (so that the next writes do
// not start over at once), until the data takes at most maxBytes. False: a delete failed (the store said why).
struct SizeRetention
{
    // What the rows take (not space a store keeps for later rows); -1: unknown. A measure that does not go down
    // after rows were removed ends the rounds: each would otherwise take another share of what is left.
    std::function<qint64()> dataBytes;
    std::function<bool(qint64*, qint64*)> countRows;     // events, closed intervals
    std::function<bool(qint64, qint64, qint64*)> cutoff; // the instant at these offsets (events, closed intervals)
    std::function<qint64(qint64)> deleteBefore;          // rows removed before this instant; -1: failed
};
bool pruneToSize(qint64 maxBytes, const SizeRetention& store);
// countRows and cutoff as SQL on db's <tablePrefix>events and <tablePrefix>intervals; greatest: the dialect's scalar
// maximum (SQLite's max, PostgreSQL's greatest).
void addRowQueries(SizeRetention* store, const QSqlDatabase& db, const QString& tablePrefix, const QString& greatest);

// One writer's session, as the sessions tables keep it.
struct SessionSpan
{
    qint64 startedMs = 0;
    qint64 lastMs = 0; // ended_ms, or the last write of a session without an end
    bool ended = false;
    QString source;
};
// The spans no session covers (sessions in order of their start), those that meet [sinceMs, untilMs].
QList<UnwatchedSpan> unwatchedSpans(const QList<SessionSpan>& sessions, qint64 sinceMs, qint64 untilMs, qint64 nowMs);

} // namespace redlock::journal
