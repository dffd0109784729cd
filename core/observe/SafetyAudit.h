#pragma once

#include "observe/ObservationTypes.h"
#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QList>

namespace redlock {

// What the audit looks at: node facts from the NodeSessions and what the inspector saw.
struct AuditInput
{
    QList<NodeFacts> nodes; // one per configured node, in configuration order
    qint64 maxTtlMs = 0;    // the largest lock TTL in use: rules::auditMaxTtlMs; 0 = unknown
    double driftFactor = rules::kDefaultDriftFactor;
    qint64 defaultTtlMs = rules::kDefaultMaxTtlMs; // used when maxTtlMs is unknown
};

// The checks of what the Redlock seeds say breaks mutual exclusion. Pure: same input, same findings.
//
//  replica        node is a replica (it cannot take locks, and a replica of another listed master is not
//                 independent)                                                                  severe
//  has-replicas   node has replicas: failover after an async replication loses locks            warning
//  persistence    no AOF, or appendfsync not "always": a restart can lose acquired locks        warning
//                 ... and fencing counters found on some node: tokens can go backwards          severe
//  restart-early  such a node was seen restarting with an estimated downtime < max TTL + drift   severe
//                 (NodeSession estimates the downtime low: a restart too early is flagged, not missed)
//  recent-start   such a node is younger than the max TTL (its downtime was not observed)       warning
//  eviction       maxmemory-policy other than noeviction (severe when a memory limit is set)    warning/severe
//  clock-offset   |clock offset| beyond the drift budget (maxTtl * driftFactor + 2 ms)          warning
//  same-server    two endpoints answer with the same run_id: one server counted twice          severe
//  node-count     N even (no extra fault tolerance) / N < 3 (no fault tolerance)               warning/severe
//  unverified     a node's facts could not be read (down, or INFO/CONFIG refused)               info
//                 (severe when the nodes that could not be read leave fewer than a quorum)
//  not-yet-audited  a node's first facts round has not come back yet (start-up): not a failure   info
class SafetyAudit final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::SafetyAudit)

public:
    SafetyAudit() = delete;

    static QList<AuditFinding> run(const AuditInput& input);
    static bool hasSevere(const QList<AuditFinding>& findings);
    // The largest PTTL among the locks of a snapshot (a lower bound of the largest TTL in use). Lock values
    // only: a force release's tombstone (LockTombstone) lives as long as its lock-delay (up to days with a fixed
    // one) and says nothing about the TTL clients use.
    static qint64 largestPttlMs(const QList<LockView>& locks);
    static qint64 largestPttlMs(const LockView& lock);
};

} // namespace redlock
