#include "observe/ObservationTypes.h"

#include "redlock/RedlockRules.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <atomic>
#include <limits>
#include <thread>

namespace redlock {

namespace {

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

bool nodeCountsAsUp(const NodeFacts& facts, const QList<int>& quarantined)
{
    return facts.health == NodeHealth::Up && !quarantined.contains(facts.node);
}

int distinctServersUp(const QList<NodeFacts>& facts, const QList<int>& quarantined)
{
    QList<QByteArray> runIds;
    QList<int> up;
    runIds.reserve(facts.size());
    for (const NodeFacts& f : facts) {
        if (nodeCountsAsUp(f, quarantined))
            up.append(int(runIds.size()));
        runIds.append(f.runId);
    }
    return rules::distinctServers(runIds, up);
}

QString nodeHealthName(NodeHealth health)
{
    switch (health) {
    case NodeHealth::Connecting:
        return QCoreApplication::translate("redlock::NodeHealth", "connecting");
    case NodeHealth::Up:
        return QCoreApplication::translate("redlock::NodeHealth", "up");
    case NodeHealth::AuthFailed:
        return QCoreApplication::translate("redlock::NodeHealth", "authentication failed");
    case NodeHealth::NoPermission:
        return QCoreApplication::translate("redlock::NodeHealth", "no permission");
    case NodeHealth::Down:
        return QCoreApplication::translate("redlock::NodeHealth", "down");
    case NodeHealth::NotAnswering:
        return QCoreApplication::translate("redlock::NodeHealth", "not answering");
    }
    return {};
}

QString lockVerdictName(LockVerdict verdict)
{
    switch (verdict) {
    case LockVerdict::Held:
        return QCoreApplication::translate("redlock::LockVerdict", "held");
    case LockVerdict::Expiring:
        return QCoreApplication::translate("redlock::LockVerdict", "expiring");
    case LockVerdict::Contested:
        return QCoreApplication::translate("redlock::LockVerdict", "contested");
    case LockVerdict::MinorityLeftover:
        return QCoreApplication::translate("redlock::LockVerdict", "minority leftover");
    case LockVerdict::Free:
        return QCoreApplication::translate("redlock::LockVerdict", "free");
    case LockVerdict::Unknown:
        return QCoreApplication::translate("redlock::LockVerdict", "unknown");
    case LockVerdict::Stuck:
        return QCoreApplication::translate("redlock::LockVerdict", "stuck (no expiry)");
    case LockVerdict::ReleasedByOperator:
        return QCoreApplication::translate("redlock::LockVerdict", "released by operator");
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
    case LockVerdict::Stuck:
        return QStringLiteral("stuck");
    case LockVerdict::ReleasedByOperator:
        return QStringLiteral("released-by-operator");
    }
    return {};
}

QString holderFormatName(HolderFormat format)
{
    switch (format) {
    case HolderFormat::Opaque:
        return QCoreApplication::translate("redlock::HolderFormat", "unrecognised");
    case HolderFormat::RedlockConsole:
        return QCoreApplication::translate("redlock::HolderFormat", "Redlock Console core");
    case HolderFormat::NodeRedlock:
        return QCoreApplication::translate("redlock::HolderFormat", "node-redlock (hex)");
    case HolderFormat::Redsync:
        return QCoreApplication::translate("redlock::HolderFormat", "Redsync (base64)");
    case HolderFormat::PrefixedUuid:
        return QCoreApplication::translate("redlock::HolderFormat", "pottery / RedLock.net (uuid)");
    case HolderFormat::Uuid:
        return QCoreApplication::translate("redlock::HolderFormat", "redlock-rb (uuid)");
    case HolderFormat::Redisson:
        return QCoreApplication::translate("redlock::HolderFormat", "Redisson RLock");
    case HolderFormat::Tombstone:
        return QCoreApplication::translate("redlock::HolderFormat", "lock-delay tombstone");
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
    case HolderFormat::Tombstone:
        return QStringLiteral("tombstone");
    }
    return {};
}

QString lockEventKindName(LockEvent::Kind kind)
{
    switch (kind) {
    case LockEvent::Kind::Acquired:
        return QCoreApplication::translate("redlock::LockEvent", "acquired");
    case LockEvent::Kind::Released:
        return QCoreApplication::translate("redlock::LockEvent", "released");
    case LockEvent::Kind::Expired:
        return QCoreApplication::translate("redlock::LockEvent", "expired");
    case LockEvent::Kind::TokenChanged:
        return QCoreApplication::translate("redlock::LockEvent", "token changed");
    case LockEvent::Kind::Contested:
        return QCoreApplication::translate("redlock::LockEvent", "contested");
    case LockEvent::Kind::Lost:
        return QCoreApplication::translate("redlock::LockEvent", "lost on node restart");
    case LockEvent::Kind::Extended:
        return QCoreApplication::translate("redlock::LockEvent", "extended");
    case LockEvent::Kind::SeenHeld:
        return QCoreApplication::translate("redlock::LockEvent", "seen held");
    case LockEvent::Kind::ReleasedOrExpired:
        return QCoreApplication::translate("redlock::LockEvent", "released or expired");
    case LockEvent::Kind::Evicted:
        return QCoreApplication::translate("redlock::LockEvent", "evicted");
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
    case LockEvent::Kind::Lost:
        return QStringLiteral("lost-on-restart");
    case LockEvent::Kind::Extended:
        return QStringLiteral("extended");
    case LockEvent::Kind::SeenHeld:
        return QStringLiteral("seen-held");
    case LockEvent::Kind::ReleasedOrExpired:
        return QStringLiteral("released-or-expired");
    case LockEvent::Kind::Evicted:
        return QStringLiteral("evicted");
    }
    return {};
}

QString severityName(AuditFinding::Severity severity)
{
    switch (severity) {
    case AuditFinding::Severity::Info:
        return QCoreApplication::translate("redlock::Severity", "info");
    case AuditFinding::Severity::Warning:
        return QCoreApplication::translate("redlock::Severity", "warning");
    case AuditFinding::Severity::Severe:
        return QCoreApplication::translate("redlock::Severity", "severe");
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

namespace {

// Code points that must not reach a terminal or a table cell as they are: C0 and C1 controls and DEL (ESC
// sequences, BEL, CR, LF; a UTF-8 terminal takes U+009B as CSI), line and paragraph separators (they
// break a row), and the bidirectional formatting characters that reorder what is shown ("Trojan Source").
// The backslash is escaped too, so that "\x1b" in the output always means the byte, never the text.
bool mustEscape(char32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == u'\\' || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
           cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

// Length of the valid UTF-8 sequence at data[i] and its code point; 0 when the bytes there are not one
// (stray continuation byte, overlong form, surrogate, beyond U+10FFFF, truncated).
int utf8Sequence(const unsigned char* data, qsizetype size, qsizetype i, char32_t* cp)
{
    const unsigned char lead = data[i];
    int length = 0;
    char32_t value = 0;
    char32_t minimum = 0;
    if (lead < 0x80) {
        *cp = lead;
        return 1;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2, value = lead & 0x1f, minimum = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3, value = lead & 0x0f, minimum = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4, value = lead & 0x07, minimum = 0x10000;
    } else {
        return 0;
    }
    if (i + length > size)
        return 0;
    for (int k = 1; k < length; ++k) {
        const unsigned char c = data[i + k];
        if ((c & 0xc0) != 0x80)
            return 0;
        value = (value << 6) | (c & 0x3f);
    }
    if (value < minimum || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
        return 0;
    *cp = value;
    return length;
}

} // namespace

QString printableBytes(const QByteArray& bytes, int maxChars)
{
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.constData());
    const qsizetype size = bytes.size();
    const qsizetype limit = maxChars < 0 ? std::numeric_limits<qsizetype>::max() : maxChars;
    QString out;
    out.reserve(std::min<qsizetype>(size, limit) + 1);
    static constexpr char hex[] = "0123456789abcdef";
    // Work and output stay within maxChars whatever the input size: a 1 MB key costs what its shown head costs.
    qsizetype i = 0;
    while (i < size) {
        char32_t cp = 0;
        const int length = utf8Sequence(data, size, i, &cp);
        const qsizetype needed = length == 0 || mustEscape(cp) ? 4 * std::max(length, 1) : (cp > 0xffff ? 2 : 1);
        if (out.size() + needed > limit)
            break;
        if (length > 0 && !mustEscape(cp)) {
            if (cp > 0xffff) {
                out += QChar(QChar::highSurrogate(cp));
                out += QChar(QChar::lowSurrogate(cp));
            } else {
                out += QChar(static_cast<char16_t>(cp));
            }
        } else {
            for (int k = 0; k < std::max(length, 1); ++k) {
                const unsigned char b = data[i + k];
                out += QLatin1String("\\x");
                out += QLatin1Char(hex[b >> 4]);
                out += QLatin1Char(hex[b & 0xf]);
            }
        }
        i += std::max(length, 1);
    }
    if (i < size)
        out += QStringLiteral("…");
    return out;
}

QString printableText(const QString& text, int maxChars)
{
    return printableBytes(text.toUtf8(), maxChars);
}

namespace {

// The locks of one client carry the same host, client name and so summary: one copy of each among the holders
// decoded recently on this thread, not one per lock (100,000 locks of a few clients kept 10 MB of copies).
QString interned(const QString& text)
{
    thread_local QSet<QString> recent;
    if (const auto it = recent.constFind(text); it != recent.cend())
        return *it;
    if (recent.size() >= 4096) // many distinct holders: a bound, not a cache of everything ever seen
        recent.clear();
    recent.insert(text);
    return text;
}

} // namespace

HolderInfo decodeHolder(const QByteArray& key, const QByteArray& value)
{
    HolderInfo info;
    if (auto tombstone = LockTombstone::decode(value)) {
        info.format = HolderFormat::Tombstone;
        info.summary =
            QCoreApplication::translate("redlock::HolderInfo", "released by %1 at %2")
                .arg(printableText(tombstone->releasedBy, 80), QDateTime::fromMSecsSinceEpoch(tombstone->releasedAtMs)
                                                                   .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        info.tombstone = std::move(tombstone);
        return info;
    }
    if (auto token = LockToken::decode(value)) {
        info.format = HolderFormat::RedlockConsole;
        const QString pattern = token->client.isEmpty()
                                    ? QCoreApplication::translate("redlock::HolderInfo", "%1 pid %2")
                                    : QCoreApplication::translate("redlock::HolderInfo", "%1 pid %2 (%3)");
        // The locks of one client make the same summary: the last one made on this thread is taken again when the
        // pattern, host, pid and client are the same (at 1M locks, half the cost of decoding was making it again).
        struct Made
        {
            QString pattern, host, client, summary;
            qint64 pid = -1;
        };
        thread_local Made last;
        if (last.pid == token->pid && last.pid >= 0 && last.host == token->host && last.client == token->client &&
            last.pattern == pattern) {
            info.summary = last.summary;
            token->host = last.host;
            token->client = last.client;
            info.token = std::move(token);
            return info;
        }
        // The names are decoded from percent-encoding: anything a writer of the key chose, ESC included.
        const QString host = printableText(token->host, 64);
        // One arg() call: a name containing "%2" must not be substituted by the next one.
        const QString pid = QString::number(token->pid);
        info.summary =
            token->client.isEmpty() ? pattern.arg(host, pid) : pattern.arg(host, pid, printableText(token->client, 64));
        info.summary = interned(info.summary);
        token->host = interned(token->host);
        token->client = interned(token->client);
        last = {pattern, token->host, token->client, info.summary, token->pid};
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

HolderFormat holderFormatOf(const QByteArray& key, const QByteArray& value)
{
    if (LockTombstone::decode(value))
        return HolderFormat::Tombstone;
    if (LockToken::decode(value))
        return HolderFormat::RedlockConsole;
    if (isUuid(value))
        return key.startsWith("redlock:") ? HolderFormat::PrefixedUuid : HolderFormat::Uuid;
    if (value.size() == 32 && isHex(value))
        return HolderFormat::NodeRedlock;
    if (isBase64Of16Bytes(value))
        return HolderFormat::Redsync;
    return HolderFormat::Opaque;
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
        holders << QCoreApplication::translate("redlock::HolderInfo", "%1 thread %2 ×%3")
                       .arg(printableBytes(field.left(colon), 40), QString::number(thread),
                            QString::number(reentrancy));
    }
    info.summary =
        info.format == HolderFormat::Redisson
            ? QCoreApplication::translate("redlock::HolderInfo", "Redisson %1").arg(holders.join(QStringLiteral(", ")))
            : QCoreApplication::translate("redlock::HolderInfo", "hash with %n field(s)", nullptr, int(fields.size()));
    return info;
}

struct SharedHolder::Source
{
    // Not std::call_once: glibc's pthread_once wakes waiters with a futex call after every first run, a system
    // call per lock decoded (3% of `inspect --json`'s CPU). The first to ask decodes; another thread asking
    // meanwhile (rare: a view's copies on two threads) yields until it is done. As small as the once_flag was.
    enum State : int { NotDecoded, Decoding, Decoded };
    std::atomic<int> state{NotDecoded};
    HolderInfo info;
    // What it is decoded from, until it is.
    QByteArray key;
    QByteArray value;
    QList<std::pair<QByteArray, QByteArray>> redissonFields;
    bool redisson = false;
};

SharedHolder::SharedHolder(HolderInfo info, int fromNode) : m_source(std::make_shared<Source>()), m_fromNode(fromNode)
{
    m_source->info = std::move(info);
    m_source->state.store(Source::Decoded, std::memory_order_release);
}

SharedHolder SharedHolder::ofValue(const QByteArray& key, const QByteArray& value, int fromNode)
{
    SharedHolder holder;
    holder.m_source = std::make_shared<Source>();
    holder.m_source->key = key;
    holder.m_source->value = value;
    holder.m_fromNode = fromNode;
    return holder;
}

SharedHolder SharedHolder::ofRedissonHash(const QList<std::pair<QByteArray, QByteArray>>& fields, int fromNode)
{
    SharedHolder holder = ofValue({}, {}, fromNode);
    holder.m_source->redissonFields = fields;
    holder.m_source->redisson = true;
    return holder;
}

const HolderInfo& SharedHolder::operator*() const
{
    if (!m_source)
        return none();
    Source& source = *m_source;
    int state = source.state.load(std::memory_order_acquire);
    if (state == Source::Decoded)
        return source.info;
    if (state == Source::NotDecoded &&
        source.state.compare_exchange_strong(state, Source::Decoding, std::memory_order_acquire)) {
        source.info =
            source.redisson ? decodeRedissonHolder(source.redissonFields) : decodeHolder(source.key, source.value);
        source.key = {};
        source.value = {};
        source.redissonFields = {};
        source.state.store(Source::Decoded, std::memory_order_release);
        return source.info;
    }
    while (source.state.load(std::memory_order_acquire) != Source::Decoded)
        std::this_thread::yield();
    return source.info;
}

const HolderInfo& SharedHolder::none()
{
    static const HolderInfo empty;
    return empty;
}

bool LockView::sameStateAs(const LockView& other) const
{
    if (key != other.key || verdict != other.verdict || token != other.token || holders != other.holders ||
        tokenCount != other.tokenCount || restsOn != other.restsOn || uncounted != other.uncounted ||
        noExpiryNodes != other.noExpiryNodes || noExpiryToken != other.noExpiryToken ||
        validityEnded != other.validityEnded || nodes.size() != other.nodes.size())
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
