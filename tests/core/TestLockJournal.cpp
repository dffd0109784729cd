// The lock history journal (core/history): what the inspector sees on real redis-servers goes into SQLite and
// comes back as holder intervals; retention; and the three ways a journal file fails (damaged, locked by
// another connection, full), none of which may stop monitoring or lose events silently.
#include "history/LockJournal.h"
#include "localcluster/LocalCluster.h"
#include "observe/LockInspector.h"
#include "redlock/RedlockClient.h"
#include "runtime/IoThread.h"
#include "support/JournalTestSupport.h"
#include "support/LockExpiry.h"
#include "support/ObservationTestSupport.h"

#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <future>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace redlock;

namespace {

// The permission bits of a file or folder; -1 when it is missing.
int modeOf(const QString& path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_mode & 0777) : -1;
}

qint64 sizeOf(const QString& path)
{
    return QFileInfo::exists(path) ? QFileInfo(path).size() : 0;
}

QList<QByteArray> keysOf(const QList<HolderInterval>& intervals)
{
    QList<QByteArray> keys;
    for (const HolderInterval& i : intervals)
        keys << i.key;
    return keys;
}

} // namespace

class TestLockJournal : public QObject
{
    Q_OBJECT

    LocalCluster m_cluster;
    QTemporaryDir m_dir;

    JournalOptions optionsAt(const QString& name) const
    {
        JournalOptions o;
        o.path = m_dir.filePath(name);
        o.source = QStringLiteral("test");
        o.flushIntervalMs = 50;
        o.retryIntervalMs = 200;
        o.busyTimeoutMs = 300;
        return o;
    }

    // An inspector on its own thread that hands its events to the journal and to a spy.
    struct Watch
    {
        IoThread io{QStringLiteral("test-observe")};
        std::shared_ptr<ShiftedClock> clock = std::make_shared<ShiftedClock>(); // the inspector's
        LockInspector* inspector = nullptr;
        std::unique_ptr<QSignalSpy> events;
        QList<LockEvent> all() const
        {
            QList<LockEvent> out;
            for (const auto& args : *events)
                out << args.first().value<QList<LockEvent>>();
            return out;
        }
    };
    std::unique_ptr<Watch> watch(LockJournal* journal)
    {
        auto w = std::make_unique<Watch>();
        InspectorOptions o;
        o.nodes = m_cluster.endpoints();
        o.pattern = "orders:*";
        o.reconcileIntervalMs = 0;
        o.commandTimeoutMs = 3000;
        o.clock = w->clock;
        w->inspector = w->io.create<LockInspector>(o);
        w->events = std::make_unique<QSignalSpy>(w->inspector, &LockInspector::lockEvents);
        // On the inspector's thread, as the console's controller hands them over: record() never waits.
        QObject::connect(
            w->inspector, &LockInspector::lockEvents, w->inspector,
            [journal](const QList<LockEvent>& events) { journal->record(events); }, Qt::DirectConnection);
        QSignalSpy finished(w->inspector, &LockInspector::inspectionFinished);
        QMetaObject::invokeMethod(w->inspector, &LockInspector::start);
        if (!waitForCount(finished, 1, 15000))
            return nullptr;
        return w;
    }

    RedlockClient* client(IoThread& io)
    {
        RedlockOptions o;
        o.nodes = m_cluster.endpoints();
        o.clientName = QStringLiteral("journal-test");
        o.retryCount = 0;
        o.nodeTimeoutMs = 2000;
        return io.create<RedlockClient>(o);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        LocalNodeOptions nodeOptions;
        nodeOptions.notifyKeyspaceEvents = QString::fromLatin1(LockInspector::keyspaceEventFlags());
        QString error;
        QVERIFY2(m_cluster.start(3, nodeOptions, &error), qPrintable(error));
    }

    void init()
    {
        for (const auto& ep : m_cluster.endpoints())
            runCommand(ep, {"FLUSHALL"});
    }

    // The writer gives way to what the operator sees (a first pass of 1M locks is 1M events to write): its thread
    // runs 10 nice levels below the process's threads (Linux), the history queries' thread does not.
    void writerThreadRunsInTheBackground()
    {
#ifndef Q_OS_LINUX
        QSKIP("the thread's nice value is read from /proc (Linux)");
#else
        auto niceOf = [](const QByteArray& name) {
            const QDir tasks(QStringLiteral("/proc/self/task"));
            for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
                if (!comm.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != name)
                    continue;
                QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
                if (!stat.open(QIODevice::ReadOnly))
                    return -100;
                // Field 19 (nice), counted after the command's closing parenthesis (field 2).
                const QByteArray text = stat.readAll();
                const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
                return fields.value(16).toInt();
            }
            return -100;
        };
        const int own = niceOf(QByteArray("TestLockJournal"));
        QVERIFY(own > -100);
        LockJournal journal(optionsAt(QStringLiteral("nice.sqlite")));
        QCOMPARE(niceOf(QByteArray("redlock-journal")), std::min(own + 10, 19));
        QCOMPARE(niceOf(QByteArray("redlock-history")), own);
#endif
    }

    // Acquire, extend, release and expire real locks; the journal gives back who held what, when, for how long.
    // The default journal is in the running application's own data folder: a service embedding the core never
    // writes into the console's.
    void defaultPathIsTheApplicationsOwn()
    {
        const QString organization = QCoreApplication::organizationName();
        const QString application = QCoreApplication::applicationName();
        const auto restore = qScopeGuard([&] {
            QCoreApplication::setOrganizationName(organization);
            QCoreApplication::setApplicationName(application);
        });
        QCoreApplication::setOrganizationName(QStringLiteral("Billing"));
        QCoreApplication::setApplicationName(QStringLiteral("billing-service"));
        const QString path = LockJournal::defaultPath();
        QCOMPARE(path,
                 QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history.sqlite"));
        QVERIFY2(path.contains(QStringLiteral("/Billing/billing-service/")), qPrintable(path));
        QVERIFY2(!path.contains(QStringLiteral("redlock-console")), qPrintable(path));
    }

    void acquireExtendReleaseExpireQueriedBack()
    {
        LockJournal journal(optionsAt(QStringLiteral("real.sqlite")));
        journal.start();
        auto w = watch(&journal);
        QVERIFY(w);
        IoThread clientIo;
        RedlockClient* c = client(clientIo);

        const AcquireResult first = c->acquireAndWait({"orders:12"}, {.ttlMs = 10000});
        QVERIFY2(first.ok, qPrintable(first.error));
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 1, 10000);
        QVERIFY(c->extendAndWait(first.lock, 20000).ok);
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 2, 10000);
        QVERIFY(c->releaseAndWait(first.lock).ok);
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 3, 10000);
        // Acquired, then expired: read long before its TTL could run out, which then runs out while the inspector
        // waits (support/LockExpiry.h).
        const AcquireResult second = c->acquireAndWait({"orders:13"}, {.ttlMs = 60000});
        QVERIFY2(second.ok, qPrintable(second.error));
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 4, 10000);
        QString error;
        QVERIFY2(expireWhileInspectorWaits(w->inspector, *w->clock, m_cluster.endpoints(), "orders:13", 60000, &error),
                 qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 5, 10000);

        const QList<LockEvent> seen = w->all();
        QCOMPARE(seen[0].kind, LockEvent::Kind::Acquired);
        QCOMPARE(seen[1].kind, LockEvent::Kind::Extended);
        QCOMPARE(seen[2].kind, LockEvent::Kind::Released);
        QCOMPARE(seen[3].kind, LockEvent::Kind::Acquired);
        QCOMPARE(seen[4].kind, LockEvent::Kind::Expired);
        QVERIFY(await(journal.flush()));

        HistoryQuery q;
        q.keyPattern = "orders:*";
        const HistoryResult all = await(journal.query(q));
        QVERIFY2(all.error.isEmpty(), qPrintable(all.error));
        QCOMPARE(keysOf(all.intervals), (QList<QByteArray>{"orders:12", "orders:13"}));
        const HolderInterval& held = all.intervals[0];
        QCOMPARE(held.token, first.lock.token);
        QVERIFY2(held.holder.contains(QLatin1String("journal-test")), qPrintable(held.holder));
        QCOMPARE(held.fromMs, seen[0].atMs);
        QCOMPARE(held.toMs, seen[2].atMs);
        QCOMPARE(held.endedBy, QStringLiteral("released"));
        QCOMPARE(held.extensions, 1);
        QCOMPARE(all.intervals[1].endedBy, QStringLiteral("expired"));
        QCOMPARE(all.intervals[1].token, second.lock.token);
        QCOMPARE(all.events.size(), 5);
        QCOMPARE(all.events[1].kind, QStringLiteral("extended"));

        // "Who held orders:12 at this instant, and for how long?"
        q.keyPattern = "orders:12";
        q.sinceMs = q.untilMs = (seen[0].atMs + seen[2].atMs) / 2;
        const HistoryResult at = await(journal.query(q));
        QCOMPARE(at.intervals.size(), 1);
        QCOMPARE(at.intervals[0].durationMs(0), seen[2].atMs - seen[0].atMs);
        q.sinceMs = q.untilMs = seen[2].atMs + 1;
        QCOMPARE(await(journal.query(q)).intervals.size(), 0);
        // The same file read by another connection on this thread, as `redlock history` does.
        q.sinceMs = 0;
        q.untilMs = -1;
        const HistoryResult fromFile = LockJournal::queryFile(journal.path(), q, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(fromFile.intervals.size(), 1);
        QCOMPARE(fromFile.intervals[0].token, first.lock.token);
    }

    // The query side on its own: intervals per key by time, glob and holder; hostile key names byte-exact.
    void queriesByTimeGlobAndHolder()
    {
        auto clock = std::make_shared<SetClock>();
        JournalOptions o = optionsAt(QStringLiteral("query.sqlite"));
        o.clock = clock;
        LockJournal journal(o);
        journal.start();
        const qint64 t = QDateTime(QDate(2026, 11, 23), QTime(14, 0)).toMSecsSinceEpoch();
        const QByteArray hostile("orders:\x1b]0;x\x07\n\x00z", 16);
        journal.record(QList<JournalEvent>{
            journalEvent(t, "orders:12", "acquired", "tokA", QStringLiteral("host-a pid 1 (billing)")),
            journalEvent(t + 120'000, "orders:12", "extended", "tokA"),
            journalEvent(t + 180'000, "orders:12", "token-changed", "tokB", QStringLiteral("host-b pid 2 (billing)")),
            journalEvent(t + 240'000, "orders:12", "released", "tokB"),
            journalEvent(t + 60'000, "orders:13", "acquired", "tokC"),
            journalEvent(t + 300'000, "orders:13", "lost-on-restart", "tokC"),
            journalEvent(t + 10'000, "payments:1", "acquired", "tokD"),
            journalEvent(t + 20'000, hostile, "acquired", "tokE"),
        });
        journal.recordForceRelease("payments:1", "tokD", QStringLiteral("operator alice"), t + 30'000, true);
        // On a minority only: journaled, and the holder's interval goes on.
        journal.record(QList<JournalEvent>{journalEvent(t + 40'000, "minority:1", "acquired", "tokF")});
        journal.recordForceRelease("minority:1", "tokF", QStringLiteral("operator bob"), t + 50'000, false);
        QVERIFY(await(journal.flush()));

        HistoryQuery q;
        q.keyPattern = "orders:12";
        q.sinceMs = q.untilMs = t + 3 * 60'000 + 1; // 14:03
        HistoryResult r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 1);
        QCOMPARE(r.intervals[0].token, QByteArray("tokB"));
        QCOMPARE(r.intervals[0].fromMs, t + 180'000);
        QCOMPARE(r.intervals[0].toMs, t + 240'000);
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("released"));

        q.sinceMs = t;
        q.untilMs = t + 3600'000;
        r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 2);
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("token-changed"));
        QCOMPARE(r.intervals[0].extensions, 1);

        q.keyPattern = "orders:1[3-9]";
        r = await(journal.query(q));
        QCOMPARE(keysOf(r.intervals), (QList<QByteArray>{"orders:13"}));
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("lost-on-restart"));

        q.keyPattern = "*";
        q.holder = QStringLiteral("HOST-B");
        r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 1);
        QCOMPARE(r.intervals[0].token, QByteArray("tokB"));

        q.holder.clear();
        q.keyPattern = "payments:*";
        r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 1);
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("force-released"));
        QCOMPARE(r.intervals[0].toMs, t + 30'000);

        q.keyPattern = "minority:1";
        r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 1);
        QVERIFY(r.intervals[0].isOpen());
        QCOMPARE(r.events.size(), 2);
        QCOMPARE(r.events[1].kind, QStringLiteral("force-released-minority"));

        q.keyPattern = "orders:\x1b*";
        r = await(journal.query(q));
        QCOMPARE(keysOf(r.intervals), (QList<QByteArray>{hostile}));
        QCOMPARE(r.intervals[0].toMs, -1); // still held
        q.limit = 1;
        q.keyPattern = "*";
        QVERIFY(await(journal.query(q)).truncated);
    }

    // A lock already held when watching starts is journaled as seen held, and its interval says "at least since"
    // the first sight: never an acquisition at that time. One acquired while watched is not marked.
    void lockHeldBeforeWatchingIsSeenHeldAtLeastSince()
    {
        IoThread clientIo;
        RedlockClient* c = client(clientIo);
        const AcquireResult before = c->acquireAndWait({"orders:12"}, {.ttlMs = 30000});
        QVERIFY2(before.ok, qPrintable(before.error));

        LockJournal journal(optionsAt(QStringLiteral("seen-held.sqlite")));
        journal.start();
        auto w = watch(&journal);
        QVERIFY(w);
        // The baseline's holder, before anything else: seen held, not acquired.
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 1, 10000);
        const LockEvent seen = w->all().first();
        QCOMPARE(seen.kind, LockEvent::Kind::SeenHeld);
        QCOMPARE(seen.key, QByteArray("orders:12"));
        QCOMPARE(seen.token, before.lock.token);
        QCOMPARE(lockEventKindId(seen.kind), QStringLiteral("seen-held"));

        const AcquireResult after = c->acquireAndWait({"orders:13"}, {.ttlMs = 30000});
        QVERIFY2(after.ok, qPrintable(after.error));
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 2, 10000);
        QCOMPARE(w->all()[1].kind, LockEvent::Kind::Acquired);
        QVERIFY(await(journal.flush()));

        HistoryQuery q;
        q.keyPattern = "orders:*";
        HistoryResult r = await(journal.query(q));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(keysOf(r.intervals), (QList<QByteArray>{"orders:12", "orders:13"}));
        QVERIFY(r.intervals[0].atLeastSince);
        QCOMPARE(r.intervals[0].fromMs, seen.atMs);
        QVERIFY(r.intervals[0].isOpen());
        QCOMPARE(r.intervals[0].token, before.lock.token);
        QVERIFY(!r.intervals[1].atLeastSince);
        QCOMPARE(r.events.first().kind, QStringLiteral("seen-held"));

        // Released while watched: the end is known, the start stays unknown.
        QVERIFY(c->releaseAndWait(before.lock).ok);
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 3, 10000);
        QCOMPARE(w->all()[2].kind, LockEvent::Kind::Released);
        QVERIFY(await(journal.flush()));
        q.keyPattern = "orders:12";
        r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 1);
        QVERIFY(r.intervals[0].atLeastSince);
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("released"));
        QCOMPARE(r.intervals[0].toMs, w->all()[2].atMs);
        // `redlock history` reads the flag from the file too.
        const HistoryResult fromFile = LockJournal::queryFile(journal.path(), q, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(fromFile.intervals.size(), 1);
        QVERIFY(fromFile.intervals[0].atLeastSince);
    }

    // Watching stops and starts again on the same journal. The holder seen again is the same tenure: its interval
    // goes on (no release and acquire, no second interval). A holder that changed while nobody watched ends the
    // old interval as "ended-unwatched" at the last instant it was seen held, never as released.
    void restartContinuesSameHolderAndEndsChangedHolderUnwatched()
    {
        const QString name = QStringLiteral("restart.sqlite");
        IoThread clientIo;
        RedlockClient* c = client(clientIo);
        qint64 acquiredAt = 0, firstStopAt = 0;
        AcquireResult kept, replaced;
        {
            LockJournal journal(optionsAt(name));
            journal.start();
            auto w = watch(&journal);
            QVERIFY(w);
            kept = c->acquireAndWait({"orders:20"}, {.ttlMs = 60000});
            replaced = c->acquireAndWait({"orders:21"}, {.ttlMs = 60000});
            QVERIFY(kept.ok && replaced.ok);
            QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 2, 10000);
            for (const LockEvent& e : w->all())
                QCOMPARE(e.kind, LockEvent::Kind::Acquired);
            acquiredAt = w->all().first().key == "orders:20" ? w->all()[0].atMs : w->all()[1].atMs;
            w.reset(); // watching stops; then the journal (its session ends with both held)
        }
        firstStopAt = QDateTime::currentMSecsSinceEpoch();
        // While nobody watches: orders:21 changes hands.
        QVERIFY(c->releaseAndWait(replaced.lock).ok);
        const AcquireResult newcomer = c->acquireAndWait({"orders:21"}, {.ttlMs = 60000});
        QVERIFY(newcomer.ok);
        QTest::qWait(50);

        LockJournal journal(optionsAt(name));
        journal.start();
        auto w = watch(&journal);
        QVERIFY(w);
        QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 2, 10000);
        qint64 seenAgainAt = 0;
        for (const LockEvent& e : w->all()) {
            QCOMPARE(e.kind, LockEvent::Kind::SeenHeld);
            seenAgainAt = std::max(seenAgainAt, e.atMs);
        }
        QVERIFY(await(journal.flush()));

        HistoryQuery q;
        q.keyPattern = "orders:20";
        HistoryResult r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 1); // one tenure, from its acquisition, still going
        QCOMPARE(r.intervals[0].token, kept.lock.token);
        QCOMPARE(r.intervals[0].fromMs, acquiredAt);
        QVERIFY(!r.intervals[0].atLeastSince);
        QVERIFY(r.intervals[0].isOpen());
        QStringList kinds;
        for (const JournalEvent& e : r.events)
            kinds << e.kind;
        QCOMPARE(kinds, (QStringList{QStringLiteral("acquired"), QStringLiteral("seen-held")}));

        q.keyPattern = "orders:21";
        r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 2);
        const HolderInterval& old = r.intervals[0];
        QCOMPARE(old.token, replaced.lock.token);
        QCOMPARE(old.endedBy, QStringLiteral("ended-unwatched"));
        QVERIFY2(old.toMs <= firstStopAt, qPrintable(QString::number(old.toMs - firstStopAt)));
        QVERIFY(old.toMs < seenAgainAt);
        const HolderInterval& now = r.intervals[1];
        QCOMPARE(now.token, newcomer.lock.token);
        QVERIFY(now.atLeastSince);
        QVERIFY(now.isOpen());
        for (const JournalEvent& e : r.events)
            QVERIFY2(e.kind != u"released", "a release nobody saw is not journaled");

        // Watching stops again: the open intervals end with the observation, once each.
        w.reset();
    }

    // The writer before died (its session was never ended, its intervals are still open): the next one's first
    // sight continues the same holder's interval and ends another holder's at the dead writer's last write.
    void restartAfterAWriterDied()
    {
        auto clock = std::make_shared<SetClock>();
        JournalOptions o = optionsAt(QStringLiteral("died.sqlite"));
        o.clock = clock;
        const qint64 t = clock->nowMs() - 600'000;
        {
            LockJournal first(o);
            first.start();
            clock->now = t;
            first.record(QList<JournalEvent>{journalEvent(t, "jobs:a", "acquired", "tokA"),
                                             journalEvent(t + 1000, "jobs:b", "seen-held", "tokB"),
                                             journalEvent(t + 2000, "jobs:c", "acquired", "tokD")});
            clock->now = t + 5000; // its last write
            QVERIFY(await(first.flush()));
        }
        // As if it had been killed: its session not ended, its intervals open.
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("died"));
            db.setDatabaseName(o.path);
            QVERIFY(db.open());
            QSqlQuery sql(db);
            QVERIFY(sql.exec(QStringLiteral("UPDATE intervals SET to_ms = NULL, ended = NULL")));
            QVERIFY(sql.exec(QStringLiteral("UPDATE sessions SET ended_ms = NULL, last_ms = %1").arg(t + 5000)));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("died"));

        clock->now = t + 60'000; // within the time a silent writer still counts as alive
        LockJournal second(o);
        second.start();
        second.record(QList<JournalEvent>{journalEvent(t + 60'000, "jobs:a", "seen-held", "tokA"),
                                          journalEvent(t + 60'000, "jobs:b", "seen-held", "tokC")});
        QVERIFY(await(second.flush()));
        HistoryQuery q;
        q.keyPattern = "jobs:*";
        q.sinceMs = t - 1000;
        const HistoryResult r = await(second.query(q));
        QCOMPARE(r.intervals.size(), 4);
        QCOMPARE(r.intervals[0].key, QByteArray("jobs:a"));
        QCOMPARE(r.intervals[0].fromMs, t);
        QVERIFY(!r.intervals[0].atLeastSince);
        QVERIFY(r.intervals[0].isOpen());
        QCOMPARE(r.intervals[1].token, QByteArray("tokB"));
        QVERIFY(r.intervals[1].atLeastSince);
        QCOMPARE(r.intervals[1].endedBy, QStringLiteral("ended-unwatched"));
        QCOMPARE(r.intervals[1].toMs, t + 5000);
        QCOMPARE(r.intervals[2].token, QByteArray("tokC"));
        QVERIFY(r.intervals[2].atLeastSince);
        QCOMPARE(r.intervals[2].fromMs, t + 60'000);
        QVERIFY(r.intervals[2].isOpen());
        // Released while nobody watched, not seen by the next writer: its tenure ends where the dead writer last
        // saw it, as soon as the next writer starts (the writer lock proves the first one dead), never still held.
        QCOMPARE(r.intervals[3].token, QByteArray("tokD"));
        QCOMPARE(r.intervals[3].endedBy, QStringLiteral("unobserved"));
        QCOMPARE(r.intervals[3].toMs, t + 5000);
        // The time nobody watched: from the dead writer's last write to the next one's start; the running writer
        // leaves none after it.
        QCOMPARE(r.unwatched.size(), 1);
        QCOMPARE(r.unwatched[0].fromMs, t + 5000);
        QCOMPARE(r.unwatched[0].toMs, t + 60'000);
        QCOMPARE(r.unwatched[0].before, o.source);
    }

    // A release (or expiry, or loss) told of another token than the one whose tenure is open closes nothing: one
    // holder's event never ends another's interval.
    void eventOfAnotherTokenKeepsTheOpenTenure()
    {
        auto clock = std::make_shared<SetClock>();
        JournalOptions o = optionsAt(QStringLiteral("other-token.sqlite"));
        o.clock = clock;
        LockJournal journal(o);
        journal.start();
        const qint64 t = clock->nowMs() - 60'000;
        journal.record(QList<JournalEvent>{
            journalEvent(t, "jobs:x", "acquired", "tokA"), journalEvent(t + 1000, "jobs:x", "released", "tokB"),
            journalEvent(t + 2000, "jobs:x", "expired", "tokC"),
            journalEvent(t + 3000, "jobs:x", "lost-on-restart", "tokD"),
            journalEvent(t + 4000, "jobs:y", "acquired", "tokE"), journalEvent(t + 5000, "jobs:y", "expired", "tokE")});
        QVERIFY(await(journal.flush()));
        HistoryQuery q;
        q.keyPattern = "jobs:*";
        q.sinceMs = t - 1000;
        const HistoryResult r = await(journal.query(q));
        QCOMPARE(r.intervals.size(), 2);
        QCOMPARE(r.intervals[0].token, QByteArray("tokA"));
        QVERIFY2(r.intervals[0].isOpen(), qPrintable(r.intervals[0].endedBy));
        QCOMPARE(r.intervals[1].token, QByteArray("tokE")); // its own expiry does close it
        QCOMPARE(r.intervals[1].endedBy, QStringLiteral("expired"));
        QCOMPARE(r.intervals[1].toMs, t + 5000);
        QCOMPARE(r.events.size(), 6); // every event is journaled all the same
    }

    // An end nobody saw (keyspace events off): the tenure is held at least until the last read that saw it and
    // ended by the read that found it gone, both kept; never closed at a made-up instant. A holder that took over
    // between two reads holds it "at least since" it was found.
    void endNobodySawIsKeptBetweenTwoReads()
    {
        auto clock = std::make_shared<SetClock>();
        JournalOptions o = optionsAt(QStringLiteral("unobserved-end.sqlite"));
        o.clock = clock;
        LockJournal journal(o);
        journal.start();
        const qint64 t = clock->nowMs() - 60'000;
        JournalEvent ended = journalEvent(t + 5000, "jobs:n2", "released-or-expired", "tokA");
        ended.lastSeenHeldMs = t + 100;
        JournalEvent changed = journalEvent(t + 9000, "jobs:n2", "token-changed", "tokC");
        changed.previousToken = "tokB";
        changed.lastSeenHeldMs = t + 8000;
        journal.record(QList<JournalEvent>{journalEvent(t, "jobs:n2", "acquired", "tokA"), ended,
                                           journalEvent(t + 6000, "jobs:n2", "acquired", "tokB"), changed});
        QVERIFY(await(journal.flush()));
        HistoryQuery q;
        q.keyPattern = "jobs:*";
        q.sinceMs = t - 1000;
        for (const HistoryResult& r :
             {await(journal.query(q)), LockJournal::queryFile(journal.path(), q, clock->nowMs())}) {
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QCOMPARE(r.intervals.size(), 3);
            const HolderInterval& a = r.intervals[0];
            QCOMPARE(a.endedBy, QStringLiteral("released-or-expired"));
            QCOMPARE(a.toMs, t + 100);
            QCOMPARE(a.goneByMs, t + 5000);
            const HolderInterval& b = r.intervals[1];
            QCOMPARE(b.endedBy, QStringLiteral("token-changed"));
            QCOMPARE(b.toMs, t + 8000);
            QCOMPARE(b.goneByMs, t + 9000);
            const HolderInterval& c = r.intervals[2];
            QCOMPARE(c.token, QByteArray("tokC"));
            QVERIFY(c.atLeastSince);
            QVERIFY(c.isOpen());
            QCOMPARE(c.goneByMs, -1);
            QCOMPARE(r.events.size(), 4);
            QCOMPARE(r.events[1].lastSeenHeldMs, t + 100);
            QCOMPARE(r.events[0].lastSeenHeldMs, 0);
        }
        QCOMPARE(journalKindName(QStringLiteral("released-or-expired")),
                 lockEventKindName(LockEvent::Kind::ReleasedOrExpired));
    }

    // A journal written before ends nobody saw existed (no last_seen_held_ms, no gone_by_ms) is read as it is
    // (`redlock history` opens it read-only: its ends are all seen ones), and a writer adds the columns and goes on.
    void journalFromBeforeUnobservedEndsIsReadAndExtended()
    {
        const QString path = m_dir.filePath(QStringLiteral("old-format.sqlite"));
        const qint64 t = QDateTime::currentMSecsSinceEpoch() - 60'000;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old-format"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery s(db);
            for (const QString& sql :
                 {QStringLiteral("CREATE TABLE sessions(id INTEGER PRIMARY KEY, source TEXT, pid INTEGER, started_ms "
                                 "INTEGER NOT NULL, last_ms INTEGER NOT NULL, ended_ms INTEGER)"),
                  QStringLiteral("CREATE TABLE events(id INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, key BLOB NOT "
                                 "NULL, kind TEXT NOT NULL, token BLOB, previous_token BLOB, holder TEXT, detail TEXT, "
                                 "session INTEGER)"),
                  QStringLiteral("CREATE TABLE intervals(id INTEGER PRIMARY KEY, key BLOB NOT NULL, token BLOB NOT "
                                 "NULL, holder TEXT, from_ms INTEGER NOT NULL, to_ms INTEGER, ended TEXT, extensions "
                                 "INTEGER NOT NULL DEFAULT 0, session INTEGER NOT NULL, at_least_since INTEGER NOT "
                                 "NULL DEFAULT 0)"),
                  QStringLiteral("INSERT INTO sessions VALUES(1, 'console', 1, %1, %2, %2)").arg(t).arg(t + 2000),
                  QStringLiteral("INSERT INTO events(at_ms, key, kind, token, holder, session) VALUES(%1, "
                                 "'old:1', 'expired', 'tokOld', 'tokOld', 1)")
                      .arg(t + 1000),
                  QStringLiteral("INSERT INTO intervals(key, token, holder, from_ms, to_ms, ended, session) "
                                 "VALUES('old:1', 'tokOld', 'tokOld', %1, %2, 'expired', 1)")
                      .arg(t)
                      .arg(t + 1000)})
                QVERIFY2(s.exec(sql), qPrintable(s.lastError().text()));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("old-format"));
        HistoryQuery q;
        q.sinceMs = t - 1000;
        const HistoryResult old = LockJournal::queryFile(path, q, QDateTime::currentMSecsSinceEpoch());
        QVERIFY2(old.error.isEmpty(), qPrintable(old.error));
        QCOMPARE(old.intervals.size(), 1);
        QCOMPARE(old.intervals[0].endedBy, QStringLiteral("expired"));
        QCOMPARE(old.intervals[0].toMs, t + 1000);
        QCOMPARE(old.intervals[0].goneByMs, -1);
        QCOMPARE(old.events.size(), 1);
        QCOMPARE(old.events[0].lastSeenHeldMs, 0);

        JournalOptions o = optionsAt(QStringLiteral("old-format.sqlite"));
        LockJournal journal(o);
        journal.start();
        JournalEvent ended = journalEvent(t + 5000, "old:2", "released-or-expired", "tokNew");
        ended.lastSeenHeldMs = t + 4000;
        journal.record(QList<JournalEvent>{journalEvent(t + 3000, "old:2", "acquired", "tokNew"), ended});
        QVERIFY(await(journal.flush()));
        const HistoryResult both = LockJournal::queryFile(path, q, QDateTime::currentMSecsSinceEpoch());
        QVERIFY2(both.error.isEmpty(), qPrintable(both.error));
        QCOMPARE(keysOf(both.intervals), (QList<QByteArray>{"old:1", "old:2"}));
        QCOMPARE(both.intervals[0].goneByMs, -1);
        QCOMPARE(both.intervals[1].toMs, t + 4000);
        QCOMPARE(both.intervals[1].goneByMs, t + 5000);
        QCOMPARE(both.events.size(), 3);
    }

    // Retries (and the heartbeat) are timed on the monotonic clock: a wall clock set back by an hour while the
    // file is locked does not stop the journal from writing again once the lock goes.
    void retryIsTimedOnTheMonotonicClock()
    {
        auto clock = std::make_shared<SetClock>();
        JournalOptions o = optionsAt(QStringLiteral("clock-jump.sqlite"));
        o.clock = clock;
        LockJournal journal(o);
        QSignalSpy problems(&journal, &LockJournal::problem);
        QSignalSpy recovered(&journal, &LockJournal::recovered);
        journal.start();
        QVERIFY(await(journal.flush()));
        {
            QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("jump"));
            other.setDatabaseName(o.path);
            QVERIFY(other.open());
            QSqlQuery hold(other);
            QVERIFY2(hold.exec(QStringLiteral("BEGIN EXCLUSIVE")), qPrintable(hold.lastError().text()));
            QVERIFY(hold.exec(QStringLiteral("INSERT INTO sessions(source, started_ms, last_ms) VALUES('x', 0, 0)")));
            journal.record(QList<JournalEvent>{journalEvent(clock->nowMs(), "orders:1", "acquired", "a")});
            QVERIFY(waitForCount(problems, 1, 10000));
            clock->now = clock->nowMs() - 3600'000; // NTP, or the operator, sets the clock back
            QVERIFY(hold.exec(QStringLiteral("ROLLBACK")));
            hold = QSqlQuery();
            other.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("jump"));
        // Retried every 200 ms of real time, whatever the wall clock says.
        QVERIFY(waitForCount(recovered, 1, 5000));
        QCOMPARE(journal.status().pending, 0);
        QCOMPARE(journal.status().written, 1);
    }

    // The holder as the console and the CLI show it: a summary decodeHolder made as it is (escaped once), the
    // token escaped when there is none, and a holder column that still holds a control character (a journal
    // another tool wrote) escaped, never passed to a terminal.
    void holderDisplayTextEscapesOnce()
    {
        const QString decoded = decodeHolder("k", "evil\x1b]0;x\\").summary;
        QCOMPARE(decoded, QStringLiteral("evil\\x1b]0;x\\x5c"));
        QCOMPARE(holderDisplayText(decoded, "tok"), decoded);
        QCOMPARE(holderDisplayText(QString(), "tok\x07"), QStringLiteral("tok\\x07"));
        const QString hostile = holderDisplayText(QStringLiteral("host\x1b[2J\x07"), "tok");
        QVERIFY2(!hostile.contains(QChar(0x1b)) && !hostile.contains(QChar(0x07)), qPrintable(hostile));
        QCOMPARE(hostile, QStringLiteral("host\\x1b[2J\\x07"));
        QCOMPARE(holderDisplayText(QString(300, QLatin1Char('a')), "tok", 10), QString(10, QLatin1Char('a')) + u'…');
    }

    void parsesTimes()
    {
        const qint64 now = QDateTime(QDate(2026, 11, 23), QTime(15, 0), Qt::UTC).toMSecsSinceEpoch();
        QCOMPARE(parseHistoryTime(QStringLiteral("-1h"), now), now - 3600'000);
        QCOMPARE(parseHistoryTime(QStringLiteral("-30m"), now), now - 1800'000);
        QCOMPARE(parseHistoryTime(QStringLiteral("2d ago"), now), now - 2 * 86400'000);
        QCOMPARE(parseHistoryTime(QStringLiteral("now"), now), now);
        QCOMPARE(parseHistoryTime(QStringLiteral("2026-11-23T14:03:00Z"), now), now - 57 * 60'000);
        QCOMPARE(parseHistoryTime(QStringLiteral("2026-11-23 14:03:00+00:00"), now), now - 57 * 60'000);
        QCOMPARE(parseHistoryTime(QStringLiteral("2026-11-23T14:03"), now),
                 QDateTime(QDate(2026, 11, 23), QTime(14, 3)).toMSecsSinceEpoch()); // local time
        QVERIFY(!parseHistoryTime(QStringLiteral("yesterday"), now));
        QVERIFY(!parseHistoryTime(QStringLiteral("-1y"), now));
        QCOMPARE(parseHistoryTime(QStringLiteral("-1.5h"), now), now - 5400'000);
        QCOMPARE(parseHistoryTime(QStringLiteral("-5000w"), now), now - 5000 * 7 * 86400'000LL);
        // Beyond what a qint64 of ms holds (or any journal could): refused, never wrapped around.
        for (const char* huge : {"-99999999999999999999w", "99999999999999999999w ago", "-999999999999999h"}) {
            QString error;
            QVERIFY2(!parseHistoryTime(QLatin1String(huge), now, &error), huge);
            QVERIFY2(error.contains(QLatin1String("out of range")) && error.contains(QLatin1String(huge)),
                     qPrintable(error));
        }
        QString error = QStringLiteral("stale");
        QVERIFY(!parseHistoryTime(QStringLiteral("yesterday"), now, &error));
        QVERIFY(error.isEmpty()); // no time at all: no range to tell of
    }

    // Retention: by age, then by size (the oldest go first), and the file shrinks.
    void retentionByAgeAndSize()
    {
        auto clock = std::make_shared<SetClock>();
        JournalOptions o = optionsAt(QStringLiteral("retention.sqlite"));
        o.clock = clock;
        o.retainMs = 7 * 86400'000LL;
        o.retainBytes = 256 * 1024;
        LockJournal journal(o);
        journal.start();
        const qint64 now = clock->nowMs();
        journal.record(QList<JournalEvent>{journalEvent(now - 8 * 86400'000LL, "old:1", "acquired", "a"),
                                           journalEvent(now - 8 * 86400'000LL + 1000, "old:1", "released", "a"),
                                           journalEvent(now - 86400'000LL, "recent:1", "acquired", "b"),
                                           journalEvent(now - 86400'000LL + 1000, "recent:1", "released", "b")});
        QVERIFY(await(journal.flush()));
        QVERIFY(await(journal.prune()) >= 2);
        HistoryQuery all;
        all.keyPattern = "*";
        QCOMPARE(keysOf(await(journal.query(all)).intervals), (QList<QByteArray>{"recent:1"}));

        // About 3 MB of tenures, one per minute over the last week: the oldest go until 256 KiB are left.
        QList<JournalEvent> many;
        const QByteArray pad(600, 'k');
        for (int i = 0; i < 5000; ++i) {
            const qint64 at = now - 6 * 86400'000LL + qint64(i) * 60'000;
            const QByteArray key = "size:" + QByteArray::number(i).rightJustified(5, '0') + ":" + pad;
            const QByteArray token = "t" + QByteArray::number(i);
            many << journalEvent(at, key, "acquired", token) << journalEvent(at + 500, key, "released", token);
        }
        journal.record(many);
        QVERIFY(await(journal.flush()));
        // Retention ran as the batches were written (retentionKeepsTheSizeWhileWriting); by hand it finds the
        // same target met.
        QVERIFY(journal.status().pruned > 2);
        QVERIFY(await(journal.prune()) >= 0);
        const qint64 fileBytes = QFileInfo(journal.path()).size();
        QVERIFY2(fileBytes <= o.retainBytes + 64 * 1024, qPrintable(QString::number(fileBytes)));
        all.keyPattern = "size:*";
        const HistoryResult left = await(journal.query(all));
        QVERIFY(!left.intervals.isEmpty());
        QVERIFY(left.intervals.size() < 5000);
        QVERIFY(left.intervals.last().key.startsWith("size:04999:")); // the newest stay
        QVERIFY(!left.intervals.first().key.startsWith("size:00000:"));
    }

    // Hostile N6: every lock token is in the journal, and a token is the capability to release its lock. A new
    // journal, its SQLite side files and the folders made for it are its owner's only, whatever the umask; one an
    // older version left world-readable is made private when next opened for writing; one shared with a group
    // only (0640) was shared on purpose and stays so.
    void journalIsReadableByItsOwnerOnly()
    {
        const mode_t umaskBefore = ::umask(022);
        const auto restoreUmask = qScopeGuard([umaskBefore] { ::umask(umaskBefore); });
        const JournalOptions o = optionsAt(QStringLiteral("private/new/history.sqlite"));
        {
            LockJournal journal(o);
            journal.start();
            journal.record(QList<JournalEvent>{journalEvent(1000, "orders:1", "acquired", "secret-token")});
            QVERIFY(await(journal.flush()));
            QVERIFY(QFileInfo::exists(o.path + QStringLiteral("-wal"))); // while it writes
            QCOMPARE(modeOf(o.path), 0600);
            QCOMPARE(modeOf(o.path + QStringLiteral("-wal")), 0600);
            QCOMPARE(modeOf(o.path + QStringLiteral("-shm")), 0600);
            QCOMPARE(modeOf(m_dir.filePath(QStringLiteral("private/new"))), 0700);
            QCOMPARE(modeOf(m_dir.filePath(QStringLiteral("private"))), 0700);
        }

        QCOMPARE(::chmod(QFile::encodeName(o.path).constData(), 0644), 0);
        {
            QFile wal(o.path + QStringLiteral("-wal")); // an empty WAL, as a writer that died may leave
            QVERIFY(wal.open(QIODevice::WriteOnly));
        }
        QCOMPARE(::chmod(QFile::encodeName(o.path + QStringLiteral("-wal")).constData(), 0666), 0);
        {
            LockJournal journal(o);
            QSignalSpy warnings(&journal, &LockJournal::warning);
            journal.start();
            QVERIFY(await(journal.flush()));
            QCOMPARE(modeOf(o.path), 0600);
            QCOMPARE(modeOf(o.path + QStringLiteral("-wal")), 0600);
            QCOMPARE(warnings.count(), 0);
        }

        QCOMPARE(::chmod(QFile::encodeName(o.path).constData(), 0640), 0);
        {
            LockJournal journal(o);
            journal.start();
            QVERIFY(await(journal.flush()));
            QCOMPARE(modeOf(o.path), 0640);
        }
    }

    // Hostile N9: two writers on one journal closed each other's intervals ("ended while not watched" for a lock
    // watched the whole time). One writer per journal: the second says which process writes it, writes nothing
    // meanwhile (its events wait), and writes once the first has stopped.
    void secondWriterWaitsForTheFirst()
    {
        auto clock = std::make_shared<SetClock>();
        JournalOptions o = optionsAt(QStringLiteral("two-writers.sqlite"));
        o.clock = clock;
        const qint64 t = clock->nowMs() - 60'000;
        auto first = std::make_unique<LockJournal>(o);
        first->start();
        first->record(QList<JournalEvent>{journalEvent(t, "jobs:a", "acquired", "tokA")});
        QVERIFY(await(first->flush()));

        LockJournal second(o);
        QSignalSpy problems(&second, &LockJournal::problem);
        QSignalSpy recovered(&second, &LockJournal::recovered);
        second.start();
        // The second watcher's first sight of the same lock, then the first sees it released.
        second.record(QList<JournalEvent>{journalEvent(t + 1000, "jobs:a", "seen-held", "tokA")});
        QVERIFY(!await(second.flush()));
        first->record(QList<JournalEvent>{journalEvent(t + 2000, "jobs:a", "released", "tokA")});
        QVERIFY(await(first->flush()));
        HistoryQuery q;
        q.keyPattern = "jobs:*";
        q.sinceMs = t - 1000;
        HistoryResult r = await(first->query(q));
        QCOMPARE(r.intervals.size(), 1);
        QCOMPARE(r.intervals[0].fromMs, t);
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("released"));
        QCOMPARE(r.intervals[0].toMs, t + 2000);

        QVERIFY(waitForCount(problems, 1, 10000));
        const QString message = problems.first().first().toString();
        QVERIFY2(message.contains(QLatin1String("writes this journal")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("process %1 ").arg(QCoreApplication::applicationPid())),
                 qPrintable(message));
        QVERIFY(message.contains(o.path));
        QCOMPARE(second.status().pending, 1);

        first.reset(); // the first writer stops: the second writes what waited
        QVERIFY(waitForCount(recovered, 1, 10000));
        QVERIFY(await(second.flush()));
        QCOMPARE(second.status().dropped, 0);
        r = await(second.query(q));
        QVERIFY(!r.intervals.isEmpty());
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("released"));
        for (const HolderInterval& i : r.intervals)
            QVERIFY2(i.endedBy != u"ended-unwatched", qPrintable(i.endedBy));
    }

    // Hostile N15 / U10: `--retain-mb 1` let a journal grow to 40.9 MB, because retention ran only at start and on
    // its 10-minute timer (the tests called prune() by hand). It runs as the journal writes: about 10 MB of
    // tenures written in 40 batches, nothing pruned by hand, and the file (with its -wal) stays near the target.
    void retentionKeepsTheSizeWhileWriting()
    {
        JournalOptions o = optionsAt(QStringLiteral("auto-retention.sqlite"));
        o.retainBytes = 1024 * 1024;
        LockJournal journal(o);
        journal.start();
        const QByteArray pad(100, 'p');
        const qint64 start = QDateTime::currentMSecsSinceEpoch() - 3600'000;
        qint64 largest = 0;
        for (int round = 0; round < 40; ++round) {
            QList<JournalEvent> batch;
            for (int i = 0; i < 250; ++i) {
                const int n = round * 250 + i;
                const QByteArray key = "auto:" + QByteArray::number(n).rightJustified(6, '0') + ":" + pad;
                const QByteArray token = "t" + QByteArray::number(n);
                batch << journalEvent(start + n * 10, key, "acquired", token)
                      << journalEvent(start + n * 10 + 5, key, "released", token);
            }
            journal.record(batch);
            QVERIFY(await(journal.flush()));
            largest = std::max(largest, sizeOf(o.path) + sizeOf(o.path + QStringLiteral("-wal")));
        }
        QVERIFY2(journal.status().written == 20000, qPrintable(QString::number(journal.status().written)));
        QVERIFY2(largest <= 2 * o.retainBytes, qPrintable(QString::number(largest)));
        const qint64 fileBytes = sizeOf(o.path);
        QVERIFY2(fileBytes <= o.retainBytes + 128 * 1024, qPrintable(QString::number(fileBytes)));
        QVERIFY(journal.status().pruned > 0);
        HistoryQuery all;
        all.keyPattern = "auto:*";
        all.sinceMs = start - 1000;
        const HistoryResult left = await(journal.query(all));
        QVERIFY(!left.intervals.isEmpty());
        QVERIFY(left.intervals.last().key.startsWith("auto:009999:")); // the newest stay
        QVERIFY(!left.intervals.first().key.startsWith("auto:000000:"));
        qInfo("largest journal with its -wal while writing: %lld bytes; at the end: %lld (target %lld)", largest,
              fileBytes, o.retainBytes);

        // Locks held now are never pruned: when they alone take more than the target, the journal says so, once.
        QSignalSpy warnings(&journal, &LockJournal::warning);
        QList<JournalEvent> held;
        for (int n = 0; n < 3000; ++n) {
            const QByteArray key = "held:" + QByteArray::number(n).rightJustified(6, '0') + ":" + pad + pad;
            held << journalEvent(start + n, key, "acquired", "h" + QByteArray::number(n));
        }
        journal.record(held);
        QVERIFY(await(journal.flush()));
        journal.record(held.mid(0, 10));
        QVERIFY(await(journal.flush()));
        QCOMPARE(warnings.count(), 1);
        const QString warning = warnings.first().first().toString();
        QVERIFY2(warning.contains(QLatin1String("beyond its size target of 1.0 MiB")), qPrintable(warning));
        all.keyPattern = "held:*";
        QCOMPARE(await(journal.query(all)).intervals.size(), 3000); // all still open, none pruned
    }

    // `redlock history --journal fifo` (or `<(...)`) waited forever for a writer to the FIFO; a folder gave "disk
    // I/O error". Neither a reader nor a writer opens what is not a regular file, and both say what it is.
    void pathThatIsNoFileIsRefused()
    {
        const QString fifo = m_dir.filePath(QStringLiteral("journal.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        std::promise<HistoryResult> queried;
        std::future<HistoryResult> result = queried.get_future();
        std::thread reader([&queried, fifo] {
            queried.set_value(LockJournal::queryFile(fifo, HistoryQuery{}, QDateTime::currentMSecsSinceEpoch()));
        });
        const auto joinReader = qScopeGuard([&reader] { reader.join(); });
        // Before the join, whatever happens: a writer end lets an open() blocked on the FIFO return.
        const auto unblock = qScopeGuard([fifo] {
            const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) {
                const QByteArray garbage(4096, 'x');
                const bool wrote = ::write(fd, garbage.constData(), size_t(garbage.size())) > 0;
                Q_UNUSED(wrote)
                ::close(fd);
            }
        });
        if (result.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
            QFAIL("a query of a FIFO is still waiting after 10 s");
        const QString readError = result.get().error;
        QVERIFY2(readError.contains(QLatin1String("not a regular file (a FIFO)")), qPrintable(readError));
        QVERIFY(readError.contains(fifo));

        for (const QString& path : {fifo, m_dir.path()}) {
            JournalOptions o = optionsAt(QString());
            o.path = path;
            LockJournal writer(o);
            QSignalSpy problems(&writer, &LockJournal::problem);
            writer.start();
            QVERIFY(waitForCount(problems, 1, 10000));
            const QString message = problems.first().first().toString();
            QVERIFY2(message.contains(QLatin1String("not a regular file")), qPrintable(message));
            QVERIFY(message.contains(path == fifo ? QLatin1String("(a FIFO)") : QLatin1String("(a folder)")));
        }
        const QString folderError = LockJournal::queryFile(m_dir.path(), HistoryQuery{}, 0).error;
        QVERIFY2(folderError.contains(QLatin1String("not a regular file (a folder)")), qPrintable(folderError));
    }

    // A writer that works but is behind (a first pass of 1M locks: 1M "seen held" at once) drops nothing: the cap
    // on what waits is for a file that cannot take the events (below).
    void aWriterBehindDropsNothing()
    {
        JournalOptions o = optionsAt(QStringLiteral("behind.sqlite"));
        o.maxPendingEvents = 3;
        o.flushIntervalMs = 60'000; // nothing is written before the flush below
        LockJournal journal(o);
        journal.start();
        QList<JournalEvent> events;
        for (int i = 0; i < 40; ++i)
            events << journalEvent(1000 + i, "orders:" + QByteArray::number(i), "seen-held", "t");
        journal.record(events);
        QCOMPARE(journal.status().dropped, 0);
        QCOMPARE(journal.status().pending, 40);
        QVERIFY(await(journal.flush()));
        QCOMPARE(journal.status().written, 40);
        QCOMPARE(journal.status().dropped, 0);
        // Beyond 16 times the cap even a working writer lets the oldest go (a producer that outruns it for good).
        events.clear();
        for (int i = 0; i < 50; ++i)
            events << journalEvent(2000 + i, "cache:" + QByteArray::number(i), "seen-held", "t");
        journal.record(events);
        QCOMPARE(journal.status().dropped, 2);
    }

    // Garbage in the file: a clear error, monitoring goes on, events wait (the oldest beyond the cap are
    // dropped and said so), and once the file is usable again what waited is written.
    void corruptFileIsReportedAndMonitoringGoesOn()
    {
        JournalOptions o = optionsAt(QStringLiteral("corrupt.sqlite"));
        o.maxPendingEvents = 3;
        {
            QFile f(o.path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray garbage;
            for (int i = 0; i < 8192; ++i)
                garbage.append(char((i * 7919) % 251));
            f.write(garbage);
        }
        LockJournal journal(o);
        QSignalSpy problems(&journal, &LockJournal::problem);
        QSignalSpy recovered(&journal, &LockJournal::recovered);
        journal.start();
        QVERIFY(waitForCount(problems, 1, 10000));
        QVERIFY2(problems.first().first().toString().contains(QLatin1String("not a SQLite database")),
                 qPrintable(problems.first().first().toString()));
        QVERIFY(problems.first().first().toString().contains(o.path));

        auto w = watch(&journal);
        QVERIFY(w);
        IoThread clientIo;
        RedlockClient* c = client(clientIo);
        // Monitoring goes on: every acquire and release is seen while the journal fails.
        for (int i = 0; i < 3; ++i) {
            const AcquireResult r = c->acquireAndWait({"orders:" + QByteArray::number(i)}, {.ttlMs = 30000});
            QVERIFY2(r.ok, qPrintable(r.error));
            QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 2 * i + 1, 10000);
            QVERIFY(c->releaseAndWait(r.lock).ok);
            QTRY_VERIFY_WITH_TIMEOUT(w->all().size() >= 2 * i + 2, 10000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(journal.status().dropped >= 3, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(problems.last().first().toString().contains(QLatin1String("were dropped")), 5000);
        QVERIFY(journal.status().failing);

        QVERIFY(QFile::remove(o.path)); // the operator moves the damaged file away
        QVERIFY(waitForCount(recovered, 1, 10000));
        QVERIFY2(recovered.first().first().toString().contains(QLatin1String("3 event(s) written late")),
                 qPrintable(recovered.first().first().toString()));
        QVERIFY(recovered.first().first().toString().contains(QLatin1String("dropped")));
        QVERIFY(!journal.status().failing);
        HistoryQuery q;
        q.keyPattern = "orders:*";
        const HistoryResult r = await(journal.query(q));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        // The three newest of the six: orders:1 released, orders:2 acquired and released. Not the oldest three.
        const QList<LockEvent> seen = w->all();
        QCOMPARE(seen.size(), 6);
        QCOMPARE(r.events.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const LockEvent& expected = seen[3 + i];
            QCOMPARE(r.events[i].key, expected.key);
            QCOMPARE(r.events[i].kind, QString::fromLatin1(i % 2 == 0 ? "released" : "acquired"));
            QCOMPARE(r.events[i].token, expected.token);
            QCOMPARE(r.events[i].atMs, expected.atMs);
        }
        QCOMPARE(r.events[0].key, QByteArray("orders:1"));
        QCOMPARE(r.events[1].key, QByteArray("orders:2"));
        QCOMPARE(r.events[2].key, QByteArray("orders:2"));
    }

    // Another connection holds the write lock (BEGIN EXCLUSIVE): after the busy timeout a clear error, the events
    // wait, and when the lock goes everything is written, nothing lost.
    void lockedByAnotherConnection()
    {
        const JournalOptions o = optionsAt(QStringLiteral("locked.sqlite"));
        LockJournal journal(o);
        QSignalSpy problems(&journal, &LockJournal::problem);
        QSignalSpy recovered(&journal, &LockJournal::recovered);
        journal.start();
        journal.record(QList<JournalEvent>{journalEvent(1000, "orders:1", "acquired", "a")});
        QVERIFY(await(journal.flush()));

        {
            QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            other.setDatabaseName(o.path);
            QVERIFY(other.open());
            QSqlQuery hold(other);
            QVERIFY2(hold.exec(QStringLiteral("BEGIN EXCLUSIVE")), qPrintable(hold.lastError().text()));
            QVERIFY(hold.exec(QStringLiteral("INSERT INTO sessions(source, started_ms, last_ms) VALUES('x', 0, 0)")));

            journal.record(QList<JournalEvent>{journalEvent(2000, "orders:1", "released", "a"),
                                               journalEvent(3000, "orders:2", "acquired", "b")});
            QVERIFY(waitForCount(problems, 1, 10000));
            const QString message = problems.first().first().toString();
            QVERIFY2(message.contains(QLatin1String("locked by another process")), qPrintable(message));
            QVERIFY2(message.contains(QLatin1String("2 event(s) wait in memory")), qPrintable(message));
            QVERIFY(journal.status().failing);
            QCOMPARE(journal.status().pending, 2);

            QVERIFY(hold.exec(QStringLiteral("ROLLBACK")));
            hold = QSqlQuery();
            other.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        QVERIFY(waitForCount(recovered, 1, 10000));
        QVERIFY2(recovered.first().first().toString().contains(QLatin1String("none lost")),
                 qPrintable(recovered.first().first().toString()));
        HistoryQuery q;
        q.keyPattern = "orders:*";
        const HistoryResult r = await(journal.query(q));
        QCOMPARE(r.events.size(), 3);
        QCOMPARE(r.intervals.size(), 2);
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("released"));
        QCOMPARE(journal.status().dropped, 0);
    }

    // A full journal: the file capped with SQLite's max_page_count (JournalOptions::sizeLimitBytes) answers
    // SQLITE_FULL exactly as a full disk does. A clear error, the events wait, the overflow is counted.
    void fullJournalIsReported()
    {
        JournalOptions o = optionsAt(QStringLiteral("full.sqlite"));
        o.sizeLimitBytes = 96 * 1024;
        o.maxPendingEvents = 2500;
        LockJournal journal(o);
        QSignalSpy problems(&journal, &LockJournal::problem);
        journal.start();
        QVERIFY(await(journal.flush()));
        QList<JournalEvent> big;
        const QByteArray pad(1000, 'f');
        for (int i = 0; i < 2000; ++i)
            big << journalEvent(1000 + i, "orders:" + QByteArray::number(i) + pad, "acquired", "t");
        journal.record(big);
        QVERIFY(!await(journal.flush()));
        QVERIFY(waitForCount(problems, 1, 10000));
        const QString message = problems.first().first().toString();
        QVERIFY2(message.contains(QLatin1String("disk is full or the journal reached its size limit")),
                 qPrintable(message));
        QCOMPARE(journal.status().pending, 2000);
        QCOMPARE(journal.status().dropped, 0);
        journal.record(big.mid(0, 1000));
        QCOMPARE(journal.status().dropped, 500);
        QTRY_VERIFY_WITH_TIMEOUT(
            problems.last().first().toString().contains(QLatin1String("500 event(s) were dropped")), 5000);
        QVERIFY(QFileInfo(o.path).size() <= o.sizeLimitBytes);
    }
};

QTEST_GUILESS_MAIN(TestLockJournal)
#include "TestLockJournal.moc"
