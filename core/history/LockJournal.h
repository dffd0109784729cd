#pragma once

#include "history/HistoryTypes.h"
#include "observe/ObservationTypes.h"
#include "runtime/SteadyClock.h"
#include "runtime/WallClock.h"

#include <QFuture>
#include <QMutex>
#include <QObject>

#include <deque>
#include <memory>

namespace redlock {

class IoThread;
class JournalWriter;

// What a journal file keeps by default (JournalOptions::retainBytes).
inline constexpr qint64 kDefaultRetainBytes = qint64(256) * 1024 * 1024;

struct JournalOptions
{
    QString path;                                 // empty = LockJournal::defaultPath()
    QString source = QStringLiteral("console");   // who writes (sessions table): "console", "watch"
    qint64 retainMs = qint64(30) * 24 * 3600'000; // events and tenures older than this are pruned (0 = keep)
    // Then the oldest, until the data takes at most this (0 = no limit): at start, on the retention timer, and
    // after every batch written that took the data beyond it. The -wal file is kept to an eighth of it.
    // -1 = the store's default: 256 MiB for a file; none for PostgreSQL, whose history is the team's: only a size
    // given on purpose (the always-on exporter's --retain-mb) trims it, never a console left on its defaults.
    qint64 retainBytes = -1;
    qint64 sizeLimitBytes = 0;  // hard cap of the file: a write beyond it fails like on a full disk (0 = none)
    int flushIntervalMs = 250;  // events are written in one transaction per interval
    int retryIntervalMs = 5000; // after a failure, the next attempt (reopen or write)
    int busyTimeoutMs = 5000;   // how long a write waits for another process's lock
    // Kept in memory while the file cannot take them; beyond, the oldest are dropped. While it can, the writer may
    // be 16 times as far behind (a first pass of 1M locks) before any is dropped.
    int maxPendingEvents = 200000;
    int retentionIntervalMs = 10 * 60'000; // retention by age (and size) on a timer
    std::shared_ptr<WallClock> clock; // the instants written (events, sessions, retention); null = WallClock::system()
    // What durations are timed on (the retry interval, the heartbeat): monotonic, so that a wall clock set back or
    // forward neither stalls the retries for as long nor fires them early. null = SteadyClock::system()
    std::shared_ptr<SteadyClock> steadyClock;
};

// What the journal did so far; any thread.
struct JournalStatus
{
    bool open = false;
    bool failing = false;
    QString error; // the last failure (translated), empty when writing works
    qint64 written = 0;
    qint64 dropped = 0; // events that never reached the file (reported in problem())
    qint64 pending = 0;
    qint64 pruned = 0;
};

// The lock history: every transition the inspector derives (acquired, extended, released, expired, token
// changed, contested, lost on a node restart) and every force release, journaled in one SQLite file (Qt SQL,
// WAL mode) with retention by age and size.
//
// record() is all a producer calls, from any thread: it appends to a batch in memory under a mutex and never
// touches the file, so watching locks never waits on the journal. A writer thread of its own writes the batch
// in one transaction per flush interval; queries run on another thread with a connection of their own (Qt SQL
// connections belong to one thread). When the file cannot take the events (damaged, locked by another process
// beyond the busy timeout, disk full), problem() says so and why; the events wait in memory (up to
// maxPendingEvents, then the oldest are dropped and counted) and the writer tries again every retryIntervalMs;
// recovered() says when it writes again and what was lost meanwhile.
class LockJournal final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockJournal)

public:
    explicit LockJournal(JournalOptions options, QObject* parent = nullptr);
    // Writes what it can (one attempt, at most a second's wait for a lock), then closes.
    ~LockJournal() override;

    // history.sqlite in the application's data folder (QStandardPaths::AppDataLocation, from the names the
    // application set): the console's is ~/.local/share/RedlockConsole/redlock-console/history.sqlite.
    static QString defaultPath();
    // `path` with the home folder written as ~ (for help texts).
    static QString pathForDisplay(const QString& path);
    // --journal LOCATION: a file, or postgresql://user@host[:port]/db (JournalStore::locationProblem: a URL that
    // holds a password is refused, without repeating it). Empty when it can be used. displayLocation: as shown.
    static QString locationProblem(const QString& location);
    static QString displayLocation(const QString& location);
    QString path() const { return m_options.path; }
    const JournalOptions& options() const { return m_options; }

    // Opens the file on the writer thread and starts writing (problem() if it cannot).
    void start();
    // Watching stopped (the console's controller stops its watch: a reconnect, another profile): the session ends
    // here, as if this writer had stopped. The events recorded before are written in it; its open tenures end as
    // "unobserved" at this instant; the events recorded after begin a new session, whose first sight of each key
    // continues or ends them as across a restart (HolderInterval). Any thread; never blocks on the file.
    void endSession();

    // Any thread; never blocks on the file.
    void record(const QList<LockEvent>& events);
    void record(const QList<JournalEvent>& events);
    // A force release that deleted `token` somewhere (the operator's name and reason in detail). endedTenure: it
    // left the token on fewer than a quorum of nodes ("force-released": the holder's interval ends); otherwise it
    // released on a minority and the holder still holds ("force-released-minority": journaled, nothing ends).
    void recordForceRelease(const QByteArray& key, const QByteArray& token, const QString& detail, qint64 atMs,
                            bool endedTenure);

    // The password of a PostgreSQL location when libpq's own sources (PGPASSWORD, ~/.pgpass) give none: one the
    // console has (its keyring, or asked after passwordNeeded()). In memory only. The writer tries again at once;
    // the panel's queries take it too. Any thread.
    void setDatabasePassword(const QString& password);

    // Writes what is pending now; true when everything was written.
    QFuture<bool> flush();
    // Retention now; the rows removed (-1 on failure).
    QFuture<qint64> prune();
    // On the query thread, with its own connection to the file.
    QFuture<HistoryResult> query(const HistoryQuery& query);
    JournalStatus status() const;

    // A query on the calling thread, with a connection of its own, read-only (the CLI).
    static HistoryResult queryFile(const QString& path, const HistoryQuery& query, qint64 nowMs,
                                   int busyTimeoutMs = 5000);

signals:
    // The journal cannot take events now, why, and what waits or was dropped (translated). Emitted on the
    // writer thread when the failure starts, changes, or drops more events.
    void problem(const QString& message);
    void recovered(const QString& message);
    // Written, but the operator should know (a journal others may read that cannot be made private). Once per
    // message, on the writer thread.
    void warning(const QString& message);
    // The PostgreSQL server wants a password that none of libpq's sources nor setDatabasePassword() gave, or refused
    // the one given (problem: what it said). The writer goes on retrying; setDatabasePassword() gives it one. On
    // the writer thread, at each refused attempt, before the problem() that says the history is not written.
    void passwordNeeded(const QString& problem);

private:
    friend class JournalWriter;
    // Takes at most `max` pending events (the oldest first), up to the next session end. When a session end is
    // first, takes it instead: *sessionEndAtMs is its instant and the batch is empty.
    QList<JournalEvent> takePending(int max, std::optional<qint64>* sessionEndAtMs);
    // Puts a batch the file refused back in front (a session end too); drops the oldest beyond the cap.
    void putBack(QList<JournalEvent> batch);
    void append(QList<JournalEvent> events);
    // Drops the oldest events (never a session end) while more than maxPendingEvents wait. Under m_mutex.
    void dropBeyondCap();

    JournalOptions m_options;
    mutable QMutex m_mutex;             // guards everything below
    std::deque<JournalEvent> m_pending; // events, and the session ends (endSession()) between them
    qsizetype m_pendingSessionEnds = 0;
    JournalStatus m_status;
    QString m_databasePassword;
    qint64 m_firstDroppedMs = 0, m_lastDroppedMs = 0;
    std::unique_ptr<IoThread> m_writerThread;
    std::unique_ptr<IoThread> m_queryThread;
    JournalWriter* m_writer = nullptr;
    QObject* m_queryContext = nullptr;
};

} // namespace redlock
