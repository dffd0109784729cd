#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

struct redisReader;

namespace redlock {

/// Why a command did not produce the reply the caller hoped for. Server errors are classified by their
/// prefix; the others come from the transport. Kept small and stable: the UI and the CLI map these to text.
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

/// The kind as a stable English identifier ("timeout", "no-permission", ...), for logs and JSON.
QString errorKindName(RedisErrorKind kind);

/// A decoded RESP2 reply, or the reason there is none (type Failure). Binary safe: strings are QByteArray.
/// A plain value (implicitly shared Qt containers inside), safe to copy between threads.
class RedisReply
{
public:
    /// RESP2's reply types, and Failure: no reply at all (timeout, connection lost, ...: see errorKind()).
    enum class Type { Nil, Status, Error, Integer, String, Array, Failure };

    RedisReply() = default;
    /// A hiredis reader that builds RedisReply objects as it parses (no hiredis reply tree to copy and free):
    /// free it with redisReaderFree(). What redisReaderGetReply() gives is taken with takeFromReader().
    static redisReader* createReader();
    /// Takes ownership of a reply redisReaderGetReply() returned from a createReader() reader.
    static RedisReply takeFromReader(void* reply);
    /// A Failure reply: no answer from the server, for `kind` with a translated `message`.
    static RedisReply failure(RedisErrorKind kind, const QString& message);
    /// An Integer reply (for tests and replies made up locally).
    static RedisReply integerReply(qint64 value);
    /// A String reply (for tests and replies made up locally).
    static RedisReply stringReply(const QByteArray& value);

    /// Maps "NOPERM ...", "WRONGTYPE ..." and the like to a kind; ServerError when the prefix is unknown.
    static RedisErrorKind classifyServerError(const QByteArray& message);

    /// The reply's type.
    Type type() const { return m_type; }
    /// A nil bulk string or nil array (e.g. GET of a missing key).
    bool isNil() const { return m_type == Type::Nil; }
    /// A server error or no reply at all (Failure): errorKind() and errorText() say which.
    bool isError() const { return m_type == Type::Error || m_type == Type::Failure; }
    /// An integer reply: integer().
    bool isInteger() const { return m_type == Type::Integer; }
    /// A bulk string or a status ("OK"): bytes().
    bool isString() const { return m_type == Type::String || m_type == Type::Status; }
    /// An array: elements().
    bool isArray() const { return m_type == Type::Array; }

    /// String, status and server error: the bytes as received; empty otherwise.
    const QByteArray& bytes() const { return m_bytes; }
    /// Integer: its value; 0 otherwise.
    qint64 integer() const { return m_integer; }
    /// Array: its elements; empty otherwise.
    const QList<RedisReply>& elements() const { return m_elements; }
    /// Error and Failure: the classified reason; None otherwise.
    RedisErrorKind errorKind() const { return m_errorKind; }
    /// Human-readable error text (server message or transport reason); empty when not an error.
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
