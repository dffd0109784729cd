#pragma once

#include "observe/ObservationTypes.h"

namespace redlock {

// What a verdict is judged against: the deployment's quorum and the Redlock spec's clock drift.
struct VerdictRules
{
    int quorum = 1;
    double driftFactor = 0.01;
    qint64 expiringThresholdMs = 1000; // held with less observed validity than this -> Expiring
    // Nodes out for a delayed restart (NodeRestartScheduler's quarantine): judged as if unreachable, whatever
    // they answer, and listed in LockView::uncounted. A node being stopped still answers with its locks, and one
    // back early may answer with locks reloaded from disk; neither vote can be trusted to last.
    QList<int> quarantined;
    // Nodes the watch sees down or not answering (ClusterWatch): judged as unreachable at once, whatever they
    // answered last, so a lock resting on one is not shown safe until a read says otherwise. Not listed in
    // LockView::uncounted (that is the quarantine's).
    QList<int> down;
    // One server, one vote (rules::distinctServers): per node, the run_id its connection read (the alias map; empty
    // or missing: unknown, a server of its own). A lock read on one server through two names counts one holder,
    // and an unreachable name of a server that answered under another name hides nothing.
    QList<QByteArray> runIds;
};

// The verdict for one lock from its per-node states: pure, the heart of the inspector, tested directly.
// Reads like the Redlock document: a token on a quorum of servers (nodes with one run_id count once) is held for the
// quorum-th largest PTTL among its holders, minus the clock drift; fewer holders are a leftover (one token) or a
// contest (several); nodes that cannot answer may hold anything, so a quorum that needs them is unknown, never free.
//
// A value without expiry (PTTL -1) is a fact of its own (view.noExpiryNodes, noExpiryToken), beside the verdict:
// a live quorum of another token stays Held with its validity; the verdict is Stuck only when no token has a
// quorum that will run out (no quorum at all, or one that never expires) and none could have one on the nodes that
// cannot answer (then it is Unknown, naming another token than the value without expiry where counts tie); when Stuck,
// its token is the value without expiry (what a force release must replace), not the most frequent one.
//
// A force release's LockTombstone is nobody's token: it never counts as a holder, never makes a contest or a
// leftover. When no token has a quorum and tombstones are present (and no contest), the verdict is
// ReleasedByOperator, with freeInMs = when a newcomer's SET NX can succeed on a quorum again.
//
// Time: the PTTLs are those of view.observedAtNs. Judged at a later steady instant nowNs, a quorum whose observed
// validity has run out by then is no longer held: Unknown with view.validityEnded (its holder may have extended it
// unseen, or it expired; only a new read tells), and Expiring once less than the threshold is left.
//
// Sets view.verdict, token, holders, tokenCount, quorum, observedValidityMs, freeInMs, uncounted, holder,
// noExpiryNodes, noExpiryToken, validityEnded and restsOn: Held/Expiring/MinorityLeftover -> the nodes holding the
// token; Contested -> the nodes holding any token; ReleasedByOperator -> the nodes holding a tombstone (token: the
// tombstone, holders 0); Free -> the nodes that answered; Unknown -> the unreachable (or refusing, quarantined,
// down) nodes, or the holders whose validity ended; Stuck -> the nodes holding a value without expiry.
void judgeLock(LockView& view, const VerdictRules& rules);
void judgeLock(LockView& view, const VerdictRules& rules, qint64 nowNs);

} // namespace redlock
