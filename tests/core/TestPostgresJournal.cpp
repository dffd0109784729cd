// The lock history in PostgreSQL (--journal postgresql://...; core/history/PostgresJournalStore), against a real
// server the test starts itself (support/PostgresTestSupport.h): several writers on one deployment give readers
// one timeline; a server that goes down and comes back loses nothing that fit the queue; and the ways it fails
// (wrong password, a password in the URL, a read-only server, a schema from a newer version) say why while the
// events wait.
#include "history/JournalStore.h"
#include "history/LockJournal.h"
#include "history/PostgresJournalStore.h"
#include "support/JournalTestSupport.h"
#include "support/PostgresTestSupport.h"

#include <QScopeGuard>
#include <QSemaphore>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QtTest>

#include <memory>

using namespace redlock;

namespace {

// What a reader must always see, whatever the writers have written so far: per key, each tenure (token) once, and
// tenures one after the other (a closed one ends before the next begins; only the last may be open).
QString timelineProblem(const QList<HolderInterval>& intervals)
{
    QHash<QByteArray, QList<HolderInterval>> byKey;
    for (const HolderInterval& i : intervals)
        byKey[i.key].append(i);
    for (auto it = byKey.cbegin(); it != byKey.cend(); ++it) {
        QSet<QByteArray> tokens;
        for (qsizetype n = 0; n < it->size(); ++n) {
            const HolderInterval& i = it->at(n);
            if (tokens.contains(i.token))
                return QStringLiteral("%1: tenure %2 twice")
                    .arg(QString::fromUtf8(it.key()), QString::fromUtf8(i.token));
            tokens.insert(i.token);
            if (n + 1 < it->size() && (i.isOpen() || i.toMs > it->at(n + 1).fromMs))
                return QStringLiteral("%1: %2 overlaps %3")
                    .arg(QString::fromUtf8(it.key()), QString::fromUtf8(i.token),
                         QString::fromUtf8(it->at(n + 1).token));
        }
    }
    return {};
}

} // namespace

class TestPostgresJournal : public QObject
{
    Q_OBJECT

    test::LocalPostgres m_server;
    QTemporaryDir m_home;

    JournalOptions options(const QString& source, std::shared_ptr<SetClock> clock = nullptr) const
    {
        JournalOptions o;
        o.path = m_server.url();
        o.source = source;
        o.flushIntervalMs = 20;
        o.retryIntervalMs = 100;
        o.busyTimeoutMs = 2000;
        o.retainMs = 0;
        o.clock = std::move(clock);
        return o;
    }

    // A connection of the test's own to the test server's database, as its superuser, not opened; the caller removes
    // it (QSqlDatabase::removeDatabase(name)) once its copies are gone.
    QSqlDatabase connectionNamed(const QString& name) const
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(QStringLiteral("127.0.0.1"));
        db.setPort(m_server.port());
        db.setDatabaseName(QStringLiteral("postgres"));
        db.setUserName(test::LocalPostgres::user());
        return db;
    }

    // A connection of the test's own, for what no writer does (a schema from the future, a read-only server).
    bool admin(const QString& sql)
    {
        bool ok = false;
        {
            QSqlDatabase db = connectionNamed(QStringLiteral("admin"));
            // The test's own session writes even where the database makes sessions read-only.
            ok = db.open() && QSqlQuery(db).exec(QStringLiteral("SET default_transaction_read_only = off")) &&
                 QSqlQuery(db).exec(sql);
            if (!ok)
                qWarning() << sql << db.lastError().text();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("admin"));
        return ok;
    }

    HistoryResult read(const QByteArray& pattern = {}) const
    {
        HistoryQuery q;
        q.keyPattern = pattern;
        q.sinceMs = 0;
        q.untilMs = std::numeric_limits<qint64>::max() / 2;
        return LockJournal::queryFile(m_server.url(), q, QDateTime::currentMSecsSinceEpoch());
    }

private slots:
    void initTestCase()
    {
        // libpq's own sources of a password: the environment, and a password file that is not the user's.
        qputenv("PGPASSWORD", test::LocalPostgres::password().toUtf8());
        qputenv("PGPASSFILE", m_home.filePath(QStringLiteral("no-pgpass")).toUtf8());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void cleanup()
    {
        qputenv("PGPASSWORD", test::LocalPostgres::password().toUtf8());
        QString error;
        QVERIFY2(m_server.startServer(&error), qPrintable(error));
    }

    // Two writers (an exporter and a console) watch the same keys, each at its own instants, one of them stopping
    // and starting again mid-tenure; a reader queries while they write. Every read gives one timeline: each tenure
    // once, none overlapping the next; at the end, every tenure of every key, each ended as it was seen to end, and
    // each transition told once.
    void twoWritersAndAReaderGiveOneHistory()
    {
        // Neither writer is a deadlock's victim (the restarted exporter's start closes its earlier session's
        // intervals while the console updates the same keys'): the retry that would hide one never runs.
        const qint64 retriesBefore = PostgresJournalStore::writeRetries();
        auto clock = std::make_shared<SetClock>();
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3600'000;
        clock->now = base;
        LockJournal exporter(options(QStringLiteral("exporter"), clock));
        LockJournal console(options(QStringLiteral("console"), clock));
        QSignalSpy exporterProblems(&exporter, &LockJournal::problem);
        QSignalSpy consoleProblems(&console, &LockJournal::problem);
        exporter.start();
        console.start();
        QVERIFY(await(exporter.flush()));
        QVERIFY(await(console.flush()));

        constexpr int kRounds = 16, kKeys = 6, kConsoleFrom = 2, kRestartAt = 8;
        const auto token = [](int key, int round) -> QByteArray {
            return "k" + QByteArray::number(key) + "-r" + QByteArray::number(round);
        };
        const auto keyName = [](int key) -> QByteArray { return "svc:" + QByteArray::number(key); };
        for (int r = 0; r < kRounds; ++r) {
            const qint64 t = base + qint64(r) * 1000;
            clock->now = t;
            QList<JournalEvent> a, b;
            for (int k = 0; k < kKeys; ++k) {
                a << journalEvent(t + k, keyName(k), "acquired", token(k, r));
                // The console starts while the locks are held: it first sees them held.
                if (r >= kConsoleFrom)
                    b << journalEvent(t + k + 5, keyName(k), r == kConsoleFrom ? "seen-held" : "acquired", token(k, r));
            }
            for (int k = 0; k < kKeys; ++k) {
                a << journalEvent(t + 300 + k, keyName(k), "extended", token(k, r));
                if (r >= kConsoleFrom)
                    b << journalEvent(t + 305 + k, keyName(k), "extended", token(k, r));
            }
            exporter.record(a);
            console.record(b);
            a.clear();
            b.clear();
            if (r == kRestartAt) {
                // The exporter restarts while the keys are held: its next session sees the same tenures held.
                clock->now = t + 350;
                exporter.endSession();
                for (int k = 0; k < kKeys; ++k)
                    a << journalEvent(t + 400 + k, keyName(k), "seen-held", token(k, r));
            }
            if (r + 1 < kRounds) {
                for (int k = 0; k < kKeys; ++k) {
                    a << journalEvent(t + 600 + k, keyName(k), "released", token(k, r));
                    if (r >= kConsoleFrom)
                        b << journalEvent(t + 605 + k, keyName(k), "released", token(k, r));
                }
            }
            exporter.record(a);
            console.record(b);
            // The reader, while the writers write.
            const HistoryResult now = read("svc:*");
            QVERIFY2(now.error.isEmpty(), qPrintable(now.error));
            const QString problem = timelineProblem(now.intervals);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QVERIFY(await(exporter.flush()));
        QVERIFY(await(console.flush()));
        QVERIFY2(exporterProblems.isEmpty(), qPrintable(exporterProblems.value(0).value(0).toString()));
        QVERIFY2(consoleProblems.isEmpty(), qPrintable(consoleProblems.value(0).value(0).toString()));
        QVERIFY2(PostgresJournalStore::writeRetries() == retriesBefore,
                 qPrintable(PostgresJournalStore::lastWriteRetry()));

        const HistoryResult all = read("svc:*");
        QVERIFY2(all.error.isEmpty(), qPrintable(all.error));
        const QString problem = timelineProblem(all.intervals);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(all.intervals.size(), kRounds * kKeys);
        for (int k = 0; k < kKeys; ++k) {
            QList<HolderInterval> mine;
            for (const HolderInterval& i : all.intervals) {
                if (i.key == keyName(k))
                    mine << i;
            }
            QCOMPARE(mine.size(), kRounds);
            for (int r = 0; r < kRounds; ++r) {
                const HolderInterval& i = mine.at(r);
                QCOMPARE(i.token, token(k, r));
                QCOMPARE(i.fromMs, base + qint64(r) * 1000 + k); // the first writer's sight
                QVERIFY(!i.atLeastSince);
                if (r + 1 < kRounds) {
                    QCOMPARE(i.endedBy, QStringLiteral("released"));
                    QCOMPARE(i.toMs, base + qint64(r) * 1000 + 600 + k);   // the first writer to see it end
                    QCOMPARE(i.writer.source, QStringLiteral("exporter")); // and it says who saw that
                    QCOMPARE(i.writer.pid, QCoreApplication::applicationPid());
                } else {
                    QVERIFY(i.isOpen());
                }
            }
            int acquired = 0, released = 0, extended = 0;
            for (const JournalEvent& e : all.events) {
                if (e.key != keyName(k))
                    continue;
                QVERIFY2(e.writer.source == u"exporter" || e.writer.source == u"console", qPrintable(e.writer.source));
                acquired += e.kind == u"acquired";
                released += e.kind == u"released";
                extended += e.kind == u"extended";
            }
            QCOMPARE(acquired, kRounds);
            QCOMPARE(released, kRounds - 1);
            QCOMPARE(extended, kRounds);
        }
        // Nobody closed anybody's intervals: the console ends only its own; the exporter's are still open.
        clock->now = base + kRounds * 1000;
        console.endSession();
        QVERIFY(await(console.flush()));
        const HistoryResult after = read("svc:*");
        for (const HolderInterval& i : after.intervals) {
            if (i.token.endsWith(QByteArray("-r" + QByteArray::number(kRounds - 1))))
                QVERIFY2(i.isOpen(), i.token.constData());
        }
    }

    // The server goes down while a writer writes, and comes back: what waited in the queue is written, the tenures
    // complete; problem() said why meanwhile and recovered() that it writes again.
    // Two writers that start while a gone writer's tenures are held take them over (or end them) in one batch each,
    // in opposite key orders: every writer locks the rows it may take over in key order first, so neither is ever
    // a deadlock's victim. Counted, not inferred: the retry that would hide a deadlock (writeRetries()) never runs.
    void twoWritersTakingOverOneSessionNeverDeadlock()
    {
        const qint64 retriesBefore = PostgresJournalStore::writeRetries();
        // Retention by size later measures the tables: these rows are not its to count, however this test ends. Left
        // by a failure here (up to 20 x 900 events, newer than all of retentionBySizeKeepsTheNewestAndTheOpen's), they
        // are most of its 1 MiB target: its prune then takes its newest tenures too, and it fails after this one.
        const auto forget = qScopeGuard([this] {
            QVERIFY(
                admin(QStringLiteral("DELETE FROM redlock_events WHERE substring(key from 1 for 2) = 'dl'::bytea")));
            QVERIFY(
                admin(QStringLiteral("DELETE FROM redlock_intervals WHERE substring(key from 1 for 2) = 'dl'::bytea")));
        });
        constexpr int kRuns = 20, kKeys = 300;
        for (int run = 0; run < kRuns; ++run) {
            const auto keyName = [run](int key) -> QByteArray {
                return "dl" + QByteArray::number(run) + ":" + QByteArray::number(key).rightJustified(4, '0');
            };
            const auto token = [](int key) -> QByteArray { return "t" + QByteArray::number(key); };
            const qint64 t = QDateTime::currentMSecsSinceEpoch();
            {
                LockJournal gone(options(QStringLiteral("gone")));
                QSignalSpy goneProblems(&gone, &LockJournal::problem);
                gone.start();
                QList<JournalEvent> held;
                for (int k = 0; k < kKeys; ++k)
                    held << journalEvent(t + k, keyName(k), "acquired", token(k));
                gone.record(held);
                gone.endSession();
                QVERIFY(await(gone.flush()));
                QVERIFY(goneProblems.isEmpty());
            }
            LockJournal up(options(QStringLiteral("up")));
            LockJournal down(options(QStringLiteral("down")));
            QSignalSpy upProblems(&up, &LockJournal::problem);
            QSignalSpy downProblems(&down, &LockJournal::problem);
            up.start();
            down.start();
            QVERIFY(await(up.flush()));
            QVERIFY(await(down.flush()));
            QList<JournalEvent> ascending, descending;
            for (int k = 0; k < kKeys; ++k) {
                // Half the keys are still held by the same tenure (taken over), half by a new one (the old ends).
                const auto now = [&](int key) -> QByteArray { return key % 2 ? token(key) : token(key) + "-next"; };
                ascending << journalEvent(t + kKeys + 10, keyName(k), "seen-held", now(k));
                descending << journalEvent(t + kKeys + 10, keyName(kKeys - 1 - k), "seen-held", now(kKeys - 1 - k));
            }
            up.record(ascending);
            down.record(descending);
            const QFuture<bool> upFlushed = up.flush();
            const QFuture<bool> downFlushed = down.flush();
            const bool upWrote = await(upFlushed);
            const bool downWrote = await(downFlushed);
            QCOMPARE(PostgresJournalStore::writeRetries(), retriesBefore);
            QVERIFY2(upProblems.isEmpty(), qPrintable(upProblems.value(0).value(0).toString()));
            QVERIFY2(downProblems.isEmpty(), qPrintable(downProblems.value(0).value(0).toString()));
            QVERIFY(upWrote);
            QVERIFY(downWrote);
        }
        // Each tenure once: taken over by one writer, not duplicated by the other.
        const HistoryResult all = read("dl*");
        QVERIFY2(all.error.isEmpty(), qPrintable(all.error));
        const QString problem = timelineProblem(all.intervals);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // A writer that finds a gone session's interval locked by another transaction (another writer taking it over in
    // a batch of its own) does not wait for that transaction: it opens an interval of its own, which readers merge
    // with the other's into one tenure. It waited for the other's whole batch, beyond the lock timeout under load
    // (twoWritersTakingOverOneSessionNeverDeadlock failed so: "canceling statement due to lock timeout").
    void takingOverARowAnotherHoldsDoesNotWaitForIt()
    {
        const qint64 t = QDateTime::currentMSecsSinceEpoch();
        PostgresJournalStore::Error e;
        {
            PostgresJournalStore gone(m_server.url(), 2000);
            QVERIFY2(gone.open(false, &e) && gone.beginSession(QStringLiteral("gone"), t, 0, &e) &&
                         gone.write({journalEvent(t, "skip:a", "acquired", "held"),
                                     journalEvent(t, "skip:b", "acquired", "old")},
                                    t, &e) &&
                         gone.endSession(t + 1, &e),
                     qPrintable(e.message));
        }
        const QString name = QStringLiteral("holder");
        {
            QSqlDatabase db = connectionNamed(name);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("BEGIN")));
            QVERIFY(q.exec(QStringLiteral("SELECT id FROM redlock_intervals WHERE substring(key from 1 for 5) = "
                                          "'skip:'::bytea FOR UPDATE")) &&
                    q.next());
            // The lock timeout is what a wait would end in: the write must not need it.
            PostgresJournalStore up(m_server.url(), 1000);
            const bool wrote = up.open(false, &e) && up.beginSession(QStringLiteral("up"), t + 2, 0, &e) &&
                               up.write({journalEvent(t + 3, "skip:a", "seen-held", "held"),
                                         journalEvent(t + 3, "skip:b", "seen-held", "new")},
                                        t + 3, &e);
            QVERIFY(q.exec(QStringLiteral("COMMIT")));
            QVERIFY2(wrote, qPrintable(e.message));
            QVERIFY2(up.endSession(t + 4, &e), qPrintable(e.message));
        }
        QSqlDatabase::removeDatabase(name);
        const HistoryResult all = read("skip:*");
        QVERIFY2(all.error.isEmpty(), qPrintable(all.error));
        QVERIFY2(timelineProblem(all.intervals).isEmpty(), qPrintable(timelineProblem(all.intervals)));
        QCOMPARE(all.intervals.size(), 3); // skip:a's one tenure, from the first sight; skip:b's old and new
        QCOMPARE(all.intervals.at(0).token, QByteArray("held"));
        QCOMPARE(all.intervals.at(0).fromMs, t);
        QVERIFY(admin(QStringLiteral("DELETE FROM redlock_events WHERE substring(key from 1 for 5) = 'skip:'::bytea")));
        QVERIFY(
            admin(QStringLiteral("DELETE FROM redlock_intervals WHERE substring(key from 1 for 5) = 'skip:'::bytea")));
    }

    // A force release seen late marks the writer's own tenure that had ended (seen as released) "force-released": that
    // row is locked with the others, in key order, before any. Locked on its own, after the rows the batch takes over,
    // a writer waited for it (held by retention's ordered delete, here the locker) while holding a later key's row the
    // other then asked for: "deadlock detected", and the writer's batch written again.
    void aForceReleaseSeenLateLocksInKeyOrder()
    {
        const qint64 retriesBefore = PostgresJournalStore::writeRetries();
        const qint64 t = QDateTime::currentMSecsSinceEpoch();
        const QString url = m_server.url();
        PostgresJournalStore::Error e;
        {
            PostgresJournalStore gone(url, 2000);
            QVERIFY2(gone.open(false, &e) && gone.beginSession(QStringLiteral("gone"), t, 0, &e) &&
                         gone.write({journalEvent(t, "fl:z", "acquired", "zt")}, t, &e) && gone.endSession(t + 1, &e),
                     qPrintable(e.message));
        }
        QSemaphore written, force;
        bool wrote = false, forced = false;
        QString writeError;
        std::unique_ptr<QThread> writer(QThread::create([&] {
            PostgresJournalStore store(url, 30000);
            PostgresJournalStore::Error we;
            wrote = store.open(false, &we) && store.beginSession(QStringLiteral("late"), t + 2, 0, &we) &&
                    store.write(
                        {journalEvent(t + 2, "fl:a", "acquired", "at"), journalEvent(t + 3, "fl:a", "released", "at")},
                        t + 3, &we);
            written.release();
            force.acquire();
            forced = wrote &&
                     store.write({journalEvent(t + 4, "fl:a", "force-released", "at"),
                                  journalEvent(t + 4, "fl:z", "seen-held", "zt")},
                                 t + 4, &we) &&
                     store.endSession(t + 5, &we);
            if (!forced)
                writeError = we.message;
        }));
        writer->start();
        bool released = false;
        const auto releaseOnFailure = qScopeGuard([&] {
            if (!released)
                force.release();
            writer->wait();
        });
        written.acquire();
        QVERIFY2(wrote, qPrintable(writeError));
        const QString name = QStringLiteral("locker");
        {
            QSqlDatabase db = connectionNamed(name);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("BEGIN")));
            const auto lockKey = [&](const QByteArray& key) {
                q.prepare(QStringLiteral("SELECT id FROM redlock_intervals WHERE key = ? AND to_ms IS NOT NULL FOR "
                                         "UPDATE"));
                q.addBindValue(key);
                const bool ok = q.exec() && q.next();
                if (!ok)
                    qWarning() << q.lastError().text();
                q.finish();
                return ok;
            };
            const bool firstLocked = lockKey("fl:a");
            force.release();
            released = true;
            QVERIFY(firstLocked);
            QVERIFY(QTest::qWaitFor(
                [&] {
                    QSqlQuery waiting(db);
                    return waiting.exec(QStringLiteral("SELECT count(*) FROM pg_locks WHERE NOT granted")) &&
                           waiting.next() && waiting.value(0).toInt() > 0;
                },
                30000));
            const bool lastLocked = lockKey("fl:z");
            QVERIFY(q.exec(lastLocked ? QStringLiteral("COMMIT") : QStringLiteral("ROLLBACK")));
            QVERIFY(lastLocked);
            QVERIFY(writer->wait(60000));
            QVERIFY2(forced, qPrintable(writeError));
            QVERIFY2(PostgresJournalStore::writeRetries() == retriesBefore,
                     qPrintable(PostgresJournalStore::lastWriteRetry()));
            QVERIFY(q.exec(QStringLiteral("SELECT ended FROM redlock_intervals WHERE key = 'fl:a'::bytea")) &&
                    q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("force-released"));
        }
        QSqlDatabase::removeDatabase(name);
        QVERIFY(admin(QStringLiteral("DELETE FROM redlock_events WHERE substring(key from 1 for 3) = 'fl:'::bytea")));
        QVERIFY(
            admin(QStringLiteral("DELETE FROM redlock_intervals WHERE substring(key from 1 for 3) = 'fl:'::bytea")));
    }

    // Closing a writer's open intervals, at its session's end (endSession) or as another's once it is silent
    // (closeAbandoned), and deleting ended ones (retention: prune), locks them in key order, as a write that takes
    // them over does: a writer that holds the first
    // key's row and then asks for the last key's is never a deadlock's victim, nor is the closing. The rows were
    // written in descending key order: in the table's order the closing would take the last key's row first and wait
    // for the first's, while the other waits for the last's (both failed so: "deadlock detected").
    void closingIntervalsLocksThemInKeyOrder_data()
    {
        QTest::addColumn<QString>("closing");
        QTest::newRow("endSession") << QStringLiteral("endSession");
        QTest::newRow("closeAbandoned") << QStringLiteral("closeAbandoned");
        // Retention deletes ended intervals, the ones a writer taking over a gone session locks (to adopt or end
        // them): it locks them in key order too.
        QTest::newRow("prune") << QStringLiteral("prune");
    }
    void closingIntervalsLocksThemInKeyOrder()
    {
        QFETCH(QString, closing);
        const bool pruning = closing == u"prune";
        const qint64 t = QDateTime::currentMSecsSinceEpoch();
        constexpr int kKeys = 10;
        const auto keyName = [](int key) -> QByteArray { return "ord:" + QByteArray::number(key); };
        // The writer and the closing, on connections of their own in a thread of their own: the closing waits for the
        // first key's row.
        QSemaphore written, close;
        bool wrote = false, closed = false;
        QString closeError;
        const QString url = m_server.url();
        std::unique_ptr<QThread> writer(QThread::create([&] {
            PostgresJournalStore store(url, 30000);
            PostgresJournalStore::Error e;
            QList<JournalEvent> held;
            for (int k = kKeys - 1; k >= 0; --k)
                held << journalEvent(t, keyName(k), "acquired", "t" + QByteArray::number(k));
            wrote = store.open(false, &e) && store.beginSession(QStringLiteral("closing"), t, 0, &e) &&
                    store.write(held, t, &e) && (!pruning || store.endSession(t + 1, &e));
            written.release();
            close.acquire();
            if (closing == u"closeAbandoned") {
                PostgresJournalStore other(url, 30000);
                closed = other.open(false, &e) && other.closeAbandoned(t + 1, &e);
            } else if (pruning) {
                qint64 removed = 0;
                closed = store.prune(t + 2, 0, &removed, &e);
            } else {
                closed = store.endSession(t + 1, &e);
            }
            if (!closed)
                closeError = e.message;
        }));
        writer->start();
        bool released = false;
        const auto releaseOnFailure = qScopeGuard([&] {
            if (!released) // a check failed before: the thread must not wait for ever
                close.release();
            writer->wait();
        });
        written.acquire();
        QVERIFY(wrote);

        const QString name = QStringLiteral("locker");
        {
            QSqlDatabase db = connectionNamed(name);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("BEGIN")));
            const auto lockKey = [&](int key) {
                q.prepare(QStringLiteral("SELECT id FROM redlock_intervals WHERE key = ? AND to_ms IS %1 FOR UPDATE")
                              .arg(pruning ? QStringLiteral("NOT NULL") : QStringLiteral("NULL")));
                q.addBindValue(keyName(key));
                const bool ok = q.exec() && q.next();
                if (!ok)
                    qWarning() << q.lastError().text();
                q.finish();
                return ok;
            };
            const bool firstLocked = lockKey(0);
            close.release();
            released = true;
            QVERIFY(firstLocked);
            QVERIFY(QTest::qWaitFor(
                [&] {
                    QSqlQuery waiting(db);
                    return waiting.exec(QStringLiteral("SELECT count(*) FROM pg_locks WHERE NOT granted")) &&
                           waiting.next() && waiting.value(0).toInt() > 0;
                },
                30000));
            QVERIFY(lockKey(kKeys - 1));
            QVERIFY(q.exec(QStringLiteral("COMMIT")));
            QVERIFY(writer->wait(60000));
            QVERIFY2(closed, qPrintable(closeError));
            QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM redlock_intervals WHERE substring(key from 1 for 4) = "
                                          "'ord:'::bytea AND (to_ms IS NULL OR %1)")
                               .arg(pruning ? QStringLiteral("true") : QStringLiteral("false"))) &&
                    q.next());
            QCOMPARE(q.value(0).toInt(), 0); // closed; pruned
        }
        QSqlDatabase::removeDatabase(name);
        QVERIFY(admin(QStringLiteral("DELETE FROM redlock_events WHERE substring(key from 1 for 4) = 'ord:'::bytea")));
        QVERIFY(
            admin(QStringLiteral("DELETE FROM redlock_intervals WHERE substring(key from 1 for 4) = 'ord:'::bytea")));
    }

    void storeStoppedAndRestartedLosesNothingThatFitTheQueue()
    {
        LockJournal journal(options(QStringLiteral("exporter")));
        QSignalSpy problems(&journal, &LockJournal::problem);
        QSignalSpy recovered(&journal, &LockJournal::recovered);
        journal.start();
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 60'000;
        QList<JournalEvent> before;
        for (int k = 0; k < 5; ++k)
            before << journalEvent(base + k, "restart:" + QByteArray::number(k), "acquired", "before");
        journal.record(before);
        QVERIFY(await(journal.flush()));

        QString error;
        QVERIFY2(m_server.stopServer(&error), qPrintable(error));
        QList<JournalEvent> during;
        for (int k = 0; k < 5; ++k) {
            during << journalEvent(base + 1000 + k, "restart:" + QByteArray::number(k), "released", "before");
            during << journalEvent(base + 2000 + k, "restart:" + QByteArray::number(k), "acquired", "during");
        }
        journal.record(during);
        QTRY_VERIFY_WITH_TIMEOUT(problems.count() >= 1, 20000);
        const QString message = problems.last().first().toString();
        QVERIFY2(message.contains(QLatin1String("Monitoring goes on")), qPrintable(message));
        QVERIFY(journal.status().failing);
        QCOMPARE(journal.status().pending, qint64(during.size()));

        QVERIFY2(m_server.startServer(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(recovered.count() >= 1, 30000);
        QVERIFY2(recovered.last().first().toString().contains(QLatin1String("none lost")),
                 qPrintable(recovered.last().first().toString()));
        QVERIFY(await(journal.flush()));
        QCOMPARE(journal.status().dropped, qint64(0));

        const HistoryResult all = read("restart:*");
        QVERIFY2(all.error.isEmpty(), qPrintable(all.error));
        QCOMPARE(all.intervals.size(), 10);
        for (const HolderInterval& i : all.intervals) {
            if (i.token == "before")
                QCOMPARE(i.endedBy, QStringLiteral("released"));
            else
                QVERIFY(i.isOpen());
        }
        QCOMPARE(all.events.size(), 15);
    }

    // The password rotated on the server while the writer was connected: when its connection drops and the server
    // refuses the reconnect, the writer asks for a password (passwordNeeded) and the one given gets the events in.
    void passwordRotatedWhileConnectedIsAskedFor()
    {
        const QUrl url(m_server.url());
        auto alterPassword = [&](const QString& current, const QString& password) {
            const QString name = QStringLiteral("rotate");
            bool ok = false;
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
                db.setHostName(url.host());
                db.setPort(url.port());
                db.setDatabaseName(QStringLiteral("postgres"));
                db.setUserName(test::LocalPostgres::user());
                db.setPassword(current);
                ok = db.open() &&
                     QSqlQuery(db).exec(
                         QStringLiteral("ALTER ROLE %1 PASSWORD '%2'").arg(test::LocalPostgres::user(), password));
                db.close();
            }
            QSqlDatabase::removeDatabase(name);
            return ok;
        };
        LockJournal journal(options(QStringLiteral("console")));
        QSignalSpy asked(&journal, &LockJournal::passwordNeeded);
        journal.start();
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 30'000;
        journal.record(QList<JournalEvent>{journalEvent(base, "rotate:1", "acquired", "tokR")});
        QVERIFY(await(journal.flush()));
        QCOMPARE(asked.count(), 0);

        const QString rotated = QStringLiteral("rotated-secret");
        QVERIFY(alterPassword(test::LocalPostgres::password(), rotated));
        auto restore = qScopeGuard([&] { alterPassword(rotated, test::LocalPostgres::password()); });
        QString error;
        QVERIFY2(m_server.stopServer(&error) && m_server.startServer(&error), qPrintable(error)); // the link drops
        journal.record(QList<JournalEvent>{journalEvent(base + 1000, "rotate:1", "released", "tokR")});
        QTRY_VERIFY_WITH_TIMEOUT(asked.count() >= 1, 20000);
        QVERIFY(journal.status().failing);
        journal.setDatabasePassword(rotated);
        QTRY_VERIFY_WITH_TIMEOUT(journal.status().written == 2 && !journal.status().failing, 20000);
        restore.dismiss();
        QVERIFY(alterPassword(rotated, test::LocalPostgres::password())); // read() below: libpq's PGPASSWORD
        const HistoryResult all = read("rotate:*");
        QVERIFY2(all.error.isEmpty(), qPrintable(all.error));
        QCOMPARE(all.intervals.size(), 1);
        QCOMPARE(all.intervals.first().endedBy, QStringLiteral("released"));
    }

    // Each way the store can refuse says why, never repeats a password, and the events wait.
    // Retention by size in the server's tables (--retain-mb): written past a small target, prune() brings what the
    // tables take under it by removing the oldest history; the newest tenures and the open one (a lock held now,
    // however old) stay.
    void retentionBySizeKeepsTheNewestAndTheOpen()
    {
        JournalStore store(m_server.url(), 2000);
        JournalStore::Error error;
        QVERIFY2(store.open(false, &error), qPrintable(error.message));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 600'000;
        QVERIFY2(store.beginSession(QStringLiteral("exporter"), base, base, &error), qPrintable(error.message));
        QVERIFY2(store.write({journalEvent(base, "size:open", "acquired", "held-throughout")}, base, &error),
                 qPrintable(error.message));
        constexpr int kTenures = 1500;
        const QString detail(1200, u'x'); // rows of about 1.3 KB, below PostgreSQL's TOAST threshold
        QList<JournalEvent> batch;
        for (int n = 0; n < kTenures; ++n) {
            const QByteArray key = "size:" + QByteArray::number(n);
            const QByteArray token = "t" + QByteArray::number(n);
            JournalEvent acquired = journalEvent(base + 1000 + n * 10, key, "acquired", token);
            JournalEvent released = journalEvent(base + 1005 + n * 10, key, "released", token);
            acquired.detail = released.detail = detail;
            batch << acquired << released;
            if (batch.size() >= 500 || n + 1 == kTenures) {
                QVERIFY2(store.write(batch, batch.last().atMs, &error), qPrintable(error.message));
                batch.clear();
            }
        }
        constexpr qint64 kTarget = 1024 * 1024;
        const qint64 before = store.dataBytes();
        QVERIFY2(before > 3 * kTarget, qPrintable(QString::number(before)));

        qint64 removed = 0;
        QVERIFY2(store.prune(std::numeric_limits<qint64>::min(), kTarget, &removed, &error), qPrintable(error.message));
        const qint64 after = store.retainedBytes();
        QVERIFY2(after > 0 && after <= kTarget, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
        QVERIFY(removed > 0);

        HistoryQuery q;
        q.keyPattern = "size:*";
        q.untilMs = base + 1000 + kTenures * 10;
        const HistoryResult result = store.query(q, q.untilMs);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        const auto tenureOf = [&](const QByteArray& key) -> const HolderInterval* {
            for (const HolderInterval& i : result.intervals) {
                if (i.key == key)
                    return &i;
            }
            return nullptr;
        };
        const HolderInterval* open = tenureOf("size:open");
        QVERIFY(open && open->isOpen() && open->fromMs == base);
        const QByteArray newest = "size:" + QByteArray::number(kTenures - 1);
        QVERIFY(tenureOf(newest) && tenureOf(newest)->endedBy == u"released");
        QVERIFY(!tenureOf("size:0")); // the oldest went
        QVERIFY(std::any_of(result.events.cbegin(), result.events.cend(),
                            [&](const JournalEvent& e) { return e.key == newest && e.kind == u"released"; }));
        QVERIFY(result.intervals.size() < kTenures);
        QVERIFY2(store.endSession(q.untilMs, &error), qPrintable(error.message));
    }

    void retentionBySizeWithEveryTenureOpen()
    {
        // Only held locks: no closed tenure to count from. The events still go (never -1 as an OFFSET, which
        // PostgreSQL refuses: the rounds stopped there and the rows stayed over the target), the tenures stay.
        JournalStore store(m_server.url(), 2000);
        JournalStore::Error error;
        QVERIFY2(store.open(false, &error), qPrintable(error.message));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 600'000;
        QVERIFY2(store.beginSession(QStringLiteral("exporter"), base, base, &error), qPrintable(error.message));
        const QString detail(1200, u'x');
        QList<JournalEvent> batch;
        for (int n = 0; n < 1500; ++n) {
            JournalEvent acquired =
                journalEvent(base + n, "open:" + QByteArray::number(n), "acquired", "t" + QByteArray::number(n));
            acquired.detail = detail;
            batch << acquired;
        }
        QVERIFY2(store.write(batch, base + 1500, &error), qPrintable(error.message));
        constexpr qint64 kTarget = 1024 * 1024;
        const qint64 before = store.retainedBytes();
        QVERIFY2(before > kTarget, qPrintable(QString::number(before)));
        qint64 removed = 0;
        QVERIFY2(store.prune(std::numeric_limits<qint64>::min(), kTarget, &removed, &error), qPrintable(error.message));
        QVERIFY2(
            removed > 0 && store.retainedBytes() <= kTarget,
            qPrintable(QStringLiteral("%1 -> %2, %3 removed").arg(before).arg(store.retainedBytes()).arg(removed)));
        HistoryQuery q;
        q.keyPattern = "open:*";
        q.untilMs = base + 1500;
        const HistoryResult result = store.query(q, q.untilMs);
        QCOMPARE(result.intervals.size(), 1500); // every tenure is open: none goes
        QVERIFY2(store.endSession(q.untilMs, &error), qPrintable(error.message));
    }

    void failuresSayWhy()
    {
        // A password on the command line is refused before anything connects, and not echoed.
        const QString withPassword =
            QStringLiteral("postgresql://redlock:hunter2@127.0.0.1:%1/postgres").arg(m_server.port());
        const QString refused = JournalStore::locationProblem(withPassword);
        QVERIFY(refused.contains(QLatin1String("PGPASSWORD")));
        QVERIFY(!refused.contains(QLatin1String("hunter2")));
        {
            JournalOptions o = options(QStringLiteral("console"));
            o.path = withPassword;
            LockJournal journal(o);
            QSignalSpy problems(&journal, &LockJournal::problem);
            journal.start();
            QTRY_VERIFY_WITH_TIMEOUT(problems.count() >= 1, 10000);
            QVERIFY(!problems.last().first().toString().contains(QLatin1String("hunter2")));
        }

        // A wrong password: the server's answer, and where the password comes from.
        qputenv("PGPASSWORD", "not-the-password");
        {
            LockJournal journal(options(QStringLiteral("console")));
            QSignalSpy problems(&journal, &LockJournal::problem);
            journal.start();
            journal.record(QList<JournalEvent>{journalEvent(1000, "pw", "acquired", "t")});
            QTRY_VERIFY_WITH_TIMEOUT(problems.count() >= 1, 10000);
            const QString message = problems.last().first().toString();
            QVERIFY2(message.contains(QLatin1String("password authentication failed")), qPrintable(message));
            QVERIFY2(message.contains(QLatin1String("PGPASSWORD or ~/.pgpass")), qPrintable(message));
            QVERIFY(!message.contains(QLatin1String("not-the-password")));
            QCOMPARE(journal.status().pending, qint64(1));
        }
        qputenv("PGPASSWORD", test::LocalPostgres::password().toUtf8());
        const auto firstProblem = [this](const QString& expected) {
            LockJournal journal(options(QStringLiteral("console")));
            QSignalSpy problems(&journal, &LockJournal::problem);
            journal.start();
            if (!QTest::qWaitFor([&] { return problems.count() >= 1; }, 10000))
                return QStringLiteral("no problem() reported");
            const QString message = problems.first().first().toString();
            return message.contains(expected) ? QString() : message;
        };
        // A read-only server (as a standby is): said at open.
        QVERIFY(admin(QStringLiteral("ALTER DATABASE postgres SET default_transaction_read_only = on")));
        QString mismatch = firstProblem(QStringLiteral("read-only"));
        QVERIFY(admin(QStringLiteral("ALTER DATABASE postgres SET default_transaction_read_only = off")));
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        // A schema a newer build wrote: left alone, and said so.
        QVERIFY(admin(
            QStringLiteral("UPDATE redlock_schema SET version = %1").arg(PostgresJournalStore::kSchemaVersion + 1)));
        mismatch = firstProblem(QStringLiteral("newer"));
        QVERIFY(
            admin(QStringLiteral("UPDATE redlock_schema SET version = %1").arg(PostgresJournalStore::kSchemaVersion)));
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        const HistoryResult readable = read();
        QVERIFY2(readable.error.isEmpty(), qPrintable(readable.error));
    }
};

QTEST_GUILESS_MAIN(TestPostgresJournal)
#include "TestPostgresJournal.moc"
