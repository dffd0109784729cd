#include "ClusterController.h"
#include "LockDetailPanel.h"
#include "LocksModel.h"
#include "LocksProxyModel.h"
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "ValidityTimeline.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

using namespace redlock;

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
};

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
