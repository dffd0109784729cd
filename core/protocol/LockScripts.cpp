#include "protocol/LockScripts.h"

#include "protocol/RedisConnection.h"

#include <QCryptographicHash>

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
