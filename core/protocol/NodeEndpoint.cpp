#include "protocol/NodeEndpoint.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QHostAddress>
#include <QUrl>
#include <QUrlQuery>

namespace redlock {

namespace {

// Node text in an error message: control characters (C0, DEL, C1), line separators and bidirectional overrides
// as \xNN per UTF-8 byte, at most `maxChars` characters, so that what a user typed (or a corrupted profile holds)
// can neither drive the terminal nor forge a line. The rule of observe's printableText, which this layer cannot
// include (cmake/CheckLayers.cmake); the CLI's stderr applies it to every message once more.
QString escaped(const QString& text, qsizetype maxChars)
{
    QString out;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool control = u < 0x20 || (u >= 0x7f && u <= 0x9f) || u == 0x061c || u == 0x200e || u == 0x200f ||
                             u == 0x2028 || u == 0x2029 || (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
        const QString piece = control ? [c] {
            QString hex;
            for (const char byte : QString(c).toUtf8())
                hex += QStringLiteral("\\x%1").arg(int(static_cast<unsigned char>(byte)), 2, 16, QLatin1Char('0'));
            return hex;
        }()
                                      : QString(c);
        if (out.size() + piece.size() > maxChars)
            return out + QStringLiteral("…");
        out += piece;
    }
    return out;
}

bool setError(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool parsePort(const QString& text, quint16* port, QString* error)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < 1 || value > 65535)
        return setError(error,
                        NodeEndpoint::tr("bad port \"%1\": expected a number from 1 to 65535").arg(escaped(text, 40)));
    *port = static_cast<quint16>(value);
    return true;
}

bool validHost(const QString& host)
{
    if (host.isEmpty() || host.size() > 253)
        return false;
    if (!QHostAddress(host).isNull())
        return true;
    for (const QChar c : host) {
        if (!(c.isLetterOrNumber() || c == u'.' || c == u'-' || c == u'_'))
            return false;
    }
    return true;
}

} // namespace

QString NodeEndpoint::displayName() const
{
    const QString dbSuffix = db != 0 ? u'/' + QString::number(db) : QString();
    if (isUnix())
        return QStringLiteral("unix:") + unixSocket + dbSuffix;
    const QString h = host.contains(u':') ? u'[' + host + u']' : host;
    return h + u':' + QString::number(port) + dbSuffix;
}

QString NodeEndpoint::identity() const
{
    if (isUnix()) {
        // One socket under several spellings: "..", "//" and "." cleaned; a socket that exists resolved to its
        // canonical path (symbolic links followed).
        const QString cleaned = QDir::cleanPath(unixSocket);
        const QString canonical = QFileInfo(cleaned).canonicalFilePath();
        return QStringLiteral("unix:") + (canonical.isEmpty() ? cleaned : canonical);
    }
    QString h = host.toLower();
    if (h == u"localhost")
        h = QStringLiteral("127.0.0.1");
    QHostAddress address(h);
    if (!address.isNull()) {
        // ::ffff:a.b.c.d is a.b.c.d; a connection to the unspecified address (0.0.0.0, ::) reaches this host.
        bool mapped = false;
        if (address == QHostAddress::AnyIPv6) {
            address = QHostAddress::LocalHostIPv6;
        } else if (const quint32 v4 = address.toIPv4Address(&mapped);
                   mapped && address.protocol() == QAbstractSocket::IPv6Protocol) {
            address = QHostAddress(v4);
        }
        if (address == QHostAddress::AnyIPv4)
            address = QHostAddress::LocalHost;
        h = address.isLoopback() && address.protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("::1")
                                                                                        : address.toString();
    }
    return h + u'|' + QString::number(port);
}

QStringList NodeEndpoint::duplicateErrors(const QList<NodeEndpoint>& nodes, const QList<int>& numbers)
{
    const auto number = [&numbers](qsizetype i) { return i < numbers.size() ? numbers[i] : int(i) + 1; };
    QStringList errors;
    QHash<QString, qsizetype> first;
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        const auto known = first.constFind(nodes[i].identity());
        if (known == first.cend()) {
            first.insert(nodes[i].identity(), i);
            continue;
        }
        errors << tr("nodes %1 and %2 are the same server (%3 and %4): its vote would count twice towards the quorum")
                      .arg(number(*known))
                      .arg(number(i))
                      .arg(nodes[*known].displayName(), nodes[i].displayName());
    }
    return errors;
}

QString NodeEndpoint::shownText(const QString& text)
{
    QString shown = text.trimmed();
    // redis://user:password@host: the password is what follows the first ':' of the user info (before the last
    // '@' of the authority). Masked even when the URL is otherwise unreadable: that is when it gets shown.
    const qsizetype scheme = shown.indexOf(QStringLiteral("://"));
    if (scheme >= 0) {
        const qsizetype authority = scheme + 3;
        qsizetype end = shown.indexOf(u'/', authority);
        if (end < 0)
            end = shown.size();
        const qsizetype at = shown.lastIndexOf(u'@', end - 1);
        if (at >= authority) {
            const qsizetype colon = shown.indexOf(u':', authority);
            if (colon >= 0 && colon < at)
                shown.replace(colon + 1, at - colon - 1, QStringLiteral("***"));
        }
    }
    return escaped(shown, 200);
}

std::optional<NodeEndpoint> NodeEndpoint::parse(const QString& rawText, QString* error)
{
    const QString text = rawText.trimmed();
    const QString shown = shownText(text);
    NodeEndpoint ep;
    if (text.isEmpty()) {
        setError(error, tr("empty node address"));
        return std::nullopt;
    }

    if (text.startsWith(u'/') || text.startsWith(QStringLiteral("unix:"))) {
        QString path = text.startsWith(u'/') ? text : text.mid(5);
        if (path.startsWith(QStringLiteral("//")))
            path = path.mid(2);
        const qsizetype q = path.indexOf(u'?');
        if (q >= 0) {
            const QUrlQuery query(path.mid(q + 1));
            bool ok = false;
            ep.db = query.queryItemValue(QStringLiteral("db")).toInt(&ok);
            if (!ok || ep.db < 0) {
                setError(error, tr("bad database index in \"%1\"").arg(shown));
                return std::nullopt;
            }
            path = path.left(q);
        }
        if (path.isEmpty() || !path.startsWith(u'/')) {
            setError(error, tr("unix socket path must be absolute: \"%1\"").arg(shown));
            return std::nullopt;
        }
        ep.unixSocket = path;
        return ep;
    }

    if (text.startsWith(QStringLiteral("redis://")) || text.startsWith(QStringLiteral("rediss://"))) {
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty()) {
            setError(error, tr("bad node URL \"%1\"").arg(shown));
            return std::nullopt;
        }
        ep.tls = url.scheme() == u"rediss";
        ep.host = url.host();
        ep.port = static_cast<quint16>(url.port(6379));
        if (url.port(6379) < 1) {
            setError(error, tr("bad port in \"%1\"").arg(shown));
            return std::nullopt;
        }
        ep.user = url.userName();
        ep.password = url.password();
        const QString path = url.path().mid(1);
        if (!path.isEmpty()) {
            bool ok = false;
            ep.db = path.toInt(&ok);
            if (!ok || ep.db < 0) {
                setError(error, tr("bad database index \"%1\" in \"%2\"").arg(escaped(path, 40), shown));
                return std::nullopt;
            }
        }
        return ep;
    }

    QString hostPart = text;
    QString portPart;
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(u']');
        if (close < 0) {
            setError(error, tr("missing ']' in \"%1\"").arg(shown));
            return std::nullopt;
        }
        hostPart = text.mid(1, close - 1);
        const QString rest = text.mid(close + 1);
        if (!rest.isEmpty()) {
            if (!rest.startsWith(u':')) {
                setError(error, tr("unexpected text after ']' in \"%1\"").arg(shown));
                return std::nullopt;
            }
            portPart = rest.mid(1);
        }
    } else if (text.count(u':') == 1) {
        hostPart = text.section(u':', 0, 0);
        portPart = text.section(u':', 1);
    } else if (text.count(u':') > 1) {
        setError(error, tr("IPv6 addresses need brackets: \"[%1]:port\"").arg(shown));
        return std::nullopt;
    }
    if (!validHost(hostPart)) {
        setError(error, tr("bad host \"%1\"").arg(escaped(hostPart, 200)));
        return std::nullopt;
    }
    ep.host = hostPart;
    if (!portPart.isNull() && !parsePort(portPart, &ep.port, error))
        return std::nullopt;
    return ep;
}

std::optional<QList<NodeEndpoint>> NodeEndpoint::parseList(const QString& text, QString* error)
{
    QList<NodeEndpoint> nodes;
    const QStringList parts = text.split(u',', Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        QString why;
        auto ep = parse(part, &why);
        if (!ep) {
            setError(error, tr("node \"%1\": %2").arg(shownText(part), why));
            return std::nullopt;
        }
        nodes.append(*ep);
    }
    if (nodes.isEmpty()) {
        setError(error, tr("no nodes given"));
        return std::nullopt;
    }
    return nodes;
}

} // namespace redlock
