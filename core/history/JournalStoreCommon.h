#pragma once

// What the two journal stores (JournalStore: a SQLite file; PostgresJournalStore: a deployment's PostgreSQL) do
// alike, written once: only their SQL differs.

#include "history/HistoryTypes.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

class QSqlDatabase;
class QSqlQuery;

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
