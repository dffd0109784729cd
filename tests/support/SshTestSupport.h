#pragma once

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTextStream>

#include <memory>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

// Real OpenSSH servers on loopback for the SSH tunnel tests: throwaway host keys, a throwaway user key, and an ssh
// config (used with ssh -F) whose known_hosts and identity live in the same temporary directory, so that the
// user's own ~/.ssh is never read or written.
class SshLab
{
public:
    SshLab()
    {
        m_userKey = m_dir.filePath(QStringLiteral("user_key"));
        keygen(m_userKey);
        QFile::copy(m_userKey + QStringLiteral(".pub"), m_dir.filePath(QStringLiteral("authorized_keys")));
    }
    ~SshLab()
    {
        for (auto& server : m_servers) {
            server.process->kill();
            server.process->waitForFinished(5000);
        }
    }
    SshLab(const SshLab&) = delete;
    SshLab& operator=(const SshLab&) = delete;

    static QString sshdPath() { return QStringLiteral("/usr/sbin/sshd"); }

    // Starts an sshd as `alias` (its own host key); returns false with *error on failure.
    bool addServer(const QString& alias, QString* error)
    {
        if (::geteuid() == 0)
            QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege separation directory, when root
        const QString hostKey = m_dir.filePath(alias + QStringLiteral("_host_key"));
        keygen(hostKey);
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        const quint16 port = probe.serverPort();
        probe.close();
        const QString config = m_dir.filePath(alias + QStringLiteral("_sshd_config"));
        writeFile(config,
                  QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nAuthorizedKeysFile %3\n"
                                 "PermitRootLogin prohibit-password\nStrictModes no\nPasswordAuthentication no\n"
                                 "KbdInteractiveAuthentication no\nUsePAM no\nPidFile none\n"
                                 "AllowTcpForwarding yes\nLogLevel VERBOSE\n")
                      .arg(port)
                      .arg(hostKey, m_dir.filePath(QStringLiteral("authorized_keys"))));
        Server server{alias, port, hostKey, std::make_unique<QProcess>(), {}};
        server.process->setProgram(sshdPath());
        server.process->setArguments({QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), config});
        server.process->setProcessChannelMode(QProcess::MergedChannels);
        server.process->start();
        // Ready once it says so (sshd -e logs "Server listening on ..." to stderr).
        QElapsedTimer started;
        started.start();
        while (!server.log.contains("Server listening")) {
            if (server.process->state() == QProcess::NotRunning || started.elapsed() > 15000 ||
                !server.process->waitForReadyRead(int(15000 - started.elapsed()))) {
                *error = QStringLiteral("sshd did not start: ") + QString::fromLocal8Bit(server.log);
                return false;
            }
            server.log += server.process->readAll();
        }
        m_servers.push_back(std::move(server));
        trustHost(alias);
        return true;
    }

    quint16 port(const QString& alias) const { return find(alias)->port; }
    // What sshd logged so far (its "Accepted publickey" lines show who came through it).
    QString log(const QString& alias)
    {
        Server* server = find(alias);
        while (server->process->waitForReadyRead(0)) // what is in the pipe, also when no event loop ran
            ;
        server->log += server->process->readAll();
        return QString::fromLocal8Bit(server->log);
    }
    // Records the host key of `alias` in known_hosts (replacing what was there for its port).
    void trustHost(const QString& alias)
    {
        m_known[alias] = hostLine(alias, find(alias)->hostKey + QStringLiteral(".pub"));
    }
    // known_hosts names a different key for `alias`, as after a reinstall or in an attack.
    void recordWrongKey(const QString& alias)
    {
        const QString other = m_dir.filePath(alias + QStringLiteral("_other_key"));
        if (!QFile::exists(other))
            keygen(other);
        m_known[alias] = hostLine(alias, other + QStringLiteral(".pub"));
    }
    void forgetHost(const QString& alias) { m_known.remove(alias); }
    // An extra line in the config's Host block of `alias`, e.g. "ProxyJump outer" (the user's own jump host).
    void addHostOption(const QString& alias, const QString& line)
    {
        m_hostOptions[alias] += QStringLiteral("  ") + line + u'\n';
    }
    // The config's StrictHostKeyChecking ("yes" unless set), e.g. the lenient "accept-new" many users have.
    void setStrictHostKeyChecking(const QString& value) { m_strict = value; }
    // A Match block at the end of the config that changes nothing but runs command (through the shell) each time
    // ssh reads the config, ssh -G included: a slow config, as with a user's own Match exec (see SshConfigGate).
    void addMatchExec(const QString& command) { m_trailer += QStringLiteral("Match exec \"%1\"\n").arg(command); }

    // The ssh config for -F (written under `name` in the lab's directory): each alias, with the user key and the
    // lab's known_hosts, strictly checked unless setStrictHostKeyChecking() said otherwise.
    QString configFile(const QString& name = QStringLiteral("ssh_config"))
    {
        QString known;
        for (auto it = m_known.cbegin(); it != m_known.cend(); ++it)
            known += it.value() + u'\n';
        writeFile(knownHostsPath(), known);
        QString text;
        for (const auto& server : m_servers)
            text += QStringLiteral("Host %1\n  HostName 127.0.0.1\n  Port %2\n  User %3\n%4\n")
                        .arg(server.alias)
                        .arg(server.port)
                        .arg(qEnvironmentVariable("USER", QStringLiteral("root")), m_hostOptions.value(server.alias));
        text += QStringLiteral("Host *\n  IdentityFile %1\n  IdentitiesOnly yes\n  IdentityAgent none\n"
                               "  UserKnownHostsFile %2\n  GlobalKnownHostsFile /dev/null\n  BatchMode yes\n"
                               "  StrictHostKeyChecking %3\n  UpdateHostKeys no\n")
                    .arg(m_userKey, knownHostsPath(), m_strict);
        text += m_trailer;
        const QString path = m_dir.filePath(name);
        writeFile(path, text);
        return path;
    }

private:
    struct Server
    {
        QString alias;
        quint16 port = 0;
        QString hostKey;
        std::unique_ptr<QProcess> process;
        QByteArray log;
    };

    const Server* find(const QString& alias) const
    {
        for (const auto& s : m_servers)
            if (s.alias == alias)
                return &s;
        return nullptr;
    }
    Server* find(const QString& alias)
    {
        for (auto& s : m_servers)
            if (s.alias == alias)
                return &s;
        return nullptr;
    }
    QString hostLine(const QString& alias, const QString& publicKey) const
    {
        QFile f(publicKey);
        f.open(QIODevice::ReadOnly);
        const QList<QByteArray> parts = f.readAll().trimmed().split(' ');
        return QStringLiteral("[127.0.0.1]:%1 %2 %3")
            .arg(find(alias)->port)
            .arg(QString::fromLatin1(parts.value(0)), QString::fromLatin1(parts.value(1)));
    }
    QString knownHostsPath() const { return m_dir.filePath(QStringLiteral("known_hosts")); }
    static void writeFile(const QString& path, const QString& text)
    {
        QFile f(path);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(text.toUtf8());
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }
    static void keygen(const QString& path)
    {
        QProcess::execute(QStringLiteral("ssh-keygen"),
                          {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                           QString(), QStringLiteral("-f"), path});
    }

    QTemporaryDir m_dir;
    QString m_userKey;
    std::vector<Server> m_servers;
    QMap<QString, QString> m_known;
    QMap<QString, QString> m_hostOptions;
    QString m_strict = QStringLiteral("yes");
    QString m_trailer;
};

// A lock (flock) the test holds while a config's `Match exec` waits for it (SshLab::addMatchExec(command())):
// every read of that config, ssh -G's included, takes until the test calls open(), with no sleep or timing.
class SshConfigGate
{
public:
    SshConfigGate()
    {
        const QByteArray path = QFile::encodeName(m_dir.filePath(QStringLiteral("gate")));
        m_fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (m_fd >= 0 && ::flock(m_fd, LOCK_EX) != 0)
            open();
    }
    ~SshConfigGate() { open(); }
    SshConfigGate(const SshConfigGate&) = delete;
    SshConfigGate& operator=(const SshConfigGate&) = delete;

    bool isValid() const { return m_fd >= 0; }
    // The shell command that returns once the gate is open (flock(1) waits for our lock).
    QString command() const { return QStringLiteral("flock %1 true").arg(path()); }
    QString path() const { return m_dir.filePath(QStringLiteral("gate")); }
    void open()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

private:
    QTemporaryDir m_dir;
    int m_fd = -1;
};

// Every process's pid and /proc directory, for the lookups below.
template <typename Visit> void forEachProcess(Visit visit)
{
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        const QString dir = it.next();
        bool isPid = false;
        const qint64 pid = QFileInfo(dir).fileName().toLongLong(&isPid);
        if (isPid)
            visit(pid, dir);
    }
}

inline QList<QByteArray> processArguments(const QString& procDir)
{
    QFile cmdline(procDir + QStringLiteral("/cmdline"));
    return cmdline.open(QIODevice::ReadOnly) ? cmdline.readAll().split('\0') : QList<QByteArray>();
}

// Processes (anyone's) with `argument` among their arguments: what a killed lookup's Match exec left running.
inline QList<qint64> processesWithArgument(const QByteArray& argument)
{
    QList<qint64> out;
    forEachProcess([&](qint64 pid, const QString& dir) {
        if (processArguments(dir).contains(argument))
            out << pid;
    });
    return out;
}

// The ssh clients this test process started (tunnels', route lookups'): children of ours named "ssh", only those
// whose arguments include `argument` when it is given (e.g. "-G").
inline QList<qint64> ourSshChildren(const QByteArray& argument = {})
{
    QList<qint64> out;
    forEachProcess([&](qint64 pid, const QString& dir) {
        QFile stat(dir + QStringLiteral("/stat"));
        if (!stat.open(QIODevice::ReadOnly))
            return;
        const QByteArray line = stat.readAll();
        const qsizetype close = line.lastIndexOf(')');
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (line.mid(line.indexOf('(') + 1, close - line.indexOf('(') - 1) != "ssh" ||
            fields.value(1).toLongLong() != ::getpid())
            return;
        if (!argument.isEmpty() && !processArguments(dir).contains(argument))
            return;
        out << pid;
    });
    return out;
}
