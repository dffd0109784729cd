#include "ObservationTypes.h"

#include <QRegularExpression>

namespace redlock {

namespace {

QString tr(const char* text, int n = -1)
{
    return QCoreApplication::translate("redlock::Observation", text, nullptr, n);
}

bool isHex(const QByteArray& s)
{
    for (const char c : s) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    }
    return !s.isEmpty();
}

bool isUuid(const QByteArray& s)
{
    // 8-4-4-4-12 hex digits: uuid4 (pottery, redlock-rb) and .NET GUIDs in "D" format (RedLock.net).
    if (s.size() != 36)
        return false;
    for (int i = 0; i < 36; ++i) {
        const char c = s[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-')
                return false;
        } else if (!isHex(QByteArray(1, c))) {
            return false;
        }
    }
    return true;
}

bool isBase64Of16Bytes(const QByteArray& s)
{
    // Redsync: base64.StdEncoding of 16 random bytes = 22 characters + "==".
    if (s.size() != 24 || !s.endsWith("=="))
        return false;
    for (int i = 0; i < 22; ++i) {
        const char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'))
            return false;
    }
    return true;
}

} // namespace

QString nodeHealthName(NodeHealth health)
{
    switch (health) {
    case NodeHealth::Connecting:
        return tr("connecting");
    case NodeHealth::Up:
        return tr("up");
    case NodeHealth::AuthFailed:
        return tr("authentication failed");
    case NodeHealth::NoPermission:
        return tr("no permission");
    case NodeHealth::Down:
        return tr("down");
    }
    return {};
}

QString lockVerdictName(LockVerdict verdict)
{
    switch (verdict) {
    case LockVerdict::Held:
        return tr("held");
    case LockVerdict::Expiring:
        return tr("expiring");
    case LockVerdict::Contested:
        return tr("contested");
    case LockVerdict::MinorityLeftover:
        return tr("minority leftover");
    case LockVerdict::Free:
        return tr("free");
    case LockVerdict::Unknown:
        return tr("unknown");
    }
    return {};
}

QString lockVerdictId(LockVerdict verdict)
{
    switch (verdict) {
    case LockVerdict::Held:
        return QStringLiteral("held");
    case LockVerdict::Expiring:
        return QStringLiteral("expiring");
    case LockVerdict::Contested:
        return QStringLiteral("contested");
    case LockVerdict::MinorityLeftover:
        return QStringLiteral("minority-leftover");
    case LockVerdict::Free:
        return QStringLiteral("free");
    case LockVerdict::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

QString holderFormatName(HolderFormat format)
{
    switch (format) {
    case HolderFormat::Opaque:
        return tr("unrecognised");
    case HolderFormat::RedlockConsole:
        return tr("Redlock Console core");
    case HolderFormat::NodeRedlock:
        return tr("node-redlock (hex)");
    case HolderFormat::Redsync:
        return tr("Redsync (base64)");
    case HolderFormat::PrefixedUuid:
        return tr("pottery / RedLock.net (uuid)");
    case HolderFormat::Uuid:
        return tr("redlock-rb (uuid)");
    case HolderFormat::Redisson:
        return tr("Redisson RLock");
    }
    return {};
}

QString holderFormatId(HolderFormat format)
{
    switch (format) {
    case HolderFormat::Opaque:
        return QStringLiteral("opaque");
    case HolderFormat::RedlockConsole:
        return QStringLiteral("redlock-console");
    case HolderFormat::NodeRedlock:
        return QStringLiteral("node-redlock");
    case HolderFormat::Redsync:
        return QStringLiteral("redsync");
    case HolderFormat::PrefixedUuid:
        return QStringLiteral("pottery-or-redlock-net");
    case HolderFormat::Uuid:
        return QStringLiteral("redlock-rb");
    case HolderFormat::Redisson:
        return QStringLiteral("redisson");
    }
    return {};
}

QString lockEventKindName(LockEvent::Kind kind)
{
    switch (kind) {
    case LockEvent::Kind::Acquired:
        return tr("acquired");
    case LockEvent::Kind::Released:
        return tr("released");
    case LockEvent::Kind::Expired:
        return tr("expired");
    case LockEvent::Kind::TokenChanged:
        return tr("token changed");
    case LockEvent::Kind::Contested:
        return tr("contested");
    }
    return {};
}

QString lockEventKindId(LockEvent::Kind kind)
{
    switch (kind) {
    case LockEvent::Kind::Acquired:
        return QStringLiteral("acquired");
    case LockEvent::Kind::Released:
        return QStringLiteral("released");
    case LockEvent::Kind::Expired:
        return QStringLiteral("expired");
    case LockEvent::Kind::TokenChanged:
        return QStringLiteral("token-changed");
    case LockEvent::Kind::Contested:
        return QStringLiteral("contested");
    }
    return {};
}

QString severityName(AuditFinding::Severity severity)
{
    switch (severity) {
    case AuditFinding::Severity::Info:
        return tr("info");
    case AuditFinding::Severity::Warning:
        return tr("warning");
    case AuditFinding::Severity::Severe:
        return tr("severe");
    }
    return {};
}

QString severityId(AuditFinding::Severity severity)
{
    switch (severity) {
    case AuditFinding::Severity::Info:
        return QStringLiteral("info");
    case AuditFinding::Severity::Warning:
        return QStringLiteral("warning");
    case AuditFinding::Severity::Severe:
        return QStringLiteral("severe");
    }
    return {};
}

QString printableBytes(const QByteArray& bytes, int maxChars)
{
    const QByteArray head = bytes.left(maxChars * 4);
    const QString text = QString::fromUtf8(head);
    bool clean = text.toUtf8() == head;
    for (const QChar c : text) {
        if (c.category() == QChar::Other_Control || c == QChar::ReplacementCharacter) {
            clean = false;
            break;
        }
    }
    QString out;
    if (clean) {
        out = text;
    } else {
        for (const char c : head) {
            const auto u = static_cast<unsigned char>(c);
            if (u >= 0x20 && u < 0x7f && u != '\\')
                out += QLatin1Char(c);
            else
                out += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
        }
    }
    if (out.size() > maxChars || head.size() < bytes.size())
        out = out.left(maxChars) + QStringLiteral("…");
    return out;
}

HolderInfo decodeHolder(const QByteArray& key, const QByteArray& value)
{
    HolderInfo info;
    if (auto token = LockToken::decode(value)) {
        info.format = HolderFormat::RedlockConsole;
        info.summary = token->client.isEmpty()
                           ? tr("%1 pid %2").arg(token->host).arg(token->pid)
                           : tr("%1 pid %2 (%3)").arg(token->host).arg(token->pid).arg(token->client);
        info.token = std::move(token);
        return info;
    }
    if (isUuid(value))
        info.format = key.startsWith("redlock:") ? HolderFormat::PrefixedUuid : HolderFormat::Uuid;
    else if (value.size() == 32 && isHex(value))
        info.format = HolderFormat::NodeRedlock;
    else if (isBase64Of16Bytes(value))
        info.format = HolderFormat::Redsync;
    info.summary = printableBytes(value, 80);
    return info;
}

HolderInfo decodeRedissonHolder(const QList<std::pair<QByteArray, QByteArray>>& fields)
{
    HolderInfo info;
    QStringList holders;
    for (const auto& [field, count] : fields) {
        // "<connection manager uuid>:<thread id>" -> reentrancy count. RReadWriteLock adds a "mode" field.
        const qsizetype colon = field.lastIndexOf(':');
        bool threadOk = false;
        const qint64 thread = colon > 0 ? field.mid(colon + 1).toLongLong(&threadOk) : -1;
        bool countOk = false;
        const qint64 reentrancy = count.toLongLong(&countOk);
        if (!threadOk || !countOk)
            continue;
        if (info.format != HolderFormat::Redisson) {
            info.format = HolderFormat::Redisson;
            info.redissonClientId = QString::fromUtf8(field.left(colon));
            info.redissonThreadId = thread;
            info.reentrancy = reentrancy;
        }
        holders << tr("%1 thread %2 ×%3").arg(printableBytes(field.left(colon), 40)).arg(thread).arg(reentrancy);
    }
    info.summary = info.format == HolderFormat::Redisson ? tr("Redisson %1").arg(holders.join(QStringLiteral(", ")))
                                                         : tr("hash with %n field(s)", int(fields.size()));
    return info;
}

bool LockView::sameStateAs(const LockView& other) const
{
    if (key != other.key || verdict != other.verdict || token != other.token || holders != other.holders ||
        tokenCount != other.tokenCount || restsOn != other.restsOn || nodes.size() != other.nodes.size())
        return false;
    // A PTTL that ticked down by the time that passed between the two reads is no change; an extension is.
    const qint64 elapsedMs = (other.observedAtNs - observedAtNs) / 1'000'000;
    constexpr qint64 toleranceMs = 100;
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        const NodeLockState& a = nodes[i];
        const NodeLockState& b = other.nodes[i];
        if (a.presence != b.presence || a.token != b.token || a.hashFields != b.hashFields)
            return false;
        if (a.pttlMs >= 0 && b.pttlMs >= 0) {
            if (qAbs(b.pttlMs - (a.pttlMs - elapsedMs)) > toleranceMs)
                return false;
        } else if (a.pttlMs != b.pttlMs) {
            return false;
        }
    }
    return true;
}

} // namespace redlock
