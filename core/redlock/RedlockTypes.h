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

struct RedlockOptions
{
    QList<NodeEndpoint> nodes;
    double driftFactor = rules::kDefaultDriftFactor; // drift = ttl * driftFactor + 2 ms
    int nodeTimeoutMs = 50;                          // per node and round; keep it small against the TTL
    int retryCount = 3;                              // attempts after the first
    int retryDelayMs = 200;                          // base wait between attempts
    int retryJitterMs = 100;                         // plus a random 0..jitter ms, so contenders fall out of step
    QString clientName;                              // written into tokens and CLIENT SETNAME
    int maxExtensions = -1;                          // cap on extend() calls per lock; -1 = none
    qint64 maxHoldMs = 0;                            // cap on total hold time (acquire to last expiry); 0 = none
    bool readOnly = false;                           // refuse every call that writes
    ConnectionOptions connection;
    std::shared_ptr<SteadyClock> clock; // null = SteadyClock::system()
};

// Outcome of a configuration check: errors make the client refuse to work; warnings are shown.
struct ConfigCheck
{
    QStringList errors;
    QStringList warnings;
    bool ok() const { return errors.isEmpty(); }
};

struct AcquireOptions
{
    qint64 ttlMs = 10000;
    int retryCount = -1;    // -1 = the client's
    int retryDelayMs = -1;  // -1 = the client's
    int retryJitterMs = -1; // -1 = the client's
    bool fencing = false;   // also issue a fencing token (docs/fencing.md: when it strictly increases)
};

// What one node did with one request.
struct NodeOutcome
{
    enum class Kind {
        NotAttempted, // not sent (client refused, or the node is not part of this call)
        NoAnswerYet,  // sent; the decision came before the node answered
        Acquired,     // our token is set
        HeldByOther,  // another token holds the key (holderToken, holderPttlMs)
        Released,     // compare-and-delete removed our token
        Extended,     // compare-and-pexpire renewed our token
        NotHeld,      // release/extend: the key is gone or holds another token; nothing changed
        Timeout,      // no reply within the per-node timeout
        ConnectionError,
        RedisError, // the node answered with an error (WRONGTYPE, NOPERM, READONLY, ...)
    };

    int node = -1;
    Kind kind = Kind::NotAttempted;
    QByteArray holderToken;   // HeldByOther / NotHeld: the value found, if any
    qint64 holderPttlMs = -3; // HeldByOther: that key's PTTL; -3 = unknown
    RedisErrorKind errorKind = RedisErrorKind::None;
    QString error;
    qint64 latencyUs = -1;  // request sent -> answer (or timeout)
    qint64 fenceValue = -1; // acquire with fencing: the counter value this node reported

    bool succeeded() const { return kind == Kind::Acquired || kind == Kind::Released || kind == Kind::Extended; }
};

QString outcomeKindName(NodeOutcome::Kind kind);

// One round of acquire over all N nodes.
struct AcquireAttempt
{
    int number = 0;           // 1-based
    QList<NodeOutcome> nodes; // one per configured node, in configuration order
    int acquiredCount = 0;
    qint64 elapsedUs = 0;  // start of the round -> decision
    qint64 validityMs = 0; // ttl - elapsed - drift, if a quorum was reached
    bool quorumReached = false;
    QList<NodeOutcome> fenceWriteNodes; // fencing: the write-back round (Acquired = written)
    QList<NodeOutcome> cleanupNodes;    // a failed attempt: its release on every node (Released / NotHeld / ...)
};

struct Lock
{
    QList<QByteArray> resources; // key order as sent to the nodes
    QByteArray token;
    qint64 ttlMs = 0;
    qint64 driftMs = 0;
    qint64 fencingToken = -1; // -1 = not requested
    qint64 acquiredAtNs = 0;  // start of the attempt that succeeded (steady clock)
    qint64 validUntilNs = 0;  // steady clock instant after which mutual exclusion is no longer guaranteed
    int extensions = 0;

    bool isNull() const { return token.isEmpty(); }
    qint64 remainingValidityMs(qint64 nowNs) const { return (validUntilNs - nowNs) / 1'000'000; }
};

struct AcquireResult
{
    bool ok = false;
    QByteArray token; // the token every attempt used, also when none succeeded
    Lock lock;        // null unless ok
    QList<AcquireAttempt> attempts;
    QString error; // why it failed, when it did
    qint64 totalElapsedUs = 0;
};

// release() and extend() results: one round over all nodes.
struct RoundResult
{
    bool ok = false;
    Lock lock;                // extend: with the new validity
    QList<NodeOutcome> nodes; // one per configured node
    int succeededCount = 0;
    qint64 elapsedUs = 0;
    QString error;
};

using ReleaseResult = RoundResult;
using ExtendResult = RoundResult;

} // namespace redlock

Q_DECLARE_METATYPE(redlock::AcquireResult)
Q_DECLARE_METATYPE(redlock::RoundResult)
Q_DECLARE_METATYPE(redlock::Lock)
