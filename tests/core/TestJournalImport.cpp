// A team's embedded history (a SQLite journal) moved into its shared history in PostgreSQL (core/history/
// JournalImport, `redlock history --import FILE --journal URL`), against a real server the test starts itself: the
// journal is written by the real journal code, imported, and read back through the PostgreSQL store: the same
// tenures, events, writers and spans nobody watched, at the same instants. Importing again adds nothing; a file that
// is no journal, or a journal of a newer schema, writes nothing. And the store takes a password the caller gives
// (the console's keyring) when libpq's own sources have none.
#include "history/JournalImport.h"
#include "history/JournalStore.h"
#include "history/LockJournal.h"
#include "history/PostgresJournalPassword.h"
#include "history/PostgresJournalStore.h"
#include "support/CliTestSupport.h"
#include "support/JournalTestSupport.h"
#include "support/PostgresTestSupport.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

using namespace redlock;

namespace {

// An interval, event and span as text, writer included: what must be the same on both sides.
QStringList describe(const HistoryResult& r)
{
    QStringList out;
    for (const HolderInterval& i : r.intervals)
        out << QStringLiteral("interval %1 %2 %3 %4..%5 %6 gone=%7 ext=%8 atLeast=%9 writer=%10/%11")
                   .arg(QString::fromLatin1(i.key.toHex()), QString::fromLatin1(i.token.toHex()), i.holder)
                   .arg(i.fromMs)
                   .arg(i.toMs)
                   .arg(i.endedBy)
                   .arg(i.goneByMs)
                   .arg(i.extensions)
                   .arg(i.atLeastSince)
                   .arg(i.writer.source)
                   .arg(i.writer.pid);
    for (const JournalEvent& e : r.events)
        out << QStringLiteral("event %1 %2 %3 %4 prev=%5 %6 [%7] seen=%8 writer=%9/%10")
                   .arg(e.atMs)
                   .arg(QString::fromLatin1(e.key.toHex()), e.kind, QString::fromLatin1(e.token.toHex()),
                        QString::fromLatin1(e.previousToken.toHex()), e.holder, e.detail)
                   .arg(e.lastSeenHeldMs)
                   .arg(e.writer.source)
                   .arg(e.writer.pid);
    for (const UnwatchedSpan& s : r.unwatched)
        out << QStringLiteral("unwatched %1..%2 after %3").arg(s.fromMs).arg(s.toMs).arg(s.before);
    return out;
}

} // namespace

class TestJournalImport : public QObject
{
    Q_OBJECT

    test::LocalPostgres m_server;
    QTemporaryDir m_dir;

    HistoryResult read(const QString& location) const
    {
        HistoryQuery q;
        q.sinceMs = 0;
        q.untilMs = 10'000'000;
        return LockJournal::queryFile(location, q, 10'000'000);
    }

    // Rows in a table of the history (or the history's tables, from pg_tables), on a connection of the test's own.
    qint64 count(const QString& from)
    {
        qint64 n = -1;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("count"));
            db.setHostName(QStringLiteral("127.0.0.1"));
            db.setPort(m_server.port());
            db.setDatabaseName(QStringLiteral("postgres"));
            db.setUserName(test::LocalPostgres::user());
            QSqlQuery q(db);
            if (db.open() && q.exec(QStringLiteral("SELECT count(*) FROM ") + from) && q.next())
                n = q.value(0).toLongLong();
            else
                qWarning() << from << q.lastError().text() << db.lastError().text();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("count"));
        return n;
    }

    // A journal written by the real journal code: two writers' sessions with a span nobody watched between, a tenure
    // that goes on across it, one that ended unwatched, an extension, a force release, binary keys and tokens.
    QString writeJournal(const QString& name)
    {
        const QString path = m_dir.filePath(name);
        JournalStore store(path, 2000);
        JournalStore::Error error;
        if (!store.open(false, &error)) {
            qWarning() << error.message;
            return {};
        }
        const QByteArray binaryKey("orders:\x01\xff", 9), binaryToken("t\x00k", 3);
        bool ok = store.beginSession(QStringLiteral("watch"), 1000, 1000, &error);
        JournalEvent lost = journalEvent(1400, "orders:12", "lost-on-restart", "tokA");
        lost.detail = QStringLiteral("node 2 restarted");
        JournalEvent changed = journalEvent(1500, "orders:13", "token-changed", "tokC");
        changed.previousToken = "tokB";
        ok = ok &&
             store.write({journalEvent(1100, "orders:12", "acquired", "tokA"),
                          journalEvent(1150, "orders:13", "seen-held", "tokB"),
                          journalEvent(1200, "orders:12", "extended", "tokA"), lost, changed,
                          journalEvent(1600, binaryKey, "acquired", binaryToken),
                          journalEvent(1700, "orders:14", "acquired", "tokD")},
                         1700, &error) &&
             store.endSession(2000, &error);
        // Nobody watched from 2000 to 3000; then the exporter: tokC goes on, tokD is gone.
        JournalEvent forced = journalEvent(3300, "orders:13", "force-released", "tokC");
        forced.detail = QStringLiteral("alice: stuck");
        // An end nobody saw (keyspace events off): after 3100, by 3200.
        JournalEvent gone = journalEvent(3200, "orders:14", "released-or-expired", "tokE");
        gone.lastSeenHeldMs = 3100;
        ok = ok && store.beginSession(QStringLiteral("exporter"), 3000, 3000, &error) &&
             store.write({journalEvent(3000, "orders:13", "seen-held", "tokC"),
                          journalEvent(3001, "orders:14", "acquired", "tokE"), gone, forced},
                         3300, &error) &&
             store.endSession(4000, &error);
        if (!ok) {
            qWarning() << error.message;
            return {};
        }
        return path;
    }

    // A real journal, then a row PostgreSQL refuses (no key: a file edited by hand, or damaged) after one it takes:
    // an import of it fails part-way, after it wrote sessions and events.
    QString writeBadJournal(const QString& name)
    {
        const QString path = writeJournal(name);
        if (path.isEmpty())
            return {};
        bool ok = false;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(path);
            QSqlQuery q(db);
            // The journal's own table says NOT NULL: one without the constraint, with the same rows.
            ok = db.open() && q.exec(QStringLiteral("ALTER TABLE events RENAME TO events_before")) &&
                 q.exec(QStringLiteral("CREATE TABLE events AS SELECT * FROM events_before")) &&
                 q.exec(QStringLiteral("DROP TABLE events_before")) &&
                 q.exec(QStringLiteral("INSERT INTO events(id, at_ms, key, kind, session) VALUES(999998, 4500, "
                                       "x'6e6577', 'acquired', 1)")) &&
                 q.exec(QStringLiteral("INSERT INTO events(id, at_ms, key, kind, session) VALUES(999999, 4600, NULL, "
                                       "'acquired', 1)"));
            if (!ok)
                qWarning() << q.lastError().text() << db.lastError().text();
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
        return ok ? path : QString();
    }

private slots:
    void initTestCase()
    {
        qputenv("PGPASSWORD", test::LocalPostgres::password().toUtf8());
        qputenv("PGPASSFILE", m_dir.filePath(QStringLiteral("no-pgpass")).toUtf8());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void cleanup() { qputenv("PGPASSWORD", test::LocalPostgres::password().toUtf8()); }

    // Not a journal, a journal of a newer schema, no such file: a clear error, and nothing in the database (not even
    // the tables).
    void refusesWhatIsNoJournalAndWritesNothing()
    {
        const QString garbage = m_dir.filePath(QStringLiteral("garbage.sqlite"));
        {
            QFile f(garbage);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(8192, 'x'));
        }
        JournalImportResult r = JournalImport::importSqlite(garbage, m_server.url());
        QVERIFY2(r.error.contains(QLatin1String("not a lock history journal")), qPrintable(r.error));

        // A SQLite database, but someone else's.
        const QString other = m_dir.filePath(QStringLiteral("other.sqlite"));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            db.setDatabaseName(other);
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(QStringLiteral("CREATE TABLE events(id INTEGER PRIMARY KEY, what TEXT)")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        r = JournalImport::importSqlite(other, m_server.url());
        QVERIFY2(r.error.contains(QLatin1String("not a lock history journal")), qPrintable(r.error));

        // A real journal that says it was written by a newer build.
        const QString newer = writeJournal(QStringLiteral("newer.sqlite"));
        QVERIFY(!newer.isEmpty());
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("newer"));
            db.setDatabaseName(newer);
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(QStringLiteral("PRAGMA user_version = 7")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("newer"));
        r = JournalImport::importSqlite(newer, m_server.url());
        QVERIFY2(r.error.contains(QLatin1String("schema version 7")), qPrintable(r.error));

        r = JournalImport::importSqlite(m_dir.filePath(QStringLiteral("missing.sqlite")), m_server.url());
        QVERIFY2(r.error.contains(QLatin1String("no such file")), qPrintable(r.error));
        // Into a file instead of a database: refused too.
        r = JournalImport::importSqlite(newer, m_dir.filePath(QStringLiteral("x.sqlite")));
        QVERIFY2(r.error.contains(QLatin1String("postgresql://")), qPrintable(r.error));

        QCOMPARE(count(QStringLiteral("pg_tables WHERE tablename LIKE 'redlock%'")), 0);
    }

    // An import copies the whole journal: a query option would be ignored, so it is refused (a usage error), and
    // nothing is read or written.
    void cliRefusesQueryOptions()
    {
        const QString path = writeJournal(QStringLiteral("options.sqlite"));
        QVERIFY(!path.isEmpty());
        const QList<QStringList> queries = {{QStringLiteral("--since"), QStringLiteral("-1h")},
                                            {QStringLiteral("--until"), QStringLiteral("-1h")},
                                            {QStringLiteral("--holder"), QStringLiteral("alice")},
                                            {QStringLiteral("--limit"), QStringLiteral("5")},
                                            {QStringLiteral("--events")}};
        for (const QStringList& query : queries) {
            const CliRun run = runCli(QStringList{QStringLiteral("history"), QStringLiteral("--import"), path,
                                                  QStringLiteral("--journal"), m_server.url()} +
                                      query);
            QCOMPARE(run.exitCode, 2);
            const QByteArray expected =
                query.first().toUtf8() + QByteArrayLiteral(" selects what history reads; --import copies the whole");
            QVERIFY2(run.err.contains(expected), qPrintable(run.describe()));
        }
        QCOMPARE(count(QStringLiteral("pg_tables WHERE tablename LIKE 'redlock%'")), 0);
    }

    // A failure part-way (a row the server refuses, after sessions and events it took) into a database with no
    // history yet: a clear error, a failing exit code, and no tables left behind, empty or half-filled.
    void failedImportLeavesNoTables()
    {
        const QString bad = writeBadJournal(QStringLiteral("bad-first.sqlite"));
        QVERIFY(!bad.isEmpty());
        const CliRun run = runCli(
            {QStringLiteral("history"), QStringLiteral("--import"), bad, QStringLiteral("--journal"), m_server.url()});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("cannot import") && run.err.contains("\"key\"") &&
                     run.err.contains("Nothing was imported: the shared history is as it was."),
                 qPrintable(run.describe()));
        QCOMPARE(count(QStringLiteral("pg_tables WHERE tablename LIKE 'redlock%'")), 0);
    }

    void importKeepsEverythingAndTwiceAddsNothing()
    {
        const QString path = writeJournal(QStringLiteral("history.sqlite"));
        QVERIFY(!path.isEmpty());
        const HistoryResult local = read(path);
        QVERIFY2(local.error.isEmpty(), qPrintable(local.error));
        QCOMPARE(local.intervals.size(), 6);
        QCOMPARE(local.unwatched.size(), 2); // 2000..3000, and since 4000

        JournalImportResult r = JournalImport::importSqlite(path, m_server.url());
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.sessions, 2);
        QCOMPARE(r.intervals, qint64(local.intervals.size()));
        QCOMPARE(r.events, qint64(local.events.size()));
        QCOMPARE(r.sessionsPresent + r.intervalsPresent + r.eventsPresent, 0);

        const HistoryResult shared = read(m_server.url());
        QVERIFY2(shared.error.isEmpty(), qPrintable(shared.error));
        QCOMPARE(describe(shared), describe(local));

        const qint64 sessions = count(QStringLiteral("redlock_sessions")),
                     intervals = count(QStringLiteral("redlock_intervals")),
                     events = count(QStringLiteral("redlock_events"));
        r = JournalImport::importSqlite(path, m_server.url());
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.sessions + r.intervals + r.events, 0);
        QCOMPARE(r.sessionsPresent, 2);
        QCOMPARE(r.intervalsPresent, qint64(local.intervals.size()));
        QCOMPARE(r.eventsPresent, qint64(local.events.size()));
        QCOMPARE(count(QStringLiteral("redlock_sessions")), sessions);
        QCOMPARE(count(QStringLiteral("redlock_intervals")), intervals);
        QCOMPARE(count(QStringLiteral("redlock_events")), events);
        QCOMPARE(describe(read(m_server.url())), describe(local));

        // Into a history that has rows: a failure part-way (after a new event went in) keeps the rows as they were.
        const QString bad = writeBadJournal(QStringLiteral("bad-later.sqlite"));
        QVERIFY(!bad.isEmpty());
        r = JournalImport::importSqlite(bad, m_server.url());
        QVERIFY2(r.error.contains(QLatin1String("Nothing was imported")), qPrintable(r.error));
        QCOMPARE(r.events + r.intervals + r.sessions, 0);
        QCOMPARE(count(QStringLiteral("redlock_sessions")), sessions);
        QCOMPARE(count(QStringLiteral("redlock_intervals")), intervals);
        QCOMPARE(count(QStringLiteral("redlock_events")), events);
    }

    // `redlock history --import FILE --journal URL`: what it added, then (again) that nothing was new; a usage error
    // without a database to import into.
    void cliImports()
    {
        const QString path = writeJournal(QStringLiteral("cli.sqlite"));
        QVERIFY(!path.isEmpty());
        CliRun run = runCli({QStringLiteral("history"), QStringLiteral("--import"), path});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--journal postgresql://"), qPrintable(run.describe()));
        run = runCli({QStringLiteral("history"), QStringLiteral("--import"), path, QStringLiteral("--journal"),
                      m_dir.filePath(QStringLiteral("other.sqlite"))});
        QCOMPARE(run.exitCode, 2);
        // Its sessions are those the test before imported (the same writer pid and starts, no host): found there
        // already. Either way each of its tenures is in the history once.
        run = runCli({QStringLiteral("history"), QStringLiteral("--import"), path, QStringLiteral("--journal"),
                      m_server.url(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const qint64 added = run.json.value(QStringLiteral("intervals")).toInteger() +
                             run.json.value(QStringLiteral("intervalsPresent")).toInteger();
        QCOMPARE(added, 6);
        run = runCli(
            {QStringLiteral("history"), QStringLiteral("--import"), path, QStringLiteral("--journal"), m_server.url()});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(run.out.contains("0 holder intervals, 0 events, 0 writer sessions"), qPrintable(run.describe()));
    }

    // The console's keyring password: without PGPASSWORD or ~/.pgpass the server refuses, and says it is the password
    // (the console asks); with the one the caller gives it reads; a wrong one is a refused password again.
    void readsWithThePasswordTheCallerGives()
    {
        qunsetenv("PGPASSWORD");
        HistoryQuery q;
        q.sinceMs = 0;
        q.untilMs = 10'000'000;
        bool refused = false;
        HistoryResult r = queryDatabaseJournal(m_server.url(), {}, q, 10'000'000, &refused);
        QVERIFY2(refused && !r.error.isEmpty(), qPrintable(r.error));
        r = queryDatabaseJournal(m_server.url(), QStringLiteral("wrong"), q, 10'000'000, &refused);
        QVERIFY2(refused && !r.error.isEmpty(), qPrintable(r.error));
        r = queryDatabaseJournal(m_server.url(), test::LocalPostgres::password(), q, 10'000'000, &refused);
        QVERIFY2(!refused && r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.intervals.size(), 6); // what the tests before imported

        // A password in the URL is refused before the server is asked: not a password to ask for.
        QString url = m_server.url();
        url.replace(QStringLiteral("redlock@"), QStringLiteral("redlock:x@"));
        r = queryDatabaseJournal(url, {}, q, 10'000'000, &refused);
        QVERIFY(!r.error.isEmpty());
        QVERIFY(!refused);

        // The import takes the caller's password as well.
        const QString path = writeJournal(QStringLiteral("keyring.sqlite"));
        QVERIFY(!path.isEmpty());
        QVERIFY(!JournalImport::importSqlite(path, m_server.url()).error.isEmpty());
        const JournalImportResult imported =
            JournalImport::importSqlite(path, m_server.url(), test::LocalPostgres::password());
        QVERIFY2(imported.error.isEmpty(), qPrintable(imported.error));
    }
};

QTEST_GUILESS_MAIN(TestJournalImport)
#include "TestJournalImport.moc"
