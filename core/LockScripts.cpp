#include "LockScripts.h"

#include "RedisConnection.h"

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

} // namespace scripts

void evalScript(RedisConnection* connection, const LuaScript& script, const QList<QByteArray>& keys,
                const QList<QByteArray>& args, int timeoutMs, std::function<void(const RedisReply&)> done)
{
    QList<QByteArray> command;
    command.reserve(3 + keys.size() + args.size());
    command << "EVALSHA" << script.sha() << QByteArray::number(keys.size()) << keys << args;
    connection->send(
        command,
        [connection, command, &script, timeoutMs, done = std::move(done)](const RedisReply& reply) mutable {
            if (reply.errorKind() != RedisErrorKind::NoScript) {
                done(reply);
                return;
            }
            // The node does not know the script (flushed, restarted, first use): send it whole.
            command[0] = "EVAL";
            command[1] = script.source();
            connection->send(command, std::move(done), timeoutMs);
        },
        timeoutMs);
}

} // namespace redlock
