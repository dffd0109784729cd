#include "observe/LockVerdict.h"

#include "redlock/RedlockRules.h"

#include <QVarLengthArray>

#include <algorithm>
#include <limits>

namespace redlock {

void judgeLock(LockView& view, const VerdictRules& rules)
{
    judgeLock(view, rules, view.observedAtNs);
}

void judgeLock(LockView& view, const VerdictRules& rules, qint64 nowNs)
{
    const int quorum = rules.quorum;
    using Presence = NodeLockState::Presence;
    view.quorum = quorum;
    view.restsOn.clear();
    view.observedValidityMs = -1;
    view.freeInMs = -1;
    view.uncounted.clear();
    view.noExpiryNodes.clear();
    view.noExpiryToken.clear();
    view.validityEnded = false;
    int unreachable = 0; // unreachable, refusing, quarantined or down: any may hold anything
    auto uncounted = [&](int i) {
        const NodeLockState& s = view.nodes[i];
        return s.presence == Presence::Unreachable || s.presence == Presence::Refused ||
               rules.quarantined.contains(i) || rules.down.contains(i);
    };
    QVarLengthArray<int, 16> tombstoneNodes; // nodes holding a lock-delay tombstone
    // Per node, the index of its token among the distinct tokens (first-seen order); -1 when it holds none.
    // Fixed-size arrays on the stack for the usual handful of nodes: this runs for every key of every pass.
    QVarLengthArray<int, 16> tokenOf(view.nodes.size(), -1);
    QVarLengthArray<int, 16> firstNodeOf;   // per distinct token: the first node holding it
    QVarLengthArray<int, 16> countOf;       // per distinct token: how many nodes hold it
    QVarLengthArray<int, 16> noExpiryCount; // per distinct token: how many of them hold it without expiry
    // One server, one vote: a node that is the same server as one read before it (rules::sameServerAs) holds
    // what that node holds; it is listed (restsOn) but counts no second holder, and an unreachable name of a
    // server that answered under another name counts as nothing unknown.
    QVarLengthArray<int, 16> answered;                           // nodes whose state counts
    QVarLengthArray<int, 16> unanswered;                         // distinct servers not answering
    QVarLengthArray<bool, 16> counted(view.nodes.size(), false); // the first name of its server among the holders
    for (int i = 0; i < view.nodes.size(); ++i) {
        if (!uncounted(i))
            answered.append(i);
    }
    for (int i = 0; i < view.nodes.size(); ++i) {
        const NodeLockState& s = view.nodes[i];
        if (rules.quarantined.contains(i))
            view.uncounted.append(i);
        if (uncounted(i)) {
            if (rules::sameServerAs(rules.runIds, i, answered) < 0 &&
                rules::sameServerAs(rules.runIds, i, unanswered) < 0) {
                unanswered.append(i);
                ++unreachable;
            }
        } else if (s.presence == Presence::Holding) {
            if (s.hashFields.isEmpty() && LockTombstone::isTombstone(s.token)) {
                tombstoneNodes.append(i);
                continue;
            }
            qsizetype t = 0;
            // Equal tokens usually share one buffer (mergeGroupKey): no comparison of their bytes then.
            const auto sameToken = [&s](const QByteArray& other) {
                return (other.constData() == s.token.constData() && other.size() == s.token.size()) || other == s.token;
            };
            while (t < firstNodeOf.size() && !sameToken(view.nodes[firstNodeOf[t]].token))
                ++t;
            if (t == firstNodeOf.size()) {
                firstNodeOf.append(i);
                countOf.append(0);
                noExpiryCount.append(0);
            }
            bool twin = false;
            for (int j = 0; j < i && !twin; ++j)
                twin = tokenOf[j] == int(t) && rules::sameServer(rules.runIds, i, j);
            tokenOf[i] = int(t);
            if (s.pttlMs < 0)
                view.noExpiryNodes.append(i);
            if (twin)
                continue;
            counted[i] = true;
            ++countOf[t];
            if (s.pttlMs < 0)
                ++noExpiryCount[t];
        }
    }
    qsizetype best = -1;
    qsizetype stuck = -1; // the token without expiry on the most nodes
    for (qsizetype t = 0; t < countOf.size(); ++t) {
        if (best < 0 || countOf[t] > countOf[best])
            best = t;
        if (noExpiryCount[t] > 0 && (stuck < 0 || noExpiryCount[t] > noExpiryCount[stuck]))
            stuck = t;
    }
    if (stuck >= 0) {
        view.noExpiryToken = view.nodes[firstNodeOf[stuck]].token;
        // On a tie the token named is one with an expiry: the value without expiry is named apart (noExpiryToken), and
        // an unknown verdict must not name it as the holder when a live holder's count is the same.
        for (qsizetype t = 0; best == stuck && t < countOf.size(); ++t) {
            if (t != stuck && countOf[t] == countOf[stuck])
                best = t;
        }
    }
    const int bestCount = best < 0 ? 0 : countOf[best];
    view.tokenCount = static_cast<int>(countOf.size());
    view.token = best < 0 ? QByteArray() : view.nodes[firstNodeOf[best]].token;
    view.holders = bestCount;
    auto nodesHolding = [&](qsizetype t) {
        QList<int> nodes;
        nodes.reserve(countOf[t]);
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (tokenOf[i] == t)
                nodes.append(i);
        }
        return nodes;
    };
    // After the quorum-th largest PTTL among the holders (no expiry: never), fewer than a quorum still hold it.
    qint64 quorumPttl = -1;
    if (bestCount >= quorum) {
        QVarLengthArray<qint64, 16> pttls;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (tokenOf[i] == best && counted[i])
                pttls.append(view.nodes[i].pttlMs < 0 ? std::numeric_limits<qint64>::max() : view.nodes[i].pttlMs);
        }
        std::sort(pttls.begin(), pttls.end(), std::greater<>());
        quorumPttl = pttls[quorum - 1];
    }
    const bool quorumRunsOut = bestCount >= quorum && quorumPttl != std::numeric_limits<qint64>::max();

    // Another token that the unreachable nodes could make a quorum of: whether the value without expiry is the lock
    // cannot be told (that holder may hold it), nor what a release would release.
    bool anotherMayHold = false;
    for (qsizetype t = 0; t < countOf.size() && stuck >= 0; ++t)
        anotherMayHold = anotherMayHold || (t != stuck && countOf[t] + unreachable >= quorum);
    if (stuck >= 0 && !quorumRunsOut && !anotherMayHold) {
        // No quorum that will run out: the value without expiry is the lock an operator must release (a quorum
        // of it is held for good).
        view.verdict = LockVerdict::Stuck;
        view.token = view.noExpiryToken;
        view.holders = countOf[stuck];
        view.restsOn = view.noExpiryNodes;
        best = stuck;
    } else if (quorumRunsOut) {
        view.restsOn = nodesHolding(best);
        // The TTL the holder asked for is unknown here, so the drift is taken on that PTTL (a slight
        // underestimate).
        const qint64 drift = rules::clockDriftMs(quorumPttl, rules.driftFactor);
        view.observedValidityMs = std::max<qint64>(0, quorumPttl - drift);
        const qint64 leftMs = view.remainingValidityMs(nowNs);
        if (leftMs <= 0 && nowNs > view.observedAtNs) {
            // Its validity ran out since the read: not held any more as far as we know, and not known free.
            view.verdict = LockVerdict::Unknown;
            view.validityEnded = true;
        } else {
            view.verdict = leftMs < rules.expiringThresholdMs ? LockVerdict::Expiring : LockVerdict::Held;
        }
    } else if (bestCount + unreachable >= quorum) {
        view.verdict = LockVerdict::Unknown;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (uncounted(i))
                view.restsOn.append(i);
        }
    } else if (countOf.size() >= 2) {
        view.verdict = LockVerdict::Contested;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (tokenOf[i] >= 0) // holding a token: a tombstone is nobody's
                view.restsOn.append(i);
        }
    } else if (!tombstoneNodes.isEmpty()) {
        // Released by an operator with a lock-delay: free once a newcomer's SET NX can succeed on a quorum, i.e.
        // once enough of the nodes with anything in the key (tombstones, a leftover, unknown ones) let go.
        view.verdict = LockVerdict::ReleasedByOperator;
        view.restsOn = QList<int>(tombstoneNodes.cbegin(), tombstoneNodes.cend());
        view.token = view.nodes[tombstoneNodes.first()].token;
        view.holders = 0;
        QList<qint64> blocked(view.nodes.size(), 0);
        for (int i = 0; i < view.nodes.size(); ++i) {
            const NodeLockState& s = view.nodes[i];
            if (uncounted(i))
                blocked[i] = -1;
            else if (s.presence == Presence::Holding || s.presence == Presence::NotALock)
                blocked[i] = s.pttlMs >= 0 ? s.pttlMs : -1;
        }
        view.freeInMs = rules::quorumFreeInMs(blocked, rules.runIds);
        view.holder = SharedHolder::ofValue(view.key, view.token); // from the view's token (the tombstone)
        return;
    } else if (countOf.size() == 1) {
        view.verdict = LockVerdict::MinorityLeftover;
        view.restsOn = nodesHolding(best);
    } else {
        view.verdict = LockVerdict::Free;
        for (int i = 0; i < view.nodes.size(); ++i) {
            if (!uncounted(i))
                view.restsOn.append(i);
        }
    }
    view.holder = {};
    if (best >= 0) {
        const NodeLockState& s = view.nodes[firstNodeOf[best]];
        view.holder = s.hashFields.isEmpty() ? SharedHolder::ofValue(view.key, s.token, firstNodeOf[best])
                                             : SharedHolder::ofRedissonHash(s.hashFields, firstNodeOf[best]);
    }
}

} // namespace redlock
