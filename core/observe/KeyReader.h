#pragma once

#include "observe/ObservationTypes.h"
#include "protocol/RedisConnection.h"
#include "runtime/SteadyClock.h"

#include <QCoreApplication>

#include <functional>
#include <memory>

namespace redlock {

// What one node said about one key, with when it said it.
struct KeyRead
{
    QByteArray key;
    int node = -1;
    NodeLockState state;
    qint64 readAtNs = 0;     // steady instant the read was SENT (the server's PTTL is as of a later instant)
    bool nodeFailed = false; // the connection failed (timeout, lost): the whole node is unreachable
    enum class Skip { None, NoTtl, OtherType, NotALockFormat } skip = Skip::None;
};

// Reads lock keys on one node, about one command per key: one pipeline per batch of keys, holding one MGET
// for the batch (nil for missing keys and non-strings) and one PTTL per key, inside MULTI/EXEC: a value and its
// PTTL are of one instant, never the old holder's value with a new holder's PTTL (another client's DEL + SET NX PX
// between the two). A node whose ACL refuses MULTI is read without the transaction (as before), and a
// transaction the server aborts (a command refused when queued) is read again without it, per command. Keys that exist
// but have no string value (Redisson hashes, other types, or an MGET the ACL refused) get TYPE + PTTL + GET + HGETALL
// in a second, small pipeline. A value without TTL is a lock that never expires when it looks like one (a format a lock
// library writes, a Redisson holder); any other string without TTL is application data (Skip::NoTtl). With
// onlyLockFormats (a pattern that names no lock: patternNamesLocks), a value with a TTL must be in a lock format too,
// or it is application data (Skip::NotALockFormat: a cache entry, a session, a plain hash). An ACL refusal (NOPERM) is
// a state of its own: the node answers, but not about this key.
//
// On a node that runs it, a page is read instead with one read-only script (scripts::readPage(), EVALSHA_RO, Redis 7):
// TYPE, value or hash and PTTL of every key in one command and one instant, where the node's cost is mostly per
// command. The same answers go through the same rules, so both paths observe alike. Where the node refuses the script
// (an ACL without +evalsha_ro, a Redis before 7: "unknown command"), the page is read per key as above and the node
// stays on that path (readPath(), with the refusal in readPathNote()); a refusal about the page's keys (an ACL key
// pattern narrower than the SCAN pattern) or a busy node sends only that page per key. NOSCRIPT loads it (EVAL_RO).
//
// Lives on its owner's thread. Its replies come back on the connection's handlers: while `alive` (the
// owner's token) is false, none of them calls done() or a hook, so the owner clears it before it deletes
// the connection (which fails what is pending) and this reader.
class KeyReader
{
    Q_DECLARE_TR_FUNCTIONS(redlock::KeyReader)

public:
    struct Hooks
    {
        std::function<void(qint64 commands, bool forPass)> charge; // before each pipeline is sent
        std::function<void(qint64 us)> roundTripUs;                // when each pipeline's replies are in
    };
    KeyReader(RedisConnection* connection, int node, int batchKeys, int timeoutMs, std::shared_ptr<SteadyClock> clock,
              std::shared_ptr<bool> alive, Hooks hooks, bool onlyLockFormats = false)
        : m_connection(connection), m_node(node), m_batchKeys(batchKeys), m_timeoutMs(timeoutMs),
          m_clock(std::move(clock)), m_alive(std::move(alive)), m_hooks(std::move(hooks)),
          m_onlyLockFormats(onlyLockFormats)
    {}

    // Reads `keys` in pipelines of at most batchKeys keys; done() gets one KeyRead per key (in order) and is
    // called once, after the last batch. forPass is handed to Hooks::charge (what the commands are for).
    void read(const QList<QByteArray>& keys, bool forPass, std::function<void(QList<KeyRead>)> done);

    // Off: every page per key (InspectorOptions::pageScripts; the tests compare both paths).
    void setPageScripts(bool enabled);
    ReadPath readPath() const { return m_path; }
    QString readPathNote() const { return m_pathNote; }

private:
    using Done = std::function<void(QList<KeyRead>)>;
    void readPage(const QList<QByteArray>& keys, bool forPass, Done done, bool loaded);
    void readPerKey(const QList<QByteArray>& keys, bool forPass, Done done);
    // The rules both paths share: a value (a string, or a hash's holders) without TTL, or not in a lock format.
    void setValue(KeyRead& read, const QByteArray& value, bool lockLike) const;
    // A key read as TYPE + PTTL + its value: `value` is GET's reply for a string, HGETALL's for a hash.
    void resolveTyped(KeyRead& read, const QByteArray& type, qint64 pttlMs, const RedisReply& value) const;
    static void unreachable(KeyRead& read, const RedisReply& reply, const char* command);

    // Sends `commands` as one transaction, each handler getting its own command's reply (see the class comment).
    void sendAtomic(QList<RedisConnection::Command> commands, bool forPass);
    void readBatch(const QList<QByteArray>& keys, bool forPass, std::function<void(QList<KeyRead>)> done);

    RedisConnection* m_connection;
    int m_node;
    int m_batchKeys;
    int m_timeoutMs;
    std::shared_ptr<SteadyClock> m_clock;
    std::shared_ptr<bool> m_alive;
    Hooks m_hooks;
    bool m_transactions = true; // false once the node refused MULTI
    bool m_onlyLockFormats;
    ReadPath m_path = ReadPath::Unknown;
    QString m_pathNote;
};

} // namespace redlock
