// The lock history view (ui/history: HistoryFeature, HistoryPanel, HistoryTimeline, HistoryModel) on a
// real main window, fed by a ClusterController watching real redis-servers: locks taken and released show up
// as intervals; a journal that cannot be written is said in the event log and on the panel.
#include "controller/ClusterController.h"
#include "controller/OperatorActions.h"
#include "history/HistoryFeature.h"
#include "history/HistoryModel.h"
#include "history/HistoryPanel.h"
#include "history/HistoryTimeline.h"
#include "history/LockJournal.h"
#include "localcluster/LocalCluster.h"
#include "models/EventLogModel.h"
#include "models/LocksModel.h"
#include "observe/LockInspector.h"
#include "redlock/RedlockClient.h"
#include "runtime/IoThread.h"
#include "support/DirectRedis.h"
#include "support/ObservationTestSupport.h"
#include "support/TestSupport.h"
#include "views/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

class TestHistoryView : public QObject
{
    Q_OBJECT

    LocalCluster m_cluster;
    QTemporaryDir m_dir;

    JournalOptions journalAt(const QString& name) const
    {
        JournalOptions o;
        o.path = m_dir.filePath(name);
        o.flushIntervalMs = 50;
        o.retryIntervalMs = 200;
        return o;
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

    void largeFirstPassReachesTheListenersInSlices_data()
    {
        QTest::addColumn<bool>("stopAtTheFirstRows");
        QTest::newRow("watching") << false;
        QTest::newRow("stopped at the first rows") << true;
    }

    // A first pass that finds thousands of held locks: their "seen held" events reach the listeners (the event
    // log, the journal) in slices of at most ClusterController::kLockEventSlice, one long turn no more. All
    // of them, once each, and all journaled; a watch stopped while the pass's chunks are still coming hands the rest of
    // them on first.
    void largeFirstPassReachesTheListenersInSlices()
    {
        QFETCH(bool, stopAtTheFirstRows);
        constexpr int kLocks = 20000;
        QList<QList<QByteArray>> writes, deletes;
        for (int i = 0; i < kLocks; ++i) {
            const QByteArray key = "bulk:" + QByteArray::number(i);
            writes.append({"SET", key, "holder-" + QByteArray::number(i), "PX", "600000"});
            deletes.append({"DEL", key});
        }
        for (const NodeEndpoint& endpoint : m_cluster.endpoints()) {
            const QList<RedisReply> replies = runCommands(endpoint, writes, 30000);
            QVERIFY(replies.size() == kLocks && replies.last().isString());
        }
        auto cleanup = qScopeGuard([&] {
            for (const NodeEndpoint& endpoint : m_cluster.endpoints())
                runCommands(endpoint, deletes, 30000);
        });
        ClusterController controller;
        MainWindow window(&controller);
        HistoryFeature history(&controller, &window, nullptr, journalAt(QStringLiteral("bulk.sqlite")));
        ClusterSettings settings;
        settings.nodes = m_cluster.endpoints();
        settings.pattern = "bulk:*";
        QSignalSpy events(&controller, &ClusterController::lockEvents);
        const auto received = [&events] {
            qsizetype n = 0;
            for (const QList<QVariant>& emission : std::as_const(events))
                n += emission.first().value<QList<LockEvent>>().size();
            return n;
        };
        QSignalSpy stopped(&controller, &ClusterController::stopped);
        // The table comes first: the events reach the listeners once the whole table is there (the first pass
        // comes in chunks; its events wait for the last one's rows).
        qsizetype eventsBeforeTheTable = 0;
        bool stopping = false;
        connect(&controller, &ClusterController::lockEvents, &controller, [&](const QList<LockEvent>& batch) {
            if (stopping)
                return; // handed on at stop: the rest of the pass, whose rows never come
            if (window.locksModel()->rowCount() < kLocks)
                eventsBeforeTheTable += batch.size();
        });
        if (stopAtTheFirstRows) {
            // At the first rows of the pass: its other chunks and all of its events are still to come.
            connect(
                &controller, &ClusterController::locksChanged, &controller,
                [&] {
                    stopping = true;
                    controller.stop();
                },
                Qt::SingleShotConnection);
        }
        QString error;
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        if (stopAtTheFirstRows) {
            QVERIFY(waitForCount(stopped, 1, 30000));
            QVERIFY(window.locksModel()->rowCount() < kLocks); // stopped while the pass was handed over
            QCOMPARE(received(), qsizetype(kLocks));           // none left behind
        }
        QTRY_VERIFY_WITH_TIMEOUT(received() >= kLocks, 30000);
        QCOMPARE(eventsBeforeTheTable, 0);

        QSet<QByteArray> keys;
        qsizetype largest = 0;
        for (const QList<QVariant>& emission : std::as_const(events)) {
            const auto batch = emission.first().value<QList<LockEvent>>();
            largest = std::max(largest, batch.size());
            for (const LockEvent& e : batch) {
                QCOMPARE(e.kind, LockEvent::Kind::SeenHeld);
                keys.insert(e.key);
            }
        }
        QCOMPARE(keys.size(), kLocks);
        QCOMPARE(received(), qsizetype(kLocks)); // once each
        QVERIFY2(largest <= ClusterController::kLockEventSlice, qPrintable(QString::number(largest)));
        QTRY_VERIFY_WITH_TIMEOUT(history.journal()->status().written >= kLocks, 30000);
        controller.stop();
    }

    void liveLocksShowInTheHistoryView()
    {
        ClusterController controller;
        MainWindow window(&controller);
        HistoryFeature history(&controller, &window, nullptr, journalAt(QStringLiteral("live.sqlite")));
        QAbstractItemModelTester tester(history.panel()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        ClusterSettings settings;
        settings.nodes = m_cluster.endpoints();
        settings.pattern = "orders:*";
        QSignalSpy refreshed(&controller, &ClusterController::firstFullRefresh);
        QSignalSpy events(&controller, &ClusterController::lockEvents);
        QString error;
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        QVERIFY(waitForCount(refreshed, 1, 20000));

        IoThread clientIo;
        RedlockOptions clientOptions;
        clientOptions.nodes = m_cluster.endpoints();
        clientOptions.clientName = QStringLiteral("history-view");
        clientOptions.nodeTimeoutMs = 2000;
        RedlockClient* client = clientIo.create<RedlockClient>(clientOptions);
        const AcquireResult r = client->acquireAndWait({"orders:12"}, {.ttlMs = 30000});
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(waitForCount(events, 1, 10000));
        QVERIFY(client->releaseAndWait(r.lock).ok);
        QVERIFY(waitForCount(events, 2, 10000));
        QTRY_VERIFY_WITH_TIMEOUT(history.journal()->status().written >= 2, 10000);

        // Open the dock from the History menu's action, filter by a glob, search.
        history.toggleAction()->trigger();
        QVERIFY(history.dock()->isVisible());
        auto* key = history.panel()->findChild<QLineEdit*>(QStringLiteral("historyKey"));
        auto* search = history.panel()->findChild<QPushButton*>(QStringLiteral("historySearch"));
        auto* table = history.panel()->findChild<QTableView*>(QStringLiteral("historyTable"));
        QVERIFY(key && search && table);
        key->clear();
        QTest::keyClicks(key, QStringLiteral("orders:1*"));
        QSignalSpy finished(history.panel(), &HistoryPanel::searchFinished);
        QTest::mouseClick(search, Qt::LeftButton);
        QVERIFY(waitForCount(finished, 1, 10000));
        QCOMPARE(table->model()->rowCount(), 1);
        const QAbstractItemModel* m = table->model();
        QCOMPARE(m->index(0, HistoryModel::KeyColumn).data().toString(), QStringLiteral("orders:12"));
        QVERIFY(m->index(0, HistoryModel::HolderColumn).data().toString().contains(QLatin1String("history-view")));
        QCOMPARE(m->index(0, HistoryModel::EndedColumn).data().toString(), QStringLiteral("released"));
        QVERIFY(!m->index(0, HistoryModel::ToColumn).data().toString().isEmpty());

        // The selected key's timeline: one holder, one bar, drawn inside the widget.
        HistoryTimeline* timeline = history.panel()->timeline();
        QCOMPARE(timeline->key(), QByteArray("orders:12"));
        QCOMPARE(timeline->intervalCount(), 1);
        QCOMPARE(timeline->holderRows(), 1);
        timeline->resize(600, 160);
        timeline->grab();
        QVERIFY(timeline->barRect(0).isValid());
        QVERIFY(timeline->rect().contains(timeline->barRect(0)));

        // A key that never was locked: nothing, and the timeline is cleared.
        key->clear();
        QTest::keyClicks(key, QStringLiteral("orders:99"));
        QTest::keyClick(key, Qt::Key_Return);
        QVERIFY(waitForCount(finished, 2, 10000));
        QCOMPARE(table->model()->rowCount(), 0);
        QCOMPARE(timeline->intervalCount(), 0);
        controller.stop();
    }

    // The console reconnects (the controller's watch restarts, as on a profile change): the journal starts a new
    // session, as if the console had been restarted. A holder seen again goes on in one interval; one replaced
    // while the watch was down ends "while not watched", at the last instant it was seen, not when the next holder
    // was seen; one released meanwhile ends with the observation instead of staying open for ever.
    void reconnectStartsANewJournalSession()
    {
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i)).flushAll();
        for (int i = 0; i < m_cluster.size(); ++i) {
            DirectRedis node(m_cluster.port(i));
            node.set("jobs:kept", "tok-kept", 120'000);
            node.set("jobs:swap", "tok-old", 120'000);
            node.set("jobs:gone", "tok-gone", 120'000);
        }
        ClusterController controller;
        MainWindow window(&controller);
        HistoryFeature history(&controller, &window, nullptr, journalAt(QStringLiteral("reconnect.sqlite")));
        ClusterSettings settings;
        settings.nodes = m_cluster.endpoints();
        settings.pattern = "jobs:*";
        QSignalSpy events(&controller, &ClusterController::lockEvents);
        const auto seenHeld = [&] {
            QSet<QByteArray> keys;
            for (const auto& args : std::as_const(events)) {
                for (const LockEvent& e : args.first().value<QList<LockEvent>>()) {
                    if (e.kind == LockEvent::Kind::SeenHeld)
                        keys.insert(e.key);
                }
            }
            return keys;
        };
        QString error;
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(seenHeld().size(), 3, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(history.journal()->status().written >= 3, 10000);

        // The watch goes down; meanwhile jobs:swap changes hands and jobs:gone is released.
        controller.stop();
        const qint64 stoppedAt = QDateTime::currentMSecsSinceEpoch();
        // Whatever the watch sees from now on is dated after stoppedAt, so an interval ended at the next sight of
        // the key (rather than at its last sight before the stop) shows as toMs > stoppedAt.
        QTRY_VERIFY(QDateTime::currentMSecsSinceEpoch() > stoppedAt);
        for (int i = 0; i < m_cluster.size(); ++i) {
            DirectRedis node(m_cluster.port(i));
            node.set("jobs:swap", "tok-new", 120'000);
            node.command({"DEL", "jobs:gone"});
        }
        events.clear();
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(seenHeld().size(), 2, 20000);
        // The history console was connected to lockEvents before the spy: the journal has every event the spy
        // has, and flush() writes them all.
        QVERIFY(history.journal()->flush().result());

        HistoryQuery q;
        q.keyPattern = "jobs:*";
        q.sinceMs = stoppedAt - 600'000;
        const HistoryResult r =
            LockJournal::queryFile(history.journal()->path(), q, QDateTime::currentMSecsSinceEpoch());
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QHash<QByteArray, QList<HolderInterval>> byKey;
        for (const HolderInterval& i : r.intervals)
            byKey[i.key].append(i);
        QCOMPARE(byKey.value("jobs:kept").size(), 1);
        QVERIFY(byKey.value("jobs:kept")[0].isOpen());
        const QList<HolderInterval> swap = byKey.value("jobs:swap");
        QCOMPARE(swap.size(), 2);
        QCOMPARE(swap[0].token, QByteArray("tok-old"));
        QCOMPARE(swap[0].endedBy, QStringLiteral("ended-unwatched"));
        QVERIFY2(swap[0].toMs <= stoppedAt, qPrintable(QString::number(swap[0].toMs - stoppedAt)));
        QCOMPARE(swap[1].token, QByteArray("tok-new"));
        QVERIFY(swap[1].isOpen());
        QVERIFY2(swap[1].fromMs > stoppedAt, qPrintable(QString::number(swap[1].fromMs - stoppedAt)));
        const QList<HolderInterval> gone = byKey.value("jobs:gone");
        QCOMPARE(gone.size(), 1);
        QCOMPARE(gone[0].endedBy, QStringLiteral("unobserved"));
        QVERIFY(gone[0].toMs <= stoppedAt);
        controller.stop();
    }

    // The operator's force release reached only a minority of the nodes (the others did not answer): the holder
    // still has its quorum, so its interval stays open; the release is journaled, as one on a minority. One that
    // released on a quorum ends the tenure as force-released.
    void minorityForceReleaseKeepsTheTenureOpen()
    {
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i)).flushAll();
        ClusterController controller;
        MainWindow window(&controller);
        OperatorActions actions;
        HistoryFeature history(&controller, &window, &actions, journalAt(QStringLiteral("force.sqlite")));
        ClusterSettings settings;
        settings.nodes = m_cluster.endpoints();
        settings.pattern = "jobs:*";
        QSignalSpy refreshed(&controller, &ClusterController::firstFullRefresh);
        QString error;
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        QVERIFY(waitForCount(refreshed, 1, 20000));
        QSignalSpy events(&controller, &ClusterController::lockEvents);
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i)).set("jobs:held", "tok-held", 120'000);
        QVERIFY(waitForCount(events, 1, 10000));

        // The operator's connections reach node 1 only: the release tombstones it there, nodes 2 and 3 are
        // unreachable to it (the console's watch still reads them: the token keeps its quorum).
        OperatorSettings operatorSettings;
        operatorSettings.cluster = settings;
        operatorSettings.cluster.nodes[1] = downEndpoint();
        operatorSettings.cluster.nodes[2] = downEndpoint();
        operatorSettings.auditLogPath = m_dir.filePath(QStringLiteral("audit.jsonl"));
        operatorSettings.restartStateFile = m_dir.filePath(QStringLiteral("restarts.json"));
        actions.configure(operatorSettings);
        QFuture<ForceReleaseReport> minority =
            actions.executeForceRelease("jobs:held", "tok-held", QStringLiteral("stuck"));
        QTRY_VERIFY_WITH_TIMEOUT(minority.isFinished(), 10000);
        QCOMPARE(minority.result().matched(), 1);
        QCOMPARE(minority.result().unreachable(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(history.journal()->status().written >= 2, 10000);
        QVERIFY(history.journal()->flush().result());
        HistoryQuery q;
        q.keyPattern = "jobs:held";
        HistoryResult r = LockJournal::queryFile(history.journal()->path(), q, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(r.intervals.size(), 1);
        QVERIFY2(r.intervals[0].isOpen(), qPrintable(r.intervals[0].endedBy));
        QCOMPARE(r.events.size(), 2);
        QCOMPARE(r.events[1].kind, QStringLiteral("force-released-minority"));
        QCOMPARE(journalKindName(r.events[1].kind), QStringLiteral("force-released on a minority (still held)"));

        // The same on every node: released on a quorum, the tenure ends as force-released.
        operatorSettings.cluster.nodes = settings.nodes;
        actions.configure(operatorSettings);
        QFuture<ForceReleaseReport> quorum =
            actions.executeForceRelease("jobs:held", "tok-held", QStringLiteral("stuck"));
        QTRY_VERIFY_WITH_TIMEOUT(quorum.isFinished(), 10000);
        QCOMPARE(quorum.result().matched(), 2); // node 1 has the tombstone already
        QTRY_VERIFY_WITH_TIMEOUT(history.journal()->status().written >= 3, 10000);
        QVERIFY(history.journal()->flush().result());
        r = LockJournal::queryFile(history.journal()->path(), q, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(r.intervals.size(), 1);
        QCOMPARE(r.intervals[0].endedBy, QStringLiteral("force-released"));
        controller.stop();
    }

    // A damaged journal: the event log and the panel say so; the view still works (no results, no crash).
    void journalProblemIsShownAndLogged()
    {
        const JournalOptions o = journalAt(QStringLiteral("damaged.sqlite"));
        {
            QFile f(o.path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, '\x5a'));
        }
        ClusterController controller;
        MainWindow window(&controller);
        HistoryFeature history(&controller, &window, nullptr, o);
        window.show();
        EventLogModel* log = window.eventLog();
        QTRY_VERIFY_WITH_TIMEOUT(log->rowCount() >= 1, 10000);
        const EventLogModel::Entry& e = log->entry(0);
        QCOMPARE(e.kindId, QStringLiteral("history-failed"));
        QVERIFY2(e.detail().contains(QLatin1String("not a SQLite database")), qPrintable(e.detail()));
        auto* status = history.panel()->findChild<QLabel*>(QStringLiteral("historyStatus"));
        QVERIFY(status);
        QVERIFY(status->text().contains(QLatin1String("not a SQLite database")));
        // ... and the status bar, whichever panel is open: a journal that writes nothing is never silent.
        auto* notWritten = window.findChild<QLabel*>(QStringLiteral("historyNotWritten"));
        QVERIFY(notWritten);
        QVERIFY(notWritten->isVisible());
        QVERIFY2(notWritten->toolTip().contains(QLatin1String("not a SQLite database")),
                 qPrintable(notWritten->toolTip()));

        // Searching the damaged file: the query's own error, the table stays empty.
        history.dock()->show();
        QSignalSpy finished(history.panel(), &HistoryPanel::searchFinished);
        history.panel()->search();
        QVERIFY(waitForCount(finished, 1, 10000));
        QCOMPARE(history.panel()->model()->rowCount(), 0);
        QVERIFY(!history.panel()->model()->result().error.isEmpty());
        // The query failed for the reason the journal gives: said once, in one paragraph each.
        QCOMPARE(status->text().count(QLatin1String("not a SQLite database")), 1);
    }

    // The model only translates: hostile names escaped, times and durations as numbers for sorting.
    void modelEscapesAndSorts()
    {
        HistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        HistoryResult r;
        r.queriedAtMs = 10'000;
        HolderInterval a;
        a.key = QByteArray("evil\x1b[2J\n", 9);
        a.token = "tok\x07";
        a.fromMs = 1000;
        a.toMs = 4000;
        a.endedBy = QStringLiteral("expired");
        HolderInterval b;
        b.key = "orders:1";
        b.token = "t2";
        // As the journal has it: the summary decodeHolder made, its control characters escaped there (once).
        b.holder = decodeHolder("orders:1", "evil\x1b]0;x\\").summary;
        QCOMPARE(b.holder, QStringLiteral("evil\\x1b]0;x\\x5c"));
        b.fromMs = 5000; // still held
        r.intervals = {a, b};
        model.setResult(r);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, HistoryModel::KeyColumn).data().toString(), QStringLiteral("evil\\x1b[2J\\x0a"));
        QCOMPARE(model.index(0, HistoryModel::HolderColumn).data().toString(), QStringLiteral("tok\\x07"));
        QCOMPARE(model.index(0, HistoryModel::HeldColumn).data().toString(), QStringLiteral("3.0 s"));
        QCOMPARE(model.index(0, HistoryModel::EndedColumn).data().toString(), QStringLiteral("expired"));
        QCOMPARE(model.index(1, HistoryModel::HolderColumn).data().toString(), b.holder); // not escaped again
        QCOMPARE(model.index(1, HistoryModel::EndedColumn).data().toString(), QStringLiteral("still held"));
        QCOMPARE(model.index(1, HistoryModel::HeldColumn).data(HistoryModel::SortRole).toLongLong(), 5000);
        QCOMPARE(model.index(0, HistoryModel::KeyColumn).data(HistoryModel::KeyRole).toByteArray(), a.key);
        QCOMPARE(model.intervalsOf("orders:1").size(), 1);
        // An end nobody saw: held at least until it was last seen, ended between then and the read that found it
        // gone.
        HolderInterval c = a;
        c.key = "orders:2";
        c.endedBy = QStringLiteral("released-or-expired");
        c.goneByMs = 6000;
        HistoryResult unseen = r;
        unseen.intervals = {c};
        HistoryModel endModel;
        endModel.setResult(unseen);
        QCOMPARE(endModel.index(0, HistoryModel::EndedColumn).data().toString(), QStringLiteral("released or expired"));
        QCOMPARE(
            endModel.index(0, HistoryModel::ToColumn).data().toString(),
            QStringLiteral("between %1 and %2").arg(HistoryModel::formatTime(4000), HistoryModel::formatTime(6000)));
        QCOMPARE(endModel.index(0, HistoryModel::HeldColumn).data().toString(), QStringLiteral("at least 3.0 s"));
        // The timeline names its rows the same way: the summary as it is, the token escaped once.
        HistoryTimeline timeline;
        timeline.setKey("orders:1", {b, a}, {}, 0, 10'000);
        QCOMPARE(timeline.holderRows(), 2);
        QCOMPARE(timeline.holderLabel(0), b.holder);
        QCOMPARE(timeline.holderLabel(1), QStringLiteral("tok\\x07"));
    }

    // A tenure held when first seen reads "at least since" and "at least" its duration, never a plain start time;
    // one that ended while nobody watched says so.
    void modelSaysAtLeastSince()
    {
        HistoryModel model;
        HistoryResult r;
        r.queriedAtMs = 70'000;
        HolderInterval seen;
        seen.key = "orders:12";
        seen.token = "t1";
        seen.fromMs = 10'000;
        seen.toMs = 40'000;
        seen.endedBy = QStringLiteral("ended-unwatched");
        seen.atLeastSince = true;
        HolderInterval acquired = seen;
        acquired.fromMs = 50'000;
        acquired.toMs = -1;
        acquired.endedBy.clear();
        acquired.atLeastSince = false;
        r.intervals = {seen, acquired};
        model.setResult(r);
        const QString from = model.index(0, HistoryModel::FromColumn).data().toString();
        QVERIFY2(from.startsWith(QLatin1String("at least since ")) && from.endsWith(HistoryModel::formatTime(10'000)),
                 qPrintable(from));
        QCOMPARE(model.index(0, HistoryModel::HeldColumn).data().toString(), QStringLiteral("at least 30.0 s"));
        QCOMPARE(model.index(0, HistoryModel::EndedColumn).data().toString(),
                 QStringLiteral("ended while not watched"));
        QVERIFY(!model.index(0, HistoryModel::FromColumn).data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(model.index(0, HistoryModel::FromColumn).data(HistoryModel::SortRole).toLongLong(), 10'000);
        QCOMPARE(model.index(1, HistoryModel::FromColumn).data().toString(), HistoryModel::formatTime(50'000));
        QCOMPARE(model.index(1, HistoryModel::HeldColumn).data().toString(), QStringLiteral("20.0 s"));
    }
};

QTEST_MAIN(TestHistoryView)
#include "TestHistoryView.moc"
