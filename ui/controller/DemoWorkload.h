#pragma once

#include "protocol/NodeEndpoint.h"
#include "redlock/RedlockTypes.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QRandomGenerator>
#include <QTimer>

#include <memory>

namespace redlock {

class IoThread;
class LocalCluster;
class LockKeeper;
class RedisConnection;
class RedlockClient;

// The demo: a local cluster of redis-server processes and clients that use it the way real services do,
// so a new user sees every kind of lock within seconds:
//   billing-worker     holds orders:<n> for a few seconds, then releases (held, released)
//   report-scheduler   keeps leader:scheduler and jobs:nightly-report alive with a LockKeeper (auto-extended)
//   cache-builder      acquires cache:rebuild:<n> and "crashes": never releases (expiring, expired)
//   inventory-sync-1..3 fight over inventory:shared and printer:1 (contention, failed acquires)
//   a half-finished acquire that wrote payments:settle:<n> on a minority only (minority leftover)
//   a split vote on payments:batch written by three clients at once (contested)
//   a Redisson RLock hash {invoice-lock} re-entered twice and kept alive by a "watchdog" (Redisson format)
// Lives on its own I/O thread: the cluster is started there (never on the GUI thread), and destroying the
// workload on that thread stops the clients and then the servers.
class DemoWorkload final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoWorkload)

public:
    explicit DemoWorkload(QObject* parent = nullptr);
    ~DemoWorkload() override;

    // Starts the cluster and the workers; reports with clusterReady() or failed(). Call on the object's thread.
    void start(int nodeCount = 5);
    QList<NodeEndpoint> endpoints() const;
    // The local cluster (lives on this object's thread); null before start().
    LocalCluster* cluster() const { return m_cluster; }

signals:
    // The cluster runs and the first locks are in place: watch these endpoints.
    void clusterReady(const QList<redlock::NodeEndpoint>& endpoints);
    void failed(const QString& error);
    // Once a second: acquires of the demo clients that succeeded and failed in that second.
    void clientActivity(int acquired, int failed);

private:
    RedlockClient* makeClient(const QString& name, int retryCount);
    void noteAcquire(const AcquireResult& result);
    void rawOnNodes(const QList<int>& nodes, const QList<QList<QByteArray>>& commands);
    void holdAndRelease();
    void keepLeader(const QByteArray& resource, qint64 ttlMs, int holdMs);
    void crash();
    void contend(RedlockClient* client, const QByteArray& resource);
    void minorityLeftover();
    void splitVote();
    void redisson();
    int randomMs(int from, int to) { return int(m_random.bounded(from, to)); }

    LocalCluster* m_cluster = nullptr;
    QList<RedisConnection*> m_raw;
    RedlockClient* m_billing = nullptr;
    RedlockClient* m_scheduler = nullptr;
    RedlockClient* m_cacheBuilder = nullptr;
    QList<RedlockClient*> m_inventory;
    QList<QTimer*> m_timers;
    QHash<QByteArray, bool> m_billingHeld;
    QRandomGenerator m_random{20240601};
    int m_crashCounter = 0;
    int m_leftoverCounter = 0;
    int m_redissonCycle = 0;
    int m_acquired = 0;
    int m_failed = 0;
    bool m_stopping = false;
};

// Owns the demo's I/O thread and its workload: the launcher asks it to start and hears back on the GUI thread.
// Destroying it deletes the workload on that thread (the clients stop, then the servers), then ends the thread.
class DemoController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoController)

public:
    explicit DemoController(QObject* parent = nullptr);
    ~DemoController() override;

    void start(int nodeCount = 5);
    // The thread the local cluster lives on, and the cluster (null until clusterReady()).
    IoThread* ioThread() const { return m_io.get(); }
    LocalCluster* cluster() const { return m_workload->cluster(); }

signals:
    void clusterReady(const QList<redlock::NodeEndpoint>& endpoints);
    void failed(const QString& error);
    void clientActivity(int acquired, int failed);

private:
    std::unique_ptr<IoThread> m_io;
    DemoWorkload* m_workload = nullptr;
};

} // namespace redlock
