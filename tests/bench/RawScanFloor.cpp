#include "bench/RawScanFloor.h"

#include <QElapsedTimer>
#include <QFile>

#include <hiredis/hiredis.h>

#include <poll.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

namespace redlock {

namespace {

constexpr int kReplyTimeoutMs = 10000;

enum class Kind { Scan, Mget, Pttl };

struct Pending
{
    Kind kind;
    int group; // -1 for SCAN
};

struct Node
{
    redisContext* context = nullptr;
    std::deque<Pending> pending;
    bool writing = false;
    QByteArray cursor = QByteArrayLiteral("0");
    bool scanDone = false;
    bool scanInFlight = false;
    int groupsInFlight = 0; // pages this node's SCAN named that are being read
};

struct Group
{
    int scanNode = 0;
    qint64 remaining = 0; // replies still to come, over all nodes
};

QString contextError(const redisContext* c)
{
    return c ? QString::fromUtf8(c->errstr) : QStringLiteral("out of memory");
}

} // namespace

bool rawScanPass(const QList<NodeEndpoint>& endpoints, const QByteArray& pattern, int scanCount, int readBatchKeys,
                 int groupsInFlight, RawScanFigures* figures, QString* error)
{
    std::vector<Node> nodes(static_cast<size_t>(endpoints.size()));
    struct Cleanup
    {
        std::vector<Node>& nodes;
        ~Cleanup()
        {
            for (Node& n : nodes) {
                if (n.context)
                    redisFree(n.context);
            }
        }
    } cleanup{nodes};
    for (qsizetype i = 0; i < endpoints.size(); ++i) {
        const NodeEndpoint& e = endpoints[i];
        Node& node = nodes[size_t(i)];
        node.context = e.isUnix() ? redisConnectUnixNonBlock(QFile::encodeName(e.unixSocket).constData())
                                  : redisConnectNonBlock(e.host.toUtf8().constData(), e.port);
        if (!node.context || node.context->err) {
            *error = QStringLiteral("%1: %2").arg(e.displayName(), contextError(node.context));
            return false;
        }
    }

    QElapsedTimer timer;
    timer.start();
    std::unordered_set<std::string> seen;
    std::vector<Group> groups;
    const std::string scanCountText = std::to_string(scanCount);
    auto flush = [&](Node& node) {
        int done = 0;
        if (redisBufferWrite(node.context, &done) != REDIS_OK)
            return false;
        node.writing = done == 0;
        return true;
    };
    // The new names of one page, read on every node: MGET of each batch, then one PTTL per key.
    auto readGroup = [&](int scanNode, const std::vector<std::string>& keys) {
        const int g = static_cast<int>(groups.size());
        groups.push_back({scanNode, 0});
        ++nodes[size_t(scanNode)].groupsInFlight;
        std::vector<const char*> argv;
        std::vector<size_t> lengths;
        for (Node& target : nodes) {
            for (size_t from = 0; from < keys.size(); from += size_t(readBatchKeys)) {
                const size_t to = std::min(keys.size(), from + size_t(readBatchKeys));
                argv.assign(1, "MGET");
                lengths.assign(1, 4);
                for (size_t k = from; k < to; ++k) {
                    argv.push_back(keys[k].data());
                    lengths.push_back(keys[k].size());
                }
                redisAppendCommandArgv(target.context, static_cast<int>(argv.size()), argv.data(), lengths.data());
                target.pending.push_back({Kind::Mget, g});
                for (size_t k = from; k < to; ++k) {
                    redisAppendCommand(target.context, "PTTL %b", keys[k].data(), keys[k].size());
                    target.pending.push_back({Kind::Pttl, g});
                }
                groups[size_t(g)].remaining += qint64(to - from) + 1;
                figures->commands += qint64(to - from) + 1;
            }
            if (!flush(target))
                return false;
        }
        figures->keysRead += qint64(keys.size());
        return true;
    };

    std::vector<pollfd> fds(nodes.size());
    for (;;) {
        bool busy = false;
        for (Node& node : nodes) {
            if (!node.scanDone && !node.scanInFlight && node.groupsInFlight < groupsInFlight) {
                redisAppendCommand(node.context, "SCAN %b MATCH %b COUNT %s", node.cursor.constData(),
                                   size_t(node.cursor.size()), pattern.constData(), size_t(pattern.size()),
                                   scanCountText.c_str());
                node.pending.push_back({Kind::Scan, -1});
                node.scanInFlight = true;
                ++figures->commands;
                if (!flush(node)) {
                    *error = contextError(node.context);
                    return false;
                }
            }
            busy = busy || !node.pending.empty() || !node.scanDone;
        }
        if (!busy)
            break;
        for (size_t i = 0; i < nodes.size(); ++i) {
            fds[i].fd = nodes[i].pending.empty() ? -1 : nodes[i].context->fd;
            fds[i].events = static_cast<short>(POLLIN | (nodes[i].writing ? POLLOUT : 0));
            fds[i].revents = 0;
        }
        const int ready = ::poll(fds.data(), static_cast<nfds_t>(fds.size()), kReplyTimeoutMs);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            *error = QStringLiteral("no reply within %1 ms").arg(kReplyTimeoutMs);
            return false;
        }
        for (size_t i = 0; i < nodes.size(); ++i) {
            Node& node = nodes[i];
            if ((fds[i].revents & POLLOUT) && !flush(node)) {
                *error = contextError(node.context);
                return false;
            }
            if (!(fds[i].revents & (POLLIN | POLLERR | POLLHUP)))
                continue;
            if (redisBufferRead(node.context) != REDIS_OK) {
                *error = contextError(node.context);
                return false;
            }
            void* raw = nullptr;
            while (!node.pending.empty() && redisGetReplyFromReader(node.context, &raw) == REDIS_OK && raw) {
                const auto* reply = static_cast<const redisReply*>(raw);
                const Pending p = node.pending.front();
                node.pending.pop_front();
                if (reply->type == REDIS_REPLY_ERROR) {
                    *error = QString::fromUtf8(reply->str, static_cast<qsizetype>(reply->len));
                    freeReplyObject(raw);
                    return false;
                }
                if (p.kind == Kind::Scan) {
                    node.scanInFlight = false;
                    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
                        *error = QStringLiteral("unexpected SCAN reply");
                        freeReplyObject(raw);
                        return false;
                    }
                    node.cursor = QByteArray(reply->element[0]->str, qsizetype(reply->element[0]->len));
                    node.scanDone = node.cursor == "0";
                    const redisReply* names = reply->element[1];
                    figures->namesScanned += qint64(names->elements);
                    std::vector<std::string> fresh;
                    for (size_t k = 0; k < names->elements; ++k) {
                        std::string name(names->element[k]->str, names->element[k]->len);
                        if (seen.insert(name).second)
                            fresh.push_back(std::move(name));
                    }
                    if (!fresh.empty() && !readGroup(static_cast<int>(i), fresh)) {
                        *error = QStringLiteral("write failed");
                        freeReplyObject(raw);
                        return false;
                    }
                } else {
                    if (p.kind == Kind::Pttl && reply->type == REDIS_REPLY_INTEGER && reply->integer >= 0)
                        ++figures->holding;
                    Group& group = groups[size_t(p.group)];
                    if (--group.remaining == 0)
                        --nodes[size_t(group.scanNode)].groupsInFlight;
                }
                freeReplyObject(raw);
                raw = nullptr;
            }
        }
    }
    figures->elapsedUs = timer.nsecsElapsed() / 1000;
    return true;
}

} // namespace redlock
