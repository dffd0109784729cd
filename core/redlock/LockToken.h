#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace redlock {

/// The value this project's core writes into a lock key. Format (ASCII, ':'-separated):
///
/// \verbatim
///   rl1:<random>:<pid>:<host>:<client>
///
///   random  32 lowercase hex digits = 128 bits from the system's cryptographic generator
///   pid     decimal process id of the holder
///   host    percent-encoded host name (RFC 3986 unreserved characters kept), at most 64 bytes before encoding
///   client  percent-encoded client name, at most 64 bytes before encoding; may be empty
/// \endverbatim
///
/// The random part alone makes the token unique; the rest lets an operator see who holds a lock.
/// Compare-and-delete compares the whole value, so the identity cannot be forged into someone else's lock.
struct LockToken
{
    QByteArray random; ///< 32 hex digits
    qint64 pid = 0;    ///< the holder's process id
    QString host;      ///< the holder's host name
    QString client;    ///< the holder's client name (RedlockOptions::clientName); may be empty

    /// A fresh token for this process: new random digits, this pid and host, and `clientName`.
    static LockToken generate(const QString& clientName);
    /// 32 fresh hex digits from the system's cryptographic generator.
    static QByteArray newRandom();
    /// The value written into the lock key (the format above).
    QByteArray encode() const;
    /// ":<pid>:<host>:<client>", the part of encode() after the random digits: the same for every lock a
    /// client takes, so clients compute it once.
    QByteArray identitySuffix() const;
    /// nullopt for values that are not ours (they are shown raw).
    static std::optional<LockToken> decode(const QByteArray& value);
};

/// What an operator's force release with lock-delay leaves in the key instead of deleting it (Chubby's and
/// Consul's lock-delay): a value no client holds, with a PTTL that outlasts the old holder's validity, so that
/// the stale holder's extend and release fail (its token is gone) while a newcomer's SET NX is refused until
/// the tombstone expires. Format (ASCII, ':'-separated):
///
/// \verbatim
///   rl1-released:<operator>:<unix-ms>
///
///   operator  percent-encoded "user@host" of whoever released it ('@' kept), at most 64 bytes before encoding
///   unix-ms   wall-clock milliseconds since the epoch when it was written
/// \endverbatim
///
/// It never decodes as a LockToken (that needs the "rl1:" prefix): a tombstone is never a holder.
struct LockTombstone
{
    QString releasedBy;      ///< "user@host" of the operator
    qint64 releasedAtMs = 0; ///< wall-clock milliseconds since the epoch

    /// The value written into the key (the format above).
    QByteArray encode() const;
    /// nullopt for anything that is not a tombstone.
    static std::optional<LockTombstone> decode(const QByteArray& value);
    /// True when `value` is a tombstone (decode() succeeds).
    static bool isTombstone(const QByteArray& value) { return decode(value).has_value(); }
};

} // namespace redlock
