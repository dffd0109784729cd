#include "history/JournalStore.h"

#include "history/JournalStoreCommon.h"
#include "history/PostgresJournalStore.h"

#include "observe/KeyPattern.h"
#include "observe/ObservationTypes.h"

#include "runtime/PrivateFile.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QUrl>
#include <QVariant>

#include <cerrno>
#include <cstring>

#include <sqlite3.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redlock {

namespace {

QString uniqueConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("redlock-journal-%1").arg(counter.fetchAndAddRelaxed(1));
}

// One writer per file (the writer lock): every other session is gone, nothing guards against another writer.
const journal::Dialect& sqlite()
{
    static const journal::Dialect dialect{
        QString(),
        QStringLiteral("max"),
        QStringLiteral("BEGIN IMMEDIATE"),
        QString(),
        false,
        QStringLiteral("DELETE FROM sessions WHERE ended_ms IS NOT NULL AND ended_ms < ? AND id NOT IN (SELECT "
                       "DISTINCT session FROM intervals)"),
        QStringLiteral("UPDATE intervals SET to_ms = max(from_ms, coalesce((SELECT coalesce(s.ended_ms, s.last_ms) "
                       "FROM sessions s WHERE s.id = intervals.session), from_ms)), ended = 'unobserved' WHERE to_ms "
                       "IS NULL AND session <> ? AND session IN (SELECT id FROM sessions WHERE ended_ms IS NOT NULL OR "
                       "last_ms < ?)"),
        QString(),
    };
    return dialect;
}

} // namespace

// A statement of write()'s hot path (a row or two per event: 100,000 of them on a first pass), prepared once per
// connection on the Qt driver's own sqlite3 handle and bound directly: Qt SQL spends more per bound value (a QVariant
// and a placeholder name each) than SQLite spends on the row. The values bound are the ones Qt SQL would bind (a
// QByteArray as a blob, a QString as UTF-16 text), so the rows read back the same.
class JournalStore::RawStatement final : public journal::Statement
{
public:
    RawStatement(sqlite3* db, const QString& sql) : m_db(db)
    {
        if (sqlite3_prepare_v3(db, sql.toUtf8().constData(), -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) !=
            SQLITE_OK)
            m_stmt = nullptr;
    }
    ~RawStatement() override { sqlite3_finalize(m_stmt); }
    Q_DISABLE_COPY_MOVE(RawStatement)
    bool isValid() const { return m_stmt != nullptr; }
    // The values are not copied: they must live until exec().
    void bind(int i, qint64 v) override { sqlite3_bind_int64(m_stmt, i, v); }
    void bind(int i, const QByteArray& v) override
    {
        sqlite3_bind_blob64(m_stmt, i, v.constData(), quint64(v.size()), nullptr);
    }
    void bind(int i, const QString& v) override
    {
        sqlite3_bind_text16(m_stmt, i, v.utf16(), int(v.size() * qsizetype(sizeof(char16_t))), nullptr);
    }
    void bindNull(int i, QMetaType::Type) override { sqlite3_bind_null(m_stmt, i); }
    bool exec() override
    {
        const int rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        return rc == SQLITE_DONE || rc == SQLITE_ROW;
    }
    bool writtenId(qint64* id) override
    {
        *id = sqlite3_last_insert_rowid(m_db);
        return true;
    }
    QSqlError lastError() const override
    {
        return QSqlError(QString(), QString::fromUtf8(sqlite3_errmsg(m_db)), QSqlError::StatementError,
                         QString::number(sqlite3_extended_errcode(m_db)));
    }

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

JournalStore::JournalStore(const QString& path, int busyTimeoutMs, qint64 sizeLimitBytes)
    : m_path(path), m_connectionName(uniqueConnectionName()), m_busyTimeoutMs(busyTimeoutMs),
      m_sizeLimitBytes(sizeLimitBytes)
{
    if (isDatabaseUrl(path))
        m_postgres = std::make_unique<PostgresJournalStore>(path, busyTimeoutMs);
}

JournalStore::~JournalStore()
{
    close();
}

void JournalStore::setPassword(const QString& password)
{
    if (m_postgres)
        m_postgres->setPassword(password);
}

bool JournalStore::isDatabaseUrl(const QString& location)
{
    return PostgresJournalStore::isUrl(location);
}

QString JournalStore::locationProblem(const QString& location)
{
    return isDatabaseUrl(location) ? PostgresJournalStore::urlProblem(location) : QString();
}

QString JournalStore::displayLocation(const QString& location)
{
    return isDatabaseUrl(location) ? PostgresJournalStore::displayUrl(location) : QDir::toNativeSeparators(location);
}

bool JournalStore::isOpen() const
{
    return m_postgres ? m_postgres->isOpen() : m_open;
}

bool JournalStore::hasSession() const
{
    return m_postgres ? m_postgres->hasSession() : m_session >= 0;
}

bool JournalStore::prepareRaw(Error* error)
{
    if (m_insertEvent)
        return true;
    const QVariant handle = m_db.driver()->handle();
    sqlite3* db =
        qstrcmp(handle.typeName(), "sqlite3*") == 0 ? *static_cast<sqlite3* const*>(handle.constData()) : nullptr;
    if (!db) {
        if (error)
            *error = {Failure::Other,
                      tr("%1: the Qt SQLite driver gives no SQLite handle").arg(QDir::toNativeSeparators(m_path))};
        return false;
    }
    const journal::HotStatementsSql sql = journal::hotStatementsSql(sqlite());
    auto insertEvent = std::make_unique<RawStatement>(db, sql.insertEvent);
    auto openInterval = std::make_unique<RawStatement>(db, sql.openInterval);
    auto closeOpen = std::make_unique<RawStatement>(db, sql.closeOpen);
    for (RawStatement* statement : {insertEvent.get(), openInterval.get(), closeOpen.get()}) {
        if (!statement->isValid()) {
            if (error)
                *error = errorFrom(statement->lastError(), tr("cannot write"));
            return false;
        }
    }
    m_insertEvent = std::move(insertEvent);
    m_openInterval = std::move(openInterval);
    m_closeOpen = std::move(closeOpen);
    return true;
}

void JournalStore::close()
{
    if (m_postgres) {
        m_postgres->close();
        return;
    }
    // Before the connection: a statement left unfinalized keeps SQLite's handle alive.
    m_insertEvent.reset();
    m_openInterval.reset();
    m_closeOpen.reset();
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
    m_open = false;
    m_session = -1;
    m_sessionStateLoaded = false;
    m_openIntervals.clear();
    m_heldBefore.clear();
    // After the connection: the next writer may open the file once this one no longer writes to it. The lock
    // file stays (removing it would let a writer that waits on the old one and a newcomer both hold "the" lock).
    if (m_writerLockFd >= 0) {
        ::close(m_writerLockFd);
        m_writerLockFd = -1;
    }
}

bool JournalStore::lockWriter(Error* error)
{
    const QString lockPath = m_path + QStringLiteral("-writer.lock");
    const QByteArray name = QFile::encodeName(lockPath);
    // Not a secret (who writes), and readable by a second writer of another account, so that it can name the first.
    int fd = ::open(name.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EACCES)
        fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC); // flock needs no write access
    if (fd < 0) {
        const int saved = errno;
        if (error)
            *error = {Failure::Other, tr("%1: cannot create the writer lock %2: %3")
                                          .arg(QDir::toNativeSeparators(m_path), QDir::toNativeSeparators(lockPath),
                                               QString::fromLocal8Bit(std::strerror(saved)))};
        return false;
    }
    // flock, not fcntl: it is per open file, so two writers in one process exclude each other too, and it never
    // meets SQLite's own fcntl locks on the journal (another file besides).
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int saved = errno;
        QByteArray who(512, '\0');
        const ssize_t n = saved == EWOULDBLOCK ? ::pread(fd, who.data(), who.size(), 0) : -1;
        ::close(fd);
        if (saved != EWOULDBLOCK) {
            if (error)
                *error = {Failure::Other, tr("%1: cannot lock %2: %3")
                                              .arg(QDir::toNativeSeparators(m_path), QDir::toNativeSeparators(lockPath),
                                                   QString::fromLocal8Bit(std::strerror(saved)))};
            return false;
        }
        const QStringList fields = QString::fromUtf8(who.left(std::max<ssize_t>(0, n))).split(u'\n');
        bool pidOk = false;
        const qint64 pid = fields.value(0).toLongLong(&pidOk);
        const QString other = pidOk ? tr("process %1 (%2 on %3)")
                                          .arg(pid)
                                          .arg(printableText(fields.value(1)), printableText(fields.value(2)))
                                    : tr("another process");
        if (error)
            *error = {Failure::Busy, tr("%1: %2 writes this journal: one writer per journal, or the two would end each "
                                        "other's tenures; this one writes once that one stops")
                                         .arg(QDir::toNativeSeparators(m_path), other)};
        return false;
    }
    const QByteArray me = QByteArray::number(QCoreApplication::applicationPid()) + '\n' +
                          QCoreApplication::applicationName().toUtf8() + '\n' + QSysInfo::machineHostName().toUtf8() +
                          '\n';
    const bool described = ::ftruncate(fd, 0) == 0 && ::pwrite(fd, me.constData(), size_t(me.size()), 0) == me.size();
    Q_UNUSED(described) // if not, only a second writer's message lacks this one's pid
    m_writerLockFd = fd;
    return true;
}

bool JournalStore::openReadOnly(bool immutable, Error* error)
{
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    if (!m_db.isValid()) {
        if (error)
            *error = {Failure::Other, tr("the Qt SQLite driver is missing (Debian: libqt6sql6-sqlite)")};
        close();
        return false;
    }
    QString options = QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1").arg(m_busyTimeoutMs);
    if (immutable) {
        m_db.setDatabaseName(QUrl::fromLocalFile(QFileInfo(m_path).absoluteFilePath()).toString(QUrl::FullyEncoded) +
                             QStringLiteral("?immutable=1"));
        options += QStringLiteral(";QSQLITE_OPEN_URI");
    } else {
        m_db.setDatabaseName(m_path);
    }
    m_db.setConnectOptions(options);
    // The statements in a scope of their own: a connection is closed (or opened again) only once no query uses it.
    QSqlError failed;
    QString doing = tr("cannot read");
    bool isJournal = true;
    if (!m_db.open()) {
        failed = m_db.lastError();
        doing = tr("cannot open");
    } else {
        QSqlQuery q(m_db);
        if (!q.exec(QStringLiteral("PRAGMA busy_timeout = %1").arg(m_busyTimeoutMs)) ||
            !q.exec(QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'intervals'")) || !q.next())
            failed = q.lastError();
        else if (q.value(0).toInt() == 0)
            isJournal = false;
        // A journal written before "at least since" intervals existed has no such column: none of its are.
        else if (!q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('intervals') WHERE name = "
                                        "'at_least_since'")) ||
                 !q.next())
            failed = q.lastError();
        else
            m_hasAtLeastSince = q.value(0).toInt() > 0;
        // The same for ends nobody saw: all of its ends read as seen.
        if (!failed.isValid() && isJournal) {
            if (!q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('intervals') WHERE name = "
                                       "'gone_by_ms'")) ||
                !q.next())
                failed = q.lastError();
            else
                m_hasUnobservedEnds = q.value(0).toInt() > 0;
        }
        // And for writers' hosts: not known.
        if (!failed.isValid() && isJournal) {
            if (!q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'host'")) ||
                !q.next())
                failed = q.lastError();
            else
                m_hasSessionHost = q.value(0).toInt() > 0;
        }
    }
    if (failed.isValid()) {
        // A WAL journal whose writer is gone has no -wal or -shm file, and a reader that may not create them in
        // the folder (another account's journal) is refused by SQLite. Without a -wal file every row is in the
        // journal itself: read it as it is, with no side file and no lock (immutable).
        bool ok = false;
        const int code = failed.nativeErrorCode().toInt(&ok) & 0xFF;
        const bool retry = !immutable && ok && (code == 8 /* SQLITE_READONLY */ || code == 14 /* SQLITE_CANTOPEN */) &&
                           !QFileInfo::exists(m_path + QStringLiteral("-wal"));
        if (!retry && error)
            *error = errorFrom(failed, doing);
        close();
        return retry && openReadOnly(true, error);
    }
    if (!isJournal) {
        if (error)
            *error = {Failure::NotADatabase,
                      tr("%1: not a lock history journal").arg(QDir::toNativeSeparators(m_path))};
        close();
        return false;
    }
    m_open = true;
    return true;
}

void JournalStore::setBusyTimeout(int ms)
{
    if (m_postgres)
        return m_postgres->setBusyTimeout(ms);
    m_busyTimeoutMs = ms;
    if (m_open)
        QSqlQuery(m_db).exec(QStringLiteral("PRAGMA busy_timeout = %1").arg(ms));
}

JournalStore::Error JournalStore::errorFrom(const QSqlError& sqlError, const QString& doing) const
{
    Error e;
    bool ok = false;
    const int code = sqlError.nativeErrorCode().toInt(&ok) & 0xFF; // the primary result code
    const QString text = sqlError.text().trimmed();
    switch (ok ? code : -1) {
    case 26: // SQLITE_NOTADB
    case 11: // SQLITE_CORRUPT
        e.failure = Failure::NotADatabase;
        e.message =
            tr("the file is not a SQLite database or is damaged (%1): move it away or choose another file").arg(text);
        break;
    case 5: // SQLITE_BUSY
    case 6: // SQLITE_LOCKED
        e.failure = Failure::Busy;
        e.message = tr("the file is locked by another process (waited %1 ms: %2)").arg(m_busyTimeoutMs).arg(text);
        break;
    case 13: // SQLITE_FULL
        e.failure = Failure::Full;
        e.message = tr("the disk is full or the journal reached its size limit (%1)").arg(text);
        break;
    default:
        e.failure = Failure::Other;
        e.message = text.isEmpty() ? tr("unknown error") : text;
        break;
    }
    e.message = tr("%1: %2: %3").arg(QDir::toNativeSeparators(m_path), doing, e.message);
    return e;
}

bool JournalStore::exec(const QString& sql, Error* error)
{
    QSqlQuery q(m_db);
    if (q.exec(sql))
        return true;
    if (error)
        *error = errorFrom(q.lastError(), tr("cannot write"));
    return false;
}

qint64 JournalStore::pragmaValue(const QString& name)
{
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA ") + name) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

bool JournalStore::open(bool readOnly, Error* error)
{
    if (m_postgres)
        return m_postgres->open(readOnly, error);
    close();
    m_warnings.clear();
    const QString nativePath = QDir::toNativeSeparators(m_path);
    const auto refuse = [&](Failure failure, const QString& message) {
        if (error)
            *error = {failure, message};
        close();
        return false;
    };
    struct stat info = {};
    const bool exists = ::stat(QFile::encodeName(m_path).constData(), &info) == 0;
    if (readOnly && !exists)
        return refuse(Failure::Other,
                      tr("%1: no such journal (the console and `redlock watch --journal` write it)").arg(nativePath));
    if (exists && !S_ISREG(info.st_mode))
        return refuse(Failure::Other, tr("%1: not a regular file (%2): the journal must be a file")
                                          .arg(nativePath, S_ISDIR(info.st_mode)    ? tr("a folder")
                                                           : S_ISFIFO(info.st_mode) ? tr("a FIFO")
                                                                                    : tr("a device or socket")));
    if (readOnly)
        return openReadOnly(false, error);

    QString problem;
    if (!PrivateFile::makeFolder(QFileInfo(m_path).absolutePath(), &problem))
        return refuse(Failure::Other, tr("%1: %2").arg(nativePath, problem));
    if (!lockWriter(error)) {
        close();
        return false;
    }
    if (!PrivateFile::createIfMissing(m_path, nullptr, &problem))
        return refuse(Failure::Other, problem);
    m_warnings = PrivateFile::restrictToOwner(m_path, {m_path + QStringLiteral("-wal"), m_path + QStringLiteral("-shm"),
                                                       m_path + QStringLiteral("-journal")});
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    if (!m_db.isValid())
        return refuse(Failure::Other, tr("the Qt SQLite driver is missing (Debian: libqt6sql6-sqlite)"));
    m_db.setDatabaseName(m_path);
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(m_busyTimeoutMs));
    if (!m_db.open()) {
        if (error)
            *error = errorFrom(m_db.lastError(), tr("cannot open"));
        close();
        return false;
    }
    // SQLite opens lazily: garbage is found by the first statement that reads the header.
    auto fail = [&](QSqlQuery& q, const QString& doing) {
        if (error)
            *error = errorFrom(q.lastError(), doing);
        close();
        return false;
    };
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA busy_timeout = %1").arg(m_busyTimeoutMs)))
        return fail(q, tr("cannot open"));
    // Before the first table: lets retention give freed pages back to the file system (incremental_vacuum).
    if (!q.exec(QStringLiteral("PRAGMA auto_vacuum = INCREMENTAL")))
        return fail(q, tr("cannot open"));
    if (!q.exec(QStringLiteral("PRAGMA journal_mode = WAL")) || !q.next())
        return fail(q, tr("cannot open"));
    if (q.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0) {
        if (error)
            *error = {Failure::Other, tr("%1: cannot switch to WAL mode (the journal mode stays %2)")
                                          .arg(QDir::toNativeSeparators(m_path), q.value(0).toString())};
        close();
        return false;
    }
    // WAL with NORMAL: a committed batch survives a crash of the process; a power loss may take the last ones.
    if (!q.exec(QStringLiteral("PRAGMA synchronous = NORMAL")))
        return fail(q, tr("cannot open"));
    // A first pass inserts 100,000 keys in no order into the key indexes: with SQLite's 2 MiB page cache most of
    // those inserts read their page back from the file. 16 MiB keeps the indexes' hot pages (the writer only).
    if (!q.exec(QStringLiteral("PRAGMA cache_size = -16384")))
        return fail(q, tr("cannot open"));
    if (m_walLimitBytes > 0) {
        const qint64 pageSize = std::max<qint64>(512, pragmaValue(QStringLiteral("page_size")));
        if (!q.exec(QStringLiteral("PRAGMA journal_size_limit = %1").arg(m_walLimitBytes)) ||
            !q.exec(
                QStringLiteral("PRAGMA wal_autocheckpoint = %1").arg(std::max<qint64>(16, m_walLimitBytes / pageSize))))
            return fail(q, tr("cannot open"));
    }
    if (m_sizeLimitBytes > 0) {
        const qint64 pageSize = std::max<qint64>(512, pragmaValue(QStringLiteral("page_size")));
        if (!q.exec(QStringLiteral("PRAGMA max_page_count = %1").arg(std::max<qint64>(1, m_sizeLimitBytes / pageSize))))
            return fail(q, tr("cannot open"));
    }
    const QStringList schema = {
        QStringLiteral("CREATE TABLE IF NOT EXISTS sessions(id INTEGER PRIMARY KEY, source TEXT, pid INTEGER, "
                       "started_ms INTEGER NOT NULL, last_ms INTEGER NOT NULL, ended_ms INTEGER, host TEXT)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS events(id INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, "
                       "key BLOB NOT NULL, kind TEXT NOT NULL, token BLOB, previous_token BLOB, holder TEXT, "
                       "detail TEXT, session INTEGER, last_seen_held_ms INTEGER)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS events_key_at ON events(key, at_ms)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS events_at ON events(at_ms)"),
        // at_least_since = 1: the holder already held the key when first seen (from_ms is not its acquisition).
        QStringLiteral("CREATE TABLE IF NOT EXISTS intervals(id INTEGER PRIMARY KEY, key BLOB NOT NULL, "
                       "token BLOB NOT NULL, holder TEXT, from_ms INTEGER NOT NULL, to_ms INTEGER, ended TEXT, "
                       "extensions INTEGER NOT NULL DEFAULT 0, session INTEGER NOT NULL, "
                       "at_least_since INTEGER NOT NULL DEFAULT 0, gone_by_ms INTEGER)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS intervals_key_from ON intervals(key, from_ms)"),
        // Retention's (to_ms < ?) and a session's open intervals (to_ms IS NULL) at its end. A writer finds its own
        // open intervals in memory (m_openIntervals): the index on (session, key) it once used only cost every
        // interval one more index update.
        QStringLiteral("CREATE INDEX IF NOT EXISTS intervals_to ON intervals(to_ms)"),
        QStringLiteral("DROP INDEX IF EXISTS intervals_open"),
    };
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return fail(q, tr("cannot open"));
    const auto rollBack = [&](QSqlQuery& failed) {
        Error e = errorFrom(failed.lastError(), tr("cannot create the tables"));
        QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
        if (error)
            *error = e;
        close();
        return false;
    };
    for (const QString& sql : schema) {
        if (!q.exec(sql))
            return rollBack(q);
    }
    // A journal from before "at least since" intervals: the column is added (its intervals were all acquisitions
    // seen, or said nothing about the start).
    if (!q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('intervals') WHERE name = 'at_least_since'")) ||
        !q.next())
        return rollBack(q);
    if (q.value(0).toInt() == 0 &&
        !q.exec(QStringLiteral("ALTER TABLE intervals ADD COLUMN at_least_since INTEGER NOT NULL DEFAULT 0")))
        return rollBack(q);
    m_hasAtLeastSince = true;
    // A journal from before ends nobody saw: the columns are added (NULL: every end it holds was seen as such).
    if (!q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('intervals') WHERE name = 'gone_by_ms'")) ||
        !q.next())
        return rollBack(q);
    if (q.value(0).toInt() == 0 && (!q.exec(QStringLiteral("ALTER TABLE intervals ADD COLUMN gone_by_ms INTEGER")) ||
                                    !q.exec(QStringLiteral("ALTER TABLE events ADD COLUMN last_seen_held_ms INTEGER"))))
        return rollBack(q);
    m_hasUnobservedEnds = true;
    // A journal from before writers' hosts were recorded: the column is added (NULL: the host is not known).
    if (!q.exec(QStringLiteral("SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'host'")) || !q.next())
        return rollBack(q);
    if (q.value(0).toInt() == 0 && !q.exec(QStringLiteral("ALTER TABLE sessions ADD COLUMN host TEXT")))
        return rollBack(q);
    m_hasSessionHost = true;
    if (!q.exec(QStringLiteral("COMMIT")))
        return fail(q, tr("cannot create the tables"));
    m_open = true;
    return true;
}

bool JournalStore::beginSession(const QString& source, qint64 nowMs, qint64 staleBeforeMs, Error* error)
{
    if (m_postgres)
        return m_postgres->beginSession(source, nowMs, staleBeforeMs, error);
    if (!closeAbandoned(staleBeforeMs, error))
        return false;
    QSqlError failed;
    if (!journal::insertSession(m_db, sqlite(), source, nowMs, &m_session, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot write"));
        return false;
    }
    m_sessionStateLoaded = false;
    return true;
}

bool JournalStore::loadSessionState(Error* error)
{
    m_heldBefore.clear();
    QSqlError failed;
    if (!journal::loadOpenIntervals(m_db, sqlite(), m_session, &m_openIntervals, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot read"));
        return false;
    }
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT DISTINCT key FROM intervals WHERE session <> ? AND (to_ms IS NULL OR ended = "
                             "'unobserved')"));
    q.addBindValue(m_session);
    if (!q.exec()) {
        if (error)
            *error = errorFrom(q.lastError(), tr("cannot read"));
        return false;
    }
    while (q.next())
        m_heldBefore.insert(q.value(0).toByteArray());
    m_sessionStateLoaded = true;
    return true;
}

bool JournalStore::closeAbandoned(qint64 staleBeforeMs, Error* error)
{
    if (m_postgres)
        return m_postgres->closeAbandoned(staleBeforeMs, error);
    QSqlError failed;
    if (!journal::closeAbandoned(m_db, sqlite(), m_session, staleBeforeMs, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot write"));
        return false;
    }
    return true;
}

bool JournalStore::endSession(qint64 nowMs, Error* error)
{
    if (m_postgres)
        return m_postgres->endSession(nowMs, error);
    if (m_session < 0)
        return true;
    QSqlError failed;
    if (!journal::endSession(m_db, sqlite(), m_session, nowMs, &failed)) {
        if (error)
            *error = errorFrom(failed, tr("cannot write"));
        return false;
    }
    m_session = -1;
    m_sessionStateLoaded = false;
    m_openIntervals.clear();
    m_heldBefore.clear();
    return true;
}

bool JournalStore::write(const QList<JournalEvent>& events, qint64 nowMs, Error* error)
{
    if (m_postgres)
        return m_postgres->write(events, nowMs, error);
    if ((!m_sessionStateLoaded && !loadSessionState(error)) || !prepareRaw(error))
        return false;
    // The key's latest interval of another session (a session before this one), and until when that session
    // watched: what a new session's first sight of the key continues or ends.
    // Prepared at its first use, inside the write's transaction (most writes take nothing over).
    QSqlQuery findLast(m_db);
    journal::EventWriting writing;
    writing.db = m_db;
    writing.dialect = &sqlite();
    writing.session = m_session;
    writing.open = &m_openIntervals;
    writing.insertEvent = m_insertEvent.get();
    writing.openInterval = m_openInterval.get();
    writing.closeOpen = m_closeOpen.get();
    writing.findEarlier = [&](const JournalEvent& e, std::optional<journal::EarlierInterval>* found,
                              QSqlError* failed) {
        // Only a key an earlier session left held (open, or "unobserved") has such an interval, and only its first
        // sight here takes it over: after it, the key's intervals are this session's.
        if (!m_heldBefore.remove(e.key))
            return true;
        if (findLast.lastQuery().isEmpty())
            findLast.prepare(QStringLiteral("SELECT i.id, i.token, i.to_ms, (SELECT coalesce(s.ended_ms, s.last_ms) "
                                            "FROM sessions s WHERE s.id = i.session), i.ended FROM intervals i WHERE "
                                            "i.key = ? AND i.session <> ? ORDER BY i.from_ms DESC, i.id DESC LIMIT 1"));
        findLast.addBindValue(e.key);
        findLast.addBindValue(m_session);
        if (!findLast.exec()) {
            *failed = findLast.lastError();
            return false;
        }
        if (!findLast.next()) {
            findLast.finish();
            return true;
        }
        const journal::EarlierInterval earlier = journal::earlierFromRow(findLast);
        const bool unobserved = findLast.value(4).toString() == u"unobserved";
        findLast.finish();
        if (earlier.open || unobserved) // else it ended as observed
            *found = earlier;
        return true;
    };
    writing.failed = [&](const QSqlError& failure, bool inTransaction) {
        if (error)
            *error = errorFrom(failure, tr("cannot write"));
        if (inTransaction)
            m_sessionStateLoaded = false; // what it holds now may be rolled back: read again from the file
    };
    return journal::writeEvents(events, nowMs, writing);
}

qint64 JournalStore::dataBytes()
{
    if (m_postgres)
        return m_postgres->dataBytes();
    const qint64 pages = pragmaValue(QStringLiteral("page_count"));
    const qint64 freePages = pragmaValue(QStringLiteral("freelist_count"));
    const qint64 pageSize = pragmaValue(QStringLiteral("page_size"));
    if (pages < 0 || freePages < 0 || pageSize <= 0)
        return -1;
    return (pages - freePages) * pageSize;
}

qint64 JournalStore::retainedBytes()
{
    return m_postgres ? m_postgres->rowBytes() : dataBytes();
}

bool JournalStore::prune(qint64 olderThanMs, qint64 maxBytes, qint64* removed, Error* error)
{
    if (m_postgres)
        return m_postgres->prune(olderThanMs, maxBytes, removed, error);
    journal::Retention retention;
    retention.db = m_db;
    retention.dialect = &sqlite();
    // By size: freed pages are counted out of what the data takes (freelist_count), nothing to compact first.
    retention.retainedBytes = [this] { return dataBytes(); };
    // Gives the freed pages back to the file system. Each step of the pragma frees one page and yields an empty
    // row, and Qt SQL steps a statement without columns once per exec(): one exec() per page, in one transaction.
    retention.compact = [this](qint64, bool) {
        const qint64 freePages = pragmaValue(QStringLiteral("freelist_count"));
        if (freePages > 0 && QSqlQuery(m_db).exec(QStringLiteral("BEGIN IMMEDIATE"))) {
            QSqlQuery vacuum(m_db);
            vacuum.prepare(QStringLiteral("PRAGMA incremental_vacuum"));
            for (qint64 i = 0; i < freePages && vacuum.exec(); ++i) {
            }
            vacuum.finish();
            QSqlQuery(m_db).exec(QStringLiteral("COMMIT"));
        }
        QSqlQuery(m_db).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    };
    retention.failed = [&](const QSqlError& failure) {
        if (error)
            *error = errorFrom(failure, tr("cannot prune"));
    };
    return journal::prune(olderThanMs, maxBytes, removed, retention);
}

QList<UnwatchedSpan> JournalStore::unwatchedSpans(qint64 sinceMs, qint64 untilMs, qint64 nowMs)
{
    if (m_postgres)
        return m_postgres->unwatchedSpans(sinceMs, untilMs, nowMs);
    return journal::unwatchedSpans(m_db, sqlite(), sinceMs, untilMs, nowMs);
}

HistoryResult JournalStore::query(const HistoryQuery& query, qint64 nowMs)
{
    if (m_postgres)
        return m_postgres->query(query, nowMs);
    // The writer of each row: its session's source, pid and host (a few sessions, looked up by primary key).
    const QString writerColumns =
        QStringLiteral(", (SELECT source FROM sessions s WHERE s.id = session), (SELECT pid FROM sessions s WHERE "
                       "s.id = session), ") +
        (m_hasSessionHost ? QStringLiteral("(SELECT host FROM sessions s WHERE s.id = session)")
                          : QStringLiteral("NULL"));
    journal::HistoryReading reading;
    reading.db = m_db;
    reading.dialect = &sqlite();
    reading.intervalsSql =
        QStringLiteral("SELECT key, token, holder, from_ms, to_ms, ended, extensions, ") +
        (m_hasAtLeastSince ? QStringLiteral("at_least_since") : QStringLiteral("0")) +
        (m_hasUnobservedEnds ? QStringLiteral(", gone_by_ms") : QStringLiteral(", NULL")) + writerColumns +
        QStringLiteral(" FROM intervals WHERE from_ms <= :until AND (to_ms IS NULL OR to_ms >= :since)%1 ORDER BY key, "
                       "from_ms, id");
    reading.intervalKey = QStringLiteral("key");
    reading.eventsSql = QStringLiteral("SELECT at_ms, key, kind, token, previous_token, holder, detail, ") +
                        (m_hasUnobservedEnds ? QStringLiteral("last_seen_held_ms") : QStringLiteral("NULL")) +
                        writerColumns +
                        QStringLiteral(" FROM events WHERE at_ms >= :since AND at_ms <= :until%1 ORDER BY at_ms, id");
    reading.eventKey = QStringLiteral("key");
    reading.failed = [this](const QSqlError& failure) { return errorFrom(failure, tr("cannot read")).message; };
    return journal::readHistory(query, nowMs, reading);
}

} // namespace redlock
