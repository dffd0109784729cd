#include "models/NodesModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace redlock;

class TestNodesModel : public QObject
{
    Q_OBJECT

    static QList<NodeFacts> nodes(int n)
    {
        QList<NodeFacts> out;
        for (int i = 0; i < n; ++i) {
            NodeFacts f;
            f.node = i;
            f.endpoint = *NodeEndpoint::parse(QStringLiteral("127.0.0.1:%1").arg(7000 + i));
            out.append(f);
        }
        return out;
    }

private slots:
    void factsSamplesAndFindings()
    {
        NodesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNodes(nodes(5));
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(NodesModel::ColumnCount));
        QVERIFY(model.index(2, NodesModel::AddressColumn).data().toString().contains(QStringLiteral("127.0.0.1:7002")));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        NodeFacts f = nodes(5)[1];
        f.health = NodeHealth::Up;
        f.infoKnown = true;
        f.role = QStringLiteral("slave");
        f.uptimeSeconds = 125;
        model.setFacts(f);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first()[0].toModelIndex().row(), 1);
        QCOMPARE(changed.first()[1].toModelIndex().row(), 1);
        QVERIFY(model.index(1, NodesModel::StateColumn).data().toString().contains(nodeHealthName(NodeHealth::Up)));
        QCOMPARE(model.index(1, NodesModel::RoleColumn).data().toString(), QStringLiteral("replica"));
        QCOMPARE(model.index(1, NodesModel::UptimeColumn).data(NodesModel::RawValueRole).toLongLong(), 125000);

        NodeSample s;
        s.node = 1;
        s.latencyUs = 1500;
        s.clockOffsetUs = -2500;
        model.setSample(s);
        QCOMPARE(changed.size(), 2);
        QCOMPARE(changed.last()[0].toModelIndex().column(), int(NodesModel::LatencyColumn));
        QCOMPARE(changed.last()[1].toModelIndex().column(), int(NodesModel::UptimeColumn)); // uptime goes on
        QCOMPARE(model.index(1, NodesModel::LatencyColumn).data(NodesModel::RawValueRole).toLongLong(), 1500);
        QVERIFY(model.index(1, NodesModel::ClockOffsetColumn).data().toString().contains(QStringLiteral("-2.5")));
        // A later facts update keeps the sampled latency.
        model.setFacts(f);
        QCOMPARE(model.index(1, NodesModel::LatencyColumn).data(NodesModel::RawValueRole).toLongLong(), 1500);

        AuditFinding replica;
        replica.ruleId = QStringLiteral("replica");
        replica.severity = AuditFinding::Severity::Severe;
        replica.nodes = {1};
        replica.title = QStringLiteral("node is a replica");
        AuditFinding count;
        count.ruleId = QStringLiteral("node-count");
        count.severity = AuditFinding::Severity::Warning;
        count.title = QStringLiteral("even N");
        model.setFindings({replica, count});
        QCOMPARE(changed.size(), 4);
        QCOMPARE(changed.last()[0].toModelIndex().row(), 0);
        QCOMPARE(changed.last()[1].toModelIndex().row(), 4);
        QVERIFY(model.index(1, NodesModel::AuditColumn).data().toString().contains(QStringLiteral("replica")));
        QCOMPARE(model.index(1, NodesModel::AuditColumn).data(NodesModel::SeverityRole).toInt(),
                 int(AuditFinding::Severity::Severe));
        QCOMPARE(model.index(0, NodesModel::AuditColumn).data(NodesModel::SeverityRole).toInt(), -1);
    }

    // The uptime shown goes on between two reads of INFO (it froze at its first value: 78 s shown as "1 s");
    // a clock offset comes with its uncertainty and is never "-0.0"; a node that stops answering shows no
    // latency or offset left over from before.
    void uptimeGoesOnAndOffsetsAreHonest()
    {
        NodesModel model;
        model.setNodes(nodes(3));
        NodeFacts f = nodes(3)[0];
        f.health = NodeHealth::Up;
        f.infoKnown = true;
        f.uptimeSeconds = 1;
        f.factsUpdatedAtMs = QDateTime::currentMSecsSinceEpoch() - 77'000; // read 77 s ago
        model.setFacts(f);
        const qint64 uptimeMs = model.index(0, NodesModel::UptimeColumn).data(NodesModel::RawValueRole).toLongLong();
        QVERIFY2(uptimeMs >= 78'000, qPrintable(QString::number(uptimeMs)));
        QVERIFY2(model.index(0, NodesModel::UptimeColumn).data().toString().contains(QStringLiteral("1 min")),
                 qPrintable(model.index(0, NodesModel::UptimeColumn).data().toString()));

        QCOMPARE(NodesModel::formatClockOffset(-40, -1), QStringLiteral("0.0 ms"));
        QCOMPARE(NodesModel::formatClockOffset(-40, 30), QStringLiteral("0.0 ms ± 0.1"));
        QCOMPARE(NodesModel::formatClockOffset(3700, 900), QStringLiteral("3.7 ms ± 0.9"));
        QCOMPARE(NodesModel::formatClockOffset(-2500, 250), QStringLiteral("-2.5 ms ± 0.3"));

        NodeSample s;
        s.node = 0;
        s.latencyUs = 800;
        s.clockOffsetUs = -60;
        s.clockOffsetUncertaintyUs = 400;
        model.setSample(s);
        QCOMPARE(model.index(0, NodesModel::ClockOffsetColumn).data().toString(), QStringLiteral("-0.1 ms ± 0.4"));

        f.health = NodeHealth::NotAnswering;
        f.latencyUs = -1;
        f.clockOffsetUs.reset();
        model.setFacts(f);
        QCOMPARE(model.index(0, NodesModel::ClockOffsetColumn).data().toString(), QStringLiteral("—"));
        QCOMPARE(model.index(0, NodesModel::LatencyColumn).data().toString(), QStringLiteral("—"));
        QVERIFY(model.index(0, NodesModel::StateColumn).data().toString().contains(QStringLiteral("not answering")));
    }

    // The console's own load on each node: the lock view's commands (observerLoad) plus the node session's
    // (samples), and whether the node's changes show live or only through the rescan.
    void consoleLoadPerNode()
    {
        NodesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<NodeFacts> facts(2);
        for (int i = 0; i < 2; ++i)
            facts[i].node = i;
        model.setNodes(facts);
        QCOMPARE(model.index(0, NodesModel::LoadColumn).data().toString(), QStringLiteral("—"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        NodeSample sample;
        sample.node = 1;
        sample.latencyUs = 200;
        sample.commandsPerSecond = 3;
        model.setSample(sample);
        QCOMPARE(changed.last()[0].toModelIndex().column(), int(NodesModel::LoadColumn));
        ObserverLoad live, quiet;
        live.node = 0;
        live.commandsPerSecond = 1500;
        live.eventReadsPerSecond = 1020;
        live.rescanPerSecond = 480;
        live.budgetPerSecond = 500;
        live.eventsLive = true;
        live.fullRescanMs = 200000;
        quiet = live;
        quiet.node = 1;
        quiet.commandsPerSecond = 497;
        quiet.eventsLive = false;
        quiet.eventsNote = QStringLiteral("notify-keyspace-events is off");
        model.setLoad({live, quiet});
        QCOMPARE(model.index(1, NodesModel::LoadColumn).data(NodesModel::RawValueRole).toDouble(), 500.0);
        QVERIFY(model.index(1, NodesModel::LoadColumn).data().toString().contains(QStringLiteral("500")));
        QVERIFY(model.index(1, NodesModel::LoadColumn).data().toString().contains(QStringLiteral("rescan only")));
        QVERIFY(!model.index(0, NodesModel::LoadColumn).data().toString().contains(QStringLiteral("rescan only")));
        const QString tip = model.index(1, NodesModel::LoadColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("budget of 500/s")) &&
                     tip.contains(QStringLiteral("notify-keyspace-events is off")) &&
                     tip.contains(QStringLiteral("3 min 20 s")),
                 qPrintable(tip));
    }
};

QTEST_GUILESS_MAIN(TestNodesModel)
#include "TestNodesModel.moc"
