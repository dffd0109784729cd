#pragma once

#include "protocol/NodeEndpoint.h"
#include "protocol/RedisConnection.h"
#include "redlock/LockToken.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace redlock {

// How a force release leaves the key (Chubby's and Consul's lock-delay). A deleted lock is free at once: if
// its holder is not dead but paused (GC, a stalled VM, a partition) it wakes up still believing it holds the
// lock while a newcomer has it. A lock-delay closes that window: the holder's token is replaced by a
// LockTombstone that outlasts the validity the holder can still believe in, so its extend and release fail
// at once and a newcomer's SET NX is refused until the tombstone expires.
struct LockDelay
{
    // Fixed is the operator's duration, raised on a node where the key's PTTL plus drift is longer: a fixed
    // lock-delay never frees a lock before its holder's validity is over (a key without expiry gets fixedMs as
    // it is). Only Delete frees it earlier.
    enum class Mode {
        Auto,   // tombstone for the key's remaining PTTL on each node plus the clock drift (the default)
        Fixed,  // tombstone for max(fixedMs, PTTL + drift) on each node (ForceReleaseNode::lockDelayRaised)
        Delete, // compare-and-delete: free at once (lock-delay 0)
    };
    Mode mode = Mode::Auto;
    qint64 fixedMs = 0;

    static LockDelay automatic() { return {}; }
    static LockDelay deleteNow() { return {Mode::Delete, 0}; }
    static LockDelay fixed(qint64 ms) { return ms <= 0 ? deleteNow() : LockDelay{Mode::Fixed, ms}; }
    static constexpr qint64 kMaxFixedMs = 7LL * 24 * 3600 * 1000;
    // "auto", "0" (delete) or milliseconds up to kMaxFixedMs: what `--lock-delay` takes. nullopt otherwise.
    static std::optional<LockDelay> parse(const QString& text);
    // "auto", "0" or the milliseconds: for JSON and the audit log.
    QString id() const;
    // The PX a node whose key has pttlMs left gets: Auto: pttlMs + rules::clockDriftMs(pttlMs); Fixed: the
    // larger of fixedMs and that (fixedMs when pttlMs < 0, no expiry); Delete: 0. -1 when Auto meets a key
    // without expiry (nothing to measure).
    qint64 pxFor(qint64 pttlMs, double driftFactor) const;

    friend bool operator==(const LockDelay&, const LockDelay&) = default;
};

struct ForceReleaseOptions
{
    QList<NodeEndpoint> nodes;
    int nodeTimeoutMs = 2000;  // per node; an operator action, not a Redlock round
    double driftFactor = 0.01; // for LockDelay::Mode::Auto (rules::clockDriftMs)
    bool readOnly = false;     // execute() is refused (and nothing is logged); preview() still works
    QString profileName;       // written to the audit log
    QString auditLogPath;      // empty = AuditLog::defaultPath()
    ConnectionOptions connection;
};

// What force release does (preview) or did (execute) on one node.
struct ForceReleaseNode
{
    enum class Kind {
        NotAttempted,  // refused before anything was sent
        WillDelete,    // preview: the node still holds the expected token (LockDelay::Mode::Delete)
        Deleted,       // execute: compare-and-delete removed the expected token
        WillTombstone, // preview: the node still holds the expected token; lockDelayMs says for how long
        Tombstoned,    // execute: the expected token was replaced by the tombstone for lockDelayMs
        NoExpiry,      // the expected token has no expiry: an automatic lock-delay has nothing to measure (untouched)
        TokenChanged,  // another token holds the key: skipped / untouched (foundToken names it)
        Gone,          // the node has no such key: nothing to do
        OtherType,     // the key is not a string lock (foundType; e.g. a Redisson hash): refused, untouched
        Unreachable,   // connection error or timeout (execute: the delete may or may not have run)
        RedisError,    // the node answered with an error (NOPERM, READONLY, ...): untouched
    };

    int node = -1;
    Kind kind = Kind::NotAttempted;
    QByteArray foundToken;   // the value found on the node (TokenChanged, WillDelete)
    QString foundType;       // TYPE of the key when it was looked at ("string", "hash", "none", ...)
    qint64 pttlMs = -3;      // PTTL of the key when looked at; -3 = not read
    qint64 lockDelayMs = -1; // WillTombstone: the PX the tombstone would get now; Tombstoned: the PX it got
    // A fixed lock-delay was raised to the key's PTTL plus drift on this node (lockDelayMs > the fixed value)
    // to cover the holder's remaining validity.
    bool lockDelayRaised = false;
    RedisErrorKind errorKind = RedisErrorKind::None;
    QString error;
    qint64 latencyUs = -1;

    bool isUntouchedByChoice() const
    {
        return kind == Kind::TokenChanged || kind == Kind::Gone || kind == Kind::OtherType || kind == Kind::NoExpiry;
    }
    // How long a newcomer's SET NX is refused on this node once the release has run (preview: would have
    // run): 0 free, > 0 for that many ms, -1 indefinitely or unknown (no expiry, unreachable). For
    // rules::quorumFreeInMs.
    qint64 blockedForMs() const;
};

QString forceReleaseKindName(ForceReleaseNode::Kind kind); // translated, for display
QString forceReleaseKindId(ForceReleaseNode::Kind kind);   // stable, for JSON and the audit log

struct ForceReleaseReport
{
    enum class Stage { Preview, Execute };
    Stage stage = Stage::Preview;
    QByteArray key;
    QByteArray expectedToken;
    LockDelay lockDelay;
    QByteArray tombstone;          // execute: the value written where the token matched (lock-delay)
    QString reason;                // execute: the operator's note, as logged
    QList<ForceReleaseNode> nodes; // one per configured node, in configuration order
    bool refused = false;          // nothing was sent (read-only, bad input, the intent line not written)
    QString error;                 // why it was refused
    QString operationId;           // execute: ties the intent line to the result line in the audit log
    bool audited = false;          // execute: the result line was written (the intent line always is)
    QString auditError;            // execute: why the result line was not written (the deletes did run)
    qint64 elapsedUs = 0;
    qint64 finishedAtMs = 0; // wall clock when the last node answered
    // When a newcomer can acquire the lock (rules::quorumFreeInMs over the nodes' blockedForMs()), counted
    // from finishedAtMs: 0 at once, -1 not by itself or unknown (nodes without expiry or unreachable).
    qint64 freeInMs = -1;
    // The longest lock-delay set (preview: that would be set) on any node; -1 none.
    qint64 longestLockDelayMs() const;
    // Nodes where a fixed lock-delay was (preview: would be) raised to cover the holder's validity.
    int lockDelayRaisedCount() const;

    int count(ForceReleaseNode::Kind kind) const;
    // Preview: the validity the expected token still has as a Redlock lock (the quorum-th largest PTTL among the
    // nodes where it would be replaced, minus drift), when it holds a quorum of nodes with an expiry: the release
    // would take a live holder's lock. -1 when it does not (a value without expiry, a leftover, nothing).
    qint64 liveQuorumValidityMs(double driftFactor) const;
    // Preview: nodes that would release (delete or tombstone); execute: nodes that did.
    int matched() const
    {
        return stage == Stage::Preview
                   ? count(ForceReleaseNode::Kind::WillDelete) + count(ForceReleaseNode::Kind::WillTombstone)
                   : count(ForceReleaseNode::Kind::Deleted) + count(ForceReleaseNode::Kind::Tombstoned);
    }
    int unreachable() const { return count(ForceReleaseNode::Kind::Unreachable); }
    // Wall-clock instant the lock is free again (finishedAtMs + freeInMs); -1 when freeInMs is.
    qint64 freeAtMs() const { return freeInMs < 0 ? -1 : finishedAtMs + freeInMs; }
};

// Operator's force release of a stuck lock: never a bare DEL. The operator names the token they saw;
// every node runs a compare-and-set on it, so a lock that changed hands since the preview is left to its new
// holder and the result says so per node. With a lock-delay (the default, LockDelay::Mode::Auto) the token
// is replaced by a LockTombstone (scripts::compareAndTombstone); with lock-delay 0 the key is deleted with the
// compare-and-delete RedlockClient's release uses (scripts::compareAndDelete).
//
// Only plain string locks (node-redlock, Redsync, pottery, RedLock.net, redlock-rb, this project) are
// handled. A Redisson hash lock (or any other type) is reported as OtherType and left alone: deleting a
// Redisson lock safely needs its own compare-on-field script and its unlock channel message, and a lock
// released behind Redisson's watchdog would simply be re-extended by it.
//
// Thread model as RedlockClient: lives on one thread with an event loop (an IoThread); calls may come from
// any thread and return futures that complete on the object's thread. Nothing throws.
class ForceRelease final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ForceRelease)

public:
    explicit ForceRelease(ForceReleaseOptions options, QObject* parent = nullptr);
    ~ForceRelease() override;

    const ForceReleaseOptions& options() const { return m_options; }
    int nodeCount() const { return static_cast<int>(m_options.nodes.size()); }
    // Errors in the options (no nodes, duplicate endpoints): every call is refused with them.
    QStringList configErrors() const { return m_configErrors; }

    // Reads the key on every node (TYPE, GET, PTTL) and says what execute() would do there, with which
    // lock-delay, and when the lock would be free. Writes nothing.
    QFuture<ForceReleaseReport> preview(const QByteArray& key, const QByteArray& expectedToken,
                                        LockDelay lockDelay = {});
    // Write-ahead audit: first an intent line ("force-release-intent": key, token, lock-delay, nodes, reason),
    // fsynced; only then the compare-and-set with expectedToken on every node (tombstone or delete, see
    // LockDelay; Auto reads the PTTL first and the script adds it to the drift atomically); then the result
    // line ("force-release", the per-node result and lock-delay, when the lock is free), tied to the intent by
    // operationId. If the intent line cannot be written (open, write or fsync fails), nothing is changed and
    // the report is refused with that error; if the result line fails, audited is false and auditError says
    // why. Refused in read-only mode.
    QFuture<ForceReleaseReport> execute(const QByteArray& key, const QByteArray& expectedToken,
                                        const QString& reason = {}, LockDelay lockDelay = {});
    // The tombstone this process writes now: released by "<os user>@<host>", at the current wall clock.
    static LockTombstone newTombstone();

signals:
    void previewFinished(const redlock::ForceReleaseReport& report);
    void executeFinished(const redlock::ForceReleaseReport& report);

private:
    using Deliver = std::function<void(const ForceReleaseReport&)>;
    void run(ForceReleaseReport::Stage stage, const QByteArray& key, const QByteArray& token, const QString& reason,
             LockDelay lockDelay, Deliver deliver);
    QString refusal(ForceReleaseReport::Stage stage, const QByteArray& key, const QByteArray& token,
                    LockDelay lockDelay) const;
    // TYPE, GET, PTTL in one pipeline; `done` gets the node's state as a preview with `lockDelay` would
    // describe it.
    void describe(int node, const QByteArray& key, const QByteArray& token, LockDelay lockDelay, qint64 startNs,
                  std::function<void(ForceReleaseNode)> done);
    void deleteOnNode(int node, const QByteArray& key, const QByteArray& token, qint64 startNs,
                      std::function<void(ForceReleaseNode)> done);
    // pxMs > 0: that PX, raised to the key's own PTTL plus drift; 0: exactly that. The PTTL is read and the
    // drift taken on it in the script (the node's PTTL at the moment of the swap, not an earlier read).
    void tombstoneOnNode(int node, const QByteArray& key, const QByteArray& token, const QByteArray& tombstone,
                         LockDelay lockDelay, qint64 pxMs, qint64 startNs, std::function<void(ForceReleaseNode)> done);
    // After a compare-and-set that changed nothing: what is there instead.
    void describeUntouched(int node, const QByteArray& key, const QByteArray& token, LockDelay lockDelay,
                           qint64 startNs, std::function<void(ForceReleaseNode)> done);
    bool writeIntent(ForceReleaseReport& report) const;
    void writeAudit(ForceReleaseReport& report) const;
    qint64 nowNs() const;

    ForceReleaseOptions m_options;
    QStringList m_configErrors;
    std::vector<RedisConnection*> m_connections;
    bool m_shuttingDown = false;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::ForceReleaseReport)
Q_DECLARE_METATYPE(redlock::LockDelay)
