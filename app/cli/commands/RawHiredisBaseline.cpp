#include "cli/commands/RawHiredisBaseline.h"

#include "cli/CommandLine.h"
#include "redlock/RedlockRules.h"

#include "protocol/LockScripts.h"

#include <QFile>

#include <hiredis/hiredis.h>

#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace redlock::cli {

namespace {

qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

constexpr int kReplyTimeoutMs = 2000;

QByteArray randomToken()
{
    unsigned char bytes[16];
    size_t filled = 0;
    while (filled < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + filled, sizeof bytes - filled, 0);
        if (n > 0)
            filled += static_cast<size_t>(n);
    }
    return QByteArray(reinterpret_cast<const char*>(bytes), sizeof bytes).toHex();
}

} // namespace

struct RawHiredisBaseline::Node
{
    redisContext* context = nullptr;
    int pending = 0;      // commands written whose reply has not been read
    bool writing = false; // output buffer not fully written yet
};

RawHiredisBaseline::RawHiredisBaseline(const QList<NodeEndpoint>& nodes) : m_endpoints(nodes) {}

RawHiredisBaseline::~RawHiredisBaseline()
{
    for (Node& node : m_nodes) {
        if (node.context)
            redisFree(node.context);
    }
}

bool RawHiredisBaseline::connect(QString* error)
{
    for (const NodeEndpoint& endpoint : std::as_const(m_endpoints)) {
        if (endpoint.tls || !endpoint.password.isEmpty() || endpoint.db != 0) {
            *error = tr("the raw baseline speaks plain TCP or unix sockets to database 0, without TLS or AUTH: %1")
                         .arg(endpoint.displayName());
            return false;
        }
        Node node;
        node.context = endpoint.isUnix() ? redisConnectUnixNonBlock(QFile::encodeName(endpoint.unixSocket).constData())
                                         : redisConnectNonBlock(endpoint.host.toUtf8().constData(), endpoint.port);
        m_nodes.push_back(node);
        if (!node.context || node.context->err) {
            *error = tr("raw baseline: cannot connect to %1: %2")
                         .arg(endpoint.displayName(),
                              node.context ? QString::fromUtf8(node.context->errstr) : tr("out of memory"));
            return false;
        }
        pollfd fd{node.context->fd, POLLOUT, 0};
        int soError = 0;
        socklen_t length = sizeof soError;
        if (::poll(&fd, 1, kReplyTimeoutMs) != 1 ||
            ::getsockopt(node.context->fd, SOL_SOCKET, SO_ERROR, &soError, &length) != 0 || soError != 0) {
            *error =
                tr("raw baseline: cannot connect to %1: %2")
                    .arg(endpoint.displayName(), QString::fromLocal8Bit(std::strerror(soError ? soError : ETIMEDOUT)));
            return false;
        }
    }
    // The release script is loaded once, so that each release is one EVALSHA per node, as the core's are.
    const QByteArray& source = scripts::compareAndDelete().source();
    for (Node& node : m_nodes) {
        redisAppendCommand(node.context, "SCRIPT LOAD %b", source.constData(), static_cast<size_t>(source.size()));
        ++node.pending;
    }
    int ok = 0;
    return writeAll(error) && pumpUntil(0, true, &ok, error);
}

bool RawHiredisBaseline::writeAll(QString* error)
{
    for (Node& node : m_nodes) {
        int done = 0;
        if (redisBufferWrite(node.context, &done) != REDIS_OK) {
            *error = tr("raw baseline: write failed: %1").arg(QString::fromUtf8(node.context->errstr));
            return false;
        }
        node.writing = done == 0;
    }
    return true;
}

bool RawHiredisBaseline::pumpUntil(int okNeeded, bool waitForAll, int* okCount, QString* error)
{
    const int n = static_cast<int>(m_nodes.size());
    int answered = 0;
    std::vector<pollfd> fds(m_nodes.size());
    for (;;) {
        bool anyPending = false;
        for (const Node& node : m_nodes)
            anyPending = anyPending || node.pending > 0;
        if (!anyPending)
            return true;
        // The acquire round is decided as soon as a majority said OK or can no longer say it.
        if (!waitForAll && (*okCount >= okNeeded || (answered - *okCount) > n - okNeeded))
            return true;
        for (size_t i = 0; i < m_nodes.size(); ++i) {
            const Node& node = m_nodes[i];
            fds[i].fd = node.pending > 0 ? node.context->fd : -1;
            fds[i].events = static_cast<short>(POLLIN | (node.writing ? POLLOUT : 0));
            fds[i].revents = 0;
        }
        const int ready = ::poll(fds.data(), static_cast<nfds_t>(fds.size()), kReplyTimeoutMs);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            *error = tr("raw baseline: no reply within %1 ms").arg(kReplyTimeoutMs);
            return false;
        }
        for (size_t i = 0; i < m_nodes.size(); ++i) {
            Node& node = m_nodes[i];
            if (fds[i].revents & POLLOUT) {
                int done = 0;
                if (redisBufferWrite(node.context, &done) != REDIS_OK) {
                    *error = tr("raw baseline: write failed: %1").arg(QString::fromUtf8(node.context->errstr));
                    return false;
                }
                node.writing = done == 0;
            }
            if (!(fds[i].revents & (POLLIN | POLLERR | POLLHUP)))
                continue;
            if (redisBufferRead(node.context) != REDIS_OK) {
                *error = tr("raw baseline: read failed: %1").arg(QString::fromUtf8(node.context->errstr));
                return false;
            }
            void* raw = nullptr;
            while (redisGetReplyFromReader(node.context, &raw) == REDIS_OK && raw) {
                const auto* reply = static_cast<const redisReply*>(raw);
                --node.pending;
                ++answered;
                if (reply->type == REDIS_REPLY_STATUS && std::strcmp(reply->str, "OK") == 0)
                    ++*okCount;
                freeReplyObject(raw);
                raw = nullptr;
            }
        }
    }
}

bool RawHiredisBaseline::run(const QByteArray& key, qint64 ttlMs, int warmup, int iterations, LatencySamples* samples,
                             QString* error)
{
    const int quorum = rules::quorum(static_cast<int>(m_nodes.size()));
    const auto ttl = static_cast<long long>(ttlMs);
    qint64 measureStart = steadyNowNs();
    for (int i = 0; i < warmup + iterations; ++i) {
        if (i == warmup)
            measureStart = steadyNowNs();
        const qint64 start = steadyNowNs();
        const QByteArray token = randomToken();
        for (Node& node : m_nodes) {
            redisAppendCommand(node.context, "SET %b %b NX PX %lld", key.constData(), static_cast<size_t>(key.size()),
                               token.constData(), static_cast<size_t>(token.size()), ttl);
            ++node.pending;
        }
        int ok = 0;
        if (!writeAll(error) || !pumpUntil(quorum, false, &ok, error))
            return false;
        const qint64 acquired = steadyNowNs();
        // The replies still outstanding from the SET round are read while waiting for the releases.
        const QByteArray& sha = scripts::compareAndDelete().sha();
        for (Node& node : m_nodes) {
            redisAppendCommand(node.context, "EVALSHA %b 1 %b %b", sha.constData(), static_cast<size_t>(sha.size()),
                               key.constData(), static_cast<size_t>(key.size()), token.constData(),
                               static_cast<size_t>(token.size()));
            ++node.pending;
        }
        int deleted = 0;
        if (!writeAll(error) || !pumpUntil(0, true, &deleted, error))
            return false;
        const qint64 released = steadyNowNs();
        if (i < warmup)
            continue;
        if (ok < quorum) {
            ++samples->failures;
            continue;
        }
        samples->acquireNs.push_back(acquired - start);
        samples->releaseNs.push_back(released - acquired);
    }
    samples->totalNs += steadyNowNs() - measureStart;
    return true;
}

} // namespace redlock::cli
