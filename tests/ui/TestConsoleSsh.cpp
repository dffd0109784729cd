// Issue 26: the console reaches nodes through an SSH bastion, as the CLI's --ssh does: a connection profile with an SSH
// route, resolved and watched by the ClusterController through core's SshTunnel, against a real sshd on loopback
// (tests/support/SshTestSupport.h: throwaway host and user keys, ssh -F a temporary config). The nodes panel shows
// the path, and a tunnel that dies shows its nodes as unreachable with the tunnel's reason, until it is back.

#include "controller/ClusterController.h"
#include "controller/ConnectionProfile.h"
#include "localcluster/LocalCluster.h"
#include "models/NodesModel.h"
#include "views/MainWindow.h"

#include "support/SshTestSupport.h"

#include <QApplication>
#include <QtTest>

#include <csignal>
#include <unistd.h>

using namespace redlock;

class TestConsoleSsh : public QObject
{
    Q_OBJECT

private slots:
    void aProfileReachesItsNodesThroughTheBastion()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        SshLab lab;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));

        ConnectionProfile profile;
        profile.name = QStringLiteral("behind-bastion");
        for (const NodeEndpoint& ep : cluster.endpoints()) {
            NodeProfile node;
            node.address = ep.displayName();
            profile.nodes.append(node);
        }
        profile.sshRoute = QStringLiteral("bastion");
        profile.sshConfigFile = lab.configFile();
        profile.refreshIntervalMs = 500;
        const auto settings = resolveProfile(profile, {}, &error);
        QVERIFY2(settings, qPrintable(error));

        ClusterController controller;
        MainWindow window(&controller);
        NodesModel* nodes = window.nodesModel();
        QVERIFY2(controller.start(*settings, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 3, 30000);
        // Through the tunnel's local ends, not to the nodes directly: sshd let us in and forwarded.
        for (const NodeEndpoint& ep : controller.settings().nodes) {
            QCOMPARE(ep.sshRoute, QStringLiteral("bastion"));
            QVERIFY(!ep.tunnelSocket.isEmpty());
        }
        QVERIFY2(lab.log(QStringLiteral("bastion")).contains(QStringLiteral("Accepted publickey")),
                 qPrintable(lab.log(QStringLiteral("bastion"))));
        QTRY_VERIFY_WITH_TIMEOUT(controller.tunnelProblem(0).isEmpty(), 10000);
        for (int row = 0; row < 3; ++row) {
            const QModelIndex address = nodes->index(row, NodesModel::AddressColumn);
            const QString path = address.data(Qt::ToolTipRole).toString();
            QVERIFY2(path.startsWith(QStringLiteral("via bastion → ")) &&
                         path.endsWith(cluster.endpoints()[row].displayName()),
                     qPrintable(path));
            QVERIFY2(address.data().toString().contains(QStringLiteral("via bastion")),
                     qPrintable(address.data().toString()));
            QVERIFY(nodes->tunnelProblem(row).isEmpty());
        }

        // The tunnel dies, and the bastion's host key has changed meanwhile (known_hosts names another): the restarts
        // are refused, so its nodes stay unreachable, the state naming the tunnel and its tooltip ssh's reason.
        // Once the key is trusted again the tunnel comes back by itself, and the nodes with it.
        lab.recordWrongKey(QStringLiteral("bastion"));
        lab.configFile();
        const QList<qint64> ssh = ourSshChildren();
        QCOMPARE(ssh.size(), 1);
        QVERIFY(::kill(pid_t(ssh.first()), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(controller.nodesUp() == 0 && !nodes->tunnelProblem(0).isEmpty(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(nodes->tunnelProblem(0).contains(QStringLiteral("host key")), 20000);
        for (int row = 0; row < 3; ++row) {
            const QModelIndex state = nodes->index(row, NodesModel::StateColumn);
            QTRY_COMPARE_WITH_TIMEOUT(state.data().toString(), QStringLiteral("unreachable: SSH tunnel not up"), 10000);
            QVERIFY2(state.data(Qt::ToolTipRole).toString().contains(QStringLiteral("bastion")),
                     qPrintable(state.data(Qt::ToolTipRole).toString()));
        }
        lab.trustHost(QStringLiteral("bastion"));
        lab.configFile();
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 3, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(nodes->tunnelProblem(0).isEmpty(), 15000);
        controller.stop();
        QTRY_VERIFY_WITH_TIMEOUT(ourSshChildren().isEmpty(), 10000); // the tunnel ends with the watch
    }

    // Reading the ssh config can be slow (here a Match exec waits for a gate the test holds): the controller's start
    // returns while the tunnel still looks up its route (ssh -G runs meanwhile), the GUI thread free, the nodes shown
    // as connecting through the tunnel. Once the lookup ends the nodes come up.
    void aSlowSshConfigDoesNotHoldUpTheConsole()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        SshLab lab;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        SshConfigGate gate;
        QVERIFY(gate.isValid());
        lab.addMatchExec(gate.command());
        ClusterSettings settings;
        settings.nodes = cluster.endpoints();
        for (NodeEndpoint& ep : settings.nodes)
            ep.sshRoute = QStringLiteral("bastion");
        settings.sshConfigFile = lab.configFile();
        settings.refreshIntervalMs = 500;
        ClusterController controller;
        MainWindow window(&controller);
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        QVERIFY(controller.isRunning());
        QVERIFY2(controller.tunnelProblem(0).contains(QStringLiteral("connecting through the SSH tunnel")),
                 qPrintable(controller.tunnelProblem(0)));
        QTRY_COMPARE_WITH_TIMEOUT(ourSshChildren("-G").size(), 1, 10000); // still waiting for the gate
        QCOMPARE(controller.nodesUp(), 0);
        gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(controller.nodesUp(), 3, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(controller.tunnelProblem(0).isEmpty(), 10000);
        controller.stop();
        QTRY_VERIFY_WITH_TIMEOUT(ourSshChildren().isEmpty(), 10000);
    }

    // A route the ssh config makes unusable (a ProxyCommand redlock cannot make check host keys) is found by the
    // tunnel's start: the console runs, and the nodes panel shows its nodes unreachable with that reason, as for a
    // tunnel that dies.
    void aRouteTheSshConfigRefusesShowsOnItsNodes()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("ssh_config"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Host bastion\n  HostName 127.0.0.1\n  ProxyCommand nc %h %p\n");
        file.close();
        ClusterSettings settings;
        for (const quint16 port : {1, 2}) {
            NodeEndpoint node = *NodeEndpoint::parse(QStringLiteral("127.0.0.1:%1").arg(port));
            node.sshRoute = QStringLiteral("bastion");
            settings.nodes << node;
        }
        settings.sshConfigFile = config;
        ClusterController controller;
        MainWindow window(&controller);
        NodesModel* nodes = window.nodesModel();
        QString error;
        QVERIFY2(controller.start(settings, &error), qPrintable(error));
        for (int row = 0; row < 2; ++row) {
            QTRY_VERIFY_WITH_TIMEOUT(nodes->tunnelProblem(row).contains(QStringLiteral("ProxyCommand")), 20000);
            QVERIFY2(nodes->tunnelProblem(row).contains(QStringLiteral("SSH route bastion")),
                     qPrintable(nodes->tunnelProblem(row)));
            const QModelIndex state = nodes->index(row, NodesModel::StateColumn);
            QTRY_COMPARE_WITH_TIMEOUT(state.data().toString(), QStringLiteral("unreachable: SSH tunnel not up"), 10000);
        }
        QCOMPARE(controller.nodesUp(), 0);
        controller.stop();
    }

    // A route SshTunnel refuses stops the connect with its reason, as --ssh does on the CLI.
    void aBadRouteIsRefusedAtStart()
    {
        ClusterSettings settings;
        NodeEndpoint node = *NodeEndpoint::parse(QStringLiteral("unix:/tmp/nowhere.sock"));
        node.sshRoute = QStringLiteral("bastion");
        settings.nodes = {node};
        ClusterController controller;
        QString error;
        QVERIFY(!controller.start(settings, &error));
        QVERIFY2(error.contains(QStringLiteral("unix socket")), qPrintable(error));
        QVERIFY(!controller.isRunning());
    }
};

QTEST_MAIN(TestConsoleSsh)
#include "TestConsoleSsh.moc"
