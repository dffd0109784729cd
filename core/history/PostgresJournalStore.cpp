#include "history/PostgresJournalStore.h"

#include "history/JournalStoreCommon.h"

#include "observe/KeyPattern.h"
#include "observe/ObservationTypes.h"

#include <QAtomicInteger>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>
#include <QVariant>

#include <algorithm>
#include <limits>

namespace redlock {

std::atomic<qint64> PostgresJournalStore::s_writeRetries{0};
std::mutex PostgresJournalStore::s_lastRetryMutex;
QString PostgresJournalStore::s_lastRetry;

QString PostgresJournalStore::lastWriteRetry()
{
    const std::lock_guard lock(s_lastRetryMutex);
    return s_lastRetry;
}

namespace {

QString uniqueConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("redlock-pg-journal-%1").arg(counter.fetchAndAddRelaxed(1));
}

// Whoever opens the store first creates or upgrades the tables; the others wait on this (pg_advisory_xact_lock).
constexpr qint64 kSchemaLockId = 0x72646c6b6a726e6c; // "rdlkjrnl"

// Each step takes the schema from the version before it to its own (index + 1). Only ever append a step: a
// deployment's writers may be of several versions, and the newest one upgrades the tables for all.
const QList<QStringList>& schemaSteps()
{
    static const QList<QStringList> steps = {
        {
            QStringLiteral("CREATE TABLE redlock_sessions(id BIGSERIAL PRIMARY KEY, source TEXT, pid BIGINT, host "
                           "TEXT, started_ms BIGINT NOT NULL, last_ms BIGINT NOT NULL, ended_ms BIGINT)"),
            QStringLiteral("CREATE TABLE redlock_events(id BIGSERIAL PRIMARY KEY, at_ms BIGINT NOT NULL, key BYTEA "
                           "NOT NULL, kind TEXT NOT NULL, token BYTEA, previous_token BYTEA, holder TEXT, detail TEXT, "
                           "session BIGINT, last_seen_held_ms BIGINT)"),
            QStringLiteral("CREATE INDEX redlock_events_key_at ON redlock_events(key, at_ms)"),
            QStringLiteral("CREATE INDEX redlock_events_at ON redlock_events(at_ms)"),
            QStringLiteral("CREATE TABLE redlock_intervals(id BIGSERIAL PRIMARY KEY, key BYTEA NOT NULL, token BYTEA "
                           "NOT NULL, holder TEXT, from_ms BIGINT NOT NULL, to_ms BIGINT, ended TEXT, extensions "
                           "INTEGER NOT NULL DEFAULT 0, session BIGINT NOT NULL, at_least_since INTEGER NOT NULL "
                           "DEFAULT 0, gone_by_ms BIGINT)"),
            QStringLiteral("CREATE INDEX redlock_intervals_key_from ON redlock_intervals(key, from_ms)"),
            QStringLiteral("CREATE INDEX redlock_intervals_to ON redlock_intervals(to_ms)"),
            QStringLiteral("CREATE INDEX redlock_intervals_open ON redlock_intervals(session) WHERE to_ms IS NULL"),
        },
    };
    return steps;
}

// An end somebody saw (released, expired, force-released, ...), as opposed to a writer that stopped watching.
bool isObservedEnd(const QString& endedBy)
{
    return !endedBy.isEmpty() && endedBy != u"unobserved" && endedBy != u"ended-unwatched";
}

// One timeline from several writers: their intervals of one key with one token are one tenure. It began at the
// first sighting; it ended where a writer saw it end (the earliest such end: it had ended by then), else it is
// open while any writer still has it open, else it ended unobserved at the last sighting.
QList<HolderInterval> mergeTenures(const QList<HolderInterval>& intervals)
{
    QList<HolderInterval> merged;
    QHash<QPair<QByteArray, QByteArray>, qsizetype> index;
    for (const HolderInterval& i : intervals) {
        const auto id = qMakePair(i.key, i.token);
        const auto it = index.constFind(id);
        if (it == index.cend()) {
            index.insert(id, merged.size());
            merged.append(i);
            continue;
        }
        HolderInterval& m = merged[*it];
        if (i.fromMs < m.fromMs) {
            m.fromMs = i.fromMs;
            m.atLeastSince = i.atLeastSince;
        }
        m.extensions = std::max(m.extensions, i.extensions);
        if (m.holder.isEmpty())
            m.holder = i.holder;
        const bool takeEnd = isObservedEnd(i.endedBy)
                                 ? !isObservedEnd(m.endedBy) || i.toMs < m.toMs
                                 : !isObservedEnd(m.endedBy) && !m.isOpen() && (i.isOpen() || i.toMs > m.toMs);
        if (takeEnd) {
            m.toMs = i.toMs;
            m.endedBy = i.endedBy;
            m.goneByMs = i.goneByMs;
            m.writer = i.writer; // the writer whose end is told
        } else if (!m.writer.isKnown()) {
            m.writer = i.writer;
        }
    }
    std::stable_sort(merged.begin(), merged.end(), [](const HolderInterval& a, const HolderInterval& b) {
        return a.key != b.key ? a.key < b.key : a.fromMs < b.fromMs;
    });
    return merged;
}

// Several writers at once: PostgresJournalStore.h says how they keep off each other's intervals.
const journal::Dialect& postgres()
{
    static const journal::Dialect dialect{
        QStringLiteral("redlock_"),
        QStringLiteral("greatest"),
        QStringLiteral("BEGIN"),
        QStringLiteral(" RETURNING id"),
        true,
        QStringLiteral("DELETE FROM redlock_sessions s WHERE s.ended_ms IS NOT NULL AND s.ended_ms < ? AND NOT EXISTS "
                       "(SELECT 1 FROM redlock_intervals i WHERE i.session = s.id)"),
        // The CTE locks the rows in (key, id) order (its Sort under its row locks), the order every writer locks the
        // intervals it may take over in, and the UPDATE changes only rows it locked: a closing in the table's order
        // and a takeover in key order of the same gone sessions' intervals could deadlock (40P01). A row another
        // writer took over meanwhile (its session is now that writer's) or closed is left alone.
        QStringLiteral(
            "WITH locked AS (SELECT i.id, i.session, coalesce(s.ended_ms, s.last_ms) AS at_ms FROM "
            "redlock_intervals i JOIN redlock_sessions s ON s.id = i.session WHERE i.to_ms IS NULL AND s.id "
            "<> ? AND (s.ended_ms IS NOT NULL OR s.last_ms < ?) ORDER BY i.key, i.id FOR UPDATE OF i) UPDATE "
            "redlock_intervals i SET to_ms = greatest(i.from_ms, l.at_ms), ended = 'unobserved' FROM locked "
            "l WHERE i.id = l.id AND i.session = l.session AND i.to_ms IS NULL"),
        QStringLiteral(" ORDER BY key, id FOR UPDATE"),
    };
    return dialect;
}

// Two writers journal the same transition, each at the instant it saw it: within this of each other, an event of
// one key, kind and token(s) from another writer is the same one.
constexpr qint64 kSameEventWithinMs = 10'000;

} // namespace

bool PostgresJournalStore::isUrl(const QString& location)
{
    return location.startsWith(QLatin1String("postgresql://")) || location.startsWith(QLatin1String("postgres://"));
}

QString PostgresJournalStore::displayUrl(const QString& url)
{
    return QUrl(url).toString(QUrl::RemovePassword);
}

QString PostgresJournalStore::urlProblem(const QString& url)
{
    const QUrl parsed(url);
    if (!parsed.isValid() || parsed.host().isEmpty())
        return tr("%1: not a postgresql://user@host[:port]/database URL").arg(displayUrl(url));
    // Said without the URL as given: it holds the password.
    if (!parsed.password().isEmpty())
        return tr("a --journal URL holds no password (the command line is visible to every user of this machine): "
                  "remove it from the URL and give it in PGPASSWORD or ~/.pgpass");
    if (parsed.userName().isEmpty() || parsed.path().size() < 2)
        return tr("%1: the URL names no user or no database: postgresql://user@host[:port]/database")
            .arg(displayUrl(url));
    return {};
}

PostgresJournalStore::PostgresJournalStore(const QString& url, int busyTimeoutMs)
    : m_url(url), m_display(displayUrl(url)), m_connectionName(uniqueConnectionName()), m_busyTimeoutMs(busyTimeoutMs)
{}

PostgresJournalStore::~PostgresJournalStore()
{
    close();
}

void PostgresJournalStore::close()
{
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
    m_open = false;
    m_session = -1;
    m_openIntervals.clear();
    m_openIntervalsLoaded = false;
}

PostgresJournalStore::Error PostgresJournalStore::errorWith(Failure failure, const QString& message) const
{
    return {failure, tr("%1: %2").arg(m_display, message)};
}

PostgresJournalStore::Error PostgresJournalStore::errorFrom(const QSqlError& sqlError, const QString& doing) const
{
    const QString state = sqlError.nativeErrorCode();
    QString text = sqlError.text().trimmed();
    if (text.isEmpty())
        text = tr("unknown error");
    Failure failure = Failure::Other; // the next attempt connects again
    if (state == u"53100") {
        failure = Failure::Full;
        text = tr("the database server's disk is full (%1)").arg(text);
    } else if (state == u"25006") {
        text = tr("the server is read-only (a standby replica?): point --journal at the primary (%1)").arg(text);
    } else if (state == u"55P03" || state == u"40001" || state == u"40P01") {
        failure = Failure::Busy;
    } else if (text.contains(QLatin1String("password"), Qt::CaseInsensitive)) {
        text = tr("%1 (the password comes from PGPASSWORD or ~/.pgpass, never from the URL)").arg(text);
    } else if (m_open && m_db.isValid() && (!m_db.isOpen() || !QSqlQuery(m_db).exec(QStringLiteral("SELECT 1")))) {
        // The server went away under an open store (restarted, a network cut): the next call connects again. (A
        // connection that is only inside a failed transaction fails this too; connecting again costs nothing then.)
        failure = Failure::Unreachable;
        m_lost = true;
        text = tr("the server does not answer (%1); the journal connects again").arg(text);
    }
    return errorWith(failure, tr("%1: %2").arg(doing, text));
}

bool PostgresJournalStore::open(bool readOnly, Error* error)
{
    close();
    if (const QString problem = urlProblem(m_url); !problem.isEmpty()) {
        if (error)
            *error = {Failure::Other, problem};
        return false;
    }
    if (!connect(readOnly, error)) {
        close();
        return false;
    }
    m_open = true;
    return true;
}

bool PostgresJournalStore::openInTransaction(Error* error)
{
    close();
    if (const QString problem = urlProblem(m_url); !problem.isEmpty()) {
        if (error)
            *error = {Failure::Other, problem};
        return false;
    }
    if (!connect(false, error, false)) {
        close();
        return false;
    }
    m_open = true;
    return true;
}

bool PostgresJournalStore::reconnectIfLost(Error* error)
{
    if (!m_lost)
        return true;
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
    if (!connect(false, error)) {
        if (error)
            error->failure = Failure::Unreachable; // still this store's session: try again later
        return false;
    }
    m_lost = false;
    m_openIntervalsLoaded = false;
    return true;
}

bool PostgresJournalStore::connect(bool readOnly, Error* error, bool commitSchema)
{
    const QUrl url(m_url);
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_connectionName);
    if (!m_db.isValid()) {
        if (error)
            *error = errorWith(Failure::Other, tr("the Qt PostgreSQL driver is missing (Debian: libqt6sql6-psql)"));
        return false;
    }
    m_db.setHostName(url.host());
    if (url.port() > 0)
        m_db.setPort(url.port());
    m_db.setDatabaseName(url.path().mid(1));
    m_db.setUserName(url.userName());
    // No password from the URL: libpq takes PGPASSWORD or the matching ~/.pgpass line itself, or the one the caller
    // set (the console's keyring). A server that does not answer is a failure the journal retries, not a hang.
    if (!m_password.isEmpty())
        m_db.setPassword(m_password);
    QStringList options = {QStringLiteral("connect_timeout=%1").arg(std::max(2, m_busyTimeoutMs / 1000)),
                           QStringLiteral("application_name=redlock")};
    const QUrlQuery params(url);
    for (const auto& [name, value] : params.queryItems(QUrl::FullyDecoded)) {
        if (name == u"sslmode" || name == u"sslrootcert" || name == u"sslcert" || name == u"sslkey")
            options << name + u'=' + value;
    }
    m_db.setConnectOptions(options.join(u';'));
    if (!m_db.open()) {
        if (error)
            *error = errorFrom(m_db.lastError(), tr("cannot connect"));
        return false;
    }
    const auto fail = [&](const QSqlQuery& q, const QString& doing) {
        if (error)
            *error = errorFrom(q.lastError(), doing);
        return false;
    };
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("SET lock_timeout = %1").arg(m_busyTimeoutMs)))
        return fail(q, tr("cannot open"));
    if (readOnly) {
        if (!q.exec(QStringLiteral("SELECT to_regclass('redlock_schema') IS NOT NULL")) || !q.next())
            return fail(q, tr("cannot read"));
        if (!q.value(0).toBool()) {
            if (error)
                *error = errorWith(Failure::Other, tr("no lock history in this database yet (the console, `redlock "
                                                      "watch --journal URL` and `redlock exporter --journal URL` "
                                                      "write it)"));
            return false;
        }
        if (!q.exec(QStringLiteral("SELECT max(version) FROM redlock_schema")) || !q.next())
            return fail(q, tr("cannot read"));
        if (q.value(0).toInt() > kSchemaVersion) {
            if (error)
                *error = errorWith(Failure::Other, tr("the history there has schema version %1, written by a newer "
                                                      "Redlock Console; this one reads up to %2: upgrade it")
                                                       .arg(q.value(0).toInt())
                                                       .arg(kSchemaVersion));
            return false;
        }
        return true;
    }
    // A standby answers reads and refuses every write: said at once, not at the first batch.
    if (!q.exec(QStringLiteral("SELECT current_setting('transaction_read_only')")) || !q.next())
        return fail(q, tr("cannot open"));
    if (q.value(0).toString() == u"on") {
        if (error)
            *error = errorWith(Failure::Other, tr("the server is read-only (a standby replica?): the history is "
                                                  "written to the primary; point --journal at it"));
        return false;
    }
    return createOrUpgradeSchema(error, commitSchema);
}

bool PostgresJournalStore::createOrUpgradeSchema(Error* error, bool commit)
{
    QSqlQuery q(m_db);
    const auto rollBack = [&](const QString& doing) {
        const Error e = errorFrom(q.lastError(), doing);
        QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
        if (error)
            *error = e;
        return false;
    };
    if (!q.exec(QStringLiteral("BEGIN")))
        return rollBack(tr("cannot create the tables"));
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kSchemaLockId)) ||
        !q.exec(QStringLiteral("SELECT to_regclass('redlock_schema') IS NULL")) || !q.next())
        return rollBack(tr("cannot create the tables"));
    if (q.value(0).toBool() && !q.exec(QStringLiteral("CREATE TABLE redlock_schema(version INTEGER NOT NULL)")))
        return rollBack(tr("cannot create the tables"));
    if (!q.exec(QStringLiteral("SELECT coalesce(max(version), 0) FROM redlock_schema")) || !q.next())
        return rollBack(tr("cannot create the tables"));
    const int version = q.value(0).toInt();
    if (version > kSchemaVersion) {
        QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
        if (error)
            *error = errorWith(Failure::Other,
                               tr("the history there has schema version %1, written by a newer Redlock Console; this "
                                  "one writes version %2 and leaves it alone: upgrade this writer")
                                   .arg(version)
                                   .arg(kSchemaVersion));
        return false;
    }
    for (int step = version; step < kSchemaVersion; ++step) {
        for (const QString& sql : schemaSteps().at(step)) {
            if (!q.exec(sql))
                return rollBack(tr("cannot create the tables"));
        }
    }
    if (version < kSchemaVersion) {
        if (!q.exec(QStringLiteral("DELETE FROM redlock_schema")) ||
            !q.exec(QStringLiteral("INSERT INTO redlock_schema(version) VALUES(%1)").arg(kSchemaVersion)))
            return rollBack(tr("cannot create the tables"));
        // The caller's rows go in with the new tables, or neither does.
        if (!commit)
            return true;
    }
    if (!q.exec(QStringLiteral("COMMIT")))
        return rollBack(tr("cannot create the tables"));
    // Tables that were there already: the schema lock is let go, and the caller's transaction is a new one.
    if (!commit && !q.exec(QStringLiteral("BEGIN")))
        return rollBack(tr("cannot open"));
    return true;
}

void PostgresJournalStore::setBusyTimeout(int ms)
{
    m_busyTimeoutMs = ms;
    if (m_open)
        QSqlQuery(m_db).exec(QStringLiteral("SET lock_timeout = %1").arg(ms));
}

bool PostgresJournalStore::beginSession(const QString& source, qint64 nowMs, qint64 staleBeforeMs, Error* error)
{
    if (!reconnectIfLost(error))
        return false;
    // The SQLite journal has one writer, so every other session is gone; here others may be writing now: only the
    // ended and the silent ones are.
    if (!closeAbandoned(std::min(staleBeforeMs, nowMs - kJournalSilentAfterMs), error))
        return false;
    QSqlError failed;
    if (!journal::insertSession(m_db, postgres(), source, nowMs, &m_session, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot write"));
        return false;
    }
    m_openIntervals.clear();
    m_openIntervalsLoaded = true;
    return true;
}

bool PostgresJournalStore::closeAbandoned(qint64 staleBeforeMs, Error* error)
{
    if (!reconnectIfLost(error))
        return false;
    QSqlError failed;
    if (!journal::closeAbandoned(m_db, postgres(), m_session, staleBeforeMs, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot write"));
        return false;
    }
    return true;
}

bool PostgresJournalStore::endSession(qint64 nowMs, Error* error)
{
    if (m_session < 0)
        return true;
    if (!reconnectIfLost(error))
        return false;
    QSqlError failed;
    if (!journal::endSession(m_db, postgres(), m_session, nowMs, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot write"));
        return false;
    }
    m_session = -1;
    m_openIntervals.clear();
    m_openIntervalsLoaded = false;
    return true;
}

bool PostgresJournalStore::loadOpenIntervals(Error* error)
{
    QSqlError failed;
    if (!journal::loadOpenIntervals(m_db, postgres(), m_session, &m_openIntervals, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot read"));
        return false;
    }
    m_openIntervalsLoaded = true;
    return true;
}

bool PostgresJournalStore::write(const QList<JournalEvent>& events, qint64 nowMs, Error* error)
{
    // Two writers on one history (the team's exporter and a console) update the same keys' intervals: PostgreSQL
    // may pick one of them as a deadlock's victim and roll its transaction back. That is no failure of the journal:
    // the batch is written again at once (its open intervals read again), a few times before it is one.
    constexpr int kAttempts = 4;
    for (int attempt = 1;; ++attempt) {
        bool retry = false;
        if (writeOnce(events, nowMs, error, &retry))
            return true;
        if (!retry || attempt == kAttempts)
            return false;
        s_writeRetries.fetch_add(1, std::memory_order_relaxed);
    }
}

bool PostgresJournalStore::writeOnce(const QList<JournalEvent>& events, qint64 nowMs, Error* error, bool* retry)
{
    if (m_session < 0) {
        if (error)
            *error = errorWith(Failure::Other, tr("no session"));
        return false;
    }
    if (!reconnectIfLost(error) || (!m_openIntervalsLoaded && !loadOpenIntervals(error)))
        return false;
    const qint64 goneBefore = nowMs - kJournalSilentAfterMs;
    journal::EventWriting writing;
    writing.db = m_db;
    writing.dialect = &postgres();
    writing.session = m_session;
    writing.open = &m_openIntervals;
    // Every row of redlock_intervals this write will change is locked first, in (key, id) order, by two ordered
    // statements per chunk of keys in that same order. The first locks this session's rows of the batch's keys: its
    // open intervals (extended and closed one event at a time, in the batch's order: a batch that ends one round's
    // keys and begins the next's) and, when the batch has a force release seen late, its intervals closed since a
    // minute before it (which that marks "force-released"); it waits for rows another transaction holds. The second
    // locks, per key, the latest still-held interval of a session that is gone (ended, or silent) that a first sight
    // may take over or end (adopt, endUnwatched), and skips (SKIP LOCKED) one another transaction holds: that one is
    // being taken over, ended or pruned by another writer, and this batch opens its own interval instead (readers
    // merge the two, one tenure), as it does when it finds the row taken over already. Waiting there made two
    // writers taking over one gone session queue behind each other's whole batch (a 300-key batch under load
    // outlasted the lock timeout, 55P03), for nothing: the waiter then found every row taken. Writers that lock in
    // other orders deadlock (40P01). What may be taken over is only what was locked here: a row that became a gone
    // session's after this statement (that session ended meanwhile; READ COMMITTED gives each later statement a
    // newer snapshot) would be locked out of order, after rows another writer may be waiting on while holding it.
    // It is left to the next batch. A row that another writer took over or closed (and committed) between the
    // statement's snapshot and its lock is locked as it is now, in order, and left alone.
    QHash<QByteArray, journal::EarlierInterval> lockedEarlier;
    writing.lockInOrder = [&](const QList<JournalEvent>& batch, QSqlError* failed) {
        lockedEarlier.clear();
        QList<QByteArray> keys;
        keys.reserve(batch.size());
        // The earliest instant a force release seen late may mark an interval closed at (writeEvents' forceLate: its
        // event's instant less a minute); none: no closed interval is changed.
        qint64 closedSinceMs = std::numeric_limits<qint64>::max();
        for (const JournalEvent& e : batch) {
            keys.append(e.key);
            if (tenureStepOf(e.kind) == TenureStep::ForceEnd)
                closedSinceMs = std::min(closedSinceMs, e.atMs - 60'000);
        }
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        constexpr qsizetype kChunk = 500;
        QSqlQuery own(m_db), gone(m_db);
        own.setForwardOnly(true);
        gone.setForwardOnly(true);
        const bool forceLate = closedSinceMs != std::numeric_limits<qint64>::max();
        qsizetype preparedFor = -1;
        for (qsizetype from = 0; from < keys.size(); from += kChunk) {
            const qsizetype n = std::min(kChunk, keys.size() - from);
            if (n != preparedFor) {
                const QString marks = QStringList(n, QStringLiteral("?")).join(u',');
                // Without a late force release, only the open ones (the partial index on them, not every tenure the
                // keys ever had).
                own.prepare(QStringLiteral("SELECT id FROM redlock_intervals WHERE key IN (%1) AND session = ? AND "
                                           "%2 ORDER BY key, id FOR UPDATE")
                                .arg(marks, forceLate ? QStringLiteral("(to_ms IS NULL OR to_ms >= ?)")
                                                      : QStringLiteral("to_ms IS NULL")));
                gone.prepare(
                    QStringLiteral(
                        "SELECT i.key, i.id, i.token, i.to_ms, i.ended, i.session, c.session, c.gone_ms FROM "
                        "redlock_intervals i JOIN (SELECT DISTINCT ON (i.key) i.id, i.session, coalesce(s.ended_ms, "
                        "s.last_ms) AS gone_ms FROM redlock_intervals i JOIN redlock_sessions s ON s.id = i.session "
                        "WHERE i.key IN (%1) AND i.session <> ? AND (s.ended_ms IS NOT NULL OR s.last_ms < ?) AND "
                        "(i.to_ms IS NULL OR i.ended = 'unobserved') ORDER BY i.key, i.from_ms DESC, i.id DESC) c ON "
                        "c.id = i.id ORDER BY i.key, i.id FOR UPDATE OF i SKIP LOCKED")
                        .arg(marks));
                preparedFor = n;
            }
            for (qsizetype k = 0; k < n; ++k)
                own.addBindValue(keys.at(from + k));
            own.addBindValue(m_session);
            if (forceLate)
                own.addBindValue(closedSinceMs);
            if (!own.exec()) {
                *failed = own.lastError();
                return false;
            }
            own.finish();
            for (qsizetype k = 0; k < n; ++k)
                gone.addBindValue(keys.at(from + k));
            gone.addBindValue(m_session);
            gone.addBindValue(goneBefore);
            if (!gone.exec()) {
                *failed = gone.lastError();
                return false;
            }
            while (gone.next()) {
                // As it is now that it is locked: still that gone session's, still held (else left alone).
                const qint64 foundSession = gone.value(6).toLongLong();
                const bool open = gone.value(3).isNull();
                if (gone.value(5).toLongLong() != foundSession || (!open && gone.value(4).toString() != u"unobserved"))
                    continue;
                journal::EarlierInterval earlier;
                earlier.id = gone.value(1).toLongLong();
                earlier.token = gone.value(2).toByteArray();
                earlier.open = open;
                earlier.toMs = gone.value(3).toLongLong();
                earlier.session = foundSession;
                earlier.sessionLastMs = gone.value(7).isNull() ? -1 : gone.value(7).toLongLong();
                lockedEarlier.insert(gone.value(0).toByteArray(), earlier);
            }
            gone.finish();
        }
        return true;
    };
    // The key's latest interval of a session that is gone (ended, or silent) and that was still held when that
    // session last saw it, as locked above: the same tenure when the token is the same (this session takes it over),
    // else one that ended while nobody watched. Used once (taken over or ended, it is no longer that session's
    // still-held interval). A live writer's intervals are its own: never touched here.
    writing.findEarlier = [&](const JournalEvent& e, std::optional<journal::EarlierInterval>* found, QSqlError*) {
        const auto it = lockedEarlier.constFind(e.key);
        if (it != lockedEarlier.cend()) {
            *found = *it;
            lockedEarlier.erase(it);
        }
        return true;
    };
    writing.failed = [&](const QSqlError& failure, bool inTransaction) {
        const QString state = failure.nativeErrorCode();
        *retry = inTransaction && (state == u"40P01" || state == u"40001");
        if (*retry) {
            const std::lock_guard lock(s_lastRetryMutex);
            s_lastRetry = state + u' ' + failure.text();
        }
        const Error e = errorFrom(failure, tr("cannot write"));
        if (inTransaction)
            m_openIntervalsLoaded = false; // what it holds may be rolled back: read again
        if (error)
            *error = e;
    };
    return journal::writeEvents(events, nowMs, writing);
}

qint64 PostgresJournalStore::bytesQuery(const QString& sql)
{
    if (!m_open || m_lost)
        return -1;
    QSqlQuery q(m_db);
    if (!q.exec(sql) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

qint64 PostgresJournalStore::rowBytes()
{
    return bytesQuery(QStringLiteral("SELECT (SELECT coalesce(sum(pg_column_size(e.*)), 0) FROM redlock_events e) + "
                                     "(SELECT coalesce(sum(pg_column_size(i.*)), 0) FROM redlock_intervals i) + "
                                     "(SELECT coalesce(sum(pg_column_size(s.*)), 0) FROM redlock_sessions s)"));
}

qint64 PostgresJournalStore::dataBytes()
{
    // What the tables take on the server's disk, their indexes and TOAST included.
    return bytesQuery(QStringLiteral("SELECT pg_total_relation_size('redlock_events') + "
                                     "pg_total_relation_size('redlock_intervals') + "
                                     "pg_total_relation_size('redlock_sessions')"));
}

bool PostgresJournalStore::prune(qint64 olderThanMs, qint64 maxBytes, qint64* removed, Error* error)
{
    if (!reconnectIfLost(error))
        return false;
    // By size, as the SQLite file does: the oldest events and closed tenures (never an open one), a share of them as
    // large as the rows are over the target and a tenth more, until they fit. Measured is what the rows take
    // (rowBytes(), a scan), not the tables' files: a DELETE leaves its space in them for later rows, and what
    // VACUUM can give back depends on the table's owner and on every other open transaction, so a file size could
    // stay over the target however much was deleted. The cheap file size only says when to measure.
    journal::Retention retention;
    retention.db = m_db;
    retention.dialect = &postgres();
    retention.retainedBytes = [this] { return rowBytes(); };
    // Files over the target with the rows under it (indexes, space kept for later rows): measured again only once
    // the files grew by a tenth of the target, not after every batch.
    retention.sizeDue = [this](qint64 target) {
        const qint64 bytes = target > 0 ? dataBytes() : -1;
        return bytes > target && !(m_overTargetBytes > 0 && bytes < m_overTargetBytes + target / 10);
    };
    retention.compact = [this](qint64 target, bool removedAny) {
        // Plain VACUUM: the space of the deleted rows is reused by the next ones (the files stop growing) without
        // locking out the other writers; where this user may not (not the owner), autovacuum does it.
        if (removedAny)
            QSqlQuery(m_db).exec(QStringLiteral("VACUUM redlock_events, redlock_intervals, redlock_sessions"));
        const qint64 left = dataBytes();
        m_overTargetBytes = left > target ? left : 0;
    };
    retention.failed = [&](const QSqlError& failure) {
        if (error)
            *error = errorFrom(failure, tr("cannot prune"));
    };
    return journal::prune(olderThanMs, maxBytes, removed, retention);
}

QList<UnwatchedSpan> PostgresJournalStore::unwatchedSpans(qint64 sinceMs, qint64 untilMs, qint64 nowMs)
{
    return journal::unwatchedSpans(m_db, postgres(), sinceMs, untilMs, nowMs);
}

HistoryResult PostgresJournalStore::query(const HistoryQuery& query, qint64 nowMs)
{
    journal::HistoryReading reading;
    reading.db = m_db;
    reading.dialect = &postgres();
    // Every writer's intervals in the range, merged into one per tenure; the limit counts tenures.
    reading.intervalsSql = QStringLiteral(
        "SELECT i.key, i.token, i.holder, i.from_ms, i.to_ms, i.ended, i.extensions, i.at_least_since, i.gone_by_ms, "
        "s.source, s.pid, s.host FROM redlock_intervals i LEFT JOIN redlock_sessions s ON s.id = i.session WHERE "
        "i.from_ms <= :until AND (i.to_ms IS NULL OR i.to_ms >= :since)%1 ORDER BY i.key, i.from_ms, i.id");
    reading.intervalKey = QStringLiteral("i.key");
    reading.mergeTenures = mergeTenures;
    reading.eventsSql = QStringLiteral(
        "SELECT e.at_ms, e.key, e.kind, e.token, e.previous_token, e.holder, e.detail, e.last_seen_held_ms, s.source, "
        "s.pid, s.host, e.session FROM redlock_events e LEFT JOIN redlock_sessions s ON s.id = e.session WHERE e.at_ms "
        ">= :since AND e.at_ms <= :until%1 ORDER BY e.at_ms, e.id");
    reading.eventKey = QStringLiteral("e.key");
    // The events told so far by what they are about, with their writer and instant: another writer's report of the
    // same one, close in time, is told once (each told event stands for at most one report of each other writer).
    struct Told
    {
        qint64 atMs;
        qint64 session;
        QSet<qint64> matched;
    };
    QHash<QByteArray, QList<Told>> told;
    reading.toldAlready = [&told](const JournalEvent& e, const QSqlQuery& row) {
        const qint64 session = row.value(11).toLongLong();
        const QByteArray what = e.key + '\0' + e.kind.toUtf8() + '\0' + e.token + '\0' + e.previousToken;
        QList<Told>& same = told[what];
        for (Told& t : same) {
            if (t.session != session && !t.matched.contains(session) && e.atMs - t.atMs <= kSameEventWithinMs) {
                t.matched.insert(session);
                return true;
            }
        }
        same.append({e.atMs, session, {}});
        return false;
    };
    reading.failed = [this](const QSqlError& failure) { return errorFrom(failure, tr("cannot read")).message; };
    return journal::readHistory(query, nowMs, reading);
}

} // namespace redlock
