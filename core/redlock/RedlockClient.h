#pragma once

#include "redlock/RedlockRules.h"
#include "redlock/RedlockTypes.h"

#include <QFuture>
#include <QObject>

#include <functional>
#include <memory>
#include <vector>

namespace redlock {

class RedisConnection;
class LuaScript;

/// The Redlock algorithm (antirez, "Distributed locks with Redis"), multiplexed over N independent masters.
///
/// Thread model: the client lives in one thread (its QObject thread) with a running event loop; all I/O
/// happens there. Every public call may come from any thread and returns a QFuture that completes on the
/// client's thread; the *AndWait conveniences block the calling thread (never the client's own).
/// Nothing throws; every result carries one NodeOutcome per configured node for every round.
/// Destroying the client (on its own thread) completes every call in flight with an error at once and sends
/// nothing more: keys that an unfinished acquire already wrote are left to expire with their TTL.
class RedlockClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RedlockClient)

public:
    /// A client over options.nodes; connects on first use (or connectAll()). When the configuration has
    /// errors (configCheck()), every call completes with ok = false and sends nothing.
    explicit RedlockClient(RedlockOptions options, QObject* parent = nullptr);
    ~RedlockClient() override;

    /// Checks a configuration (and a TTL, when given) without connecting anywhere.
    static ConfigCheck validate(const RedlockOptions& options, qint64 ttlMs = -1);

    /// The options, as given to the constructor.
    const RedlockOptions& options() const { return m_options; }
    /// validate() of those options: with errors the client refuses every call.
    const ConfigCheck& configCheck() const { return m_check; }
    /// N, the configured masters.
    int nodeCount() const { return static_cast<int>(m_options.nodes.size()); }
    /// N/2+1: the nodes an acquire, extend or release must succeed on.
    int quorum() const { return rules::quorum(nodeCount()); }
    /// Now on the client's steady clock: the clock Lock::validUntilNs is on.
    qint64 nowNs() const { return m_clock->nowNs(); }

    /// Opens all node connections now instead of on first use.
    void connectAll();

    /// Redlock's acquire: SET NX PX with one fresh token on every node at once (all `resources` together,
    /// or none, on each node). Succeeds when a quorum set it and validity = TTL - elapsed - drift is still
    /// positive; the lock is then held exclusively until Lock::validUntilNs, no longer. A failed attempt
    /// releases what it set on every node, then retries after a jittered delay. Every attempt keeps each
    /// node's outcome; a node that answered after the decision shows as NoAnswerYet.
    QFuture<AcquireResult> acquire(const QList<QByteArray>& resources, const AcquireOptions& options = {});
    /// acquire() of one resource.
    QFuture<AcquireResult> acquire(const QByteArray& resource, const AcquireOptions& options = {})
    {
        return acquire(QList<QByteArray>{resource}, options);
    }
    /// Compare-and-delete on every node: only keys that still hold lock.token are removed.
    QFuture<ReleaseResult> release(const Lock& lock);
    /// Compare-and-pexpire on every node. Succeeds only when a quorum renewed the lock before its
    /// current validity ran out; the returned lock carries the new validity.
    QFuture<ExtendResult> extend(const Lock& lock, qint64 ttlMs);

    /// Completes (with true) once every command this client has sent so far was answered or timed out, each
    /// bounded by the per-node timeout. A round is decided as soon as a quorum answers, while the commands of
    /// the slower nodes may still wait behind their connect: a process about to exit waits for this, or the
    /// exit drops them and the lock lands on a bare quorum (or a release on fewer nodes than it could).
    QFuture<bool> whenIdle();

    /// acquire(), blocking the calling thread until it completes: never call it on the client's thread.
    AcquireResult acquireAndWait(const QList<QByteArray>& resources, const AcquireOptions& options = {});
    /// release(), blocking the calling thread until it completes: never call it on the client's thread.
    ReleaseResult releaseAndWait(const Lock& lock);
    /// extend(), blocking the calling thread until it completes: never call it on the client's thread.
    ExtendResult extendAndWait(const Lock& lock, qint64 ttlMs);

signals:
    /// Emitted on the client's thread after every call, for statistics and event logs.
    void acquireFinished(const redlock::AcquireResult& result);
    /// Emitted on the client's thread after every release().
    void releaseFinished(const redlock::ReleaseResult& result);
    /// Emitted on the client's thread after every extend().
    void extendFinished(const redlock::ExtendResult& result);

private:
    struct Round;
    struct AcquireOperation;
    /// Reports one node's outcome to its round. A shared pointer and an index, so the reply handler of every
    /// node and round carries it without another std::function (and its allocation) around it.
    struct NodeDone
    {
        std::shared_ptr<Round> round;
        int node = -1;
        void operator()(NodeOutcome outcome) const;
    };
    using NodeRequest = std::function<void(int node, NodeDone done)>;
    /// Decides a round early: returns true once the result is known (quorum reached or impossible).
    using EarlyDecision = std::function<bool(int succeeded, int failed)>;

    /// One fan-out round: request() is sent to every node at once; done() is called exactly once, as soon
    /// as decide() says so or when every node has answered (or timed out).
    void runRound(const NodeRequest& request, EarlyDecision decide,
                  std::function<void(const QList<NodeOutcome>&, qint64 elapsedUs)> done);

    void startAttempt(const std::shared_ptr<AcquireOperation>& op);
    void finishAttemptFailed(const std::shared_ptr<AcquireOperation>& op, const QString& why);
    void writeBackFence(const std::shared_ptr<AcquireOperation>& op);
    void completeAcquire(const std::shared_ptr<AcquireOperation>& op, bool ok, const QString& error);
    void releaseEverywhere(const QList<QByteArray>& resources, const QByteArray& token,
                           std::function<void(const RoundResult&)> done);

    void acquireOnNode(int node, const std::shared_ptr<AcquireOperation>& op, NodeDone done);
    /// Another node that already succeeded in this round and is the same server as `node` (by run_id), or -1.
    int sameServerSucceeded(const Round& round, int node) const;
    void evalOnNode(int node, const LuaScript& script, const QList<QByteArray>& keys, const QList<QByteArray>& args,
                    std::function<void(const RedisReply&, qint64 latencyUs)> done);
    NodeOutcome failureOutcome(int node, const RedisReply& reply, qint64 latencyUs) const;
    QString refusal(qint64 ttlMs) const;
    /// One sent node request (or a round still sending) is over; completes whenIdle() when none is left.
    void requestSettled();

    RedlockOptions m_options;
    ConfigCheck m_check;
    std::shared_ptr<SteadyClock> m_clock;
    std::vector<RedisConnection*> m_connections;
    QByteArray m_tokenSuffix; ///< the holder identity part of every token this client writes
    bool m_shuttingDown = false;
    int m_unsettledRequests = 0; ///< node requests sent and not yet answered or timed out
    std::vector<std::function<void(const bool&)>> m_idleWaiters;
};

} // namespace redlock
