#pragma once

#include "history/JournalStore.h"

#include <QCoreApplication>
#include <QHash>
#include <QSqlDatabase>
#include <QString>

#include <atomic>
#include <mutex>

namespace redlock {

// The lock history of a deployment in PostgreSQL (Qt SQL's QPSQL driver), behind JournalStore when --journal is a
// postgresql://user@host[:port]/db URL: one history for a team, written by several writers at once (two exporters
// for redundancy, consoles). Same contract as the SQLite file (JournalStore.h says what each call does); what
// differs:
// - The password never comes from the URL (a URL holding one is refused, and not echoed): libpq reads PGPASSWORD
//   or ~/.pgpass (PGPASSFILE) itself.
// - The tables (redlock_*) are created and upgraded by open() under an advisory lock, with their version in
//   redlock_schema; a schema newer than this build knows is refused, never written.
// - No writer lock: each writer's session owns the intervals it opens, and a writer ends, continues or closes only
//   its own, or those of a session that is gone (ended, or silent for kJournalSilentAfterMs). Two writers that see
//   one tenure each keep an interval of it; query() gives readers one timeline: the intervals of one key with one
//   token are one tenure (clients draw a random token per acquisition), merged; the events two writers both
//   journaled are told once.
// - Retention by age and size, in the store (every writer prunes; deletes are idempotent). dataBytes() is what the
//   tables take on the server (pg_total_relation_size); when that is over the target, prune() measures what the
//   rows take (rowBytes()) and deletes the oldest events and closed tenures until the rows fit, then a plain VACUUM
//   lets later rows reuse the space. Only a writer given a size trims by size (JournalOptions::retainBytes).
class PostgresJournalStore final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::PostgresJournalStore)
    Q_DISABLE_COPY_MOVE(PostgresJournalStore)
    friend class JournalImport; // writes the rows of a SQLite journal as they are, on this store's connection

public:
    using Error = JournalStore::Error;
    using Failure = JournalStore::Failure;
    // The schema version this build writes and reads (redlock_schema.version).
    static constexpr int kSchemaVersion = 1;

    static bool isUrl(const QString& location);
    // Why `url` cannot be used (translated; never repeats a password it holds); empty when it can.
    static QString urlProblem(const QString& url);
    // The URL as shown in messages: no password, whatever it held.
    static QString displayUrl(const QString& url);

    PostgresJournalStore(const QString& url, int busyTimeoutMs);
    ~PostgresJournalStore();

    // The password when libpq's own sources (PGPASSWORD, ~/.pgpass) give none: one the caller has (the console's
    // keyring, the operator asked). Before open(); never from the URL or the command line.
    void setPassword(const QString& password) { m_password = password; }
    bool open(bool readOnly, Error* error);
    // open(false) for a writer that puts many rows in at once (JournalImport): returns with a transaction begun on
    // this store's connection. When the tables had to be created or upgraded that transaction did it and is still
    // open (holding the schema lock: other writers' open() waits): the caller's COMMIT makes the tables and its rows
    // appear together, a ROLLBACK or a lost connection leaves the database as it was, with no empty tables.
    bool openInTransaction(Error* error);
    bool isOpen() const { return m_open; }
    void close();
    void setBusyTimeout(int ms);
    bool beginSession(const QString& source, qint64 nowMs, qint64 staleBeforeMs, Error* error);
    bool endSession(qint64 nowMs, Error* error);
    bool hasSession() const { return m_session >= 0; }
    bool closeAbandoned(qint64 staleBeforeMs, Error* error);
    bool write(const QList<JournalEvent>& events, qint64 nowMs, Error* error);
    // The batches written again in this process because the server gave their transaction up (a deadlock's victim,
    // a serialization failure): a safety net that ordered row locks should leave unused (tests read it).
    static qint64 writeRetries() { return s_writeRetries.load(std::memory_order_relaxed); }
    // Why the last of them was written again: its SQLSTATE (40P01, 40001) and the server's message (with a deadlock's
    // DETAIL: which transactions waited on which); empty when none was.
    static QString lastWriteRetry();
    bool prune(qint64 olderThanMs, qint64 maxBytes, qint64* removed, Error* error);
    qint64 dataBytes();
    // What the rows take (a scan of the tables; no indexes, no space kept for later rows): what retention keeps
    // under its size target.
    qint64 rowBytes();
    HistoryResult query(const HistoryQuery& query, qint64 nowMs);
    QList<UnwatchedSpan> unwatchedSpans(qint64 sinceMs, qint64 untilMs, qint64 nowMs);

private:
    // One attempt of write(); *retry is set when the server gave up the transaction to another one (a deadlock or a
    // serialization failure: nothing of it was written, and trying again is what the server asks for).
    bool writeOnce(const QList<JournalEvent>& events, qint64 nowMs, Error* error, bool* retry);
    // The one number a size query returns; -1 when the store is not open or the query fails.
    qint64 bytesQuery(const QString& sql);
    Error errorFrom(const class QSqlError& sqlError, const QString& doing) const;
    bool connect(bool readOnly, Error* error, bool commitSchema = true);
    // After a failure that lost the connection: connects again, keeping the session.
    bool reconnectIfLost(Error* error);
    Error errorWith(Failure failure, const QString& message) const;
    // commit false: returns inside a transaction (openInTransaction()).
    bool createOrUpgradeSchema(Error* error, bool commit = true);
    bool loadOpenIntervals(Error* error);

    QString m_url;
    QString m_display;
    QString m_connectionName;
    QString m_password;
    int m_busyTimeoutMs;
    QSqlDatabase m_db;
    bool m_open = false;
    mutable bool m_lost = false; // errorFrom() found the connection gone: the next call connects again
    qint64 m_session = -1;
    // This session's open interval of each key; dropped when a write fails and read again by the next.
    journal::OpenIntervals m_openIntervals;
    bool m_openIntervalsLoaded = false;
    // What the tables' files still took after the last prune() by size, when that was over the target (indexes,
    // space kept for later rows, open tenures); 0: under it.
    qint64 m_overTargetBytes = 0;
    static std::atomic<qint64> s_writeRetries;
    static std::mutex s_lastRetryMutex;
    static QString s_lastRetry;
};

} // namespace redlock
