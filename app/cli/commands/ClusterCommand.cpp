#include "cli/CommandLine.h"
#include "cli/Commands.h"

#include "localcluster/LocalCluster.h"
#include "runtime/StopSignals.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace redlock::cli {

// The translation context of this file's messages.
class ClusterCommand
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::ClusterCommand)
};

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
        return fail(ExitUsage, ClusterCommand::tr("redis-server not found on PATH (or set REDLOCK_REDIS_SERVER)"));
    }
    // Installed before the cluster starts, so that a stop during the start is not lost: the event loop quits
    // as soon as it runs, and the cluster is torn down on the main thread, not in a signal handler.
    StopSignals stopSignals;
    if (!stopSignals.isActive()) {
        return fail(ExitUsage, ClusterCommand::tr("cannot install signal handlers: %1").arg(stopSignals.errorString()));
    }
    QObject::connect(
        &stopSignals, &StopSignals::received, qApp, [] { QCoreApplication::quit(); }, Qt::QueuedConnection);

    const bool unixSocket = parser.isSet(QStringLiteral("unix-socket"));
    LocalNodeOptions nodeOptions;
    nodeOptions.unixSocket = unixSocket;
    LocalCluster cluster;
    QString error;
    if (!cluster.start(static_cast<int>(count), nodeOptions, &error)) {
        return fail(ExitNoQuorumReachable, ClusterCommand::tr("cannot start the cluster: %1").arg(error));
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
    printDiagnostic(ClusterCommand::tr("%1 redis-server node(s) running in %2; Ctrl+C (SIGINT) or SIGTERM stops them")
                        .arg(cluster.size())
                        .arg(cluster.baseDir()));

    QObject::connect(&cluster, &LocalCluster::nodeExited, qApp, [&cluster](int index) {
        printDiagnostic(
            ClusterCommand::tr("node %1 (%2) exited").arg(index + 1).arg(cluster.endpoint(index).displayName()));
    });
    QCoreApplication::exec();
    QObject::disconnect(&cluster, nullptr, qApp, nullptr);
    printDiagnostic(ClusterCommand::tr("stopping the cluster"));
    cluster.stopAll();
    return ExitOk;
}

} // namespace redlock::cli
