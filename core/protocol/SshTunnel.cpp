#include "protocol/SshTunnel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <memory>
#include <optional>

#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#endif

namespace redlock {

namespace {

// Printed by ssh (LocalCommand) once it is authenticated and its -L listeners are bound: the forwards accept.
constexpr char kReadyMarker[] = "redlock-ssh-tunnel-ready";
constexpr qsizetype kMaxStderr = 16 * 1024;
// Jump hosts of jump hosts (ProxyJump in the config of a ProxyJump's first host ...): deeper is refused.
constexpr qsizetype kMaxJumpDepth = 8;

struct Hop
{
    QString user;
    QString host;
    int port = 0;
};

std::optional<Hop> parseHop(const QString& text)
{
    // [user@]host[:port], host a name, an IPv4 address or a bracketed IPv6 address. Never starting with '-':
    // ssh would read it as an option.
    static const QRegularExpression re(QStringLiteral(
        R"(^(?:([A-Za-z0-9_][A-Za-z0-9._-]*)@)?([A-Za-z0-9_][A-Za-z0-9._-]*|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?$)"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    Hop hop{m.captured(1), m.captured(2), 0};
    if (m.hasCaptured(3) && !m.captured(3).isEmpty()) {
        hop.port = m.captured(3).toInt();
        if (hop.port < 1 || hop.port > 65535)
            return std::nullopt;
    }
    return hop;
}

// Where the tunnel's private socket directory goes: the user's runtime directory (already private) when there
// is one, else the temporary directory; /tmp when either would make a socket path longer than sun_path takes.
QString socketBase()
{
    constexpr qsizetype kRoom = 32; // "/redlock-ssh-XXXXXX/" and a node index
    constexpr qsizetype kMaxPath = qsizetype(sizeof(sockaddr_un::sun_path)) - 1;
    for (const QString& base : {qEnvironmentVariable("XDG_RUNTIME_DIR"), QDir::tempPath()}) {
        const QFileInfo info(base);
        if (!base.isEmpty() && info.isDir() && info.isWritable() && base.toLocal8Bit().size() + kRoom <= kMaxPath)
            return base;
    }
    return QStringLiteral("/tmp");
}

// True when path is a directory owned by us that nobody else may enter (mode 0700 or stricter).
bool isPrivateDirectory(const QString& path)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return false;
    return S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() && (st.st_mode & (S_IRWXG | S_IRWXO)) == 0;
}

// One word for the POSIX shell that ssh runs a ProxyCommand with (SHELL is /bin/sh for our ssh). Double quotes,
// not single ones: ssh first splits every -o value itself to check its quotes, and it reads a backslash as an
// escape inside single quotes too, so nested single-quoted words would look unbalanced to it. Inside double
// quotes the shell and ssh agree on what \" and \\ mean.
QString shellQuoted(const QString& word)
{
    QString quoted = QStringLiteral("\"");
    for (const QChar c : word) {
        if (c == u'"' || c == u'\\' || c == u'$' || c == u'`')
            quoted += u'\\';
        quoted += c;
    }
    return quoted + u'"';
}

// ssh expands %-tokens in a ProxyCommand before the shell reads it: literal text keeps its '%' as "%%".
QString percentEscaped(QString text)
{
    return text.replace(u'%', QStringLiteral("%%"));
}

// The ssh destination for a hop: a port fits in an ssh:// URI; "--" keeps a name from being an option. ssh takes
// neither a bracketed IPv6 address as a name nor inside an ssh:// URI: that one goes bare, its port as -p.
QStringList destination(const QString& text)
{
    const auto hop = parseHop(text);
    if (!hop)
        return {QStringLiteral("--"), text};
    const QString user = hop->user.isEmpty() ? QString() : hop->user + u'@';
    if (hop->host.startsWith(u'[')) {
        QStringList args;
        if (hop->port != 0)
            args << QStringLiteral("-p") << QString::number(hop->port);
        return args << QStringLiteral("--") << user + hop->host.mid(1, hop->host.size() - 2);
    }
    if (hop->port != 0)
        return {QStringLiteral("ssh://%1%2:%3").arg(user, hop->host).arg(hop->port)};
    return {QStringLiteral("--"), text};
}

// What every ssh of a tunnel gets, the forwarding one and each jump host's alike.
QStringList sharedOptions(const QString& configFile)
{
    QStringList args{// Never a prompt (there is nobody to answer it) and never a host key taken on trust: an
                     // unknown or changed key fails the connection, whatever the user's config says.
                     QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
                     QStringLiteral("StrictHostKeyChecking=yes"),
                     // Our own connection, not a shared master whose forwards outlive or predate us.
                     QStringLiteral("-o"), QStringLiteral("ControlMaster=no"), QStringLiteral("-o"),
                     QStringLiteral("ControlPath=none"),
                     // A bastion that vanishes without a reset is noticed, and the tunnel restarted.
                     QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=10"), QStringLiteral("-o"),
                     QStringLiteral("ServerAliveCountMax=3")};
    if (!configFile.isEmpty())
        args << QStringLiteral("-F") << configFile;
    return args;
}

QString forwardHost(const QString& host)
{
    return host.contains(u':') ? u'[' + host + u']' : host;
}

} // namespace

SshTunnel::SshTunnel(QString route, QList<Target> targets, Options options, QObject* parent)
    : QObject(parent), m_route(std::move(route)), m_hops(m_route.split(u',')), m_targets(std::move(targets)),
      m_options(std::move(options))
{
    // The sockets live in a directory only we can enter, made before ssh ever runs and kept until the tunnel is
    // gone: no other user can take a socket's place, not even while ssh restarts, or connect through it.
    m_socketDir = std::make_unique<QTemporaryDir>(socketBase() + QStringLiteral("/redlock-ssh-XXXXXX"));
    if (!m_socketDir->isValid() ||
        !QFile::setPermissions(m_socketDir->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner) ||
        !isPrivateDirectory(m_socketDir->path())) {
        m_setupError = tr("cannot make a private directory for the SSH tunnel's sockets in %1")
                           .arg(QFileInfo(m_socketDir->path()).absolutePath());
    } else {
        for (qsizetype i = 0; i < m_targets.size(); ++i)
            m_localSockets.append(m_socketDir->filePath(QString::number(i)));
    }
    m_readyTimer.setSingleShot(true);
    connect(&m_readyTimer, &QTimer::timeout, this, [this] {
        fail(tr("SSH to %1: no tunnel within %2 s").arg(shownRoute()).arg(m_options.readyTimeoutMs / 1000.0));
    });
    m_restartTimer.setSingleShot(true);
    connect(&m_restartTimer, &QTimer::timeout, this, &SshTunnel::launch);
    m_lookupTimer.setSingleShot(true);
    connect(&m_lookupTimer, &QTimer::timeout, this, [this] {
        fail(tr("SSH route %1: ssh -G %2 did not finish within %3 s")
                 .arg(NodeEndpoint::shownText(m_route), NodeEndpoint::shownText(m_lookupHop))
                 .arg(m_options.routeLookupTimeoutMs / 1000.0));
    });
}

SshTunnel::~SshTunnel()
{
    stop();
}

QString SshTunnel::socketDirectory() const
{
    return m_socketDir && m_socketDir->isValid() ? m_socketDir->path() : QString();
}

bool SshTunnel::validRoute(const QString& route, QString* error)
{
    const QStringList hops = route.split(u',');
    for (const QString& hop : hops) {
        if (!parseHop(hop)) {
            if (error)
                *error = tr("bad SSH hop \"%1\": expected [user@]host[:port], hops separated by commas")
                             .arg(NodeEndpoint::shownText(hop));
            return false;
        }
    }
    return true;
}

QStringList SshTunnel::arguments() const
{
    QStringList args{QStringLiteral("-N")};
    args << sharedOptions(m_options.configFile)
         << QStringList{// A forward that cannot listen is a failed tunnel, not a tunnel with a node missing.
                        QStringLiteral("-o"), QStringLiteral("ExitOnForwardFailure=yes"),
                        // The socket a killed ssh left behind is replaced (nobody else can have put it there).
                        QStringLiteral("-o"), QStringLiteral("StreamLocalBindUnlink=yes"),
                        // The readiness signal: ssh runs LocalCommand after its listeners are bound.
                        QStringLiteral("-o"), QStringLiteral("PermitLocalCommand=yes"), QStringLiteral("-o"),
                        QStringLiteral("LocalCommand=echo ") + QLatin1String(kReadyMarker)};
    for (qsizetype i = 0; i < m_targets.size(); ++i) {
        args << QStringLiteral("-L")
             << QStringLiteral("%1:%2:%3")
                    .arg(m_localSockets.value(i), forwardHost(m_targets[i].host))
                    .arg(m_targets[i].port);
    }
    QStringList hops = m_hops;
    const QString last = hops.takeLast();
    if (!hops.isEmpty())
        args << QStringLiteral("-o") << QStringLiteral("ProxyCommand=") + proxyCommand(hops);
    args << destination(last);
    return args;
}

// The jump hosts as nested ProxyCommands rather than ssh -J: -J gives the jump hosts none of our -o options (an
// unknown bastion key could be prompted for or accepted by the user's config) and pastes -F's path unquoted into
// a shell command. Each hop's ssh gets the same options as ours, every word quoted for the shell, and its '%'
// doubled once per level of nesting so that each ssh expands only its own %h and %p.
QString SshTunnel::proxyCommand(const QStringList& hops) const
{
    QString command; // reaches the hop before the current one; empty for the first
    for (const QString& hop : hops) {
        QStringList words{m_options.program};
        words << sharedOptions(m_options.configFile)
              // A LocalCommand of the user's config would write into the stream it carries.
              << QStringLiteral("-o") << QStringLiteral("PermitLocalCommand=no");
        if (!command.isEmpty())
            words << QStringLiteral("-o") << QStringLiteral("ProxyCommand=") + command;
        QStringList quoted;
        for (const QString& word : std::as_const(words))
            quoted << shellQuoted(percentEscaped(word));
        quoted << QStringLiteral("-W") << QStringLiteral("\"[%h]:%p\""); // this hop's own tokens, expanded
        for (const QString& word : destination(hop))
            quoted << shellQuoted(percentEscaped(word));
        command = quoted.join(u' ');
    }
    return command;
}

// ssh runs LocalCommand, ProxyCommand and Match exec with $SHELL; the chain is quoted for a POSIX shell. The same for
// the route's lookup and the tunnel, so that the config reads alike in both.
static QProcessEnvironment sshEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SHELL"), QStringLiteral("/bin/sh"));
    return env;
}

// Asks ssh for hop's effective settings (Host and Match blocks applied), as it would use them to connect there;
// onLookupFinished() follows. In the background: a slow config (Match exec, a hung lookup) must not hold up our
// thread, which may be the GUI's.
void SshTunnel::lookUp(const QString& hop)
{
    m_lookupHop = hop;
    QStringList args{QStringLiteral("-G")};
    if (!m_options.configFile.isEmpty())
        args << QStringLiteral("-F") << m_options.configFile;
    m_lookup = new QProcess(this);
    m_lookup->setStandardInputFile(QProcess::nullDevice());
    // The environment the tunnel's ssh gets (Match exec runs under the same $SHELL as it will), in a process group
    // of its own: a lookup that hangs is killed with what its Match exec started, not only ssh itself.
    m_lookup->setProcessEnvironment(sshEnvironment());
#ifdef Q_OS_LINUX
    m_lookup->setChildProcessModifier([] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
#endif
    connect(m_lookup, &QProcess::finished, this, &SshTunnel::onLookupFinished);
    connect(m_lookup, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && m_lookup)
            fail(tr("SSH route %1: cannot run %2: %3")
                     .arg(NodeEndpoint::shownText(m_route), m_options.program, m_lookup->errorString()));
    });
    m_lookupTimer.start(m_options.routeLookupTimeoutMs);
    m_lookup->start(m_options.program, args + destination(hop));
}

// The jump hosts that ssh itself would put before the hop just looked up (its effective ProxyJump, the first of
// them looked up in turn), then that hop. Only the first jump host's own config counts: ssh reaches each later one
// through the one before it with -J, which overrides that host's ProxyJump and ProxyCommand.
void SshTunnel::onLookupFinished()
{
    QProcess* lookup = std::exchange(m_lookup, nullptr);
    if (!lookup)
        return;
    m_lookupTimer.stop();
    lookup->disconnect(this);
    lookup->deleteLater();
    const QString route = NodeEndpoint::shownText(m_route);
    const QString hop = m_lookupHop;
    if (lookup->exitStatus() != QProcess::NormalExit || lookup->exitCode() != 0) {
        const QStringList lines =
            QString::fromLocal8Bit(lookup->readAllStandardError()).split(u'\n', Qt::SkipEmptyParts);
        fail(tr("SSH route %1: ssh cannot read its settings for %2: %3")
                 .arg(route, NodeEndpoint::shownText(hop),
                      NodeEndpoint::shownText(lines.isEmpty() ? tr("ssh -G failed") : lines.last().trimmed())));
        return;
    }
    QString proxyJump;
    QString proxyCommand;
    const QStringList lines = QString::fromLocal8Bit(lookup->readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    for (const QString& line : lines) {
        const qsizetype space = line.indexOf(u' ');
        const QString key = line.left(space).toLower();
        const QString value = space < 0 ? QString() : line.mid(space + 1).trimmed();
        if (value.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
            continue;
        if (key == QLatin1String("proxyjump"))
            proxyJump = value;
        else if (key == QLatin1String("proxycommand"))
            proxyCommand = value;
    }
    if (!proxyCommand.isEmpty()) {
        // An arbitrary shell command: even a plain `ssh -W %h:%p bastion` in it would reach the bastion with the
        // user's own options (perhaps StrictHostKeyChecking accept-new), which we cannot see from here.
        fail(tr("SSH route %1: the ssh config gives %2 a ProxyCommand (%3); redlock cannot make that command "
                "check host keys strictly, so it does not run it. Use ProxyJump in the config, or name the "
                "jump hosts in the route (jump,%2).")
                 .arg(route, NodeEndpoint::shownText(hop), NodeEndpoint::shownText(proxyCommand)));
        return;
    }
    if (!proxyJump.isEmpty()) {
        const QStringList jumps = proxyJump.split(u',');
        for (const QString& jump : jumps) {
            if (!parseHop(jump)) {
                fail(tr("SSH route %1: the ssh config gives %2 a ProxyJump redlock cannot use: %3")
                         .arg(route, NodeEndpoint::shownText(hop), NodeEndpoint::shownText(proxyJump)));
                return;
            }
        }
        m_lookupStack.append({hop, jumps.mid(1)});
        QStringList path;
        for (const JumpFrame& frame : std::as_const(m_lookupStack))
            path << frame.hop;
        const QString next = jumps.first();
        if (path.contains(next)) {
            fail(tr("SSH route %1: the ProxyJump settings of the ssh config make a loop: %2")
                     .arg(route, NodeEndpoint::shownText((path + QStringList{next}).join(QStringLiteral(" -> ")))));
            return;
        }
        if (path.size() >= kMaxJumpDepth) {
            fail(tr("SSH route %1: the ProxyJump settings of the ssh config nest deeper than %2 jump hosts: %3")
                     .arg(route)
                     .arg(kMaxJumpDepth)
                     .arg(NodeEndpoint::shownText((path + QStringList{next}).join(QStringLiteral(" -> ")))));
            return;
        }
        lookUp(next);
        return;
    }
    // A hop without a jump host of its own: the chain is complete, from it back out to the route's first hop.
    QStringList chain{hop};
    for (auto frame = m_lookupStack.crbegin(); frame != m_lookupStack.crend(); ++frame)
        chain << frame->laterJumps << frame->hop;
    m_lookupStack.clear();
    m_hops = chain + m_route.split(u',').mid(1);
    startSsh();
}

// Ends the route's lookup, if one runs, without waiting for its ssh -G: a killed one is reaped when it is gone.
void SshTunnel::endLookup()
{
    m_lookupTimer.stop();
    m_lookupStack.clear();
    QProcess* lookup = std::exchange(m_lookup, nullptr);
    if (!lookup)
        return;
    lookup->disconnect(this);
    if (lookup->state() == QProcess::NotRunning) {
        lookup->deleteLater();
        return;
    }
    connect(lookup, &QProcess::finished, lookup, &QObject::deleteLater);
    connect(lookup, &QProcess::errorOccurred, lookup, &QObject::deleteLater); // killed before its exec failed
#ifdef Q_OS_LINUX
    if (const qint64 pid = lookup->processId(); pid > 0)
        ::kill(-static_cast<pid_t>(pid), SIGKILL); // its group: ssh and whatever its Match exec runs
#endif
    lookup->kill();
}

QString SshTunnel::shownRoute() const
{
    if (m_hops.join(u',') == m_route)
        return m_route;
    return tr("%1 (through %2)").arg(m_route, m_hops.mid(0, m_hops.size() - 1).join(u','));
}

void SshTunnel::start()
{
    m_backoffMs = m_options.backoffInitialMs;
    m_restartTimer.stop();
    launch();
}

void SshTunnel::stop()
{
    m_restartTimer.stop();
    m_readyTimer.stop();
    endLookup();
    endProcess();
    m_state = State::Stopped;
}

// Ends the tunnel's ssh, if one runs. Deleted later: this runs inside its own signals too (fail()).
void SshTunnel::endProcess()
{
    QProcess* process = std::exchange(m_process, nullptr);
    if (!process)
        return;
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning) {
        process->kill();
        process->waitForFinished(5000);
    }
    process->deleteLater();
}

void SshTunnel::launch()
{
    if (m_process || m_lookup)
        return;
    m_state = State::Starting;
    m_lookupStack.clear();
    lookUp(m_route.section(u',', 0, 0));
}

void SshTunnel::startSsh()
{
    m_stdout.clear();
    m_stderr.clear();
    m_process = new QProcess(this);
    m_process->setProgram(m_options.program);
    m_process->setArguments(arguments());
    m_process->setProcessEnvironment(sshEnvironment());
    // Nothing to read on stdin; the user's own ssh settings, agent and keys come from the environment.
    m_process->setStandardInputFile(QProcess::nullDevice());
#ifdef Q_OS_LINUX
    // ssh ends with us even when we are killed: no orphan keeps forwarding.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
#endif
    connect(m_process, &QProcess::readyReadStandardOutput, this, &SshTunnel::onReadyRead);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        if (m_process && m_stderr.size() < kMaxStderr)
            m_stderr += m_process->readAllStandardError().left(kMaxStderr - m_stderr.size());
        else if (m_process)
            m_process->readAllStandardError();
    });
    connect(m_process, &QProcess::finished, this, &SshTunnel::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(tr("SSH to %1: cannot run %2: %3").arg(shownRoute(), m_options.program, m_process->errorString()));
    });
    m_readyTimer.start(m_options.readyTimeoutMs);
    m_process->start();
}

void SshTunnel::onReadyRead()
{
    if (!m_process)
        return;
    m_stdout += m_process->readAllStandardOutput();
    if (m_state == State::Starting && m_stdout.contains(kReadyMarker)) {
        m_readyTimer.stop();
        m_stdout.clear();
        m_state = State::Up;
        m_lastError.clear();
        m_backoffMs = m_options.backoffInitialMs;
        emit up();
    } else if (m_stdout.size() > 4096) {
        m_stdout = m_stdout.right(64);
    }
}

void SshTunnel::onFinished()
{
    if (!m_process)
        return;
    m_stderr += m_process->readAllStandardError().left(qMax<qsizetype>(0, kMaxStderr - m_stderr.size()));
    fail(explainFailure());
}

void SshTunnel::fail(const QString& reason)
{
    m_readyTimer.stop();
    endLookup();
    endProcess();
    m_state = State::Down;
    m_lastError = reason;
    emit down(reason);
    if (m_state == State::Down) { // not stopped by a receiver
        m_restartTimer.start(m_backoffMs);
        m_backoffMs = qMin(m_backoffMs * 2, m_options.backoffMaxMs);
    }
}

QString SshTunnel::explainFailure() const
{
    const QString err = QString::fromLocal8Bit(m_stderr);
    if (err.contains(QLatin1String("REMOTE HOST IDENTIFICATION HAS CHANGED")))
        return tr("SSH to %1: refused: the host key has CHANGED since it was recorded in known_hosts (someone may be "
                  "intercepting the connection, or the host was reinstalled). Check the new key with the host's "
                  "administrator before replacing the old one (ssh-keygen -R).")
            .arg(shownRoute());
    if (err.contains(QLatin1String("Host key verification failed"))) {
        // In a chain, which hop: ssh names it ("No ED25519 host key is known for [127.0.0.1]:2222 and ...").
        static const QRegularExpression unknownHost(QStringLiteral(R"(host key is known for (\S+))"));
        const QString host = unknownHost.match(err).captured(1);
        if (!host.isEmpty())
            return tr("SSH to %1: refused: the host key of %2 is not known (not in known_hosts). Check it, then "
                      "record it by connecting once with ssh.")
                .arg(shownRoute(), NodeEndpoint::shownText(host));
        return tr("SSH to %1: refused: the host key is not known (not in known_hosts). Check it, then record it "
                  "by connecting once with ssh.")
            .arg(shownRoute());
    }
    if (err.contains(QLatin1String("Permission denied")))
        return tr("SSH to %1: login refused (no key accepted; is ssh-agent running, is the key authorised?)")
            .arg(shownRoute());
    // Otherwise ssh's own last words ("Connection refused", "Could not resolve hostname", ...).
    QString last;
    const QStringList lines = err.split(u'\n', Qt::SkipEmptyParts);
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        if (!it->trimmed().isEmpty() && !it->startsWith(QLatin1String("Warning: Permanently added"))) {
            last = it->trimmed();
            break;
        }
    }
    if (last.isEmpty())
        last = tr("ssh exited (status %1)").arg(m_process ? m_process->exitCode() : -1);
    return tr("SSH to %1: %2").arg(shownRoute(), NodeEndpoint::shownText(last));
}

QList<SshTunnel*> SshTunnel::forNodes(QList<NodeEndpoint>* nodes, const Options& options, QObject* parent,
                                      QString* error)
{
    QMap<QString, QList<qsizetype>> byRoute; // route -> node indexes, in route order
    QStringList routes;
    for (qsizetype i = 0; i < nodes->size(); ++i) {
        const QString& route = (*nodes)[i].sshRoute;
        if (route.isEmpty())
            continue;
        if ((*nodes)[i].isUnix()) {
            if (error)
                *error = tr("node %1 is a unix socket: it cannot be reached over SSH").arg((*nodes)[i].displayName());
            return {};
        }
        if (!validRoute(route, error))
            return {};
        if (!byRoute.contains(route))
            routes << route;
        byRoute[route].append(i);
    }
    QList<SshTunnel*> tunnels;
    for (const QString& route : std::as_const(routes)) {
        QList<Target> targets;
        for (const qsizetype i : byRoute[route])
            targets.append({(*nodes)[i].host, (*nodes)[i].port});
        auto* tunnel = new SshTunnel(route, targets, options, parent);
        if (!tunnel->setupError().isEmpty()) {
            if (error)
                *error = tunnel->setupError();
            qDeleteAll(tunnels);
            delete tunnel;
            return {};
        }
        for (qsizetype t = 0; t < targets.size(); ++t)
            (*nodes)[byRoute[route][t]].tunnelSocket = tunnel->localSocket(t);
        tunnels.append(tunnel);
    }
    return tunnels;
}

} // namespace redlock
