#include "observe/PackedLockView.h"

#include "redlock/Rl1Digits.h"

#include <QDateTime>
#include <QVarLengthArray>

#include <algorithm>
#include <chrono>

#include <cstring>
#include <limits>
#include <new>

namespace redlock {

namespace {

// The fixed part: flags, verdict, node count, the steady instant, then one presence byte per node. Then, as signed
// varints, the wall-clock instant (as its distance from where the steady one puts it, wallOffsetMs()), the validity
// and the time until free: a few bytes instead of 24 (a view's allocation drops a malloc size class, 16 bytes).
constexpr int kFlags = 0;
constexpr int kVerdict = 1;
constexpr int kNodeCount = 2; // quint16
constexpr int kObservedAtNs = 4;
constexpr int kPresences = 12;

// Wall-clock milliseconds minus steady milliseconds, once per process: a view observed now has its wall instant
// within a few milliseconds of its steady one plus this (one byte), whatever clock it was read on; any other value
// still packs exactly, in more bytes. Packed views never leave the process.
qint64 wallOffsetMs()
{
    static const qint64 offset =
        QDateTime::currentMSecsSinceEpoch() -
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    return offset;
}

// observedAtMs as its distance from observedAtNs's millisecond plus wallOffsetMs(), in wrapping arithmetic: exact
// for any pair.
qint64 wallDistance(qint64 observedAtMs, qint64 observedAtNs)
{
    return qint64(quint64(observedAtMs) - quint64(observedAtNs / 1'000'000) - quint64(wallOffsetMs()));
}

qint64 wallFromDistance(qint64 distance, qint64 observedAtNs)
{
    return qint64(quint64(distance) + quint64(observedAtNs / 1'000'000) + quint64(wallOffsetMs()));
}

// A holding node's PTTL is written as its difference from the previous holding node's (the first's from 0),
// wrapping: exact for any.
qint64 pttlDelta(qint64 pttl, qint64 previous)
{
    return qint64(quint64(pttl) - quint64(previous));
}

qint64 pttlAfter(qint64 previous, qint64 delta)
{
    return qint64(quint64(previous) + quint64(delta));
}

constexpr quint8 kPacked = 0x01;        // never 0: a packed view is never empty
constexpr quint8 kValidityEnded = 0x02; // LockView::validityEnded
constexpr quint8 kPresenceMask = 0x0f;
constexpr quint8 kHasNote = 0x10;
constexpr quint8 kHasHashFields = 0x20;
// SharedHolder: none, or decoded from the view's token; otherwise the node it was decoded from.
constexpr qint64 kNoHolder = -2;
constexpr qint64 kHolderFromToken = -1;

using Buffer = QVarLengthArray<char, 512>;

void putFixed(Buffer& out, int at, qint64 value)
{
    std::memcpy(out.data() + at, &value, sizeof value);
}

qint64 getFixed(const char* bytes, int at)
{
    qint64 value = 0;
    std::memcpy(&value, bytes + at, sizeof value);
    return value;
}

void putVarint(Buffer& out, quint64 value)
{
    while (value >= 0x80) {
        out.append(char(quint8(value) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

void putSigned(Buffer& out, qint64 value)
{
    putVarint(out, (quint64(value) << 1) ^ quint64(value >> 63)); // zigzag: small magnitudes stay short
}

void putBytes(Buffer& out, QByteArrayView bytes)
{
    putVarint(out, quint64(bytes.size()));
    out.append(bytes.data(), bytes.size());
}

// A token: this project's as its digits' 16 bytes and the rest (core/redlock/Rl1Digits.h), 16 bytes less than as
// text; any other as it is. The length's low bit says which.
constexpr qsizetype kRl1Packed = qsizetype(sizeof(rl1::Digits));

void putToken(Buffer& out, const QByteArray& token)
{
    rl1::Digits digits;
    if (!rl1::split(token, &digits)) {
        putVarint(out, quint64(token.size()) << 1);
        out.append(token.constData(), token.size());
        return;
    }
    const qsizetype rest = token.size() - rl1::kDigitsEnd;
    putVarint(out, (quint64(rest) << 1) | 1);
    out.append(reinterpret_cast<const char*>(digits.data()), kRl1Packed);
    out.append(token.constData() + rl1::kDigitsEnd, rest);
}

void putNodes(Buffer& out, const QList<int>& nodes)
{
    putVarint(out, quint64(nodes.size()));
    for (const int node : nodes)
        putVarint(out, quint64(node));
}

// Reads what the put functions wrote, in the same order. The bytes are our own, written by the constructor.
class Reader
{
public:
    Reader(const char* bytes, qsizetype at) : m_p(reinterpret_cast<const quint8*>(bytes) + at) {}
    quint64 varint()
    {
        quint64 value = 0;
        int shift = 0;
        while (*m_p & 0x80) {
            value |= quint64(*m_p++ & 0x7f) << shift;
            shift += 7;
        }
        value |= quint64(*m_p++) << shift;
        return value;
    }
    qint64 signedValue()
    {
        const quint64 z = varint();
        return qint64(z >> 1) ^ -qint64(z & 1);
    }
    QByteArray bytes()
    {
        const auto size = qsizetype(varint());
        QByteArray out(reinterpret_cast<const char*>(m_p), size);
        m_p += size;
        return out;
    }
    void skipBytes() { m_p += qsizetype(varint()); }
    // What putToken wrote.
    QByteArray token()
    {
        const quint64 head = varint();
        const auto size = qsizetype(head >> 1);
        const char* at = reinterpret_cast<const char*>(m_p);
        if (!(head & 1)) {
            m_p += size;
            return QByteArray(at, size);
        }
        QByteArray out(rl1::kDigitsEnd + size, Qt::Uninitialized);
        rl1::writeHead(out.data(), m_p);
        std::memcpy(out.data() + rl1::kDigitsEnd, at + kRl1Packed, size_t(size));
        m_p += kRl1Packed + size;
        return out;
    }
    // Whether the next token is `token` (without making it).
    bool tokenIs(QByteArrayView token)
    {
        const quint64 head = varint();
        const auto size = qsizetype(head >> 1);
        const char* at = reinterpret_cast<const char*>(m_p);
        if (!(head & 1)) {
            m_p += size;
            return QByteArrayView(at, size) == token;
        }
        m_p += kRl1Packed + size;
        rl1::Digits digits;
        return token.size() == rl1::kDigitsEnd + size && rl1::split(token, &digits) &&
               std::memcmp(digits.data(), at, size_t(kRl1Packed)) == 0 &&
               token.sliced(rl1::kDigitsEnd) == QByteArrayView(at + kRl1Packed, size);
    }
    void skipToken()
    {
        const quint64 head = varint();
        m_p += qsizetype(head >> 1) + ((head & 1) ? kRl1Packed : 0);
    }
    // What a node's entry holds after its PTTL and token, as its presence byte says: a note, a hash's fields.
    void skipNodeExtras(quint8 presence)
    {
        if (presence & kHasNote)
            skipBytes();
        if (presence & kHasHashFields) {
            for (auto fields = varint(); fields > 0; --fields) {
                skipBytes();
                skipBytes();
            }
        }
    }
    void skipNodes()
    {
        for (auto count = varint(); count > 0; --count)
            varint();
    }
    QList<int> nodes()
    {
        const auto count = qsizetype(varint());
        QList<int> out;
        out.reserve(count);
        for (qsizetype i = 0; i < count; ++i)
            out.append(int(varint()));
        return out;
    }

private:
    const quint8* m_p;
};

// A reader past the fixed part and the three times after it (wall distance, validity, free in): at the holders.
Reader afterTimes(const char* bytes, int nodeCount)
{
    Reader in(bytes, kPresences + nodeCount);
    for (int i = 0; i < 3; ++i)
        in.varint();
    return in;
}

// A reader at the count of the distinct tokens: past the fixed part and what unpack() reads before them.
Reader tokenTable(const char* bytes, int nodeCount)
{
    Reader in = afterTimes(bytes, nodeCount);
    for (int i = 0; i < 3; ++i) // holders, tokenCount, quorum
        in.varint();
    for (int i = 0; i < 3; ++i) // restsOn, uncounted, noExpiryNodes
        in.skipNodes();
    in.varint(); // the holder's node
    return in;
}

} // namespace

PackedLockView::PackedLockView(const LockView& view)
{
    const auto nodeCount = int(view.nodes.size());
    Buffer out(kPresences + nodeCount);
    std::memset(out.data(), 0, size_t(out.size()));
    out[kFlags] = char(kPacked | (view.validityEnded ? kValidityEnded : 0));
    out[kVerdict] = char(view.verdict);
    const auto count16 = quint16(nodeCount);
    std::memcpy(out.data() + kNodeCount, &count16, sizeof count16);
    putFixed(out, kObservedAtNs, view.observedAtNs);

    // Each distinct token once; 0 stands for none (an empty value).
    QVarLengthArray<const QByteArray*, 8> tokens;
    auto tokenIndex = [&tokens](const QByteArray& token) -> quint64 {
        if (token.isEmpty())
            return 0;
        for (qsizetype t = 0; t < tokens.size(); ++t) {
            if (*tokens[t] == token)
                return quint64(t) + 1;
        }
        tokens.append(&token);
        return quint64(tokens.size());
    };
    QVarLengthArray<quint64, 16> nodeToken(nodeCount);
    for (int i = 0; i < nodeCount; ++i) {
        const NodeLockState& s = view.nodes[i];
        quint8 presence = quint8(s.presence) & kPresenceMask;
        if (!s.note.isEmpty())
            presence |= kHasNote;
        if (!s.hashFields.isEmpty())
            presence |= kHasHashFields;
        out[kPresences + i] = char(presence);
        nodeToken[i] = tokenIndex(s.token);
    }
    const quint64 token = tokenIndex(view.token);
    const quint64 noExpiryToken = tokenIndex(view.noExpiryToken);

    putSigned(out, wallDistance(view.observedAtMs, view.observedAtNs));
    putSigned(out, view.observedValidityMs);
    putSigned(out, view.freeInMs);
    putSigned(out, view.holders);
    putSigned(out, view.tokenCount);
    putSigned(out, view.quorum);
    putNodes(out, view.restsOn);
    putNodes(out, view.uncounted);
    putNodes(out, view.noExpiryNodes);
    putSigned(out, view.holder.isNull()          ? kNoHolder
                   : view.holder.fromNode() >= 0 ? view.holder.fromNode()
                                                 : kHolderFromToken);
    putVarint(out, quint64(tokens.size()));
    for (const QByteArray* t : std::as_const(tokens))
        putToken(out, *t);
    putVarint(out, token);
    putVarint(out, noExpiryToken);
    // A holding node's PTTL as its difference from the previous holding node's (wrapping: exact for any values):
    // the nodes of one lock were written within milliseconds of each other, one or two bytes each instead of three
    // or four. Any other node's as it is (-2 for a key it does not have: one byte, and no jump for the next).
    qint64 previousPttl = 0;
    for (int i = 0; i < nodeCount; ++i) {
        const NodeLockState& s = view.nodes[i];
        if (s.presence == NodeLockState::Presence::Holding) {
            putSigned(out, pttlDelta(s.pttlMs, previousPttl));
            previousPttl = s.pttlMs;
        } else {
            putSigned(out, s.pttlMs);
        }
        putVarint(out, nodeToken[i]);
        if (!s.note.isEmpty())
            putBytes(out, s.note.toUtf8());
        if (!s.hashFields.isEmpty()) {
            putVarint(out, quint64(s.hashFields.size()));
            for (const auto& [field, value] : s.hashFields) {
                putBytes(out, field);
                putBytes(out, value);
            }
        }
    }
    m_bytes = PackedViewBytes(out.data(), out.size()); // one allocation of the exact size
}

PackedViewBytes::PackedViewBytes(const char* data, qsizetype size)
{
    if (size <= 0)
        return;
    Q_ASSERT(size <= std::numeric_limits<qint32>::max());
    m_block = new (::operator new(sizeof(Block) + size_t(size))) Block;
    m_block->ref.store(1, std::memory_order_relaxed);
    m_block->size = qint32(size);
    std::memcpy(m_block->data(), data, size_t(size));
}

void PackedViewBytes::release() noexcept
{
    // The last copy frees it; acquire-release: every thread's reads of the bytes happen before the free.
    if (m_block && m_block->ref.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        m_block->~Block();
        ::operator delete(m_block);
    }
    m_block = nullptr;
}

bool PackedLockView::sameBytesAs(const PackedLockView& other) const
{
    return m_bytes.sharesWith(other.m_bytes) ||
           (m_bytes.size() == other.m_bytes.size() &&
            std::memcmp(m_bytes.constData(), other.m_bytes.constData(), size_t(m_bytes.size())) == 0);
}

LockVerdict PackedLockView::verdict() const
{
    return isNull() ? LockVerdict::Unknown : LockVerdict(quint8(m_bytes[kVerdict]));
}

int PackedLockView::nodeCount() const
{
    if (isNull())
        return 0;
    quint16 count = 0;
    std::memcpy(&count, m_bytes.constData() + kNodeCount, sizeof count);
    return count;
}

NodeLockState::Presence PackedLockView::presence(int node) const
{
    if (node < 0 || node >= nodeCount())
        return NodeLockState::Presence::Unreachable;
    return NodeLockState::Presence(quint8(m_bytes[kPresences + node]) & kPresenceMask);
}

qint64 PackedLockView::observedAtNs() const
{
    return isNull() ? 0 : getFixed(m_bytes.constData(), kObservedAtNs);
}

qint64 PackedLockView::observedAtMs() const
{
    if (isNull())
        return 0;
    Reader in(m_bytes.constData(), kPresences + nodeCount());
    return wallFromDistance(in.signedValue(), observedAtNs());
}

qint64 PackedLockView::observedValidityMs() const
{
    if (isNull())
        return -1;
    Reader in(m_bytes.constData(), kPresences + nodeCount());
    in.varint(); // wall distance
    return in.signedValue();
}

LockView PackedLockView::unpack(const QByteArray& key) const
{
    LockView view;
    view.key = key;
    if (isNull())
        return view;
    const char* bytes = m_bytes.constData();
    const int nodeCount = this->nodeCount();
    view.validityEnded = (quint8(bytes[kFlags]) & kValidityEnded) != 0;
    view.verdict = verdict();
    view.observedAtNs = getFixed(bytes, kObservedAtNs);

    Reader in(bytes, kPresences + nodeCount);
    view.observedAtMs = wallFromDistance(in.signedValue(), view.observedAtNs);
    view.observedValidityMs = in.signedValue();
    view.freeInMs = in.signedValue();
    view.holders = int(in.signedValue());
    view.tokenCount = int(in.signedValue());
    view.quorum = int(in.signedValue());
    view.restsOn = in.nodes();
    view.uncounted = in.nodes();
    view.noExpiryNodes = in.nodes();
    const qint64 holder = in.signedValue();
    QVarLengthArray<QByteArray, 8> tokens(qsizetype(in.varint()) + 1);
    for (qsizetype t = 1; t < tokens.size(); ++t)
        tokens[t] = in.token();
    view.token = tokens.value(qsizetype(in.varint()));
    view.noExpiryToken = tokens.value(qsizetype(in.varint()));
    view.nodes.resize(nodeCount);
    qint64 previousPttl = 0;
    for (int i = 0; i < nodeCount; ++i) {
        NodeLockState& s = view.nodes[i];
        const auto presence = quint8(bytes[kPresences + i]);
        s.presence = NodeLockState::Presence(presence & kPresenceMask);
        s.pttlMs = in.signedValue();
        if (s.presence == NodeLockState::Presence::Holding)
            s.pttlMs = previousPttl = pttlAfter(previousPttl, s.pttlMs);
        s.token = tokens.value(qsizetype(in.varint()));
        if (presence & kHasNote)
            s.note = QString::fromUtf8(in.bytes());
        if (presence & kHasHashFields) {
            const auto fields = qsizetype(in.varint());
            s.hashFields.reserve(fields);
            for (qsizetype f = 0; f < fields; ++f) {
                QByteArray field = in.bytes();
                s.hashFields.append({std::move(field), in.bytes()});
            }
        }
    }
    if (holder == kHolderFromToken) {
        view.holder = SharedHolder::ofValue(key, view.token);
    } else if (holder >= 0 && holder < nodeCount) {
        const NodeLockState& s = view.nodes[int(holder)];
        view.holder = s.hashFields.isEmpty() ? SharedHolder::ofValue(key, s.token, int(holder))
                                             : SharedHolder::ofRedissonHash(s.hashFields, int(holder));
    }
    return view;
}

qint64 PackedLockView::freeInMs() const
{
    if (isNull())
        return -1;
    Reader in(m_bytes.constData(), kPresences + nodeCount());
    in.varint(); // wall distance
    in.varint(); // validity
    return in.signedValue();
}

bool PackedLockView::hasQuorum() const
{
    if (isNull())
        return false;
    Reader in = afterTimes(m_bytes.constData(), nodeCount());
    const qint64 holders = in.signedValue();
    in.varint(); // tokenCount
    const qint64 quorum = in.signedValue();
    return holders >= quorum && quorum > 0;
}

void PackedLockView::tokenHolders(QList<int>* out) const
{
    out->clear();
    const int nodeCount = this->nodeCount();
    if (nodeCount == 0)
        return;
    const char* bytes = m_bytes.constData();
    Reader in = tokenTable(bytes, nodeCount);
    for (auto tokens = in.varint(); tokens > 0; --tokens)
        in.skipToken();
    // Each distinct token is stored once, so equal indices are equal tokens; 0 is none on both sides.
    const quint64 token = in.varint();
    in.varint(); // noExpiryToken
    for (int i = 0; i < nodeCount; ++i) {
        const auto presence = quint8(bytes[kPresences + i]);
        in.varint(); // pttlMs
        if (in.varint() == token &&
            NodeLockState::Presence(presence & kPresenceMask) == NodeLockState::Presence::Holding)
            out->append(i);
        in.skipNodeExtras(presence);
    }
}

qint64 PackedLockView::pttlMs(int node) const
{
    const int nodeCount = this->nodeCount();
    if (node < 0 || node >= nodeCount)
        return -2;
    const char* bytes = m_bytes.constData();
    // The same walk as unpack(), reading only the lengths of what comes before the node's PTTL.
    Reader in = tokenTable(bytes, nodeCount);
    for (auto tokens = in.varint(); tokens > 0; --tokens)
        in.skipToken();
    in.varint(); // token
    in.varint(); // noExpiryToken
    const auto holding = [bytes](int i) {
        return NodeLockState::Presence(quint8(bytes[kPresences + i]) & kPresenceMask) ==
               NodeLockState::Presence::Holding;
    };
    qint64 previousPttl = 0; // the last holding node's
    for (int i = 0; i < node; ++i) {
        const auto presence = quint8(bytes[kPresences + i]);
        const qint64 written = in.signedValue();
        if (holding(i))
            previousPttl = pttlAfter(previousPttl, written);
        in.varint(); // token
        in.skipNodeExtras(presence);
    }
    const qint64 written = in.signedValue();
    return holding(node) ? pttlAfter(previousPttl, written) : written;
}

int PackedLockView::tokenNumber(QByteArrayView token) const
{
    if (isNull() || token.isEmpty())
        return 0;
    Reader in = tokenTable(m_bytes.constData(), nodeCount());
    const auto count = in.varint();
    for (quint64 t = 1; t <= count; ++t) {
        if (in.tokenIs(token))
            return int(t);
    }
    return 0;
}

QByteArray PackedLockView::token(int number) const
{
    if (isNull() || number <= 0)
        return {};
    Reader in = tokenTable(m_bytes.constData(), nodeCount());
    const auto count = in.varint();
    if (quint64(number) > count)
        return {};
    for (int t = 1; t < number; ++t)
        in.skipToken();
    return in.token();
}

} // namespace redlock
