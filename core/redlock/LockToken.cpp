#include "redlock/LockToken.h"

#include <QCoreApplication>
#include <QList>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QUrl>

namespace redlock {

namespace {

constexpr qsizetype kMaxIdentityBytes = 64;

QByteArray encodePart(const QString& text, const QByteArray& keep = {})
{
    return QUrl::toPercentEncoding(text.left(kMaxIdentityBytes), keep);
}

QString decodePart(QByteArrayView part)
{
    return part.contains('%') ? QString::fromUtf8(QByteArray::fromPercentEncoding(part.toByteArray()))
                              : QString::fromUtf8(part);
}

constexpr QByteArrayView kTombstonePrefix = "rl1-released:";

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
    // rl1:<random>:<pid>:<host>:<client>, cut at the colons in place (the console decodes every lock it sees).
    const QByteArrayView v(value);
    qsizetype cut[4];
    qsizetype from = 0;
    for (qsizetype& c : cut) {
        c = v.indexOf(':', from);
        if (c < 0)
            return std::nullopt;
        from = c + 1;
    }
    if (v.indexOf(':', from) >= 0)
        return std::nullopt;
    auto field = [&](int i) {
        const qsizetype begin = cut[i] + 1;
        return v.sliced(begin, (i < 3 ? cut[i + 1] : v.size()) - begin);
    };
    const QByteArrayView random = field(0);
    if (random.size() != 32)
        return std::nullopt;
    for (const char c : random) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return std::nullopt;
    }
    bool ok = false;
    LockToken token;
    token.pid = field(1).toLongLong(&ok);
    if (!ok || token.pid < 0)
        return std::nullopt;
    token.random = random.toByteArray();
    token.host = decodePart(field(2));
    token.client = decodePart(field(3));
    return token;
}

QByteArray LockTombstone::encode() const
{
    return kTombstonePrefix.toByteArray() + encodePart(releasedBy, "@") + ':' + QByteArray::number(releasedAtMs);
}

std::optional<LockTombstone> LockTombstone::decode(const QByteArray& value)
{
    if (!value.startsWith(kTombstonePrefix) || value.size() > 512)
        return std::nullopt;
    const QByteArrayView rest = QByteArrayView(value).sliced(kTombstonePrefix.size());
    const qsizetype colon = rest.indexOf(':');
    if (colon < 0 || rest.indexOf(':', colon + 1) >= 0)
        return std::nullopt;
    const QByteArrayView time = rest.sliced(colon + 1);
    if (time.isEmpty())
        return std::nullopt;
    for (const char c : time) {
        if (c < '0' || c > '9')
            return std::nullopt;
    }
    bool ok = false;
    LockTombstone tombstone;
    tombstone.releasedAtMs = time.toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    tombstone.releasedBy = decodePart(rest.first(colon));
    return tombstone;
}

} // namespace redlock
