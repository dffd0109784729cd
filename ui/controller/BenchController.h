#pragma once

#include "controller/BenchRun.h"
#include "redlock/RedlockTypes.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace redlock {

class IoThread;
class LockKeeper;
class RedlockClient;

// The test bench's I/O: its thread, the Redlock client of the single lock, the keeper that auto-extends it and
// the runs of K clients. The bench panel asks; the outcomes come back as signals on the GUI thread.
class BenchController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchController)

public:
    explicit BenchController(QObject* parent = nullptr);
    ~BenchController() override;

    void stop(); // drops the client, the keeper and a run (a held lock is left to expire)

    // A fresh client acquires config.resource (-> acquired); with config.autoExtend a keeper then extends it.
    void acquire(const BenchConfig& config);
    void extend(const Lock& lock, qint64 ttlMs); // -> extended
    void release(const Lock& lock);              // the keeper stops first; -> released
    void startRun(const BenchConfig& config);    // -> runProgress..., runFinished

    bool hasClient() const { return !m_client.isNull(); }
    bool isAutoExtending() const { return !m_keeper.isNull(); }
    bool isRunning() const { return !m_run.isNull(); }

signals:
    void acquired(const redlock::AcquireResult& result);
    void extended(const redlock::ExtendResult& result);
    void released(const redlock::ReleaseResult& result);
    void autoExtended(const redlock::ExtendResult& result);
    void lost(const QString& reason);
    void runProgress(int done, int total);
    void runFinished(const redlock::BenchStats& stats);

private:
    IoThread* io();
    void dropClient();

    std::unique_ptr<IoThread> m_io;
    QPointer<RedlockClient> m_client;
    QPointer<LockKeeper> m_keeper;
    QPointer<BenchRun> m_run;
};

} // namespace redlock
