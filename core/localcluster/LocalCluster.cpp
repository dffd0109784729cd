#include "localcluster/LocalCluster.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>

#include <csignal>
#include <sys/prctl.h>

namespace redlock {

namespace {

constexpr int kStartTimeoutMs = 15000;
constexpr int kRecentLines = 40;

QString socketPathIn(const QString& nodeDir)
{
    return nodeDir + QStringLiteral("/redis.sock");
}

} // namespace

LocalCluster::LocalCluster(QObject* parent) : QObject(parent) {}

LocalCluster::~LocalCluster()
{
    stopAll();
}

QString LocalCluster::redisServerPath()
{
    const QString fromEnv = qEnvironmentVariable("REDLOCK_REDIS_SERVER");
    if (!fromEnv.isEmpty())
        return fromEnv;
    QString found = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
    if (found.isEmpty())
        found = QStandardPaths::findExecutable(QStringLiteral("redis-server"),
                                               {QStringLiteral("/usr/bin"), QStringLiteral("/usr/local/bin")});
    return found;
}

QString LocalCluster::baseDir() const
{
    return m_tempDir ? m_tempDir->path() : QString();
}

bool LocalCluster::start(int nodeCount, const LocalNodeOptions& options, QString* error)
{
    if (nodeCount < 1) {
        if (error)
            *error = tr("a cluster needs at least one node");
        return false;
    }
    for (int i = 0; i < nodeCount; ++i) {
        if (addNode(options, error) < 0) {
            stopAll();
            return false;
        }
    }
    return true;
}

int LocalCluster::addNode(const LocalNodeOptions& options, QString* error)
{
    if (!m_tempDir) {
        m_tempDir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/redlock-cluster-XXXXXX"));
        if (!m_tempDir->isValid()) {
            if (error)
                *error = tr("cannot create a temporary directory: %1").arg(m_tempDir->errorString());
            m_tempDir.reset();
            return -1;
        }
    }
    const int index = size();
    Node node;
    node.options = options;
    node.dir = m_tempDir->filePath(QStringLiteral("node%1").arg(index));
    if (!QDir().mkpath(node.dir)) {
        if (error)
            *error = tr("cannot create %1").arg(node.dir);
        return -1;
    }
    m_nodes.push_back(std::move(node));
    if (!launch(index, true, error)) {
        m_nodes.pop_back();
        return -1;
    }
    return index;
}

quint16 LocalCluster::pickFreePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

QStringList LocalCluster::argumentsFor(const Node& node) const
{
    const LocalNodeOptions& o = node.options;
    // One option and its value per line.
    // clang-format off
    QStringList args{
        QStringLiteral("--port"), QString::number(node.port),
        QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
        QStringLiteral("--dir"), node.dir,
        QStringLiteral("--daemonize"), QStringLiteral("no"),
        QStringLiteral("--logfile"), QString(),
        QStringLiteral("--save"), o.save,
        QStringLiteral("--appendonly"), o.appendOnly ? QStringLiteral("yes") : QStringLiteral("no"),
        QStringLiteral("--appendfsync"), o.appendFsync,
        QStringLiteral("--maxmemory-policy"), o.maxmemoryPolicy,
        QStringLiteral("--protected-mode"), QStringLiteral("no"),
        QStringLiteral("--enable-debug-command"), QStringLiteral("local"),
    };
    // clang-format on
    if (!o.maxmemory.isEmpty())
        args << QStringLiteral("--maxmemory") << o.maxmemory;
    if (!o.notifyKeyspaceEvents.isEmpty())
        args << QStringLiteral("--notify-keyspace-events") << o.notifyKeyspaceEvents;
    if (!o.requirePass.isEmpty())
        args << QStringLiteral("--requirepass") << o.requirePass;
    if (o.unixSocket)
        args << QStringLiteral("--unixsocket") << socketPathIn(node.dir) << QStringLiteral("--unixsocketperm")
             << QStringLiteral("700");
    args << o.extraArgs;
    return args;
}

bool LocalCluster::launch(int index, bool mayChangePort, QString* error)
{
    const QString server = redisServerPath();
    if (server.isEmpty()) {
        if (error)
            *error = tr("redis-server not found (install redis-server or set REDLOCK_REDIS_SERVER)");
        return false;
    }
    Node& node = m_nodes[static_cast<size_t>(index)];
    // A free port can be taken by someone else between the probe and the bind: try a few.
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (node.port == 0 || (attempt > 0 && mayChangePort))
            node.port = pickFreePort();
        if (node.port == 0) {
            if (error)
                *error = tr("no free loopback port");
            return false;
        }
        auto* process = new QProcess(this);
        process->setProcessChannelMode(QProcess::MergedChannels);
        process->setChildProcessModifier([] {
            // Die with the parent thread: a test that crashes must not leave servers behind.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        });
        process->setWorkingDirectory(node.dir);
        if (!node.options.environment.isEmpty()) {
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            for (const QString& entry : node.options.environment) {
                const qsizetype equals = entry.indexOf(u'=');
                environment.insert(entry.left(equals), equals < 0 ? QString() : entry.mid(equals + 1));
            }
            process->setProcessEnvironment(environment);
        }
        node.recentLines.clear();
        process->start(server, argumentsFor(node));
        if (!process->waitForStarted(kStartTimeoutMs)) {
            if (error)
                *error = tr("cannot start %1: %2").arg(server, process->errorString());
            delete process;
            return false;
        }
        node.process = process;
        node.paused = false;

        // Wait for the server to say it accepts connections (or to exit).
        bool ready = false;
        QByteArray pending;
        const QDeadlineTimer deadline(kStartTimeoutMs);
        while (!ready && process->state() == QProcess::Running && !deadline.hasExpired()) {
            if (!process->waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime()))))
                break;
            pending += process->readAll();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QString line = QString::fromUtf8(pending.left(nl)).trimmed();
                pending.remove(0, nl + 1);
                node.recentLines.append(line);
                if (node.recentLines.size() > kRecentLines)
                    node.recentLines.removeFirst();
                if (line.contains(QStringLiteral("Ready to accept connections")))
                    ready = true;
            }
        }
        if (ready) {
            connect(process, &QProcess::readyRead, this, [this, process] {
                for (auto& n : m_nodes) {
                    if (n.process == process)
                        drainOutput(n);
                }
            });
            connect(process, &QProcess::finished, this, [this, process] {
                for (int i = 0; i < size(); ++i) {
                    if (m_nodes[static_cast<size_t>(i)].process == process)
                        emit nodeExited(i);
                }
            });
            emit nodeStarted(index);
            return true;
        }
        const QString output = node.recentLines.join(u'\n') + QString::fromUtf8(process->readAll());
        process->kill();
        process->waitForFinished(5000);
        delete process;
        node.process = nullptr;
        const bool portTaken = output.contains(QStringLiteral("Address already in use"));
        if (!portTaken || !mayChangePort) {
            if (error)
                *error = tr("redis-server on port %1 did not become ready: %2").arg(node.port).arg(output.right(2000));
            return false;
        }
    }
    if (error)
        *error = tr("no port could be bound after several attempts");
    return false;
}

void LocalCluster::drainOutput(Node& node)
{
    const QStringList lines = QString::fromUtf8(node.process->readAll()).split(u'\n', Qt::SkipEmptyParts);
    node.recentLines << lines;
    while (node.recentLines.size() > kRecentLines)
        node.recentLines.removeFirst();
}

NodeEndpoint LocalCluster::endpoint(int index) const
{
    NodeEndpoint ep;
    ep.host = QStringLiteral("127.0.0.1");
    ep.port = port(index);
    ep.password = m_nodes[static_cast<size_t>(index)].options.requirePass;
    return ep;
}

QList<NodeEndpoint> LocalCluster::endpoints() const
{
    QList<NodeEndpoint> out;
    for (int i = 0; i < size(); ++i)
        out.append(endpoint(i));
    return out;
}

quint16 LocalCluster::port(int index) const
{
    return m_nodes[static_cast<size_t>(index)].port;
}

QString LocalCluster::dataDir(int index) const
{
    return m_nodes[static_cast<size_t>(index)].dir;
}

QString LocalCluster::unixSocketPath(int index) const
{
    const Node& node = m_nodes[static_cast<size_t>(index)];
    return node.options.unixSocket ? socketPathIn(node.dir) : QString();
}

qint64 LocalCluster::pid(int index) const
{
    const QProcess* p = m_nodes[static_cast<size_t>(index)].process;
    return p ? p->processId() : 0;
}

bool LocalCluster::isRunning(int index) const
{
    const QProcess* p = m_nodes[static_cast<size_t>(index)].process;
    return p && p->state() == QProcess::Running;
}

bool LocalCluster::isPaused(int index) const
{
    return isRunning(index) && m_nodes[static_cast<size_t>(index)].paused;
}

QString LocalCluster::recentOutput(int index) const
{
    return m_nodes[static_cast<size_t>(index)].recentLines.join(u'\n');
}

void LocalCluster::setNodeOptions(int index, const LocalNodeOptions& options)
{
    m_nodes[static_cast<size_t>(index)].options = options;
}

LocalNodeOptions LocalCluster::nodeOptions(int index) const
{
    return m_nodes[static_cast<size_t>(index)].options;
}

bool LocalCluster::startNode(int index, QString* error)
{
    if (index < 0 || index >= size()) {
        if (error)
            *error = tr("no node %1").arg(index);
        return false;
    }
    if (isRunning(index))
        return true;
    Node& node = m_nodes[static_cast<size_t>(index)];
    delete node.process;
    node.process = nullptr;
    return launch(index, false, error);
}

bool LocalCluster::stopNode(int index, int timeoutMs)
{
    if (index < 0 || index >= size())
        return false;
    Node& node = m_nodes[static_cast<size_t>(index)];
    if (!node.process)
        return true;
    if (node.process->state() == QProcess::Running) {
        if (node.paused)
            ::kill(static_cast<pid_t>(node.process->processId()), SIGCONT);
        node.process->terminate();
        if (!node.process->waitForFinished(timeoutMs)) {
            node.process->kill();
            node.process->waitForFinished(5000);
        }
    }
    node.paused = false;
    delete node.process;
    node.process = nullptr;
    return true;
}

bool LocalCluster::killNode(int index)
{
    if (index < 0 || index >= size())
        return false;
    Node& node = m_nodes[static_cast<size_t>(index)];
    if (!node.process)
        return true;
    node.process->kill();
    node.process->waitForFinished(5000);
    node.paused = false;
    delete node.process;
    node.process = nullptr;
    return true;
}

bool LocalCluster::pauseNode(int index)
{
    return signalNode(index, SIGSTOP, true);
}

bool LocalCluster::resumeNode(int index)
{
    return signalNode(index, SIGCONT, false);
}

bool LocalCluster::signalNode(int index, int signal, bool paused)
{
    if (!isRunning(index))
        return false;
    Node& node = m_nodes[static_cast<size_t>(index)];
    if (::kill(static_cast<pid_t>(node.process->processId()), signal) != 0)
        return false;
    node.paused = paused;
    return true;
}

bool LocalCluster::wipeNodeData(int index)
{
    if (isRunning(index))
        return false;
    QDir dir(dataDir(index));
    bool ok = true;
    const auto entries = dir.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QFileInfo& info : entries) {
        if (info.fileName() == u"redis.sock")
            continue;
        ok = (info.isDir() ? QDir(info.filePath()).removeRecursively() : QFile::remove(info.filePath())) && ok;
    }
    return ok;
}

void LocalCluster::stopAll()
{
    // SIGKILL for speed: a cluster torn down is not expected to save anything.
    for (int i = 0; i < size(); ++i)
        killNode(i);
}

} // namespace redlock
