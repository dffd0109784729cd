#pragma once

// A TCP proxy in front of one node, on its own thread, that tests and benchmarks control: add latency,
// blackhole traffic (a partition: connections stay open, nothing gets through until it heals, then the
// held bytes arrive in order, as TCP retransmission would deliver them), hold only the replies, or cut
// connections.

#include <QtGlobal>

#include <atomic>
#include <memory>

class QThread;

class FaultProxy
{
public:
    explicit FaultProxy(quint16 upstreamPort);
    ~FaultProxy();
    FaultProxy(const FaultProxy&) = delete;
    FaultProxy& operator=(const FaultProxy&) = delete;

    quint16 port() const { return m_port; }
    void setLatencyMs(int ms) { m_state->latencyMs = ms; }
    void setBlackhole(bool on) { m_state->blackhole = on; }
    // Replies (node to client) are held, requests still go through: a node runs what a client sent, and the
    // client hears nothing until released. Lets a test act at a known point between a client's request and
    // its next one, without any timing.
    void setHoldReplies(bool on) { m_state->holdReplies = on; }
    void cutConnections();

    struct State
    {
        std::atomic<int> latencyMs{0};
        std::atomic<bool> blackhole{false};
        std::atomic<bool> holdReplies{false};
    };

private:
    std::shared_ptr<State> m_state;
    std::unique_ptr<QThread> m_thread;
    class Server;
    Server* m_server = nullptr;
    quint16 m_port = 0;
};
