// The console's ClusterController as an adapter of core's ClusterWatch, on real redis-server nodes: its node-up,
// quorum, audit and max TTL are the watch's rules (the same as `redlock watch`, `audit` and `exporter`:
// TestClusterWatch), and what stays its own (the change sets in slices, the first full refresh, the key prober) still
// works.

#include "controller/ClusterController.h"
#include "localcluster/LocalCluster.h"
#include "support/DirectRedis.h"
#include "support/ObservationTestSupport.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

using namespace redlock;

namespace {

QStringList unverifiedNodes(const ClusterController& controller)
{
    QStringList out;
    for (const AuditFinding& f : controller.findings()) {
        if (f.ruleId != u"unverified")
            continue;
        for (const int n : f.nodes)
            out << controller.settings().nodes.value(n).displayName();
    }
    return out;
}

} // namespace

class TestClusterController : public QObject
{
    Q_OBJECT

private slots:
    void nodesQuorumAndAuditAreTheWatchsRules()
    {
        LocalCluster cluster;
        QString error;
        LocalNodeOptions events;
        events.notifyKeyspaceEvents = QStringLiteral("Kg$hxe");
        QVERIFY2(cluster.start(3, events, &error), qPrintable(error));
        for (int i = 0; i < 3; ++i)
            DirectRedis(cluster.port(i)).set("locks:job", "rl1:00112233445566778899aabbccddeeff:1", 20000);

        ClusterController controller;
        QSignalSpy firstRefresh(&controller, &ClusterController::firstFullRefresh);
        QSignalSpy quorum(&controller, &ClusterController::quorumStateChanged);
        QSignalSpy locks(&controller, &ClusterController::locksChanged);
        ClusterSettings settings;
        settings.nodes = cluster.endpoints();
        settings.pattern = "locks:*";
        settings.refreshIntervalMs = 500;
        QVERIFY(controller.start(settings, &error));
        QTRY_VERIFY_WITH_TIMEOUT(!firstRefresh.isEmpty(), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 3, 10000);
        QVERIFY(controller.hasQuorum());
        QCOMPARE(quorum.last(), (QVariantList{3, 3, true}));
        bool seen = false;
        for (const QVariantList& args : std::as_const(locks)) {
            for (const LockView& v : args[0].value<LockChangeSet>().appeared)
                seen = seen || v.key == "locks:job";
        }
        QVERIFY(seen);
        QCOMPARE(controller.auditMaxTtlMs(), qint64(30000)); // the operator's default is larger than 20 s

        // A delayed restart keeps node 1 out.
        controller.setQuarantinedNodes({0});
        QCOMPARE(controller.nodesUp(), 2);
        QCOMPARE(quorum.last(), (QVariantList{2, 3, true}));
        controller.setQuarantinedNodes({});
        QCOMPARE(controller.nodesUp(), 3);

        // The holder extends past the configured max TTL: the audit's max TTL follows (the console used to take only
        // new locks' PTTLs).
        for (int i = 0; i < 3; ++i)
            DirectRedis(cluster.port(i)).command({"PEXPIRE", "locks:job", "90000"});
        QTRY_VERIFY2_WITH_TIMEOUT(controller.auditMaxTtlMs() > 85000,
                                  qPrintable(QString::number(controller.auditMaxTtlMs())), 15000);

        // A node shut down is down, and unverified in the audit (not audited by what it said before).
        QVERIFY(cluster.stopNode(2));
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 2, 10000);
        QCOMPARE(quorum.last(), (QVariantList{2, 3, true}));
        QTRY_COMPARE_WITH_TIMEOUT(unverifiedNodes(controller), QStringList{cluster.endpoint(2).displayName()}, 10000);
        QVERIFY(cluster.stopNode(1));
        QTRY_VERIFY_WITH_TIMEOUT(!controller.hasQuorum(), 10000);
        QCOMPARE(quorum.last(), (QVariantList{1, 3, false}));

        // Stopped: the last picture stays readable, nothing more arrives.
        controller.stop();
        QVERIFY(!controller.isRunning());
        QCOMPARE(controller.nodeFacts().size(), 3);
        QCOMPARE(controller.nodesUp(), 1);
    }

    // A first pass handed over faster than the table applies it: the views waiting for the table stay bounded (the
    // hand-off is held from 16 slices on, and at most 8 chunks are under way), instead of piling up (at 1M locks,
    // 230,000 views, about 300 MB). Every lock still arrives, once. The table here is deliberately slow: 50 ms a
    // slice of 1000, where the inspector builds one in a few (tens under ASan on a loaded box): the backlog reaches
    // the hold, which must engage and later let go.
    void aSlowTableHoldsTheHandOff()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        constexpr int kLocks = 60000;
        QList<QList<QByteArray>> writes;
        for (int i = 0; i < kLocks; ++i)
            writes.append({"SET", "slow:" + QByteArray::number(i), "holder-" + QByteArray::number(i), "PX", "600000"});
        for (const NodeEndpoint& endpoint : cluster.endpoints()) {
            const QList<RedisReply> replies = runCommands(endpoint, writes, 30000);
            QVERIFY(replies.size() == kLocks && replies.last().isString());
        }
        ClusterController controller;
        ClusterSettings settings;
        settings.nodes = cluster.endpoints();
        settings.pattern = "slow:*";
        settings.refreshIntervalMs = 600000;
        QSet<QByteArray> arrived;
        qsizetype mostPending = 0;
        int duplicates = 0;
        connect(&controller, &ClusterController::locksChanged, &controller, [&](const LockChangeSet& changes) {
            mostPending = std::max(mostPending, controller.pendingViews());
            for (const LockView& view : changes.appeared) {
                if (arrived.contains(view.key))
                    ++duplicates;
                arrived.insert(view.key);
            }
            QThread::msleep(50); // the slow table's work
        });
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(arrived.size(), kLocks, 60000);
        QCOMPARE(duplicates, 0);
        QVERIFY2(mostPending >= 16000 && mostPending <= 16000 + 8 * 1000, qPrintable(QString::number(mostPending)));
        controller.stop();
    }
};

QTEST_MAIN(TestClusterController)
#include "TestClusterController.moc"
