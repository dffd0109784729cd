#pragma once

#include "protocol/NodeEndpoint.h"

#include <QList>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>

class QTemporaryDir;

namespace redlock {

// Nodes behind a bastion, reached through the system's OpenSSH client: one `ssh -N -L ...` process per route
// carries every node behind it. OpenSSH rather than libssh because it already knows the user's ~/.ssh/config
// (Host aliases, ProxyJump, IdentityFile, User, Port), ssh-agent and known_hosts, exactly as `ssh` does.
// Host keys are checked strictly (an unknown or changed key is refused, never accepted) and nothing prompts
// (BatchMode), on every hop of a chain, including the jump hosts the user's ssh config adds (ProxyJump): those
// are found with `ssh -G` and made hops of our own chain (see start()). The local end of each forward is a unix socket
// in a directory of our own (mode 0700), never a loopback port: a port would be free for any local user to bind while
// ssh restarts, and the client would hand its AUTH password to whoever did. The socket paths stay the same across
// restarts; while ssh is down, connecting there is refused: the nodes are unreachable, never free. A tunnel that dies
// restarts by itself, with backoff. Lives on the thread it was created on; that thread needs an event loop.
class SshTunnel final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QString program = QStringLiteral("ssh");
        QString configFile;         // ssh -F; empty = the user's ~/.ssh/config
        int readyTimeoutMs = 20000; // from ssh's start to all forwards listening; longer = that attempt failed
        // Each hop's `ssh -G` (the ssh config read, its Match exec commands, a canonicalising DNS lookup ...);
        // longer = that attempt failed, the process killed.
        int routeLookupTimeoutMs = 10000;
        int backoffInitialMs = 250; // restart delays after a failure: doubled up to backoffMaxMs
        int backoffMaxMs = 15000;
    };
    struct Target
    {
        QString host; // as the last bastion resolves it
        quint16 port = 0;
    };
    enum class State { Stopped, Starting, Up, Down };
    Q_ENUM(State)

    // route: "[user@]host[:port]" or a ProxyJump chain "a,b,c" (as ssh -J a,b c: the last hop forwards). Host
    // aliases of the ssh config are welcome.
    SshTunnel(QString route, QList<Target> targets, Options options, QObject* parent = nullptr);
    ~SshTunnel() override;

    // Checks a route ("[user@]host[:port]" hops separated by commas); the error names the bad hop.
    static bool validRoute(const QString& route, QString* error = nullptr);
    // The ssh command line (without the program).
    QStringList arguments() const;
    // The hops the tunnel goes through: the route until an attempt has looked it up, then the route expanded as
    // described at start().
    const QStringList& hops() const { return m_hops; }

    const QString& route() const { return m_route; }
    // The unix socket forwarded to targets[i]; fixed for the tunnel's lifetime. Empty when the tunnel could not
    // make its private directory (see setupError()).
    QString localSocket(qsizetype i) const { return m_localSockets.value(i); }
    // The private directory (0700, ours) holding the sockets; removed with the tunnel.
    QString socketDirectory() const;
    // Why the local sockets could not be set up (translated), empty when they were.
    QString setupError() const { return m_setupError; }
    State state() const { return m_state; }
    // Why the last attempt failed or the tunnel went down (translated; names the route), empty while up.
    QString lastError() const { return m_lastError; }
    qint64 processId() const { return m_process ? m_process->processId() : 0; }
    // True while an attempt is still asking `ssh -G` how to reach the route (state() is Starting meanwhile).
    bool isLookingUpRoute() const { return m_lookup != nullptr; }

    // Starts an attempt (again after stop()) and returns at once; up() or down() follows. Each attempt first
    // expands the route into the hops we connect through, each with our strict options: the route's first hop
    // preceded by the jump hosts its effective ssh config (`ssh -G`, one process per hop, each given
    // routeLookupTimeoutMs) gives it through ProxyJump, recursively, as ssh itself would reach it. Later hops are
    // reached through the hop before them, as with ssh -J (their own ProxyJump is not used by ssh either). A
    // first hop with a ProxyCommand of the user's config is refused: that command cannot be made to check host
    // keys strictly. Also refused: a ProxyJump loop, a chain deeper than 8 jumps, an `ssh -G` that fails or
    // hangs. A refused route is a failed attempt like any other (down(), then a restart after the backoff, with
    // the config read again). Then ssh itself starts.
    void start();
    void stop();

    // One tunnel per distinct NodeEndpoint::sshRoute, every node behind that route carried by it: sets each such
    // node's tunnelSocket. The tunnels are children of parent, not started; nothing here runs ssh (what the ssh
    // config makes of a route is found, and maybe refused, by each start()). On an error (a malformed route, a unix
    // socket node, no private socket directory) returns an empty list with *error set.
    static QList<SshTunnel*> forNodes(QList<NodeEndpoint>* nodes, const Options& options, QObject* parent,
                                      QString* error = nullptr);

signals:
    // All forwards are listening.
    void up();
    // An attempt failed or a running tunnel died (reason as lastError()); it restarts after a backoff.
    void down(const QString& reason);

private:
    void launch();
    void lookUp(const QString& hop);
    void onLookupFinished();
    void endLookup();
    void endProcess();
    void startSsh();
    void onReadyRead();
    void onFinished();
    void fail(const QString& reason);
    QString explainFailure() const;
    QString proxyCommand(const QStringList& hops) const;
    QString shownRoute() const;

    QString m_route;
    QStringList m_hops; // m_route's, expanded
    QList<Target> m_targets;
    Options m_options;
    std::unique_ptr<QTemporaryDir> m_socketDir;
    QStringList m_localSockets;
    QString m_setupError;
    QProcess* m_process = nullptr;
    // The route's lookup (`ssh -G`): the process for m_lookupHop, and the hops whose ProxyJump is being followed,
    // outermost first, each with the later jump hosts of its ProxyJump.
    struct JumpFrame
    {
        QString hop;
        QStringList laterJumps;
    };
    QProcess* m_lookup = nullptr;
    QString m_lookupHop;
    QList<JumpFrame> m_lookupStack;
    QTimer m_lookupTimer;
    State m_state = State::Stopped;
    QString m_lastError;
    QByteArray m_stdout;
    QByteArray m_stderr;
    QTimer m_readyTimer;
    QTimer m_restartTimer;
    int m_backoffMs = 0;
};

} // namespace redlock
