#include "CommandLine.h"
#include "Commands.h"

#include "localcluster/LocalCluster.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace redlock::cli {

// The translation context of this file's messages.
class ClusterCommand
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::ClusterCommand)
};

namespace {

// Self-pipe: the signal handler only writes a byte; the event loop sees the pipe become readable and quits,
// so the cluster is torn down by LocalCluster's destructor on the main thread, not in a signal handler.
int g_signalPipe[2] = {-1, -1};

void onTerminationSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
}

bool installTerminationHandlers()
{
    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return false;
    struct sigaction action = {};
    action.sa_handler = onTerminationSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return ::sigaction(SIGINT, &action, nullptr) == 0 && ::sigaction(SIGTERM, &action, nullptr) == 0 &&
           ::sigaction(SIGHUP, &action, nullptr) == 0;
}

} // namespace

int runCluster(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("nodes-count"), ClusterCommand::tr("Number of redis-server nodes (default 5)."),
                      ClusterCommand::tr("N"), QStringLiteral("5")});
    parser.addOption(
        {QStringLiteral("json"), ClusterCommand::tr("Print the nodes as one JSON object instead of one line.")});
    parser.addOption(
        {QStringLiteral("unix-socket"),
         ClusterCommand::tr("The nodes also listen on a unix domain socket in their directory; the node list names "
                            "the sockets (unix:/path,...) instead of the TCP ports.")});
    int exitCode = ExitOk;
    if (!parseArguments(
            parser, args, ClusterCommand::tr("cluster [options]"),
            ClusterCommand::tr("Start N redis-server processes on free loopback ports in a temporary directory, print "
                               "the node list (host:port,... on one line, ready for --nodes) and keep them running "
                               "until SIGINT or SIGTERM; then stop them and remove the directory. The servers also "
                               "die if this process is killed. Persistence is off: a demo, not a deployment."),
            &exitCode))
        return exitCode;
    qint64 count = 5;
    if (!intOption(parser, QStringLiteral("nodes-count"), 1, 99, &count))
        return ExitUsage;
    if (LocalCluster::redisServerPath().isEmpty()) {
        printErr(ClusterCommand::tr("redlock: redis-server not found on PATH (or set REDLOCK_REDIS_SERVER)"));
        return ExitUsage;
    }
    if (!installTerminationHandlers()) {
        printErr(ClusterCommand::tr("redlock: cannot install signal handlers: %1")
                     .arg(QString::fromLocal8Bit(strerror(errno))));
        return ExitUsage;
    }

    const bool unixSocket = parser.isSet(QStringLiteral("unix-socket"));
    LocalNodeOptions nodeOptions;
    nodeOptions.unixSocket = unixSocket;
    LocalCluster cluster;
    QString error;
    if (!cluster.start(static_cast<int>(count), nodeOptions, &error)) {
        printErr(ClusterCommand::tr("redlock: cannot start the cluster: %1").arg(error));
        return ExitNoQuorumReachable;
    }
    QStringList names;
    QJsonArray nodes;
    for (int i = 0; i < cluster.size(); ++i) {
        const QString name =
            unixSocket ? QStringLiteral("unix:") + cluster.unixSocketPath(i) : cluster.endpoint(i).displayName();
        names << name;
        QJsonObject details{{QStringLiteral("node"), name},
                            {QStringLiteral("port"), cluster.port(i)},
                            {QStringLiteral("pid"), cluster.pid(i)},
                            {QStringLiteral("dataDir"), cluster.dataDir(i)}};
        if (unixSocket)
            details.insert(QStringLiteral("unixSocket"), cluster.unixSocketPath(i));
        nodes.append(details);
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(QJsonObject{{QStringLiteral("nodes"), names.join(u',')},
                              {QStringLiteral("nodeDetails"), nodes},
                              {QStringLiteral("baseDir"), cluster.baseDir()},
                              {QStringLiteral("pid"), QCoreApplication::applicationPid()}});
    } else {
        printOut(names.join(u','));
    }
    printErr(ClusterCommand::tr("redlock: %1 redis-server node(s) running in %2; Ctrl+C (SIGINT) or SIGTERM stops them")
                 .arg(cluster.size())
                 .arg(cluster.baseDir()));

    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, qApp, [] { QCoreApplication::quit(); });
    QObject::connect(&cluster, &LocalCluster::nodeExited, qApp, [&cluster](int index) {
        printErr(ClusterCommand::tr("redlock: node %1 (%2) exited")
                     .arg(index + 1)
                     .arg(cluster.endpoint(index).displayName()));
    });
    QCoreApplication::exec();
    QObject::disconnect(&cluster, nullptr, qApp, nullptr);
    printErr(ClusterCommand::tr("redlock: stopping the cluster"));
    cluster.stopAll();
    return ExitOk;
}

} // namespace redlock::cli
