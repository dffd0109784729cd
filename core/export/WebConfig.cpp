#include "export/WebConfig.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QSslCertificate>
#include <QSslKey>

#include <QSslSocket>

#include <crypt.h>

#include <cctype>
#include <cstring>

#include <memory>

namespace redlock {

namespace {

// One "key: value" line of the YAML subset, and the lines indented under it.
struct Entry
{
    int line = 0;
    QString key;
    QString value;
    bool hasValue = false;
    QList<Entry> children;
};

// A scalar as YAML writes it: plain (up to a comment), 'single' ('' is a quote) or "double" quoted (\" \\).
// nullopt when a quote is not closed or text follows it.
std::optional<QString> scalar(QStringView text)
{
    text = text.trimmed();
    if (text.isEmpty())
        return QString();
    const QChar quote = text.front();
    if (quote == u'\'' || quote == u'"') {
        QString out;
        qsizetype i = 1;
        for (; i < text.size(); ++i) {
            const QChar c = text[i];
            if (quote == u'\'' && c == u'\'') {
                if (i + 1 < text.size() && text[i + 1] == u'\'') {
                    out += c;
                    ++i;
                    continue;
                }
                break;
            }
            if (quote == u'"' && c == u'\\' && i + 1 < text.size()) {
                out += text[++i];
                continue;
            }
            if (quote == u'"' && c == u'"')
                break;
            out += c;
        }
        if (i >= text.size())
            return std::nullopt;
        const QStringView rest = text.mid(i + 1).trimmed();
        if (!rest.isEmpty() && !rest.startsWith(u'#'))
            return std::nullopt;
        return out;
    }
    // A comment starts at a '#' that opens the value or follows white space ("key: # note" has no value); a '#'
    // inside a word ("a#b") is part of it.
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'#' && (i == 0 || text[i - 1] == u' ' || text[i - 1] == u'\t'))
            return text.left(i).trimmed().toString();
    }
    return text.toString();
}

std::optional<QList<Entry>> parseEntries(const QByteArray& yaml, QString* error)
{
    auto fail = [error](int line, const QString& why) {
        *error = WebConfig::tr("line %1: %2").arg(line).arg(why);
        return std::nullopt;
    };
    QList<Entry> top;
    int childIndent = -1;
    const QStringList lines = QString::fromUtf8(yaml).split(u'\n');
    for (int n = 0; n < lines.size(); ++n) {
        const int lineNo = n + 1;
        QString line = lines[n];
        if (line.endsWith(u'\r'))
            line.chop(1);
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith(u'#') || (n == 0 && trimmed == u"---"))
            continue;
        qsizetype indent = 0;
        while (indent < line.size() && line[indent] == u' ')
            ++indent;
        if (line[indent] == u'\t')
            return fail(lineNo, WebConfig::tr("a tab in the indentation (YAML indents with spaces)"));
        if (trimmed.startsWith(u'-') || trimmed.startsWith(u'[') || trimmed.startsWith(u'{'))
            return fail(lineNo, WebConfig::tr("lists and flow collections are not supported here"));
        const qsizetype colon = trimmed.indexOf(QLatin1String(": "));
        const bool endsWithColon = trimmed.endsWith(u':');
        if (colon < 0 && !endsWithColon)
            return fail(lineNo, WebConfig::tr("expected \"key: value\""));
        Entry entry;
        entry.line = lineNo;
        const auto key = scalar(colon < 0 ? QStringView(trimmed).chopped(1) : QStringView(trimmed).left(colon));
        if (!key || key->isEmpty())
            return fail(lineNo, WebConfig::tr("expected \"key: value\""));
        entry.key = *key;
        if (colon >= 0) {
            const QStringView raw = QStringView(trimmed).mid(colon + 2).trimmed();
            if (raw.startsWith(u'[') || raw.startsWith(u'{') || raw.startsWith(u'|') || raw.startsWith(u'>') ||
                raw.startsWith(u'&') || raw.startsWith(u'*') || raw.startsWith(u'!'))
                return fail(lineNo, WebConfig::tr("only plain or quoted values are supported here"));
            const auto value = scalar(raw);
            if (!value)
                return fail(lineNo, WebConfig::tr("a quoted value is not closed, or text follows it"));
            entry.value = *value;
            entry.hasValue = !raw.isEmpty() && !raw.startsWith(u'#');
        }
        QList<Entry>* into = &top;
        if (indent > 0) {
            if (top.isEmpty() || top.constLast().hasValue)
                return fail(lineNo, WebConfig::tr("indented, but not under a section"));
            if (childIndent < 0)
                childIndent = static_cast<int>(indent);
            if (indent != childIndent)
                return fail(lineNo, WebConfig::tr("indentation of %1 spaces, but %2 above (only two levels are "
                                                  "supported)")
                                        .arg(indent)
                                        .arg(childIndent));
            into = &top.last().children;
        }
        for (const Entry& sibling : *into) {
            if (sibling.key == entry.key)
                return fail(lineNo, WebConfig::tr("\"%1\" appears twice").arg(entry.key));
        }
        into->append(entry);
    }
    return top;
}

} // namespace

std::optional<WebConfig> WebConfig::parse(const QByteArray& yaml, const QString& baseDir, QString* error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    auto fail = [error](int line, const QString& why) {
        *error = tr("line %1: %2").arg(line).arg(why);
        return std::nullopt;
    };
    const auto entries = parseEntries(yaml, error);
    if (!entries)
        return std::nullopt;
    auto path = [&baseDir](const QString& p) { return QDir::isAbsolutePath(p) ? p : QDir(baseDir).filePath(p); };
    WebConfig out;
    for (const Entry& section : *entries) {
        if (section.key == u"tls_server_config") {
            if (section.hasValue)
                return fail(section.line, tr("tls_server_config must be a section of keys"));
            out.tls = true;
            QString clientAuthType;
            for (const Entry& e : section.children) {
                if (e.key == u"cert_file")
                    out.certFile = path(e.value);
                else if (e.key == u"key_file")
                    out.keyFile = path(e.value);
                else if (e.key == u"client_ca_file")
                    out.clientCaFile = path(e.value);
                else if (e.key == u"client_auth_type")
                    clientAuthType = e.value;
                else if (e.key == u"min_version") {
                    if (e.value == u"TLS12")
                        out.minVersion = MinVersion::Tls12;
                    else if (e.value == u"TLS13")
                        out.minVersion = MinVersion::Tls13;
                    else
                        return fail(e.line, tr("min_version: \"%1\" is not supported (TLS12 or TLS13)").arg(e.value));
                } else {
                    return fail(e.line, tr("unknown key tls_server_config.%1 (known: cert_file, key_file, "
                                           "client_ca_file, client_auth_type, min_version)")
                                            .arg(e.key));
                }
                if (e.value.isEmpty())
                    return fail(e.line, tr("tls_server_config.%1 has no value").arg(e.key));
            }
            if (out.certFile.isEmpty() || out.keyFile.isEmpty())
                return fail(section.line, tr("tls_server_config needs both cert_file and key_file"));
            if (clientAuthType.isEmpty() || clientAuthType == u"NoClientCert") {
                out.clientAuth = ClientAuth::None;
            } else if (clientAuthType == u"RequireAndVerifyClientCert") {
                out.clientAuth = ClientAuth::RequireAndVerify;
                if (out.clientCaFile.isEmpty())
                    return fail(section.line, tr("client_auth_type RequireAndVerifyClientCert needs client_ca_file"));
            } else {
                return fail(section.line, tr("client_auth_type \"%1\" is not supported (NoClientCert or "
                                             "RequireAndVerifyClientCert)")
                                              .arg(clientAuthType));
            }
        } else if (section.key == u"basic_auth_users") {
            if (section.hasValue)
                return fail(section.line, tr("basic_auth_users must be a section of user: bcrypt-hash lines"));
            for (const Entry& e : section.children) {
                // The hash is never quoted back: it is a secret of a kind (it can be attacked offline).
                if (!BasicAuthenticator::isBcryptHash(e.value.toLatin1()))
                    return fail(e.line, tr("the password of user \"%1\" is not a bcrypt hash ($2y$, $2b$ or $2a$, "
                                           "60 characters; htpasswd -nBC 10 USER makes one)")
                                            .arg(e.key));
                if (e.key.contains(u':'))
                    return fail(e.line, tr("a user name cannot contain \":\" in basic auth"));
                out.basicAuthUsers.insert(e.key, e.value.toLatin1());
            }
        } else {
            return fail(section.line,
                        tr("unknown key \"%1\" (known: tls_server_config, basic_auth_users)").arg(section.key));
        }
    }
    return out;
}

std::optional<WebConfig> WebConfig::load(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    // A web config is a few lines: a larger file is not one.
    const QByteArray text = file.read(1024 * 1024);
    auto config = parse(text, QFileInfo(path).absolutePath(), error);
    if (!config && error)
        *error = tr("%1: %2").arg(path, *error);
    return config;
}

std::optional<QSslConfiguration> WebConfig::sslConfiguration(QString* error) const
{
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (!QSslSocket::supportsSsl())
        return fail(tr("this build of Qt has no TLS backend"));
    auto readFile = [](const QString& path, QByteArray* out, QString* why) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            *why = tr("%1: %2").arg(path, f.errorString());
            return false;
        }
        *out = f.readAll();
        return true;
    };
    QString why;
    QByteArray certPem;
    if (!readFile(certFile, &certPem, &why))
        return fail(why);
    const QList<QSslCertificate> chain = QSslCertificate::fromData(certPem, QSsl::Pem);
    if (chain.isEmpty())
        return fail(tr("%1: no PEM certificate in it").arg(certFile));
    QByteArray keyPem;
    if (!readFile(keyFile, &keyPem, &why))
        return fail(why);
    QSslKey key(keyPem, QSsl::Rsa, QSsl::Pem);
    if (key.isNull())
        key = QSslKey(keyPem, QSsl::Ec, QSsl::Pem);
    if (key.isNull())
        return fail(tr("%1: not an unencrypted PEM RSA or EC private key").arg(keyFile));
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setLocalCertificateChain(chain);
    ssl.setPrivateKey(key);
    ssl.setProtocol(minVersion == MinVersion::Tls13 ? QSsl::TlsV1_3OrLater : QSsl::TlsV1_2OrLater);
    if (clientAuth == ClientAuth::RequireAndVerify) {
        QByteArray caPem;
        if (!readFile(clientCaFile, &caPem, &why))
            return fail(why);
        const QList<QSslCertificate> cas = QSslCertificate::fromData(caPem, QSsl::Pem);
        if (cas.isEmpty())
            return fail(tr("%1: no PEM certificate in it").arg(clientCaFile));
        ssl.setCaCertificates(cas);
        ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    } else {
        ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
    }
    return ssl;
}

BasicAuthenticator::BasicAuthenticator(QMap<QString, QByteArray> users) : m_users(std::move(users))
{
    m_key.resize(32);
    QRandomGenerator::system()->generate(m_key.begin(), m_key.end());
    if (m_users.isEmpty())
        return;
    // The dummy costs what a user's check costs: a bcrypt setting of the first user's cost with a random salt,
    // padded to a hash's length with a checksum no password gives.
    const QByteArray& first = m_users.cbegin().value();
    const unsigned long cost = isBcryptHash(first) ? first.mid(4, 2).toULong() : 10;
    QByteArray random(16, Qt::Uninitialized);
    QRandomGenerator::system()->generate(random.begin(), random.end());
    char setting[CRYPT_GENSALT_OUTPUT_SIZE] = {};
    if (crypt_gensalt_rn("$2b$", cost, random.constData(), static_cast<int>(random.size()), setting, sizeof setting) &&
        std::strlen(setting) == 29)
        m_dummyHash = QByteArray(setting) + QByteArray(31, '.');
    else
        m_dummyHash = first; // the same cost all the same; its answer is ignored
}

std::variant<bool, BasicAuthenticator::Check> BasicAuthenticator::begin(QByteArrayView authorization) const
{
    authorization = authorization.trimmed();
    if (m_users.isEmpty() || (!authorization.startsWith("Basic ") && !authorization.startsWith("basic ")))
        return false;
    const auto result = QByteArray::fromBase64Encoding(authorization.sliced(6).trimmed().toByteArray(),
                                                       QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return false;
    const QByteArray& decoded = *result;
    const qsizetype colon = decoded.indexOf(':');
    if (colon < 0)
        return false;
    Check check;
    check.password = decoded.mid(colon + 1);
    check.digest = QMessageAuthenticationCode::hash(decoded.left(colon) + '\0' + check.password, m_key,
                                                    QCryptographicHash::Sha256);
    if (m_accepted.contains(check.digest))
        return true;
    const auto known = m_users.constFind(QString::fromUtf8(decoded.left(colon)));
    check.isUser = known != m_users.cend();
    check.hash = check.isUser ? *known : m_dummyHash;
    return check;
}

void BasicAuthenticator::remember(const QByteArray& digest)
{
    if (m_accepted.size() >= 64) // a bound, not a policy: a handful of scrapers use it
        m_accepted.clear();
    m_accepted.insert(digest);
}

bool BasicAuthenticator::check(QByteArrayView authorization)
{
    const auto step = begin(authorization);
    if (const bool* decided = std::get_if<bool>(&step))
        return *decided;
    const Check& check = std::get<Check>(step);
    const bool ok = check.run();
    if (ok)
        remember(check.digest);
    return ok;
}

bool BasicAuthenticator::isBcryptHash(const QByteArray& hash)
{
    if (hash.size() != 60 || !(hash.startsWith("$2y$") || hash.startsWith("$2b$") || hash.startsWith("$2a$")))
        return false;
    for (const char c : hash.mid(7)) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '/' || c == '$'))
            return false;
    }
    return hash[6] == '$' && std::isdigit(static_cast<unsigned char>(hash[4])) &&
           std::isdigit(static_cast<unsigned char>(hash[5]));
}

bool BasicAuthenticator::bcryptMatches(const QByteArray& password, const QByteArray& hash)
{
    if (!isBcryptHash(hash) || password.contains('\0'))
        return false;
    // struct crypt_data is about 32 kB: on the heap, not on the event loop's stack.
    auto data = std::make_unique<crypt_data>();
    const char* out = crypt_r(password.constData(), hash.constData(), data.get());
    if (!out || out[0] == '*')
        return false;
    const QByteArrayView computed(out);
    if (computed.size() != hash.size())
        return false;
    // Every byte compared, whatever the first difference: the time does not tell how much of the hash matched.
    unsigned char diff = 0;
    for (qsizetype i = 0; i < hash.size(); ++i)
        diff |= static_cast<unsigned char>(computed[i] ^ hash[i]);
    return diff == 0;
}

} // namespace redlock
