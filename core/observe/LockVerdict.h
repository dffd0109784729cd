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
};

// The verdict for one lock from its per-node states: pure, the heart of the inspector, tested directly.
// Reads like the Redlock document: a token on a quorum of nodes is held for the quorum-th largest PTTL
// among its holders, minus the clock drift; fewer holders are a leftover (one token) or a contest (several);
// nodes that cannot answer may hold anything, so a quorum that needs them is unknown, never free.
//
// A force release's LockTombstone is nobody's token: it never counts as a holder, never makes a contest or a
// leftover. When no token has a quorum and tombstones are present (and no contest), the verdict is
// ReleasedByOperator, with freeInMs = when a newcomer's SET NX can succeed on a quorum again.
//
// Sets view.verdict, token, holders, tokenCount, quorum, observedValidityMs, freeInMs, uncounted, holder and
// restsOn: Held/Expiring/MinorityLeftover -> the nodes holding the token; Contested -> the nodes holding any
// token; ReleasedByOperator -> the nodes holding a tombstone (token: the tombstone, holders 0); Free -> the
// nodes that answered; Unknown -> the unreachable (or refusing, or quarantined) nodes; Stuck -> the nodes
// holding a value without expiry (Stuck wins over every other verdict: it never resolves by itself).
void judgeLock(LockView& view, const VerdictRules& rules);

} // namespace redlock
