#include "history/LockJournal.h"

#include "history/JournalStore.h"
#include "history/PostgresJournalPassword.h"
#include "runtime/IoThread.h"
#include "runtime/OwnThreadFuture.h"

#include <QDateTime>
#include <QDir>
#include <QSet>
#include <QStandardPaths>
#include <QTimer>

#include <limits>

namespace redlock {

namespace {
constexpr int kBatchEvents = 5000;                   // one transaction
constexpr qint64 kHeartbeatMs = kJournalHeartbeatMs; // a writer that has not written for this long says it is alive
constexpr qint64 kAbandonedAfterMs = kJournalSilentAfterMs; // a session silent for this long is gone: its tenures end
// A writer holds the journal's writer lock (JournalStore): when it begins a session, every other session without an
// end is one whose writer died (kill -9, a crash, a power loss). Their open tenures end as "unobserved" at their last
// write at once, not two minutes later: a lock released while nobody watched is never shown as still held.
constexpr qint64 kEveryOtherSession = std::numeric_limits<qint64>::max();

// endSession()'s mark in the pending queue: no event, never written. No kind a producer journals looks like it.
const QString& sessionEndKind()
{
    static const QString kind = QStringLiteral("\x01session-end");
    return kind;
}

bool isSessionEnd(const JournalEvent& e)
{
    return e.kind == sessionEndKind();
}
} // namespace

// The writer: lives on the journal's own thread and is the only user of its connection.
class JournalWriter final : public QObject
{
    Q_DISABLE_COPY_MOVE(JournalWriter)

public:
    explicit JournalWriter(LockJournal* journal) : m_journal(journal), m_options(journal->m_options)
    {
        m_flushTimer.setInterval(std::max(1, m_options.flushIntervalMs));
        connect(&m_flushTimer, &QTimer::timeout, this, [this] { flushNow(false); });
        m_retentionTimer.setInterval(std::max(1000, m_options.retentionIntervalMs));
        connect(&m_retentionTimer, &QTimer::timeout, this, [this] { pruneNow(); });
    }

    void start()
    {
        m_flushTimer.start();
        m_retentionTimer.start();
        if (ensureOpen())
            pruneNow();
    }

    // Writes everything pending, in batches; false when something is left (the file refused it). Unless
    // forced, waits for the retry instant after a failure.
    bool flushNow(bool force)
    {
        const qint64 since = steadyMs();
        if (m_failing && !force && since < m_retryAtSteadyMs)
            return false;
        if (!ensureOpen())
            return false;
        bool wrote = false;
        for (;;) {
            std::optional<qint64> sessionEndAtMs;
            QList<JournalEvent> batch = m_journal->takePending(kBatchEvents, &sessionEndAtMs);
            if (sessionEndAtMs) {
                // The watch stopped: this session's open tenures end there; the next events begin another.
                JournalStore::Error error;
                if (m_store->hasSession() && !m_store->endSession(*sessionEndAtMs, &error)) {
                    JournalEvent end;
                    end.kind = sessionEndKind();
                    end.atMs = *sessionEndAtMs;
                    m_journal->putBack({end});
                    fail(error);
                    return false;
                }
                continue;
            }
            if (batch.isEmpty())
                break;
            JournalStore::Error error;
            if (!m_store->hasSession() &&
                !m_store->beginSession(m_options.source, nowMs(), kEveryOtherSession, &error)) {
                m_journal->putBack(std::move(batch));
                fail(error);
                return false;
            }
            bool ok = m_store->write(batch, nowMs(), &error);
            if (!ok && error.failure == JournalStore::Failure::Full) {
                // Retention may make room (the size limit, or a disk that only has the journal's old rows to give).
                qint64 removed = 0;
                JournalStore::Error ignored;
                if (m_store->prune(retainCutoff(), m_options.retainBytes, &removed, &ignored) && removed > 0) {
                    notePruned(removed);
                    ok = m_store->write(batch, nowMs(), &error);
                }
            }
            if (!ok) {
                m_journal->putBack(std::move(batch));
                fail(error);
                return false;
            }
            wrote = true;
            {
                QMutexLocker lock(&m_journal->m_mutex);
                m_journal->m_status.written += batch.size();
                m_journal->m_status.pending =
                    qint64(m_journal->m_pending.size()) - qint64(m_journal->m_pendingSessionEnds);
            }
            keepWithinSize();
        }
        // A writer between sessions (its watch stopped) has nothing to keep alive.
        if (!wrote && m_store->hasSession() && since - m_lastWriteSteadyMs >= kHeartbeatMs) {
            JournalStore::Error error;
            if (!m_store->write({}, nowMs(), &error)) {
                fail(error);
                return false;
            }
            wrote = true;
        }
        if (wrote)
            m_lastWriteSteadyMs = since;
        if (m_failing)
            recover();
        return true;
    }

    qint64 pruneNow()
    {
        if (!ensureOpen())
            return -1;
        qint64 removed = 0;
        JournalStore::Error error;
        if (!m_store->closeAbandoned(nowMs() - kAbandonedAfterMs, &error) ||
            !m_store->prune(retainCutoff(), m_options.retainBytes, &removed, &error)) {
            fail(error);
            return -1;
        }
        notePruned(removed);
        return removed;
    }

    // The size target holds while writing, not only when the retention timer fires: a first pass over 100k held
    // locks writes tens of MiB within a minute. After each batch (a few pragmas), the oldest rows go as soon as
    // the data is beyond the target. A failure here is the timer's to report: the batch itself is written.
    void keepWithinSize()
    {
        if (m_options.retainBytes <= 0 || m_store->dataBytes() <= m_options.retainBytes)
            return;
        qint64 removed = 0;
        JournalStore::Error ignored;
        if (!m_store->prune(retainCutoff(), m_options.retainBytes, &removed, &ignored))
            return;
        notePruned(removed);
        // What is left is the tenures still open (the locks held now), which retention never removes: said once.
        if (m_warnedOverTarget)
            return;
        const qint64 left = m_store->retainedBytes();
        if (left > m_options.retainBytes + m_options.retainBytes / 4) {
            m_warnedOverTarget = true;
            emit m_journal->warning(
                LockJournal::tr("%1 still takes %2 MiB after pruning, beyond its size target of %3 MiB: the locks "
                                "held now take that much, and their tenures are kept until they end")
                    .arg(QDir::toNativeSeparators(m_options.path))
                    .arg(double(left) / (1024 * 1024), 0, 'f', 1)
                    .arg(double(m_options.retainBytes) / (1024 * 1024), 0, 'f', 1));
        }
    }

    // A password was given: the next attempt is now, not at the retry instant.
    void retryNow()
    {
        m_retryAtSteadyMs = 0;
        flushNow(true);
    }

    void shutdown()
    {
        m_flushTimer.stop();
        m_retentionTimer.stop();
        if (m_store && m_store->isOpen())
            m_store->setBusyTimeout(std::min(m_options.busyTimeoutMs, 1000));
        flushNow(true);
        if (m_store && m_store->isOpen()) {
            JournalStore::Error ignored;
            m_store->endSession(nowMs(), &ignored);
        }
        m_store.reset();
    }

private:
    qint64 nowMs() const { return m_options.clock->nowMs(); }                      // wall clock: the instants written
    qint64 steadyMs() const { return m_options.steadyClock->nowNs() / 1'000'000; } // durations
    qint64 retainCutoff() const
    {
        return m_options.retainMs > 0 ? nowMs() - m_options.retainMs : std::numeric_limits<qint64>::min();
    }

    void notePruned(qint64 removed)
    {
        QMutexLocker lock(&m_journal->m_mutex);
        m_journal->m_status.pruned += removed;
    }

    bool ensureOpen()
    {
        if (m_store && m_store->isOpen()) {
            // A password given since (setDatabasePassword) is the one its reconnect uses: the server may have
            // refused the old one after a rotation (fail() asks for it).
            QMutexLocker lock(&m_journal->m_mutex);
            m_store->setPassword(m_journal->m_databasePassword);
            return true;
        }
        if (m_failing && steadyMs() < m_retryAtSteadyMs)
            return false;
        m_store = std::make_unique<JournalStore>(m_options.path, m_options.busyTimeoutMs, m_options.sizeLimitBytes);
        {
            QMutexLocker lock(&m_journal->m_mutex);
            m_store->setPassword(m_journal->m_databasePassword);
        }
        // The -wal file counts against the size target too: an eighth of it (SQLite's 4 MiB at most).
        if (m_options.retainBytes > 0)
            m_store->setWalLimit(std::clamp<qint64>(m_options.retainBytes / 8, 64 * 1024, 4 * 1024 * 1024));
        JournalStore::Error error;
        if (!m_store->open(false, &error) ||
            !m_store->beginSession(m_options.source, nowMs(), kEveryOtherSession, &error)) {
            m_store.reset();
            if (isPasswordRefusal(m_options.path, error.message))
                emit m_journal->passwordNeeded(error.message);
            fail(error);
            return false;
        }
        for (const QString& warning : m_store->warnings()) {
            if (!m_warned.contains(warning)) {
                m_warned.insert(warning);
                emit m_journal->warning(warning);
            }
        }
        QMutexLocker lock(&m_journal->m_mutex);
        m_journal->m_status.open = true;
        return true;
    }

    void fail(const JournalStore::Error& error)
    {
        const bool reopen =
            error.failure == JournalStore::Failure::NotADatabase || error.failure == JournalStore::Failure::Other;
        // The store kept (its session goes on) but its reconnect refused for the password: rotated while we were
        // connected. Asked as on open; the one given reaches the store in ensureOpen().
        if (m_store && !reopen && isPasswordRefusal(m_options.path, error.message))
            emit m_journal->passwordNeeded(error.message);
        if (reopen && m_store)
            m_store.reset(); // the next attempt opens the file again (it may have been replaced)
        m_retryAtSteadyMs = steadyMs() + m_options.retryIntervalMs;
        qint64 pending = 0, dropped = 0, firstDropped = 0, lastDropped = 0;
        {
            QMutexLocker lock(&m_journal->m_mutex);
            if (!m_failing) {
                m_writtenAtFailure = m_journal->m_status.written;
                m_droppedAtFailure = m_journal->m_status.dropped;
            }
            m_journal->m_status.failing = true;
            m_journal->m_status.open = m_store != nullptr;
            m_journal->m_status.error = error.message;
            pending = m_journal->m_status.pending;
            dropped = m_journal->m_status.dropped;
            firstDropped = m_journal->m_firstDroppedMs;
            lastDropped = m_journal->m_lastDroppedMs;
        }
        m_failing = true;
        if (error.message == m_reportedError && dropped == m_reportedDropped)
            return;
        m_reportedError = error.message;
        m_reportedDropped = dropped;
        QString message = LockJournal::tr("Lock history is not being written: %1. Monitoring goes on; %n event(s) "
                                          "wait in memory and are written when the journal can take them again.",
                                          nullptr, int(std::min<qint64>(pending, INT_MAX)))
                              .arg(error.message);
        if (dropped > 0)
            message +=
                QLatin1Char(' ') + LockJournal::tr("%n event(s) were dropped (the oldest, observed from %1 to %2): "
                                                   "the memory holds at most %3.",
                                                   nullptr, int(std::min<qint64>(dropped, INT_MAX)))
                                       .arg(timeText(firstDropped), timeText(lastDropped))
                                       .arg(m_options.maxPendingEvents);
        emit m_journal->problem(message);
    }

    void recover()
    {
        m_failing = false;
        m_reportedError.clear();
        qint64 late = 0, dropped = 0;
        {
            QMutexLocker lock(&m_journal->m_mutex);
            m_journal->m_status.failing = false;
            m_journal->m_status.error.clear();
            late = m_journal->m_status.written - m_writtenAtFailure;
            dropped = m_journal->m_status.dropped - m_droppedAtFailure;
        }
        QString message = LockJournal::tr("Lock history is written again to %1: %n event(s) written late", nullptr,
                                          int(std::min<qint64>(late, INT_MAX)))
                              .arg(QDir::toNativeSeparators(m_options.path));
        message += dropped > 0 ? LockJournal::tr(", %n dropped while it failed.", nullptr,
                                                 int(std::min<qint64>(dropped, INT_MAX)))
                               : LockJournal::tr(", none lost.");
        emit m_journal->recovered(message);
    }

    static QString timeText(qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms).toString(Qt::ISODateWithMs); }

    LockJournal* m_journal;
    JournalOptions m_options;
    std::unique_ptr<JournalStore> m_store;
    QTimer m_flushTimer;
    QTimer m_retentionTimer;
    bool m_failing = false;
    qint64 m_retryAtSteadyMs = 0;                                        // steady clock
    qint64 m_lastWriteSteadyMs = std::numeric_limits<qint64>::min() / 2; // steady clock; never written yet
    QString m_reportedError;
    QSet<QString> m_warned; // each warning once
    bool m_warnedOverTarget = false;
    qint64 m_reportedDropped = 0;
    qint64 m_writtenAtFailure = 0;
    qint64 m_droppedAtFailure = 0;
};

LockJournal::LockJournal(JournalOptions options, QObject* parent) : QObject(parent), m_options(std::move(options))
{
    if (m_options.path.isEmpty())
        m_options.path = defaultPath();
    if (m_options.retainBytes < 0)
        m_options.retainBytes = JournalStore::isDatabaseUrl(m_options.path) ? 0 : kDefaultRetainBytes;
    if (!m_options.clock)
        m_options.clock = WallClock::system();
    if (!m_options.steadyClock)
        m_options.steadyClock = SteadyClock::system();
    // A first pass of 1M locks is 1M "seen held" events: the writer gives way to the inspector and the table.
    m_writerThread = std::make_unique<IoThread>(QStringLiteral("redlock-journal"), IoThread::Priority::Background);
    m_queryThread = std::make_unique<IoThread>(QStringLiteral("redlock-history"));
    m_writer = m_writerThread->create<JournalWriter>(this);
    m_queryContext = m_queryThread->create<QObject>();
}

LockJournal::~LockJournal()
{
    JournalWriter* writer = m_writer;
    m_writerThread->runAndWait([writer] { writer->shutdown(); });
    m_writerThread.reset();
    m_queryThread.reset();
}

QString LockJournal::defaultPath()
{
    // The embedding application's own data folder: the core does not know the console's (the CLI, which reads the
    // console's journal by default, names that folder itself).
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history.sqlite");
}

QString LockJournal::locationProblem(const QString& location)
{
    return JournalStore::locationProblem(location);
}

QString LockJournal::displayLocation(const QString& location)
{
    return JournalStore::displayLocation(location);
}

QString LockJournal::pathForDisplay(const QString& path)
{
    const QString home = QDir::homePath();
    return QDir::toNativeSeparators(path.startsWith(home + u'/') ? u'~' + path.mid(home.size()) : path);
}

void LockJournal::endSession()
{
    JournalEvent end;
    end.kind = sessionEndKind();
    end.atMs = m_options.clock->nowMs();
    QMutexLocker lock(&m_mutex);
    m_pending.push_back(std::move(end));
    ++m_pendingSessionEnds;
}

void LockJournal::start()
{
    QMetaObject::invokeMethod(
        m_writer, [writer = m_writer] { writer->start(); }, Qt::QueuedConnection);
}

void LockJournal::record(const QList<LockEvent>& events)
{
    QList<JournalEvent> out;
    out.reserve(events.size());
    for (const LockEvent& e : events) {
        JournalEvent j;
        j.atMs = e.atMs;
        j.key = e.key;
        j.kind = lockEventKindId(e.kind);
        j.token = e.token;
        j.previousToken = e.previousToken;
        j.holder = e.holderSummary;
        j.lastSeenHeldMs = e.lastSeenHeldMs;
        if (!e.nodes.isEmpty()) {
            QStringList nodes;
            for (const int n : e.nodes)
                nodes << QString::number(n + 1);
            j.detail = QStringLiteral("nodes ") + nodes.join(u", ");
        }
        out.append(std::move(j));
    }
    append(std::move(out));
}

void LockJournal::record(const QList<JournalEvent>& events)
{
    append(events);
}

void LockJournal::recordForceRelease(const QByteArray& key, const QByteArray& token, const QString& detail, qint64 atMs,
                                     bool endedTenure)
{
    JournalEvent e;
    e.atMs = atMs;
    e.key = key;
    e.kind = endedTenure ? QStringLiteral("force-released") : QStringLiteral("force-released-minority");
    e.token = token;
    e.holder = decodeHolder(key, token).summary;
    e.detail = detail;
    append({e});
}

void LockJournal::append(QList<JournalEvent> events)
{
    if (events.isEmpty())
        return;
    QMutexLocker lock(&m_mutex);
    for (JournalEvent& e : events)
        m_pending.push_back(std::move(e));
    dropBeyondCap();
    m_status.pending = qint64(m_pending.size()) - qint64(m_pendingSessionEnds);
}

void LockJournal::dropBeyondCap()
{
    // The cap is for a file that cannot take the events. A writer that works but is behind (a first pass of 1M
    // locks is 1M "seen held" events at once; the writer's thread gives way to the inspector and the table) loses
    // nothing: it may fall kBehindFactor times as far behind before the oldest go, a bound against a producer that
    // outruns it for good.
    constexpr qsizetype kBehindFactor = 16;
    const qsizetype cap = qsizetype(std::max(1, m_options.maxPendingEvents)) * (m_status.failing ? 1 : kBehindFactor);
    while (qsizetype(m_pending.size()) - m_pendingSessionEnds > cap) {
        auto oldest = m_pending.begin();
        while (isSessionEnd(*oldest)) // there is an event beyond: more events than the cap wait
            ++oldest;
        const qint64 at = oldest->atMs;
        m_firstDroppedMs = m_status.dropped == 0 ? at : std::min(m_firstDroppedMs, at);
        m_lastDroppedMs = std::max(m_lastDroppedMs, at);
        m_pending.erase(oldest);
        ++m_status.dropped;
    }
}

QList<JournalEvent> LockJournal::takePending(int max, std::optional<qint64>* sessionEndAtMs)
{
    QMutexLocker lock(&m_mutex);
    QList<JournalEvent> batch;
    if (!m_pending.empty() && isSessionEnd(m_pending.front())) {
        *sessionEndAtMs = m_pending.front().atMs;
        m_pending.pop_front();
        --m_pendingSessionEnds;
        return batch;
    }
    while (batch.size() < max && !m_pending.empty() && !isSessionEnd(m_pending.front())) {
        batch.append(std::move(m_pending.front()));
        m_pending.pop_front();
    }
    // Still pending until written.
    m_status.pending = qint64(m_pending.size()) - qint64(m_pendingSessionEnds) + qint64(batch.size());
    return batch;
}

void LockJournal::putBack(QList<JournalEvent> batch)
{
    QMutexLocker lock(&m_mutex);
    for (auto it = batch.rbegin(); it != batch.rend(); ++it) {
        if (isSessionEnd(*it))
            ++m_pendingSessionEnds;
        m_pending.push_front(std::move(*it));
    }
    dropBeyondCap();
    m_status.pending = qint64(m_pending.size()) - qint64(m_pendingSessionEnds);
}

void LockJournal::setDatabasePassword(const QString& password)
{
    {
        QMutexLocker lock(&m_mutex);
        m_databasePassword = password;
    }
    QMetaObject::invokeMethod(
        m_writer, [writer = m_writer] { writer->retryNow(); }, Qt::QueuedConnection);
}

QFuture<bool> LockJournal::flush()
{
    return runOnOwnThread<bool>(m_writer, [writer = m_writer](const std::function<void(const bool&)>& deliver) {
        deliver(writer->flushNow(true));
    });
}

QFuture<qint64> LockJournal::prune()
{
    return runOnOwnThread<qint64>(m_writer, [writer = m_writer](const std::function<void(const qint64&)>& deliver) {
        deliver(writer->pruneNow());
    });
}

QFuture<HistoryResult> LockJournal::query(const HistoryQuery& query)
{
    QString password;
    {
        QMutexLocker lock(&m_mutex);
        password = m_databasePassword;
    }
    return runOnOwnThread<HistoryResult>(
        m_queryContext, [path = m_options.path, password, query, clock = m_options.clock,
                         busy = m_options.busyTimeoutMs](const std::function<void(const HistoryResult&)>& deliver) {
            if (isDatabaseJournal(path)) {
                bool refused = false;
                deliver(queryDatabaseJournal(path, password, query, clock->nowMs(), &refused, busy));
                return;
            }
            deliver(queryFile(path, query, clock->nowMs(), busy));
        });
}

JournalStatus LockJournal::status() const
{
    QMutexLocker lock(&m_mutex);
    return m_status;
}

HistoryResult LockJournal::queryFile(const QString& path, const HistoryQuery& query, qint64 nowMs, int busyTimeoutMs)
{
    JournalStore store(path, busyTimeoutMs);
    JournalStore::Error error;
    if (!store.open(true, &error)) {
        HistoryResult result;
        result.queriedAtMs = nowMs;
        result.error = error.message;
        return result;
    }
    return store.query(query, nowMs);
}

} // namespace redlock
