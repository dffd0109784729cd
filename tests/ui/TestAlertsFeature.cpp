// Alerts in the console, offscreen, against a real cluster: a stopped node raises an alert that shows in the
// alerts list, the event log and (no system tray offscreen) the status bar and the opened alerts dock, once;
// acknowledge and mute from the panel; the alert clears when the node is back and stays listed as cleared;
// thresholds edited in the dialog are saved in QSettings and read back by the next console, with sane defaults.

#include "alerts/AlertThresholdsDialog.h"
#include "alerts/AlertsFeature.h"
#include "alerts/AlertsModel.h"
#include "alerts/AlertsPanel.h"
#include "controller/AlertSettings.h"
#include "controller/ClusterController.h"
#include "localcluster/LocalCluster.h"
#include "models/EventLogModel.h"
#include "support/DirectRedis.h"
#include "support/ManualClock.h"
#include "support/UiTestSupport.h"
#include "views/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace redlock;

class TestAlertsFeature : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;

    QString settingsPath() const { return m_dir->filePath(QStringLiteral("console.ini")); }

    static int countEvents(const EventLogModel* log, const QString& kindId)
    {
        int n = 0;
        for (int row = 0; row < log->rowCount(); ++row)
            n += log->entry(row).kindId == kindId ? 1 : 0;
        return n;
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void nodeDownAlertInTheConsole()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions durable;
        durable.appendOnly = true;
        durable.appendFsync = QStringLiteral("always");
        QVERIFY2(cluster.start(3, durable, &error), qPrintable(error));

        QSettings settings(settingsPath(), QSettings::IniFormat);
        ClusterController controller;
        MainWindow window(&controller);
        AlertsFeature alerts(&controller, &window, &settings);
        auto clock = std::make_shared<ManualClock>();
        alerts.setClock(clock);
        QAbstractItemModelTester tester(alerts.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy notified(&alerts, &AlertsFeature::notified);
        window.show();
        ClusterSettings s;
        s.nodes = cluster.endpoints();
        s.refreshIntervalMs = 500;
        QVERIFY2(controller.start(s, &error), qPrintable(error));
        QVERIFY(alerts.monitor());
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 3, 15000);
        QVERIFY(!alerts.dock()->isVisible());

        QVERIFY(cluster.stopNode(2));
        QTRY_VERIFY_WITH_TIMEOUT(controller.nodeFacts()[2].health == NodeHealth::Down, 15000);
        alerts.monitor()->evaluate();
        QCOMPARE(alerts.model()->rowCount(), 0); // the default threshold: 10 s
        clock->advanceMs(10500);
        alerts.monitor()->evaluate();
        QCOMPARE(alerts.model()->rowCount(), 1);
        const QModelIndex row = alerts.model()->index(0, AlertsModel::RuleColumn);
        QCOMPARE(row.data().toString(), alertRuleName(AlertRule::NodeDown));
        QCOMPARE(row.data(AlertsModel::SubjectRole).toByteArray(), AlertMonitor::nodeSubject(2));
        QCOMPARE(alerts.model()->index(0, AlertsModel::StateColumn).data().toString(), QStringLiteral("active"));
        QVERIFY(alerts.model()
                    ->index(0, AlertsModel::MessageColumn)
                    .data()
                    .toString()
                    .contains(cluster.endpoint(2).displayName()));
        QCOMPARE(countEvents(window.eventLog(), QStringLiteral("alert-raised")), 1);
        QCOMPARE(notified.size(), 1);
        // Offscreen there is no system tray: the console says so, shows it in the status bar, opens the dock.
        QCOMPARE(alerts.trayAvailable(), QSystemTrayIcon::isSystemTrayAvailable());
        QVERIFY(!alerts.trayAvailable());
        QVERIFY(alerts.panel()
                    ->findChild<QLabel*>(QStringLiteral("notificationNote"))
                    ->text()
                    .contains(QStringLiteral("No system tray")));
        QVERIFY(window.statusBar()->currentMessage().contains(alertRuleName(AlertRule::NodeDown)));
        QVERIFY(alerts.dock()->isVisible());
        QCOMPARE(alerts.dock()->windowTitle(), QStringLiteral("Alerts (1)"));

        // No second notification while the node stays down.
        for (int i = 0; i < 3; ++i) {
            clock->advanceMs(60000);
            alerts.monitor()->evaluate();
        }
        QCOMPARE(notified.size(), 1);
        QCOMPARE(alerts.model()->rowCount(), 1);

        // Acknowledge and mute from the panel.
        QTableView* view = alerts.panel()->view();
        view->selectRow(0);
        auto* acknowledge = alerts.panel()->findChild<QPushButton*>(QStringLiteral("acknowledgeAlert"));
        QVERIFY(acknowledge->isEnabled());
        QTest::mouseClick(acknowledge, Qt::LeftButton);
        QCOMPARE(alerts.model()->index(0, AlertsModel::StateColumn).data().toString(), QStringLiteral("acknowledged"));
        QVERIFY(alerts.monitor()->alert(alerts.model()->alertAt(0).id)->acknowledged);
        QVERIFY(!acknowledge->isEnabled());
        auto* muteSubject = alerts.panel()->findChild<QToolButton*>(QStringLiteral("muteSubject"));
        QAction* oneHour = muteSubject->menu()->findChild<QAction*>(QStringLiteral("muteSubject-1"));
        QVERIFY(oneHour);
        oneHour->trigger();
        QCOMPARE(alerts.monitor()->subjectMutedForMs(AlertMonitor::nodeSubject(2)), 3600 * 1000);
        auto* muteRule = alerts.panel()->findChild<QToolButton*>(QStringLiteral("muteRule"));
        muteRule->menu()->findChild<QAction*>(QStringLiteral("muteRule-0"))->trigger();
        QCOMPARE(alerts.monitor()->ruleMutedForMs(AlertRule::NodeDown), 15 * 60 * 1000);

        // Back up: cleared after the hysteresis, and still listed.
        QVERIFY(cluster.startNode(2));
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 3, 15000);
        clock->advanceMs(6000);
        alerts.monitor()->evaluate();
        QCOMPARE(alerts.model()->rowCount(), 1);
        QVERIFY(!alerts.model()->index(0, 0).data(AlertsModel::ActiveRole).toBool());
        QCOMPARE(alerts.model()->index(0, AlertsModel::StateColumn).data().toString(), QStringLiteral("cleared"));
        QCOMPARE(countEvents(window.eventLog(), QStringLiteral("alert-cleared")), 1);
        QCOMPARE(alerts.dock()->windowTitle(), QStringLiteral("Alerts"));
        controller.stop();
    }

    // An alert that notified, then muted for a moment: when the mute runs out its row is repainted (the model
    // is told), without anything else changing: it does not go on saying "muted". Not before the mute's end.
    void rowSaysActiveAgainWhenTheMuteRunsOut()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ClusterController controller;
        MainWindow window(&controller);
        AlertsFeature alerts(&controller, &window, &settings);
        auto clock = std::make_shared<ManualClock>();
        alerts.setClock(clock);
        ClusterSettings s;
        s.nodes = cluster.endpoints();
        s.refreshIntervalMs = 500;
        QVERIFY2(controller.start(s, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 3, 15000);
        QVERIFY(cluster.stopNode(2));
        QTRY_VERIFY_WITH_TIMEOUT(controller.nodeFacts()[2].health == NodeHealth::Down, 15000);
        alerts.monitor()->evaluate();
        clock->advanceMs(10500);
        alerts.monitor()->evaluate();
        QCOMPARE(alerts.model()->rowCount(), 1);
        QCOMPARE(alerts.model()->alertAt(0).notifications, 1);

        const QByteArray id = alerts.model()->alertAt(0).id;
        QCOMPARE(alerts.model()->alertAt(0).node, 2);
        // The alert's state cell, its row looked up each time: the monitor's own evaluate timer runs meanwhile, and
        // a row it inserts (newest first) moves this one down.
        const auto state = [&] {
            for (int row = 0; row < alerts.model()->rowCount(); ++row) {
                if (alerts.model()->alertAt(row).id == id)
                    return alerts.model()->index(row, AlertsModel::StateColumn);
            }
            return QModelIndex();
        };
        alerts.monitor()->muteSubject(AlertMonitor::nodeSubject(2), 500);
        QCOMPARE(state().data().toString(), QStringLiteral("muted"));
        QSignalSpy repainted(alerts.model(), &QAbstractItemModel::dataChanged);
        const auto stateRepainted = [&] {
            const int row = state().row();
            for (const QList<QVariant>& args : std::as_const(repainted)) {
                const QModelIndex from = args.at(0).toModelIndex();
                const QModelIndex to = args.at(1).toModelIndex();
                if (from.row() <= row && to.row() >= row && from.column() <= AlertsModel::StateColumn &&
                    to.column() >= AlertsModel::StateColumn)
                    return true;
            }
            return false;
        };
        // Nothing to wait for: real time passes and the monitor's clock does not, so nothing may change.
        QTest::qWait(800);
        QVERIFY(!stateRepainted());
        QCOMPARE(state().data().toString(), QStringLiteral("muted"));
        clock->advanceMs(600);
        QTRY_VERIFY_WITH_TIMEOUT(stateRepainted(), 3000);
        QCOMPARE(state().data().toString(), QStringLiteral("active"));
        QCOMPARE(alerts.monitor()->subjectMutedForMs(AlertMonitor::nodeSubject(2)), 0);
        QCOMPARE(alerts.model()->alertAt(state().row()).notifications, 1); // no reminder: only the state changed
        controller.stop();
    }

    // Opened by a notification while a lock's detail is shown (its tables and timeline have minimum heights): the
    // dock gets room for several alerts, taken from the panels above, not a sliver of two rows.
    void alertsDockOpensWithRoomForSeveralAlerts()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(5, {}, &error), qPrintable(error));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(DirectRedis(cluster.port(i)).command({"SET", "orders:1", "holder-1", "PX", "600000"}).str,
                     QByteArray("OK"));
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ClusterController controller;
        MainWindow window(&controller);
        AlertsFeature alerts(&controller, &window, &settings);
        window.show();
        ClusterSettings s;
        s.nodes = cluster.endpoints();
        s.pattern = "orders:*"; // the lock keys: their plain values count (under "*" only lock formats do)
        QVERIFY2(controller.start(s, &error), qPrintable(error));
        QVERIFY(alerts.monitor());
        // The lock is selected and its detail shown.
        QTRY_VERIFY_WITH_TIMEOUT(window.locksView()->currentIndex().isValid(), 15000);
        QVERIFY(!alerts.dock()->isVisible());

        AuditFinding severe;
        severe.ruleId = QStringLiteral("same-server");
        severe.severity = AuditFinding::Severity::Severe;
        severe.nodes = {0, 1};
        alerts.monitor()->setFindings({severe});
        alerts.monitor()->evaluate();
        QVERIFY(alerts.dock()->isVisible());
        QTRY_VERIFY2_WITH_TIMEOUT(
            alerts.dock()->height() >= window.height() / 5,
            qPrintable(QStringLiteral("dock %1 of %2 px").arg(alerts.dock()->height()).arg(window.height())), 5000);
        controller.stop();
    }

    // A leftover on every lock after a restart (hostile N16: "Alerts (10006)"): one row with the count and a few
    // example keys, one entry in the event log, one notification.
    void alertStormIsOneRow()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        constexpr int kKeys = 500;
        QCOMPARE(DirectRedis(cluster.port(0))
                     .command({"EVAL",
                               "for i = 1, tonumber(ARGV[1]) do redis.call('SET', string.format('storm:%04d', i), "
                               "'holder', 'PX', 600000) end return 'OK'",
                               "0", QByteArray::number(kKeys)})
                     .str,
                 QByteArray("OK"));
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ClusterController controller;
        MainWindow window(&controller);
        AlertsFeature alerts(&controller, &window, &settings);
        auto clock = std::make_shared<ManualClock>();
        alerts.setClock(clock);
        QAbstractItemModelTester tester(alerts.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy notified(&alerts, &AlertsFeature::notified);
        window.show();
        ClusterSettings s;
        s.nodes = cluster.endpoints();
        s.pattern = "storm:*"; // the lock keys: their plain values count (under "*" only lock formats do)
        QVERIFY2(controller.start(s, &error), qPrintable(error));
        QVERIFY(alerts.monitor());
        QTRY_COMPARE_WITH_TIMEOUT(window.locksView()->model()->rowCount(), kKeys, 30000);
        alerts.monitor()->evaluate();
        clock->advanceMs(alerts.monitor()->thresholds().after(AlertRule::MinorityLeftover) + 1000);
        alerts.monitor()->evaluate();

        QCOMPARE(alerts.model()->rowCount(), 1);
        const QModelIndex rule = alerts.model()->index(0, AlertsModel::RuleColumn);
        QCOMPARE(rule.data(AlertsModel::CountRole).toInt(), kKeys);
        QVERIFY2(rule.data().toString().contains(QString::number(kKeys)), qPrintable(rule.data().toString()));
        const QModelIndex message = alerts.model()->index(0, AlertsModel::MessageColumn);
        QVERIFY2(message.data().toString().contains(QStringLiteral("storm:0001")),
                 qPrintable(message.data().toString()));
        QVERIFY(message.data(Qt::ToolTipRole).toString().contains(QStringLiteral("storm:0003")));
        QCOMPARE(countEvents(window.eventLog(), QStringLiteral("alert-raised")), 1);
        QCOMPARE(notified.size(), 1);
        QCOMPARE(alerts.dock()->windowTitle(), QStringLiteral("Alerts (1)"));
        controller.stop();
    }

    void thresholdsPersist()
    {
        {
            QSettings empty(settingsPath(), QSettings::IniFormat);
            QCOMPARE(AlertSettings::load(empty), AlertThresholds{});
        }
        AlertThresholds edited;
        {
            QSettings settings(settingsPath(), QSettings::IniFormat);
            ClusterController controller;
            MainWindow window(&controller);
            AlertsFeature alerts(&controller, &window, &settings);
            AlertThresholdsDialog* dialog = alerts.openThresholds();
            QVERIFY(dialog);
            QCOMPARE(dialog->thresholds(), AlertThresholds{});
            auto* nodeDown = dialog->findChild<QSpinBox*>(QStringLiteral("after-node-down"));
            auto* held = dialog->findChild<QCheckBox*>(QStringLiteral("enabled-lock-held"));
            auto* clearAfter = dialog->findChild<QSpinBox*>(QStringLiteral("clearAfter"));
            QVERIFY(nodeDown && held && clearAfter);
            nodeDown->setValue(42);
            held->setChecked(false);
            clearAfter->setValue(12);
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            edited = alerts.thresholds();
            QCOMPARE(edited.after(AlertRule::NodeDown), 42000);
            QVERIFY(!edited.isEnabled(AlertRule::LockHeld));
            QCOMPARE(edited.clearAfterMs, 12000);
        }
        QSettings settings(settingsPath(), QSettings::IniFormat);
        QCOMPARE(AlertSettings::load(settings), edited);
        // The next console starts with them, and so does its monitor.
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        ClusterController controller;
        MainWindow window(&controller);
        AlertsFeature alerts(&controller, &window, &settings);
        QCOMPARE(alerts.thresholds(), edited);
        ClusterSettings s;
        s.nodes = cluster.endpoints();
        QVERIFY2(controller.start(s, &error), qPrintable(error));
        QCOMPARE(alerts.monitor()->thresholds(), edited);
        // Restore defaults in the dialog.
        AlertThresholdsDialog* dialog = alerts.openThresholds();
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::RestoreDefaults)->click();
        QCOMPARE(dialog->thresholds(), AlertThresholds{});
        dialog->reject();
        QCOMPARE(alerts.thresholds(), edited);
        controller.stop();
    }
};

QTEST_MAIN(TestAlertsFeature)
#include "TestAlertsFeature.moc"
