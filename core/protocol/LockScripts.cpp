#include "protocol/LockScripts.h"

#include "protocol/RedisConnection.h"

#include <QCryptographicHash>

#include <climits>

namespace redlock {

LuaScript::LuaScript(const char* source)
    : m_source(source), m_sha(QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex())
{}

namespace scripts {

const LuaScript& compareAndDelete()
{
    static const LuaScript script(R"lua(
local removed = 0
for i = 1, #KEYS do
    if redis.call('GET', KEYS[i]) == ARGV[1] then
        redis.call('DEL', KEYS[i])
        removed = removed + 1
    end
end
return removed
)lua");
    return script;
}

const LuaScript& compareAndTombstone()
{
    static const LuaScript script(R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
    return -1
end
local px = tonumber(ARGV[3])
local pttl = redis.call('PTTL', KEYS[1])
local covered = -1
if pttl >= 0 then
    covered = pttl + math.floor(pttl * tonumber(ARGV[4])) + tonumber(ARGV[5])
end
if px <= 0 then
    if pttl < 0 then
        return -2
    end
    px = covered
elseif covered > px then
    px = covered
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', px)
return {px, pttl}
)lua");
    return script;
}

const LuaScript& acquire()
{
    static const LuaScript script(R"lua(
local n = tonumber(ARGV[3])
local fence = 0
if #KEYS > n then
    for i = 1, n do
        local value = tonumber(redis.call('HGET', KEYS[n + 1], KEYS[i]) or '0')
        if not value then
            return redis.error_reply('ERR the fencing counter of ' .. KEYS[i] .. ' is not a number')
        end
        if value > fence then fence = value end
    end
end
for i = 1, n do
    local current = redis.call('GET', KEYS[i])
    if current and current ~= ARGV[1] then
        return {0, i, current, redis.call('PTTL', KEYS[i]), fence}
    end
end
for i = 1, n do
    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
end
return {1, fence}
)lua");
    return script;
}

std::optional<AcquireReply> decodeAcquireReply(const RedisReply& reply)
{
    const QList<RedisReply>& e = reply.elements();
    if (!reply.isArray() || e.isEmpty() || !e[0].isInteger())
        return std::nullopt;
    AcquireReply decoded;
    if (e[0].integer() == 1 && e.size() == 2 && e[1].isInteger()) {
        decoded.acquired = true;
        decoded.fence = e[1].integer();
        return decoded;
    }
    // The holder's value is a bulk string (GET of a string key); a status reply is not what GET answers.
    if (e[0].integer() == 0 && e.size() == 5 && e[1].isInteger() && e[2].type() == RedisReply::Type::String &&
        e[3].isInteger() && e[4].isInteger() && e[1].integer() >= 1 && e[1].integer() <= INT_MAX) {
        decoded.conflictIndex = static_cast<int>(e[1].integer());
        decoded.holderToken = e[2].bytes();
        decoded.holderPttlMs = e[3].integer();
        decoded.fence = e[4].integer();
        return decoded;
    }
    return std::nullopt;
}

const LuaScript& extend()
{
    static const LuaScript script(R"lua(
for i = 1, #KEYS do
    if redis.call('GET', KEYS[i]) ~= ARGV[1] then return 0 end
end
for i = 1, #KEYS do
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return 1
)lua");
    return script;
}

const LuaScript& writeFence()
{
    static const LuaScript script(R"lua(
local n = #KEYS - 1
local counters = KEYS[n + 1]
for i = 1, n do
    if redis.call('GET', KEYS[i]) ~= ARGV[1] then return 0 end
end
local target = tonumber(ARGV[2])
local raise = {}
for i = 1, n do
    local value = tonumber(redis.call('HGET', counters, KEYS[i]) or '0')
    if not value then
        return redis.error_reply('ERR the fencing counter of ' .. KEYS[i] .. ' is not a number')
    end
    if value < target then raise[#raise + 1] = KEYS[i] end
end
for _, resource in ipairs(raise) do
    redis.call('HSET', counters, resource, ARGV[2])
end
return 1
)lua");
    return script;
}

const LuaScript& readPage()
{
    // One MGET for the page, then a PTTL per key; TYPE (and GET or HGETALL) only for keys MGET had no string for:
    // each redis.call costs about a microsecond of the node's time, so the common case (a string lock) takes two
    // calls per key, not three. TYPE answers a status reply ({ok = 'string'}): its text goes back as a bulk string.
    // false is nil. The script is atomic: a value and its PTTL are of one instant.
    static const LuaScript script(R"lua(
local values = redis.call('MGET', unpack(KEYS))
local out = {}
for i = 1, #KEYS do
    local key = KEYS[i]
    local pttl = redis.call('PTTL', key)
    local t = 'none'
    local v = values[i]
    if v then
        t = 'string'
    elseif pttl ~= -2 then
        t = redis.call('TYPE', key)['ok']
        if t == 'hash' then
            v = redis.call('HGETALL', key)
        elseif t == 'string' then
            v = redis.call('GET', key)
        end
    end
    out[#out + 1] = t
    out[#out + 1] = v
    out[#out + 1] = pttl
end
return out
)lua");
    return script;
}

} // namespace scripts

void evalScript(RedisConnection* connection, const LuaScript& script, const QList<QByteArray>& keys,
                const QList<QByteArray>& args, int timeoutMs, std::function<void(const RedisReply&)> done)
{
    // Order matters: a Redlock round relies on a node running our commands in the order we sent them (the
    // cleanup release after the acquire). An EVALSHA answered NOSCRIPT and resent as EVAL would run after
    // whatever was sent in between, so a script this connection has not sent yet goes as EVAL right away
    // (which also caches it on the server) and only later calls use EVALSHA. NOSCRIPT is then left to a
    // SCRIPT FLUSH on a live connection: handled by resending, the one case where order is not kept.
    QList<QByteArray> command;
    command.reserve(3 + keys.size() + args.size());
    const bool known = connection->knowsScript(script.sha());
    command << (known ? QByteArrayLiteral("EVALSHA") : QByteArrayLiteral("EVAL"))
            << (known ? script.sha() : script.source())
            << (keys.size() == 1 ? QByteArrayLiteral("1") : QByteArray::number(keys.size())) << keys << args;
    connection->setScriptKnown(script.sha(), true);
    connection->send(
        command,
        [connection, command, &script, timeoutMs, done = std::move(done)](const RedisReply& reply) mutable {
            if (reply.errorKind() != RedisErrorKind::NoScript) {
                done(reply);
                return;
            }
            command[0] = QByteArrayLiteral("EVAL");
            command[1] = script.source();
            connection->send(command, std::move(done), timeoutMs);
        },
        timeoutMs);
}

} // namespace redlock
