#pragma once

// Test-side access to a node through hiredis' own synchronous API: the tests check what is really on a
// node without going through the code under test.

#include <QByteArray>
#include <QList>
#include <QString>

#include <hiredis/hiredis.h>

#include <optional>

class DirectRedis
{
public:
    explicit DirectRedis(quint16 port, const QByteArray& password = {})
    {
        timeval tv{5, 0};
        m_ctx = redisConnectWithTimeout("127.0.0.1", port, tv);
        if (m_ctx && !m_ctx->err && !password.isEmpty())
            command({"AUTH", password});
    }
    ~DirectRedis()
    {
        if (m_ctx)
            redisFree(m_ctx);
    }
    DirectRedis(const DirectRedis&) = delete;
    DirectRedis& operator=(const DirectRedis&) = delete;

    bool ok() const { return m_ctx && !m_ctx->err; }

    struct Reply
    {
        int type = 0; // REDIS_REPLY_*; 0 = no reply (connection error)
        QByteArray str;
        long long integer = 0;
        QList<QByteArray> elements; // string elements of an array reply
    };

    Reply command(const QList<QByteArray>& args)
    {
        Reply out;
        if (!ok())
            return out;
        std::vector<const char*> argv;
        std::vector<size_t> lens;
        for (const auto& a : args) {
            argv.push_back(a.constData());
            lens.push_back(static_cast<size_t>(a.size()));
        }
        auto* r = static_cast<redisReply*>(redisCommandArgv(m_ctx, static_cast<int>(args.size()), argv.data(), lens.data()));
        if (!r)
            return out;
        out.type = r->type;
        if (r->str)
            out.str = QByteArray(r->str, static_cast<qsizetype>(r->len));
        out.integer = r->integer;
        for (size_t i = 0; i < r->elements; ++i) {
            const redisReply* e = r->element[i];
            out.elements.append(e->str ? QByteArray(e->str, static_cast<qsizetype>(e->len)) : QByteArray());
        }
        freeReplyObject(r);
        return out;
    }

    std::optional<QByteArray> get(const QByteArray& key)
    {
        const Reply r = command({"GET", key});
        if (r.type != REDIS_REPLY_STRING)
            return std::nullopt;
        return r.str;
    }
    long long pttl(const QByteArray& key) { return command({"PTTL", key}).integer; }
    bool exists(const QByteArray& key) { return command({"EXISTS", key}).integer == 1; }
    void set(const QByteArray& key, const QByteArray& value, qint64 pxMs = 0)
    {
        if (pxMs > 0)
            command({"SET", key, value, "PX", QByteArray::number(pxMs)});
        else
            command({"SET", key, value});
    }
    void flushAll() { command({"FLUSHALL"}); }

private:
    redisContext* m_ctx = nullptr;
};
