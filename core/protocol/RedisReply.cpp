#include "protocol/RedisReply.h"

#include <QCoreApplication>
#include <hiredis/hiredis.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace redlock {

QString errorKindName(RedisErrorKind kind)
{
    switch (kind) {
    case RedisErrorKind::None:
        return QCoreApplication::translate("redlock::RedisErrorKind", "no error");
    case RedisErrorKind::ConnectionRefused:
        return QCoreApplication::translate("redlock::RedisErrorKind", "connection refused");
    case RedisErrorKind::HostNotFound:
        return QCoreApplication::translate("redlock::RedisErrorKind", "host not found");
    case RedisErrorKind::Unreachable:
        return QCoreApplication::translate("redlock::RedisErrorKind", "unreachable");
    case RedisErrorKind::Timeout:
        return QCoreApplication::translate("redlock::RedisErrorKind", "timeout");
    case RedisErrorKind::AuthFailed:
        return QCoreApplication::translate("redlock::RedisErrorKind", "authentication failed");
    case RedisErrorKind::NoPermission:
        return QCoreApplication::translate("redlock::RedisErrorKind", "no permission");
    case RedisErrorKind::ReadOnly:
        return QCoreApplication::translate("redlock::RedisErrorKind", "read-only replica");
    case RedisErrorKind::WrongType:
        return QCoreApplication::translate("redlock::RedisErrorKind", "wrong type");
    case RedisErrorKind::NoScript:
        return QCoreApplication::translate("redlock::RedisErrorKind", "script not loaded");
    case RedisErrorKind::Loading:
        return QCoreApplication::translate("redlock::RedisErrorKind", "loading data set");
    case RedisErrorKind::ConnectionLost:
        return QCoreApplication::translate("redlock::RedisErrorKind", "connection lost");
    case RedisErrorKind::NotConnected:
        return QCoreApplication::translate("redlock::RedisErrorKind", "not connected");
    case RedisErrorKind::Tls:
        return QCoreApplication::translate("redlock::RedisErrorKind", "TLS error");
    case RedisErrorKind::Protocol:
        return QCoreApplication::translate("redlock::RedisErrorKind", "protocol error");
    case RedisErrorKind::ServerError:
        return QCoreApplication::translate("redlock::RedisErrorKind", "server error");
    }
    return {};
}

// hiredis parses; these build the replies (redisReplyObjectFunctions). A root reply is allocated and owned by
// the reader until redisReaderGetReply() hands it out (or the reader frees it on a parse error); an element is
// built in its parent's list, appended in order: hiredis creates the elements of an array one after the other
// and uses an element's address only until its next sibling is created, so a growing list is safe.
struct ReplyBuilder
{
    using Type = RedisReply::Type;
    // Arrays are not sized from the header alone: a hostile or broken server can announce 2^31 elements.
    static constexpr int kReserveAtMost = 4096;

    static RedisReply* place(const redisReadTask* task)
    {
        // The connection's count of elements built for the reply in progress (its reader's privdata): an
        // endless array costs memory much faster than its bytes on the wire, and is capped by it too.
        if (task->privdata)
            ++*static_cast<qint64*>(task->privdata);
        if (!task->parent)
            return new RedisReply;
        auto* parent = static_cast<RedisReply*>(task->parent->obj);
        return &parent->m_elements.emplace_back();
    }
    static void* createString(const redisReadTask* task, char* str, size_t len)
    {
        RedisReply* reply = place(task);
        switch (task->type) {
        case REDIS_REPLY_STATUS:
            reply->m_type = Type::Status;
            // "+OK" answers most writes, every SET of a Redlock round among them, and "+QUEUED" every command of a
            // transaction (the inspector reads in MULTI/EXEC: a million of them at 1M locks): static bytes.
            if (len == 2 && std::memcmp(str, "OK", 2) == 0)
                reply->m_bytes = QByteArrayLiteral("OK");
            else if (len == 6 && std::memcmp(str, "QUEUED", 6) == 0)
                reply->m_bytes = QByteArrayLiteral("QUEUED");
            else
                reply->m_bytes = QByteArray(str, static_cast<qsizetype>(len));
            break;
        case REDIS_REPLY_ERROR:
            reply->m_type = Type::Error;
            reply->m_bytes = QByteArray(str, static_cast<qsizetype>(len));
            reply->m_errorKind = RedisReply::classifyServerError(reply->m_bytes);
            break;
        default:
            reply->m_type = Type::String;
            reply->m_bytes = QByteArray(str, static_cast<qsizetype>(len));
            break;
        }
        return reply;
    }
    static void* createArray(const redisReadTask* task, int elements)
    {
        RedisReply* reply = place(task);
        reply->m_type = Type::Array;
        reply->m_elements.reserve(std::clamp(elements, 0, kReserveAtMost));
        return reply;
    }
    static void* createInteger(const redisReadTask* task, long long value)
    {
        RedisReply* reply = place(task);
        reply->m_type = Type::Integer;
        reply->m_integer = value;
        return reply;
    }
    static void* createNil(const redisReadTask* task)
    {
        RedisReply* reply = place(task);
        reply->m_type = Type::Nil;
        return reply;
    }
    static void freeObject(void* reply) { delete static_cast<RedisReply*>(reply); }
};

namespace {
redisReplyObjectFunctions g_replyFunctions{&ReplyBuilder::createString, &ReplyBuilder::createArray,
                                           &ReplyBuilder::createInteger, &ReplyBuilder::createNil,
                                           &ReplyBuilder::freeObject};
} // namespace

redisReader* RedisReply::createReader()
{
    return redisReaderCreateWithFunctions(&g_replyFunctions);
}

RedisReply RedisReply::takeFromReader(void* reply)
{
    std::unique_ptr<RedisReply> owned(static_cast<RedisReply*>(reply));
    if (!owned)
        return failure(RedisErrorKind::Protocol, QStringLiteral("empty reply"));
    return std::move(*owned);
}

RedisReply RedisReply::failure(RedisErrorKind kind, const QString& message)
{
    RedisReply out;
    out.m_type = Type::Failure;
    out.m_errorKind = kind;
    out.m_bytes = message.toUtf8();
    return out;
}

RedisReply RedisReply::integerReply(qint64 value)
{
    RedisReply out;
    out.m_type = Type::Integer;
    out.m_integer = value;
    return out;
}

RedisReply RedisReply::stringReply(const QByteArray& value)
{
    RedisReply out;
    out.m_type = Type::String;
    out.m_bytes = value;
    return out;
}

RedisErrorKind RedisReply::classifyServerError(const QByteArray& message)
{
    struct Prefix
    {
        const char* text;
        RedisErrorKind kind;
    };
    static constexpr Prefix prefixes[] = {
        {"NOPERM", RedisErrorKind::NoPermission},  {"NOAUTH", RedisErrorKind::AuthFailed},
        {"WRONGPASS", RedisErrorKind::AuthFailed}, {"READONLY", RedisErrorKind::ReadOnly},
        {"WRONGTYPE", RedisErrorKind::WrongType},  {"NOSCRIPT", RedisErrorKind::NoScript},
        {"LOADING", RedisErrorKind::Loading},
    };
    for (const auto& p : prefixes) {
        if (message.startsWith(p.text))
            return p.kind;
    }
    // Errors raised inside a Lua script arrive wrapped ("ERR Error running script ...: WRONGTYPE ...").
    if (message.contains("WRONGTYPE"))
        return RedisErrorKind::WrongType;
    if (message.contains("NOPERM") || message.contains("no permissions"))
        return RedisErrorKind::NoPermission;
    if (message.contains("READONLY"))
        return RedisErrorKind::ReadOnly;
    return RedisErrorKind::ServerError;
}

QString RedisReply::errorText() const
{
    if (!isError())
        return {};
    return QString::fromUtf8(m_bytes);
}

} // namespace redlock
