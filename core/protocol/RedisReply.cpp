#include "protocol/RedisReply.h"

#include <QCoreApplication>
#include <hiredis/hiredis.h>

#include <cstring>

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

RedisReply RedisReply::fromHiredis(const redisReply* reply)
{
    RedisReply out;
    if (!reply)
        return failure(RedisErrorKind::Protocol, QStringLiteral("empty reply"));
    switch (reply->type) {
    case REDIS_REPLY_NIL:
        out.m_type = Type::Nil;
        break;
    case REDIS_REPLY_STATUS:
        out.m_type = Type::Status;
        // "+OK" answers most writes, every SET of a Redlock round among them: static bytes, no allocation.
        if (reply->len == 2 && std::memcmp(reply->str, "OK", 2) == 0)
            out.m_bytes = QByteArrayLiteral("OK");
        else
            out.m_bytes = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_ERROR:
        out.m_type = Type::Error;
        out.m_bytes = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        out.m_errorKind = classifyServerError(out.m_bytes);
        break;
    case REDIS_REPLY_INTEGER:
        out.m_type = Type::Integer;
        out.m_integer = reply->integer;
        break;
    case REDIS_REPLY_STRING:
        out.m_type = Type::String;
        out.m_bytes = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_ARRAY:
        out.m_type = Type::Array;
        out.m_elements.reserve(static_cast<qsizetype>(reply->elements));
        for (size_t i = 0; i < reply->elements; ++i)
            out.m_elements.append(fromHiredis(reply->element[i]));
        break;
    default:
        return failure(RedisErrorKind::Protocol, QStringLiteral("unknown reply type %1").arg(reply->type));
    }
    return out;
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
