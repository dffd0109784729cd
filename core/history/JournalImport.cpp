#include "history/JournalImport.h"

#include "history/PostgresJournalStore.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace redlock {

namespace {

QString uniqueConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("redlock-journal-import-%1").arg(counter.fetchAndAddRelaxed(1));
}

// A byte string column as PostgreSQL's bytea: NULL stays NULL (typed, so that the server knows what it is).
QVariant bytes(const QVariant& value)
{
    return value.isNull() ? QVariant(QMetaType::fromType<QByteArray>()) : QVariant(value.toByteArray());
}

QVariant integer(const QVariant& value)
{
    return value.isNull() ? QVariant(QMetaType::fromType<qint64>()) : QVariant(value.toLongLong());
}

QVariant text(const QVariant& value)
{
    return value.isNull() ? QVariant(QMetaType::fromType<QString>()) : QVariant(value.toString());
}

// The SQLite journal, opened read-only on a connection of its own (removed with it).
class SqliteSource
{
public:
    SqliteSource() : m_name(uniqueConnectionName()) {}
    ~SqliteSource()
    {
        if (m_db.isValid()) {
            if (m_db.isOpen())
                m_db.rollback(); // the read snapshot (nothing was written)
            m_db.close();
            m_db = QSqlDatabase();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    Q_DISABLE_COPY_MOVE(SqliteSource)

    // Opens the file and checks that it is a journal this build reads; *error (translated) when not.
    bool open(const QString& path, int busyTimeoutMs, QString* error)
    {
        const QString shown = QDir::toNativeSeparators(path);
        const QFileInfo info(path);
        if (!info.exists()) {
            *error = JournalImport::tr("%1: no such file").arg(shown);
            return false;
        }
        if (!info.isFile()) {
            *error = JournalImport::tr("%1: not a file: a SQLite lock history journal is").arg(shown);
            return false;
        }
        m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        if (!m_db.isValid()) {
            *error = JournalImport::tr("the Qt SQLite driver is missing (Debian: libqt6sql6-sqlite)");
            return false;
        }
        m_db.setDatabaseName(path);
        m_db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMs));
        const QString notJournal =
            JournalImport::tr("%1: not a lock history journal (the file the console, `redlock watch --journal FILE` "
                              "and `redlock exporter --journal FILE` write)")
                .arg(shown);
        if (!m_db.open()) {
            *error = JournalImport::tr("%1: cannot open (%2)").arg(shown, m_db.lastError().text());
            return false;
        }
        // SQLite reads the header at the first statement: garbage fails here.
        QSqlQuery q(m_db);
        if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) {
            *error = notJournal + QStringLiteral(" (") + q.lastError().text() + u')';
            return false;
        }
        if (const int version = q.value(0).toInt(); version > JournalImport::kSqliteSchemaVersion) {
            *error = JournalImport::tr("%1: the journal has schema version %2, written by a newer Redlock Console; "
                                       "this one reads up to %3: import it with the newer one")
                         .arg(shown)
                         .arg(version)
                         .arg(JournalImport::kSqliteSchemaVersion);
            return false;
        }
        const auto columns = [&](const QString& table) {
            QSet<QString> names;
            QSqlQuery c(m_db);
            c.prepare(QStringLiteral("SELECT name FROM pragma_table_info(?)"));
            c.addBindValue(table);
            if (c.exec()) {
                while (c.next())
                    names.insert(c.value(0).toString());
            }
            return names;
        };
        const auto hasAll = [](const QSet<QString>& have, QStringList needed) {
            return std::all_of(needed.cbegin(), needed.cend(), [&](const QString& n) { return have.contains(n); });
        };
        m_sessionColumns = columns(QStringLiteral("sessions"));
        m_eventColumns = columns(QStringLiteral("events"));
        m_intervalColumns = columns(QStringLiteral("intervals"));
        if (!hasAll(m_eventColumns, {QStringLiteral("at_ms"), QStringLiteral("key"), QStringLiteral("kind"),
                                     QStringLiteral("token"), QStringLiteral("previous_token"),
                                     QStringLiteral("holder"), QStringLiteral("detail"), QStringLiteral("session")}) ||
            !hasAll(m_intervalColumns, {QStringLiteral("key"), QStringLiteral("token"), QStringLiteral("holder"),
                                        QStringLiteral("from_ms"), QStringLiteral("to_ms"), QStringLiteral("ended"),
                                        QStringLiteral("extensions"), QStringLiteral("session")}) ||
            (!m_sessionColumns.isEmpty() &&
             !hasAll(m_sessionColumns,
                     {QStringLiteral("id"), QStringLiteral("source"), QStringLiteral("pid"),
                      QStringLiteral("started_ms"), QStringLiteral("last_ms"), QStringLiteral("ended_ms")}))) {
            *error = notJournal;
            return false;
        }
        // One read transaction: the sessions, events and tenures read below are one snapshot of the file, even
        // while a writer goes on (a session it starts in between would otherwise come without its rows' writer).
        if (!m_db.transaction()) {
            *error = JournalImport::tr("%1: cannot open (%2)").arg(shown, m_db.lastError().text());
            return false;
        }
        return true;
    }

    // A column the journal may lack (written before it existed), or NULL.
    QString optional(const QSet<QString>& columns, const QString& name) const
    {
        return columns.contains(name) ? name : QStringLiteral("NULL");
    }

    QSqlDatabase m_db;
    QString m_name;
    QSet<QString> m_sessionColumns, m_eventColumns, m_intervalColumns;
};

} // namespace

JournalImportResult JournalImport::importSqlite(const QString& sqlitePath, const QString& postgresUrl,
                                                const QString& password, int busyTimeoutMs)
{
    JournalImportResult result;
    if (!PostgresJournalStore::isUrl(postgresUrl)) {
        result.error = tr("%1: not a postgresql://user@host[:port]/database URL: the import goes into a shared "
                          "history in PostgreSQL")
                           .arg(PostgresJournalStore::displayUrl(postgresUrl));
        return result;
    }
    // The file first: one that is no journal never gets as far as the server.
    SqliteSource source;
    if (!source.open(sqlitePath, busyTimeoutMs, &result.error))
        return result;

    PostgresJournalStore store(postgresUrl, busyTimeoutMs);
    store.setPassword(password);
    PostgresJournalStore::Error openError;
    // The tables, if they are new, are made in the import's transaction: a failure leaves none behind, empty.
    if (!store.openInTransaction(&openError)) {
        result.error = openError.message;
        return result;
    }
    // The store's own connection (friend): opened, with the tables made or checked, in a transaction.
    QSqlDatabase& db = store.m_db;
    const QString shown = QDir::toNativeSeparators(sqlitePath);
    QSqlQuery pg(db);
    const auto fail = [&](const QSqlError& e, bool fromFile) {
        result = {};
        // Rolled back first: errorFrom() tells a lost server by a statement that fails inside a failed transaction.
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        result.error = (fromFile ? tr("%1: cannot read (%2)").arg(shown, e.text())
                                 : store.errorFrom(e, tr("cannot import")).message) +
                       tr(" Nothing was imported: the shared history is as it was.");
        return result;
    };

    // Sessions: the journal's id -> the history's; those that were there already (their rows are checked one by one).
    QHash<qint64, qint64> sessionIds;
    QSet<qint64> presentSessions;
    if (!source.m_sessionColumns.isEmpty()) {
        QSqlQuery s(source.m_db);
        s.setForwardOnly(true);
        if (!s.exec(QStringLiteral("SELECT id, source, pid, %1, started_ms, last_ms, ended_ms FROM sessions ORDER BY "
                                   "id")
                        .arg(source.optional(source.m_sessionColumns, QStringLiteral("host")))))
            return fail(s.lastError(), true);
        QSqlQuery find(db), update(db), insert(db);
        find.prepare(
            QStringLiteral("SELECT id FROM redlock_sessions WHERE source IS NOT DISTINCT FROM ? AND pid IS NOT "
                           "DISTINCT FROM ? AND host IS NOT DISTINCT FROM ? AND started_ms = ? ORDER BY id "
                           "LIMIT 1"));
        // What the journal learned since the last import: the session went on, or ended.
        update.prepare(QStringLiteral("UPDATE redlock_sessions SET last_ms = greatest(last_ms, ?), ended_ms = "
                                      "coalesce(?, ended_ms) WHERE id = ?"));
        insert.prepare(QStringLiteral("INSERT INTO redlock_sessions(source, pid, host, started_ms, last_ms, ended_ms) "
                                      "VALUES(?, ?, ?, ?, ?, ?) RETURNING id"));
        while (s.next()) {
            const QVariant src = text(s.value(1)), pid = integer(s.value(2)), host = text(s.value(3));
            find.addBindValue(src);
            find.addBindValue(pid);
            find.addBindValue(host);
            find.addBindValue(s.value(4).toLongLong());
            if (!find.exec())
                return fail(find.lastError(), false);
            if (find.next()) {
                const qint64 id = find.value(0).toLongLong();
                update.addBindValue(s.value(5).toLongLong());
                update.addBindValue(integer(s.value(6)));
                update.addBindValue(id);
                if (!update.exec())
                    return fail(update.lastError(), false);
                sessionIds.insert(s.value(0).toLongLong(), id);
                presentSessions.insert(id);
                ++result.sessionsPresent;
                continue;
            }
            insert.addBindValue(src);
            insert.addBindValue(pid);
            insert.addBindValue(host);
            insert.addBindValue(s.value(4).toLongLong());
            insert.addBindValue(s.value(5).toLongLong());
            insert.addBindValue(integer(s.value(6)));
            if (!insert.exec() || !insert.next())
                return fail(insert.lastError(), false);
            sessionIds.insert(s.value(0).toLongLong(), insert.value(0).toLongLong());
            ++result.sessions;
        }
        if (s.lastError().isValid())
            return fail(s.lastError(), true);
    }
    // A row of a session the journal no longer has (pruned) keeps no writer, as in the journal.
    const auto mappedSession = [&](const QVariant& session, bool* checkPresent) -> std::optional<qint64> {
        const auto it = session.isNull() ? sessionIds.cend() : sessionIds.constFind(session.toLongLong());
        if (it == sessionIds.cend()) {
            *checkPresent = true;
            return std::nullopt;
        }
        *checkPresent = presentSessions.contains(*it);
        return *it;
    };

    {
        QSqlQuery e(source.m_db);
        e.setForwardOnly(true);
        if (!e.exec(QStringLiteral("SELECT at_ms, key, kind, token, previous_token, holder, detail, session, %1 FROM "
                                   "events ORDER BY id")
                        .arg(source.optional(source.m_eventColumns, QStringLiteral("last_seen_held_ms")))))
            return fail(e.lastError(), true);
        QSqlQuery find(db), insert(db);
        find.prepare(
            QStringLiteral("SELECT 1 FROM redlock_events WHERE key = ? AND at_ms = ? AND kind = ? AND token IS "
                           "NOT DISTINCT FROM ? AND session IS NOT DISTINCT FROM ? LIMIT 1"));
        insert.prepare(QStringLiteral("INSERT INTO redlock_events(at_ms, key, kind, token, previous_token, holder, "
                                      "detail, session, last_seen_held_ms) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        while (e.next()) {
            bool check = false;
            const std::optional<qint64> session = mappedSession(e.value(7), &check);
            const QVariant sessionValue = session ? QVariant(*session) : QVariant(QMetaType::fromType<qint64>());
            if (check) {
                find.addBindValue(bytes(e.value(1)));
                find.addBindValue(e.value(0).toLongLong());
                find.addBindValue(e.value(2).toString());
                find.addBindValue(bytes(e.value(3)));
                find.addBindValue(sessionValue);
                if (!find.exec())
                    return fail(find.lastError(), false);
                if (find.next()) {
                    ++result.eventsPresent;
                    continue;
                }
            }
            insert.addBindValue(e.value(0).toLongLong());
            insert.addBindValue(bytes(e.value(1)));
            insert.addBindValue(e.value(2).toString());
            insert.addBindValue(bytes(e.value(3)));
            insert.addBindValue(bytes(e.value(4)));
            insert.addBindValue(text(e.value(5)));
            insert.addBindValue(text(e.value(6)));
            insert.addBindValue(sessionValue);
            insert.addBindValue(integer(e.value(8)));
            if (!insert.exec())
                return fail(insert.lastError(), false);
            ++result.events;
        }
        if (e.lastError().isValid())
            return fail(e.lastError(), true);
    }

    {
        QSqlQuery i(source.m_db);
        i.setForwardOnly(true);
        if (!i.exec(QStringLiteral("SELECT key, token, holder, from_ms, to_ms, ended, extensions, session, %1, %2 FROM "
                                   "intervals ORDER BY id")
                        .arg(source.optional(source.m_intervalColumns, QStringLiteral("at_least_since")),
                             source.optional(source.m_intervalColumns, QStringLiteral("gone_by_ms")))))
            return fail(i.lastError(), true);
        QSqlQuery update(db), insert(db);
        // The tenure as the journal has it now (it may have ended, or been extended, since the last import).
        update.prepare(QStringLiteral("UPDATE redlock_intervals SET holder = ?, to_ms = ?, ended = ?, extensions = ?, "
                                      "at_least_since = ?, gone_by_ms = ? WHERE key = ? AND token = ? AND from_ms = ? "
                                      "AND session = ?"));
        insert.prepare(QStringLiteral("INSERT INTO redlock_intervals(key, token, holder, from_ms, to_ms, ended, "
                                      "extensions, session, at_least_since, gone_by_ms) VALUES(?, ?, ?, ?, ?, ?, ?, ?, "
                                      "?, ?)"));
        while (i.next()) {
            bool check = false;
            // The history's intervals always name a session: 0 is none (the journal had pruned it).
            const qint64 session = mappedSession(i.value(7), &check).value_or(0);
            const QVariant holder = text(i.value(2)), to = integer(i.value(4)), ended = text(i.value(5)),
                           gone = integer(i.value(9));
            const int extensions = i.value(6).toInt(), atLeastSince = i.value(8).toInt();
            if (check) {
                update.addBindValue(holder);
                update.addBindValue(to);
                update.addBindValue(ended);
                update.addBindValue(extensions);
                update.addBindValue(atLeastSince);
                update.addBindValue(gone);
                update.addBindValue(bytes(i.value(0)));
                update.addBindValue(bytes(i.value(1)));
                update.addBindValue(i.value(3).toLongLong());
                update.addBindValue(session);
                if (!update.exec())
                    return fail(update.lastError(), false);
                if (update.numRowsAffected() > 0) {
                    ++result.intervalsPresent;
                    continue;
                }
            }
            insert.addBindValue(bytes(i.value(0)));
            insert.addBindValue(bytes(i.value(1)));
            insert.addBindValue(holder);
            insert.addBindValue(i.value(3).toLongLong());
            insert.addBindValue(to);
            insert.addBindValue(ended);
            insert.addBindValue(extensions);
            insert.addBindValue(session);
            insert.addBindValue(atLeastSince);
            insert.addBindValue(gone);
            if (!insert.exec())
                return fail(insert.lastError(), false);
            ++result.intervals;
        }
        if (i.lastError().isValid())
            return fail(i.lastError(), true);
    }
    if (!pg.exec(QStringLiteral("COMMIT")))
        return fail(pg.lastError(), false);
    return result;
}

} // namespace redlock
