#include "LockToken.h"

#include <QCoreApplication>
#include <QList>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QUrl>

namespace redlock {

namespace {

constexpr qsizetype kMaxIdentityBytes = 64;

QByteArray encodePart(const QString& text)
{
    return QUrl::toPercentEncoding(text.left(kMaxIdentityBytes));
}

} // namespace

QByteArray LockToken::newRandom()
{
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char*>(words), sizeof(words)).toHex();
}

LockToken LockToken::generate(const QString& clientName)
{
    LockToken token;
    token.random = newRandom();
    token.pid = QCoreApplication::applicationPid();
    token.host = QSysInfo::machineHostName();
    token.client = clientName;
    return token;
}

QByteArray LockToken::encode() const
{
    return "rl1:" + random + identitySuffix();
}

QByteArray LockToken::identitySuffix() const
{
    return ':' + QByteArray::number(pid) + ':' + encodePart(host) + ':' + encodePart(client);
}

std::optional<LockToken> LockToken::decode(const QByteArray& value)
{
    if (!value.startsWith("rl1:") || value.size() > 512)
        return std::nullopt;
    const QList<QByteArray> parts = value.split(':');
    if (parts.size() != 5 || parts[1].size() != 32)
        return std::nullopt;
    for (const char c : parts[1]) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return std::nullopt;
    }
    bool ok = false;
    LockToken token;
    token.pid = parts[2].toLongLong(&ok);
    if (!ok || token.pid < 0)
        return std::nullopt;
    token.random = parts[1];
    token.host = QString::fromUtf8(QByteArray::fromPercentEncoding(parts[3]));
    token.client = QString::fromUtf8(QByteArray::fromPercentEncoding(parts[4]));
    return token;
}

} // namespace redlock
