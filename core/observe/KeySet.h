#pragma once

#include <QByteArray>
#include <QList>

#include <memory>
#include <vector>

namespace redlock {

// The set of key names a pass has read, for its hot path: at 100,000 locks on 5 nodes every node's SCAN names
// every key, half a million lookups a pass; at 1M, five million, and the set is most of `redlock inspect`'s
// memory. So it keeps no name, only a 128-bit fingerprint of each: two 64-bit hashes of the name
// (qHashBits) with two seeds drawn from the system's random generator once per process. Key names chosen to
// collide cannot be prepared without the seeds; names not chosen so collide with a probability of about
// n^2 / 2^129 for n names: 4e-26 at 5 million, where a collision would make the pass skip one lock.
//
// 16 bytes a name, at most 4/5 full, in 16 segments chosen by the fingerprint that each grow by half on their
// own: no moment holds two full tables (a rehash holds one segment twice), and no power-of-two capacity may
// leave half the slots empty. About 20-30 bytes a name in all (21 at 1M), against about 60 with the names' bytes.
// Open addressing with linear probing inside a segment.
class KeySet
{
public:
    // False when the key was in the set already.
    bool insert(const QByteArray& key);
    // Inserts every key of `keys` and keeps in it, in their order, only those that were not in the set yet (a
    // key twice in `keys` is kept once). The same as insert() on each, but a page of keys at a time: the slots
    // are looked up in a second step after every key's was asked of the memory, so that the page waits for
    // the memory once, not once a key (at 1M the set is 20 MB, and each first probe missed the caches).
    void insertNew(QList<QByteArray>& keys);
    bool contains(const QByteArray& key) const;
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    // Room for about `count` keys without growing.
    void reserve(qsizetype count);

private:
    struct Fingerprint
    {
        quint64 first = 0; // 0: an empty slot (fingerprintOf() never gives 0 here)
        quint64 second = 0;
        bool operator==(const Fingerprint&) const = default;
    };
    struct Segment
    {
        std::unique_ptr<Fingerprint[]> table;
        quint32 capacity = 0;
        quint32 size = 0;
    };
    static constexpr int kSegmentBits = 4;
    static constexpr size_t kSegments = size_t(1) << kSegmentBits;

    static Fingerprint fingerprintOf(const QByteArray& key);
    Segment& segmentOf(const Fingerprint& fingerprint);
    const Segment& segmentOf(const Fingerprint& fingerprint) const;
    // The slot that holds `fingerprint`, or the empty slot where it would go.
    static quint32 find(const Segment& segment, const Fingerprint& fingerprint);
    static void rehash(Segment& segment, quint32 capacity);
    bool insert(const Fingerprint& fingerprint);

    std::vector<Segment> m_segments; // 1 << kSegmentBits of them, or none before the first insert
    qsizetype m_size = 0;
    std::vector<Fingerprint> m_page; // insertNew's fingerprints, kept for the next page
};

} // namespace redlock
