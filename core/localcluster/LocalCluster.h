#pragma once

#include "protocol/NodeEndpoint.h"

#include <QList>
#include <QObject>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

class QProcess;

namespace redlock {

// How one local redis-server is configured. Defaults are what the Redlock seeds call unsafe on
// purpose (no persistence): tests switch persistence on where they need it.
struct LocalNodeOptions
{
    bool appendOnly = false;
    QString appendFsync = QStringLiteral("everysec"); // always | everysec | no
    QString save;                                     // RDB save points; empty = none
    QString maxmemory;                                // e.g. "64mb"; empty = no limit
    QString maxmemoryPolicy = QStringLiteral("noeviction");
    QString notifyKeyspaceEvents; // e.g. "Kgx"; empty = off
    QString requirePass;
    bool unixSocket = false; // also listen on <dir>/redis.sock
    QStringList extraArgs;   // appended verbatim, e.g. {"--tls-port", "0"}
    QStringList environment; // "NAME=VALUE" set for the server on top of ours, e.g. LD_PRELOAD for libfaketime
};

// Starts N redis-server processes on free loopback ports in a temporary directory, and stops, kills,
// pauses (SIGSTOP/SIGCONT) and restarts them. Everything is cleaned up in the destructor; the children
// also die with the process that started them (PR_SET_PDEATHSIG), so a crashed test leaves no server.
// Used by the tests, the demo mode and the managed node restart. Blocking by design (a start takes a few
// milliseconds): call it from a test, the CLI, or a worker thread, not from the GUI thread.
class LocalCluster final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalCluster)

public:
    explicit LocalCluster(QObject* parent = nullptr);
    ~LocalCluster() override;

    // The redis-server binary: $REDLOCK_REDIS_SERVER, else the first on PATH, else empty.
    static QString redisServerPath();

    bool start(int nodeCount, const LocalNodeOptions& options = {}, QString* error = nullptr);
    // Adds one more node (started at once); returns its index or -1.
    int addNode(const LocalNodeOptions& options, QString* error = nullptr);
    int size() const { return static_cast<int>(m_nodes.size()); }
    QString baseDir() const;

    NodeEndpoint endpoint(int index) const;
    QList<NodeEndpoint> endpoints() const;
    quint16 port(int index) const;
    QString dataDir(int index) const;
    // <dir>/redis.sock when the node was started with LocalNodeOptions::unixSocket, else empty.
    QString unixSocketPath(int index) const;
    qint64 pid(int index) const;
    bool isRunning(int index) const;
    bool isPaused(int index) const;
    // The last lines the server printed (for error messages).
    QString recentOutput(int index) const;

    // Options used by the next startNode(); the port and data directory stay the same.
    void setNodeOptions(int index, const LocalNodeOptions& options);
    LocalNodeOptions nodeOptions(int index) const;

    bool startNode(int index, QString* error = nullptr);
    bool stopNode(int index, int timeoutMs = 10000); // SIGTERM: clean shutdown
    bool killNode(int index);                        // SIGKILL: a crash
    bool pauseNode(int index);                       // SIGSTOP
    bool resumeNode(int index);                      // SIGCONT
    // Removes the node's data files, as a crash that loses the disk would.
    bool wipeNodeData(int index);
    void stopAll();

signals:
    void nodeStarted(int index);
    void nodeExited(int index);

private:
    bool signalNode(int index, int signal, bool paused); // SIGSTOP / SIGCONT, and what it makes of the node
    struct Node
    {
        quint16 port = 0;
        QString dir;
        LocalNodeOptions options;
        QProcess* process = nullptr;
        bool paused = false;
        QStringList recentLines;
    };

    bool launch(int index, bool mayChangePort, QString* error);
    QStringList argumentsFor(const Node& node) const;
    void drainOutput(Node& node);
    static quint16 pickFreePort();

    std::unique_ptr<QTemporaryDir> m_tempDir;
    std::vector<Node> m_nodes;
};

} // namespace redlock
