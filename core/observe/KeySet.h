#pragma once

#include <QByteArray>

#include <vector>

namespace redlock {

// A set of key names for the hot path of a pass: at 100,000 locks on 5 nodes every node's SCAN names every key,
// half a million lookups a pass. QSet<QByteArray> compares the bytes of every key it probes (one cache miss
// each, and lock keys of one deployment all have the same length and prefix); here each slot keeps the key's
// hash beside it, so a probe compares 8 bytes and reads a key's bytes only when the hashes are equal. Open
// addressing, linear probing, at most 5/8 full. The hash is Qt's, seeded per process (QHashSeed::globalSeed()):
// key names chosen to collide cannot be prepared in advance.
class KeySet
{
public:
    // False when the key was in the set already.
    bool insert(const QByteArray& key);
    bool contains(const QByteArray& key) const;
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    // Room for `count` keys without growing.
    void reserve(qsizetype count);

private:
    struct Slot
    {
        size_t hash = 0; // 0: empty (hashOf() never returns 0)
        QByteArray key;
    };
    size_t hashOf(const QByteArray& key) const;
    // The slot that holds `key`, or the empty slot where it would go.
    size_t find(const QByteArray& key, size_t hash) const;
    void rehash(size_t capacity);

    std::vector<Slot> m_slots; // a power of two in size, or empty
    qsizetype m_size = 0;
    size_t m_seed = 0;
};

} // namespace redlock
