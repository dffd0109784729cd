#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QSet>
#include <QSslConfiguration>
#include <QString>

#include <optional>
#include <variant>

namespace redlock {

// The exporter's TLS and basic auth, in the format of Prometheus's exporters (exporter-toolkit's
// `--web.config.file`), so one file serves node_exporter, redis_exporter and this one:
//
//   tls_server_config:
//     cert_file: server.crt          # PEM; more certificates after the first are its chain
//     key_file: server.key           # PEM, RSA or EC, not encrypted
//     client_ca_file: clients-ca.crt # with client_auth_type: RequireAndVerifyClientCert
//     client_auth_type: NoClientCert # or RequireAndVerifyClientCert
//     min_version: TLS12             # or TLS13
//   basic_auth_users:
//     prometheus: $2y$10$...         # bcrypt (htpasswd -nBC 10 prometheus)
//
// Only this subset of YAML is read: block maps of at most two levels, plain, 'single' or "double" quoted scalars,
// comments. Anything else, and any key not listed above (http_server_config, cipher_suites, ...), is refused with
// its line, so a setting is never silently ignored. Relative paths are relative to the file's folder, as
// exporter-toolkit reads them. Errors never quote a password hash.
struct WebConfig
{
    Q_DECLARE_TR_FUNCTIONS(redlock::WebConfig)

public:
    enum class ClientAuth { None, RequireAndVerify };
    enum class MinVersion { Tls12, Tls13 };

    bool tls = false; // a tls_server_config was given: serve HTTPS only
    QString certFile;
    QString keyFile;
    QString clientCaFile;
    ClientAuth clientAuth = ClientAuth::None;
    MinVersion minVersion = MinVersion::Tls12;
    QMap<QString, QByteArray> basicAuthUsers; // user -> bcrypt hash ($2a$, $2b$, $2y$)

    // `baseDir`: where relative paths start from. nullopt with *error (translated) when the text is refused.
    static std::optional<WebConfig> parse(const QByteArray& yaml, const QString& baseDir, QString* error);
    static std::optional<WebConfig> load(const QString& path, QString* error);

    // The server side of TLS from the files (read now): nullopt with *error when one cannot be read or used.
    std::optional<QSslConfiguration> sslConfiguration(QString* error) const;
};

// HTTP basic auth against bcrypt hashes (libxcrypt's crypt_r). bcrypt is slow by design (tens of ms per check at
// cost 10), so it must not run where requests are served, and a success is remembered, as exporter-toolkit does,
// under a keyed hash (HMAC-SHA256, a random key per process) of user and password: a scraper that comes back every
// few seconds costs one bcrypt, not one per scrape. A wrong password or an unknown user always costs a full bcrypt
// (an unknown user's against a dummy hash of the same cost), so the answer's time does not tell which users exist.
//
// begin() is cheap and decides what needs no bcrypt (a remembered success, a malformed header); the Check it
// returns otherwise runs anywhere (MetricsHttpServer runs it on a worker thread), and remember() takes its
// success back on the authenticator's thread.
class BasicAuthenticator
{
public:
    struct Check
    {
        QByteArray digest; // the keyed hash of user and password, to remember() when run() says yes
        QByteArray password;
        QByteArray hash; // the user's, or the dummy one for an unknown user
        bool isUser = false;
        bool run() const { return bcryptMatches(password, hash) && isUser; } // slow; any thread
    };

    explicit BasicAuthenticator(QMap<QString, QByteArray> users);

    bool isEnabled() const { return !m_users.isEmpty(); }
    // The value of an Authorization header ("Basic base64(user:password)"): a bool when decided without bcrypt,
    // else the check to run.
    std::variant<bool, Check> begin(QByteArrayView authorization) const;
    void remember(const QByteArray& digest);
    // begin(), run() and remember() at once, on this thread: for callers that may wait for a bcrypt.
    bool check(QByteArrayView authorization);

    // bcrypt(password) == hash, compared in constant time. False for anything that is not a bcrypt hash.
    static bool bcryptMatches(const QByteArray& password, const QByteArray& hash);
    static bool isBcryptHash(const QByteArray& hash);

private:
    QMap<QString, QByteArray> m_users;
    QByteArray m_key;       // of the HMAC that names remembered successes
    QByteArray m_dummyHash; // a bcrypt setting of the first user's cost with a random salt: unknown users
    QSet<QByteArray> m_accepted;
};

} // namespace redlock
