#pragma once

#include "protocol/RedisReply.h"

#include <QByteArray>
#include <QList>

#include <functional>
#include <optional>

namespace redlock {

class RedisConnection;

// A Lua script: sent whole (EVAL) the first time on a connection, by SHA1 (EVALSHA) afterwards, with EVAL as
// the fallback when a node answers NOSCRIPT (after a SCRIPT FLUSH).
class LuaScript
{
public:
    explicit LuaScript(const char* source);
    const QByteArray& source() const { return m_source; }
    const QByteArray& sha() const { return m_sha; }

private:
    QByteArray m_source;
    QByteArray m_sha;
};

// Every Lua script the core sends lives here, with its SHA1, so the client and operator code around them read
// as the algorithm and nothing else.
namespace scripts {

// Compare-and-delete: removes each of KEYS that still holds ARGV[1]; returns how many were removed.
// The one release primitive of the project: RedlockClient's release and the operator's force release both
// use it, so a key that changed hands is never deleted by either. A key of another type (a Redisson hash)
// makes the script fail with WRONGTYPE and nothing is deleted.
const LuaScript& compareAndDelete();

// Compare-and-replace with a lock-delay tombstone (the operator's force release with lock-delay): if KEYS[1]
// still holds ARGV[1], its value becomes ARGV[2] (the tombstone) with a PX of ARGV[3] ms, but never less than
// the key's own PTTL plus the clock drift on that PTTL (the holder's remaining validity plus drift, both read
// and computed in the same atomic step, so an extension the holder made just before counts in full). The
// drift is rules::clockDriftMs: floor(PTTL × ARGV[4]) + ARGV[5], with ARGV[4] the drift factor and ARGV[5]
// rules::kClockDriftExtraMs. ARGV[3] = 0 means "exactly that PTTL plus drift". A key without expiry gets ARGV[3]
// as it is. Returns {PX set (> 0), the PTTL it was measured on (-1: none)}; -1 when the key no longer holds
// ARGV[1] (untouched); -2 when ARGV[3] is 0 and the key has no expiry (untouched: there is no remaining validity to
// measure). A key of another type fails with WRONGTYPE and is untouched, as with compareAndDelete.
const LuaScript& compareAndTombstone();

// Sets every key to the token if none is held by another token; otherwise reports the first conflict.
// Atomic per node, so a multi-resource lock never leaves a partial set of keys behind on a node.
// KEYS: resources..., then (only when fencing) the fence counters hash.
// ARGV: token, ttl ms, number of resources.
// Returns {1, fence} when set, {0, index of the conflict, holder's value, its PTTL, fence} when not. With
// fencing, fence is the largest counter of the resources on this node, read whether or not the lock is taken
// here (any node's counter may be the largest issued). A counter in the hash that is not a number is an
// error, and everything is read before anything is written.
const LuaScript& acquire();

// scripts::acquire()'s reply, typed: the one place that knows its layout.
struct AcquireReply
{
    bool acquired = false;    // every key was set to the token
    qint64 fence = 0;         // the largest fencing counter of the resources on this node (0 without fencing)
    int conflictIndex = 0;    // not acquired: the conflicting resource, 1-based, in KEYS order
    QByteArray holderToken;   // not acquired: the value that resource holds
    qint64 holderPttlMs = -1; // not acquired: its PTTL (-1: no expiry)
};

// {1, fence} or {0, index, holder, PTTL, fence}, each element of the type the script returns; std::nullopt for
// anything else (a server error, a transport failure, another length or element type): the caller reports that
// reply as it is, never a half-read one.
std::optional<AcquireReply> decodeAcquireReply(const RedisReply& reply);

// Compare-and-pexpire, all or nothing per node: 1 if every key held the token and was renewed.
const LuaScript& extend();

// Fencing max-register write-back, only where the lock is still ours: KEYS = resources..., the fence
// counters hash; ARGV = token, new fencing value. Raises each resource's counter to the value (never lowers
// it); a counter that is not a number is an error and nothing is written.
const LuaScript& writeFence();

// Read-only (run with EVALSHA_RO / EVAL_RO, Redis 7): one SCAN page of lock keys read in one command and one
// instant. KEYS: the page. Returns three elements per key, in KEYS order: its TYPE, its value (the string for a
// string, HGETALL's flat field/value list for a hash, nil otherwise) and its PTTL. The inspector's page read
// (observe/KeyReader.h): it replaces MGET + one PTTL per key, so a node runs one command per page, not per key.
const LuaScript& readPage();

} // namespace scripts

// Runs the script on `connection`: EVAL the first time on that connection, EVALSHA afterwards; on NOSCRIPT
// the whole source is resent with EVAL (same keys, arguments and timeout). done() is called exactly once,
// on the connection's thread.
void evalScript(RedisConnection* connection, const LuaScript& script, const QList<QByteArray>& keys,
                const QList<QByteArray>& args, int timeoutMs, std::function<void(const RedisReply&)> done);

} // namespace redlock
