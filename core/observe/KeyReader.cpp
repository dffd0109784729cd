#include "observe/KeyReader.h"

#include <QElapsedTimer>

#include <algorithm>

namespace redlock {

void KeyReader::read(const QList<QByteArray>& keys, bool forPass, std::function<void(QList<KeyRead>)> done)
{
    const int batch = m_batchKeys;
    if (keys.size() <= batch) {
        readBatch(keys, forPass, std::move(done));
        return;
    }
    struct Gather
    {
        QList<QList<KeyRead>> parts;
        int remaining = 0;
        std::function<void(QList<KeyRead>)> done;
    };
    auto gather = std::make_shared<Gather>();
    const int parts = static_cast<int>((keys.size() + batch - 1) / batch);
    gather->parts.resize(parts);
    gather->remaining = parts;
    gather->done = std::move(done);
    for (int p = 0; p < parts; ++p) {
        readBatch(keys.mid(qsizetype(p) * batch, batch), forPass, [gather, p](QList<KeyRead> reads) {
            gather->parts[p] = std::move(reads);
            if (--gather->remaining == 0) {
                QList<KeyRead> all;
                for (auto& part : gather->parts)
                    all.append(std::move(part));
                gather->done(std::move(all));
            }
        });
    }
}

void KeyReader::sendAtomic(QList<RedisConnection::Command> commands, bool forPass)
{
    if (!m_transactions) {
        m_hooks.charge(commands.size(), forPass);
        m_connection->sendPipeline(std::move(commands), m_timeoutMs);
        return;
    }
    struct Transaction
    {
        QList<RedisConnection::Command> commands; // their handlers get EXEC's elements, in order
        QList<RedisReply> queued;                 // each command's reply inside MULTI (QUEUED, or its own reply)
        bool multiRefused = false;
    };
    auto tx = std::make_shared<Transaction>();
    tx->queued.resize(commands.size());
    QList<RedisConnection::Command> wrapped;
    wrapped.reserve(commands.size() + 2);
    static const QByteArray multi = QByteArrayLiteral("MULTI");
    static const QByteArray exec = QByteArrayLiteral("EXEC");
    wrapped.append({{multi}, [t = tx.get()](const RedisReply& reply) { t->multiRefused = reply.isError(); }});
    for (qsizetype i = 0; i < commands.size(); ++i)
        wrapped.append({commands[i].args, [t = tx.get(), i](const RedisReply& reply) { t->queued[i] = reply; }});
    tx->commands = std::move(commands);
    auto alive = m_alive;
    wrapped.append({{exec}, [this, alive, tx, forPass](const RedisReply& reply) {
                        QList<RedisConnection::Command>& inner = tx->commands;
                        if (reply.isArray() && reply.elements().size() == inner.size()) {
                            for (qsizetype i = 0; i < inner.size(); ++i)
                                inner[i].handler(reply.elements()[i]);
                            return;
                        }
                        if (reply.type() == RedisReply::Type::Failure) {
                            for (auto& command : inner) // timed out or lost: so is every command of it
                                command.handler(reply);
                            return;
                        }
                        if (tx->multiRefused) {
                            // No transaction was open: the commands ran one by one and these are their replies.
                            if (*alive)
                                m_transactions = false;
                            for (qsizetype i = 0; i < inner.size(); ++i)
                                inner[i].handler(tx->queued[i]);
                            return;
                        }
                        // EXECABORT (a command refused when queued, e.g. by the ACL): nothing ran. Each command
                        // again on its own, so that each gets its own answer.
                        if (!*alive) {
                            for (auto& command : inner)
                                command.handler(reply);
                            return;
                        }
                        m_hooks.charge(inner.size(), forPass);
                        m_connection->sendPipeline(std::move(inner), m_timeoutMs);
                    }});
    m_hooks.charge(wrapped.size(), forPass);
    m_connection->sendPipeline(std::move(wrapped), m_timeoutMs);
}

void KeyReader::readBatch(const QList<QByteArray>& keys, bool forPass, std::function<void(QList<KeyRead>)> done)
{
    using Presence = NodeLockState::Presence;
    if (keys.isEmpty()) {
        done({});
        return;
    }
    struct Batch
    {
        QList<KeyRead> reads;
        QList<RedisReply> values; // MGET, one per key
        RedisReply mgetError;
        QElapsedTimer timer;
        std::function<void(QList<KeyRead>)> done;
    };
    auto batch = std::make_shared<Batch>();
    batch->reads.resize(keys.size());
    batch->done = std::move(done);
    batch->timer.start();
    auto alive = m_alive;

    // Captureless and static: handlers call it without carrying it. An ACL refusal (NOPERM) is a state of
    // its own: the node answers, but not about this key.
    static constexpr auto unreachable = [](KeyRead& read, const RedisReply& reply, const char* command) {
        const bool refused = reply.errorKind() == RedisErrorKind::NoPermission;
        read.state.presence = refused ? Presence::Refused : Presence::Unreachable;
        // A refusal names the refused command (the server's text names neither it nor the key).
        read.state.note =
            refused ? tr("%1 refused: %2").arg(QLatin1String(command), reply.errorText()) : reply.errorText();
        read.nodeFailed = reply.type() == RedisReply::Type::Failure;
    };
    static constexpr auto unanswered = [](const KeyRead& read) {
        return read.state.presence == Presence::Unreachable || read.state.presence == Presence::Refused;
    };
    // A value without TTL is a lock that never expires when it looks like one (a format a lock library
    // writes, a Redisson holder); any other string without TTL is application data, skipped. (mergeGroupKey
    // also keeps a lock we were showing whose own token lost its TTL.) Under a pattern that names no lock, a value
    // with a TTL must look like one too.
    auto setValue = [onlyLockFormats = m_onlyLockFormats](KeyRead& read, const QByteArray& value, bool lockLike) {
        read.state.token = value;
        if (read.state.pttlMs == -1 && !lockLike) {
            read.state.presence = Presence::NotALock;
            read.state.note = tr("no TTL");
            read.skip = KeyRead::Skip::NoTtl;
        } else if (onlyLockFormats && !lockLike) {
            read.state.presence = Presence::NotALock;
            read.state.note = tr("not a lock format");
            read.skip = KeyRead::Skip::NotALockFormat;
        } else {
            read.state.presence = Presence::Holding;
        }
    };
    const bool onlyLockFormats = m_onlyLockFormats;

    // Stage 2 (rare): keys that exist but MGET gave no string for (hashes, other types, MGET refused):
    // TYPE, PTTL, GET, HGETALL each, resolved by the type. The wrong-type replies are harmless.
    auto stage2 = [this, alive, batch, setValue, forPass](const QList<int>& unresolved) {
        if (unresolved.isEmpty()) {
            batch->done(std::move(batch->reads));
            return;
        }
        struct Extra
        {
            RedisReply type, pttl, value, hash;
        };
        auto extra = std::make_shared<QList<Extra>>(unresolved.size());
        QList<RedisConnection::Command> commands;
        batch->timer.restart();
        for (qsizetype u = 0; u < unresolved.size(); ++u) {
            const QByteArray& key = batch->reads[unresolved[u]].key;
            commands.append({{"TYPE", key}, [extra, u](const RedisReply& r) { (*extra)[u].type = r; }});
            commands.append({{"PTTL", key}, [extra, u](const RedisReply& r) { (*extra)[u].pttl = r; }});
            commands.append({{"GET", key}, [extra, u](const RedisReply& r) { (*extra)[u].value = r; }});
            commands.append({{"HGETALL", key}, [extra, u](const RedisReply& r) { (*extra)[u].hash = r; }});
        }
        // Stamped when sent: the server computed the PTTLs later than this, so ages taken from this instant
        // never make a lock look longer valid than it is.
        const qint64 sentNs = m_clock->nowNs();
        commands.last().handler = [inner = commands.last().handler, this, alive, batch, extra, unresolved, setValue,
                                   sentNs](const RedisReply& reply) {
            inner(reply);
            if (!*alive)
                return;
            m_hooks.roundTripUs(batch->timer.nsecsElapsed() / 1000);
            for (qsizetype u = 0; u < unresolved.size(); ++u) {
                KeyRead& read = batch->reads[unresolved[u]];
                const Extra& x = (*extra)[u];
                read.readAtNs = sentNs;
                read.state.presence = Presence::Absent;
                if (x.type.isError()) {
                    unreachable(read, x.type, "TYPE");
                    continue;
                }
                const QByteArray type = x.type.bytes();
                read.state.pttlMs = x.pttl.isInteger() ? x.pttl.integer() : -2;
                if (type == "none" || read.state.pttlMs == -2)
                    continue;
                if (type == "string") {
                    if (x.value.isString())
                        setValue(read, x.value.bytes(),
                                 holderFormatOf(read.key, x.value.bytes()) != HolderFormat::Opaque);
                    else
                        unreachable(read, x.value, "GET");
                } else if (type == "hash") {
                    if (!x.hash.isArray()) {
                        unreachable(read, x.hash, "HGETALL");
                        continue;
                    }
                    const auto& e = x.hash.elements();
                    QList<QByteArray> holders;
                    for (qsizetype i = 0; i + 1 < e.size(); i += 2) {
                        read.state.hashFields.append({e[i].bytes(), e[i + 1].bytes()});
                        if (e[i].bytes() != "mode") // RReadWriteLock's mode field is no holder
                            holders.append(e[i].bytes());
                    }
                    std::sort(holders.begin(), holders.end());
                    setValue(read, holders.join(','),
                             decodeRedissonHolder(read.state.hashFields).format == HolderFormat::Redisson);
                } else {
                    read.state.presence = Presence::NotALock;
                    read.state.note = QString::fromLatin1(type);
                    read.skip = KeyRead::Skip::OtherType;
                }
            }
            batch->done(std::move(batch->reads));
        };
        sendAtomic(std::move(commands), forPass);
    };

    // Stage 1: one MGET for the page (nil for missing keys and for non-strings) and one PTTL per key, in one
    // pipeline: about one command per key.
    QList<RedisConnection::Command> commands;
    commands.reserve(keys.size() + 1);
    QList<QByteArray> mget;
    mget.reserve(keys.size() + 1);
    mget.append(QByteArrayLiteral("MGET"));
    mget.append(keys);
    commands.append({std::move(mget), [batch](const RedisReply& reply) {
                         if (reply.isArray() && reply.elements().size() == batch->reads.size())
                             batch->values = reply.elements();
                         else
                             batch->mgetError =
                                 reply.isError() ? reply : RedisReply::failure(RedisErrorKind::Protocol, {});
                     }});
    for (int index = 0; index < keys.size(); ++index) {
        KeyRead& read = batch->reads[index];
        read.key = keys[index];
        read.node = m_node;
        read.state.presence = Presence::Absent;
        static const QByteArray pttl = QByteArrayLiteral("PTTL"); // shared, not allocated per command
        // A handler small enough for std::function's own storage (no allocation per key): the batch is kept
        // alive by the MGET before and the last command after, whose handlers are called after this one.
        commands.append({{pttl, keys[index]}, [b = batch.get(), index](const RedisReply& reply) {
                             KeyRead& r = b->reads[index];
                             if (reply.isInteger())
                                 r.state.pttlMs = reply.integer();
                             else
                                 unreachable(r, reply, "PTTL");
                         }});
    }
    const qint64 sentNs = m_clock->nowNs(); // see stage 2
    commands.last().handler = [inner = commands.last().handler, this, alive, batch, stage2, setValue, sentNs,
                               onlyLockFormats](const RedisReply& reply) {
        inner(reply);
        if (!*alive)
            return;
        m_hooks.roundTripUs(batch->timer.nsecsElapsed() / 1000);
        const bool mgetFailed = batch->values.isEmpty();
        if (mgetFailed && batch->mgetError.type() == RedisReply::Type::Failure) {
            for (KeyRead& read : batch->reads) {
                read.state.presence = Presence::Unreachable;
                read.state.note = batch->mgetError.errorText();
                read.nodeFailed = true;
            }
            batch->done(std::move(batch->reads));
            return;
        }
        QList<int> unresolved;
        for (int index = 0; index < batch->reads.size(); ++index) {
            KeyRead& read = batch->reads[index];
            read.readAtNs = sentNs;
            if (unanswered(read) || read.state.pttlMs == -2)
                continue;
            if (mgetFailed || !batch->values[index].isString()) {
                unresolved.append(index); // exists, but no string value: a hash, another type, or refused
            } else {
                const QByteArray& value = batch->values[index].bytes();
                // The format is asked only when it decides (no TTL, or a pattern that names no lock).
                setValue(read, value,
                         (read.state.pttlMs == -1 || onlyLockFormats) &&
                             holderFormatOf(read.key, value) != HolderFormat::Opaque);
            }
        }
        stage2(unresolved);
    };
    sendAtomic(std::move(commands), forPass);
}

} // namespace redlock
