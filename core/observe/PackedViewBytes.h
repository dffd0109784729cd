#pragma once

#include <QtGlobal>

#include <atomic>
#include <utility>

namespace redlock {

// The bytes of a PackedLockView (observe/PackedLockView.h): one allocation, an 8-byte header and the bytes, shared by
// its copies (across threads too: an atomic count); null when empty. On its own so that a LockView can carry the
// bytes it was stored as (LockView::packed) without the packed view's header.
class PackedViewBytes
{
public:
    PackedViewBytes() = default;
    PackedViewBytes(const char* data, qsizetype size);
    PackedViewBytes(const PackedViewBytes& other) noexcept : m_block(other.m_block)
    {
        if (m_block)
            m_block->ref.fetch_add(1, std::memory_order_relaxed);
    }
    PackedViewBytes(PackedViewBytes&& other) noexcept : m_block(std::exchange(other.m_block, nullptr)) {}
    PackedViewBytes& operator=(PackedViewBytes other) noexcept
    {
        std::swap(m_block, other.m_block);
        return *this;
    }
    ~PackedViewBytes() { release(); }

    bool isEmpty() const { return m_block == nullptr; }
    qsizetype size() const { return m_block ? m_block->size : 0; }
    const char* constData() const { return m_block ? m_block->data() : nullptr; }
    char operator[](qsizetype i) const { return constData()[i]; }
    // One allocation shared (not only equal bytes).
    bool sharesWith(const PackedViewBytes& other) const { return m_block == other.m_block; }

private:
    struct Block
    {
        std::atomic<qint32> ref;
        qint32 size = 0;
        const char* data() const { return reinterpret_cast<const char*>(this + 1); }
        char* data() { return reinterpret_cast<char*>(this + 1); }
    };
    static_assert(sizeof(Block) == 8);
    void release() noexcept;

    Block* m_block = nullptr;
};
static_assert(sizeof(PackedViewBytes) == sizeof(void*));

} // namespace redlock
