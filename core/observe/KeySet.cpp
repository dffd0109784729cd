#include "observe/KeySet.h"

#include <QHashFunctions>
#include <QRandomGenerator>

#include <algorithm>
#include <array>

namespace redlock {

namespace {

__extension__ using Wide = unsigned __int128;

constexpr quint32 kMinCapacity = 8;

// Grows past 4/5 full: probe runs stay short (about 3 slots for a name met before, 13 for a new one, at worst).
bool fits(quint64 count, quint32 capacity)
{
    return count * 5 <= quint64(capacity) * 4;
}

quint32 capacityFor(quint64 count)
{
    return quint32(std::max<quint64>(kMinCapacity, count * 5 / 4 + 1));
}

// Two independent seeds, not Qt's global one, drawn once per process: nonzero, as qHashBits() takes a zero
// seed for "unseeded".
const std::array<size_t, 2>& seeds()
{
    static const std::array<size_t, 2> drawn = [] {
        std::array<size_t, 2> values{};
        for (size_t& value : values) {
            while (value == 0)
                value = size_t(QRandomGenerator::system()->generate64());
        }
        return values;
    }();
    return drawn;
}

} // namespace

KeySet::Fingerprint KeySet::fingerprintOf(const QByteArray& key)
{
    const std::array<size_t, 2>& seed = seeds();
    const auto* data = key.constData();
    const size_t length = size_t(key.size());
    // The length goes into the seeds: Qt 6.4's AES hash does not mix it in, so that "lock:a", "lock:a\0" and
    // "lock:a\0\0" hash alike whatever the seed (TestKeySet::binaryNamesAndTheEmptyName). Not by a plain XOR:
    // without AES, Qt hashes names of up to 8 bytes with murmur, whose output is a fixed function of seed ^ len ^ the
    // bytes, so a seed difference that depends on the lengths only would cancel and give pairs of names of two
    // lengths that collide whatever the seeds. Each length gets a seed of its own through a bijective 64-bit mixer
    // (murmur3's finaliser): the difference between two lengths' seeds cannot be known without the seed.
    const auto seeded = [&](size_t s) {
        quint64 x = quint64(s) + quint64(length) * 0x9e3779b97f4a7c15u;
        x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdu;
        x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53u;
        x ^= x >> 33;
        return size_t(x != 0 ? x : 1); // qHashBits() takes a zero seed for "unseeded"
    };
    Fingerprint fingerprint{quint64(qHashBits(data, length, seeded(seed[0]))),
                            quint64(qHashBits(data, length, seeded(seed[1])))};
    if (fingerprint.first == 0)
        fingerprint.first = 1;
    return fingerprint;
}

KeySet::Segment& KeySet::segmentOf(const Fingerprint& fingerprint)
{
    return m_segments[size_t(fingerprint.second >> (64 - kSegmentBits))];
}

const KeySet::Segment& KeySet::segmentOf(const Fingerprint& fingerprint) const
{
    return m_segments[size_t(fingerprint.second >> (64 - kSegmentBits))];
}

quint32 KeySet::find(const Segment& segment, const Fingerprint& fingerprint)
{
    // The slot from the high bits of a product (any capacity, no division), the segment from the other hash.
    quint32 i = quint32((Wide(fingerprint.first) * segment.capacity) >> 64);
    for (;;) {
        const Fingerprint& slot = segment.table[i];
        if (slot.first == 0 || slot == fingerprint)
            return i;
        if (++i == segment.capacity)
            i = 0;
    }
}

bool KeySet::contains(const QByteArray& key) const
{
    if (m_size == 0)
        return false;
    const Fingerprint fingerprint = fingerprintOf(key);
    const Segment& segment = segmentOf(fingerprint);
    return segment.size > 0 && segment.table[find(segment, fingerprint)].first != 0;
}

bool KeySet::insert(const QByteArray& key)
{
    if (m_segments.empty())
        m_segments.resize(kSegments);
    return insert(fingerprintOf(key));
}

void KeySet::insertNew(QList<QByteArray>& keys)
{
    if (m_segments.empty())
        m_segments.resize(kSegments);
    m_page.resize(size_t(keys.size()));
    for (qsizetype k = 0; k < keys.size(); ++k) {
        const Fingerprint fingerprint = fingerprintOf(keys[k]);
        m_page[size_t(k)] = fingerprint;
        const Segment& segment = segmentOf(fingerprint);
        if (segment.capacity > 0)
            __builtin_prefetch(&segment.table[quint32((Wide(fingerprint.first) * segment.capacity) >> 64)]);
    }
    qsizetype kept = 0;
    for (qsizetype k = 0; k < keys.size(); ++k) {
        if (!insert(m_page[size_t(k)]))
            continue;
        if (kept != k)
            keys[kept] = std::move(keys[k]);
        ++kept;
    }
    keys.resize(kept);
}

bool KeySet::insert(const Fingerprint& fingerprint)
{
    Segment& segment = segmentOf(fingerprint);
    if (segment.capacity == 0)
        rehash(segment, kMinCapacity);
    quint32 i = find(segment, fingerprint);
    if (segment.table[i].first != 0)
        return false;
    if (!fits(quint64(segment.size) + 1, segment.capacity)) {
        // By half: one segment in 16 is rehashed at a time, and the slots stay 53-80% full.
        rehash(segment, std::max(capacityFor(quint64(segment.size) + 1), segment.capacity / 2 * 3));
        i = find(segment, fingerprint);
    }
    segment.table[i] = fingerprint;
    ++segment.size;
    ++m_size;
    return true;
}

void KeySet::reserve(qsizetype count)
{
    if (count <= 0)
        return;
    if (m_segments.empty())
        m_segments.resize(kSegments);
    // The names spread over the segments unevenly: room for one in eight more than an even share, and a few.
    const quint64 share = quint64(count) / kSegments;
    const quint32 capacity = capacityFor(share + share / 8 + 8);
    for (Segment& segment : m_segments) {
        if (capacity > segment.capacity)
            rehash(segment, capacity);
    }
}

void KeySet::rehash(Segment& segment, quint32 capacity)
{
    Segment grown;
    grown.table = std::make_unique<Fingerprint[]>(capacity);
    grown.capacity = capacity;
    grown.size = segment.size;
    for (quint32 j = 0; j < segment.capacity; ++j) {
        const Fingerprint& slot = segment.table[j];
        if (slot.first != 0)
            grown.table[find(grown, slot)] = slot; // the fingerprints are distinct: the first empty slot
    }
    segment = std::move(grown);
}

} // namespace redlock
