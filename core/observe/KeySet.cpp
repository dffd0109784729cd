#include "observe/KeySet.h"

#include <QHashFunctions>

#include <bit>

namespace redlock {

namespace {

constexpr size_t kMinCapacity = 16;

// Grows past 5/8 full: short probe runs, and the slots stay one contiguous array.
size_t capacityFor(qsizetype count)
{
    return std::bit_ceil(std::max(kMinCapacity, size_t(count) * 8 / 5 + 1));
}

} // namespace

size_t KeySet::hashOf(const QByteArray& key) const
{
    const size_t hash = qHash(key, m_seed);
    return hash == 0 ? 1 : hash;
}

size_t KeySet::find(const QByteArray& key, size_t hash) const
{
    const size_t mask = m_slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.hash == 0 || (slot.hash == hash && slot.key == key))
            return i;
    }
}

bool KeySet::contains(const QByteArray& key) const
{
    if (m_size == 0)
        return false;
    return m_slots[find(key, hashOf(key))].hash != 0;
}

bool KeySet::insert(const QByteArray& key)
{
    if (m_slots.empty()) {
        m_seed = QHashSeed::globalSeed();
        rehash(kMinCapacity);
    }
    const size_t hash = hashOf(key);
    size_t i = find(key, hash);
    if (m_slots[i].hash != 0)
        return false;
    if (capacityFor(m_size + 1) > m_slots.size()) {
        rehash(capacityFor(m_size + 1));
        i = find(key, hash);
    }
    m_slots[i].hash = hash;
    m_slots[i].key = key;
    ++m_size;
    return true;
}

void KeySet::reserve(qsizetype count)
{
    if (m_slots.empty())
        m_seed = QHashSeed::globalSeed();
    if (capacityFor(count) > m_slots.size())
        rehash(capacityFor(count));
}

void KeySet::rehash(size_t capacity)
{
    std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(capacity));
    for (Slot& slot : old) {
        if (slot.hash != 0)
            m_slots[find(slot.key, slot.hash)] = std::move(slot);
    }
}

} // namespace redlock
