#include "controller/ConnectionProfile.h"
#include "launch/ProfilesDialog.h"
#include "localcluster/LocalCluster.h"
#include "support/ObservationTestSupport.h"

#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

class TestProfilesDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString iniPath() const { return m_dir.filePath(QStringLiteral("console.ini")); }

private slots:
    void savedWithoutPasswords()
    {
        QSettings settings(iniPath(), QSettings::IniFormat);
        ConnectionProfile p;
        p.name = QStringLiteral("prod");
        NodeProfile a;
        a.address = QStringLiteral("10.0.0.1:6379");
        a.user = QStringLiteral("locks");
        a.passwordEnv = QStringLiteral("REDLOCK_TEST_PW");
        NodeProfile b;
        b.address = QStringLiteral("unix:/run/redis.sock");
        b.askPassword = true;
        NodeProfile c;
        c.address = QStringLiteral("10.0.0.3:6380");
        c.tls = true;
        c.caFile = QStringLiteral("/etc/ca.pem");
        p.nodes = {a, b, c};
        p.readOnly = true;
        p.driftFactor = 0.02;
        ProfileStore::save(settings, p);
        QCOMPARE(ProfileStore::load(settings, QStringLiteral("prod")), p);

        qputenv("REDLOCK_TEST_PW", "s3cret-from-env");
        int asked = 0;
        const auto s = resolveProfile(
            p,
            [&](int node, const QString&, const QString&) -> std::optional<QString> {
                ++asked;
                return node == 1 ? std::optional<QString>(QStringLiteral("typed")) : std::nullopt;
            },
            nullptr);
        QVERIFY(s);
        QCOMPARE(asked, 1);
        QCOMPARE(s->nodes[0].password, QStringLiteral("s3cret-from-env"));
        QCOMPARE(s->nodes[0].user, QStringLiteral("locks"));
        QCOMPARE(s->nodes[1].password, QStringLiteral("typed"));
        QVERIFY(s->nodes[2].tls);
        QVERIFY(s->readOnly);
        settings.sync();
        QFile file(iniPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray ini = file.readAll();
        QVERIFY(!ini.contains("s3cret"));
        QVERIFY(!ini.contains("typed"));
        QVERIFY(ini.contains("REDLOCK_TEST_PW"));
    }

    // Issue 26: the console's SSH route per profile, the CLI's --ssh/--ssh-config. Typed in the dialog, saved in the
    // profile file (where the nodes are reached through, never a key or password: those stay with ssh), read back
    // equal, and every TCP node resolves to an endpoint the controller tunnels (SshTunnel) through that route.
    void anSshRouteRoundTripsThroughTheProfileFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("ssh.ini"));
        QSettings settings(path, QSettings::IniFormat);
        ProfilesDialog dialog(&settings);
        ConnectionProfile p;
        p.name = QStringLiteral("behind-bastion");
        for (int i = 0; i < 3; ++i) {
            NodeProfile node;
            node.address = QStringLiteral("10.0.0.%1:6379").arg(5 + i);
            node.passwordEnv = QStringLiteral("REDLOCK_TEST_SSH_PW");
            p.nodes.append(node);
        }
        dialog.setProfile(p);
        QTest::keyClicks(dialog.sshRouteEdit(), QStringLiteral("ops@bastion,jump2:2222"));
        QTest::keyClicks(dialog.sshConfigEdit(), QStringLiteral("/home/ops/.ssh/lab_config"));
        QVERIFY(dialog.saveProfile());
        settings.sync();

        p.sshRoute = QStringLiteral("ops@bastion,jump2:2222");
        p.sshConfigFile = QStringLiteral("/home/ops/.ssh/lab_config");
        QSettings reread(path, QSettings::IniFormat);
        const auto loaded = ProfileStore::load(reread, p.name);
        QVERIFY(loaded);
        QCOMPARE(*loaded, p);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray ini = file.readAll();
        QVERIFY2(ini.contains("sshRoute=\"ops@bastion,jump2:2222\"") || ini.contains("sshRoute=ops@bastion"),
                 ini.constData());
        qputenv("REDLOCK_TEST_SSH_PW", "ssh-s3cret");
        const auto s = resolveProfile(*loaded, {}, nullptr);
        QVERIFY(s);
        QVERIFY(!ini.contains("s3cret"));
        QCOMPARE(s->sshConfigFile, p.sshConfigFile);
        for (const NodeEndpoint& ep : s->nodes) {
            QCOMPARE(ep.sshRoute, p.sshRoute);
            QCOMPARE(ep.password, QStringLiteral("ssh-s3cret"));
        }
        // Shown again when the dialog opens the profile.
        ProfilesDialog again(&reread);
        again.selectProfile(p.name);
        QCOMPARE(again.profile(), p);

        // Refused like the CLI's --ssh: a bad route, a unix socket behind a bastion, a config without a route.
        ConnectionProfile bad = p;
        bad.sshRoute = QStringLiteral("ops@bastion,,jump2");
        QVERIFY2(bad.errors().join(u'\n').contains(QStringLiteral("SSH route")), qPrintable(bad.errors().join(u'\n')));
        bad = p;
        bad.nodes[1].address = QStringLiteral("unix:/run/redis.sock");
        QVERIFY2(bad.errors().join(u'\n').contains(QStringLiteral("unix socket")),
                 qPrintable(bad.errors().join(u'\n')));
        bad = p;
        bad.sshRoute.clear();
        QVERIFY(!bad.errors().isEmpty());
    }

    void badProfilesAreRefused()
    {
        ConnectionProfile p;
        p.name = QStringLiteral("dup");
        NodeProfile a;
        a.address = QStringLiteral("127.0.0.1:7000");
        NodeProfile withPassword;
        withPassword.address = QStringLiteral("redis://:pw@127.0.0.1:7001");
        p.nodes = {a, a, withPassword};
        const QString errors = p.errors().join(QLatin1Char('\n'));
        QVERIFY2(errors.contains(QStringLiteral("twice")), qPrintable(errors));
        QVERIFY2(errors.contains(QStringLiteral("no password in the address")), qPrintable(errors));
        p.nodes = {a, withPassword};
        QString error;
        QVERIFY(!resolveProfile(p, {}, &error));
        ConnectionProfile even;
        even.name = QStringLiteral("even");
        NodeProfile b;
        b.address = QStringLiteral("127.0.0.1:7002");
        even.nodes = {a, b};
        QVERIFY(!even.warnings().isEmpty());
    }

    // Hostile N11: a profile saying nodes\size=100000000 ran the console to 1 GB with no window and no message.
    // A node count beyond the limit is refused on load, before a node is read, with the file and the limit
    // named; at the limit, the profile loads.
    void aProfileWithTooManyNodesIsRefusedOnLoad()
    {
        const QString path = m_dir.filePath(QStringLiteral("huge.ini"));
        QSettings settings(path, QSettings::IniFormat);
        for (const auto& [name, count] :
             {std::pair{QStringLiteral("huge"), 100000000}, std::pair{QStringLiteral("over"), rules::kMaxNodes + 1},
              std::pair{QStringLiteral("max"), rules::kMaxNodes}}) {
            settings.setValue(QStringLiteral("profiles/%1/pattern").arg(name), QStringLiteral("locks:*"));
            settings.setValue(QStringLiteral("profiles/%1/nodes/size").arg(name), count);
        }
        settings.sync();
        for (const QString& name : {QStringLiteral("huge"), QStringLiteral("over")}) {
            QString error;
            QVERIFY2(!ProfileStore::load(settings, name, &error), qPrintable(name));
            QVERIFY2(error.contains(path) && error.contains(QStringLiteral("at most %1").arg(rules::kMaxNodes)) &&
                         error.contains(name),
                     qPrintable(error));
        }
        QString error;
        const auto atTheLimit = ProfileStore::load(settings, QStringLiteral("max"), &error);
        QVERIFY2(atTheLimit && error.isEmpty(), qPrintable(error));
        QCOMPARE(atTheLimit->nodes.size(), rules::kMaxNodes);
        // Made in the dialog or by hand: too many nodes is an error of the profile too.
        ConnectionProfile tooMany = *atTheLimit;
        tooMany.nodes.append(NodeProfile{});
        QVERIFY(tooMany.errors().join(u'\n').contains(QStringLiteral("at most %1").arg(rules::kMaxNodes)));
    }

    void checkNamesTheFailingStep()
    {
        LocalCluster cluster;
        LocalNodeOptions options;
        options.requirePass = QStringLiteral("right");
        QString error;
        QVERIFY2(cluster.start(1, options, &error), qPrintable(error));
        LocalCluster open;
        QVERIFY2(open.start(1, {}, &error), qPrintable(error));

        QSettings settings(iniPath(), QSettings::IniFormat);
        ProfilesDialog dialog(&settings);
        ConnectionProfile p;
        p.name = QStringLiteral("check");
        NodeProfile secured;
        secured.address = QStringLiteral("127.0.0.1:%1").arg(cluster.port(0));
        secured.passwordEnv = QStringLiteral("REDLOCK_TEST_WRONG_PW");
        NodeProfile fine;
        fine.address = QStringLiteral("127.0.0.1:%1").arg(open.port(0));
        NodeProfile closed;
        closed.address = QStringLiteral("127.0.0.1:1");
        p.nodes = {secured, fine, closed};
        qputenv("REDLOCK_TEST_WRONG_PW", "wrong");
        dialog.setProfile(p);
        QSignalSpy finished(&dialog, &ProfilesDialog::checkFinished);
        dialog.checkConnection();
        QVERIFY(waitForCount(finished, 1));
        QCOMPARE(finished.first().first().toBool(), false);
        const QString report = dialog.checkReport()->toPlainText();
        QVERIFY2(report.contains(QStringLiteral("✖ node 1")) && report.contains(QStringLiteral("failing step: AUTH")),
                 qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("✓ node 2")), qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("✖ node 3")) &&
                     report.contains(QStringLiteral("failing step: connect")),
                 qPrintable(report));
    }

    // The check through a profile's SSH route: what the ssh config makes of the route (here a ProxyCommand redlock
    // refuses to run) is looked up by the tunnel's start, in the background, not while checkConnection() runs; the
    // refusal still reaches the report, on every node, as the failing "SSH tunnel" step.
    void checkThroughARouteTheSshConfigRefuses()
    {
        const QString config = m_dir.filePath(QStringLiteral("refusing_ssh_config"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Host bastion\n  HostName 127.0.0.1\n  ProxyCommand nc %h %p\n");
        file.close();
        QSettings settings(iniPath(), QSettings::IniFormat);
        ProfilesDialog dialog(&settings);
        ConnectionProfile p;
        p.name = QStringLiteral("ssh-check");
        for (const char* address : {"127.0.0.1:1", "127.0.0.1:2"}) {
            NodeProfile node;
            node.address = QString::fromLatin1(address);
            p.nodes << node;
        }
        p.sshRoute = QStringLiteral("bastion");
        p.sshConfigFile = config;
        dialog.setProfile(p);
        QSignalSpy finished(&dialog, &ProfilesDialog::checkFinished);
        dialog.checkConnection();
        QCOMPARE(finished.count(), 0); // returned before ssh -G answered
        QVERIFY(waitForCount(finished, 1, 20000));
        QCOMPARE(finished.first().first().toBool(), false);
        const QString report = dialog.checkReport()->toPlainText();
        QVERIFY2(report.contains(QStringLiteral("✖ node 1")) && report.contains(QStringLiteral("✖ node 2")) &&
                     report.count(QStringLiteral("failing step: SSH tunnel")) == 2 &&
                     report.contains(QStringLiteral("gives bastion a ProxyCommand")),
                 qPrintable(report));
    }
};

QTEST_MAIN(TestProfilesDialog)
#include "TestProfilesDialog.moc"
