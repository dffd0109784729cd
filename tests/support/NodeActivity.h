#pragma once

// What a node did, read with hiredis directly (not through the code under test): to check that nothing was
// written, or that something was.

#include "support/DirectRedis.h"

#include <QHash>
#include <QList>

#include <optional>

// What a node has executed so far: calls per command from INFO commandstats ("set", "client|setname", ...)
// and the number of changes to its data set (rdb_changes_since_last_save: every write counts, even with
// persistence off).
struct NodeActivity
{
    QHash<QByteArray, qint64> calls;
    qint64 changes = -1;

    static NodeActivity of(quint16 port)
    {
        NodeActivity a;
        DirectRedis node(port);
        for (const QByteArray& line : node.command({"INFO", "commandstats"}).str.split('\n')) {
            // cmdstat_set:calls=12,usec=...
            if (!line.startsWith("cmdstat_"))
                continue;
            const qsizetype colon = line.indexOf(':');
            const qsizetype comma = line.indexOf(',', colon);
            a.calls.insert(line.mid(8, colon - 8), line.mid(colon + 7, comma - colon - 7).toLongLong());
        }
        for (const QByteArray& line : node.command({"INFO", "persistence"}).str.split('\n')) {
            if (line.startsWith("rdb_changes_since_last_save:"))
                a.changes = line.mid(28).trimmed().toLongLong();
        }
        return a;
    }

    // Commands run since `before`, with how often.
    QHash<QByteArray, qint64> since(const NodeActivity& before) const
    {
        QHash<QByteArray, qint64> out;
        for (auto it = calls.cbegin(); it != calls.cend(); ++it) {
            const qint64 delta = it.value() - before.calls.value(it.key());
            if (delta > 0)
                out.insert(it.key(), delta);
        }
        return out;
    }
};

// Every command a node runs from the moment this is constructed, as MONITOR reports it: who sent it (a client's
// address, or "lua" for a command a script ran) and the command with its arguments. To check that a client never
// sent a command only a script may run (a bare DEL), and to act at the moment a node has run a given command.
class NodeMonitor
{
public:
    struct Command
    {
        QByteArray source; // "127.0.0.1:54321", "lua", "unix:/path"
        QList<QByteArray> args;
        QByteArray name() const { return args.isEmpty() ? QByteArray() : args.first().toUpper(); }
    };

    explicit NodeMonitor(quint16 port) : m_port(port)
    {
        m_ctx = redisConnectWithTimeout("127.0.0.1", port, timeval{5, 0});
        if (!m_ctx || m_ctx->err)
            return;
        redisSetTimeout(m_ctx, timeval{30, 0});
        if (auto* r = static_cast<redisReply*>(redisCommand(m_ctx, "MONITOR")))
            freeReplyObject(r);
    }
    ~NodeMonitor()
    {
        if (m_ctx)
            redisFree(m_ctx);
    }
    NodeMonitor(const NodeMonitor&) = delete;
    NodeMonitor& operator=(const NodeMonitor&) = delete;

    bool ok() const { return m_ctx && !m_ctx->err; }

    // Reads until a command for which `until` is true has run (it is the last one returned); nullopt when none
    // came within 30 s. Blocks this thread: what runs the commands must run on others.
    template <typename Until> std::optional<QList<Command>> readUntil(Until until)
    {
        QList<Command> out;
        while (ok()) {
            void* raw = nullptr;
            if (redisGetReply(m_ctx, &raw) != REDIS_OK || !raw)
                return std::nullopt;
            auto* r = static_cast<redisReply*>(raw);
            const QByteArray line = r->str ? QByteArray(r->str, static_cast<qsizetype>(r->len)) : QByteArray();
            freeReplyObject(r);
            const std::optional<Command> c = parse(line);
            if (!c)
                continue;
            out.append(*c);
            if (until(*c))
                return out;
        }
        return std::nullopt;
    }

    // Everything the node has run up to now (an ECHO from another connection marks the point; it is left out).
    QList<Command> readAll()
    {
        const QByteArray marker = "monitor-mark-" + QByteArray::number(++m_marks);
        DirectRedis(m_port).command({"ECHO", marker});
        auto all = readUntil([&marker](const Command& c) { return c.name() == "ECHO" && c.args.value(1) == marker; });
        if (!all)
            return {};
        all->removeLast();
        return *all;
    }

private:
    // 1700000000.123456 [0 127.0.0.1:54321] "SET" "key" "\x00value"
    static std::optional<Command> parse(const QByteArray& line)
    {
        const qsizetype open = line.indexOf('[');
        const qsizetype close = line.indexOf(']', open);
        if (open < 0 || close < 0)
            return std::nullopt;
        Command c;
        const QByteArray who = line.mid(open + 1, close - open - 1);
        c.source = who.mid(who.indexOf(' ') + 1);
        for (qsizetype i = close + 1; i < line.size(); ++i) {
            if (line[i] != '"')
                continue;
            QByteArray arg;
            for (++i; i < line.size() && line[i] != '"'; ++i) {
                if (line[i] != '\\' || i + 1 >= line.size()) {
                    arg += line[i];
                    continue;
                }
                const char e = line[++i];
                if (e == 'x' && i + 2 < line.size()) {
                    arg += static_cast<char>(line.mid(i + 1, 2).toInt(nullptr, 16));
                    i += 2;
                } else {
                    arg += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == 'a' ? '\a' : e == 'b' ? '\b' : e;
                }
            }
            c.args.append(arg);
        }
        return c;
    }

    quint16 m_port;
    redisContext* m_ctx = nullptr;
    int m_marks = 0;
};
