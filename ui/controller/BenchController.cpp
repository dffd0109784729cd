#include "controller/BenchController.h"

#include "redlock/LockKeeper.h"
#include "redlock/RedlockClient.h"
#include "runtime/IoThread.h"
#include "runtime/OwnThreadFuture.h"

namespace redlock {

BenchController::BenchController(QObject* parent) : QObject(parent) {}

BenchController::~BenchController()
{
    stop();
}

IoThread* BenchController::io()
{
    if (!m_io)
        m_io = std::make_unique<IoThread>(QStringLiteral("redlock-bench"));
    return m_io.get();
}

void BenchController::stop()
{
    m_io.reset(); // deletes the client, keeper and run on their thread
    m_client = nullptr;
    m_keeper = nullptr;
    m_run = nullptr;
}

void BenchController::dropClient()
{
    if (!m_io)
        return;
    QPointer<LockKeeper> keeper = m_keeper;
    QPointer<RedlockClient> client = m_client;
    m_io->runAndWait([keeper, client] {
        delete keeper.data();
        delete client.data();
    });
    m_keeper = nullptr;
    m_client = nullptr;
}

void BenchController::acquire(const BenchConfig& config)
{
    dropClient();
    m_client = io()->create<RedlockClient>(config.redlockOptions(QStringLiteral("console-bench")));
    whenFinished(this, m_client->acquire(config.resource, config.acquireOptions()),
                 [this, autoExtend = config.autoExtend](const AcquireResult& result) {
                     if (result.ok && autoExtend && m_client) {
                         m_keeper = m_io->create<LockKeeper>(m_client.data(), result.lock);
                         connect(m_keeper, &LockKeeper::extended, this, &BenchController::autoExtended);
                         connect(m_keeper, &LockKeeper::lost, this, &BenchController::lost);
                         QMetaObject::invokeMethod(m_keeper, &LockKeeper::start, Qt::QueuedConnection);
                     }
                     emit acquired(result);
                 });
}

void BenchController::extend(const Lock& lock, qint64 ttlMs)
{
    if (!m_client)
        return;
    whenFinished(this, m_client->extend(lock, ttlMs), [this](const ExtendResult& result) { emit extended(result); });
}

void BenchController::release(const Lock& lock)
{
    if (!m_client)
        return;
    if (m_keeper) {
        // The keeper stops extending before the release goes out.
        QPointer<LockKeeper> keeper = m_keeper;
        m_io->runAndWait([keeper] {
            if (keeper)
                keeper->stop();
        });
    }
    whenFinished(this, m_client->release(lock), [this](const ReleaseResult& result) { emit released(result); });
}

void BenchController::startRun(const BenchConfig& config)
{
    if (m_run)
        return;
    m_run = io()->create<BenchRun>(config);
    connect(m_run, &BenchRun::progress, this, &BenchController::runProgress);
    connect(m_run, &BenchRun::finished, this, [this](const BenchStats& stats) {
        if (BenchRun* run = m_run)
            m_io->runAndWait([run] { delete run; });
        m_run = nullptr;
        emit runFinished(stats);
    });
    QMetaObject::invokeMethod(m_run, &BenchRun::start, Qt::QueuedConnection);
}

} // namespace redlock
