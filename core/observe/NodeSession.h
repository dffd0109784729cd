#pragma once

#include "observe/ObservationTypes.h"
#include "protocol/RedisConnection.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <deque>

namespace redlock {

struct NodeSessionOptions
{
    int pingIntervalMs = 1000;    // PING + TIME sample period
    int factsIntervalMs = 5000;   // INFO + CONFIG GET period (run_id and uptime are how restarts are seen)
    int commandTimeoutMs = 1000;  // per observation command; a node whose PING gets no reply in this time is
                                  // NotAnswering (down) until it answers again: within two ping intervals
    bool readOnly = false;        // refuse every call that writes (enableKeyspaceEvents)
    ConnectionOptions connection; // reconnect/backoff; clientName defaults to "<application>:observe"
};

// Watches one node over its own connection: health, latency, clock offset and the facts the safety audit
// needs. Lives on the thread it was created on (an IoThread); signals are meant for queued connections.
//
// A refused command (NOPERM) is recorded in NodeFacts::refusedCommands and the rest goes on; only a
// refused handshake (AUTH, PING) changes the health.
class NodeSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodeSession)

public:
    NodeSession(int node, const NodeEndpoint& endpoint, const NodeSessionOptions& options = {},
                QObject* parent = nullptr);
    ~NodeSession() override;

    int node() const { return m_facts.node; }
    // A copy of the current facts; call on the session's thread (or use factsChanged).
    NodeFacts facts() const { return m_facts; }

    void start();
    void stop();
    // Samples and refreshes the facts now instead of at the next tick.
    void refreshNow();

    // CONFIG SET notify-keyspace-events to the current flags plus `flags` (e.g.
    // LockInspector::keyspaceEventFlags()). Only ever called on an operator's explicit request; the result
    // comes back in keyspaceEventsConfigured(). Refused, with nothing sent, in read-only mode.
    void enableKeyspaceEvents(const QByteArray& flags);

signals:
    // Health, reason, refused commands, INFO or CONFIG facts changed (not emitted for every sample).
    void factsChanged(const redlock::NodeFacts& facts);
    void sampled(const redlock::NodeSample& sample);
    // The run_id changed while we watched: the node restarted (facts carry downtime and previous run_id).
    void restarted(const redlock::NodeFacts& facts);
    void keyspaceEventsConfigured(int node, bool ok, const QString& message);

private:
    void onStateChanged(RedisConnection::State state);
    void sample();
    void refreshFacts();
    void applyInfo(const QByteArray& info);
    void noteRefused(const QString& command, const RedisReply& reply);
    void noteNotAnswering();
    void noteAnswering();
    void noteClockSample(qint64 rttUs, qint64 offsetUs);
    void noteAllowed(const QString& command);
    void publish();
    double commandsPerSecond();

    NodeSessionOptions m_options;
    RedisConnection* m_connection = nullptr;
    NodeFacts m_facts;
    NodeFacts m_published;
    bool m_havePublished = false;
    QTimer m_pingTimer;
    QTimer m_factsTimer;
    qint64 m_lastAnswerMs = 0; // wall clock of the last successful reply
    // Downtime estimates, on the steady clock, both erring toward a shorter downtime (a restart within the
    // TTL is flagged rather than missed): the old instance may have answered until we saw the connection
    // go, and the new one started no later than INFO's send time minus (uptime_in_seconds + 1) s.
    qint64 m_lostAtSteadyMs = 0;      // when the connection was last lost; 0 = never
    qint64 m_factsSentAtSteadyMs = 0; // when the INFO being answered was sent
    bool m_answeredSinceLoss = false;
    bool m_sampleInFlight = false;
    struct ClockSample
    {
        qint64 rttUs = 0;
        qint64 offsetUs = 0;
    };
    static constexpr std::size_t kClockSamples = 8; // about 8 s at the default ping interval
    std::deque<ClockSample> m_clockSamples;
    bool m_factsInFlight = false;
    QElapsedTimer m_loadClock;
    quint64 m_loadCommands = 0;
};

} // namespace redlock
