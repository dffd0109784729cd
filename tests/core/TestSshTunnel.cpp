#include "localcluster/LocalCluster.h"
#include "observe/NodeSession.h"
#include "protocol/SshTunnel.h"
#include "redlock/RedlockClient.h"
#include "runtime/IoThread.h"
#include "support/CliTestSupport.h"
#include "support/DirectRedis.h"
#include "support/ObservationTestSupport.h"
#include "support/SshTestSupport.h"
#include "support/TestCa.h"
#include "support/TestSupport.h"

#include <QSignalSpy>
#include <QtTest>

#include <cerrno>
#include <csignal>

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace redlock;

// Nodes behind real sshd bastions (core/protocol/SshTunnel): the system's ssh client, a temporary ssh config (-F),
// throwaway keys; the user's ~/.ssh is never used.
class TestSshTunnel : public QObject
{
    Q_OBJECT

    LocalCluster m_cluster;

    QList<NodeEndpoint> behind(const QString& route) const
    {
        QList<NodeEndpoint> nodes;
        for (int i = 0; i < m_cluster.size(); ++i) {
            NodeEndpoint ep = m_cluster.endpoint(i);
            ep.sshRoute = route;
            nodes.append(ep);
        }
        return nodes;
    }

    static SshTunnel::Options options(SshLab& lab)
    {
        SshTunnel::Options o;
        o.configFile = lab.configFile();
        o.backoffInitialMs = 100;
        o.backoffMaxMs = 400;
        return o;
    }

    // Acquires through the tunnel and checks, on the nodes themselves, that the lock is there.
    static void acquireThrough(const QList<NodeEndpoint>& nodes, const QList<quint16>& realPorts, const QByteArray& key)
    {
        IoThread io;
        RedlockOptions o;
        o.nodes = nodes;
        o.nodeTimeoutMs = 5000;
        auto client = ownedOnIoThread(io, io.create<RedlockClient>(o));
        const AcquireResult r = client->acquireAndWait({key}, {.ttlMs = 30000});
        QVERIFY2(r.ok, qPrintable(r.error));
        // Decided at the quorum; the last node's write may land just after.
        for (const quint16 port : realPorts)
            QTRY_COMPARE(DirectRedis(port).get(key).value_or(QByteArray()), r.lock.token);
        QVERIFY(client->releaseAndWait(r.lock).ok);
    }

    // What another local user (nobody) gets when trying to put a listener at path (bind, after removing what is
    // there) or to connect through it: 0 = it worked, else the errno. Needs root to become that user.
    enum class Attempt { Bind, Connect };
    static int strangerTries(Attempt attempt, const QString& path)
    {
        const QByteArray bytes = QFile::encodeName(path);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::memcpy(address.sun_path, bytes.constData(), size_t(qMin<qsizetype>(bytes.size(), 100)));
        const pid_t child = ::fork();
        if (child == 0) { // only async-signal-safe calls from here on
            if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
                ::_exit(200);
            const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            int rc = 0;
            if (attempt == Attempt::Bind) {
                ::unlink(address.sun_path);
                rc = ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address));
            } else {
                rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address));
            }
            ::_exit(rc == 0 ? 0 : (errno & 0x7f));
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
    }

    QList<quint16> realPorts() const
    {
        QList<quint16> ports;
        for (int i = 0; i < m_cluster.size(); ++i)
            ports.append(m_cluster.port(i));
        return ports;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(3, {}, &error), qPrintable(error));
    }

    void routesAreChecked()
    {
        QVERIFY(SshTunnel::validRoute(QStringLiteral("bastion")));
        QVERIFY(SshTunnel::validRoute(QStringLiteral("ops@bastion.example:2222,10.0.0.5")));
        QVERIFY(SshTunnel::validRoute(QStringLiteral("[2001:db8::1]:22")));
        QString error;
        QVERIFY(!SshTunnel::validRoute(QStringLiteral("-oProxyCommand=evil"), &error));
        QVERIFY(error.contains(QStringLiteral("-oProxyCommand")));
        QVERIFY(!SshTunnel::validRoute(QStringLiteral("a,,b")));
        QVERIFY(!SshTunnel::validRoute(QStringLiteral("host:99999")));
        // A ProxyJump chain: the last hop forwards, the others are -J; a port goes into an ssh:// destination.
        QList<NodeEndpoint> nodes = behind(QStringLiteral("a,ops@b:2222"));
        const auto tunnels = SshTunnel::forNodes(&nodes, {}, this);
        QCOMPARE(tunnels.size(), 1);
        const QStringList args = tunnels.first()->arguments();
        QCOMPARE(args.last(), QStringLiteral("ssh://ops@b:2222"));
        QVERIFY(!args.contains(QStringLiteral("-J")));
        // The jump host gets the same strict options as the last hop (a ProxyCommand, not -J).
        const QString proxy = args.filter(QStringLiteral("ProxyCommand=")).value(0);
        QVERIFY2(proxy.contains(QStringLiteral("\"BatchMode=yes\"")) &&
                     proxy.contains(QStringLiteral("\"StrictHostKeyChecking=yes\"")) &&
                     proxy.endsWith(QStringLiteral(R"(-W "[%h]:%p" "--" "a")")),
                 qPrintable(proxy));
        QCOMPARE(args.count(QStringLiteral("-L")), 3);
        // Each forward listens on its own socket in the tunnel's directory.
        for (qsizetype i = 0; i < 3; ++i) {
            QCOMPARE(nodes[i].tunnelSocket, tunnels.first()->localSocket(i));
            QVERIFY(nodes[i].tunnelSocket.startsWith(tunnels.first()->socketDirectory() + u'/'));
            QVERIFY(args.contains(nodes[i].tunnelSocket + QStringLiteral(":127.0.0.1:%1").arg(nodes[i].port)));
        }
        qDeleteAll(tunnels);
        // ssh takes an IPv6 address bare (not bracketed, not in an ssh:// URI), its port as -p.
        QList<NodeEndpoint> v6 = behind(QStringLiteral("ops@[::1]:2222"));
        const auto v6Tunnels = SshTunnel::forNodes(&v6, {}, this, &error);
        QVERIFY2(v6Tunnels.size() == 1, qPrintable(error));
        const QStringList v6Args = v6Tunnels.first()->arguments();
        QCOMPARE(v6Args.mid(v6Args.size() - 4), QStringList({QStringLiteral("-p"), QStringLiteral("2222"),
                                                             QStringLiteral("--"), QStringLiteral("ops@::1")}));
        qDeleteAll(v6Tunnels);
    }

    void directJump()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("bastion"));
        const auto tunnels = SshTunnel::forNodes(&nodes, options(lab), nullptr, &error);
        QCOMPARE(tunnels.size(), 1); // one tunnel carries every node behind the bastion
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        for (const NodeEndpoint& ep : std::as_const(nodes))
            QVERIFY(!ep.tunnelSocket.isEmpty());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        QCOMPARE(down.count(), 0);
        acquireThrough(nodes, realPorts(), "through-one-bastion");
        QCOMPARE(lab.log(QStringLiteral("bastion")).count(QStringLiteral("Accepted publickey")), 1);
        // The traffic went through the tunnel: without it, the nodes (as given to the client) are unreachable.
        tunnel->stop();
        QVERIFY(runCommand(nodes.first(), {"PING"}).isError());
    }

    void proxyJumpThroughTwo()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("inner"), &error), qPrintable(error));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("outer,inner"));
        const auto tunnels = SshTunnel::forNodes(&nodes, options(lab), nullptr, &error);
        QCOMPARE(tunnels.size(), 1);
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        tunnel->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        acquireThrough(nodes, realPorts(), "through-two-bastions");
        // Both were logged into: the outer one as the jump, the inner one through it.
        QVERIFY2(lab.log(QStringLiteral("outer")).contains(QStringLiteral("Accepted publickey")),
                 qPrintable(lab.log(QStringLiteral("outer"))));
        QVERIFY2(lab.log(QStringLiteral("inner")).contains(QStringLiteral("Accepted publickey")),
                 qPrintable(lab.log(QStringLiteral("inner"))));
    }

    // The tunnel's local ends are unix sockets in a directory that only we can enter, kept while ssh is down: no
    // other local user can put a listener there (and be handed the nodes' AUTH password) or connect through it,
    // and no two nodes share one, within a tunnel or across tunnels.
    void localEndsCannotBeTaken()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("bastion")) + behind(QStringLiteral("outer"));
        const auto tunnels = SshTunnel::forNodes(&nodes, options(lab), nullptr, &error);
        QCOMPARE(tunnels.size(), 2);
        std::unique_ptr<SshTunnel> tunnel(tunnels[0]);
        std::unique_ptr<SshTunnel> other(tunnels[1]);
        QSet<QString> endpoints;
        for (const NodeEndpoint& ep : std::as_const(nodes))
            endpoints.insert(ep.tunnelSocket);
        QCOMPARE(endpoints.size(), nodes.size());
        QVERIFY(!endpoints.contains(QString()));
        QVERIFY(tunnel->socketDirectory() != other->socketDirectory());
        for (const SshTunnel* t : {tunnel.get(), other.get()}) {
            struct stat st
            {
            };
            QCOMPARE(::lstat(QFile::encodeName(t->socketDirectory()).constData(), &st), 0);
            QVERIFY(S_ISDIR(st.st_mode));
            QCOMPARE(st.st_uid, ::geteuid());
            QCOMPARE(st.st_mode & 0777, mode_t(0700));
        }

        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        tunnel->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        QVERIFY(!runCommand(nodes.first(), {"PING"}).isError());
        // ssh is down (as between a crash and its restart): the node is unreachable, and its endpoint is ours.
        tunnel->stop();
        QVERIFY(runCommand(nodes.first(), {"PING"}).isError());
        if (::geteuid() == 0) {
            QCOMPARE(strangerTries(Attempt::Bind, nodes.first().tunnelSocket), EACCES);
            QCOMPARE(strangerTries(Attempt::Bind, tunnel->socketDirectory() + QStringLiteral("/9")), EACCES);
        }
        tunnel->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        QCOMPARE(tunnel->localSocket(0), nodes.first().tunnelSocket); // the same endpoint after a restart
        QVERIFY(!runCommand(nodes.first(), {"PING"}).isError());
        if (::geteuid() == 0) // nor can another user go through the tunnel while it is up
            QCOMPARE(strangerTries(Attempt::Connect, nodes.first().tunnelSocket), EACCES);
        // The directory goes with the tunnel.
        const QString dir = tunnel->socketDirectory();
        tunnel.reset();
        QVERIFY(!QFileInfo::exists(dir));
    }

    // Every jump host of a chain is checked as strictly as the last one, whatever the user's config says: an
    // unknown key on the FIRST hop is refused even with StrictHostKeyChecking accept-new in the config.
    void everyHopChecksItsHostKey()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("inner"), &error), qPrintable(error));
        lab.setStrictHostKeyChecking(QStringLiteral("accept-new"));
        lab.forgetHost(QStringLiteral("outer"));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("outer,inner"));
        SshTunnel::Options o = options(lab);
        o.backoffInitialMs = o.backoffMaxMs = 60000; // one attempt is enough
        const auto tunnels = SshTunnel::forNodes(&nodes, o, nullptr, &error);
        QCOMPARE(tunnels.size(), 1);
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        QVERIFY(down.wait(20000));
        QCOMPARE(up.count(), 0);
        const QString reason = down.first().first().toString();
        // The message names the hop whose key is unknown.
        QVERIFY2(reason.contains(QStringLiteral("not known")) && reason.contains(QStringLiteral("outer,inner")) &&
                     reason.contains(QStringLiteral(":%1").arg(lab.port(QStringLiteral("outer")))),
                 qPrintable(reason));
        QVERIFY(!lab.log(QStringLiteral("outer")).contains(QStringLiteral("Accepted publickey")));
        QVERIFY(!lab.log(QStringLiteral("inner")).contains(QStringLiteral("Accepted publickey")));
        QVERIFY(runCommand(nodes.first(), {"PING"}).isError());
    }

    // A jump host that the user's ssh config adds (inner has "ProxyJump outer"; the route names only inner) is a hop
    // of our own chain, checked as strictly: its unknown key is refused even with accept-new in the config, where
    // ssh's own ProxyJump would have accepted it.
    void configProxyJumpHopChecksItsHostKey()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("inner"), &error), qPrintable(error));
        lab.addHostOption(QStringLiteral("inner"), QStringLiteral("ProxyJump outer"));
        lab.setStrictHostKeyChecking(QStringLiteral("accept-new"));
        lab.forgetHost(QStringLiteral("outer"));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("inner"));
        SshTunnel::Options o = options(lab);
        o.backoffInitialMs = o.backoffMaxMs = 60000; // one attempt is enough
        const auto tunnels = SshTunnel::forNodes(&nodes, o, nullptr, &error);
        QVERIFY2(tunnels.size() == 1, qPrintable(error));
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        QTRY_VERIFY_WITH_TIMEOUT(up.count() + down.count() > 0, 20000);
        QCOMPARE(up.count(), 0);
        const QString reason = down.first().first().toString();
        // The message names the route, the jump host the config added, and the hop whose key is unknown.
        QVERIFY2(reason.contains(QStringLiteral("not known")) &&
                     reason.contains(QStringLiteral("inner (through outer)")) &&
                     reason.contains(QStringLiteral(":%1").arg(lab.port(QStringLiteral("outer")))),
                 qPrintable(reason));
        QVERIFY(!lab.log(QStringLiteral("outer")).contains(QStringLiteral("Accepted publickey")));
        QVERIFY(!lab.log(QStringLiteral("inner")).contains(QStringLiteral("Accepted publickey")));
        QVERIFY(runCommand(nodes.first(), {"PING"}).isError());
    }

    // With known keys, the config's jump host carries the tunnel; each hop is named by its alias, so the config's
    // HostName, Port and User of each still apply (the lab's sshds are only known by their alias's Port).
    void configProxyJumpIsFollowed()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("inner"), &error), qPrintable(error));
        lab.addHostOption(QStringLiteral("inner"), QStringLiteral("ProxyJump outer"));
        const SshTunnel::Options o = options(lab);
        QList<NodeEndpoint> nodes = behind(QStringLiteral("inner"));
        // As with ssh -J, a later hop of a route is reached through the hop before it: its own ProxyJump is unused.
        QList<NodeEndpoint> chained = behind(QStringLiteral("outer,inner"));
        QList<NodeEndpoint> both = nodes + chained;
        const auto tunnels = SshTunnel::forNodes(&both, o, nullptr, &error);
        QVERIFY2(tunnels.size() == 2, qPrintable(error));
        std::unique_ptr<SshTunnel> tunnel(tunnels[0]);
        std::unique_ptr<SshTunnel> chain(tunnels[1]);
        nodes = both.mid(0, nodes.size());
        QCOMPARE(tunnel->hops(), QStringList({QStringLiteral("inner")})); // looked up when started
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy chainUp(chain.get(), &SshTunnel::up);
        tunnel->start();
        chain->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        QCOMPARE(tunnel->hops(), QStringList({QStringLiteral("outer"), QStringLiteral("inner")}));
        acquireThrough(nodes, realPorts(), "through-a-config-proxyjump");
        for (const QString& hop : {QStringLiteral("outer"), QStringLiteral("inner")})
            QVERIFY2(lab.log(hop).contains(QStringLiteral("Accepted publickey")), qPrintable(lab.log(hop)));
        QTRY_VERIFY2_WITH_TIMEOUT(chainUp.count() == 1, qPrintable(chain->lastError()), 20000);
        QCOMPARE(chain->hops(), QStringList({QStringLiteral("outer"), QStringLiteral("inner")}));
    }

    // Reading the ssh config can be slow (a Match exec, a hung lookup, a canonicalising DNS query): the route's
    // lookup (ssh -G, per hop) runs in the tunnel's start, in the background. forNodes() and start() return while
    // it is still waiting (here, for a Match exec the test holds), and the tunnel comes up once it ends.
    void aSlowRouteLookupDoesNotBlockTheCaller()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("inner"), &error), qPrintable(error));
        lab.addHostOption(QStringLiteral("inner"), QStringLiteral("ProxyJump outer"));
        SshConfigGate gate;
        QVERIFY(gate.isValid());
        lab.addMatchExec(gate.command());
        QList<NodeEndpoint> nodes = behind(QStringLiteral("inner"));
        SshTunnel::Options o = options(lab);
        o.routeLookupTimeoutMs = 120000; // the gate, not the timer, ends the wait, however busy the machine
        const auto tunnels = SshTunnel::forNodes(&nodes, o, nullptr, &error);
        QVERIFY2(tunnels.size() == 1, qPrintable(error));
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        for (const NodeEndpoint& ep : std::as_const(nodes))
            QVERIFY(!ep.tunnelSocket.isEmpty()); // the nodes know their local ends at once
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        // Returned while ssh -G still waits for the gate: nothing decided yet, the nodes unreachable meanwhile.
        QCOMPARE(tunnel->state(), SshTunnel::State::Starting);
        QVERIFY(tunnel->isLookingUpRoute());
        QCOMPARE(tunnel->hops(), QStringList({QStringLiteral("inner")}));
        QTRY_COMPARE_WITH_TIMEOUT(ourSshChildren("-G").size(), 1, 10000); // once it is ssh (after its exec)
        QVERIFY(tunnel->isLookingUpRoute());
        QCOMPARE(up.count() + down.count(), 0);
        QVERIFY(runCommand(nodes.first(), {"PING"}).isError());
        gate.open();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        QCOMPARE(down.count(), 0);
        QVERIFY(!tunnel->isLookingUpRoute());
        QCOMPARE(tunnel->hops(), QStringList({QStringLiteral("outer"), QStringLiteral("inner")}));
        acquireThrough(nodes, realPorts(), "after-a-slow-route-lookup");
    }

    // An ssh -G that does not end (here, a Match exec waiting for a gate that stays shut) is killed at the lookup's
    // time limit: the attempt fails with a clear reason, like a tunnel that dies, and the nodes stay unreachable.
    void aHungRouteLookupFailsTheAttempt()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        SshConfigGate gate;
        QVERIFY(gate.isValid());
        lab.addMatchExec(gate.command());
        QList<NodeEndpoint> nodes = behind(QStringLiteral("bastion"));
        SshTunnel::Options o = options(lab);
        o.routeLookupTimeoutMs = 500;
        o.backoffInitialMs = o.backoffMaxMs = 60000; // one attempt is enough
        const auto tunnels = SshTunnel::forNodes(&nodes, o, nullptr, &error);
        QVERIFY2(tunnels.size() == 1, qPrintable(error));
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        QVERIFY(tunnel->isLookingUpRoute());
        QVERIFY(down.wait(20000));
        QCOMPARE(up.count(), 0);
        const QString reason = down.first().first().toString();
        QVERIFY2(reason.contains(QStringLiteral("SSH route bastion: ssh -G bastion did not finish within 0.5 s")),
                 qPrintable(reason));
        QCOMPARE(tunnel->lastError(), reason);
        QCOMPARE(tunnel->state(), SshTunnel::State::Down);
        QVERIFY(!tunnel->isLookingUpRoute());
        QTRY_VERIFY_WITH_TIMEOUT(ourSshChildren().isEmpty(), 10000); // killed, and no ssh started
        // ... with what its Match exec ran: the gate is still closed, so a flock(1) left behind would still wait.
        QTRY_VERIFY_WITH_TIMEOUT(processesWithArgument(QFile::encodeName(gate.path())).isEmpty(), 10000);
        QVERIFY(runCommand(nodes.first(), {"PING"}).isError());
        QVERIFY(!lab.log(QStringLiteral("bastion")).contains(QStringLiteral("Accepted publickey")));
    }

    // What the config makes of a route that cannot be checked strictly is refused before any ssh connects: a
    // ProxyJump loop, and a user's ProxyCommand (an opaque command we cannot give our options to). Found by the
    // tunnel's start (its route lookup), it is the tunnel's failure, with the reason, like a tunnel that dies: the
    // nodes stay unreachable. The CLI says so and fails.
    void configProxyLoopsAndCommandsAreRefused_data()
    {
        QTest::addColumn<QString>("innerOption");
        QTest::addColumn<QString>("outerOption");
        QTest::addColumn<QString>("expected");
        QTest::newRow("loop") << QStringLiteral("ProxyJump outer") << QStringLiteral("ProxyJump inner")
                              << QStringLiteral("loop: inner -> outer -> inner");
        QTest::newRow("self") << QStringLiteral("ProxyJump inner") << QString()
                              << QStringLiteral("loop: inner -> inner");
        QTest::newRow("ProxyCommand") << QStringLiteral("ProxyCommand ssh -W %h:%p outer") << QString()
                                      << QStringLiteral("gives inner a ProxyCommand");
        QTest::newRow("jump host's ProxyCommand")
            << QStringLiteral("ProxyJump outer") << QStringLiteral("ProxyCommand nc %h %p")
            << QStringLiteral("gives outer a ProxyCommand");
    }

    void configProxyLoopsAndCommandsAreRefused()
    {
        QFETCH(QString, innerOption);
        QFETCH(QString, outerOption);
        QFETCH(QString, expected);
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("inner"), &error), qPrintable(error));
        lab.addHostOption(QStringLiteral("inner"), innerOption);
        if (!outerOption.isEmpty())
            lab.addHostOption(QStringLiteral("outer"), outerOption);
        QList<NodeEndpoint> nodes = behind(QStringLiteral("inner"));
        SshTunnel::Options o = options(lab);
        o.backoffInitialMs = o.backoffMaxMs = 60000; // one attempt is enough
        const auto tunnels = SshTunnel::forNodes(&nodes, o, nullptr, &error);
        QVERIFY2(tunnels.size() == 1, qPrintable(error));
        const std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        QVERIFY(down.wait(20000));
        QCOMPARE(up.count(), 0);
        const QString reason = down.first().first().toString();
        QVERIFY2(reason.contains(expected) && reason.contains(QStringLiteral("SSH route inner")), qPrintable(reason));
        QCOMPARE(tunnel->state(), SshTunnel::State::Down);
        QVERIFY(!tunnel->isLookingUpRoute());
        QVERIFY(ourSshChildren().isEmpty()); // no ssh ran but the lookups
        QVERIFY(runCommand(nodes.first(), {"PING"}).isError());
        const CliRun run =
            runCli({QStringLiteral("inspect"), QStringLiteral("--nodes"), nodeList(m_cluster), QStringLiteral("--ssh"),
                    QStringLiteral("inner"), QStringLiteral("--ssh-config"), lab.configFile()});
        QVERIFY2(run.exitCode != 0 && run.err.contains(expected.toUtf8()), qPrintable(run.describe()));
        QVERIFY(!lab.log(QStringLiteral("outer")).contains(QStringLiteral("Accepted publickey")));
        QVERIFY(!lab.log(QStringLiteral("inner")).contains(QStringLiteral("Accepted publickey")));
    }

    // A config path with a space (and a quote and a '%') reaches every hop of a chain intact.
    void chainWithAnAwkwardConfigPath()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("middle"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("inner"), &error), qPrintable(error));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("outer,middle,inner"));
        SshTunnel::Options o = options(lab);
        o.configFile = lab.configFile(QStringLiteral("it's my ssh %h config"));
        const auto tunnels = SshTunnel::forNodes(&nodes, o, nullptr, &error);
        QCOMPARE(tunnels.size(), 1);
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        tunnel->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        acquireThrough(nodes, realPorts(), "through-an-awkward-config");
        for (const QString& hop : {QStringLiteral("outer"), QStringLiteral("middle"), QStringLiteral("inner")})
            QVERIFY2(lab.log(hop).contains(QStringLiteral("Accepted publickey")), qPrintable(lab.log(hop)));
    }

    void hostKeysAreCheckedStrictly_data()
    {
        QTest::addColumn<bool>("changed");
        QTest::addColumn<QString>("expected");
        QTest::newRow("changed") << true << QStringLiteral("CHANGED");
        QTest::newRow("unknown") << false << QStringLiteral("not known");
    }

    void hostKeysAreCheckedStrictly()
    {
        QFETCH(bool, changed);
        QFETCH(QString, expected);
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        if (changed)
            lab.recordWrongKey(QStringLiteral("bastion"));
        else
            lab.forgetHost(QStringLiteral("bastion"));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("bastion"));
        SshTunnel::Options o = options(lab);
        o.backoffInitialMs = o.backoffMaxMs = 60000; // one attempt is enough
        const auto tunnels = SshTunnel::forNodes(&nodes, o, nullptr, &error);
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        QVERIFY(down.wait(20000));
        QCOMPARE(up.count(), 0);
        const QString reason = down.first().first().toString();
        QVERIFY2(reason.contains(expected) && reason.contains(QStringLiteral("bastion")), qPrintable(reason));
        QCOMPARE(tunnel->state(), SshTunnel::State::Down);
        // Nothing got through: the nodes are unreachable, and no login happened.
        QVERIFY(!lab.log(QStringLiteral("bastion")).contains(QStringLiteral("Accepted publickey")));
        const RedisReply r = runCommand(nodes.first(), {"PING"});
        QVERIFY(r.isError());
    }

    void killedTunnelMidWatchComesBack()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        QList<NodeEndpoint> nodes = behind(QStringLiteral("bastion"));
        const auto tunnels = SshTunnel::forNodes(&nodes, options(lab), nullptr, &error);
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        QSignalSpy down(tunnel.get(), &SshTunnel::down);
        tunnel->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));

        NodeSessionOptions so;
        so.pingIntervalMs = 100;
        so.factsIntervalMs = 200;
        so.commandTimeoutMs = 1000;
        so.connection.backoffInitialMs = 50;
        so.connection.backoffMaxMs = 200;
        IoThread io;
        auto session = ownedOnIoThread(io, io.create<NodeSession>(0, nodes.first(), so));
        NodeHealth health = NodeHealth::Connecting;
        QObject receiver;
        connect(session.get(), &NodeSession::factsChanged, &receiver,
                [&health](const NodeFacts& f) { health = f.health; });
        QMetaObject::invokeMethod(session.get(), &NodeSession::start);
        QTRY_COMPARE_WITH_TIMEOUT(health, NodeHealth::Up, 10000);

        const qint64 firstPid = tunnel->processId();
        QVERIFY(firstPid > 0);
        ::kill(pid_t(firstPid), SIGKILL);
        QVERIFY(down.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(health != NodeHealth::Up && health != NodeHealth::Connecting, 10000);
        // It restarts by itself, on the same local ports, and the node comes back.
        QTRY_VERIFY_WITH_TIMEOUT(up.count() >= 2, 20000);
        QVERIFY(tunnel->processId() != firstPid);
        QTRY_COMPARE_WITH_TIMEOUT(health, NodeHealth::Up, 10000);
        QMetaObject::invokeMethod(session.get(), &NodeSession::stop, Qt::BlockingQueuedConnection);
    }

    // TLS through the tunnel verifies the node's own name (the certificate names "localhost" only, not the
    // tunnel's 127.0.0.1), and a wrong name is still refused.
    void tlsThroughTunnelVerifiesTheRealName()
    {
        if (!QSslSocket::supportsSsl())
            QFAIL("Qt has no TLS backend");
        QTemporaryDir dir;
        test::TestCa ca(dir.path());
        QVERIFY(ca.makeCa(QStringLiteral("ca")));
        QVERIFY(ca.makeCert(QStringLiteral("server"), QStringLiteral("ca"), QStringLiteral("DNS:localhost")));
        LocalCluster tlsCluster;
        const quint16 tlsPort = closedPort();
        LocalNodeOptions o;
        o.extraArgs = {QStringLiteral("--tls-port"),         QString::number(tlsPort),
                       QStringLiteral("--tls-cert-file"),    ca.path(QStringLiteral("server.crt")),
                       QStringLiteral("--tls-key-file"),     ca.path(QStringLiteral("server.key")),
                       QStringLiteral("--tls-ca-cert-file"), ca.path(QStringLiteral("ca.crt")),
                       QStringLiteral("--tls-auth-clients"), QStringLiteral("no")};
        QString error;
        QVERIFY2(tlsCluster.addNode(o, &error) == 0, qPrintable(error));

        SshLab lab;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        NodeEndpoint node;
        node.host = QStringLiteral("localhost");
        node.port = tlsPort;
        node.tls = true;
        node.caFile = ca.path(QStringLiteral("ca.crt"));
        node.sshRoute = QStringLiteral("bastion");
        NodeEndpoint wrongName = node;
        wrongName.serverName = QStringLiteral("wrong.example");
        QList<NodeEndpoint> nodes{node, wrongName};
        const auto tunnels = SshTunnel::forNodes(&nodes, options(lab), nullptr, &error);
        QCOMPARE(tunnels.size(), 1);
        std::unique_ptr<SshTunnel> tunnel(tunnels.first());
        QSignalSpy up(tunnel.get(), &SshTunnel::up);
        tunnel->start();
        QVERIFY2(up.wait(20000), qPrintable(tunnel->lastError()));
        const RedisReply ok = runCommand(nodes[0], {"PING"});
        QVERIFY2(!ok.isError(), qPrintable(ok.errorText()));
        QCOMPARE(ok.bytes(), QByteArray("PONG"));
        const RedisReply refused = runCommand(nodes[1], {"PING"});
        QVERIFY(refused.isError());
        QVERIFY2(refused.errorText().contains(QStringLiteral("host name"), Qt::CaseInsensitive),
                 qPrintable(refused.errorText()));
    }

    // The CLI's --ssh: acquire and inspect through one bastion, then through a ProxyJump chain.
    void cliThroughBastions_data()
    {
        QTest::addColumn<QString>("route");
        QTest::newRow("direct") << QStringLiteral("bastion");
        QTest::newRow("ProxyJump") << QStringLiteral("outer,bastion");
    }

    void cliThroughBastions()
    {
        QFETCH(QString, route);
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        QVERIFY2(lab.addServer(QStringLiteral("outer"), &error), qPrintable(error));
        const QStringList ssh{QStringLiteral("--ssh"), route, QStringLiteral("--ssh-config"), lab.configFile()};
        const QString key = QStringLiteral("cli-ssh-") + QString::fromLatin1(QTest::currentDataTag());
        const CliRun acquired =
            runCli(QStringList{QStringLiteral("acquire"), QStringLiteral("--nodes"), nodeList(m_cluster),
                               QStringLiteral("--ttl"), QStringLiteral("60000"), QStringLiteral("--json")}
                   << ssh << key);
        QVERIFY2(acquired.exitCode == 0, qPrintable(acquired.describe()));
        const QByteArray token = acquired.json.value(QStringLiteral("token")).toString().toUtf8();
        QVERIFY(!token.isEmpty());
        for (const quint16 port : realPorts())
            QCOMPARE(DirectRedis(port).get(key.toUtf8()).value_or(QByteArray()), token);
        // Addresses stay the nodes' own in what the CLI prints, not the tunnel's local ports.
        const CliRun inspected = runCli(QStringList{QStringLiteral("inspect"), QStringLiteral("--nodes"),
                                                    nodeList(m_cluster), QStringLiteral("--pattern"), key}
                                        << ssh);
        QVERIFY2(inspected.exitCode == 0, qPrintable(inspected.describe()));
        QVERIFY2(inspected.out.contains(key.toUtf8()) && inspected.out.contains("3/3"),
                 qPrintable(inspected.describe()));
        QVERIFY2(inspected.out.contains(m_cluster.endpoint(0).displayName().toUtf8()),
                 qPrintable(inspected.describe()));
        QVERIFY(lab.log(QStringLiteral("bastion")).contains(QStringLiteral("Accepted publickey")));
        QCOMPARE(lab.log(QStringLiteral("outer")).contains(QStringLiteral("Accepted publickey")), route.contains(u','));
    }

    void cliRefusesChangedHostKey()
    {
        SshLab lab;
        QString error;
        QVERIFY2(lab.addServer(QStringLiteral("bastion"), &error), qPrintable(error));
        lab.recordWrongKey(QStringLiteral("bastion"));
        const CliRun run = runCli({QStringLiteral("acquire"), QStringLiteral("--nodes"), nodeList(m_cluster),
                                   QStringLiteral("--ssh"), QStringLiteral("bastion"), QStringLiteral("--ssh-config"),
                                   lab.configFile(), QStringLiteral("cli-ssh-changed")});
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("host key has CHANGED"), qPrintable(run.describe()));
        QVERIFY(!lab.log(QStringLiteral("bastion")).contains(QStringLiteral("Accepted publickey")));
        QVERIFY(!DirectRedis(m_cluster.port(0)).get("cli-ssh-changed").has_value());
    }
};

QTEST_GUILESS_MAIN(TestSshTunnel)
#include "TestSshTunnel.moc"
