#pragma once

#include <QCoreApplication>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace redlock {

/// Where one Redis master lives and how to talk to it. Text forms accepted by parse():
/// \verbatim
///   host:port   [v6addr]:port   host (port 6379)
///   redis://[user[:password]@]host[:port][/db]   rediss://... (TLS)
///   unix:/path/to/socket[?db=N]   /path/to/socket
/// \endverbatim
/// A plain value, safe to copy between threads.
struct NodeEndpoint
{
    Q_DECLARE_TR_FUNCTIONS(redlock::NodeEndpoint)

public:
    QString host;        ///< name or IP address (TCP)
    quint16 port = 6379; ///< TCP port
    QString unixSocket;  ///< non-empty: connect over a unix domain socket instead of TCP
    QString user;        ///< ACL user; empty = "default"
    QString password;    ///< AUTH password; empty = no AUTH. Never shown: displayName() leaves it out
    int db = 0;          ///< SELECTed after connecting

    bool tls = false;      ///< TLS (rediss://): the server's certificate is verified unless insecure
    QString caFile;        ///< PEM bundle to verify the server; empty = system store (unless caDir is set)
    QString caDir;         ///< directory of PEM CA certificates, used with caFile; both empty = system store
    QString certFile;      ///< client certificate (PEM), for servers with tls-auth-clients
    QString keyFile;       ///< client key (PEM)
    QString serverName;    ///< name to verify and send as SNI; empty = host
    bool insecure = false; ///< no verification of the server's certificate at all (only ever set explicitly)

    /// SSH jump host(s) the node is reached through: "[user@]host[:port]", or a ProxyJump chain "a,b" (the last
    /// one forwards); aliases of ~/.ssh/config welcome. host:port is then as the last bastion resolves it.
    /// Empty = direct. The application starts the tunnels (SshTunnel, not a public header) and sets tunnelSocket.
    QString sshRoute;
    /// Set at run time by SshTunnel: non-empty = connect to this unix socket (the tunnel's local end, in a
    /// directory only this user can enter) instead of host:port. TLS still runs end to end and verifies host
    /// (or serverName): the certificate is the node's, not the tunnel's.
    QString tunnelSocket;

    /// True when the node is reached over a unix domain socket.
    bool isUnix() const { return !unixSocket.isEmpty(); }
    /// "host:port" or "unix:/path", then "/db" when the database is not 0, without credentials: safe to show
    /// and log.
    QString displayName() const;
    /// The server this endpoint reaches, normalised: host name case, "localhost" and the spellings of one IP
    /// address are one server, and the database is left out (two databases of one server are one server, one
    /// vote). The one rule for "the same node": duplicate checks, matching nodes across reloads.
    QString identity() const;
    /// One error per entry that names a server listed earlier (by identity()): it would count that server's
    /// vote twice. The check of the Redlock client, force release, the console and the CLI. Entries are
    /// named by their 1-based position, or by numbers[i] when given (e.g. rows of a list with bad entries).
    static QStringList duplicateErrors(const QList<NodeEndpoint>& nodes, const QList<int>& numbers = {});

    /// Node text as error messages show it: the password of a URL replaced by "***", control characters
    /// escaped (as printableText does), bounded. Every message naming what the user typed shows it this way.
    static QString shownText(const QString& text);

    /// One node in any of the text forms above; nullopt and a translated reason in *error when it is not one.
    static std::optional<NodeEndpoint> parse(const QString& text, QString* error = nullptr);
    /// Comma-separated list; stops at the first bad entry and names it in *error. (The CLI and the console refuse
    /// more than rules::kMaxNodes entries.)
    static std::optional<QList<NodeEndpoint>> parseList(const QString& text, QString* error = nullptr);

    /// Every field equal (for the same server whatever the spelling, compare identity()).
    friend bool operator==(const NodeEndpoint&, const NodeEndpoint&) = default;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::NodeEndpoint)
