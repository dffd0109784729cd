#pragma once

#include "observe/LockInspector.h"
#include "observe/PackedLockView.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace redlock {

// A held lock that would fall below quorum while a node is out.
struct AffectedLock
{
    QByteArray key;
    QByteArray token;
    QString holderSummary;
    int holdersNow = 0;       // servers holding the token in the snapshot (names of one server count once)
    int holdersWhileDown = 0; // of those, the ones still counted while the node (every name of it) is out
    qint64 observedValidityMs = -1;
};

// What a plan reads of the locks, small enough to travel with a restart request: the planner's walk over them once
// (RestartPlanner::plan), for the nodes that were unavailable then.
struct LockSurvey
{
    qint64 largestPttlMs = -1;    // RestartPlan::largestPttlMs
    QList<AffectedLock> affected; // RestartPlan::affected
    int affectedCount = 0;        // RestartPlan::affectedCount
};

// What taking one node out for a delayed restart means, computed before anything is touched.
struct RestartPlan
{
    int node = -1;
    int nodeCount = 0;
    int quorum = 0;
    qint64 configuredMaxTtlMs = 0;
    qint64 largestPttlMs = -1; // largest PTTL of a lock value on this node in the snapshot; -1 = none seen
    qint64 driftMs = 0;
    qint64 defaultDelayMs = 0; // max(configured max TTL, largest PTTL) + drift
    // The locks that fall below quorum, by key: the first kAffectedListed of them when there are more (with a node
    // already down that can be every lock: 1M of them unpacked and listed would stall the console).
    QList<AffectedLock> affected;
    int affectedCount = 0;  // all of them
    QList<int> unavailable; // other nodes already down or quarantined (not the node's other names)
    QList<int> sameServer;  // the node's other names (same run_id): taking the node out takes them out too
    int nodesUpDuring = 0;  // distinct servers counted while this one is out
    bool breaksQuorum = false;
    QString sameServerNote;    // translated; set when sameServer is not empty
    QString quorumExplanation; // translated; set when breaksQuorum (ends with sameServerNote)
};

// The seeds' delayed-restart rule as pure functions: a node that may have lost its data must stay out
// longer than the largest TTL of any lock it could have held, so that every lock it voted for has expired
// everywhere before it votes again; and taking it out must not leave fewer than a quorum of nodes. A node is a
// server, not a name (rules::distinctServers): runIds has one entry per node (NodeFacts::runId; empty = unknown, a
// server of its own), taking a node out takes out every name with its run_id, and holders and nodes up are counted
// as distinct servers.
class RestartPlanner final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::RestartPlanner)

public:
    static constexpr int kAffectedListed = 1000;

    // The locks as the stores keep them, a key and its view packed (the console's table, LockInspector): a source
    // calls `visit` once per lock, during the call only. The planner reads the packed bytes (verdict, presences,
    // PTTLs, the nodes holding the token) and unpacks only the locks it lists in RestartPlan::affected, so that a plan
    // over 1M locks neither unpacks nor copies them. An empty source has no locks.
    using LockVisitor = std::function<void(const QByteArray& key, const PackedLockView& view)>;
    using LockSource = std::function<void(const LockVisitor& visit)>;
    // The same locks in ascending key order, a range at a time (what SurveyWalk walks): visits, in key order, up to
    // `count` locks whose key is greater than `*after` (from the first lock when `after` is null), during the call
    // only, and returns how many it visited. The console's table keeps key order, so a range is a binary search away.
    using KeyOrderedLocks =
        std::function<qsizetype(const QByteArray* after, qsizetype count, const LockVisitor& visit)>;
    // The snapshot's views packed one at a time and handed to the same walk: callers that hold LockViews go the way
    // the console goes, so that the two cannot disagree. The source refers to `snapshot`: use it while that lives.
    static LockSource locksOf(const LockSnapshot& snapshot);

    // max(configuredMaxTtlMs, largestPttlMs) + drift of that TTL.
    static qint64 defaultDelayMs(qint64 configuredMaxTtlMs, qint64 largestPttlMs, double driftFactor);
    // Largest PTTL among the lock values the locks hold on `node`; -1 when none.
    static qint64 largestPttlOnNode(const LockSource& locks, int node);
    // The node and its other names (same run_id), ascending.
    static QList<int> namesOfServer(int node, int nodeCount, const QList<QByteArray>& runIds);
    // Held locks that `node` (under any of its names) holds and whose holding servers, minus it and the unavailable
    // nodes, drop below quorum; the first kAffectedListed by key.
    static QList<AffectedLock> affectedLocks(const LockSource& locks, int node, int nodeCount,
                                             const QList<int>& unavailable, const QList<QByteArray>& runIds);
    // Both in one walk over the locks.
    static LockSurvey survey(const LockSource& locks, int node, int nodeCount, const QList<int>& unavailable,
                             const QList<QByteArray>& runIds);
    // unavailable: other nodes down or quarantined (the node itself is ignored if listed).
    static RestartPlan plan(int node, int nodeCount, const LockSource& locks, qint64 configuredMaxTtlMs,
                            double driftFactor, QList<int> unavailable, const QList<QByteArray>& runIds);
    static RestartPlan plan(int node, int nodeCount, const LockSnapshot& snapshot, qint64 configuredMaxTtlMs,
                            double driftFactor, QList<int> unavailable, const QList<QByteArray>& runIds)
    {
        return plan(node, nodeCount, locksOf(snapshot), configuredMaxTtlMs, driftFactor, std::move(unavailable),
                    runIds);
    }
    // The plan from a survey made before (what a restart request carries): the node counts and the quorum are
    // computed again for `unavailable`, the largest PTTL and the affected locks are the survey's.
    static RestartPlan plan(int node, int nodeCount, const LockSurvey& survey, qint64 configuredMaxTtlMs,
                            double driftFactor, QList<int> unavailable, const QList<QByteArray>& runIds);
};

// RestartPlanner::survey() a slice at a time, for a caller that must not stall (the Restart dialog over 1M locks: the
// whole walk took 120-480 ms of GUI CPU there), over locks that may change between two slices (the console's table).
// Nothing is taken or copied when it is made: each slice goes on after the last key walked, so a slice costs its own
// locks whatever the table's size (taking the 1M rows up front, shared, cost about 0.2 s of the GUI thread). No lock is
// walked twice and none that stays in the table is skipped; a lock added behind the walk, or removed ahead of it, is
// not counted, and a lock changed ahead of it is counted as it is when walked. On a table that does not change, the
// result is survey()'s. `total`: the locks there are when it starts, for the progress shown (total()).
class SurveyWalk final
{
public:
    SurveyWalk(RestartPlanner::KeyOrderedLocks locks, qsizetype total, int node, int nodeCount, QList<int> unavailable,
               QList<QByteArray> runIds);
    ~SurveyWalk();
    Q_DISABLE_COPY_MOVE(SurveyWalk)

    // Walks up to `count` more locks; true once every lock is walked.
    bool step(qsizetype count);
    bool isDone() const;
    qsizetype walked() const;
    qsizetype total() const;   // as given, or the locks walked when more
    LockSurvey result() const; // the survey of the locks walked so far

    struct State;

private:
    std::unique_ptr<State> m_state;
};

} // namespace redlock
