#include "observe/LockEventTracker.h"

#include "redlock/RedlockRules.h"

#include <QVarLengthArray>

#include <algorithm>
#include <limits>

namespace redlock {

namespace {
constexpr qint64 kNsPerMs = 1'000'000;
} // namespace

qint64 LockEventTracker::lastSeenHeldMs(const LastQuorum& last, qint64 nowMs) const
{
    // The steady instant of that read on the wall clock, never before the tenure began, never 0 ("exact").
    const qint64 ago = std::max<qint64>(0, m_clock->nowNs() - last.seenAtNs) / kNsPerMs;
    return std::max<qint64>({1, last.sinceMs, nowMs - ago});
}

quint8 ChangeEvidence::nameFlag(QByteArrayView event)
{
    if (event == "del" || event == "unlink")
        return Deleted;
    if (event == "expired")
        return Expired;
    if (event == "evicted")
        return Evicted;
    return Other;
}

LockEventTracker::KeptQuorum LockEventTracker::KeptQuorum::pack(const LastQuorum& last, const PackedLockView& beside)
{
    KeptQuorum kept;
    const int token = last.token.isEmpty() ? 0 : beside.tokenNumber(last.token);
    const qint64 endsAfterNs = last.endsNs - last.seenAtNs;
    const bool endsKept = last.endsNs == 0 || (endsAfterNs >= 0 && endsAfterNs % kNsPerMs == 0 &&
                                               endsAfterNs / kNsPerMs < std::numeric_limits<quint32>::max());
    const auto fits32 = [](qint64 v) {
        return v >= std::numeric_limits<qint32>::min() && v <= std::numeric_limits<qint32>::max();
    };
    const qint64 seenAfterNs = last.seenAtNs - beside.observedAtNs();
    const bool seenInMs = !fits32(seenAfterNs);
    // Floored: a restart in the millisecond after the read counts as after it.
    const qint64 seenAfter = seenInMs ? seenAfterNs / kNsPerMs - (seenAfterNs % kNsPerMs < 0 ? 1 : 0) : seenAfterNs;
    const qint64 sinceAfterMs = last.sinceMs - beside.observedAtMs();
    if ((token == 0 && !last.token.isEmpty()) || token > std::numeric_limits<quint8>::max() || !endsKept ||
        last.nodeMask > std::numeric_limits<quint16>::max() || !fits32(seenAfter) || !fits32(sinceAfterMs))
        return kept;
    kept.m_seenAfter = qint32(seenAfter);
    kept.m_sinceAfterMs = qint32(sinceAfterMs);
    // Ends never: the largest value, which no PTTL kept here reaches.
    kept.m_endsAfterMs = last.endsNs == 0 ? std::numeric_limits<quint32>::max() : quint32(endsAfterNs / kNsPerMs);
    kept.m_nodeMask = quint16(last.nodeMask);
    kept.m_token = quint8(token);
    kept.m_flags = kKept | (seenInMs ? kSeenInMs : 0);
    return kept;
}

LockEventTracker::LastQuorum LockEventTracker::KeptQuorum::unpack(const PackedLockView& beside) const
{
    LastQuorum last;
    last.token = beside.token(m_token);
    last.seenAtNs = beside.observedAtNs() + ((m_flags & kSeenInMs) ? qint64(m_seenAfter) * kNsPerMs : m_seenAfter);
    last.endsNs =
        m_endsAfterMs == std::numeric_limits<quint32>::max() ? 0 : last.seenAtNs + qint64(m_endsAfterMs) * kNsPerMs;
    last.nodeMask = m_nodeMask;
    last.sinceMs = beside.observedAtMs() + m_sinceAfterMs;
    return last;
}

void LockEventTracker::derive(const QByteArray& key, const LockView* before, const LockView* after, qint64 nowMs,
                              QList<LockEvent>* events, Phase phase, Evidence evidence)
{
    const auto kept = m_lastQuorum.find(key);
    std::optional<LastQuorum> last;
    if (kept != m_lastQuorum.end())
        last = std::move(kept.value());
    derive(last, key, before, after, nowMs, events, phase, evidence);
    if (last)
        m_lastQuorum.insert(key, std::move(*last));
    else if (kept != m_lastQuorum.end())
        m_lastQuorum.erase(kept);
}

void LockEventTracker::derive(std::optional<LastQuorum>& last, const QByteArray& key, const LockView* before,
                              const LockView* after, qint64 nowMs, QList<LockEvent>* events, Phase phase,
                              Evidence evidence)
{
    auto add = [&](LockEvent::Kind kind, const QByteArray& token, const QString& summary) -> LockEvent* {
        if (!events)
            return nullptr;
        LockEvent& e = events->emplace_back();
        e.kind = kind;
        e.key = key;
        e.token = token;
        e.atMs = nowMs;
        e.holderSummary = summary;
        return &e;
    };
    // "No holder" is no last quorum: an empty value is a token too.
    if (after && after->hasQuorum()) {
        LastQuorum seen;
        seen.token = after->token;
        seen.seenAtNs = after->observedAtNs;
        // After the quorum-th largest PTTL among the holders, fewer than a quorum still hold it (no TTL: never).
        QVarLengthArray<qint64, 16> pttls;
        for (int i = 0; i < after->nodes.size(); ++i) {
            const NodeLockState& s = after->nodes[i];
            if (s.presence != NodeLockState::Presence::Holding || s.token != after->token)
                continue;
            pttls.append(s.pttlMs < 0 ? std::numeric_limits<qint64>::max() : s.pttlMs);
            if (i < 64)
                seen.nodeMask |= quint64(1) << i;
        }
        std::sort(pttls.begin(), pttls.end(), std::greater<>());
        const qint64 quorumPttl = pttls.value(after->quorum - 1, 0);
        seen.endsNs =
            quorumPttl == std::numeric_limits<qint64>::max() ? 0 : after->observedAtNs + quorumPttl * kNsPerMs;
        seen.sinceMs = last && last->token == after->token ? last->sinceMs : nowMs;
        if (!last) {
            // Acquired only when the key was watched before and no holder was there: then it was acquired (about)
            // now. Before the first full inspection completed, or after an Unknown view, the holder may have held
            // it for long: it is seen held, its acquisition unknown.
            const bool startUnseen = phase != Phase::Watching || (before && before->verdict == LockVerdict::Unknown);
            add(startUnseen ? LockEvent::Kind::SeenHeld : LockEvent::Kind::Acquired, after->token,
                after->holder->summary);
            last = std::move(seen);
            return;
        }
        if (last->token == after->token && after->observedAtNs < last->seenAtNs) {
            // A view judged again from an older read than the last that saw it (the stored one, kept while later reads
            // found it unchanged: its verdict turning expiring, a node's restart): where and when it was last seen stay
            // that read's, the nodes holding it are this view's.
            last->nodeMask = seen.nodeMask;
            return;
        }
        if (last->token != after->token) {
            if (LockEvent* e = add(LockEvent::Kind::TokenChanged, after->token, after->holder->summary)) {
                e->previousToken = last->token;
                // No event told it: the old holder's end and the new one's start lie between the two reads.
                if (!evidence.live)
                    e->lastSeenHeldMs = lastSeenHeldMs(*last, nowMs);
            }
        } else if (last->endsNs > 0 && seen.endsNs > last->endsNs + kExtendSlackMs * kNsPerMs) {
            add(LockEvent::Kind::Extended, after->token, after->holder->summary);
        }
        *last = std::move(seen); // the same holder too: where and when it was last seen
        return;
    }
    if (after && after->verdict == LockVerdict::Unknown)
        return; // cannot tell: the last holder stays as it was
    if (phase == Phase::Baseline)
        return; // what the first inspection finds is the starting point, not news
    if (last) {
        // Nodes that held it when last seen on a quorum, do not now, and restarted since: had they kept their
        // data, would it still have its quorum? Then it was lost, not released.
        QList<int> restartedWithout;
        int stillHolding = 0;
        for (int i = 0; i < m_nodeCount; ++i) {
            const NodeLockState* now = after ? &after->nodes[i] : nullptr;
            if (now && now->presence == NodeLockState::Presence::Holding && now->token == last->token) {
                ++stillHolding;
                continue;
            }
            const bool heldThen = i < 64 && (last->nodeMask & (quint64(1) << i));
            if (heldThen && m_restartedAtNs[i] > last->seenAtNs)
                restartedWithout.append(i);
        }
        const bool lost =
            !restartedWithout.isEmpty() && stillHolding + restartedWithout.size() >= rules::quorum(m_nodeCount);
        // Found gone before its quorum was due to run out, it cannot have expired: it was deleted (released).
        // Otherwise only the nodes' keyspace events can tell a release from an expiry.
        constexpr qint64 slackNs = 50 * kNsPerMs;
        const qint64 nowNs = m_clock->nowNs();
        const bool couldHaveExpired = last->endsNs > 0 && nowNs + slackNs >= last->endsNs;
        using Name = Evidence::Name;
        const quint8 told = evidence.live ? evidence.names : 0;
        LockEvent::Kind kind = LockEvent::Kind::ReleasedOrExpired;
        if (lost)
            kind = LockEvent::Kind::Lost;
        else if (told & Name::Deleted)
            kind = LockEvent::Kind::Released;
        else if (told & Name::Evicted)
            kind = LockEvent::Kind::Evicted;
        else if (told & Name::Expired)
            kind = LockEvent::Kind::Expired;
        else if (!couldHaveExpired)
            kind = LockEvent::Kind::Released;
        LockEvent* e = add(kind, last->token, before ? before->holder->summary : QString());
        if (e && lost)
            e->nodes = restartedWithout;
        // Nobody saw it end: it ended after the last read that saw it held and before this one.
        if (e && !lost && !evidence.live)
            e->lastSeenHeldMs = lastSeenHeldMs(*last, nowMs);
        if (e && kind == LockEvent::Kind::ReleasedOrExpired)
            e->lastSeenHeldMs = lastSeenHeldMs(*last, nowMs);
        // An expiry happened when the validity ran out, which may be long before this view noticed it (a slow
        // pass, a missed keyspace event): that steady instant on the wall clock, never later than detection, and
        // never before the tenure's own start (a key read early in a long first pass is seen held, dated when the
        // pass ended, after its end by its PTTL then).
        if (e && kind == LockEvent::Kind::Expired && nowNs > last->endsNs)
            e->atMs = std::max(last->sinceMs, nowMs - (nowNs - last->endsNs) / kNsPerMs);
        last.reset();
    }
    if (after && after->verdict == LockVerdict::Contested && (!before || before->verdict != LockVerdict::Contested))
        add(LockEvent::Kind::Contested, after->token, after->holder->summary);
}

} // namespace redlock
