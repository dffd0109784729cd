#pragma once

#include <QByteArray>

#include <vector>

namespace redlock {

// A set of key names for the hot path of a pass: at 100,000 locks on 5 nodes every node's SCAN names every key,
// half a million lookups a pass. QSet<QByteArray> compares the bytes of every key it probes, each in an
// allocation of its own somewhere in the heap (a cache miss each, and the lock keys of one deployment have the
// same length and prefix). Here a slot keeps the key's hash beside it, so a probe compares 8 bytes, and the
// keys' bytes are copied one after the other into one buffer, read only when the hashes are equal. Open
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
    // Room for `count` keys without growing the slots.
    void reserve(qsizetype count);

private:
    struct Slot
    {
        size_t hash = 0;      // 0: empty (hashOf() never returns 0)
        qsizetype offset = 0; // of the key's bytes in m_bytes
        qsizetype length = 0;
    };
    size_t hashOf(const QByteArray& key) const;
    bool holds(const Slot& slot, size_t hash, const QByteArray& key) const;
    // The slot that holds `key`, or the empty slot where it would go.
    size_t find(const QByteArray& key, size_t hash) const;
    void rehash(size_t capacity);

    std::vector<Slot> m_slots; // a power of two in size, or empty
    std::vector<char> m_bytes; // every key's bytes, one after the other
    qsizetype m_size = 0;
    size_t m_seed = 0;
};

} // namespace redlock
