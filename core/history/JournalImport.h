#pragma once

#include <QCoreApplication>
#include <QString>

namespace redlock {

// What an import did: the rows it added to the PostgreSQL history, and those it found there already (an import
// run again, or a journal imported while it was still written: only what is new is added).
struct JournalImportResult
{
    qint64 sessions = 0, sessionsPresent = 0;   // writers' sessions (who watched when)
    qint64 intervals = 0, intervalsPresent = 0; // holders' tenures
    qint64 events = 0, eventsPresent = 0;
    QString error; // translated; empty = success. On an error nothing was written.
};

// Moves a team's embedded history (a SQLite journal the console, `redlock watch --journal FILE` or `redlock exporter
// --journal FILE` wrote) into its shared history in PostgreSQL (`redlock history --import FILE --journal URL`).
// Every writer's session, tenure and event keeps its instants, its writer (source, pid, host) and its end, so the
// spans nobody watched stay what they were. Idempotent: a session is the same one when its source, pid, host and
// start are; within it an event is the same when its instant, key, kind and token are, and a tenure when its key,
// token and start are (one whose end the journal learned since the last import takes that end). All in one
// transaction: a file that is not a journal, a journal of a newer schema, or any failure writes nothing.
// On the calling thread, with connections of its own.
class JournalImport final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::JournalImport)

public:
    // The SQLite journal schema this build reads (PRAGMA user_version; today's journals leave it 0). A journal that
    // says more was written by a newer build and is refused.
    static constexpr int kSqliteSchemaVersion = 0;

    // password: for the PostgreSQL server when libpq's own sources (PGPASSWORD, ~/.pgpass) give none; empty: none.
    static JournalImportResult importSqlite(const QString& sqlitePath, const QString& postgresUrl,
                                            const QString& password = {}, int busyTimeoutMs = 5000);
};

} // namespace redlock
