#pragma once

#include "protocol/NodeEndpoint.h"
#include "protocol/RedisConnection.h"
#include "protocol/RedisReply.h"
#include "redlock/RedlockRules.h"
#include "runtime/SteadyClock.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>

namespace redlock {

/// How a RedlockClient works: its N independent masters, the drift, timeouts, retries and caps. Read once by
/// the client's constructor; validate it first with RedlockClient::checkConfig().
struct RedlockOptions
{
    QList<NodeEndpoint> nodes; ///< the N independent masters, in the order every per-node list follows
    double driftFactor = rules::kDefaultDriftFactor; ///< drift = ttl * driftFactor + 2 ms
    int nodeTimeoutMs = 50;                          ///< per node and round; keep it small against the TTL
    int retryCount = 3;                              ///< attempts after the first
    int retryDelayMs = 200;                          ///< base wait between attempts
    int retryJitterMs = 100;                         ///< plus a random 0..jitter ms, so contenders fall out of step
    QString clientName;                              ///< written into tokens and CLIENT SETNAME
    int maxExtensions = -1;                          ///< cap on extend() calls per lock; -1 = none
    qint64 maxHoldMs = 0;                            ///< cap on total hold time (acquire to last expiry); 0 = none
    bool readOnly = false;                           ///< refuse every call that writes
    ConnectionOptions connection;                    ///< for every node's connection (connect timeout, reconnection)
    std::shared_ptr<SteadyClock> clock;              ///< null = SteadyClock::system()
};

/// Outcome of a configuration check: errors make the client refuse to work; warnings are shown.
struct ConfigCheck
{
    QStringList errors;   ///< translated; any one makes the client refuse to work
    QStringList warnings; ///< translated; the configuration works but weakens a guarantee
    /// True when there is no error (warnings allowed).
    bool ok() const { return errors.isEmpty(); }
};

/// One acquire: the lock's TTL, retries overriding the client's, and whether to issue a fencing token.
struct AcquireOptions
{
    qint64 ttlMs = 10000;   ///< how long each node keeps the key; the validity is this minus elapsed and drift
    int retryCount = -1;    ///< -1 = the client's
    int retryDelayMs = -1;  ///< -1 = the client's
    int retryJitterMs = -1; ///< -1 = the client's
    bool fencing = false;   ///< also issue a fencing token (docs/fencing.md: when it strictly increases)
};

/// What one node did with one request.
struct NodeOutcome
{
    /// What happened on the node.
    enum class Kind {
        NotAttempted,    ///< not sent (client refused, or the node is not part of this call)
        NoAnswerYet,     ///< sent; the decision came before the node answered
        Acquired,        ///< our token is set
        HeldByOther,     ///< another token holds the key (holderToken, holderPttlMs)
        Released,        ///< compare-and-delete removed our token
        Extended,        ///< compare-and-pexpire renewed our token
        NotHeld,         ///< release/extend: the key is gone or holds another token; nothing changed
        Timeout,         ///< no reply within the per-node timeout
        ConnectionError, ///< the node was not connected, or the connection failed before it answered
        RedisError,      ///< the node answered with an error (WRONGTYPE, NOPERM, READONLY, ...)
    };

    int node = -1;                                   ///< index in RedlockOptions::nodes
    Kind kind = Kind::NotAttempted;                  ///< what the node did
    QByteArray holderToken;                          ///< HeldByOther / NotHeld: the value found, if any
    qint64 holderPttlMs = -3;                        ///< HeldByOther: that key's PTTL; -3 = unknown
    RedisErrorKind errorKind = RedisErrorKind::None; ///< Timeout / ConnectionError / RedisError: which failure
    QString error;                                   ///< Timeout / ConnectionError / RedisError: its message
    qint64 latencyUs = -1;                           ///< request sent -> answer (or timeout)
    qint64 fenceValue = -1;                          ///< acquire with fencing: the counter value this node reported

    /// True when the node did what was asked: Acquired, Released or Extended.
    bool succeeded() const { return kind == Kind::Acquired || kind == Kind::Released || kind == Kind::Extended; }
};

/// The kind as a stable English identifier ("acquired", "held-by-other", ...), for logs and JSON.
QString outcomeKindName(NodeOutcome::Kind kind);

/// One round of acquire over all N nodes.
struct AcquireAttempt
{
    int number = 0;                     ///< 1-based
    QList<NodeOutcome> nodes;           ///< one per configured node, in configuration order
    int acquiredCount = 0;              ///< nodes that set our token before the decision
    qint64 elapsedUs = 0;               ///< start of the round -> decision
    qint64 validityMs = 0;              ///< ttl - elapsed - drift, if a quorum was reached
    bool quorumReached = false;         ///< acquiredCount reached the quorum (N/2+1) in time, with validity left
    QList<NodeOutcome> fenceWriteNodes; ///< fencing: the write-back round (Acquired = written)
    QList<NodeOutcome> cleanupNodes;    ///< a failed attempt: its release on every node (Released / NotHeld / ...)
};

/// A lock this process holds: what extend(), release() and LockKeeper need. A value: copying it copies the
/// claim, not the hold; the lock stays held on the nodes until released or expired, whatever happens to copies.
struct Lock
{
    QList<QByteArray> resources; ///< key order as sent to the nodes
    QByteArray token;            ///< the random value on every node; whoever holds it can extend and release the lock
    qint64 ttlMs = 0;            ///< the TTL last set on the nodes (acquire or the last extend)
    qint64 driftMs = 0;          ///< the clock drift allowance subtracted from the validity
    qint64 fencingToken = -1;    ///< -1 = not requested
    qint64 acquiredAtNs = 0;     ///< start of the attempt that succeeded (steady clock)
    qint64 validUntilNs = 0;     ///< steady clock instant after which mutual exclusion is no longer guaranteed
    int extensions = 0;          ///< successful extend() calls so far

    /// True for a default-constructed (or failed) lock: nothing is held.
    bool isNull() const { return token.isEmpty(); }
    /// Validity left at steady instant nowNs (negative once past): only within it is mutual exclusion
    /// guaranteed.
    qint64 remainingValidityMs(qint64 nowNs) const { return (validUntilNs - nowNs) / 1'000'000; }
};

/// The outcome of RedlockClient::acquire(): every attempt with every node's outcome.
struct AcquireResult
{
    bool ok = false;                ///< true when a quorum was reached with validity left: the lock is held
    QByteArray token;               ///< the token every attempt used, also when none succeeded
    Lock lock;                      ///< null unless ok
    QList<AcquireAttempt> attempts; ///< every round, in order (the successful one last)
    QString error;                  ///< why it failed, when it did
    qint64 totalElapsedUs = 0;      ///< first attempt to the result, waits between retries included
};

/// release() and extend() results: one round over all nodes.
struct RoundResult
{
    bool ok = false;          ///< a quorum of nodes released (or extended) our token
    Lock lock;                ///< extend: with the new validity
    QList<NodeOutcome> nodes; ///< one per configured node
    int succeededCount = 0;   ///< nodes whose outcome succeeded()
    qint64 elapsedUs = 0;     ///< round start -> decision
    QString error;            ///< why it failed, when it did
};

/// The outcome of RedlockClient::release().
using ReleaseResult = RoundResult;
/// The outcome of RedlockClient::extend().
using ExtendResult = RoundResult;

} // namespace redlock

Q_DECLARE_METATYPE(redlock::AcquireResult)
Q_DECLARE_METATYPE(redlock::RoundResult)
Q_DECLARE_METATYPE(redlock::Lock)
