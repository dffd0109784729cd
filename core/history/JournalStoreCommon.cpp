#include "history/JournalStoreCommon.h"

#include "observe/KeyPattern.h"
#include "observe/ObservationTypes.h"

#include <QCoreApplication>
#include <QSet>
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

bool insertSession(const QSqlDatabase& db, const Dialect& dialect, const QString& source, qint64 nowMs, qint64* session,
                   QSqlError* failed)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO %1sessions(source, pid, host, started_ms, last_ms) VALUES(?, ?, ?, ?, ?)%2")
                  .arg(dialect.tablePrefix, dialect.returningId));
    const HistoryWriter me = thisWriter(source);
    q.addBindValue(me.source);
    q.addBindValue(me.pid);
    q.addBindValue(me.host);
    q.addBindValue(nowMs);
    q.addBindValue(nowMs);
    if (!q.exec() || (!dialect.returningId.isEmpty() && !q.next())) {
        *failed = q.lastError();
        return false;
    }
    *session = dialect.returningId.isEmpty() ? q.lastInsertId().toLongLong() : q.value(0).toLongLong();
    return true;
}

bool endSession(const QSqlDatabase& db, const Dialect& dialect, qint64 session, qint64 nowMs, QSqlError* failed)
{
    QSqlQuery q(db), s(db);
    if (dialect.lockInOrder.isEmpty())
        q.prepare(QStringLiteral("UPDATE %1intervals SET to_ms = %2(from_ms, ?), ended = 'unobserved' WHERE to_ms IS "
                                 "NULL AND session = ?")
                      .arg(dialect.tablePrefix, dialect.greatest));
    else // the session's open intervals locked in order first (the subquery), then closed
        q.prepare(QStringLiteral("UPDATE %1intervals SET to_ms = %2(from_ms, ?), ended = 'unobserved' WHERE to_ms IS "
                                 "NULL AND id IN (SELECT id FROM %1intervals WHERE to_ms IS NULL AND session = ?%3)")
                      .arg(dialect.tablePrefix, dialect.greatest, dialect.lockInOrder));
    q.addBindValue(nowMs);
    q.addBindValue(session);
    s.prepare(QStringLiteral("UPDATE %1sessions SET last_ms = ?, ended_ms = ? WHERE id = ?").arg(dialect.tablePrefix));
    s.addBindValue(nowMs);
    s.addBindValue(nowMs);
    s.addBindValue(session);
    if (!q.exec() || !s.exec()) {
        *failed = q.lastError().isValid() ? q.lastError() : s.lastError();
        return false;
    }
    return true;
}

bool closeAbandoned(const QSqlDatabase& db, const Dialect& dialect, qint64 session, qint64 staleBeforeMs,
                    QSqlError* failed)
{
    QSqlQuery q(db);
    q.prepare(dialect.closeAbandoned);
    q.addBindValue(session);
    q.addBindValue(staleBeforeMs);
    if (!q.exec()) {
        *failed = q.lastError();
        return false;
    }
    return true;
}

bool loadOpenIntervals(const QSqlDatabase& db, const Dialect& dialect, qint64 session, OpenIntervals* open,
                       QSqlError* failed)
{
    open->clear();
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT key, id, token FROM %1intervals WHERE session = ? AND to_ms IS NULL")
                  .arg(dialect.tablePrefix));
    q.addBindValue(session);
    if (!q.exec()) {
        *failed = q.lastError();
        return false;
    }
    while (q.next())
        open->insert(q.value(0).toByteArray(), {q.value(1).toLongLong(), q.value(2).toByteArray()});
    return true;
}

QueryStatement::QueryStatement(const QSqlDatabase& db, const QString& sql) : m_query(db)
{
    m_query.prepare(sql);
}

void QueryStatement::bind(int i, qint64 value)
{
    m_query.bindValue(i - 1, value);
}

void QueryStatement::bind(int i, const QByteArray& value)
{
    m_query.bindValue(i - 1, value);
}

void QueryStatement::bind(int i, const QString& value)
{
    m_query.bindValue(i - 1, value);
}

void QueryStatement::bindNull(int i, QMetaType::Type type)
{
    m_query.bindValue(i - 1, QVariant(QMetaType(type)));
}

bool QueryStatement::exec()
{
    return m_query.exec();
}

bool QueryStatement::writtenId(qint64* id)
{
    const bool any = m_query.next();
    if (any)
        *id = m_query.value(0).toLongLong();
    m_query.finish();
    return any;
}

QSqlError QueryStatement::lastError() const
{
    return m_query.lastError();
}

EarlierInterval earlierFromRow(const QSqlQuery& row)
{
    EarlierInterval earlier;
    earlier.id = row.value(0).toLongLong();
    earlier.token = row.value(1).toByteArray();
    earlier.open = row.value(2).isNull();
    earlier.toMs = row.value(2).toLongLong();
    earlier.sessionLastMs = row.value(3).isNull() ? -1 : row.value(3).toLongLong();
    return earlier;
}

HotStatementsSql hotStatementsSql(const Dialect& dialect)
{
    const QString& p = dialect.tablePrefix;
    return {
        QStringLiteral("INSERT INTO %1events(at_ms, key, kind, token, previous_token, holder, detail, session, "
                       "last_seen_held_ms) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .arg(p),
        QStringLiteral(
            "INSERT INTO %1intervals(key, token, holder, from_ms, session, at_least_since) VALUES(?, ?, ?, ?, "
            "?, ?)%2")
            .arg(p, dialect.returningId),
        QStringLiteral("UPDATE %1intervals SET to_ms = %2(from_ms, ?), ended = ?, gone_by_ms = ? WHERE id = ?")
            .arg(p, dialect.greatest),
    };
}

bool writeEvents(const QList<JournalEvent>& events, qint64 nowMs, const EventWriting& w)
{
    const Dialect& d = *w.dialect;
    OpenIntervals& open = *w.open;
    QSqlQuery begin(w.db);
    if (!begin.exec(d.beginWrite)) {
        w.failed(begin.lastError(), false);
        return false;
    }
    if (w.lockInOrder) {
        QSqlError lockFailed;
        if (!w.lockInOrder(events, &lockFailed)) {
            w.failed(lockFailed, true);
            QSqlQuery(w.db).exec(QStringLiteral("ROLLBACK"));
            return false;
        }
    }
    const QString& p = d.tablePrefix;
    // Where several writers write (PostgreSQL), an earlier session's interval is taken over or ended only while it is
    // still that session's and still held, as the lookup found it.
    const QString stillTheirs =
        d.severalWriters ? QStringLiteral(" AND session = ? AND (to_ms IS NULL OR ended = 'unobserved')") : QString();
    // The store's own hot statements, else QSqlQuerys of this SQL (not made when the store has its own).
    const HotStatementsSql hot =
        w.insertEvent && w.openInterval && w.closeOpen ? HotStatementsSql() : hotStatementsSql(d);
    std::optional<QueryStatement> ownInsertEvent, ownOpenInterval, ownCloseOpen;
    const auto hotStatement = [&](Statement* given, std::optional<QueryStatement>& own, const QString& sql) {
        return given ? given : &own.emplace(w.db, sql);
    };
    Statement& insertEvent = *hotStatement(w.insertEvent, ownInsertEvent, hot.insertEvent);
    Statement& openInterval = *hotStatement(w.openInterval, ownOpenInterval, hot.openInterval);
    Statement& closeOpen = *hotStatement(w.closeOpen, ownCloseOpen, hot.closeOpen);
    QueryStatement extend(w.db,
                          QStringLiteral("UPDATE %1intervals SET extensions = extensions + 1 WHERE id = ?").arg(p));
    // A force release the inspector saw first (as "released"): the tenure it ended is the operator's doing.
    QueryStatement forceLate(
        w.db, QStringLiteral("UPDATE %1intervals SET ended = 'force-released' WHERE id = (SELECT id FROM %1intervals "
                             "WHERE key = ? AND token = ? AND to_ms >= ?%2 ORDER BY to_ms DESC LIMIT 1)")
                  .arg(p, d.severalWriters ? QStringLiteral(" AND session = ?") : QString()));
    QueryStatement heartbeat(w.db, QStringLiteral("UPDATE %1sessions SET last_ms = ? WHERE id = ?").arg(p));
    QueryStatement adopt(w.db, QStringLiteral("UPDATE %1intervals SET to_ms = NULL, ended = NULL, session = ? WHERE id "
                                              "= ?%2%3")
                                   .arg(p, stillTheirs, d.severalWriters ? d.returningId : QString()));
    QueryStatement endUnwatched(w.db, QStringLiteral("UPDATE %1intervals SET to_ms = %2(from_ms, ?), ended = "
                                                     "'ended-unwatched' WHERE id = ?%3")
                                          .arg(p, d.greatest, stillTheirs));

    const auto fail = [&](const QSqlError& failure) {
        w.failed(failure, true);
        QSqlQuery(w.db).exec(QStringLiteral("ROLLBACK"));
        return false;
    };
    // An end nobody saw closes the interval at the last sighting, found gone by the event's instant.
    const auto closeIt = [&](qint64 id, const JournalEvent& e, const QString& how) {
        closeOpen.bind(1, e.endsUnobserved() ? e.lastSeenHeldMs : e.atMs);
        closeOpen.bind(2, how);
        if (e.endsUnobserved())
            closeOpen.bind(3, e.atMs);
        else
            closeOpen.bindNull(3, QMetaType::LongLong);
        closeOpen.bind(4, id);
        if (!closeOpen.exec())
            return false;
        open.remove(e.key);
        return true;
    };
    const auto openNew = [&](const JournalEvent& e) {
        openInterval.bind(1, e.key);
        openInterval.bind(2, e.token);
        openInterval.bind(3, e.holder);
        openInterval.bind(4, e.atMs);
        openInterval.bind(5, w.session);
        // A holder that took over unobserved holds it at least since it was found: it began after the last read.
        openInterval.bind(6, qint64(e.kind == u"seen-held" || (e.kind == u"token-changed" && e.endsUnobserved())));
        qint64 id = 0;
        if (!openInterval.exec() || !openInterval.writtenId(&id))
            return false;
        open.insert(e.key, {id, e.token});
        return true;
    };
    // This session sees a holder of a key it has no open interval for. An earlier session's interval of the key that
    // was still held when that session last saw it (the store's findEarlier says which) is the same tenure when the
    // token is the same: it goes on, taken over by this session (one interval, no false release and acquire, no
    // second open interval). With another token it ended while nobody watched: "ended-unwatched" at the last instant
    // it was seen held (the session's last write for an open one, capped at now), never as released at a made-up
    // time. *continued: the same tenure, taken over. The error of what failed, if anything did.
    const auto takeOverEarlier = [&](const JournalEvent& e, bool* continued) -> std::optional<QSqlError> {
        *continued = false;
        std::optional<EarlierInterval> found;
        QSqlError lookupFailed;
        if (!w.findEarlier(e, &found, &lookupFailed))
            return lookupFailed;
        if (!found)
            return std::nullopt;
        if (found->token == e.token) {
            adopt.bind(1, w.session);
            adopt.bind(2, found->id);
            if (d.severalWriters)
                adopt.bind(3, found->session);
            if (!adopt.exec())
                return adopt.lastError();
            // Of two writers that found the same interval, one takes it over; the other opens its own.
            qint64 id = 0;
            if (!d.severalWriters || adopt.writtenId(&id)) {
                *continued = true;
                open.insert(e.key, {found->id, found->token});
            }
            return std::nullopt;
        }
        endUnwatched.bind(1, found->open ? std::min(e.atMs, found->sessionLastMs) : found->toMs);
        endUnwatched.bind(2, found->id);
        if (d.severalWriters)
            endUnwatched.bind(3, found->session);
        return endUnwatched.exec() ? std::nullopt : std::optional<QSqlError>(endUnwatched.lastError());
    };

    for (const JournalEvent& e : events) {
        insertEvent.bind(1, e.atMs);
        insertEvent.bind(2, e.key);
        insertEvent.bind(3, e.kind);
        insertEvent.bind(4, e.token);
        if (e.previousToken.isEmpty())
            insertEvent.bindNull(5, QMetaType::QByteArray);
        else
            insertEvent.bind(5, e.previousToken);
        insertEvent.bind(6, e.holder);
        if (e.detail.isEmpty())
            insertEvent.bindNull(7, QMetaType::QString);
        else
            insertEvent.bind(7, e.detail);
        insertEvent.bind(8, w.session);
        if (e.endsUnobserved())
            insertEvent.bind(9, e.lastSeenHeldMs);
        else
            insertEvent.bindNull(9, QMetaType::LongLong);
        if (!insertEvent.exec())
            return fail(insertEvent.lastError());

        const auto it = open.constFind(e.key);
        const qint64 openId = it == open.cend() ? 0 : it->id;
        const QByteArray openToken = it == open.cend() ? QByteArray() : it->token;
        const QString& kind = e.kind;
        const TenureStep step = tenureStepOf(kind);
        if (step == TenureStep::Begin) {
            if (openId > 0 && openToken == e.token)
                continue; // seen again (a restarted inspector): the same tenure
            if (openId > 0 && !closeIt(openId, e, kind == u"token-changed" ? kind : QStringLiteral("unobserved")))
                return fail(closeOpen.lastError());
            if (openId == 0) {
                bool continued = false;
                if (const std::optional<QSqlError> failure = takeOverEarlier(e, &continued))
                    return fail(*failure);
                if (continued)
                    continue;
            }
            if (!openNew(e))
                return fail(openInterval.lastError());
        } else if (step == TenureStep::Extend) {
            if (openId > 0 && openToken == e.token) {
                extend.bind(1, openId);
                if (!extend.exec())
                    return fail(extend.lastError());
            }
        } else if (step == TenureStep::End) {
            // Only the holder's own end closes its tenure: an event of another token ends no one else's.
            if (openId > 0 && openToken == e.token && !closeIt(openId, e, kind))
                return fail(closeOpen.lastError());
        } else if (step == TenureStep::ForceEnd) {
            if (openId > 0 && openToken == e.token) {
                if (!closeIt(openId, e, kind))
                    return fail(closeOpen.lastError());
            } else {
                forceLate.bind(1, e.key);
                forceLate.bind(2, e.token);
                forceLate.bind(3, e.atMs - 60'000);
                if (d.severalWriters)
                    forceLate.bind(4, w.session);
                if (!forceLate.exec())
                    return fail(forceLate.lastError());
            }
        }
        // contested: an event, no tenure (no token has a quorum; the one that had it was closed already).
        // force-released-minority: an event; the holder kept its quorum, its interval goes on.
    }
    heartbeat.bind(1, nowMs);
    heartbeat.bind(2, w.session);
    if (!heartbeat.exec())
        return fail(heartbeat.lastError());
    QSqlQuery commit(w.db);
    if (!commit.exec(QStringLiteral("COMMIT")))
        return fail(commit.lastError());
    return true;
}

bool prune(qint64 olderThanMs, qint64 maxBytes, qint64* removed, const Retention& store)
{
    const Dialect& d = *store.dialect;
    qint64 total = 0;
    const auto deleteBefore = [&](qint64 cutoffMs) {
        QSqlQuery events(store.db), intervals(store.db), sessions(store.db);
        events.prepare(QStringLiteral("DELETE FROM %1events WHERE at_ms < ?").arg(d.tablePrefix));
        events.addBindValue(cutoffMs);
        // Several writers: the rows locked in the order every writer locks intervals in (key, id) before any is
        // deleted. In the table's order a delete holding a later key's row could wait for a row a writer locked
        // (a gone session's interval it may take over) while that writer waits for the later key's: a deadlock.
        if (d.lockInOrder.isEmpty())
            intervals.prepare(
                QStringLiteral("DELETE FROM %1intervals WHERE to_ms IS NOT NULL AND to_ms < ?").arg(d.tablePrefix));
        else
            intervals.prepare(QStringLiteral("DELETE FROM %1intervals WHERE id IN (SELECT id FROM %1intervals WHERE "
                                             "to_ms IS NOT NULL AND to_ms < ?%2)")
                                  .arg(d.tablePrefix, d.lockInOrder));
        intervals.addBindValue(cutoffMs);
        sessions.prepare(d.deleteEndedSessions);
        sessions.addBindValue(cutoffMs);
        for (QSqlQuery* q : {&events, &intervals, &sessions}) {
            if (!q->exec()) {
                store.failed(q->lastError());
                return false;
            }
            total += std::max(0, q->numRowsAffected());
        }
        return true;
    };
    if (!deleteBefore(olderThanMs))
        return false;
    if (!store.sizeDue || store.sizeDue(maxBytes)) {
        SizeRetention steps;
        steps.dataBytes = store.retainedBytes;
        addRowQueries(&steps, store.db, d.tablePrefix, d.greatest);
        steps.deleteBefore = [&](qint64 cutoffMs) {
            const qint64 before = total;
            return deleteBefore(cutoffMs) ? total - before : qint64(-1);
        };
        const qint64 before = total;
        if (!pruneToSize(maxBytes, steps))
            return false;
        if (store.compact)
            store.compact(maxBytes, total > before);
    }
    if (removed)
        *removed = total;
    return true;
}

HistoryResult readHistory(const HistoryQuery& query, qint64 nowMs, const HistoryReading& r)
{
    HistoryResult result;
    result.queriedAtMs = nowMs;
    const qint64 until = query.untilMs < 0 ? nowMs : query.untilMs;
    const KeyFilter keys(query.keyPattern);

    QSqlQuery q(r.db);
    q.setForwardOnly(true);
    q.prepare(r.intervalsSql.arg(keys.sql(r.intervalKey)));
    q.bindValue(QStringLiteral(":until"), until);
    q.bindValue(QStringLiteral(":since"), query.sinceMs);
    keys.bind(q);
    if (!q.exec()) {
        result.error = r.failed(q.lastError());
        return result;
    }
    // Rows merged afterwards are all read: the limit counts what the merge gives.
    QList<HolderInterval> rows;
    while (q.next()) {
        HolderInterval i = intervalFromRow(q);
        if (!keys.matches(i.key) || !holderMatches(query, i.holder, i.token))
            continue;
        if (!r.mergeTenures && rows.size() >= query.limit) {
            result.truncated = true;
            break;
        }
        rows.append(std::move(i));
    }
    result.intervals = r.mergeTenures ? r.mergeTenures(rows) : std::move(rows);
    if (result.intervals.size() > query.limit) {
        result.intervals.resize(query.limit);
        result.truncated = true;
    }
    QSet<QByteArray> heldKeys;
    for (const HolderInterval& i : std::as_const(result.intervals))
        heldKeys.insert(i.key);
    result.unwatched = unwatchedSpans(r.db, *r.dialect, query.sinceMs, until, nowMs);
    if (!query.withEvents)
        return result;
    QSqlQuery ev(r.db);
    ev.setForwardOnly(true);
    ev.prepare(r.eventsSql.arg(keys.sql(r.eventKey)));
    ev.bindValue(QStringLiteral(":since"), query.sinceMs);
    ev.bindValue(QStringLiteral(":until"), until);
    keys.bind(ev);
    if (!ev.exec()) {
        result.error = r.failed(ev.lastError());
        return result;
    }
    while (ev.next()) {
        JournalEvent e = eventFromRow(ev);
        if (!keys.matches(e.key))
            continue;
        // With a holder filter: that holder's events, and the contests of the keys it held.
        if (!holderMatches(query, e.holder, e.token) && !(heldKeys.contains(e.key) && e.kind == u"contested"))
            continue;
        if (r.toldAlready && r.toldAlready(e, ev))
            continue;
        if (result.events.size() >= query.limit) {
            result.truncated = true;
            break;
        }
        result.events.append(std::move(e));
    }
    return result;
}

QList<UnwatchedSpan> unwatchedSpans(const QSqlDatabase& db, const Dialect& dialect, qint64 sinceMs, qint64 untilMs,
                                    qint64 nowMs)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT started_ms, coalesce(ended_ms, last_ms), ended_ms IS NOT NULL, source FROM "
                               "%1sessions ORDER BY started_ms, id")
                    .arg(dialect.tablePrefix)))
        return {}; // a journal from before sessions: nothing known about them
    QList<SessionSpan> sessions;
    while (q.next())
        sessions.append({q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toBool(), q.value(3).toString()});
    return unwatchedSpans(sessions, sinceMs, untilMs, nowMs);
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
