#pragma once

#include "observe/ObservationTypes.h"

#include <QByteArray>

#include <atomic>
#include <utility>

namespace redlock {

// A LockView in one allocation, for the stores that keep one per lock: the inspector's views of every lock, a full
// pass's views until it is applied, the views a bounded hand-off has not told yet. A LockView is about 1.5 KB at
// five nodes once its node list, its tokens, its holder (decoded, with its summary) and its lists are counted; packed
// it is about 70 bytes and its token's rest: the verdict, the steady instant and each node's presence at fixed places,
// the rest as variable-length integers (the wall instant as its distance from the steady one, each holding node's
// PTTL as its difference from the previous one's), each distinct token once.
//
// Lossless: unpack(key) gives back every field of the view packed (the holder decoded again from what it was decoded
// from, SharedHolder::fromNode). The key is not kept: it is the store's key.
//
// Copies share the bytes (across threads too: an atomic count) and cost nothing until one is packed again. The
// object is one pointer (8 bytes in a store's hash node, where a QByteArray took 24), the allocation an 8-byte header
// and the bytes (a QByteArray's header takes 16 and a terminating NUL): at 100,000 locks, about 3 MB less.
class PackedLockView
{
public:
    PackedLockView() = default;
    explicit PackedLockView(const LockView& view);
    // The bytes of a view packed before (LockView::packed), shared.
    explicit PackedLockView(PackedViewBytes bytes) : m_bytes(std::move(bytes)) {}
    const PackedViewBytes& bytes() const { return m_bytes; }
    // The same bytes (shared or not): the same view.
    bool sameBytesAs(const PackedLockView& other) const;

    bool isNull() const { return m_bytes.isEmpty(); }
    LockView unpack(const QByteArray& key) const;

    // Without unpacking.
    LockVerdict verdict() const;
    bool isHeld() const { return verdict() == LockVerdict::Held || verdict() == LockVerdict::Expiring; }
    int nodeCount() const;
    NodeLockState::Presence presence(int node) const;
    qint64 observedAtNs() const;
    qint64 observedAtMs() const;
    qint64 observedValidityMs() const;
    // What the packed bytes take (the allocation's payload, for measurements).
    qsizetype byteSize() const { return m_bytes.size(); }
    // Without unpacking, for a table's sort keys: LockView::freeInMs, and a node's NodeLockState::pttlMs (-2 for a
    // node beyond nodeCount()), read by stepping over the variable-length part before it (tens of nanoseconds).
    qint64 freeInMs() const;
    qint64 pttlMs(int node) const;
    // The view's distinct tokens (its nodes', its own, its noExpiryToken), each once, numbered from 1: what a store
    // keeping a token beside the view (LockEventTracker::KeptQuorum) refers to instead of a copy. tokenNumber() is 0
    // for an empty token and for one the view does not have; token(0) is empty.
    int tokenNumber(QByteArrayView token) const;
    QByteArray token(int number) const;
    // Without unpacking, for the restart planner's walk over every lock: LockView::hasQuorum, and the nodes holding
    // the view's token (presence Holding with nodes[i].token == token), ascending, in one walk; `out` is cleared
    // first and its capacity reused.
    bool hasQuorum() const;
    void tokenHolders(QList<int>* out) const;

private:
    PackedViewBytes m_bytes;
};
static_assert(sizeof(PackedLockView) == sizeof(void*), "one per lock in a store's hash node: keep it one pointer");

} // namespace redlock
