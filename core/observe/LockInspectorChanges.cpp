#include "observe/LockInspector.h"

#include "observe/LockInspectorPass.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <system_error>
#include <thread>

namespace redlock {

using inspector::kNsPerMs;
using inspector::wallNowMs;

namespace {
// m_validityDue is a min-heap on the instant.
constexpr auto kLaterFirst = [](const std::pair<qint64, QByteArray>& a, const std::pair<qint64, QByteArray>& b) {
    return a.first > b.first;
};

// Sorts key names as QByteArray's operator< does, faster: lock names share a long prefix ("lock:order:"), so
// comparing them byte by byte is a memcmp call per comparison that mostly walks the shared part (a tenth of a
// bounded hand-off's work at 300,000 locks). Here each name's next 8 bytes after the prefix all share are one
// integer, and only names equal in those are compared further.
void sortKeys(QList<QByteArray>& keys)
{
    if (keys.size() < 2)
        return;
    qsizetype shared = keys.front().size();
    for (const QByteArray& key : std::as_const(keys)) {
        const QByteArray& first = keys.front();
        qsizetype i = 0;
        const qsizetype most = std::min(shared, key.size());
        while (i < most && key[i] == first[i])
            ++i;
        shared = i;
    }
    struct Entry
    {
        quint64 next8; // big-endian, zero-padded: orders as the bytes do, ties broken by the rest
        qsizetype index;
    };
    std::vector<Entry> entries(size_t(keys.size()));
    for (qsizetype k = 0; k < keys.size(); ++k) {
        const QByteArray& key = keys[k];
        quint64 v = 0;
        for (qsizetype i = 0; i < 8; ++i)
            v = (v << 8) | (shared + i < key.size() ? quint8(key[shared + i]) : 0);
        entries[size_t(k)] = {v, k};
    }
    std::sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
        if (a.next8 != b.next8)
            return a.next8 < b.next8;
        return keys[a.index] < keys[b.index];
    });
    // In place, cycle by cycle (the key at position p comes from entries[p].index): no second list of every key
    // beside the first (2.4 MB at 100,000 keys).
    for (size_t start = 0; start < entries.size(); ++start) {
        if (entries[start].index < 0)
            continue; // placed by an earlier cycle
        QByteArray first = std::move(keys[qsizetype(start)]);
        size_t at = start;
        while (true) {
            const qsizetype from = std::exchange(entries[at].index, -1);
            if (size_t(from) == start) {
                keys[qsizetype(at)] = std::move(first);
                break;
            }
            keys[qsizetype(at)] = std::move(keys[from]);
            at = size_t(from);
        }
    }
}
} // namespace

void LockInspector::judgeAllAgain()
{
    const VerdictRules rules = verdictRules();
    const qint64 now = m_clock->nowNs();
    QHash<QByteArray, LockView> updated;
    QSet<QByteArray> touched;
    for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
        const LockView view = it->view.unpack(it.key());
        LockView judged = view;
        judgeLock(judged, rules, now);
        if (judged.sameStateAs(view))
            continue;
        touched.insert(view.key);
        updated.insert(view.key, std::move(judged));
    }
    if (!touched.isEmpty())
        applyChanges(std::move(updated), touched, Apply::Events);
}

LockInspector::ValidityInstants LockInspector::validityInstants(const PackedLockView& view) const
{
    // As judgeLock counts: whole milliseconds elapsed since the read. Expiring once fewer than the threshold are
    // left, i.e. from the (validity - threshold + 1)th millisecond on; ended from the validity's millisecond on.
    const qint64 endNs = view.observedAtNs() + view.observedValidityMs() * kNsPerMs;
    return {endNs - (m_options.expiringThresholdMs - 1) * kNsPerMs, endNs};
}

std::optional<qint64> LockInspector::goneInstant(const PackedLockView& view)
{
    // The millisecond after the longest PTTL read on a node holding anything in the key (a leftover, a contested
    // value, a tombstone): all of it has expired by then. None when a node holds it without expiry.
    qint64 longestMs = -1;
    for (int i = 0; i < view.nodeCount(); ++i) {
        if (view.presence(i) != NodeLockState::Presence::Holding)
            continue;
        const qint64 pttl = view.pttlMs(i);
        if (pttl < 0)
            return std::nullopt;
        longestMs = std::max(longestMs, pttl);
    }
    if (longestMs < 0)
        return std::nullopt;
    return view.observedAtNs() + (longestMs + 1) * kNsPerMs;
}

std::optional<qint64> LockInspector::nextValidityInstant(const PackedLockView& view, qint64 afterNs) const
{
    if (m_viewSink)
        return std::nullopt;
    if (!view.isHeld())
        return goneInstant(view); // re-read then: no view outlives the keys it was read from
    if (view.observedValidityMs() < 0)
        return std::nullopt;
    // One instant of the view at a time: when it turns expiring, and only then (onValidityTimer) when its validity
    // ends.
    const ValidityInstants at = validityInstants(view);
    const bool turnsExpiring =
        view.verdict() == LockVerdict::Held && at.expiringNs > std::max(view.observedAtNs(), afterNs);
    return turnsExpiring ? at.expiringNs : at.endNs;
}

void LockInspector::noteValidity(const QByteArray& key, const PackedLockView& view, qint64 afterNs)
{
    // The instants of views replaced since are dropped when they come due.
    const std::optional<qint64> instant = nextValidityInstant(view, afterNs);
    if (!instant)
        return;
    if (m_validityHorizonNs == std::numeric_limits<qint64>::min())
        m_validityHorizonNs = m_clock->nowNs() + kValidityHorizonNs;
    if (*instant > m_validityHorizonNs) {
        m_validityBeyond = true; // sweepValidity() pushes it once the horizon is near it
        return;
    }
    m_validityDue.emplace_back(*instant, key);
    std::push_heap(m_validityDue.begin(), m_validityDue.end(), kLaterFirst);
}

void LockInspector::sweepValidity(qint64 nowNs)
{
    // Every instant up to the old horizon was pushed when its view was noted (or by an earlier sweep); those after it
    // and up to the new one are pushed now, each view's next one after the old horizon as noteValidity() takes it.
    const qint64 from = m_validityHorizonNs;
    m_validityHorizonNs = std::max(from, nowNs + kValidityHorizonNs);
    m_validityBeyond = false;
    for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
        const std::optional<qint64> instant = nextValidityInstant(it->view, from);
        if (!instant || *instant <= from)
            continue;
        if (*instant > m_validityHorizonNs) {
            m_validityBeyond = true;
            continue;
        }
        m_validityDue.emplace_back(*instant, it.key());
        std::push_heap(m_validityDue.begin(), m_validityDue.end(), kLaterFirst);
    }
}

void LockInspector::armValidityTimer()
{
    // The sweep is due when half the horizon is left.
    std::optional<qint64> nextNs;
    if (!m_validityDue.empty())
        nextNs = m_validityDue.front().first;
    if (m_validityBeyond)
        nextNs =
            std::min(nextNs.value_or(std::numeric_limits<qint64>::max()), m_validityHorizonNs - kValidityHorizonNs / 2);
    if (!nextNs) {
        m_validityTimer.stop();
        return;
    }
    const qint64 waitNs = *nextNs - m_clock->nowNs();
    // +1 ms: the timer's millisecond must not fire a hair before the instant it waits for.
    const qint64 waitMs = waitNs <= 0 ? 0 : waitNs / kNsPerMs + 1;
    m_validityTimer.start(int(std::min<qint64>(waitMs, std::numeric_limits<int>::max())));
}

void LockInspector::onValidityTimer()
{
    const VerdictRules rules = verdictRules();
    const qint64 now = m_clock->nowNs();
    QHash<QByteArray, LockView> updated;
    QSet<QByteArray> touched;
    if (m_validityBeyond && now >= m_validityHorizonNs - kValidityHorizonNs / 2)
        sweepValidity(now);
    while (!m_validityDue.empty() && m_validityDue.front().first <= now) {
        std::pop_heap(m_validityDue.begin(), m_validityDue.end(), kLaterFirst);
        const auto [instant, key] = std::move(m_validityDue.back());
        m_validityDue.pop_back();
        const auto it = m_views.constFind(key);
        if (it == m_views.cend() || touched.contains(key))
            continue;
        if (!it->view.isHeld()) {
            // No quorum, nothing to judge: what it was read from has expired everywhere by now (its own instant,
            // not one of a view replaced since), and only a read tells what is left.
            if (instant == goneInstant(it->view))
                m_touched[key] |= 0;
            continue;
        }
        // An instant of a view replaced since (a re-read, an extension): the current view has its own.
        if (const ValidityInstants at = validityInstants(it->view); instant != at.expiringNs && instant != at.endNs)
            continue;
        const LockView view = it->view.unpack(it.key());
        LockView judged = view;
        judgeLock(judged, rules, now);
        if (judged.validityEnded)
            m_touched[key] |= 0; // extended unseen, or gone: only a read tells (no event's name with it)
        if (judged.sameStateAs(view)) {
            noteValidity(it.key(), it->view, now); // its next instant
            continue;
        }
        touched.insert(key);
        updated.insert(key, std::move(judged));
    }
    if (!touched.isEmpty())
        applyChanges(std::move(updated), touched, Apply::Events);
    if (!m_touched.isEmpty() && !m_flushInFlight && !m_eventTimer.isActive())
        m_eventTimer.start();
    armValidityTimer();
}

LockEventTracker::Phase LockInspector::eventPhase(bool fullPass)
{
    // The first full pass is the baseline: the locks it finds were not acquired just now. The holders it finds
    // are told as seen held (the lock history starts "at least since" intervals with them), nothing else; a key
    // read from a live change before it completed is seen held too, not acquired.
    using Phase = LockEventTracker::Phase;
    const Phase phase = m_baselineDone ? Phase::Watching : fullPass ? Phase::Baseline : Phase::Starting;
    if (fullPass)
        m_baselineDone = true;
    return phase;
}

void LockInspector::noteChange(const QByteArray& key, LastQuorum& last, const LockView* before, LockView* after,
                               const PackedLockView* afterStored, LockEventTracker::Phase phase, LockChangeSet& changes,
                               QList<LockEvent>& events, LockEventTracker::Evidence evidence)
{
    m_events.derive(last, key, before, after, changes.atMs, &events, phase, evidence);
    // The view goes out with its stored bytes (the table keeps those), and only as it is stored.
    Q_ASSERT(!after || !afterStored || afterStored->sameBytesAs(PackedLockView(*after)));
    if (after && afterStored)
        after->packed = afterStored->bytes();
    if (!before)
        changes.appeared.append(std::move(*after));
    else if (!after)
        changes.disappeared.append(key);
    else if (!before->sameStateAs(*after))
        changes.changed.append(std::move(*after));
}

LockInspector::LastQuorum LockInspector::takeQuorum(const QByteArray& key, const StoredLock* from)
{
    if (from && !from->quorum.isNull())
        return from->quorum.unpack(from->view);
    if (m_quorumsAside.isEmpty())
        return std::nullopt;
    const auto aside = m_quorumsAside.find(key);
    if (aside == m_quorumsAside.end())
        return std::nullopt;
    LastQuorum last = std::move(aside.value());
    m_quorumsAside.erase(aside);
    return last;
}

void LockInspector::keepQuorum(const QByteArray& key, LastQuorum last, StoredLock* beside)
{
    if (beside)
        beside->quorum =
            last ? LockEventTracker::KeptQuorum::pack(*last, beside->view) : LockEventTracker::KeptQuorum();
    if (last && (!beside || beside->quorum.isNull()))
        m_quorumsAside.insert(key, std::move(*last));
}

bool LockInspector::keepUnchanged(StoredLock& stored, const PackedLockView& kept, const LastQuorum& last)
{
    const auto quorum = last ? LockEventTracker::KeptQuorum::pack(*last, kept) : LockEventTracker::KeptQuorum();
    if (last && quorum.isNull())
        return false;
    stored.view = kept;
    stored.quorum = quorum;
    return true;
}

void LockInspector::publish(LockChangeSet& changes, QList<LockEvent>& events)
{
    if (!changes.isEmpty()) {
        changes.locksPerNode = m_locksPerNode;
        emit locksChanged(changes);
    }
    if (!events.isEmpty())
        emit lockEvents(events);
}

void LockInspector::applyFullPass(PackedViews updated, const QSet<QByteArray>& keep)
{
    // Every key of the new views and of the old ones, but those in `keep` (their views are the same in both).
    // The views are replaced first, then the changes go out, in chunks of InspectorOptions::fullPassChunk when set:
    // a first pass over 100,000 locks otherwise builds one change set and one event list of 100,000 each on top of
    // the views, 40 MB at once (docs/benchmarks.md). Every chunk is a full refresh's part, in order, and carries the
    // counts after the whole pass.
    // A hand-off still under way ends first: its locks are told before this pass replaces their views.
    continueHandOff(true);
    // Keys that keyspace events named during the pass were re-read (or are being re-read) after this pass read them,
    // or instead of it: what the events made of them is newer than anything the pass read. The pass neither
    // overwrites nor drops them; they keep their current state (as the hand-off just told it, their last quorums
    // beside them), and a flush still pending brings them up to date.
    for (const QByteArray& key : keep) {
        const auto current = m_views.constFind(key);
        if (current != m_views.cend())
            updated.insert(key, current.value());
        else
            updated.remove(key);
    }
    PackedViews before = std::exchange(m_views, std::move(updated));
    const bool bounded = m_options.fullPassChunk > 0 && m_options.fullPassChunksAhead > 0;
    // The walk over every view (the per-node counts, the validity instants) and a bounded hand-off's sorted list
    // of the names to tell only read the views and write different members: from kWalkAsideFrom views on, the walk
    // runs on a thread of its own beside the list and its sort (at 1M locks 0.3 s of cache misses beside 0.4 s),
    // on a core that has nothing else to do while the consumer waits for the first chunk. Joined at the end of
    // this block; nothing else runs on this thread meanwhile.
    QList<QByteArray> order;
    {
        const auto walk = [this] {
            m_locksPerNode.fill(0);
            m_validityDue.clear();
            m_validityBeyond = false;
            for (auto it = m_views.cbegin(); it != m_views.cend(); ++it) {
                countHolding(it->view, 1);
                noteValidity(it.key(), it->view);
            }
        };
        std::optional<std::jthread> aside;
        if (bounded && m_views.size() >= kWalkAsideFrom) {
            try {
                aside.emplace(walk);
            } catch (const std::system_error&) {
                // No thread to be had (a process at its limit): the walk here, as below kWalkAsideFrom.
            }
        }
        if (!aside)
            walk();
        if (bounded) {
            order.reserve(m_views.size());
            for (auto after = m_views.cbegin(); after != m_views.cend(); ++after) {
                if (!keep.contains(after.key()))
                    order.append(after.key());
            }
            for (auto was = before.cbegin(); was != before.cend(); ++was) {
                if (!keep.contains(was.key()) && !m_views.contains(was.key()))
                    order.append(was.key());
            }
            sortKeys(order);
        }
    }
    armValidityTimer();

    const LockEventTracker::Phase phase = eventPhase(true);
    if (bounded) {
        // Bounded: only the names of the keys to tell are kept (one shared copy each), their chunks built as the
        // consumer takes the previous ones.
        HandOff handOff;
        handOff.phase = phase;
        handOff.order = std::move(order);
        handOff.untold = handOff.total = handOff.order.size();
        handOff.before = std::move(before);
        m_handOff = std::move(handOff);
        continueHandOff(false);
        return;
    }
    LockChangeSet changes;
    QList<LockEvent> events;
    auto startChunk = [&] {
        changes = LockChangeSet();
        changes.fullRefresh = true;
        changes.atMs = wallNowMs();
        events = QList<LockEvent>(); // not clear(): a list shared with a receiver would keep its capacity
    };
    startChunk();
    // The first pass makes every lock appear and tells every holder as seen held: one allocation each, not a
    // doubling series of 100,000.
    if (before.isEmpty() && m_options.fullPassChunk <= 0) {
        changes.appeared.reserve(m_views.size());
        events.reserve(m_views.size());
    }
    auto endChunk = [&](bool last) {
        const qsizetype chunk = m_options.fullPassChunk;
        if (last ||
            (chunk > 0 && (changes.appeared.size() + changes.changed.size() + changes.disappeared.size() >= chunk ||
                           events.size() >= chunk))) {
            publish(changes, events);
            if (!last)
                startChunk();
        }
    };
    // The last quorums move from beside the views replaced to beside the new ones (the keys in `keep` have theirs).
    for (auto after = m_views.begin(); after != m_views.end(); ++after) {
        if (keep.contains(after.key()))
            continue;
        const auto was = before.constFind(after.key());
        LockView afterView = after->view.unpack(after.key());
        LastQuorum last = takeQuorum(after.key(), was != before.cend() ? &was.value() : nullptr);
        if (was != before.cend()) {
            const LockView beforeView = was->view.unpack(was.key());
            const bool unchanged = beforeView.sameStateAs(afterView);
            noteChange(after.key(), last, &beforeView, &afterView, &after->view, phase, changes, events);
            // As a bounded hand-off does (tellUntold).
            if (unchanged && keepUnchanged(after.value(), was->view, last)) {
                noteValidity(after.key(), after->view);
                endChunk(false);
                continue;
            }
        } else {
            noteChange(after.key(), last, nullptr, &afterView, &after->view, phase, changes, events);
        }
        keepQuorum(after.key(), std::move(last), &after.value());
        endChunk(false);
    }
    for (auto was = before.cbegin(); was != before.cend(); ++was) {
        if (!keep.contains(was.key()) && !m_views.contains(was.key())) {
            const LockView beforeView = was->view.unpack(was.key());
            LastQuorum last = takeQuorum(was.key(), &was.value());
            noteChange(was.key(), last, &beforeView, nullptr, nullptr, phase, changes, events);
            keepQuorum(was.key(), std::move(last), nullptr);
            endChunk(false);
        }
    }
    endChunk(true);
}

void LockInspector::fullPassChunkTaken()
{
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_chunksOut = std::max(0, m_chunksOut - 1);
            continueHandOff(false);
        },
        Qt::QueuedConnection);
}

void LockInspector::holdHandOff(bool hold)
{
    QMetaObject::invokeMethod(
        this,
        [this, hold] {
            m_handOffHeld = hold;
            if (!hold)
                continueHandOff(false);
        },
        Qt::QueuedConnection);
}

void LockInspector::continueHandOff(bool drain)
{
    while (m_handOff && (drain || (!m_handOffHeld && m_chunksOut < m_options.fullPassChunksAhead))) {
        LockChangeSet changes;
        changes.fullRefresh = true;
        changes.atMs = wallNowMs();
        changes.handOffSize = m_handOff->total;
        QList<LockEvent> events;
        const qsizetype chunk = m_options.fullPassChunk;
        // A first pass's chunk is all new locks, most with a "seen held": their room at once, not grown.
        if (m_handOff->before.isEmpty()) {
            const qsizetype expected = std::min(chunk, m_handOff->untold);
            changes.appeared.reserve(expected);
            events.reserve(expected);
        }
        auto room = [&] {
            return changes.appeared.size() + changes.changed.size() + changes.disappeared.size() < chunk &&
                   events.size() < chunk;
        };
        HandOff& handOff = *m_handOff;
        // The next keys' views are looked up a few at a time, back to back, then told: in a hash of 1M locks each
        // lookup waits on a few cache misses, and lookups of different keys, done side by side, wait on theirs at
        // the same time (a quarter of the inspector's time after a first pass at 1M went to these lookups, one
        // after another). Nothing here adds or removes a stored lock, so the iterators stay valid until told.
        constexpr qsizetype kLookAhead = 16;
        std::array<PackedViews::iterator, kLookAhead> found;
        while (handOff.next < handOff.order.size() && room()) {
            const qsizetype n = std::min(kLookAhead, handOff.order.size() - handOff.next);
            for (qsizetype i = 0; i < n; ++i)
                found[i] = m_views.find(handOff.order[handOff.next + i]);
            for (qsizetype i = 0; i < n; ++i)
                if (found[i] != m_views.end())
                    __builtin_prefetch(found[i]->view.bytes().constData());
            for (qsizetype i = 0; i < n && room(); ++i) {
                const QByteArray key = std::move(handOff.order[handOff.next++]);
                if (!handOff.toldEarly.isEmpty() && handOff.toldEarly.remove(key))
                    continue;
                tellUntold(key, found[i], changes, events);
            }
        }
        // The keys told are let go as the hand-off goes (the consumer's own store grows meanwhile): once half the
        // list is told, the rest moves to a list of its own size.
        if (handOff.next >= 1024 && handOff.next * 2 >= handOff.order.size()) {
            QList<QByteArray> rest(std::make_move_iterator(handOff.order.begin() + handOff.next),
                                   std::make_move_iterator(handOff.order.end()));
            handOff.order = std::move(rest);
            handOff.next = 0;
        }
        const bool last = handOff.untold == 0;
        if (last)
            m_handOff.reset();
        sendHandOffChunk(changes, events);
        if (last)
            emit fullPassTold();
    }
}

void LockInspector::tellEarly(const QSet<QByteArray>& keys)
{
    if (!m_handOff)
        return;
    LockChangeSet changes;
    changes.fullRefresh = true;
    changes.atMs = wallNowMs();
    QList<LockEvent> events;
    for (const QByteArray& key : keys) {
        if (m_handOff->isUntold(key)) {
            m_handOff->toldEarly.insert(key);
            tellUntold(key, changes, events);
        }
    }
    const bool last = m_handOff->untold == 0;
    if (last)
        m_handOff.reset();
    sendHandOffChunk(changes, events);
    if (last)
        emit fullPassTold();
}

void LockInspector::tellUntold(const QByteArray& key, LockChangeSet& changes, QList<LockEvent>& events)
{
    tellUntold(key, m_views.find(key), changes, events);
}

void LockInspector::tellUntold(const QByteArray& key, PackedViews::iterator after, LockChangeSet& changes,
                               QList<LockEvent>& events)
{
    // The view is still the pass's own: a change to it tells it first (tellEarly), a new pass ends the hand-off first.
    // Its last quorum is still beside the view the pass replaced (or aside); it goes beside the pass's own.
    const PackedViews& replaced = m_handOff->before;
    const auto was = replaced.constFind(key);
    --m_handOff->untold;
    if (was == replaced.cend() && after == m_views.end())
        return;
    const std::optional<LockView> beforeView =
        was != replaced.cend() ? std::optional(was->view.unpack(key)) : std::nullopt;
    std::optional<LockView> afterView = after != m_views.end() ? std::optional(after->view.unpack(key)) : std::nullopt;
    LastQuorum last = takeQuorum(key, was != replaced.cend() ? &was.value() : nullptr);
    const bool unchanged = beforeView && afterView && beforeView->sameStateAs(*afterView);
    noteChange(key, last, beforeView ? &*beforeView : nullptr, afterView ? &*afterView : nullptr,
               afterView ? &after->view : nullptr, m_handOff->phase, changes, events);
    if (unchanged && keepUnchanged(after.value(), was->view, last)) {
        noteValidity(key, after->view); // the pass's walk noted the instants of the view read, not of this one
        return;
    }
    keepQuorum(key, std::move(last), after != m_views.end() ? &after.value() : nullptr);
}

bool LockInspector::HandOff::isUntold(const QByteArray& key) const
{
    const auto from = order.cbegin() + next;
    const auto it = std::lower_bound(from, order.cend(), key);
    return it != order.cend() && *it == key && !toldEarly.contains(key);
}

void LockInspector::sendHandOffChunk(LockChangeSet& changes, QList<LockEvent>& events)
{
    if (changes.isEmpty() && events.isEmpty())
        return;
    publish(changes, events);
    ++m_chunksOut;
    emit fullPassChunkSent();
}

void LockInspector::applyChanges(QHash<QByteArray, LockView> updated, const QSet<QByteArray>& touched, Apply how,
                                 const EventNames* told)
{
    // A read that finds a lock as it is stored (the same holders, its PTTLs only ticked down: LockView::sameStateAs)
    // leaves the stored view, and its bytes, as they are: the table shares them (one copy a lock, where a rescan
    // made it two at 1M), and nothing is told. Locks of a full pass not told yet are told before their views change
    // (a bounded hand-off under way), and left to the hand-off where they do not.
    std::optional<QSet<QByteArray>> remaining;
    if (m_handOff) {
        QSet<QByteArray> early;
        for (const QByteArray& key : touched) {
            if (!m_handOff->isUntold(key))
                continue;
            const auto stored = m_views.find(key);
            const auto read = updated.constFind(key);
            if (stored != m_views.end() && read != updated.cend() && stored->view.unpack(key).sameStateAs(*read)) {
                // Nobody has its bytes yet: the hand-off tells the newest read (the last that saw it held).
                stored->view = PackedLockView(*read);
                noteValidity(key, stored->view);
                if (!remaining)
                    remaining = touched;
                remaining->remove(key);
            } else {
                early.insert(key);
            }
        }
        tellEarly(early);
    }
    // Endings no event has named yet wait for one more read after the next batch of events (deferUntoldEndings).
    if (const QList<QByteArray> later = deferUntoldEndings(told, updated, remaining ? *remaining : touched);
        !later.isEmpty()) {
        if (!remaining)
            remaining = touched;
        for (const QByteArray& key : later)
            remaining->remove(key);
    }
    const QSet<QByteArray>& apply = remaining ? *remaining : touched;
    LockChangeSet changes;
    changes.fullRefresh = how == Apply::ScanPart;
    changes.atMs = wallNowMs();
    QList<LockEvent> events;
    const LockEventTracker::Phase phase = eventPhase(false);
    const qint64 nowNs = m_clock->nowNs();
    // Each key's events, then its new view with its last quorum beside it.
    for (const QByteArray& key : apply) {
        auto it = m_views.find(key);
        const auto after = updated.find(key); // `updated` is this call's own: no copy
        const bool had = it != m_views.end();
        const bool has = after != updated.end();
        if (!had && !has)
            continue;
        const std::optional<LockView> before = had ? std::optional(it->view.unpack(key)) : std::nullopt;
        LockEventTracker::Evidence evidence;
        if (told) {
            const auto names = told->constFind(key);
            evidence.live = names != told->cend();
            evidence.names = evidence.live ? names.value() : 0;
        }
        LastQuorum last = takeQuorum(key, had ? &it.value() : nullptr);
        const bool unchanged = had && has && before->sameStateAs(after.value());
        // Packed before noteChange() moves the view into the change set (an unchanged one it does not move).
        PackedLockView packed = has && !unchanged ? PackedLockView(after.value()) : PackedLockView();
        noteChange(key, last, had ? &*before : nullptr, has ? &after.value() : nullptr,
                   has && !unchanged ? &packed : nullptr, phase, changes, events, evidence);
        if (unchanged) {
            // The stored view keeps its validity instants, noted when it was stored; but where its next one has
            // come already (a leftover read again when its PTTLs ran out and found a hair from expiry), the read
            // goes in its place with its own, or nothing would ever read it again.
            const std::optional<qint64> next = nextValidityInstant(it->view, 0);
            if ((!next || *next > nowNs) && keepUnchanged(it.value(), it->view, last))
                continue;
            packed = PackedLockView(after.value()); // seen 24 days after the stored read: the read goes in its place
        }
        if (had)
            countHolding(it->view, -1);
        if (!has) {
            if (had)
                m_views.erase(it);
            keepQuorum(key, std::move(last), nullptr);
            continue;
        }
        if (had)
            it->view = packed;
        else
            it = m_views.insert(key, StoredLock{packed, {}});
        keepQuorum(key, std::move(last), &it.value());
        countHolding(it->view, 1);
        noteValidity(it.key(), it->view); // the stored key: the heap's entry shares its bytes
    }
    armValidityTimer();
    publish(changes, events);
}

void LockInspector::countHolding(const PackedLockView& view, int delta)
{
    for (int i = 0; i < view.nodeCount() && i < m_locksPerNode.size(); ++i) {
        if (view.presence(i) == NodeLockState::Presence::Holding)
            m_locksPerNode[i] += delta;
    }
}

} // namespace redlock
