#include "bench/BenchPanel.h"
#include "controller/ClusterController.h"
#include "models/LocksModel.h"
#include "models/LocksProxyModel.h"
#include "operate/OperatorFeature.h"
#include "support/UiTestSupport.h"
#include "theme/StatePalette.h"
#include "views/LockDetailPanel.h"
#include "views/MainWindow.h"
#include "views/ValidityTimeline.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QWidgetAction>
#include <QtTest>

using namespace redlock;

namespace {
// A panel that asks for a given size, as the lock history's does.
class SizedPanel : public QWidget
{
public:
    explicit SizedPanel(QSize hint) : m_hint(hint) {}
    QSize sizeHint() const override { return m_hint; }

private:
    QSize m_hint;
};
} // namespace

// The main window's widgets driven with QTest input, offscreen: the models are fed the way the controller
// feeds them, without a cluster.
class TestMainWindow : public QObject
{
    Q_OBJECT

    void fill(MainWindow& window)
    {
        window.locksModel()->setCountdownInterval(0);
        window.locksModel()->reset(5);
        LockChangeSet c;
        c.fullRefresh = true;
        c.appeared = {heldView("orders:1", 10000), heldView("orders:2", 9000), heldView("cache:rebuild:7", 60000),
                      makeLockView("payments:batch", {"a", "a", "b", "b", "c"}, {})};
        window.locksModel()->applyChanges(c);
    }

    // The colour of an icon's fully opaque pixels at 16 px.
    static QColor inkOf(const QIcon& icon)
    {
        const QImage image = icon.pixmap(16, 16).toImage().convertToFormat(QImage::Format_ARGB32);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qAlpha(image.pixel(x, y)) == 255)
                    return QColor::fromRgb(image.pixel(x, y));
        return {};
    }

private slots:
    void filterBoxFilters()
    {
        ClusterController controller;
        MainWindow window(&controller);
        QAbstractItemModelTester tester(window.locksProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        fill(window);
        QCOMPARE(window.locksView()->model()->rowCount(), 4);
        window.locksFilter()->setFocus();
        QTest::keyClicks(window.locksFilter(), QStringLiteral("orders"));
        QCOMPARE(window.locksView()->model()->rowCount(), 2);
        QTest::keyClick(window.locksFilter(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(window.locksFilter(), QStringLiteral("contested"));
        QCOMPARE(window.locksView()->model()->rowCount(), 1);
        QCOMPARE(window.locksView()->model()->index(0, 0).data().toString(), QStringLiteral("payments:batch"));
    }

    void headerClickSortsOnRawValues()
    {
        ClusterController controller;
        MainWindow window(&controller);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        fill(window);
        QHeaderView* header = window.locksView()->horizontalHeader();
        const int x = header->sectionViewportPosition(LocksModel::ValidityColumn) +
                      header->sectionSize(LocksModel::ValidityColumn) / 2;
        auto keyAt = [&](int row) {
            return window.locksView()->model()->index(row, 0).data(LocksModel::KeyRole).toByteArray();
        };
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        const Qt::SortOrder first = header->sortIndicatorOrder();
        QCOMPARE(header->sortIndicatorSection(), int(LocksModel::ValidityColumn));
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        QVERIFY(header->sortIndicatorOrder() != first);
        if (header->sortIndicatorOrder() != Qt::AscendingOrder)
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        // Ascending by expiry: the contested lock (no validity) first, then 9 s before 10 s before 60 s —
        // which a sort on the display text ("10.0 s" < "9.0 s") would get wrong.
        QCOMPARE(keyAt(0), QByteArray("payments:batch"));
        QCOMPARE(keyAt(1), QByteArray("orders:2"));
        QCOMPARE(keyAt(2), QByteArray("orders:1"));
        QCOMPARE(keyAt(3), QByteArray("cache:rebuild:7"));
    }

    void selectingARowShowsTheDetail()
    {
        ClusterController controller;
        MainWindow window(&controller);
        window.show();
        fill(window);
        window.locksView()->sortByColumn(LocksModel::KeyColumn, Qt::AscendingOrder);
        const QRect rect = window.locksView()->visualRect(window.locksView()->model()->index(0, 0));
        QTest::mouseClick(window.locksView()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(window.detail()->key(), QByteArray("cache:rebuild:7"));
        QVERIFY(window.detail()->timeline()->validityEndsInMs() > 50000);
        QVERIFY(window.detail()->timeline()->quorumEndsInMs() > window.detail()->timeline()->validityEndsInMs());
    }

    // Sorting by another column, or filtering, puts a sorting model under the table and back (a reset of the view):
    // the lock the operator selected stays selected, and one filtered out is no longer selected for anyone.
    void selectionSurvivesSortAndFilterSwitches()
    {
        ClusterController controller;
        MainWindow window(&controller);
        window.show();
        fill(window);
        QTableView* view = window.locksView();
        QVERIFY(window.locksProxy()->isPassThrough());
        const int row = window.locksProxy()->rowOfLocksRow(window.locksModel()->rowOf("orders:2"));
        view->selectRow(row);
        QCOMPARE(window.detail()->key(), QByteArray("orders:2"));
        auto selectedKey = [&] {
            const QModelIndex current = view->selectionModel()->currentIndex();
            return current.isValid() ? current.data(LocksModel::KeyRole).toByteArray() : QByteArray();
        };
        view->sortByColumn(LocksModel::ValidityColumn, Qt::DescendingOrder);
        QVERIFY(!window.locksProxy()->isPassThrough());
        QCOMPARE(selectedKey(), QByteArray("orders:2"));
        QVERIFY(view->selectionModel()->isRowSelected(view->selectionModel()->currentIndex().row()));
        view->sortByColumn(LocksModel::KeyColumn, Qt::AscendingOrder);
        QVERIFY(window.locksProxy()->isPassThrough());
        QCOMPARE(selectedKey(), QByteArray("orders:2"));
        QCOMPARE(window.detail()->key(), QByteArray("orders:2"));
        window.locksFilter()->setText(QStringLiteral("cache"));
        QVERIFY(!window.locksProxy()->isPassThrough());
        QCOMPARE(view->model()->rowCount(), 1);
        QCOMPARE(selectedKey(), QByteArray());
        QCOMPARE(window.detail()->key(), QByteArray()); // told: not left showing a lock that is not in the table
        // Filtered out while sorted (the sorting model stays): nothing current, not a neighbour no one picked.
        window.locksFilter()->clear();
        view->sortByColumn(LocksModel::ValidityColumn, Qt::AscendingOrder);
        view->selectRow(window.locksProxy()->rowOfLocksRow(window.locksModel()->rowOf("orders:1")));
        QCOMPARE(window.detail()->key(), QByteArray("orders:1"));
        window.locksFilter()->setText(QStringLiteral("cache"));
        QVERIFY(!window.locksProxy()->isPassThrough());
        QCOMPARE(view->model()->rowCount(), 1);
        QCOMPARE(selectedKey(), QByteArray());
        QCOMPARE(window.detail()->key(), QByteArray());
        // Released while selected (in key order): the same.
        window.locksFilter()->clear();
        view->sortByColumn(-1, Qt::AscendingOrder);
        QVERIFY(window.locksProxy()->isPassThrough());
        view->selectRow(window.locksProxy()->rowOfLocksRow(window.locksModel()->rowOf("orders:1")));
        QCOMPARE(window.detail()->key(), QByteArray("orders:1"));
        LockChangeSet gone;
        gone.disappeared = {QByteArray("orders:1")};
        window.locksModel()->applyChanges(gone);
        QCOMPARE(selectedKey(), QByteArray());
        QCOMPARE(window.detail()->key(), QByteArray());
    }

    // Issue 14: every toolbar action has a keyboard shortcut, no two actions share one, and Help lists them.
    void everyToolbarActionHasAShortcutListedInHelp()
    {
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature operatorFeature(&controller, &window);
        const auto* toolbar = window.findChild<QToolBar*>(QStringLiteral("clusterToolbar"));
        QVERIFY(toolbar);
        const QList<MainWindow::Shortcut> listed = window.shortcuts();
        QSet<QKeySequence> seen;
        for (const MainWindow::Shortcut& s : listed) {
            QVERIFY2(!seen.contains(s.keys), qPrintable(s.keys.toString() + QStringLiteral(" twice")));
            seen.insert(s.keys);
        }
        int buttons = 0;
        for (QAction* action : toolbar->actions()) {
            if (qobject_cast<QWidgetAction*>(action) || action->isSeparator())
                continue; // the mode label
            ++buttons;
            QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->text()));
            QVERIFY2(seen.contains(action->shortcut()), qPrintable(action->text()));
        }
        QVERIFY(buttons >= 4);
        // Help comes last, after the menus the operator console adds.
        const QList<QAction*> menus = window.menuBar()->actions();
        QCOMPARE(menus.last()->menu()->actions().first()->objectName(), QStringLiteral("shortcutsAction"));
    }

    void findShortcutFocusesTheFilter()
    {
        ClusterController controller;
        MainWindow window(&controller);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        fill(window);
        window.locksView()->setFocus();
        QTest::keyClick(window.locksView(), Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(window.locksFilter()->hasFocus());
    }

    // Issue 14: splitters and column widths come back on the next run.
    void layoutIsRestoredBetweenRuns()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("layout.ini")), QSettings::IniFormat);
        ClusterController controller;
        {
            MainWindow window(&controller);
            window.show();
            fill(window);
            window.locksView()->setColumnWidth(LocksModel::HolderColumn, 321);
            window.locksView()->setColumnWidth(LocksModel::ColumnCount, 99);
            window.findChild<QSplitter*>(QStringLiteral("middleSplit"))
                ->setSizes({400, 800}); // the default is 920, 470
            window.saveLayout(settings);
        }
        MainWindow window(&controller);
        window.show();
        fill(window);
        window.restoreLayout(settings);
        QCOMPARE(window.locksView()->columnWidth(LocksModel::HolderColumn), 321);
        // The TTL columns share the first one's width.
        QCOMPARE(window.locksView()->columnWidth(LocksModel::ColumnCount), 99);
        QCOMPARE(window.locksView()->columnWidth(LocksModel::ColumnCount + 4), 99);
        const QList<int> sizes = window.findChild<QSplitter*>(QStringLiteral("middleSplit"))->sizes();
        QVERIFY2(sizes.value(0) < sizes.value(1),
                 qPrintable(QStringLiteral("%1 %2").arg(sizes.value(0)).arg(sizes.value(1))));
    }

    // A dock whose panel asks for much (the lock history's filters, table and timeline) opens on a third of the
    // window at most, so the locks table keeps most rows; what the operator resizes afterwards is kept.
    void docksOpenOnAThirdOfTheWindowAtMost()
    {
        ClusterController controller;
        MainWindow window(&controller);
        window.resize(1400, 900);
        window.show();
        fill(window);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* plain = new QWidget;
        plain->setMinimumSize(100, 60);
        QDockWidget* big =
            window.addDockPanel(new SizedPanel(QSize(900, 600)), QStringLiteral("Big"), QStringLiteral("bigDock"));
        QDockWidget* small = window.addDockPanel(plain, QStringLiteral("Small"), QStringLiteral("smallDock"));
        big->show();
        small->show();
        big->raise();
        const int third = window.height() / 3;
        QTRY_VERIFY2(big->isVisible() && big->height() > 0 && big->height() <= third,
                     qPrintable(QStringLiteral("dock %1 px, window %2 px").arg(big->height()).arg(window.height())));
        const int rows =
            window.locksView()->viewport()->height() / window.locksView()->verticalHeader()->defaultSectionSize();
        QVERIFY2(rows >= 4, qPrintable(QStringLiteral("%1 rows of the locks table").arg(rows)));

        window.resizeDocks({big}, {window.height() / 2}, Qt::Vertical);
        QTRY_VERIFY(big->height() > third);
        const int chosen = big->height();
        big->hide();
        big->show();
        QTRY_VERIFY(big->isVisible());
        QTest::qWait(50); // an absence: give a resize posted with the show its chance to happen
        QCOMPARE(big->height(), chosen);
    }

    void aboutNamesVersionQtAndLicence()
    {
        QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7"));
        const QString text = MainWindow::aboutText();
        QVERIFY(text.contains(QStringLiteral("9.8.7")));
        QVERIFY(text.contains(QString::fromLatin1(qVersion())));
        QVERIFY(text.contains(QStringLiteral("MIT")));
        QVERIFY(text.contains(QStringLiteral("GPL")));
    }

    // The operator's actions reach the window through its extension points (toolbar section, dock, detail row),
    // not by toolbar index or a layout cast; every toolbar and menu action has an icon.
    void operatorActionsGoThroughTheExtensionPoints()
    {
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature operatorFeature(&controller, &window);
        const auto* toolbar = window.findChild<QToolBar*>(QStringLiteral("clusterToolbar"));
        QVERIFY(toolbar);
        const QList<QAction*> actions = toolbar->actions();
        QVERIFY2(qobject_cast<QWidgetAction*>(actions.last()), "the mode label stays last");
        const qsizetype force = actions.indexOf(operatorFeature.forceReleaseAction());
        QVERIFY(force >= 3);
        QVERIFY(actions[force - 1]->isSeparator());
        QCOMPARE(actions.indexOf(operatorFeature.testBenchAction()), force + 1);
        for (QAction* action : actions) {
            if (!qobject_cast<QWidgetAction*>(action) && !action->isSeparator())
                QVERIFY2(!action->icon().isNull(), qPrintable(action->text()));
        }
        for (QAction* top : window.menuBar()->actions()) {
            for (QAction* action : top->menu()->actions()) {
                if (!action->isSeparator())
                    QVERIFY2(!action->icon().isNull(), qPrintable(action->text()));
            }
        }
        const auto* dock = window.findChild<QDockWidget*>(QStringLiteral("testBenchDock"));
        QVERIFY(dock);
        QCOMPARE(dock->widget(), operatorFeature.testBench());
        QVERIFY(dock->isHidden());
        const auto* button = window.detail()->findChild<QPushButton*>(QStringLiteral("detailForceRelease"));
        QVERIFY(button);
        QVERIFY(!button->icon().isNull());
    }

    // A new application palette (a desktop switching to dark) redraws the action icons in its text colour.
    void actionIconsFollowThePalette()
    {
        const QPalette original = QApplication::palette();
        const auto restore = qScopeGuard([&] { QApplication::setPalette(original); });
        ClusterController controller;
        MainWindow window(&controller);
        OperatorFeature operatorFeature(&controller, &window);
        QAction* forceRelease = operatorFeature.forceReleaseAction();
        QCOMPARE(inkOf(forceRelease->icon()), original.color(QPalette::ButtonText));
        const QPalette dark = StatePalette::darkApplicationPalette();
        QApplication::setPalette(dark);
        QTRY_COMPARE(inkOf(forceRelease->icon()), dark.color(QPalette::ButtonText));
        QCOMPARE(inkOf(window.findChild<QToolBar*>(QStringLiteral("clusterToolbar"))->actions().first()->icon()),
                 dark.color(QPalette::ButtonText));
        QCOMPARE(inkOf(window.detail()->findChild<QPushButton*>(QStringLiteral("detailForceRelease"))->icon()),
                 dark.color(QPalette::ButtonText));
    }
};

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
