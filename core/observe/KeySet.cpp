#include "observe/KeySet.h"

#include <QHashFunctions>

#include <bit>
#include <cstring>

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

bool KeySet::holds(const Slot& slot, size_t hash, const QByteArray& key) const
{
    return slot.hash == hash && slot.length == key.size() &&
           std::memcmp(m_bytes.data() + slot.offset, key.constData(), size_t(key.size())) == 0;
}

size_t KeySet::find(const QByteArray& key, size_t hash) const
{
    const size_t mask = m_slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.hash == 0 || holds(slot, hash, key))
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
    Slot& slot = m_slots[i];
    slot.hash = hash;
    slot.offset = qsizetype(m_bytes.size());
    slot.length = key.size();
    m_bytes.insert(m_bytes.end(), key.cbegin(), key.cend());
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
    const std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(capacity));
    const size_t mask = capacity - 1;
    for (const Slot& slot : old) {
        if (slot.hash == 0)
            continue;
        size_t i = slot.hash & mask; // the keys are distinct: the first empty slot
        while (m_slots[i].hash != 0)
            i = (i + 1) & mask;
        m_slots[i] = slot;
    }
}

} // namespace redlock
