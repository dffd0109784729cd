#include "controller/DemoWorkload.h"

#include "localcluster/LocalCluster.h"
#include "observe/LockInspector.h"
#include "protocol/RedisConnection.h"
#include "redlock/LockKeeper.h"
#include "redlock/LockToken.h"
#include "redlock/RedlockClient.h"
#include "runtime/IoThread.h"
#include "runtime/OwnThreadFuture.h"

#include <QUuid>

namespace redlock {

DemoWorkload::DemoWorkload(QObject* parent) : QObject(parent) {}

DemoWorkload::~DemoWorkload()
{
    // Clients and keepers first (their destructors do not block), then the servers.
    m_stopping = true;
    qDeleteAll(m_timers);
    m_timers.clear();
    const auto children = findChildren<LockKeeper*>(Qt::FindDirectChildrenOnly);
    qDeleteAll(children);
    delete m_billing;
    delete m_scheduler;
    delete m_cacheBuilder;
    qDeleteAll(m_inventory);
    qDeleteAll(m_raw);
    delete m_cluster; // kills the redis-server processes
}

QList<NodeEndpoint> DemoWorkload::endpoints() const
{
    return m_cluster ? m_cluster->endpoints() : QList<NodeEndpoint>();
}

void DemoWorkload::start(int nodeCount)
{
    m_cluster = new LocalCluster;
    LocalNodeOptions options;
    // Keyspace events, so the console sees changes as they happen instead of at the next full scan.
    options.notifyKeyspaceEvents = QString::fromLatin1(LockInspector::keyspaceEventFlags());
    options.appendOnly = true; // AOF on, fsync everysec: the audit still says what that means for locks
    QString error;
    if (!m_cluster->start(nodeCount, options, &error)) {
        emit failed(tr("cannot start the demo cluster: %1").arg(error));
        return;
    }
    for (const NodeEndpoint& endpoint : m_cluster->endpoints()) {
        ConnectionOptions o;
        o.clientName = "demo:raw-writer";
        m_raw.append(new RedisConnection(endpoint, o));
        m_raw.last()->open();
    }

    m_billing = makeClient(QStringLiteral("billing-worker"), 2);
    m_scheduler = makeClient(QStringLiteral("report-scheduler"), 3);
    m_cacheBuilder = makeClient(QStringLiteral("cache-builder"), 1);
    for (int i = 1; i <= 3; ++i)
        m_inventory.append(makeClient(QStringLiteral("inventory-sync-%1").arg(i), 0));

    auto every = [this](int ms, auto fn) {
        auto* timer = new QTimer;
        timer->setInterval(ms);
        connect(timer, &QTimer::timeout, this, fn);
        timer->start();
        m_timers.append(timer);
    };
    // The first locks go in now, so the first full refresh already shows every kind.
    for (int i = 0; i < 4; ++i)
        holdAndRelease();
    keepLeader("leader:scheduler", 4000, 25000);
    keepLeader("jobs:nightly-report", 6000, 40000);
    crash();
    crash();
    minorityLeftover();
    splitVote();
    redisson();

    every(700, [this] { holdAndRelease(); });
    every(3000, [this] { crash(); });
    every(7000, [this] { minorityLeftover(); });
    every(9000, [this] { splitVote(); });
    every(10000, [this] { redisson(); });
    for (int i = 0; i < m_inventory.size(); ++i) {
        RedlockClient* client = m_inventory[i];
        every(350 + 90 * i, [this, client] { contend(client, "inventory:shared"); });
        every(900 + 170 * i, [this, client] { contend(client, "printer:1"); });
    }
    every(1000, [this] {
        emit clientActivity(m_acquired, m_failed);
        m_acquired = 0;
        m_failed = 0;
    });

    // Ready once the raw writes of the seed are through: one PING per node queued behind them.
    auto remaining = std::make_shared<int>(int(m_raw.size()));
    for (RedisConnection* raw : std::as_const(m_raw)) {
        raw->send({"PING"}, [this, remaining](const RedisReply&) {
            if (--*remaining == 0 && !m_stopping)
                emit clusterReady(m_cluster->endpoints());
        });
    }
}

RedlockClient* DemoWorkload::makeClient(const QString& name, int retryCount)
{
    RedlockOptions options;
    options.nodes = m_cluster->endpoints();
    options.clientName = name;
    options.retryCount = retryCount;
    options.retryDelayMs = 150;
    options.retryJitterMs = 100;
    auto* client = new RedlockClient(options);
    client->connectAll();
    return client;
}

void DemoWorkload::noteAcquire(const AcquireResult& result)
{
    if (result.ok)
        ++m_acquired;
    else
        ++m_failed;
}

void DemoWorkload::rawOnNodes(const QList<int>& nodes, const QList<QList<QByteArray>>& commands)
{
    for (const int node : nodes) {
        if (node < 0 || node >= m_raw.size())
            continue;
        QList<RedisConnection::Command> pipeline;
        for (const auto& args : commands)
            pipeline.append({args, [](const RedisReply&) {}});
        m_raw[node]->sendPipeline(std::move(pipeline));
    }
}

void DemoWorkload::holdAndRelease()
{
    if (m_billingHeld.size() >= 5)
        return;
    const QByteArray resource = "orders:" + QByteArray::number(m_random.bounded(1, 13));
    if (m_billingHeld.contains(resource))
        return;
    m_billingHeld.insert(resource, true);
    AcquireOptions options;
    options.ttlMs = 10000;
    whenFinished(this, m_billing->acquire(resource, options), [this, resource](const AcquireResult& result) {
        noteAcquire(result);
        if (!result.ok || m_stopping) {
            m_billingHeld.remove(resource);
            return;
        }
        QTimer::singleShot(randomMs(1500, 6000), this, [this, resource, lock = result.lock] {
            if (m_stopping)
                return;
            whenFinished(this, m_billing->release(lock),
                         [this, resource](const ReleaseResult&) { m_billingHeld.remove(resource); });
        });
    });
}

void DemoWorkload::keepLeader(const QByteArray& resource, qint64 ttlMs, int holdMs)
{
    if (m_stopping)
        return;
    AcquireOptions options;
    options.ttlMs = ttlMs;
    whenFinished(this, m_scheduler->acquire(resource, options),
                 [this, resource, ttlMs, holdMs](const AcquireResult& result) {
                     noteAcquire(result);
                     if (m_stopping)
                         return;
                     if (!result.ok) {
                         QTimer::singleShot(1000, this,
                                            [this, resource, ttlMs, holdMs] { keepLeader(resource, ttlMs, holdMs); });
                         return;
                     }
                     auto* keeper = new LockKeeper(m_scheduler, result.lock, this);
                     connect(keeper, &LockKeeper::lost, this, [this, keeper, resource, ttlMs, holdMs] {
                         keeper->deleteLater();
                         QTimer::singleShot(1000, this,
                                            [this, resource, ttlMs, holdMs] { keepLeader(resource, ttlMs, holdMs); });
                     });
                     keeper->start();
                     QTimer::singleShot(holdMs, keeper, [this, keeper, resource, ttlMs, holdMs] {
                         keeper->release();
                         keeper->deleteLater();
                         QTimer::singleShot(2000, this,
                                            [this, resource, ttlMs, holdMs] { keepLeader(resource, ttlMs, holdMs); });
                     });
                 });
}

void DemoWorkload::crash()
{
    // Acquires and then "dies": the lock is never released and runs out on its own.
    const QByteArray resource = "cache:rebuild:" + QByteArray::number(m_crashCounter++ % 24);
    AcquireOptions options;
    options.ttlMs = randomMs(4000, 16000);
    whenFinished(this, m_cacheBuilder->acquire(resource, options),
                 [this](const AcquireResult& result) { noteAcquire(result); });
}

void DemoWorkload::contend(RedlockClient* client, const QByteArray& resource)
{
    AcquireOptions options;
    options.ttlMs = 2500;
    whenFinished(this, client->acquire(resource, options), [this, client](const AcquireResult& result) {
        noteAcquire(result);
        if (!result.ok || m_stopping)
            return;
        QTimer::singleShot(randomMs(400, 1400), client, [this, client, lock = result.lock] {
            if (!m_stopping)
                client->release(lock);
        });
    });
}

void DemoWorkload::minorityLeftover()
{
    // A client that wrote its token on two nodes, then crashed before reaching a quorum.
    const QByteArray key = "payments:settle:" + QByteArray::number(m_leftoverCounter++ % 6);
    const QByteArray token = LockToken::generate(QStringLiteral("payments-settler")).encode();
    const int first = int(m_random.bounded(0, int(m_raw.size())));
    rawOnNodes({first, (first + 2) % int(m_raw.size())},
               {{"SET", key, token, "NX", "PX", QByteArray::number(randomMs(8000, 20000))}});
}

void DemoWorkload::splitVote()
{
    // Three clients raced for the same key and split the nodes 2/2/1: nobody has a quorum.
    const QByteArray key = "payments:batch";
    const QByteArray px = QByteArray::number(randomMs(5000, 8000));
    const QList<QByteArray> tokens = {LockToken::generate(QStringLiteral("batch-runner-a")).encode(),
                                      LockToken::generate(QStringLiteral("batch-runner-b")).encode(),
                                      LockToken::generate(QStringLiteral("batch-runner-c")).encode()};
    const int n = int(m_raw.size());
    for (int node = 0; node < n; ++node)
        rawOnNodes({node}, {{"SET", key, tokens[node * 3 / n], "NX", "PX", px}});
}

void DemoWorkload::redisson()
{
    // Redisson RLock: HINCRBY name "<clientUUID>:<threadId>" 1 + PEXPIRE name leaseTime, on every node, re-entered
    // once; the watchdog renews it; every third cycle it is unlocked (HINCRBY -1 twice, then DEL).
    static const QByteArray field = QUuid::createUuid().toByteArray(QUuid::WithoutBraces) + ":47";
    const QByteArray key = "{invoice-lock}";
    const QList<int> all = [this] {
        QList<int> nodes;
        for (int i = 0; i < m_raw.size(); ++i)
            nodes << i;
        return nodes;
    }();
    const int cycle = m_redissonCycle++ % 3;
    if (cycle == 0)
        rawOnNodes(all, {{"HINCRBY", key, field, "1"},
                         {"PEXPIRE", key, "30000"},
                         {"HINCRBY", key, field, "1"},
                         {"PEXPIRE", key, "30000"}});
    else if (cycle == 1)
        rawOnNodes(all, {{"PEXPIRE", key, "30000"}});
    else
        rawOnNodes(all, {{"HINCRBY", key, field, "-1"}, {"HINCRBY", key, field, "-1"}, {"DEL", key}});
}

DemoController::DemoController(QObject* parent)
    : QObject(parent), m_io(std::make_unique<IoThread>(QStringLiteral("redlock-demo"))),
      m_workload(m_io->create<DemoWorkload>())
{
    // Signal to signal, queued: the workload's reports reach this object's listeners on the GUI thread.
    connect(m_workload, &DemoWorkload::clusterReady, this, &DemoController::clusterReady, Qt::QueuedConnection);
    connect(m_workload, &DemoWorkload::failed, this, &DemoController::failed, Qt::QueuedConnection);
    connect(m_workload, &DemoWorkload::clientActivity, this, &DemoController::clientActivity, Qt::QueuedConnection);
}

DemoController::~DemoController() = default; // m_io deletes the workload on its thread

void DemoController::start(int nodeCount)
{
    QMetaObject::invokeMethod(
        m_workload, [workload = m_workload, nodeCount] { workload->start(nodeCount); }, Qt::QueuedConnection);
}

} // namespace redlock
