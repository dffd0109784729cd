#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

struct redisReader;

namespace redlock {

// Why a command did not produce the reply the caller hoped for. Server errors are classified by their
// prefix; the others come from the transport. Kept small and stable: the UI and the CLI map these to text.
enum class RedisErrorKind {
    None,
    ConnectionRefused,
    HostNotFound,
    Unreachable,
    Timeout,
    AuthFailed,
    NoPermission,
    ReadOnly,
    WrongType,
    NoScript,
    Loading,
    ConnectionLost,
    NotConnected,
    Tls,
    Protocol,
    ServerError,
};

QString errorKindName(RedisErrorKind kind);

// A decoded RESP2 reply, or the reason there is none (type Failure). Binary safe: strings are QByteArray.
class RedisReply
{
public:
    enum class Type { Nil, Status, Error, Integer, String, Array, Failure };

    RedisReply() = default;
    // A hiredis reader that builds RedisReply objects as it parses (no hiredis reply tree to copy and free):
    // free it with redisReaderFree(). What redisReaderGetReply() gives is taken with takeFromReader().
    static redisReader* createReader();
    static RedisReply takeFromReader(void* reply);
    static RedisReply failure(RedisErrorKind kind, const QString& message);
    static RedisReply integerReply(qint64 value);
    static RedisReply stringReply(const QByteArray& value);

    // Maps "NOPERM ...", "WRONGTYPE ..." and the like to a kind; ServerError when the prefix is unknown.
    static RedisErrorKind classifyServerError(const QByteArray& message);

    Type type() const { return m_type; }
    bool isNil() const { return m_type == Type::Nil; }
    bool isError() const { return m_type == Type::Error || m_type == Type::Failure; }
    bool isInteger() const { return m_type == Type::Integer; }
    bool isString() const { return m_type == Type::String || m_type == Type::Status; }
    bool isArray() const { return m_type == Type::Array; }

    const QByteArray& bytes() const { return m_bytes; }
    qint64 integer() const { return m_integer; }
    const QList<RedisReply>& elements() const { return m_elements; }
    RedisErrorKind errorKind() const { return m_errorKind; }
    // Human-readable error text (server message or transport reason); empty when not an error.
    QString errorText() const;

private:
    friend struct ReplyBuilder;
    Type m_type = Type::Nil;
    RedisErrorKind m_errorKind = RedisErrorKind::None;
    qint64 m_integer = 0;
    QByteArray m_bytes;
    QList<RedisReply> m_elements;
};

} // namespace redlock
