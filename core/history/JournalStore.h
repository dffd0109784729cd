#pragma once

#include "history/HistoryTypes.h"
#include "history/JournalStoreCommon.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QString>

#include <memory>

namespace redlock {

class PostgresJournalStore;

// The journal file behind one Qt SQL connection (SQLite, WAL). Qt SQL connections belong to the thread that
// opened them: a JournalStore is made, used and destroyed on one thread (LockJournal's writer thread, a
// query's thread, the CLI's main thread); each has a connection of its own.
//
// Tables: events (one row per journaled transition), intervals (one row per holder tenure, kept as the
// events are written: "who held it when" is one indexed range query), sessions (one per writer: console or
// `redlock watch`; the intervals a writer left open when it stopped or died are closed as "unobserved"; the
// next writer's first sight of the key continues such an interval when the holder is the same, or ends it as
// "ended-unwatched" when it is not: HolderInterval says how). One writer at a time is what the history is made
// for, and what a writer enforces: it holds an advisory lock (flock) on <file>-writer.lock while open, and a second
// writer's open() fails (Busy) naming the first one's process, instead of the two closing each other's intervals.
// Readers take no lock and never write: a journal the reader may read but not write is queried all the same.
//
// The file holds every lock token (the capability to release a lock): created readable by its owner only, as are
// its SQLite side files and any folder open() creates (runtime/PrivateFile.h).
//
// A postgresql://user@host[:port]/db location is a deployment's shared history in PostgreSQL instead: every call
// goes to a PostgresJournalStore (PostgresJournalStore.h says what differs), and the SQLite code stays as it is.
class JournalStore final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::JournalStore)
    Q_DISABLE_COPY_MOVE(JournalStore)

public:
    // Why a call failed, from SQLite's result code: what the operator can do about it differs.
    enum class Failure {
        None,
        NotADatabase, // garbage or a damaged file (SQLITE_NOTADB, SQLITE_CORRUPT)
        Busy,         // another process holds the lock longer than the busy timeout (SQLITE_BUSY, SQLITE_LOCKED)
        Full,         // disk full or the size limit (max_page_count) reached (SQLITE_FULL)
        Other,        // cannot open, read-only, I/O error, ...
        // A database server that went away (PostgreSQL): the store connects again itself at its next call and goes
        // on in the same session, so the tenures it had open continue (a new store would begin another session).
        Unreachable,
    };
    struct Error
    {
        Failure failure = Failure::None;
        QString message; // translated, names the file
    };

    // sizeLimitBytes > 0: the file never grows beyond it (PRAGMA max_page_count); a write that would is
    // refused as Full, exactly as on a full disk.
    JournalStore(const QString& path, int busyTimeoutMs, qint64 sizeLimitBytes = 0);
    ~JournalStore();

    // A PostgreSQL URL, not a file.
    static bool isDatabaseUrl(const QString& location);
    // Why --journal LOCATION cannot be used (a URL holding a password, a URL without user or database), translated
    // and never repeating the password; empty when it can (a file's problems are open()'s to tell).
    static QString locationProblem(const QString& location);
    // The location as shown: a URL without any password.
    static QString displayLocation(const QString& location);

    const QString& path() const { return m_path; }
    // Opens the file (creating it and its folder), turns on WAL and creates the tables. readOnly: only opens
    // an existing file for queries (nothing is created). A path that is not a regular file (a FIFO, a folder, a
    // device) is refused before SQLite touches it: opening a FIFO would wait for a writer forever.
    bool open(bool readOnly, Error* error);
    // A PostgreSQL location's password when libpq's own sources (PGPASSWORD, ~/.pgpass) give none (the console's
    // keyring, or asked); before open(). A file has none: ignored.
    void setPassword(const QString& password);
    // What open() for writing found but could not fix (a file others may read that cannot be made private); the
    // journal is written all the same. Translated.
    const QStringList& warnings() const { return m_warnings; }
    // The -wal file is truncated back to about this after a checkpoint, and checkpointed when it reaches it (SQLite
    // keeps its largest size otherwise). Before open(); 0 = SQLite's defaults.
    void setWalLimit(qint64 bytes) { m_walLimitBytes = bytes; }
    bool isOpen() const;
    void close();
    // PRAGMA busy_timeout on the open connection (shorter at shutdown: a destructor does not wait long).
    void setBusyTimeout(int ms);

    // A writer's session: closes what writers that are gone left open, then registers this one.
    bool beginSession(const QString& source, qint64 nowMs, qint64 staleBeforeMs, Error* error);
    // Closes this session's open intervals as "unobserved" at nowMs; then there is no session until the next
    // beginSession() (write() needs one). Without a session: nothing to do.
    bool endSession(qint64 nowMs, Error* error);
    bool hasSession() const;
    // Closes the open intervals of sessions that ended or have not written since staleBeforeMs.
    bool closeAbandoned(qint64 staleBeforeMs, Error* error);
    // Writes the events (and the intervals they open, extend or close) in one transaction: all or nothing.
    bool write(const QList<JournalEvent>& events, qint64 nowMs, Error* error);
    // Retention: removes events and closed intervals older than olderThanMs, then the oldest ones until the
    // data takes at most maxBytes (0 = no size target); gives the space back to the file system. *removed:
    // rows deleted.
    bool prune(qint64 olderThanMs, qint64 maxBytes, qint64* removed, Error* error);
    // Pages in use times the page size; PostgreSQL: what the tables take on the server. -1 when unknown.
    qint64 dataBytes();
    // What retention by size keeps under its target: dataBytes() for a file, what the rows take in PostgreSQL.
    qint64 retainedBytes();
    HistoryResult query(const HistoryQuery& query, qint64 nowMs);
    // The spans between sinceMs and untilMs that no writer's session covers (HistoryResult::unwatched).
    QList<UnwatchedSpan> unwatchedSpans(qint64 sinceMs, qint64 untilMs, qint64 nowMs);

private:
    Error errorFrom(const class QSqlError& sqlError, const QString& doing) const;
    bool exec(const QString& sql, Error* error);
    qint64 pragmaValue(const QString& name);
    bool lockWriter(Error* error);
    bool openReadOnly(bool immutable, Error* error);

    QString m_path;
    std::unique_ptr<PostgresJournalStore> m_postgres; // the location is a PostgreSQL URL
    QString m_connectionName;
    int m_busyTimeoutMs;
    qint64 m_sizeLimitBytes;
    qint64 m_walLimitBytes = 0;
    int m_writerLockFd = -1; // holds the flock of <file>-writer.lock while open for writing
    QStringList m_warnings;
    QSqlDatabase m_db;
    bool m_open = false;
    // Columns that journals written before them do not have (a read-only query reads them as absent).
    bool m_hasAtLeastSince = false;   // intervals.at_least_since
    bool m_hasUnobservedEnds = false; // events.last_seen_held_ms, intervals.gone_by_ms
    bool m_hasSessionHost = false;    // sessions.host
    qint64 m_session = -1;
    // What write() would otherwise ask the file for every event (a first pass writes 100,000 of them): this
    // session's open interval of each key (row id, token), and the keys an earlier session left held (open or
    // "unobserved"), whose first sight in this session continues or ends that interval. Loaded by beginSession();
    // dropped when a write fails (its transaction rolled back) and loaded again by the next.
    bool loadSessionState(Error* error);
    // write()'s hot statements, on the driver's sqlite3 handle (JournalStore.cpp); finalized by close().
    class RawStatement;
    bool prepareRaw(Error* error);
    std::unique_ptr<RawStatement> m_insertEvent, m_openInterval, m_closeOpen;
    bool m_sessionStateLoaded = false;
    journal::OpenIntervals m_openIntervals;
    QSet<QByteArray> m_heldBefore;
};

} // namespace redlock
