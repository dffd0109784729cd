#pragma once

#include "protocol/NodeEndpoint.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <vector>

namespace redlock::cli {

// Latencies (ns) of acquire and release rounds, one entry per measured iteration.
struct LatencySamples
{
    std::vector<qint64> acquireNs;
    std::vector<qint64> releaseNs;
    qint64 totalNs = 0; // wall time of the measured iterations
    int failures = 0;   // acquire rounds that did not reach a quorum
};

// The comparison point of the benchmark: the least a Redlock client must do, written directly on hiredis
// 0.14 with no abstraction. One non-blocking redisContext per node; SET key token NX PX ttl is appended to
// every node and written at once, poll() waits on all sockets and replies are read with redisBufferRead +
// redisGetReplyFromReader until a majority said OK; then the core's compare-and-delete script (loaded once
// per node at connect(), sent as EVALSHA) goes to every node the same way and the round waits for every
// outstanding reply: the least a correct release does. Tokens are 16 random bytes (getrandom), hex encoded, as a real
// client needs. TCP or unix domain sockets, no AUTH/TLS.
class RawHiredisBaseline final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::RawHiredisBaseline)

public:
    explicit RawHiredisBaseline(const QList<NodeEndpoint>& nodes);
    ~RawHiredisBaseline();
    RawHiredisBaseline(const RawHiredisBaseline&) = delete;
    RawHiredisBaseline& operator=(const RawHiredisBaseline&) = delete;

    bool connect(QString* error);
    // Runs warmup + iterations acquire/release pairs on key; appends the measured iterations to samples.
    bool run(const QByteArray& key, qint64 ttlMs, int warmup, int iterations, LatencySamples* samples, QString* error);

private:
    struct Node;
    // Waits until every node with pending replies has answered; counts "OK" status replies.
    bool pumpUntil(int okNeeded, bool waitForAll, int* okCount, QString* error);
    bool writeAll(QString* error);

    QList<NodeEndpoint> m_endpoints;
    std::vector<Node> m_nodes;
};

} // namespace redlock::cli
