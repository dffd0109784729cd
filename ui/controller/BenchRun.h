#pragma once

#include "protocol/NodeEndpoint.h"
#include "redlock/RedlockRules.h"
#include "redlock/RedlockTypes.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QObject>

namespace redlock {

class RedlockClient;

// What the test bench runs: a Redlock configuration and a load shape.
struct BenchConfig
{
    QList<NodeEndpoint> nodes;
    QByteArray resource = QByteArrayLiteral("bench:lock");
    qint64 ttlMs = 10000;
    int retryCount = 3;
    int retryDelayMs = 200;
    int retryJitterMs = 100;
    double driftFactor = rules::kDefaultDriftFactor;
    bool fencing = false;
    bool autoExtend = false;
    int clients = 4;     // K concurrent clients, each with its own connections
    int iterations = 10; // acquires per client
    int nodeTimeoutMs = 50;
    bool readOnly = false;

    RedlockOptions redlockOptions(const QString& clientName) const;
    AcquireOptions acquireOptions() const;
};

// One acquire of a run.
struct BenchSample
{
    int client = 0;
    int iteration = 0;
    bool ok = false;
    qint64 latencyUs = 0; // acquire call start to result (all attempts)
    int attempts = 0;
    bool contended = false; // some node held another client's token
    qint64 validityMs = -1;
    qint64 fencingToken = -1;
    QString error;
};

// The outcome of a run, and its statistics and exports.
struct BenchStats
{
    BenchConfig config;
    QList<BenchSample> samples;
    QList<int> nodeErrors; // per node: timeouts, connection and Redis errors over all attempts
    qint64 elapsedMs = 0;

    int succeeded() const;
    int contended() const;
    double successRate() const;          // 0..1; 0 when there are no samples
    qint64 percentileUs(double p) const; // nearest rank over all samples' latency; -1 when empty
    // Latency histogram in `bins` equal bins from 0 to the largest latency; *binWidthUs gets the width.
    QList<int> histogram(int bins, qint64* binWidthUs = nullptr) const;

    QByteArray toCsv() const;
    QJsonObject toJson() const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportJson(const QString& path, QString* error = nullptr) const;
};

// K clients x iterations of acquire (then release) over the core RedlockClient. Lives on an I/O thread;
// start() there; reports progress and the result through signals.
class BenchRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchRun)

public:
    explicit BenchRun(BenchConfig config, QObject* parent = nullptr);
    ~BenchRun() override;

    void start();

signals:
    void progress(int done, int total);
    void finished(const redlock::BenchStats& stats);

private:
    void next(int client);
    void record(int client, int iteration, const AcquireResult& result);
    void clientDone();

    BenchConfig m_config;
    QList<RedlockClient*> m_clients;
    QList<int> m_iteration;
    BenchStats m_stats;
    qint64 m_startedMs = 0;
    int m_running = 0;
    int m_done = 0;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::BenchStats)
