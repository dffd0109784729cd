#pragma once

#include "RedlockTypes.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace redlock {

class RedlockClient;

// Keeps a lock alive: extends it with its TTL each time its remaining validity falls to a fraction of the
// TTL, and says "lost" the moment an extension fails, a cap is reached, or the validity runs out while an
// extension is still in flight. Lives on the client's thread. Never releases by itself: stop() only stops
// extending (the lock then expires); release() releases and stops.
class LockKeeper final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockKeeper)

public:
    LockKeeper(RedlockClient* client, const Lock& lock, QObject* parent = nullptr);

    // Extend when the remaining validity is at most this fraction of the TTL (default 1/3).
    void setExtendAtFraction(double fraction) { m_fraction = fraction; }

    Lock lock() const { return m_lock; }
    bool isHeld() const { return m_held; }
    bool isRunning() const { return m_running; }

    void start();
    void stop();
    void release();

signals:
    void extended(const redlock::ExtendResult& result);
    void lost(const QString& reason);
    void released(const redlock::ReleaseResult& result);

private:
    void scheduleNext();
    void extendNow();
    void declareLost(const QString& reason);

    QPointer<RedlockClient> m_client;
    Lock m_lock;
    double m_fraction = 1.0 / 3.0;
    bool m_running = false;
    bool m_held = true;
    bool m_inFlight = false;
    QTimer m_extendTimer;
    QTimer m_validityTimer; // fires when the current validity runs out
};

} // namespace redlock
