#include "redlock/RedlockClient.h"

#include "protocol/LockScripts.h"
#include "protocol/RedisConnection.h"
#include "redlock/FencingCounters.h"
#include "redlock/LockToken.h"
#include "redlock/RedlockRules.h"
#include "runtime/OwnThreadFuture.h"

#include <QCoreApplication>
#include <QPromise>
#include <QRandomGenerator>
#include <QSet>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <utility>

namespace redlock {

namespace {

constexpr qint64 kNsPerMs = 1'000'000;
constexpr qint64 kNsPerUs = 1'000;

} // namespace

QString outcomeKindName(NodeOutcome::Kind kind)
{
    switch (kind) {
    case NodeOutcome::Kind::NotAttempted:
        return QCoreApplication::translate("redlock::NodeOutcome", "not attempted");
    case NodeOutcome::Kind::NoAnswerYet:
        return QCoreApplication::translate("redlock::NodeOutcome", "no answer before the decision");
    case NodeOutcome::Kind::Acquired:
        return QCoreApplication::translate("redlock::NodeOutcome", "acquired");
    case NodeOutcome::Kind::HeldByOther:
        return QCoreApplication::translate("redlock::NodeOutcome", "held by another token");
    case NodeOutcome::Kind::Released:
        return QCoreApplication::translate("redlock::NodeOutcome", "released");
    case NodeOutcome::Kind::Extended:
        return QCoreApplication::translate("redlock::NodeOutcome", "extended");
    case NodeOutcome::Kind::NotHeld:
        return QCoreApplication::translate("redlock::NodeOutcome", "not held: nothing changed");
    case NodeOutcome::Kind::Timeout:
        return QCoreApplication::translate("redlock::NodeOutcome", "timeout");
    case NodeOutcome::Kind::ConnectionError:
        return QCoreApplication::translate("redlock::NodeOutcome", "connection error");
    case NodeOutcome::Kind::RedisError:
        return QCoreApplication::translate("redlock::NodeOutcome", "Redis error");
    }
    return {};
}

struct RedlockClient::Round
{
    RedlockClient* client = nullptr;
    QList<NodeOutcome> outcomes;
    int answered = 0;
    int succeeded = 0;
    int failed = 0;
    bool decided = false;
    qint64 startNs = 0;
    EarlyDecision decide;
    std::function<void(const QList<NodeOutcome>&, qint64)> done;
};

struct RedlockClient::AcquireOperation
{
    QList<QByteArray> resources;
    bool fencing = false;
    QByteArray token;
    qint64 ttlMs = 0;
    QList<QByteArray> setCommand; // one resource, no fencing: SET key token NX PX ttl, the same for every node
    qint64 driftMs = 0;
    int maxAttempts = 1;
    int retryDelayMs = 0;
    int retryJitterMs = 0;
    qint64 startNs = 0;        // first attempt
    qint64 attemptStartNs = 0; // current attempt: validity is measured from here
    AcquireResult result;
    std::function<void(const AcquireResult&)> deliver;
};

RedlockClient::RedlockClient(RedlockOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_check(validate(m_options)),
      m_clock(m_options.clock ? m_options.clock : SteadyClock::system())
{
    m_tokenSuffix = LockToken::generate(m_options.clientName).identitySuffix();
    if (!m_check.ok())
        return; // every call will be refused with the configuration errors
    ConnectionOptions connection = m_options.connection;
    if (connection.clientName.isEmpty())
        connection.clientName = "redlock:" + QUrl::toPercentEncoding(m_options.clientName).left(64);
    for (const NodeEndpoint& endpoint : std::as_const(m_options.nodes))
        m_connections.push_back(new RedisConnection(endpoint, connection, this));
}

RedlockClient::~RedlockClient()
{
    // Deleting a connection fails its pending commands, and a failure can decide a round whose follow-up
    // (the cleanup release after a failed attempt, the fencing write-back) would send on the other
    // connections. So they leave m_connections before the first one goes, and while shutting down every
    // round fails at once without touching a connection: every pending call completes with an error, no
    // retry starts, and nothing is sent any more. Keys an unfinished acquire wrote expire with their TTL.
    m_shuttingDown = true;
    std::vector<RedisConnection*> connections;
    connections.swap(m_connections);
    for (RedisConnection* c : connections)
        delete c;
}

ConfigCheck RedlockClient::validate(const RedlockOptions& options, qint64 ttlMs)
{
    ConfigCheck check;
    const int n = static_cast<int>(options.nodes.size());
    if (n == 0)
        check.errors << tr("no nodes configured: Redlock needs N independent Redis masters");
    check.errors << NodeEndpoint::duplicateErrors(options.nodes);
    if (n > 0 && rules::nodeCountProblem(n) != rules::NodeCountProblem::None)
        check.warnings << rules::nodeCountWarning(n);
    if (!rules::driftFactorValid(options.driftFactor))
        check.errors << rules::driftFactorError(options.driftFactor);
    if (options.nodeTimeoutMs <= 0)
        check.errors << tr("per-node timeout must be positive");
    if (options.retryCount < 0 || options.retryDelayMs < 0 || options.retryJitterMs < 0)
        check.errors << tr("retry count, delay and jitter must not be negative");
    if (ttlMs >= 0) {
        const qint64 drift = rules::clockDriftMs(ttlMs, options.driftFactor);
        if (ttlMs <= drift)
            check.errors << tr("TTL %1 ms is not larger than the drift allowance %2 ms").arg(ttlMs).arg(drift);
        else if (options.nodeTimeoutMs * 10 > ttlMs)
            check.warnings << tr("the per-node timeout (%1 ms) is not small against the TTL (%2 ms)")
                                  .arg(options.nodeTimeoutMs)
                                  .arg(ttlMs);
    }
    return check;
}

void RedlockClient::connectAll()
{
    QMetaObject::invokeMethod(this, [this] {
        for (RedisConnection* c : m_connections)
            c->open();
    });
}

namespace {

template <typename T>
T waitForResult(QFuture<T> future, const QObject* client, std::function<T(const QString&)> makeError)
{
    if (QThread::currentThread() == client->thread())
        return makeError(RedlockClient::tr("a blocking call on the client's own thread would deadlock"));
    future.waitForFinished();
    if (future.resultCount() == 0)
        return makeError(RedlockClient::tr("the client was shut down"));
    return future.result();
}

} // namespace

AcquireResult RedlockClient::acquireAndWait(const QList<QByteArray>& resources, const AcquireOptions& options)
{
    return waitForResult<AcquireResult>(acquire(resources, options), this, [](const QString& e) {
        AcquireResult r;
        r.error = e;
        return r;
    });
}

ReleaseResult RedlockClient::releaseAndWait(const Lock& lock)
{
    return waitForResult<RoundResult>(release(lock), this, [](const QString& e) {
        RoundResult r;
        r.error = e;
        return r;
    });
}

ExtendResult RedlockClient::extendAndWait(const Lock& lock, qint64 ttlMs)
{
    return waitForResult<RoundResult>(extend(lock, ttlMs), this, [](const QString& e) {
        RoundResult r;
        r.error = e;
        return r;
    });
}

QString RedlockClient::refusal(qint64 ttlMs) const
{
    if (m_shuttingDown)
        return tr("the client is shutting down");
    if (!m_check.ok())
        return tr("invalid configuration: %1").arg(m_check.errors.join(u"; "));
    // Per call only the TTL rule: the options cannot change after construction and m_check already covers
    // them. Re-validating the node list on every acquire (endpoint identities, address parsing, a hash)
    // was 15% of the client's instructions in 'redlock bench', all of it before the first request went out.
    if (ttlMs >= 0) {
        const qint64 drift = rules::clockDriftMs(ttlMs, m_options.driftFactor);
        if (ttlMs <= drift)
            return tr("invalid configuration: %1")
                .arg(tr("TTL %1 ms is not larger than the drift allowance %2 ms").arg(ttlMs).arg(drift));
    }
    return {};
}

namespace {

QList<NodeOutcome> notAttempted(int n)
{
    QList<NodeOutcome> out;
    for (int i = 0; i < n; ++i) {
        NodeOutcome o;
        o.node = i;
        out.append(o);
    }
    return out;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------
// One round over all nodes
// ---------------------------------------------------------------------------------------------------------

void RedlockClient::runRound(const NodeRequest& request, EarlyDecision decide,
                             std::function<void(const QList<NodeOutcome>&, qint64)> done)
{
    const int n = nodeCount();
    auto round = std::make_shared<Round>();
    round->client = this;
    round->decide = std::move(decide);
    round->done = std::move(done);
    round->startNs = nowNs();
    round->outcomes.reserve(n);
    for (int i = 0; i < n; ++i) {
        NodeOutcome o;
        o.node = i;
        o.kind = NodeOutcome::Kind::NoAnswerYet;
        round->outcomes.append(o);
    }
    if (m_shuttingDown) {
        // The connections are gone or going (see the destructor): nothing is sent, the round fails now.
        for (NodeOutcome& o : round->outcomes) {
            o.kind = NodeOutcome::Kind::NotAttempted;
            o.error = tr("the client is shutting down");
        }
        round->decided = true;
        round->done(round->outcomes, 0);
        return;
    }
    // The sending itself counts as one unsettled request: a node known down fails at once, and must not
    // make the client look idle before the other nodes got theirs.
    ++m_unsettledRequests;
    for (int i = 0; i < n; ++i) {
        if (round->decided) {
            // Decided already (nodes known down fail at once): the rest is not worth sending.
            round->outcomes[i].kind = NodeOutcome::Kind::NotAttempted;
            continue;
        }
        ++m_unsettledRequests;
        request(i, NodeDone{round, i});
    }
    requestSettled();
}

void RedlockClient::NodeDone::operator()(NodeOutcome outcome) const
{
    Round& r = *round;
    // A late answer (the round was decided) only settles its request: the caller already has its result.
    if (!r.decided) {
        outcome.node = node;
        // One server, one vote: a node that is the same server as one that already counted in this round (its
        // run_id, read at connect: a unix socket and its port, a hosts alias) does not count again. Its SET
        // found our own token there and "renewed" it, which is no second vote.
        if (outcome.succeeded()) {
            const int twin = r.client->sameServerSucceeded(r, node);
            if (twin >= 0) {
                outcome.kind = NodeOutcome::Kind::RedisError;
                outcome.error = tr("the same server as node %1 (run_id %2): its vote counts once")
                                    .arg(twin + 1)
                                    .arg(QString::fromLatin1(r.client->m_connections[node]->serverRunId().left(12)));
            }
        }
        r.outcomes[node] = std::move(outcome);
        ++r.answered;
        if (r.outcomes[node].succeeded())
            ++r.succeeded;
        else
            ++r.failed;
        if (r.decide(r.succeeded, r.failed) || r.answered == r.outcomes.size()) {
            r.decided = true;
            // Follow-up rounds started from here are counted before this request is settled below.
            r.done(r.outcomes, (r.client->nowNs() - r.startNs) / kNsPerUs);
        }
    }
    r.client->requestSettled();
}

int RedlockClient::sameServerSucceeded(const Round& round, int node) const
{
    QList<QByteArray> runIds;
    runIds.reserve(qsizetype(m_connections.size()));
    for (const RedisConnection* connection : m_connections)
        runIds.append(connection->serverRunId());
    QList<int> succeeded;
    for (int other = 0; other < int(round.outcomes.size()); ++other) {
        if (round.outcomes[other].succeeded())
            succeeded.append(other);
    }
    return rules::sameServerAs(runIds, node, succeeded);
}

void RedlockClient::requestSettled()
{
    if (--m_unsettledRequests > 0 || m_idleWaiters.empty())
        return;
    const auto waiters = std::exchange(m_idleWaiters, {});
    for (const auto& deliver : waiters)
        deliver(true);
}

QFuture<bool> RedlockClient::whenIdle()
{
    return runOnOwnThread<bool>(this, [this](std::function<void(const bool&)> deliver) {
        if (m_unsettledRequests == 0)
            deliver(true);
        else
            m_idleWaiters.push_back(std::move(deliver));
    });
}

void RedlockClient::evalOnNode(int node, const LuaScript& script, const QList<QByteArray>& keys,
                               const QList<QByteArray>& args,
                               std::function<void(const RedisReply&, qint64 latencyUs)> done)
{
    const qint64 start = nowNs();
    evalScript(
        m_connections[static_cast<size_t>(node)], script, keys, args, m_options.nodeTimeoutMs,
        [this, start, done = std::move(done)](const RedisReply& reply) { done(reply, (nowNs() - start) / kNsPerUs); });
}

NodeOutcome RedlockClient::failureOutcome(int node, const RedisReply& reply, qint64 latencyUs) const
{
    NodeOutcome o;
    o.node = node;
    o.latencyUs = latencyUs;
    o.errorKind = reply.errorKind();
    o.error = reply.errorText();
    if (reply.type() == RedisReply::Type::Error)
        o.kind = NodeOutcome::Kind::RedisError;
    else if (reply.errorKind() == RedisErrorKind::Timeout)
        o.kind = NodeOutcome::Kind::Timeout;
    else
        o.kind = NodeOutcome::Kind::ConnectionError;
    if (!reply.isError()) {
        o.kind = NodeOutcome::Kind::RedisError;
        o.errorKind = RedisErrorKind::Protocol;
        o.error = tr("unexpected reply from the node");
    }
    return o;
}

// ---------------------------------------------------------------------------------------------------------
// Acquire
// ---------------------------------------------------------------------------------------------------------

QFuture<AcquireResult> RedlockClient::acquire(const QList<QByteArray>& resources, const AcquireOptions& options)
{
    return runOnOwnThread<AcquireResult>(
        this, [this, resources, options](std::function<void(const AcquireResult&)> deliver) {
            auto op = std::make_shared<AcquireOperation>();
            // A fixed key order (sorted, no duplicates) for multi-resource locks. A single resource is left
            // shared with the caller's list: sorting would detach (copy) it.
            op->resources = resources;
            if (op->resources.size() > 1) {
                std::sort(op->resources.begin(), op->resources.end());
                op->resources.erase(std::unique(op->resources.begin(), op->resources.end()), op->resources.end());
            }
            op->ttlMs = options.ttlMs;
            op->driftMs = rules::clockDriftMs(options.ttlMs, m_options.driftFactor);
            op->maxAttempts = 1 + std::max(0, options.retryCount >= 0 ? options.retryCount : m_options.retryCount);
            op->retryDelayMs = options.retryDelayMs >= 0 ? options.retryDelayMs : m_options.retryDelayMs;
            op->retryJitterMs = options.retryJitterMs >= 0 ? options.retryJitterMs : m_options.retryJitterMs;
            op->token = "rl1:" + LockToken::newRandom() + m_tokenSuffix;
            op->fencing = options.fencing;
            if (!op->fencing && op->resources.size() == 1) {
                op->setCommand.reserve(6);
                op->setCommand << QByteArrayLiteral("SET") << op->resources.first() << op->token
                               << QByteArrayLiteral("NX") << QByteArrayLiteral("PX") << QByteArray::number(op->ttlMs);
            }
            op->startNs = nowNs();
            op->deliver = [this, deliver](const AcquireResult& r) {
                emit acquireFinished(r);
                deliver(r);
            };

            QString why = refusal(options.ttlMs);
            if (why.isEmpty() && m_options.readOnly)
                why = tr("read-only mode: acquire refused");
            if (why.isEmpty() && op->resources.isEmpty())
                why = tr("no resource given");
            if (why.isEmpty() && op->resources.contains(fenceCountersKey()))
                why = tr("\"%1\" is the key of the fencing counters: no lock can take that name")
                          .arg(QString::fromLatin1(fenceCountersKey()));
            if (!why.isEmpty()) {
                AcquireAttempt refused;
                refused.number = 1;
                refused.nodes = notAttempted(nodeCount());
                op->result.attempts.append(refused);
                completeAcquire(op, false, why);
                return;
            }
            startAttempt(op);
        });
}

void RedlockClient::startAttempt(const std::shared_ptr<AcquireOperation>& op)
{
    if (m_shuttingDown) {
        completeAcquire(op, false, tr("the client is shutting down"));
        return;
    }
    // Step 1: the current time, on a monotonic clock; validity is measured from the start of this attempt.
    op->attemptStartNs = nowNs();
    AcquireAttempt fresh;
    fresh.number = static_cast<int>(op->result.attempts.size()) + 1;
    op->result.attempts.append(fresh);

    // Step 2: the same key and token to all N nodes at once, each with a timeout small against the TTL.
    const int n = nodeCount();
    const int q = quorum();
    runRound(
        [this, op](int node, NodeDone done) { acquireOnNode(node, op, std::move(done)); },
        // Decide as soon as a quorum holds the lock, or as soon as a quorum can no longer be reached.
        [n, q](int acquired, int failed) { return failed > n - q || acquired >= q; },
        [this, op, q](const QList<NodeOutcome>& outcomes, qint64 elapsedUs) {
            AcquireAttempt& attempt = op->result.attempts.last();
            attempt.nodes = outcomes;
            attempt.elapsedUs = elapsedUs;
            attempt.acquiredCount = static_cast<int>(
                std::count_if(outcomes.begin(), outcomes.end(), [](const NodeOutcome& o) { return o.succeeded(); }));
            attempt.quorumReached = attempt.acquiredCount >= q;

            // Step 3 and 4: acquired only with a quorum and time left: validity = ttl - elapsed - drift.
            const qint64 elapsedMs = (nowNs() - op->attemptStartNs) / kNsPerMs;
            attempt.validityMs = op->ttlMs - elapsedMs - op->driftMs;
            if (!attempt.quorumReached) {
                finishAttemptFailed(op, tr("quorum not reached: %1 of %2 nodes, %3 needed")
                                            .arg(attempt.acquiredCount)
                                            .arg(nodeCount())
                                            .arg(q));
                return;
            }
            if (attempt.validityMs <= 0) {
                finishAttemptFailed(op, tr("quorum reached too late: %1 ms elapsed leave no validity of a %2 ms TTL")
                                            .arg(elapsedMs)
                                            .arg(op->ttlMs));
                return;
            }
            if (op->fencing) {
                writeBackFence(op);
                return;
            }
            completeAcquire(op, true, {});
        });
}

void RedlockClient::acquireOnNode(int node, const std::shared_ptr<AcquireOperation>& operation, NodeDone done)
{
    const AcquireOperation& op = *operation;
    const qint64 start = nowNs();
    if (!op.setCommand.isEmpty()) {
        // The common case needs no script: SET NX PX alone. Only when it is refused do GET and PTTL follow,
        // so the outcome names the holder and its remaining time; an uncontended acquire stays one command.
        const QByteArray& key = op.resources.first();
        RedisConnection* connection = m_connections[static_cast<size_t>(node)];
        connection->send(
            op.setCommand,
            [this, connection, operation, key, node, start, done = std::move(done)](const RedisReply& set) {
                if (!set.isNil()) {
                    const qint64 latencyUs = (nowNs() - start) / kNsPerUs;
                    NodeOutcome o = set.isString() ? NodeOutcome{} : failureOutcome(node, set, latencyUs);
                    if (set.isString()) {
                        o.node = node;
                        o.latencyUs = latencyUs;
                        o.kind = NodeOutcome::Kind::Acquired;
                    }
                    done(o);
                    return;
                }
                auto holder = std::make_shared<RedisReply>();
                QList<RedisConnection::Command> lookup;
                lookup.append({{"GET", key}, [holder](const RedisReply& r) { *holder = r; }});
                lookup.append({{"PTTL", key},
                               [this, connection, operation, key, holder, node, start, done](const RedisReply& pttl) {
                                   const qint64 latencyUs = (nowNs() - start) / kNsPerUs;
                                   NodeOutcome o;
                                   if (holder->isString() && holder->bytes() == operation->token) {
                                       // Our own token, left by an earlier attempt whose cleanup did not reach
                                       // this node: ours, as in the script path, once its TTL is renewed from
                                       // now (compare-and-pexpire) so that it lasts the validity counted
                                       // from this attempt's start.
                                       evalScript(connection, scripts::extend(), {key},
                                                  {operation->token, QByteArray::number(operation->ttlMs)},
                                                  m_options.nodeTimeoutMs,
                                                  [this, node, start, done](const RedisReply& renewed) {
                                                      const qint64 us = (nowNs() - start) / kNsPerUs;
                                                      NodeOutcome mine;
                                                      if (renewed.isInteger()) {
                                                          mine.node = node;
                                                          mine.latencyUs = us;
                                                          mine.kind = renewed.integer() == 1
                                                                          ? NodeOutcome::Kind::Acquired
                                                                          : NodeOutcome::Kind::HeldByOther;
                                                      } else {
                                                          mine = failureOutcome(node, renewed, us);
                                                      }
                                                      done(mine);
                                                  });
                                       return;
                                   }
                                   if (holder->isError() && holder->type() == RedisReply::Type::Error) {
                                       // The key exists with another type (a hash lock, a list ...).
                                       o = failureOutcome(node, *holder, latencyUs);
                                   } else {
                                       // Refused by SET: held by someone, even if the lookup then timed out
                                       // or found the key already gone.
                                       o.node = node;
                                       o.latencyUs = latencyUs;
                                       o.kind = NodeOutcome::Kind::HeldByOther;
                                       o.holderToken = holder->isString() ? holder->bytes() : QByteArray();
                                       o.holderPttlMs = pttl.isInteger() ? pttl.integer() : -3;
                                   }
                                   done(o);
                               }});
                connection->sendPipeline(std::move(lookup), m_options.nodeTimeoutMs);
            },
            m_options.nodeTimeoutMs);
        return;
    }

    QList<QByteArray> keys = op.resources;
    if (op.fencing)
        keys << fenceCountersKey();
    const QList<QByteArray> args{op.token, QByteArray::number(op.ttlMs), QByteArray::number(op.resources.size())};
    const QList<QByteArray> resources = op.resources;
    auto finish = [this, node, resources, done](const RedisReply& reply, qint64 latencyUs) {
        NodeOutcome o;
        o.node = node;
        o.latencyUs = latencyUs;
        const std::optional<scripts::AcquireReply> decoded = scripts::decodeAcquireReply(reply);
        if (!decoded) {
            o = failureOutcome(node, reply, latencyUs);
        } else if (decoded->acquired) {
            o.kind = NodeOutcome::Kind::Acquired;
            o.fenceValue = decoded->fence;
        } else {
            o.kind = NodeOutcome::Kind::HeldByOther;
            o.holderToken = decoded->holderToken;
            o.holderPttlMs = decoded->holderPttlMs;
            o.fenceValue = decoded->fence;
            if (resources.size() > 1 && decoded->conflictIndex <= resources.size())
                o.error = tr("conflict on resource #%1").arg(decoded->conflictIndex);
        }
        done(o);
    };
    evalOnNode(node, scripts::acquire(), keys, args, finish);
}

void RedlockClient::writeBackFence(const std::shared_ptr<AcquireOperation>& op)
{
    // Fencing as a quorum max-register: the new token is one more than the largest value any node of our
    // quorum reported, and it is written back to every node that still holds our lock (at least a quorum)
    // before the acquire returns. A later acquisition's quorum R intersects the written nodes W when
    // |W| + |R| > N, so it reads at least this value. A node that loses its counter (restart without
    // persistence) leaves W: the tokens stay strictly increasing while |W minus the nodes that lost data|
    // + quorum > N, and for every acquisition only if no node ever loses its counter (appendfsync always).
    // Hence the write-back goes to all nodes, not just until a quorum answered: when all N answered, the
    // token survives the loss of up to N - quorum counters. docs/fencing.md; the safety audit makes
    // weak persistence severe when it finds fencing counters.
    // Every node that reported its counters counts, also one that refused the lock: a larger token is
    // always safe.
    qint64 maxSeen = 0;
    for (const NodeOutcome& o : std::as_const(op->result.attempts.last().nodes))
        maxSeen = std::max(maxSeen, o.fenceValue);
    const qint64 fence = maxSeen + 1;
    const auto& acquired = op->result.attempts.last().nodes;
    const int holders = static_cast<int>(std::count_if(
        acquired.begin(), acquired.end(), [](const NodeOutcome& o) { return o.kind == NodeOutcome::Kind::Acquired; }));
    QList<QByteArray> keys = op->resources;
    keys << fenceCountersKey();
    const QByteArray token = op->token;
    const int q = quorum();
    runRound(
        [this, keys, token, fence](int node, NodeDone done) {
            evalOnNode(node, scripts::writeFence(), keys, {token, QByteArray::number(fence)},
                       [this, node, done = std::move(done)](const RedisReply& reply, qint64 latencyUs) {
                           NodeOutcome o;
                           if (reply.isInteger()) {
                               o.node = node;
                               o.latencyUs = latencyUs;
                               o.kind = reply.integer() == 1 ? NodeOutcome::Kind::Acquired : NodeOutcome::Kind::NotHeld;
                           } else {
                               o = failureOutcome(node, reply, latencyUs);
                           }
                           done(o);
                       });
        },
        // Every node that holds our lock (bounded by the per-node timeout): the more nodes carry the value,
        // the more counter losses it survives; a quorum is only the minimum. A node that did not hold our lock
        // cannot take the write, so a stalled minority does not hold the acquire up to its timeout.
        [holders](int succeeded, int) { return succeeded >= holders; },
        [this, op, q, fence](const QList<NodeOutcome>& outcomes, qint64) {
            AcquireAttempt& attempt = op->result.attempts.last();
            const int written = static_cast<int>(
                std::count_if(outcomes.begin(), outcomes.end(), [](const NodeOutcome& o) { return o.succeeded(); }));
            attempt.fenceWriteNodes = outcomes;
            const qint64 elapsedMs = (nowNs() - op->attemptStartNs) / kNsPerMs;
            attempt.validityMs = op->ttlMs - elapsedMs - op->driftMs;
            if (written < q) {
                finishAttemptFailed(op, tr("fencing token written to %1 nodes only, %2 needed").arg(written).arg(q));
                return;
            }
            if (attempt.validityMs <= 0) {
                finishAttemptFailed(op, tr("no validity left after writing the fencing token"));
                return;
            }
            op->result.lock.fencingToken = fence;
            completeAcquire(op, true, {});
        });
}

void RedlockClient::finishAttemptFailed(const std::shared_ptr<AcquireOperation>& op, const QString& why)
{
    // Step 5: unlock all nodes, also those that seemed to fail (the SET may have landed after the timeout).
    // The release goes out on the same connections behind the SETs, so it runs after them on every node.
    // The caller hears of the failure only once the cleanup round is over (bounded by the per-node timeout):
    // a CLI that exits right after a failed acquire must not cut its own cleanup short.
    op->result.error = why;
    releaseEverywhere(op->resources, op->token, [this, op, why](const RoundResult& cleanup) {
        op->result.attempts.last().cleanupNodes = cleanup.nodes;
        if (static_cast<int>(op->result.attempts.size()) >= op->maxAttempts || m_shuttingDown) {
            completeAcquire(op, false, why);
            return;
        }
        // Retry after a random delay, so that contenders fall out of step instead of splitting the votes.
        const int jitter = op->retryJitterMs > 0 ? QRandomGenerator::global()->bounded(op->retryJitterMs + 1) : 0;
        QTimer::singleShot(op->retryDelayMs + jitter, this, [this, op] { startAttempt(op); });
    });
}

void RedlockClient::completeAcquire(const std::shared_ptr<AcquireOperation>& op, bool ok, const QString& error)
{
    AcquireResult& r = op->result;
    r.ok = ok;
    r.error = ok ? QString() : error;
    r.totalElapsedUs = (nowNs() - op->startNs) / kNsPerUs;
    r.token = op->token;
    if (ok) {
        Lock& lock = r.lock;
        lock.resources = op->resources;
        lock.token = op->token;
        lock.ttlMs = op->ttlMs;
        lock.driftMs = op->driftMs;
        lock.acquiredAtNs = op->attemptStartNs;
        lock.validUntilNs = op->attemptStartNs + (op->ttlMs - op->driftMs) * kNsPerMs;
    }
    op->deliver(r);
}

// ---------------------------------------------------------------------------------------------------------
// Release
// ---------------------------------------------------------------------------------------------------------

void RedlockClient::releaseEverywhere(const QList<QByteArray>& resources, const QByteArray& token,
                                      std::function<void(const RoundResult&)> done)
{
    const int q = quorum();
    const int expectedPerNode = static_cast<int>(resources.size());
    const QList<QByteArray> args{token};
    runRound(
        [this, resources, args, expectedPerNode](int node, NodeDone nodeDone) {
            evalOnNode(
                node, scripts::compareAndDelete(), resources, args,
                [this, node, expectedPerNode, nodeDone = std::move(nodeDone)](const RedisReply& reply,
                                                                              qint64 latencyUs) {
                    NodeOutcome o;
                    if (reply.isInteger()) {
                        o.node = node;
                        o.latencyUs = latencyUs;
                        o.kind = reply.integer() == expectedPerNode ? NodeOutcome::Kind::Released
                                                                    : NodeOutcome::Kind::NotHeld;
                        if (reply.integer() > 0 && reply.integer() < expectedPerNode)
                            o.error =
                                tr("%1 of %2 keys still held the token").arg(reply.integer()).arg(expectedPerNode);
                    } else {
                        o = failureOutcome(node, reply, latencyUs);
                    }
                    nodeDone(o);
                });
        },
        // Release always waits for every node (bounded by the per-node timeout): it reports them all.
        [](int, int) { return false; },
        [q, done](const QList<NodeOutcome>& outcomes, qint64 elapsedUs) {
            RoundResult r;
            r.nodes = outcomes;
            r.elapsedUs = elapsedUs;
            r.succeededCount = static_cast<int>(
                std::count_if(outcomes.begin(), outcomes.end(), [](const NodeOutcome& o) { return o.succeeded(); }));
            r.ok = r.succeededCount >= q;
            // What the nodes that answered said is all we know: a node that gave no answer (or refused the
            // script) may still hold the token, so "not found" and "lost its quorum" are said only of them.
            const int n = static_cast<int>(outcomes.size());
            const int answered =
                static_cast<int>(std::count_if(outcomes.begin(), outcomes.end(), [](const NodeOutcome& o) {
                    return o.kind == NodeOutcome::Kind::Released || o.kind == NodeOutcome::Kind::NotHeld;
                }));
            if (answered == 0)
                r.error =
                    tr("no node answered (or every one refused): nothing was released, and the lock may still be held "
                       "until it expires");
            else if (r.succeededCount == 0 && answered == n)
                r.error = tr("the token was not found on any node (expired or taken over): nothing was deleted");
            else if (r.succeededCount == 0)
                r.error = tr("the token was not found on the %1 node(s) that answered; %2 node(s) did not answer or "
                             "refused, and may still hold it")
                              .arg(answered)
                              .arg(n - answered);
            else if (!r.ok && answered == n)
                r.error = tr("released on %1 node(s) only: the lock had already lost its quorum").arg(r.succeededCount);
            else if (!r.ok)
                r.error = tr("released on %1 node(s) only; %2 node(s) did not answer or refused, and may still hold it")
                              .arg(r.succeededCount)
                              .arg(n - answered);
            done(r);
        });
}

QFuture<ReleaseResult> RedlockClient::release(const Lock& lock)
{
    return runOnOwnThread<RoundResult>(this, [this, lock](std::function<void(const RoundResult&)> deliver) {
        auto finish = [this, deliver, lock](RoundResult r) {
            r.lock = lock;
            emit releaseFinished(r);
            deliver(r);
        };
        QString why = refusal(-1);
        if (why.isEmpty() && m_options.readOnly)
            why = tr("read-only mode: release refused");
        if (why.isEmpty() && (lock.isNull() || lock.resources.isEmpty()))
            why = tr("no lock given");
        if (!why.isEmpty()) {
            RoundResult r;
            r.nodes = notAttempted(nodeCount());
            r.error = why;
            finish(r);
            return;
        }
        releaseEverywhere(lock.resources, lock.token, finish);
    });
}

// ---------------------------------------------------------------------------------------------------------
// Extend
// ---------------------------------------------------------------------------------------------------------

QFuture<ExtendResult> RedlockClient::extend(const Lock& lock, qint64 ttlMs)
{
    return runOnOwnThread<RoundResult>(this, [this, lock, ttlMs](std::function<void(const RoundResult&)> deliver) {
        auto finish = [this, deliver](const RoundResult& r) {
            emit extendFinished(r);
            deliver(r);
        };
        const qint64 start = nowNs();
        QString why = refusal(ttlMs);
        if (why.isEmpty() && m_options.readOnly)
            why = tr("read-only mode: extend refused");
        if (why.isEmpty() && (lock.isNull() || lock.resources.isEmpty()))
            why = tr("no lock given");
        if (why.isEmpty() && m_options.maxExtensions >= 0 && lock.extensions >= m_options.maxExtensions)
            why = tr("extension cap reached (%1 extensions)").arg(m_options.maxExtensions);
        if (why.isEmpty() && m_options.maxHoldMs > 0 &&
            (start - lock.acquiredAtNs) / kNsPerMs + ttlMs > m_options.maxHoldMs)
            why = tr("extending by %1 ms would exceed the maximum hold time of %2 ms")
                      .arg(ttlMs)
                      .arg(m_options.maxHoldMs);
        if (why.isEmpty() && start >= lock.validUntilNs)
            why = tr("the lock's validity has already run out: it may be held by someone else now");
        if (!why.isEmpty()) {
            RoundResult r;
            r.lock = lock;
            r.nodes = notAttempted(nodeCount());
            r.error = why;
            finish(r);
            return;
        }
        const int n = nodeCount();
        const int q = quorum();
        const qint64 drift = rules::clockDriftMs(ttlMs, m_options.driftFactor);
        runRound(
            [this, lock, ttlMs](int node, NodeDone nodeDone) {
                evalOnNode(node, scripts::extend(), lock.resources, {lock.token, QByteArray::number(ttlMs)},
                           [this, node, nodeDone = std::move(nodeDone)](const RedisReply& reply, qint64 latencyUs) {
                               NodeOutcome o;
                               if (reply.isInteger()) {
                                   o.node = node;
                                   o.latencyUs = latencyUs;
                                   o.kind =
                                       reply.integer() == 1 ? NodeOutcome::Kind::Extended : NodeOutcome::Kind::NotHeld;
                               } else {
                                   o = failureOutcome(node, reply, latencyUs);
                               }
                               nodeDone(o);
                           });
            },
            [n, q](int ok, int failed) { return ok >= q || failed > n - q; },
            [this, lock, ttlMs, drift, start, q, finish](const QList<NodeOutcome>& outcomes, qint64 elapsedUs) {
                RoundResult r;
                r.nodes = outcomes;
                r.elapsedUs = elapsedUs;
                r.lock = lock;
                r.succeededCount = static_cast<int>(std::count_if(outcomes.begin(), outcomes.end(),
                                                                  [](const NodeOutcome& o) { return o.succeeded(); }));
                const qint64 now = nowNs();
                // The new validity counts from the start of the round, like an acquire's: if the round took
                // longer than ttl - drift, the renewed keys may already have expired (and PEXPIRE may have
                // shortened them), so the lock is not ours any more even with a quorum.
                const qint64 newValidUntilNs = start + (ttlMs - drift) * kNsPerMs;
                if (r.succeededCount < q) {
                    r.error = tr("extended on %1 node(s), %2 needed: the lock is lost").arg(r.succeededCount).arg(q);
                } else if (now >= lock.validUntilNs) {
                    r.error = tr("the extension came after the lock's validity ran out: the lock is lost");
                } else if (now >= newValidUntilNs) {
                    r.error =
                        tr("the extension took longer than the new validity (%1 ms TTL): the lock is lost").arg(ttlMs);
                } else {
                    r.ok = true;
                    r.lock.ttlMs = ttlMs;
                    r.lock.driftMs = drift;
                    r.lock.validUntilNs = newValidUntilNs;
                    r.lock.extensions = lock.extensions + 1;
                }
                finish(r);
            });
    });
}

} // namespace redlock
