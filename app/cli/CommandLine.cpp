#include "cli/CommandLine.h"

#include "protocol/SshTunnel.h"
#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <QMutex>
#include <QPointer>
#include <QSocketNotifier>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redlock::cli {

QString exitCodeHelp()
{
    return CommandLine::tr("Exit codes:\n"
                           "  0  success\n"
                           "  1  lock not acquired / not held / not released (the nodes answered)\n"
                           "  2  usage or configuration error (nothing was sent to any node)\n"
                           "  3  no quorum reachable: too many nodes timed out or refused the connection\n"
                           "  4  audit: at least one severe finding\n"
                           "  5  the result could not be written to stdout (acquire: the lock was released again)\n");
}

bool parseArguments(QCommandLineParser& parser, const QStringList& args, const QString& usage,
                    const QString& description, int* exitCode, const QString& exitCodes)
{
    parser.setApplicationDescription(description);
    // -h is redis-cli's host in the commands that talk to nodes (addNodeOptions took it); there only --help, and a
    // bare -h (nothing after it, or another option) still asks for help, as it did before -h was the host.
    // (The parser cannot be asked for its options, and adding a clashing one prints a warning: its help text tells.)
    const bool hostOption = parser.helpText().contains(QLatin1String("-h, --host"));
    const QCommandLineOption help(hostOption ? QStringList{QStringLiteral("help")}
                                             : QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  CommandLine::tr("Show this help."));
    parser.addOption(help);
    QStringList arguments = args;
    if (hostOption) {
        // Options end at "--" (run's command has its own -h).
        const qsizetype end =
            arguments.contains(QStringLiteral("--")) ? arguments.indexOf(QStringLiteral("--")) : arguments.size();
        for (qsizetype i = 1; i < end; ++i) {
            if (arguments[i] == u"-h" && (i + 1 == end || arguments[i + 1].startsWith(u'-')))
                arguments[i] = QStringLiteral("--help");
        }
    }
    if (!parser.parse(arguments)) {
        printDiagnostic(parser.errorText());
        printErr(CommandLine::tr("Try '%1 --help'.").arg(args.value(0)));
        *exitCode = ExitUsage;
        return false;
    }
    if (parser.isSet(help)) {
        // Qt's first line names the executable's path; ours names the subcommand's synopsis.
        QString text = parser.helpText();
        const qsizetype firstLineEnd = text.indexOf(u'\n');
        text.replace(0, firstLineEnd, CommandLine::tr("Usage: redlock %1").arg(usage) + u'\n');
        std::fputs(text.toUtf8().constData(), stdout);
        std::fputs("\n", stdout);
        std::fputs((exitCodes.isEmpty() ? exitCodeHelp() : exitCodes).toUtf8().constData(), stdout);
        std::fflush(stdout);
        *exitCode = ExitOk;
        return false;
    }
    // `--nodes A --nodes B` used to lock on B alone with only a warning about N=1.
    const QStringList given = parser.optionNames();
    for (const QString& name : given) {
        if (parser.values(name).size() > 1) {
            printDiagnostic(
                CommandLine::tr("--%1 is given %2 times: give it once (--nodes takes one comma-separated list)")
                    .arg(name)
                    .arg(parser.values(name).size()));
            *exitCode = ExitUsage;
            return false;
        }
    }
    return true;
}

bool intOption(const QCommandLineParser& parser, const QString& name, qint64 min, qint64 max, qint64* value)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const qint64 parsed = parser.value(name).toLongLong(&ok);
    if (!ok || parsed < min || parsed > max) {
        printDiagnostic(CommandLine::tr("--%1 expects a whole number from %2 to %3, not \"%4\"")
                            .arg(name)
                            .arg(min)
                            .arg(max)
                            .arg(parser.value(name)));
        return false;
    }
    *value = parsed;
    return true;
}

bool doubleOption(const QCommandLineParser& parser, const QString& name, double min, double max, double* value)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const double parsed = parser.value(name).toDouble(&ok);
    if (!ok || !(parsed >= min && parsed <= max)) {
        printDiagnostic(CommandLine::tr("--%1 expects a number from %2 to %3, not \"%4\"")
                            .arg(name)
                            .arg(min)
                            .arg(max)
                            .arg(parser.value(name)));
        return false;
    }
    *value = parsed;
    return true;
}

bool driftFactorOption(const QCommandLineParser& parser, double* value)
{
    const QString name = QStringLiteral("drift-factor");
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const double parsed = parser.value(name).toDouble(&ok);
    if (!ok || !rules::driftFactorValid(parsed)) {
        printDiagnostic(
            CommandLine::tr("--drift-factor: %1")
                .arg(ok ? rules::driftFactorError(parsed)
                        : CommandLine::tr("\"%1\" is not a number").arg(printableText(parser.value(name), 100))));
        return false;
    }
    *value = parsed;
    return true;
}

void addNodeOptions(QCommandLineParser& parser, bool keyOption)
{
    parser.addOption(
        {{QStringLiteral("u"), QStringLiteral("nodes")},
         CommandLine::tr("Comma-separated Redis masters: host:port, [v6]:port, redis://[user@]host:port/db, "
                         "rediss://... (TLS), unix:/path. Duplicates are refused, and so is a password in a URL "
                         "(use REDISCLI_AUTH or --password-env). -u is redis-cli's spelling."),
         CommandLine::tr("LIST")});
    // redis-cli's -h/-p, for the nodes instead of --nodes: a list on one side, one value on the other.
    parser.addOption({{QStringLiteral("h"), QStringLiteral("host")},
                      CommandLine::tr("Instead of --nodes: the nodes' host, or a comma-separated list of hosts that "
                                      "all listen on -p's port (default 127.0.0.1)."),
                      CommandLine::tr("HOST")});
    parser.addOption({{QStringLiteral("p"), QStringLiteral("port")},
                      CommandLine::tr("Instead of --nodes: the nodes' port, or a comma-separated list of ports on "
                                      "-h's host (default 6379)."),
                      CommandLine::tr("PORT")});
    parser.addOption(
        {{QStringLiteral("a"), QStringLiteral("pass")},
         CommandLine::tr("Password of every node that names none. It shows in the process list and the shell "
                         "history: prefer REDISCLI_AUTH or --password-env (a warning says so)."),
         CommandLine::tr("PASSWORD")});
    parser.addOption({QStringLiteral("no-auth-warning"), CommandLine::tr("No warning for -a (as in redis-cli).")});
    parser.addOption(
        {QStringLiteral("password-env"),
         CommandLine::tr("Read the password of every node from environment variable VAR (never pass a password "
                         "as an argument: it would show in the process list). Without -a and this option, "
                         "REDISCLI_AUTH is read when set."),
         CommandLine::tr("VAR")});
    parser.addOption(
        {QStringLiteral("user"), CommandLine::tr("ACL user for every node that names none."), CommandLine::tr("NAME")});
    parser.addOption({{QStringLiteral("n"), QStringLiteral("db")},
                      CommandLine::tr("Database number for every node that names none (default 0)."),
                      CommandLine::tr("DB")});
    // TLS as redis-cli spells it.
    parser.addOption({QStringLiteral("tls"), CommandLine::tr("Connect to every TCP node over TLS (as rediss://).")});
    parser.addOption({QStringLiteral("cacert"),
                      CommandLine::tr("CA certificate(s) (PEM) to verify the nodes with, instead of the system store "
                                      "(default: $SSL_CERT_FILE when set)."),
                      CommandLine::tr("FILE")});
    parser.addOption({QStringLiteral("cacertdir"),
                      CommandLine::tr("Directory of CA certificates (PEM) to verify the nodes with (default: "
                                      "$SSL_CERT_DIR when set)."),
                      CommandLine::tr("DIR")});
    parser.addOption({QStringLiteral("cert"),
                      CommandLine::tr("Client certificate (PEM) for nodes that require one (tls-auth-clients)."),
                      CommandLine::tr("FILE")});
    // --tls-key too, for bench, whose --key is the lock key.
    parser.addOption({keyOption ? QStringList{QStringLiteral("key"), QStringLiteral("tls-key")}
                                : QStringList{QStringLiteral("tls-key")},
                      CommandLine::tr("Private key (PEM) of --cert (default: in --cert's file)."),
                      CommandLine::tr("FILE")});
    parser.addOption({QStringLiteral("sni"),
                      CommandLine::tr("Server name to send and verify the certificate against, for every TLS node "
                                      "(default: the host as given)."),
                      CommandLine::tr("NAME")});
    parser.addOption({QStringLiteral("insecure"),
                      CommandLine::tr("Do not verify the nodes' certificates at all: encrypted, but anyone in the "
                                      "path can pose as a node. For tests only; a warning says so.")});
    parser.addOption(
        {QStringLiteral("ssh"),
         CommandLine::tr("Reach every TCP node through this SSH jump host, with the system's ssh client (your "
                         "~/.ssh/config, ssh-agent and known_hosts; host keys checked strictly): [user@]host[:port], "
                         "or a ProxyJump chain a,b. One tunnel carries every node; node addresses are as the last "
                         "host resolves them."),
         CommandLine::tr("ROUTE")});
    parser.addOption({QStringLiteral("ssh-config"),
                      CommandLine::tr("ssh configuration file to use instead of ~/.ssh/config (ssh -F)."),
                      CommandLine::tr("FILE")});
}

namespace {

// The TLS options applied to the nodes that use TLS; prints the error and returns false on a bad one.
bool applyTlsOptions(const QCommandLineParser& parser, QList<NodeEndpoint>* nodes)
{
    if (parser.isSet(QStringLiteral("tls"))) {
        for (NodeEndpoint& node : *nodes) {
            if (!node.isUnix())
                node.tls = true;
        }
    }
    const bool anyTls = std::any_of(nodes->cbegin(), nodes->cend(), [](const NodeEndpoint& n) { return n.tls; });
    static const char* const kTlsOptions[] = {"cacert", "cacertdir", "cert", "tls-key", "sni", "insecure"};
    for (const char* name : kTlsOptions) {
        // Never fall back to plain text for someone who asked for certificates.
        if (parser.isSet(QLatin1String(name)) && !anyTls) {
            printDiagnostic(
                CommandLine::tr("--%1 needs TLS: add --tls or use rediss:// node URLs").arg(QLatin1String(name)));
            return false;
        }
    }
    if (!anyTls)
        return true;
    const auto optionOrEnvironment = [&parser](const char* option, const char* variable) {
        return parser.isSet(QLatin1String(option)) ? parser.value(QLatin1String(option))
                                                   : qEnvironmentVariable(variable);
    };
    const QString caFile = optionOrEnvironment("cacert", "SSL_CERT_FILE");
    const QString caDir = optionOrEnvironment("cacertdir", "SSL_CERT_DIR");
    const QString certFile = parser.value(QStringLiteral("cert"));
    const QString keyFile = parser.value(QStringLiteral("tls-key"));
    if (!keyFile.isEmpty() && certFile.isEmpty()) {
        printDiagnostic(CommandLine::tr("--key needs --cert"));
        return false;
    }
    // Checked before anything is sent: a typo must not read as "the node refused the handshake".
    const QList<std::pair<QString, bool>> paths{{caFile, false}, {caDir, true}, {certFile, false}, {keyFile, false}};
    for (const auto& [path, directory] : paths) {
        const QFileInfo info(path);
        if (!path.isEmpty() && (directory ? !info.isDir() : !info.isFile() || !info.isReadable())) {
            printDiagnostic((directory ? CommandLine::tr("%1 is not a directory") : CommandLine::tr("cannot read %1"))
                                .arg(printableText(path, 300)));
            return false;
        }
    }
    const bool insecure = parser.isSet(QStringLiteral("insecure"));
    if (insecure) {
        printDiagnostic(CommandLine::tr("warning: --insecure: the nodes' certificates are not verified; anyone in "
                                        "the path can pose as a node and see the traffic"));
    }
    for (NodeEndpoint& node : *nodes) {
        if (!node.tls)
            continue;
        if (node.caFile.isEmpty())
            node.caFile = caFile;
        if (node.caDir.isEmpty())
            node.caDir = caDir;
        if (node.certFile.isEmpty()) {
            node.certFile = certFile;
            node.keyFile = keyFile;
        }
        if (node.serverName.isEmpty())
            node.serverName = parser.value(QStringLiteral("sni"));
        node.insecure = node.insecure || insecure;
    }
    return true;
}

// --ssh: one tunnel per route, started and up before the command sends anything (a refused host key or login
// is an error here, not a quorum of unreachable nodes later). The tunnels live as long as the process; one
// that dies later restarts by itself, its nodes unreachable meanwhile, both said on stderr.
bool applySshOptions(const QCommandLineParser& parser, QList<NodeEndpoint>* nodes)
{
    if (!parser.isSet(QStringLiteral("ssh"))) {
        if (parser.isSet(QStringLiteral("ssh-config"))) {
            printDiagnostic(CommandLine::tr("--ssh-config needs --ssh"));
            return false;
        }
        return true;
    }
    const QString route = parser.value(QStringLiteral("ssh"));
    QString error;
    if (!SshTunnel::validRoute(route, &error)) {
        printDiagnostic(CommandLine::tr("bad --ssh: %1").arg(error));
        return false;
    }
    for (NodeEndpoint& node : *nodes) {
        if (node.isUnix()) {
            printDiagnostic(CommandLine::tr("--ssh: node %1 is a unix socket: it cannot be reached over SSH")
                                .arg(node.displayName()));
            return false;
        }
        node.sshRoute = route;
    }
    SshTunnel::Options options;
    if (parser.isSet(QStringLiteral("ssh-config"))) {
        options.configFile = parser.value(QStringLiteral("ssh-config"));
        if (!QFileInfo(options.configFile).isReadable()) {
            printDiagnostic(CommandLine::tr("cannot read %1").arg(printableText(options.configFile, 300)));
            return false;
        }
    }
    const QList<SshTunnel*> tunnels = SshTunnel::forNodes(nodes, options, QCoreApplication::instance(), &error);
    if (tunnels.isEmpty()) {
        printDiagnostic(CommandLine::tr("--ssh: %1").arg(error));
        return false;
    }
    QEventLoop loop;
    qsizetype pending = tunnels.size();
    QString failure;
    for (SshTunnel* tunnel : tunnels) {
        QObject::connect(tunnel, &SshTunnel::up, &loop, [&pending, &loop] {
            if (--pending == 0)
                loop.quit();
        });
        QObject::connect(tunnel, &SshTunnel::down, &loop, [&failure, &loop](const QString& reason) {
            failure = reason;
            loop.quit();
        });
        tunnel->start();
    }
    // Bounded: every attempt ends in up() or down(), its route lookup and ssh each within their timeouts. A tunnel
    // that could not even start has said so already.
    if (failure.isEmpty() && pending > 0)
        loop.exec();
    if (!failure.isEmpty()) {
        printDiagnostic(failure);
        qDeleteAll(tunnels);
        return false;
    }
    for (SshTunnel* tunnel : tunnels) {
        QObject::connect(tunnel, &SshTunnel::down, tunnel, [](const QString& reason) {
            printDiagnostic(CommandLine::tr("%1 (its nodes are unreachable; restarting the tunnel)").arg(reason));
        });
        QObject::connect(tunnel, &SshTunnel::up, tunnel, [tunnel] {
            printDiagnostic(CommandLine::tr("SSH tunnel through %1 is up again").arg(tunnel->route()));
        });
    }
    return true;
}

} // namespace

namespace {

// The node list of -h/-p as --nodes text: one host and a list of ports, or a list of hosts and one port (both
// lists would leave open which host goes with which port). Empty with the error printed when it is refused.
std::optional<QString> nodesFromHostAndPort(const QCommandLineParser& parser)
{
    const QStringList hosts = parser.isSet(QStringLiteral("host")) ? parser.value(QStringLiteral("host")).split(u',')
                                                                   : QStringList{QStringLiteral("127.0.0.1")};
    const QStringList ports = parser.isSet(QStringLiteral("port")) ? parser.value(QStringLiteral("port")).split(u',')
                                                                   : QStringList{QStringLiteral("6379")};
    if (hosts.size() > 1 && ports.size() > 1) {
        printDiagnostic(CommandLine::tr("-h and -p are both lists: give a list of hosts with one port, one host "
                                        "with a list of ports, or host:port pairs with --nodes"));
        return std::nullopt;
    }
    QStringList nodes;
    for (const QString& host : hosts) {
        for (const QString& port : ports) {
            // A port that is not a number or a host that is a URL would otherwise parse as something else.
            bool numeric = false;
            port.toUInt(&numeric);
            if (!numeric || host.contains(u'/') || host.contains(u'@') || host.contains(u',')) {
                printDiagnostic(CommandLine::tr("bad -h/-p: \"%1\" port \"%2\"")
                                    .arg(printableText(host, 200), printableText(port, 50)));
                return std::nullopt;
            }
            const bool v6 = host.contains(u':') && !host.startsWith(u'[');
            nodes << (v6 ? QStringLiteral("[%1]:%2") : QStringLiteral("%1:%2")).arg(host, port);
        }
    }
    return nodes.join(u',');
}

} // namespace

std::optional<QList<NodeEndpoint>> nodesFromOptions(const QCommandLineParser& parser)
{
    const bool hostPort = parser.isSet(QStringLiteral("host")) || parser.isSet(QStringLiteral("port"));
    if (parser.isSet(QStringLiteral("nodes")) && hostPort) {
        printDiagnostic(CommandLine::tr("name the nodes either with --nodes (-u) or with -h/-p, not both"));
        return std::nullopt;
    }
    if (!parser.isSet(QStringLiteral("nodes")) && !hostPort) {
        printDiagnostic(
            CommandLine::tr("--nodes is required (e.g. --nodes 127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003)"));
        return std::nullopt;
    }
    QString text;
    if (hostPort) {
        const auto built = nodesFromHostAndPort(parser);
        if (!built)
            return std::nullopt;
        text = *built;
    } else {
        text = parser.value(QStringLiteral("nodes"));
    }
    QString error;
    auto nodes = NodeEndpoint::parseList(text, &error);
    if (!nodes) {
        printDiagnostic((hostPort ? CommandLine::tr("bad -h/-p: %1") : CommandLine::tr("bad --nodes: %1")).arg(error));
        return std::nullopt;
    }
    if (nodes->size() > rules::kMaxNodes) {
        printDiagnostic(CommandLine::tr("bad --nodes: %1").arg(rules::tooManyNodesError(nodes->size())));
        return std::nullopt;
    }
    // A password in a URL shows in the process list and the shell's history, and lands in CI logs with the
    // command line: --password-env is the way that shows none. Refused, the password named by nothing but "***".
    for (qsizetype i = 0; i < nodes->size(); ++i) {
        if (!nodes->at(i).password.isEmpty()) {
            printDiagnostic(CommandLine::tr("bad --nodes: node %1 (%2) has a password in its URL, where the process "
                                            "list and the shell history show it: put it in REDISCLI_AUTH, or in an "
                                            "environment variable named with --password-env VAR")
                                .arg(i + 1)
                                .arg(nodes->at(i).displayName()));
            return std::nullopt;
        }
    }
    if (const QStringList duplicates = NodeEndpoint::duplicateErrors(*nodes); !duplicates.isEmpty()) {
        printDiagnostic(CommandLine::tr("bad --nodes: %1").arg(duplicates.join(QStringLiteral("; "))));
        return std::nullopt;
    }
    // The password: -a, else --password-env's variable, else REDISCLI_AUTH (as redis-cli reads it).
    QString password;
    if (parser.isSet(QStringLiteral("pass")) && parser.isSet(QStringLiteral("password-env"))) {
        printDiagnostic(CommandLine::tr("-a and --password-env both name a password: give one"));
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("pass"))) {
        password = parser.value(QStringLiteral("pass"));
        // redis-cli's warning, word for word, and its way out.
        if (!parser.isSet(QStringLiteral("no-auth-warning"))) {
            printErr(CommandLine::tr("Warning: Using a password with '-a' or '-u' option on the command line "
                                     "interface may not be safe. Set REDISCLI_AUTH or use --password-env instead."));
        }
    } else if (parser.isSet(QStringLiteral("password-env"))) {
        const QString variable = parser.value(QStringLiteral("password-env"));
        if (!qEnvironmentVariableIsSet(variable.toLocal8Bit().constData())) {
            printDiagnostic(CommandLine::tr("environment variable %1 (from --password-env) is not set").arg(variable));
            return std::nullopt;
        }
        password = qEnvironmentVariable(variable.toLocal8Bit().constData());
    } else {
        password = qEnvironmentVariable("REDISCLI_AUTH");
    }
    if (!password.isEmpty()) {
        for (NodeEndpoint& node : *nodes) {
            if (node.password.isEmpty())
                node.password = password;
        }
    }
    if (parser.isSet(QStringLiteral("db"))) {
        qint64 db = 0;
        if (!intOption(parser, QStringLiteral("db"), 0, std::numeric_limits<int>::max(), &db))
            return std::nullopt;
        // A node whose URL names a database (other than 0) keeps it.
        for (NodeEndpoint& node : *nodes) {
            if (node.db == 0)
                node.db = static_cast<int>(db);
        }
    }
    if (parser.isSet(QStringLiteral("user"))) {
        for (NodeEndpoint& node : *nodes) {
            if (node.user.isEmpty())
                node.user = parser.value(QStringLiteral("user"));
        }
    }
    if (!applyTlsOptions(parser, &*nodes) || !applySshOptions(parser, &*nodes))
        return std::nullopt;
    return nodes;
}

namespace {

// The last guard of stderr: a message that carries a node's or a user's text (a Redis error, a key, a bad
// address) can no more drive the terminal (ESC, OSC, BEL, CR) or forge a line than printableText's output can.
// Only what printableText escapes and the backslash it keeps, so that text it already escaped ("\x1b") is shown
// once, not escaped again; line breaks and tabs in a message are the message's own.
QString withoutControlCharacters(const QString& text)
{
    const auto escaped = [](char32_t c) {
        return (c < 0x20 && c != U'\n' && c != U'\t') || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e ||
               c == 0x200f || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
               (c >= 0x2066 && c <= 0x2069);
    };
    if (std::none_of(text.cbegin(), text.cend(), [&](QChar c) { return escaped(c.unicode()); }))
        return text;
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar c : text) {
        if (!escaped(c.unicode())) {
            out += c;
            continue;
        }
        for (const char byte : QString(c).toUtf8())
            out += QStringLiteral("\\x%1").arg(int(static_cast<unsigned char>(byte)), 2, 16, QLatin1Char('0'));
    }
    return out;
}

// The errno of the first failed write to stdout; 0 while it works. Once set, nothing more is written.
std::atomic<int> g_outputErrno{0};
std::atomic<bool> g_outputExcused{false};
std::atomic<bool> g_outputWritten{false};
QMutex g_errorLinesMutex;
QStringList g_errorLines;
// The loop quitWhenOutputFails() quits: set and cleared on the loop's thread, read by any writer.
QMutex g_quitMutex;
QPointer<QEventLoop> g_quitLoop;

void noteOutputFailure(int error)
{
    int expected = 0;
    if (!g_outputErrno.compare_exchange_strong(expected, error == 0 ? EIO : error))
        return;
    const QMutexLocker lock(&g_quitMutex);
    if (g_quitLoop)
        QMetaObject::invokeMethod(g_quitLoop.data(), &QEventLoop::quit, Qt::QueuedConnection);
}

} // namespace

void holdClosedStandardDescriptors()
{
    for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null < 0)
            continue;
        if (null != fd) {
            ::dup2(null, fd); // dup2 clears FD_CLOEXEC on fd
            ::close(null);
        } else {
            ::fcntl(fd, F_SETFD, 0);
        }
        if (fd == STDOUT_FILENO)
            noteOutputFailure(EBADF);
    }
}

bool writeOut(QByteArrayView bytes)
{
    if (g_outputErrno.load() != 0)
        return false;
    g_outputWritten = true;
    errno = 0;
    const size_t size = static_cast<size_t>(bytes.size());
    if ((size > 0 && std::fwrite(bytes.data(), 1, size, stdout) != size) || std::fflush(stdout) != 0 ||
        std::ferror(stdout) != 0) {
        noteOutputFailure(errno);
        return false;
    }
    return true;
}

bool printOut(const QString& line)
{
    return writeOut(QByteArray(line.toUtf8() + '\n'));
}

void printErr(const QString& text)
{
    const QString line = withoutControlCharacters(text);
    {
        const QMutexLocker lock(&g_errorLinesMutex);
        if (g_errorLines.size() < 50)
            g_errorLines.append(line);
    }
    std::fputs(line.toUtf8().constData(), stderr);
    std::fputc('\n', stderr);
    std::fflush(stderr);
}

void printDiagnostic(const QString& message)
{
    printErr(kDiagnosticPrefix + message);
}

int fail(ExitCode code, const QString& message)
{
    printDiagnostic(message);
    return code;
}

bool printJson(const QJsonObject& object)
{
    return writeOut(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

bool printJsonLine(const QJsonObject& object)
{
    return writeOut(QByteArray(QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n'));
}

bool outputFailed()
{
    if (g_outputErrno.load() != 0)
        return true;
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
        noteOutputFailure(errno);
        return true;
    }
    return false;
}

bool outputCannotReachAnyone()
{
    if (outputFailed())
        return true;
    struct stat info = {};
    if (::fstat(STDOUT_FILENO, &info) != 0) {
        noteOutputFailure(errno);
        return true;
    }
    if (!S_ISFIFO(info.st_mode))
        return false;
    // A pipe's write end polls POLLERR once its last reader has closed it.
    pollfd out{STDOUT_FILENO, 0, 0};
    if (::poll(&out, 1, 0) == 1 && (out.revents & POLLERR) != 0) {
        noteOutputFailure(EPIPE);
        return true;
    }
    return false;
}

QString outputError()
{
    const int error = g_outputErrno.load();
    return error == 0 ? QString() : QString::fromLocal8Bit(std::strerror(error));
}

bool outputWritten()
{
    return g_outputWritten.load();
}

QStringList errorLines()
{
    const QMutexLocker lock(&g_errorLinesMutex);
    return g_errorLines;
}

int outputErrno()
{
    return g_outputErrno.load();
}

void excuseOutputFailure()
{
    g_outputExcused = true;
}

bool outputFailureExcused()
{
    return g_outputExcused.load();
}

std::unique_ptr<QObject> quitWhenOutputFails(QEventLoop* loop)
{
    auto guard = std::make_unique<QObject>();
    {
        const QMutexLocker lock(&g_quitMutex);
        g_quitLoop = loop;
    }
    QObject::connect(guard.get(), &QObject::destroyed, [] {
        const QMutexLocker lock(&g_quitMutex);
        g_quitLoop = nullptr;
    });
    if (g_outputErrno.load() != 0) {
        QMetaObject::invokeMethod(loop, &QEventLoop::quit, Qt::QueuedConnection);
        return guard;
    }
    // A pipe's write end polls POLLERR once its last reader has closed it (and never POLLIN), so a read
    // notifier on it fires exactly then. A terminal, a file or a socket has no such signal (and may poll
    // readable for other reasons): there the next write tells.
    struct stat info = {};
    if (::fstat(STDOUT_FILENO, &info) != 0 || !S_ISFIFO(info.st_mode))
        return guard;
    auto* notifier = new QSocketNotifier(STDOUT_FILENO, QSocketNotifier::Read, guard.get());
    QObject::connect(notifier, &QSocketNotifier::activated, notifier, [notifier] {
        pollfd out{STDOUT_FILENO, 0, 0};
        const bool readerGone = ::poll(&out, 1, 0) == 1 && (out.revents & POLLERR) != 0;
        // Either way it has nothing more to say: a notifier that fired for another reason would fire again.
        notifier->setEnabled(false);
        if (readerGone)
            noteOutputFailure(EPIPE);
    });
    return guard;
}

QString elide(const QString& text, qsizetype width)
{
    if (text.size() <= width)
        return text;
    if (width <= 0)
        return {};
    qsizetype keep = width - 1;
    if (keep > 0 && text.at(keep - 1).isHighSurrogate())
        --keep;
    return text.left(keep) + QStringLiteral("…");
}

TextTable::TextTable(QList<int> caps, QString indent) : m_caps(std::move(caps)), m_indent(std::move(indent)) {}

void TextTable::measure(const QStringList& row)
{
    for (qsizetype i = 0; i < row.size(); ++i) {
        if (m_widths.size() <= i)
            m_widths.append(0);
        const int cap = m_caps.value(i, -1);
        const qsizetype width = cap < 0 ? row[i].size() : std::min<qsizetype>(row[i].size(), cap);
        m_widths[i] = std::max(m_widths[i], width);
    }
}

QString TextTable::line(const QStringList& row) const
{
    QString line = m_indent;
    for (qsizetype i = 0; i < row.size(); ++i) {
        const int cap = m_caps.value(i, -1);
        const QString cell = cap < 0 ? row[i] : elide(row[i], cap);
        if (i + 1 < row.size())
            line += cell.leftJustified(m_widths.value(i) + 2);
        else
            line += cell;
    }
    while (line.endsWith(u' '))
        line.chop(1);
    return line;
}

QString formatTable(const QList<QStringList>& rows, const QString& indent)
{
    TextTable table({}, indent);
    for (const QStringList& row : rows)
        table.measure(row);
    QString text;
    for (const QStringList& row : rows)
        text += table.line(row) + u'\n';
    return text;
}

QString outcomeKindKey(NodeOutcome::Kind kind)
{
    switch (kind) {
    case NodeOutcome::Kind::NotAttempted:
        return QStringLiteral("not-attempted");
    case NodeOutcome::Kind::NoAnswerYet:
        return QStringLiteral("no-answer-yet");
    case NodeOutcome::Kind::Acquired:
        return QStringLiteral("acquired");
    case NodeOutcome::Kind::HeldByOther:
        return QStringLiteral("held-by-other");
    case NodeOutcome::Kind::Released:
        return QStringLiteral("released");
    case NodeOutcome::Kind::Extended:
        return QStringLiteral("extended");
    case NodeOutcome::Kind::NotHeld:
        return QStringLiteral("not-held");
    case NodeOutcome::Kind::Timeout:
        return QStringLiteral("timeout");
    case NodeOutcome::Kind::ConnectionError:
        return QStringLiteral("connection-error");
    case NodeOutcome::Kind::RedisError:
        return QStringLiteral("redis-error");
    }
    return QStringLiteral("unknown");
}

namespace {

QString nodeName(int index, const QList<NodeEndpoint>& nodes)
{
    return index >= 0 && index < nodes.size() ? nodes[index].displayName() : QString::number(index);
}

} // namespace

QJsonObject outcomeToJson(const NodeOutcome& o, const QList<NodeEndpoint>& nodes)
{
    QJsonObject json{{QStringLiteral("node"), nodeName(o.node, nodes)},
                     {QStringLiteral("index"), o.node},
                     {QStringLiteral("outcome"), outcomeKindKey(o.kind)},
                     {QStringLiteral("outcomeText"), outcomeKindName(o.kind)},
                     {QStringLiteral("latencyUs"), o.latencyUs}};
    if (!o.holderToken.isEmpty())
        json.insert(QStringLiteral("holderToken"), printableBytes(o.holderToken, -1));
    if (o.kind == NodeOutcome::Kind::HeldByOther && o.holderPttlMs != -3)
        json.insert(QStringLiteral("holderPttlMs"), o.holderPttlMs);
    if (o.errorKind != RedisErrorKind::None)
        json.insert(QStringLiteral("errorKind"), errorKindName(o.errorKind));
    if (!o.error.isEmpty())
        json.insert(QStringLiteral("error"), printableText(o.error, -1));
    if (o.fenceValue >= 0)
        json.insert(QStringLiteral("fenceValue"), o.fenceValue);
    return json;
}

QStringList outcomeTableHeader()
{
    return {CommandLine::tr("node"),    CommandLine::tr("outcome"),    CommandLine::tr("holder token"),
            CommandLine::tr("PTTL ms"), CommandLine::tr("latency µs"), CommandLine::tr("error")};
}

QList<QStringList> outcomeTableRows(const QList<NodeOutcome>& outcomes, const QList<NodeEndpoint>& nodes)
{
    QList<QStringList> rows;
    for (const NodeOutcome& o : outcomes) {
        rows.append({nodeName(o.node, nodes), outcomeKindName(o.kind), printableBytes(o.holderToken),
                     o.kind == NodeOutcome::Kind::HeldByOther && o.holderPttlMs != -3 ? QString::number(o.holderPttlMs)
                                                                                      : QString(),
                     o.latencyUs >= 0 ? QString::number(o.latencyUs) : QString(), printableText(o.error)});
    }
    return rows;
}

bool quorumUnreachable(const QList<NodeOutcome>& outcomes, int quorum)
{
    const auto unreachable = std::count_if(outcomes.begin(), outcomes.end(), [](const NodeOutcome& o) {
        return o.kind == NodeOutcome::Kind::Timeout || o.kind == NodeOutcome::Kind::ConnectionError;
    });
    return outcomes.size() - unreachable < quorum;
}

} // namespace redlock::cli
