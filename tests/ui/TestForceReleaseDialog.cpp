// The force release dialog against real redis-server processes: preview on the I/O thread, the lock-delay
// (automatic by default: a tombstone for the remaining validity plus drift; fixed; none), compare-and-set
// with the token the operator saw (a changed token is left to its new holder and reported), the typed key for
// production profiles, read-only mode disabling every destructive action, an audit log that cannot be
// written (refused, nothing deleted, said in red), and the audit log viewer.

#include "bench/BenchPanel.h"
#include "controller/ClusterController.h"
#include "localcluster/LocalCluster.h"
#include "models/EventLogModel.h"
#include "models/LocksModel.h"
#include "operate/AuditLog.h"
#include "operate/AuditLogDialog.h"
#include "operate/ForceReleaseDialog.h"
#include "operate/OperatorFeature.h"
#include "redlock/LockToken.h"
#include "redlock/RedlockRules.h"
#include "support/DirectRedis.h"
#include "support/OperatorTestSupport.h"
#include "theme/StatePalette.h"
#include "views/LockDetailPanel.h"
#include "views/MainWindow.h"
#include "views/NodesPanel.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;
using Kind = ForceReleaseNode::Kind;

class TestForceReleaseDialog : public QObject
{
    Q_OBJECT

    LocalCluster m_cluster;
    std::unique_ptr<QTemporaryDir> m_dir;

    OperatorSettings settings(bool production, bool readOnly) const
    {
        OperatorSettings s;
        s.cluster.nodes = m_cluster.endpoints();
        s.cluster.profileName = QStringLiteral("test-profile");
        s.cluster.readOnly = readOnly;
        s.production = production;
        s.auditLogPath = m_dir->filePath(QStringLiteral("audit.jsonl"));
        s.restartStateFile = m_dir->filePath(QStringLiteral("restarts.json"));
        return s;
    }

    void setOn(const QList<int>& nodes, const QByteArray& key, const QByteArray& value)
    {
        for (int i : nodes)
            DirectRedis(m_cluster.port(i)).set(key, value, 60000);
    }

    static QList<Kind> kinds(const ForceReleaseReport& r)
    {
        QList<Kind> out;
        for (const ForceReleaseNode& n : r.nodes)
            out << n.kind;
        return out;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QString error;
        QVERIFY2(m_cluster.start(5, {}, &error), qPrintable(error));
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i)).flushAll();
    }

    // The default is the lock-delay: the preview says per node how long the tombstone lasts and when the lock
    // is free; the release replaces the token with the tombstone where it still matches.
    void lockDelayIsTheDefault()
    {
        setOn({0, 1, 2}, "orders:7", "tok-A");
        setOn({3}, "orders:7", "tok-B");
        OperatorActions actions;
        actions.configure(settings(false, false));
        ForceReleaseDialog dialog(&actions, "orders:7", "tok-A", QStringLiteral("host pid 1 (billing-worker)"));
        dialog.show();
        QTRY_VERIFY(dialog.hasPreview());
        QVERIFY(dialog.preview().lockDelay == LockDelay::automatic());
        QCOMPARE(kinds(dialog.preview()), (QList<Kind>{Kind::WillTombstone, Kind::WillTombstone, Kind::WillTombstone,
                                                       Kind::TokenChanged, Kind::Gone}));
        QVERIFY(!dialog.lockDelayMs()->isEnabled());
        // The key's PTTL as read plus the drift on it (whatever time has passed since the SET).
        const qint64 delay0 = dialog.preview().nodes[0].lockDelayMs;
        const qint64 pttl0 = dialog.preview().nodes[0].pttlMs;
        QVERIFY2(pttl0 > 0 && pttl0 <= 60000, qPrintable(QString::number(pttl0)));
        QCOMPARE(delay0, pttl0 + rules::clockDriftMs(pttl0, 0.01));
        QCOMPARE(dialog.nodesTable()->item(0, 4)->text(), QStringLiteral("%1 ms").arg(delay0));
        QVERIFY(dialog.nodesTable()->item(0, 1)->text().contains(QStringLiteral("tombstone")));
        QVERIFY2(dialog.lockDelayLabel()->text().contains(QStringLiteral("The lock-delay lasts up to ")) &&
                     dialog.lockDelayLabel()->text().contains(QStringLiteral("free at")),
                 qPrintable(dialog.lockDelayLabel()->text()));
        QVERIFY(dialog.releaseButton()->isEnabled());
        screenshot(&dialog, QStringLiteral("force-release-lock-delay-preview"));

        // A fixed lock-delay: the preview runs again with it, and the release waits for that preview.
        dialog.lockDelayMode()->setCurrentIndex(1);
        QVERIFY(dialog.lockDelayMs()->isEnabled());
        // Shorter than the lock's 60 s: raised to the remaining validity plus drift, and said so.
        dialog.lockDelayMs()->setValue(45000);
        QTRY_VERIFY(dialog.preview().lockDelay == LockDelay::fixed(45000));
        QVERIFY(dialog.preview().nodes[1].lockDelayRaised);
        const qint64 raised1 = dialog.preview().nodes[1].lockDelayMs;
        const qint64 pttl1 = dialog.preview().nodes[1].pttlMs;
        QVERIFY2(pttl1 + rules::clockDriftMs(pttl1, 0.01) > 45000, qPrintable(QString::number(pttl1)));
        QCOMPARE(raised1, pttl1 + rules::clockDriftMs(pttl1, 0.01));
        QCOMPARE(dialog.nodesTable()->item(1, 4)->text(), QStringLiteral("%1 ms (raised)").arg(raised1));
        QVERIFY2(dialog.lockDelayLabel()->text().contains(
                     QStringLiteral("The fixed lock-delay is raised on 3 node(s) to cover the old holder's remaining "
                                    "validity plus drift.")),
                 qPrintable(dialog.lockDelayLabel()->text()));
        QVERIFY(dialog.preview().freeInMs > 45000); // not before the holder's validity, longer than asked
        // Longer: exactly the operator's duration.
        dialog.lockDelayMs()->setValue(90000);
        QTRY_VERIFY(dialog.preview().lockDelay == LockDelay::fixed(90000));
        QCOMPARE(dialog.preview().nodes[1].lockDelayMs, 90000);
        QVERIFY(!dialog.preview().nodes[1].lockDelayRaised);
        QCOMPARE(dialog.nodesTable()->item(1, 4)->text(), QStringLiteral("90000 ms"));
        QVERIFY(!dialog.lockDelayLabel()->text().contains(QStringLiteral("raised")));
        QVERIFY(dialog.releaseButton()->isEnabled());

        DirectRedis(m_cluster.port(0)).set("orders:7", "tok-C", 60000); // changes hands before the click
        QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
        QTRY_VERIFY(dialog.hasResult());
        QCOMPARE(kinds(dialog.result()),
                 (QList<Kind>{Kind::TokenChanged, Kind::Tombstoned, Kind::Tombstoned, Kind::TokenChanged, Kind::Gone}));
        const QByteArray tombstone = dialog.result().tombstone;
        QVERIFY(LockTombstone::decode(tombstone).has_value());
        QCOMPARE(DirectRedis(m_cluster.port(0)).get("orders:7"), std::optional<QByteArray>("tok-C"));
        for (int i : {1, 2}) {
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("orders:7"), std::optional<QByteArray>(tombstone));
            QVERIFY(DirectRedis(m_cluster.port(i)).pttl("orders:7") <= 90000);
            QVERIFY(DirectRedis(m_cluster.port(i)).pttl("orders:7") > 60000);
        }
        QVERIFY2(dialog.summaryLabel()->text().contains(QStringLiteral("Released with a lock-delay on 2 of 5")),
                 qPrintable(dialog.summaryLabel()->text()));
        QVERIFY(!dialog.lockDelayMode()->isEnabled());
        screenshot(&dialog, QStringLiteral("force-release-lock-delay-result"));
        const QJsonObject line = AuditLog::read(actions.auditLogPath()).last();
        QCOMPARE(line.value(QStringLiteral("lockDelay")).toString(), QStringLiteral("90000"));
    }

    void deletesWhereTokenMatchedAndReportsChangedToken()
    {
        setOn({0, 1, 2}, "orders:1", "tok-A");
        setOn({3}, "orders:1", "tok-B");
        OperatorActions actions;
        actions.configure(settings(false, false));
        ForceReleaseDialog dialog(&actions, "orders:1", "tok-A", QStringLiteral("host pid 1 (billing-worker)"));
        dialog.show();
        QTRY_VERIFY(dialog.hasPreview());
        dialog.lockDelayMode()->setCurrentIndex(2); // none: delete
        QTRY_VERIFY(dialog.preview().lockDelay == LockDelay::deleteNow());
        QCOMPARE(kinds(dialog.preview()),
                 (QList<Kind>{Kind::WillDelete, Kind::WillDelete, Kind::WillDelete, Kind::TokenChanged, Kind::Gone}));
        QCOMPARE(dialog.nodesTable()->rowCount(), 5);
        QVERIFY(dialog.nodesTable()->item(3, 1)->text().contains(QStringLiteral("token changed")));
        QVERIFY(dialog.releaseButton()->isEnabled());
        QVERIFY(!dialog.confirmEdit()->isVisible());
        screenshot(&dialog, QStringLiteral("force-release-preview"));

        // The lock changes hands on node 0 between the preview and the confirmation.
        DirectRedis(m_cluster.port(0)).set("orders:1", "tok-C", 60000);
        dialog.reasonEdit()->setText(QStringLiteral("stuck after a crash"));
        QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
        QTRY_VERIFY(dialog.hasResult());
        QCOMPARE(kinds(dialog.result()),
                 (QList<Kind>{Kind::TokenChanged, Kind::Deleted, Kind::Deleted, Kind::TokenChanged, Kind::Gone}));
        QCOMPARE(DirectRedis(m_cluster.port(0)).get("orders:1"), std::optional<QByteArray>("tok-C"));
        QVERIFY(!DirectRedis(m_cluster.port(1)).exists("orders:1"));
        QVERIFY(!DirectRedis(m_cluster.port(2)).exists("orders:1"));
        QCOMPARE(DirectRedis(m_cluster.port(3)).get("orders:1"), std::optional<QByteArray>("tok-B"));
        QVERIFY(dialog.nodesTable()->item(0, 1)->text().contains(QStringLiteral("left to the new holder")));
        QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("Deleted on 2 of 5")));
        QVERIFY(!dialog.releaseButton()->isEnabled());
        screenshot(&dialog, QStringLiteral("force-release-result"));

        // The core wrote the intent line, then the result line; the viewer lists them, newest first.
        const QList<QJsonObject> lines = AuditLog::read(actions.auditLogPath());
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].value(QStringLiteral("action")).toString(), QStringLiteral("force-release-intent"));
        QCOMPARE(lines[1].value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        AuditLogDialog viewer(actions.auditLogPath());
        viewer.show();
        QCOMPARE(viewer.table()->rowCount(), 2);
        QCOMPARE(viewer.table()->item(0, 3)->text(), QStringLiteral("force-release"));
        QCOMPARE(viewer.table()->item(0, 4)->text(), QStringLiteral("orders:1"));
        QVERIFY(viewer.table()->item(0, 5)->text().contains(QStringLiteral("#2 deleted")));
        QVERIFY(viewer.table()->item(0, 5)->text().contains(QStringLiteral("#1 token-changed")));
        screenshot(&viewer, QStringLiteral("audit-log"));
    }

    void unwritableAuditLogRefusesAndDeletesNothing()
    {
        setOn({0, 1, 2, 3, 4}, "orders:2", "tok-F");
        OperatorActions actions;
        OperatorSettings s = settings(false, false);
        s.auditLogPath = QStringLiteral("/dev/full"); // opens, but every write fails (ENOSPC)
        actions.configure(s);
        ForceReleaseDialog dialog(&actions, "orders:2", "tok-F", QStringLiteral("billing"));
        dialog.show();
        QTRY_VERIFY(dialog.hasPreview());
        QVERIFY(dialog.releaseButton()->isEnabled());
        QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
        QTRY_VERIFY(dialog.hasResult());
        QVERIFY(dialog.result().refused);
        const QString summary = dialog.summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("nothing was deleted")) &&
                     summary.contains(QStringLiteral("/dev/full")),
                 qPrintable(summary));
        QCOMPARE(dialog.summaryLabel()->palette().color(QPalette::WindowText),
                 StatePalette::forPalette(dialog.palette()).color(StatePalette::Role::Danger));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("orders:2"), std::optional<QByteArray>("tok-F"));
        screenshot(&dialog, QStringLiteral("force-release-audit-refused"));
    }

    // The release ran but its result line could not be written (the log became a full device while a paused
    // node held the release up): the dialog says so, and the console's event log keeps it.
    void unloggedResultIsShownInTheDialogAndTheEventLog()
    {
        const QByteArray token = LockToken::generate(QStringLiteral("hung-worker")).encode();
        setOn({0, 1, 2, 3, 4}, "orders:11", token);
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        const OperatorSettings defaults = settings(false, false);
        console.setDefaults(defaults);
        window.show();
        QString error;
        QVERIFY2(controller.start(defaults.cluster, &error), qPrintable(error));
        QTRY_VERIFY(window.locksModel()->viewFor("orders:11"));
        ForceReleaseDialog* dialog = console.openForceRelease("orders:11");
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->hasPreview());
        QVERIFY(m_cluster.pauseNode(4));
        auto resume = qScopeGuard([this] { m_cluster.resumeNode(4); });
        QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
        QTRY_COMPARE(AuditLog::read(defaults.auditLogPath).size(), 1); // the intent
        QVERIFY(QFile::remove(defaults.auditLogPath));
        QVERIFY(QFile::link(QStringLiteral("/dev/full"), defaults.auditLogPath));
        QVERIFY(m_cluster.resumeNode(4));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->hasResult(), 10000);
        QVERIFY(!dialog->result().refused);
        QVERIFY(!dialog->result().audited);
        QVERIFY2(dialog->summaryLabel()->text().contains(QStringLiteral("audit")),
                 qPrintable(dialog->summaryLabel()->text()));
        const EventLogModel* log = window.eventLog();
        auto released = [log] {
            for (int row = 0; row < log->rowCount(); ++row)
                if (log->entry(row).kindId == u"force-release")
                    return log->entry(row).texts.detail;
            return QString();
        };
        QTRY_VERIFY(!released().isEmpty());
        QVERIFY2(released().contains(QStringLiteral("could not be written to the audit log")), qPrintable(released()));
        controller.stop();
    }

    void productionProfileNeedsTheKeyTyped()
    {
        setOn({0, 1, 2, 3, 4}, "payments:settle", "tok-P");
        OperatorActions actions;
        actions.configure(settings(true, false));
        ForceReleaseDialog dialog(&actions, "payments:settle", "tok-P", QStringLiteral("settler"));
        dialog.show();
        QTRY_VERIFY(dialog.hasPreview());
        QVERIFY(dialog.confirmEdit()->isVisible());
        QVERIFY(!dialog.releaseButton()->isEnabled());
        QTest::keyClicks(dialog.confirmEdit(), QStringLiteral("payments:settl"));
        QVERIFY(!dialog.releaseButton()->isEnabled());
        dialog.execute(); // ignored: not confirmed
        QVERIFY(!dialog.hasResult());
        QTest::keyClicks(dialog.confirmEdit(), QStringLiteral("e"));
        QVERIFY(dialog.releaseButton()->isEnabled());
        screenshot(&dialog, QStringLiteral("force-release-production"));
        QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
        QTRY_VERIFY(dialog.hasResult());
        QCOMPARE(dialog.result().matched(), 5);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("payments:settle"),
                     std::optional<QByteArray>(dialog.result().tombstone));
    }

    void readOnlyDisablesDestructiveActions()
    {
        setOn({0, 1, 2, 3, 4}, "jobs:nightly", "tok-J");
        for (const bool readOnly : {true, false}) {
            ClusterController controller;
            MainWindow window(&controller);
            OperatorFeature console(&controller, &window);
            OperatorSettings defaults = settings(false, readOnly);
            console.setDefaults(defaults);
            window.show();
            ClusterSettings cs = defaults.cluster;
            cs.refreshIntervalMs = 1000;
            cs.pattern = QByteArrayLiteral("jobs:*"); // the operator names the lock keys: a plain value is a lock
            QString error;
            QVERIFY2(controller.start(cs, &error), qPrintable(error));
            QVERIFY(console.actions()->isConfigured());
            QTRY_VERIFY(window.locksModel()->rowOf("jobs:nightly") >= 0);
            window.locksView()->selectRow(0);
            window.nodesPanel()->view()->selectRow(0);
            QCOMPARE(console.forceReleaseAction()->isEnabled(), !readOnly);
            // A click on the row selects it as selectRow() does: Force release follows the operator's pick.
            window.locksView()->selectionModel()->clear();
            QVERIFY(!console.forceReleaseAction()->isEnabled());
            const QRect rect = window.locksView()->visualRect(window.locksView()->model()->index(0, 0));
            QTest::mouseClick(window.locksView()->viewport(), Qt::LeftButton, {}, rect.center());
            QCOMPARE(console.selectedKey(), QByteArray("jobs:nightly"));
            QCOMPARE(console.forceReleaseAction()->isEnabled(), !readOnly);
            QCOMPARE(console.restartAction()->isEnabled(), !readOnly);
            QCOMPARE(console.testBench()->acquireButton()->isEnabled(), !readOnly);
            QCOMPARE(console.testBench()->runButton()->isEnabled(), !readOnly);
            if (readOnly) {
                // The dialog still previews, but cannot release; the core refuses anyway.
                ForceReleaseDialog* dialog = console.openForceRelease("jobs:nightly");
                QVERIFY(dialog);
                QTRY_VERIFY(dialog->hasPreview());
                QVERIFY(!dialog->releaseButton()->isEnabled());
                screenshot(dialog, QStringLiteral("force-release-read-only"));
                dialog->close();
                auto future = console.actions()->executeForceRelease("jobs:nightly", "tok-J", {});
                future.waitForFinished();
                QVERIFY(future.result().refused);
                QVERIFY(DirectRedis(m_cluster.port(0)).exists("jobs:nightly"));
            }
            controller.stop();
        }
    }

    // After a release with lock-delay the locks table shows the tombstone as its own verdict (never held), its
    // validity column counts down to when the lock is free, the TTL cells are lock-delays, the lock detail says
    // so; then the lock is gone. A 60 s lock: nothing here races its expiry, however slow the machine; the
    // tombstones' end is brought forward by the test (PEXPIRE) rather than waited for.
    void lockDelayShowsInTheLocksTableThenFree()
    {
        // Long enough to outlast the console's start, the preview and the release on a loaded machine; the
        // tombstones are shortened at the end instead of waited out.
        const QByteArray token = LockToken::generate(QStringLiteral("hung-worker")).encode();
        for (int i = 0; i < 5; ++i)
            DirectRedis(m_cluster.port(i)).set("orders:9", token, 60000);
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        OperatorSettings defaults = settings(false, false);
        defaults.cluster.refreshIntervalMs = 300;
        console.setDefaults(defaults);
        window.show();
        QString error;
        QVERIFY2(controller.start(defaults.cluster, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.locksModel()->viewFor("orders:9"), 20000);
        QCOMPARE(window.locksModel()->viewFor("orders:9")->verdict, LockVerdict::Held);

        ForceReleaseDialog* dialog = console.openForceRelease("orders:9");
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->hasPreview());
        QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
        QTRY_VERIFY(dialog->hasResult());
        QCOMPARE(dialog->result().count(Kind::Tombstoned), 5);
        const QByteArray tombstone = dialog->result().tombstone;
        dialog->close();

        QTRY_COMPARE_WITH_TIMEOUT(window.locksModel()->viewFor("orders:9")->verdict, LockVerdict::ReleasedByOperator,
                                  20000);
        LocksModel* model = window.locksModel();
        const int row = model->rowOf("orders:9");
        QCOMPARE(model->countWithVerdict(LockVerdict::Held), 0);
        QVERIFY(model->index(row, LocksModel::VerdictColumn)
                    .data()
                    .toString()
                    .contains(lockVerdictName(LockVerdict::ReleasedByOperator)));
        const QString validity = model->index(row, LocksModel::ValidityColumn).data().toString();
        QVERIFY2(validity.startsWith(QStringLiteral("free in")), qPrintable(validity));
        QCOMPARE(model->index(row, LocksModel::ColumnCount).data(LocksModel::TtlCellRole).value<TtlCell>().kind,
                 TtlCell::Kind::Tombstone);
        QVERIFY(
            model->index(row, LocksModel::HolderColumn).data().toString().startsWith(QStringLiteral("released by")));
        QVERIFY(model->index(row, LocksModel::VerdictColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("free at")));
        window.locksView()->selectRow(window.locksView()->model()->index(0, 0).row());
        window.detail()->showKey("orders:9");
        auto* summary = window.detail()->findChild<QLabel*>(QStringLiteral("lockVerdictReason"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("Released by an operator with a lock-delay: free at")),
                 qPrintable(summary->text()));
        screenshot(&window, QStringLiteral("locks-lock-delay"));

        // The tombstones expire (their lock-delay ends now rather than in a minute): the lock is free, gone from
        // the table.
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("orders:9"), std::optional<QByteArray>(tombstone));
            QCOMPARE(DirectRedis(m_cluster.port(i)).command({"PEXPIRE", "orders:9", "1"}).integer, 1);
        }
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf("orders:9") < 0, 20000);
        controller.stop();
    }

    // A lock value without TTL (it never expires) is shown as stuck and can be force released; the audit
    // judges restarts by the configured max TTL, not by the largest PTTL in view (review items 11 and 13).
    void stuckLockIsShownAndReleasable()
    {
        const QByteArray token = LockToken::generate(QStringLiteral("crashed-worker")).encode();
        for (int i = 0; i < 5; ++i)
            DirectRedis(m_cluster.port(i)).set("jobs:stuck", token); // no PX
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        OperatorSettings defaults = settings(false, false);
        defaults.configuredMaxTtlMs = 3600000; // the nodes (no AOF) are younger than that: "recent-start"
        console.setDefaults(defaults);
        window.show();
        QString error;
        QVERIFY2(controller.start(defaults.cluster, &error), qPrintable(error));
        QVERIFY(console.actions()->isConfigured());
        QCOMPARE(controller.auditMaxTtlMs(), 3600000);
        QTRY_VERIFY(window.locksModel()->rowOf("jobs:stuck") >= 0);
        const int row = window.locksModel()->rowOf("jobs:stuck");
        QCOMPARE(window.locksModel()->viewFor("jobs:stuck")->verdict, LockVerdict::Stuck);
        QCOMPARE(window.locksModel()->countWithVerdict(LockVerdict::Stuck), 1);
        QVERIFY(window.locksModel()
                    ->index(row, LocksModel::VerdictColumn)
                    .data()
                    .toString()
                    .contains(lockVerdictName(LockVerdict::Stuck)));
        auto judgedByConfiguredTtl = [&] {
            for (const AuditFinding& f : controller.findings()) {
                if (f.ruleId == u"recent-start" && f.explanation.contains(QStringLiteral("3600000 ms")))
                    return true;
            }
            return false;
        };
        QTRY_VERIFY(judgedByConfiguredTtl());

        ForceReleaseDialog* dialog = console.openForceRelease("jobs:stuck");
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->hasPreview());
        // No expiry: the automatic lock-delay has nothing to measure; the operator chooses.
        QCOMPARE(dialog->preview().count(Kind::NoExpiry), 5);
        QVERIFY(!dialog->releaseButton()->isEnabled());
        dialog->lockDelayMode()->setCurrentIndex(2); // none: delete
        QTRY_VERIFY(dialog->preview().lockDelay == LockDelay::deleteNow());
        QVERIFY(dialog->releaseButton()->isEnabled());
        QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
        QTRY_VERIFY(dialog->hasResult());
        QCOMPARE(dialog->result().matched(), 5);
        for (int i = 0; i < 5; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("jobs:stuck"));
        dialog->close();
        controller.stop();
    }

    // Issue 24 item 2 (core N1), in the console: a value without expiry on node 5 beside a live quorum of another
    // token on nodes 1-3. The row reads held by the live holder, with "no expiry on #5" as its own fact (table and
    // detail); Force release from it targets the value without expiry and leaves the live holder's lock alone, with
    // no warning; a force release of the live holder's token is warned about (a quorum with validity left).
    void stuckBesideALiveHolderReleasesTheStuckValue()
    {
        const QByteArray old = LockToken::generate(QStringLiteral("crashed-worker")).encode();
        const QByteArray live = LockToken::generate(QStringLiteral("live-worker")).encode();
        DirectRedis(m_cluster.port(4)).set("jobs:beside", old); // no PX
        setOn({0, 1, 2}, "jobs:beside", live);
        setOn({0, 1, 2, 3, 4}, "jobs:live", live);
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature console(&controller, &window);
        const OperatorSettings defaults = settings(false, false);
        console.setDefaults(defaults);
        window.show();
        QString error;
        QVERIFY2(controller.start(defaults.cluster, &error), qPrintable(error));
        QTRY_VERIFY(window.locksModel()->rowOf("jobs:beside") >= 0 && window.locksModel()->rowOf("jobs:live") >= 0);
        const std::optional<LockView> view = window.locksModel()->viewFor("jobs:beside");
        QVERIFY(view);
        QCOMPARE(view->verdict, LockVerdict::Held);
        QCOMPARE(view->token, live);
        const QString verdictCell = window.locksModel()
                                        ->index(window.locksModel()->rowOf("jobs:beside"), LocksModel::VerdictColumn)
                                        .data()
                                        .toString();
        QVERIFY2(verdictCell.contains(lockVerdictName(LockVerdict::Held)) && verdictCell.contains(QStringLiteral("#5")),
                 qPrintable(verdictCell));
        QVERIFY(LocksModel::verdictReason(*view, 0).contains(QStringLiteral("crashed-worker")));
        window.detail()->showKey("jobs:beside");
        const auto* summary = window.detail()->findChild<QLabel*>(QStringLiteral("lockSummary"));
        QVERIFY(summary && summary->text().contains(u"#5"));
        const auto* reason = window.detail()->findChild<QLabel*>(QStringLiteral("lockVerdictReason"));
        QVERIFY(reason && reason->text().contains(QStringLiteral("crashed-worker")));

        ForceReleaseDialog* dialog = console.openForceRelease("jobs:beside");
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->hasPreview());
        QCOMPARE(dialog->preview().expectedToken, old);
        QVERIFY(dialog->liveHolderWarning()->isHidden());
        dialog->lockDelayMode()->setCurrentIndex(1); // fixed: a value without expiry has nothing to measure
        QTRY_VERIFY(dialog->preview().lockDelay.mode == LockDelay::Mode::Fixed);
        QCOMPARE(kinds(dialog->preview()), (QList<Kind>{Kind::TokenChanged, Kind::TokenChanged, Kind::TokenChanged,
                                                        Kind::Gone, Kind::WillTombstone}));
        QVERIFY(dialog->releaseButton()->isEnabled());
        QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
        QTRY_VERIFY(dialog->hasResult());
        QCOMPARE(dialog->result().count(Kind::Tombstoned), 1);
        for (const int i : {0, 1, 2})
            QCOMPARE(DirectRedis(m_cluster.port(i)).get("jobs:beside"), std::optional<QByteArray>(live));
        QVERIFY(DirectRedis(m_cluster.port(4)).pttl("jobs:beside") > 0);
        dialog->close();

        // The live holder's own lock: the dialog says whose lock it would take.
        ForceReleaseDialog* liveDialog = console.openForceRelease("jobs:live");
        QVERIFY(liveDialog);
        QTRY_VERIFY(liveDialog->hasPreview());
        QCOMPARE(liveDialog->preview().expectedToken, live);
        QVERIFY(!liveDialog->liveHolderWarning()->isHidden());
        QVERIFY(!liveDialog->liveHolderWarning()->text().isEmpty());
        liveDialog->close();
        controller.stop();
    }
};

QTEST_MAIN(TestForceReleaseDialog)
#include "TestForceReleaseDialog.moc"
