#include "observe/KeyReader.h"

#include "protocol/LockScripts.h"

#include <QElapsedTimer>

#include <algorithm>

namespace redlock {

namespace {

// Keys per page script: the script holds the node for its whole run (measured by bench-inspect: INFO commandstats
// usec_per_call of evalsha_ro), so a page is kept to well under a millisecond of the node's time.
constexpr int kPageScriptKeys = 200;

// A refusal that says nothing about the node's scripts: only this page is read per key.
bool refusalOfThisPage(const RedisReply& reply)
{
    const QString text = reply.errorText();
    return text.startsWith(u"BUSY") || text.startsWith(u"LOADING") || text.contains(u"keys used as arguments");
}

} // namespace

void KeyReader::setPageScripts(bool enabled)
{
    m_path = enabled ? ReadPath::Unknown : ReadPath::PerKey;
    m_pathNote = enabled ? QString() : tr("page scripts off");
}

void KeyReader::unreachable(KeyRead& read, const RedisReply& reply, const char* command)
{
    // An ACL refusal (NOPERM) is a state of its own: the node answers, but not about this key. A refusal names the
    // refused command (the server's text names neither it nor the key).
    const bool refused = reply.errorKind() == RedisErrorKind::NoPermission;
    read.state.presence = refused ? NodeLockState::Presence::Refused : NodeLockState::Presence::Unreachable;
    read.state.note = refused ? tr("%1 refused: %2").arg(QLatin1String(command), reply.errorText()) : reply.errorText();
    read.nodeFailed = reply.type() == RedisReply::Type::Failure;
}

void KeyReader::setValue(KeyRead& read, const QByteArray& value, bool lockLike) const
{
    // A value without TTL is a lock that never expires when it looks like one (a format a lock library
    // writes, a Redisson holder); any other string without TTL is application data, skipped. (mergeGroupKey
    // also keeps a lock we were showing whose own token lost its TTL.) Under a pattern that names no lock, a value
    // with a TTL must look like one too.
    using Presence = NodeLockState::Presence;
    read.state.token = value;
    if (read.state.pttlMs == -1 && !lockLike) {
        read.state.presence = Presence::NotALock;
        read.state.note = tr("no TTL");
        read.skip = KeyRead::Skip::NoTtl;
    } else if (m_onlyLockFormats && !lockLike) {
        read.state.presence = Presence::NotALock;
        read.state.note = tr("not a lock format");
        read.skip = KeyRead::Skip::NotALockFormat;
    } else {
        read.state.presence = Presence::Holding;
    }
}

void KeyReader::resolveTyped(KeyRead& read, const QByteArray& type, qint64 pttlMs, const RedisReply& value) const
{
    using Presence = NodeLockState::Presence;
    read.state.presence = Presence::Absent;
    read.state.pttlMs = pttlMs;
    if (type == "none" || pttlMs == -2)
        return;
    if (type == "string") {
        if (value.isString())
            setValue(read, value.bytes(), holderFormatOf(read.key, value.bytes()) != HolderFormat::Opaque);
        else
            unreachable(read, value, "GET");
    } else if (type == "hash") {
        if (!value.isArray()) {
            unreachable(read, value, "HGETALL");
            return;
        }
        const auto& e = value.elements();
        QList<QByteArray> holders;
        for (qsizetype i = 0; i + 1 < e.size(); i += 2) {
            read.state.hashFields.append({e[i].bytes(), e[i + 1].bytes()});
            if (e[i].bytes() != "mode") // RReadWriteLock's mode field is no holder
                holders.append(e[i].bytes());
        }
        std::sort(holders.begin(), holders.end());
        setValue(read, holders.join(','), decodeRedissonHolder(read.state.hashFields).format == HolderFormat::Redisson);
    } else {
        read.state.presence = Presence::NotALock;
        read.state.note = QString::fromLatin1(type);
        read.skip = KeyRead::Skip::OtherType;
    }
}

void KeyReader::read(const QList<QByteArray>& keys, bool forPass, std::function<void(QList<KeyRead>)> done)
{
    const int batch = m_path == ReadPath::PerKey ? m_batchKeys : std::min(m_batchKeys, kPageScriptKeys);
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
        // Each command's reply inside MULTI other than QUEUED (its own reply when no transaction was open, or a
        // refusal); empty while every one was QUEUED, as in the ordinary case (no list of them per transaction).
        QList<RedisReply> queued;
        bool multiRefused = false;
    };
    auto tx = std::make_shared<Transaction>();
    QList<RedisConnection::Command> wrapped;
    wrapped.reserve(commands.size() + 2);
    static const QByteArray multi = QByteArrayLiteral("MULTI");
    static const QByteArray exec = QByteArrayLiteral("EXEC");
    wrapped.append({{multi}, [t = tx.get()](const RedisReply& reply) { t->multiRefused = reply.isError(); }});
    for (qsizetype i = 0; i < commands.size(); ++i)
        wrapped.append({commands[i].args, [t = tx.get(), i](const RedisReply& reply) {
                            if (reply.type() == RedisReply::Type::Status && reply.bytes() == "QUEUED")
                                return;
                            if (t->queued.isEmpty())
                                t->queued.resize(t->commands.size());
                            t->queued[i] = reply;
                        }});
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
                                inner[i].handler(tx->queued.value(i));
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
    if (keys.isEmpty())
        done({});
    else if (m_path == ReadPath::PerKey)
        readPerKey(keys, forPass, std::move(done));
    else
        readPage(keys, forPass, std::move(done), false);
}

void KeyReader::readPage(const QList<QByteArray>& keys, bool forPass, Done done, bool loaded)
{
    // EVALSHA_RO first (the script is usually cached on the node already, by us or another console), EVAL_RO when
    // the node answers NOSCRIPT. The order of a page's reads among other commands does not matter.
    const LuaScript& script = scripts::readPage();
    QList<QByteArray> command;
    command.reserve(keys.size() + 3);
    command << (loaded ? QByteArrayLiteral("EVAL_RO") : QByteArrayLiteral("EVALSHA_RO"))
            << (loaded ? script.source() : script.sha()) << QByteArray::number(keys.size()) << keys;
    QElapsedTimer timer;
    timer.start();
    const qint64 sentNs = m_clock->nowNs(); // see readPerKey
    auto alive = m_alive;
    // Charged as its keys, not as one command: the rescan budget (commands per second per node) paces the node's
    // work, and a page script costs a node about what the per-key reads of its keys do (bench-inspect), not less.
    m_hooks.charge(keys.size(), forPass);
    m_connection->send(
        command,
        [this, alive, keys, forPass, done = std::move(done), loaded, timer, sentNs](const RedisReply& reply) mutable {
            if (!*alive)
                return;
            m_hooks.roundTripUs(timer.nsecsElapsed() / 1000);
            if (reply.errorKind() == RedisErrorKind::NoScript && !loaded) {
                readPage(keys, forPass, std::move(done), true);
                return;
            }
            QList<KeyRead> reads(keys.size());
            for (qsizetype i = 0; i < keys.size(); ++i) {
                reads[i].key = keys[i];
                reads[i].node = m_node;
                reads[i].readAtNs = sentNs;
            }
            if (reply.type() == RedisReply::Type::Failure) {
                for (KeyRead& read : reads)
                    unreachable(read, reply, "EVALSHA_RO");
                done(std::move(reads));
                return;
            }
            if (!reply.isArray() || reply.elements().size() != keys.size() * 3) {
                // Refused (an ACL without +evalsha_ro, a Redis before 7) or an answer not ours: this page per key,
                // and the node's later pages too unless the refusal was about this page alone.
                if (!refusalOfThisPage(reply)) {
                    m_path = ReadPath::PerKey;
                    m_pathNote = reply.isError() ? reply.errorText() : tr("unexpected reply to the page script");
                }
                readPerKey(keys, forPass, std::move(done));
                return;
            }
            m_path = ReadPath::PageScript;
            m_pathNote.clear();
            const auto& e = reply.elements();
            for (qsizetype i = 0; i < keys.size(); ++i) {
                const RedisReply& pttl = e[3 * i + 2];
                resolveTyped(reads[i], e[3 * i].bytes(), pttl.isInteger() ? pttl.integer() : -2, e[3 * i + 1]);
            }
            done(std::move(reads));
        },
        m_timeoutMs);
}

void KeyReader::readPerKey(const QList<QByteArray>& keys, bool forPass, Done done)
{
    using Presence = NodeLockState::Presence;
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

    static constexpr auto unanswered = [](const KeyRead& read) {
        return read.state.presence == Presence::Unreachable || read.state.presence == Presence::Refused;
    };
    const bool onlyLockFormats = m_onlyLockFormats;

    // Stage 2 (rare): keys that exist but MGET gave no string for (hashes, other types, MGET refused):
    // TYPE, PTTL, GET, HGETALL each, resolved by the type. The wrong-type replies are harmless.
    auto stage2 = [this, alive, batch, forPass](const QList<int>& unresolved) {
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
        commands.last().handler = [inner = commands.last().handler, this, alive, batch, extra, unresolved,
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
                resolveTyped(read, type, x.pttl.isInteger() ? x.pttl.integer() : -2, type == "hash" ? x.hash : x.value);
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
    commands.last().handler = [inner = commands.last().handler, this, alive, batch, stage2, sentNs,
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
