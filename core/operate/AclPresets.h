#pragma once

#include "redlock/FencingCounters.h"

#include <QByteArray>
#include <QList>

namespace redlock {

// Least-privilege ACL rules for the users the console and the Redlock client need, in one place so that
// the documentation, the tests and the console's connection dialog say the same thing. Apply with
//   ACL SETUSER <name> on ><password> <rules...>
// The key pattern narrows which keys the user may touch (e.g. "redlock:*"); the fencing counters live in a
// key of their own (fenceCountersKey()), granted next to it: readable when monitoring (the safety audit
// checks whether fencing is in use), writable for the lock operator.
namespace AclPresets {

// Watching only: node health (PING, TIME, INFO, CONFIG GET), lock discovery (SCAN) and reads (TYPE, PTTL,
// GET, MGET, HGETALL, in MULTI/EXEC, or one read-only script per page: EVALSHA_RO, EVAL_RO), live events (keyspace
// notification channels). Cannot change anything: a read-only script that writes is refused by the server (and the
// commands a script runs are checked against these rules too). EVALSHA_RO and EVAL_RO are Redis 7 commands: on
// Redis 6, drop those two rules (ACL SETUSER refuses unknown commands) and the inspector reads per key.
//
// Redis checks a PSUBSCRIBE pattern literally against the user's channel rules (not as a glob), so the
// rule names the exact pattern the inspector subscribes to: __keyspace@<db>__:<keyPattern>.
inline QList<QByteArray> monitoring(const QByteArray& keyPattern = "*", int db = 0)
{
    return {"resetkeys",
            "resetchannels",
            "-@all",
            "+ping",
            "+info",
            "+config|get",
            "+time",
            "+client|setname",
            "+scan",
            "+type",
            "+pttl",
            "+get",
            "+mget",
            "+hgetall",
            "+multi", // a key's value and PTTL read in one transaction (observe/KeyReader.h)
            "+exec",
            "+evalsha_ro", // one read-only script per SCAN page (observe/KeyReader.h); Redis 7
            "+eval_ro",    // loads it where the node answers NOSCRIPT
            "+subscribe",
            "+psubscribe",
            "+unsubscribe",
            "+punsubscribe",
            "~" + keyPattern,
            "%R~" + fenceCountersKey(),
            "&__keyspace@" + QByteArray::number(db) + "__:" + keyPattern};
}

// Monitoring plus what acquire, extend, release, force release and the test bench need. Redis 7 checks
// the commands a Lua script runs against the caller's ACL too, hence +del, +pexpire, +hget and +hset (the
// fencing counters) next to +eval.
inline QList<QByteArray> lockOperator(const QByteArray& keyPattern = "*", int db = 0)
{
    QList<QByteArray> rules = monitoring(keyPattern, db);
    rules << "+set"
          << "+del"
          << "+pexpire"
          << "+hget"
          << "+hset"
          << "+eval"
          << "+evalsha"
          << "~" + fenceCountersKey();
    return rules;
}

} // namespace AclPresets

} // namespace redlock
