// The test bench against real redis-server processes: a single acquire with per-node rows, validity and
// fencing token, release; auto-extension listed and a clear "lost" when an extension fails; a run of K
// clients x iterations with statistics and CSV / JSON exports that parse.

#include "bench/BenchPanel.h"
#include "controller/BenchRun.h"
#include "localcluster/LocalCluster.h"
#include "support/DirectRedis.h"
#include "support/ObservationTestSupport.h"
#include "support/OperatorTestSupport.h"

#include <QCheckBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

class TestBenchPanel : public QObject
{
    Q_OBJECT

    LocalCluster m_cluster;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(3, {}, &error), qPrintable(error));
    }

    void init()
    {
        for (int i = 0; i < m_cluster.size(); ++i)
            DirectRedis(m_cluster.port(i)).flushAll();
    }

    void singleAcquireShowsNodesAndReleases()
    {
        BenchPanel panel;
        panel.resize(1100, 420);
        panel.setCluster(m_cluster.endpoints(), false);
        panel.show();
        panel.resourceEdit()->setText(QStringLiteral("bench:single"));
        panel.fencingBox()->setChecked(true);
        QSignalSpy acquired(&panel, &BenchPanel::acquireFinished);
        QTest::mouseClick(panel.acquireButton(), Qt::LeftButton);
        QVERIFY(waitForCount(acquired, 1));
        QCOMPARE(acquired.first().first().toBool(), true);
        QVERIFY(panel.isHolding());
        QCOMPARE(panel.nodesTable()->rowCount(), 3);
        // The decision comes at quorum: a third node may not have answered yet.
        int acquiredRows = 0;
        for (int row = 0; row < 3; ++row)
            acquiredRows += panel.nodesTable()->item(row, 1)->text() == outcomeKindName(NodeOutcome::Kind::Acquired);
        QVERIFY(acquiredRows >= 2);
        QVERIFY(panel.lockStateLabel()->text().contains(QStringLiteral("fencing token")));
        QVERIFY(panel.lock().fencingToken >= 1);
        QTRY_COMPARE(DirectRedis(m_cluster.port(0)).get("bench:single"), std::optional<QByteArray>(panel.lock().token));

        QSignalSpy extended(&panel, &BenchPanel::extendFinished);
        QTest::mouseClick(panel.extendButton(), Qt::LeftButton);
        QVERIFY(waitForCount(extended, 1));
        QCOMPARE(extended.first().first().toBool(), true);
        QCOMPARE(panel.extensionsList()->count(), 1);
        screenshot(&panel, QStringLiteral("bench-single"));

        QSignalSpy released(&panel, &BenchPanel::releaseFinished);
        QTest::mouseClick(panel.releaseButton(), Qt::LeftButton);
        QVERIFY(waitForCount(released, 1));
        QCOMPARE(released.first().first().toBool(), true);
        QVERIFY(!panel.isHolding());
        for (int i = 0; i < 3; ++i)
            QVERIFY(!DirectRedis(m_cluster.port(i)).exists("bench:single"));
    }

    void autoExtendShowsExtensionsAndLost()
    {
        BenchPanel panel;
        panel.setCluster(m_cluster.endpoints(), false);
        panel.show();
        panel.resourceEdit()->setText(QStringLiteral("bench:kept"));
        panel.ttlBox()->setValue(2000); // extended with about 660 ms left: room for a loaded machine
        panel.autoExtendBox()->setChecked(true);
        QSignalSpy acquired(&panel, &BenchPanel::acquireFinished);
        QSignalSpy lost(&panel, &BenchPanel::lockLost);
        QTest::mouseClick(panel.acquireButton(), Qt::LeftButton);
        QVERIFY(waitForCount(acquired, 1));
        QCOMPARE(acquired.first().first().toBool(), true);
        QVERIFY(!panel.extendButton()->isEnabled()); // the keeper extends
        QTRY_VERIFY_WITH_TIMEOUT(panel.extensionsList()->count() >= 2, 10000);
        QCOMPARE(lost.size(), 0); // two real extensions, not a "LOST" line
        // Someone else takes the key everywhere: the next extension fails and the lock is lost.
        for (int i = 0; i < 3; ++i)
            DirectRedis(m_cluster.port(i)).set("bench:kept", "someone-else", 60000);
        QVERIFY(waitForCount(lost, 1));
        QVERIFY(panel.lockStateLabel()->text().contains(QStringLiteral("LOST")));
        QVERIFY(!panel.isHolding());
        QVERIFY(!panel.releaseButton()->isEnabled());
        screenshot(&panel, QStringLiteral("bench-lost"));
    }

    void runProducesStatsAndExports()
    {
        BenchPanel panel;
        panel.resize(1100, 420);
        panel.setCluster(m_cluster.endpoints(), false);
        panel.show();
        panel.resourceEdit()->setText(QStringLiteral("bench:run"));
        panel.clientsBox()->setValue(4);
        panel.iterationsBox()->setValue(10);
        QSignalSpy finished(&panel, &BenchPanel::runFinished);
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(waitForCount(finished, 1, 60000));
        const BenchStats& stats = panel.lastRun();
        QCOMPARE(stats.samples.size(), 40);
        QVERIFY(stats.succeeded() > 0);
        QVERIFY(stats.percentileUs(50) > 0);
        QVERIFY(stats.percentileUs(99) >= stats.percentileUs(50));
        QCOMPARE(stats.nodeErrors, (QList<int>{0, 0, 0}));
        int histogramTotal = 0;
        for (int n : stats.histogram(12))
            histogramTotal += n;
        QCOMPARE(histogramTotal, 40);
        QVERIFY(panel.statsLabel()->text().contains(QStringLiteral("p99")));
        QVERIFY(panel.runButton()->isEnabled());
        screenshot(&panel, QStringLiteral("bench-run"));

        QTemporaryDir dir;
        const QString csvPath = dir.filePath(QStringLiteral("run.csv"));
        const QString jsonPath = dir.filePath(QStringLiteral("run.json"));
        QVERIFY(panel.exportCsv(csvPath));
        QVERIFY(panel.exportJson(jsonPath));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 41);
        QVERIFY(lines[0].startsWith("client,iteration,ok,latency_us"));
        int ok = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> fields = lines[i].split(',');
            QVERIFY(fields.size() >= 9);
            ok += fields[2].toInt();
        }
        QCOMPARE(ok, stats.succeeded());
        QFile json(jsonPath);
        QVERIFY(json.open(QIODevice::ReadOnly));
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json.readAll(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.object().value(QStringLiteral("acquires")).toInt(), 40);
        QCOMPARE(doc.object().value(QStringLiteral("samples")).toArray().size(), 40);
        QCOMPARE(doc.object().value(QStringLiteral("succeeded")).toInt(), stats.succeeded());
    }
};

QTEST_MAIN(TestBenchPanel)
#include "TestBenchPanel.moc"
