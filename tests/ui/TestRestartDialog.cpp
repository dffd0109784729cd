// "Restart with delay…" against a real local cluster: the plan's default delay and impact, the refusal when
// the restart would leave fewer than a quorum of nodes (unless the node name is typed), and a demo-node
// restart that is shown kept down in the nodes table, not counted for quorum, and started again after the
// delay; the dialog says what each method enforces (SHUTDOWN NOSAVE: only watched).

#include "controller/ClusterController.h"
#include "localcluster/LocalCluster.h"
#include "models/EventLogModel.h"
#include "models/LocksModel.h"
#include "models/NodesModel.h"
#include "operate/OperatorFeature.h"
#include "operate/RestartDialog.h"
#include "runtime/IoThread.h"
#include "support/DirectRedis.h"
#include "support/ObservationTestSupport.h"
#include "support/OperatorTestSupport.h"
#include "support/TestSupport.h"
#include "views/LockDetailPanel.h"
#include "views/MainWindow.h"
#include "views/NodesPanel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace redlock;

class TestRestartDialog : public QObject
{
    Q_OBJECT

    std::unique_ptr<IoThread> m_clusterThread;
    LocalCluster* m_cluster = nullptr;
    std::unique_ptr<QTemporaryDir> m_dir;

    QList<NodeEndpoint> endpoints() const
    {
        QList<NodeEndpoint> out;
        m_clusterThread->runAndWait([&] { out = m_cluster->endpoints(); });
        return out;
    }
    quint16 port(int node) const
    {
        quint16 p = 0;
        m_clusterThread->runAndWait([&] { p = m_cluster->port(node); });
        return p;
    }
    bool running(int node) const
    {
        bool r = false;
        m_clusterThread->runAndWait([&] { r = m_cluster->isRunning(node); });
        return r;
    }

    OperatorSettings settings() const
    {
        OperatorSettings s;
        s.cluster.nodes = endpoints();
        s.cluster.refreshIntervalMs = 500;
        s.auditLogPath = m_dir->filePath(QStringLiteral("audit.jsonl"));
        s.restartStateFile = m_dir->filePath(QStringLiteral("restarts.json"));
        s.configuredMaxTtlMs = 4000; // the quarantine lasts long enough to be checked on a loaded machine
        s.restartTickMs = 100;
        return s;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_clusterThread = std::make_unique<IoThread>(QStringLiteral("test-cluster"));
        m_cluster = m_clusterThread->create<LocalCluster>();
        QString error;
        bool ok = false;
        m_clusterThread->runAndWait([&] { ok = m_cluster->start(3, {}, &error); });
        QVERIFY2(ok, qPrintable(error));
    }

    void cleanupTestCase() { m_clusterThread.reset(); }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void quorumBreakingRestartNeedsTypedOverride()
    {
        OperatorActions actions;
        actions.setLocalCluster(m_clusterThread.get(), m_cluster);
        actions.configure(settings());
        QCOMPARE(actions.localIndexOf(0), 0);
        // Node 1 is seen down: taking node 0 out leaves 1 of 3 (quorum 2).
        RestartDialog dialog(&actions, 0, {}, 0, {1}, {});
        dialog.show();
        QVERIFY(dialog.plan().breaksQuorum);
        QCOMPARE(dialog.methodBox()->currentData().toInt(), int(RestartMethod::Kind::LocalCluster));
        QVERIFY(dialog.overrideEdit()->isVisible());
        QVERIFY(!dialog.restartButton()->isEnabled());
        QTest::keyClicks(dialog.overrideEdit(), QStringLiteral("yes"));
        QVERIFY(!dialog.restartButton()->isEnabled());
        dialog.overrideEdit()->setText(dialog.overrideWord());
        QVERIFY(dialog.restartButton()->isEnabled());
        screenshot(&dialog, QStringLiteral("restart-quorum-refused"));

        // Without the override the core refuses too, and nothing is stopped.
        dialog.overrideEdit()->clear();
        RestartRequest request = dialog.request();
        QVERIFY(!request.overrideQuorum);
        auto future = actions.scheduleRestart(request);
        future.waitForFinished();
        QVERIFY(!future.result().accepted);
        QVERIFY(running(0));
        QVERIFY(actions.quarantinedNodes().isEmpty());
    }

    void shutdownNeedsExplicitConfirm()
    {
        OperatorActions actions;
        actions.configure(settings()); // no local cluster: the node is a plain server
        RestartDialog dialog(&actions, 2, {}, 0, {}, {});
        QCOMPARE(dialog.methodBox()->currentData().toInt(), int(RestartMethod::Kind::ShutdownNoSave));
        // Nothing keeps a SHUTDOWN NOSAVE node down; the dialog says the delay is only watched.
        QVERIFY2(dialog.introLabel()->text().contains(QStringLiteral("Nothing here keeps it down")) &&
                     dialog.introLabel()->text().contains(QStringLiteral("only watched")),
                 qPrintable(dialog.introLabel()->text()));
        QVERIFY(!dialog.introLabel()->text().contains(QStringLiteral("kept down until")));
        QVERIFY(!dialog.restartButton()->isEnabled());
        dialog.shutdownConfirm()->setChecked(true);
        QVERIFY(dialog.restartButton()->isEnabled());
        dialog.methodBox()->setCurrentIndex(dialog.methodBox()->findData(int(RestartMethod::Kind::Commands)));
        QVERIFY2(dialog.introLabel()->text().contains(QStringLiteral("kept down until the delay has passed")),
                 qPrintable(dialog.introLabel()->text()));
        QVERIFY(!dialog.restartButton()->isEnabled());
        dialog.stopCommandEdit()->setText(QStringLiteral("/bin/true stop"));
        dialog.startCommandEdit()->setText(QStringLiteral("/bin/true start"));
        QVERIFY(dialog.restartButton()->isEnabled());
        QCOMPARE(dialog.request().method.stopArguments, QStringList{QStringLiteral("stop")});
    }

    void demoNodeIsQuarantinedAndComesBack()
    {
        DirectRedis(port(0)).set("leader:scheduler", "tok-L", 800);
        DirectRedis(port(1)).set("leader:scheduler", "tok-L", 800);
        ClusterController controller;
        MainWindow window(&controller);
        QAbstractItemModelTester tester(window.nodesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        OperatorFeature console(&controller, &window);
        console.setDefaults(settings());
        console.setLocalCluster(m_clusterThread.get(), m_cluster);
        window.show();
        QString error;
        QVERIFY2(controller.start(settings().cluster, &error), qPrintable(error));
        QTRY_COMPARE(controller.nodesUp(), 3);

        RestartDialog* dialog = console.openRestart(1);
        QVERIFY(dialog);
        QVERIFY(!dialog->plan().breaksQuorum);
        QVERIFY(dialog->plan().defaultDelayMs >= 4000);
        QCOMPARE(dialog->methodBox()->currentData().toInt(), int(RestartMethod::Kind::LocalCluster));
        QVERIFY(dialog->restartButton()->isEnabled());
        screenshot(dialog, QStringLiteral("restart-dialog"));
        QSignalSpy finished(console.actions(), &OperatorActions::restartFinished);
        QElapsedTimer timer;
        timer.start();
        QTest::mouseClick(dialog->restartButton(), Qt::LeftButton);

        QTRY_VERIFY(console.actions()->isQuarantined(1));
        QTRY_VERIFY(window.nodesModel()->stateNote(1).contains(QStringLiteral("kept down")));
        QVERIFY(window.nodesModel()
                    ->index(1, NodesModel::StateColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("kept down")));
        QTRY_VERIFY(controller.nodesUp() <= 2);
        QTRY_VERIFY(window.quorumLabel()->text().contains(QStringLiteral("2 of 3")));
        QVERIFY(!running(1));
        QVERIFY(QFile::exists(settings().restartStateFile)); // a console restart resumes it
        // The quarantined node cannot be restarted again (only abandoned); another node can.
        QItemSelectionModel* nodeSelection = window.nodesPanel()->view()->selectionModel();
        nodeSelection->setCurrentIndex(nodeSelection->model()->index(1, 0), QItemSelectionModel::ClearAndSelect);
        QCOMPARE(console.selectedNode(), 1);
        QVERIFY(!console.restartAction()->isEnabled());
        QVERIFY(console.abandonAction()->isEnabled());
        nodeSelection->setCurrentIndex(nodeSelection->model()->index(0, 0), QItemSelectionModel::ClearAndSelect);
        QCOMPARE(console.selectedNode(), 0);
        QVERIFY(console.restartAction()->isEnabled());
        QVERIFY(!console.abandonAction()->isEnabled());
        screenshot(&window, QStringLiteral("restart-quarantined-window"));

        QVERIFY(waitForCount(finished, 1, 20000));
        QCOMPARE(finished.first().first().value<PendingRestart>().state, PendingRestart::State::Done);
        QVERIFY(timer.elapsed() >= 4000);
        QVERIFY(running(1));
        QTRY_VERIFY(window.nodesModel()->stateNote(1).isEmpty());
        QTRY_COMPARE(controller.nodesUp(), 3);
    }

    // One redis-server under two names (its TCP port and its unix socket) goes out as one server. The console feeds
    // the run_ids of its node facts into the plan: three servers under four names (quorum 3) keep two while one
    // server is out, so the restart is refused unless overridden, and the dialog says when another name goes with it.
    void otherNameOfTheServerGoesOutWithIt()
    {
        LocalCluster cluster;
        QString error;
        OperatorSettings s = settings();
        s.cluster.nodes = startWithSocketAlias(cluster, 3, &error);
        QVERIFY2(!s.cluster.nodes.isEmpty(), qPrintable(error));
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        console.setDefaults(s);
        QVERIFY2(controller.start(s.cluster, &error), qPrintable(error));
        auto allKnown = [&controller] {
            const QList<NodeFacts>& facts = controller.nodeFacts();
            return facts.size() == 4 && std::all_of(facts.begin(), facts.end(), [](const NodeFacts& f) {
                       return f.health == NodeHealth::Up && !f.runId.isEmpty();
                   });
        };
        QTRY_VERIFY_WITH_TIMEOUT(allKnown() && console.actions()->isConfigured(), 20000);
        QCOMPARE(controller.nodeFacts()[3].runId, controller.nodeFacts()[0].runId);

        RestartDialog* dialog = console.openRestart(0);
        QVERIFY(dialog);
        QCOMPARE(dialog->plan().sameServer, QList<int>{3});
        QCOMPARE(dialog->plan().nodesUpDuring, 2);
        QVERIFY(dialog->plan().breaksQuorum);
        auto* quorum = dialog->findChild<QLabel*>(QStringLiteral("restartQuorum"));
        QVERIFY(quorum);
        QVERIFY2(quorum->text().contains(QStringLiteral("same Redis server")), qPrintable(quorum->text()));
        QVERIFY(!dialog->restartButton()->isEnabled());
        QCOMPARE(dialog->request().runIds.size(), 4);
        QCOMPARE(dialog->request().runIds[3], controller.nodeFacts()[0].runId);
        dialog->close();
        // Another server out leaves two as well: the server listed twice is counted once.
        dialog = console.openRestart(1);
        QVERIFY(dialog);
        QVERIFY(dialog->plan().sameServer.isEmpty());
        QCOMPARE(dialog->plan().nodesUpDuring, 2);
        QVERIFY(dialog->plan().breaksQuorum);
        dialog->close();

        // Overridden, the server goes out under both names: the console keeps the socket name out of its count too,
        // and says so in the nodes table, until the restart ends.
        dialog = console.openRestart(0);
        QVERIFY(dialog);
        QCOMPARE(dialog->methodBox()->currentData().toInt(), int(RestartMethod::Kind::ShutdownNoSave));
        dialog->overrideEdit()->setText(dialog->overrideWord());
        dialog->shutdownConfirm()->setChecked(true);
        QVERIFY(dialog->restartButton()->isEnabled());
        QSignalSpy changed(console.actions(), &OperatorActions::restartChanged);
        QTest::mouseClick(dialog->restartButton(), Qt::LeftButton);
        QTRY_VERIFY(std::any_of(changed.begin(), changed.end(), [](const QList<QVariant>& args) {
            return args.first().value<PendingRestart>().state == PendingRestart::State::Quarantined;
        })); // the SHUTDOWN is confirmed: only now can it be abandoned
        QCOMPARE(console.actions()->quarantinedNodes(), (QList<int>{0, 3}));
        QTRY_COMPARE(controller.quarantinedNodes(), (QList<int>{0, 3}));
        QVERIFY2(!window.nodesModel()->stateNote(3).isEmpty(), "the socket name is shown kept out");
        console.actions()->abandonRestart(3); // either name ends it
        QTRY_VERIFY(console.actions()->quarantinedNodes().isEmpty());
        QTRY_VERIFY(window.nodesModel()->stateNote(3).isEmpty());
        controller.stop();
    }

    // The console plans on the table's rows as they are kept, packed (RestartPlanner::LockSource over LocksModel), and
    // unpacks only the locks it lists. Its plan must be the rule written out over the same rows unpacked (LockViews):
    // the largest PTTL on the node and the locks that fall below quorum, for the node alone and with another down.
    void planOnThePackedRowsIsThePlanOnTheirViews()
    {
        for (int i = 0; i < 3; ++i)
            DirectRedis(port(i)).flushAll();
        for (int i : {0, 1})
            DirectRedis(port(i)).set("plan:a", "tok-a", 50000); // two of three: falls below quorum without node 0
        for (int i : {0, 1, 2})
            DirectRedis(port(i)).set("plan:b", "tok-b", 20000); // keeps two without node 0
        for (int i : {1, 2})
            DirectRedis(port(i)).set("plan:c", "tok-c", 90000); // not on node 0
        for (int i : {0, 1, 2})
            DirectRedis(port(i)).set("plan:d", "tok-d" + QByteArray::number(i), 70000); // no quorum: not held
        DirectRedis(port(0)).set("plan:e", "tok-e", 60000);                             // one node: not held
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        console.setDefaults(settings());
        window.show();
        QString error;
        ClusterSettings cs = settings().cluster;
        cs.pattern = QByteArrayLiteral("plan:*"); // the operator names the lock keys: a plain value is a lock
        QVERIFY2(controller.start(cs, &error), qPrintable(error));
        const LocksModel* locks = window.locksModel();
        QTRY_COMPARE(controller.nodesUp(), 3);
        QTRY_VERIFY(console.actions()->isConfigured());
        QTRY_COMPARE(locks->rowCount(), 5);

        QList<LockView> views;
        for (int row = 0; row < locks->rowCount(); ++row)
            views.append(locks->viewAt(row));
        const auto source = [locks](const RestartPlanner::LockVisitor& visit) {
            for (int row = 0; row < locks->rowCount(); ++row)
                visit(locks->keyAt(row), locks->packedAt(row));
        };
        auto affectedKeys = [](const RestartPlan& p) {
            QList<QByteArray> keys;
            for (const AffectedLock& a : p.affected)
                keys.append(a.key);
            return keys;
        };
        auto check = [&](const RestartPlan& p, int node, const QList<int>& unavailable) {
            // The rule over LockViews, as it read the snapshot before the rows were read packed.
            qint64 largest = -1;
            QList<AffectedLock> expected;
            for (const LockView& view : std::as_const(views)) {
                const NodeLockState& s = view.nodes[node];
                if (s.presence == NodeLockState::Presence::Holding)
                    largest = std::max(largest, s.pttlMs);
                if (!view.hasQuorum())
                    continue;
                int holding = 0;
                int remaining = 0;
                bool held = false;
                for (int i = 0; i < view.nodes.size(); ++i) {
                    if (view.nodes[i].presence != NodeLockState::Presence::Holding || view.nodes[i].token != view.token)
                        continue;
                    ++holding;
                    held = held || i == node;
                    remaining += i != node && !unavailable.contains(i) ? 1 : 0;
                }
                if (held && remaining < p.quorum)
                    expected.append(
                        {view.key, view.token, view.holder->summary, holding, remaining, view.observedValidityMs});
            }
            QCOMPARE(p.largestPttlMs, largest);
            QCOMPARE(p.affected.size(), expected.size());
            for (qsizetype i = 0; i < expected.size(); ++i) {
                const AffectedLock& a = p.affected[i];
                QCOMPARE(a.key, expected[i].key);
                QCOMPARE(a.token, expected[i].token);
                QCOMPARE(a.holderSummary, expected[i].holderSummary);
                QCOMPARE(a.holdersNow, expected[i].holdersNow);
                QCOMPARE(a.holdersWhileDown, expected[i].holdersWhileDown);
                QCOMPARE(a.observedValidityMs, expected[i].observedValidityMs);
            }
        };

        RestartDialog* dialog = console.openRestart(0);
        QVERIFY(dialog);
        check(dialog->plan(), 0, {});
        QCOMPARE(affectedKeys(dialog->plan()), QList<QByteArray>{"plan:a"});
        QVERIFY(dialog->plan().largestPttlMs > 55000 && dialog->plan().largestPttlMs <= 70000); // plan:d's, plan:e's
        QCOMPARE(dialog->impactTable()->rowCount(), 1);
        QCOMPARE(dialog->impactTable()->item(0, 0)->text(), QStringLiteral("plan:a"));
        // The request carries what the operator was shown, not the locks.
        QCOMPARE(dialog->request().locks.largestPttlMs, dialog->plan().largestPttlMs);
        QCOMPARE(dialog->request().locks.affected.size(), 1);
        const RestartPlan whole = dialog->plan();
        const double wholeDelayS = dialog->delayBox()->value();
        dialog->close();

        // Walked in slices (at 1M locks the whole walk is 120-480 ms of GUI CPU): two rows a slice here. Until the
        // last one the dialog says it is counting and cannot schedule; then its plan is the whole walk's.
        const qsizetype perSlice = RestartDialog::locksPerSlice();
        const auto restoreSlices = qScopeGuard([perSlice] { RestartDialog::setLocksPerSlice(perSlice); });
        RestartDialog::setLocksPerSlice(2);
        dialog = console.openRestart(0);
        QVERIFY(dialog);
        QSignalSpy counted(dialog, &RestartDialog::counted);
        QVERIFY(dialog->isCounting());
        auto* impactTitle = dialog->findChild<QLabel*>(QStringLiteral("restartImpactTitle"));
        QVERIFY(impactTitle);
        QVERIFY2(impactTitle->text().contains(QStringLiteral("Counting")), qPrintable(impactTitle->text()));
        QCOMPARE(dialog->impactTable()->rowCount(), 0);
        dialog->methodBox()->setCurrentIndex(dialog->methodBox()->findData(int(RestartMethod::Kind::LocalCluster)));
        QVERIFY(!dialog->restartButton()->isEnabled()); // everything else would allow it
        dialog->schedule();
        QVERIFY(!dialog->hasResult());
        QTRY_VERIFY_WITH_TIMEOUT(!counted.isEmpty(), 5000); // not wait(): it may have come already
        QVERIFY(!dialog->isCounting());
        check(dialog->plan(), 0, {});
        QCOMPARE(dialog->plan().affectedCount, whole.affectedCount);
        QCOMPARE(dialog->plan().largestPttlMs, whole.largestPttlMs);
        QCOMPARE(dialog->plan().defaultDelayMs, whole.defaultDelayMs);
        QCOMPARE(affectedKeys(dialog->plan()), QList<QByteArray>{"plan:a"});
        QCOMPARE(dialog->impactTable()->rowCount(), 1);
        QCOMPARE(dialog->impactTable()->item(0, 0)->text(), QStringLiteral("plan:a"));
        QVERIFY2(!impactTitle->text().contains(QStringLiteral("Counting")), qPrintable(impactTitle->text()));
        QCOMPARE(dialog->delayBox()->value(), wholeDelayS);
        QCOMPARE(dialog->request().locks.affected.size(), 1);
        QVERIFY(dialog->restartButton()->isEnabled());
        dialog->close();

        const qint64 maxTtl = settings().configuredMaxTtlMs;
        const RestartPlan withOneDown = RestartPlanner::plan(0, 3, source, maxTtl, 0.01, {1}, {});
        check(withOneDown, 0, {1});
        QCOMPARE(affectedKeys(withOneDown), (QList<QByteArray>{"plan:a", "plan:b"}));
        const RestartPlan third = RestartPlanner::plan(2, 3, source, maxTtl, 0.01, {}, {});
        check(third, 2, {});
        QVERIFY(third.largestPttlMs > 85000); // plan:c's
        // The same rows handed over as LockViews (the snapshot form) give the same plan.
        LockSnapshot snapshot;
        for (const LockView& view : std::as_const(views))
            snapshot.insert(view.key, view);
        check(RestartPlanner::plan(0, 3, snapshot, maxTtl, 0.01, {1}, {}), 0, {1});

        // The table reset (another cluster, MainWindow::onStarted) while it counts: the dialog goes rather than count
        // the new cluster's locks for the old cluster's node.
        const QPointer<RestartDialog> counting = console.openRestart(0);
        QVERIFY(counting && counting->isCounting());
        window.locksModel()->reset(3);
        QTRY_VERIFY(counting.isNull()); // rejected, then deleted (WA_DeleteOnClose)
        controller.stop();
        for (int i = 0; i < 3; ++i)
            DirectRedis(port(i)).flushAll();
    }

    // One failure policy: a stop whose intent cannot be written (audit log on a full device) is refused, the
    // dialog says why, and the node is left running and counted.
    void restartRefusedWhenItsIntentCannotBeWritten()
    {
        OperatorActions actions;
        actions.setLocalCluster(m_clusterThread.get(), m_cluster);
        OperatorSettings s = settings();
        s.auditLogPath = QStringLiteral("/dev/full");
        actions.configure(s);
        RestartDialog dialog(&actions, 0, {}, 0, {}, {});
        dialog.show();
        QCOMPARE(dialog.methodBox()->currentData().toInt(), int(RestartMethod::Kind::LocalCluster));
        QVERIFY(dialog.restartButton()->isEnabled());
        QTest::mouseClick(dialog.restartButton(), Qt::LeftButton);
        QTRY_VERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("audit log could not be written")),
                     qPrintable(dialog.statusLabel()->text()));
        QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("not stopped")),
                 qPrintable(dialog.statusLabel()->text()));
        QVERIFY(!dialog.hasResult());
        QVERIFY(dialog.isVisible());
        QVERIFY(running(0));
        QVERIFY(actions.quarantinedNodes().isEmpty());
    }

    // U6 in the console: a damaged pending-restart file is reported in the event log, and the node it names is
    // kept out (the nodes table says why) until the operator abandons its restart; an abandon whose audit line
    // cannot be written is refused and reported there too.
    void damagedRestartFileIsReportedAndItsNodeKeptOut()
    {
        const QString identity = endpoints().at(2).identity();
        QFile file(settings().restartStateFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"version": 7, "restarts": [{"identity": "%1", "state": "hibernating"}]})")
                       .arg(identity)
                       .toUtf8());
        file.close();
        auto countEvents = [](const EventLogModel* log, const QString& kindId, const QString& text) {
            int n = 0;
            for (int row = 0; row < log->rowCount(); ++row)
                n += log->entry(row).kindId == kindId && log->entry(row).texts.detail.contains(text) ? 1 : 0;
            return n;
        };
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        console.setDefaults(settings());
        window.show();
        QString error;
        QVERIFY2(controller.start(settings().cluster, &error), qPrintable(error));
        QTRY_VERIFY(console.actions()->isConfigured());
        QTRY_COMPARE(countEvents(window.eventLog(), QStringLiteral("delayed-restart"), QStringLiteral("is damaged")),
                     1);
        QVERIFY(QFile::exists(settings().restartStateFile + QStringLiteral(".damaged")));
        QVERIFY(console.actions()->isQuarantined(2));
        QVERIFY(console.actions()->quarantineHeld(2));
        QTRY_VERIFY(window.nodesModel()->stateNote(2).contains(QStringLiteral("kept out")));
        QItemSelectionModel* nodeSelection = window.nodesPanel()->view()->selectionModel();
        nodeSelection->setCurrentIndex(nodeSelection->model()->index(2, 0), QItemSelectionModel::ClearAndSelect);
        QVERIFY(!console.restartAction()->isEnabled());
        QVERIFY(console.abandonAction()->isEnabled());
        screenshot(&window, QStringLiteral("restart-file-damaged"));

        const QString audit = settings().auditLogPath;
        QFile::remove(audit);
        QVERIFY(QFile::link(QStringLiteral("/dev/full"), audit));
        console.abandonAction()->trigger();
        QTRY_COMPARE(countEvents(window.eventLog(), QStringLiteral("operator-alert"), QStringLiteral("still tracked")),
                     1);
        QVERIFY(console.actions()->isQuarantined(2));

        QVERIFY(QFile::remove(audit));
        console.abandonAction()->trigger();
        QTRY_VERIFY(!console.actions()->isQuarantined(2));
        QTRY_VERIFY(window.nodesModel()->stateNote(2).isEmpty());
        controller.stop();
    }

    // A lock whose quorum rests on a quarantined node is not shown as held, even while that node still answers
    // (a stop command that did not stop it, a node being stopped, one back early): the console feeds the
    // scheduler's quarantine into the verdicts, and the lock detail says why.
    void lockOnQuarantinedNodeIsNotShownAsHeld()
    {
        for (int i = 0; i < 3; ++i)
            DirectRedis(port(i)).flushAll();
        DirectRedis(port(0)).set("leader:billing", "tok-Q", 120000);
        DirectRedis(port(1)).set("leader:billing", "tok-Q", 120000);
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        console.setDefaults(settings()); // no local cluster: the node is stopped by commands
        window.show();
        QString error;
        ClusterSettings cs = settings().cluster;
        cs.pattern = QByteArrayLiteral("leader:*"); // the operator names the lock keys: a plain value is a lock
        QVERIFY2(controller.start(cs, &error), qPrintable(error));
        QTRY_VERIFY(window.locksModel()->viewFor("leader:billing"));
        QTRY_COMPARE(window.locksModel()->viewFor("leader:billing")->verdict, LockVerdict::Held);
        window.detail()->showKey("leader:billing");
        auto* summary = window.detail()->findChild<QLabel*>(QStringLiteral("lockVerdictReason"));
        QVERIFY(summary);
        QVERIFY(!summary->text().contains(QStringLiteral("Not counted")));

        // A stop command that leaves the node running: it stays quarantined, and keeps answering with the lock.
        RestartRequest request;
        request.node = 1;
        request.method.kind = RestartMethod::Kind::Commands;
        request.method.stopProgram = QStringLiteral("/bin/true");
        request.method.startProgram = QStringLiteral("/bin/true");
        request.reason = QStringLiteral("kernel update");
        auto future = console.actions()->scheduleRestart(request);
        future.waitForFinished();
        QVERIFY2(future.result().accepted, qPrintable(future.result().error + future.result().restart.error));
        QTRY_VERIFY(console.actions()->isQuarantined(1));
        QTRY_COMPARE(window.locksModel()->viewFor("leader:billing")->verdict, LockVerdict::Unknown);
        const std::optional<LockView> view = window.locksModel()->viewFor("leader:billing");
        QVERIFY(view);
        QCOMPARE(view->uncounted, QList<int>{1});
        QCOMPARE(view->nodes[1].presence, NodeLockState::Presence::Holding); // it still answers with the lock
        QTRY_VERIFY2(summary->text().contains(QStringLiteral("Not counted: node(s) #2 quarantined")),
                     qPrintable(summary->text()));
        const int row = window.locksModel()->rowOf("leader:billing");
        QVERIFY(window.locksModel()
                    ->index(row, LocksModel::VerdictColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Not counted")));
        screenshot(&window, QStringLiteral("lock-on-quarantined-node"));

        // The quarantine ends (abandoned): judged as before, at once.
        console.actions()->abandonRestart(1);
        QTRY_VERIFY(!console.actions()->isQuarantined(1));
        QTRY_COMPARE(window.locksModel()->viewFor("leader:billing")->verdict, LockVerdict::Held);
        QTRY_VERIFY(!summary->text().contains(QStringLiteral("Not counted")));
        controller.stop();
    }
};

QTEST_MAIN(TestRestartDialog)
#include "TestRestartDialog.moc"
