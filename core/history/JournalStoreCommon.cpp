#include "history/JournalStoreCommon.h"

#include "observe/KeyPattern.h"
#include "observe/ObservationTypes.h"

#include <QCoreApplication>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSysInfo>
#include <QVariant>

#include <algorithm>

namespace redlock::journal {

namespace {

// The literal start of a Redis glob (up to its first wildcard or escape).
QByteArray literalPrefix(const QByteArray& pattern)
{
    qsizetype i = 0;
    while (i < pattern.size() && !QByteArrayView("*?[\\").contains(pattern.at(i)))
        ++i;
    return pattern.left(i);
}

// The first byte string after every string that starts with prefix; empty: none (all 0xFF).
QByteArray prefixSuccessor(QByteArray prefix)
{
    while (!prefix.isEmpty()) {
        auto last = static_cast<unsigned char>(prefix.back());
        if (last < 0xFF) {
            prefix.back() = static_cast<char>(last + 1);
            return prefix;
        }
        prefix.chop(1);
    }
    return {};
}

} // namespace

HistoryWriter thisWriter(const QString& source)
{
    return {source, QCoreApplication::applicationPid(), QSysInfo::machineHostName()};
}

KeyFilter::KeyFilter(const QByteArray& pattern)
    : m_pattern(pattern), m_prefix(literalPrefix(pattern)), m_prefixEnd(prefixSuccessor(m_prefix)),
      m_exact(!pattern.isEmpty() && m_prefix.size() == pattern.size())
{}

QString KeyFilter::sql(const QString& column) const
{
    if (m_exact)
        return QStringLiteral(" AND %1 = :key").arg(column);
    if (m_prefix.isEmpty())
        return {};
    return m_prefixEnd.isEmpty() ? QStringLiteral(" AND %1 >= :key").arg(column)
                                 : QStringLiteral(" AND %1 >= :key AND %1 < :keyEnd").arg(column);
}

void KeyFilter::bind(QSqlQuery& query) const
{
    if (m_exact || !m_prefix.isEmpty())
        query.bindValue(QStringLiteral(":key"), m_prefix);
    if (!m_exact && !m_prefix.isEmpty() && !m_prefixEnd.isEmpty())
        query.bindValue(QStringLiteral(":keyEnd"), m_prefixEnd);
}

bool KeyFilter::matches(const QByteArray& key) const
{
    return m_pattern.isEmpty() || m_exact || globMatches(m_pattern, key);
}

bool holderMatches(const HistoryQuery& query, const QString& holder, const QByteArray& token)
{
    return query.holder.isEmpty() || holder.contains(query.holder, Qt::CaseInsensitive) ||
           printableBytes(token, -1).contains(query.holder, Qt::CaseInsensitive);
}

HolderInterval intervalFromRow(const QSqlQuery& row)
{
    HolderInterval i;
    i.key = row.value(0).toByteArray();
    i.token = row.value(1).toByteArray();
    i.holder = row.value(2).toString();
    i.fromMs = row.value(3).toLongLong();
    i.toMs = row.value(4).isNull() ? -1 : row.value(4).toLongLong();
    i.endedBy = row.value(5).toString();
    i.extensions = row.value(6).toInt();
    i.atLeastSince = row.value(7).toInt() != 0;
    i.goneByMs = row.value(8).isNull() ? -1 : row.value(8).toLongLong();
    i.writer = {row.value(9).toString(), row.value(10).toLongLong(), row.value(11).toString()};
    return i;
}

JournalEvent eventFromRow(const QSqlQuery& row)
{
    JournalEvent e;
    e.atMs = row.value(0).toLongLong();
    e.key = row.value(1).toByteArray();
    e.kind = row.value(2).toString();
    e.token = row.value(3).toByteArray();
    e.previousToken = row.value(4).toByteArray();
    e.holder = row.value(5).toString();
    e.detail = row.value(6).toString();
    e.lastSeenHeldMs = row.value(7).isNull() ? 0 : row.value(7).toLongLong();
    e.writer = {row.value(8).toString(), row.value(9).toLongLong(), row.value(10).toString()};
    return e;
}

bool pruneToSize(qint64 maxBytes, const SizeRetention& store)
{
    qint64 previous = -1;
    for (int round = 0; maxBytes > 0 && round < 20; ++round) {
        const qint64 bytes = store.dataBytes();
        if (bytes < 0 || bytes <= maxBytes || (previous >= 0 && bytes >= previous))
            break;
        previous = bytes;
        const double share = std::min(0.99, 1.0 - double(maxBytes) / double(bytes) + 0.1);
        qint64 events = 0, closed = 0;
        if (!store.countRows(&events, &closed) || events + closed == 0)
            break;
        // An offset into an empty table is 0 (no row: the cutoff ignores it), never -1 (PostgreSQL refuses that).
        const auto offset = [share](qint64 rows) {
            return std::max<qint64>(0, std::min(rows - 1, qint64(double(rows) * share)));
        };
        qint64 cutoffMs = 0;
        if (!store.cutoff(offset(events), offset(closed), &cutoffMs))
            break;
        const qint64 removed = store.deleteBefore(cutoffMs + 1);
        if (removed < 0)
            return false;
        if (removed == 0)
            break;
    }
    return true;
}

void addRowQueries(SizeRetention* store, const QSqlDatabase& db, const QString& tablePrefix, const QString& greatest)
{
    const QString count = QStringLiteral("SELECT (SELECT count(*) FROM %1events), (SELECT count(*) FROM %1intervals "
                                         "WHERE to_ms IS NOT NULL)")
                              .arg(tablePrefix);
    store->countRows = [db, count](qint64* events, qint64* closed) {
        QSqlQuery q(db);
        if (!q.exec(count) || !q.next())
            return false;
        *events = q.value(0).toLongLong();
        *closed = q.value(1).toLongLong();
        return true;
    };
    const QString cutoff =
        QStringLiteral("SELECT %2(coalesce((SELECT at_ms FROM %1events ORDER BY at_ms LIMIT 1 OFFSET "
                       "?), -1), coalesce((SELECT to_ms FROM %1intervals WHERE to_ms IS NOT NULL "
                       "ORDER BY to_ms LIMIT 1 OFFSET ?), -1))")
            .arg(tablePrefix, greatest);
    store->cutoff = [db, cutoff](qint64 eventOffset, qint64 closedOffset, qint64* cutoffMs) {
        QSqlQuery q(db);
        q.prepare(cutoff);
        q.addBindValue(eventOffset);
        q.addBindValue(closedOffset);
        if (!q.exec() || !q.next())
            return false;
        *cutoffMs = q.value(0).toLongLong();
        return true;
    };
}

QList<UnwatchedSpan> unwatchedSpans(const QList<SessionSpan>& sessions, qint64 sinceMs, qint64 untilMs, qint64 nowMs)
{
    // The union of the sessions is what was watched; the holes between are not.
    QList<UnwatchedSpan> spans;
    bool any = false, lastEnded = false;
    qint64 coveredTo = 0;
    QString lastSource;
    for (const SessionSpan& session : sessions) {
        const qint64 end = std::max(session.startedMs, session.lastMs);
        if (any && session.startedMs > coveredTo)
            spans.append({coveredTo, session.startedMs, lastSource});
        if (!any || end >= coveredTo) {
            coveredTo = end;
            lastEnded = session.ended;
            lastSource = session.source;
        }
        any = true;
    }
    // The last writer stopped, or has been silent for longer than a live one is.
    if (any && (lastEnded || coveredTo < nowMs - kJournalSilentAfterMs))
        spans.append({coveredTo, -1, lastSource});
    QList<UnwatchedSpan> inRange;
    for (const UnwatchedSpan& span : spans) {
        if (span.fromMs <= untilMs && (span.isOpen() || span.toMs >= sinceMs))
            inRange.append(span);
    }
    return inRange;
}

} // namespace redlock::journal
