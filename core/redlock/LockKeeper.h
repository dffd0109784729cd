#pragma once

#include "redlock/RedlockTypes.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace redlock {

class RedlockClient;

/// Keeps a lock alive: extends it with its TTL each time its remaining validity falls to a fraction of the
/// TTL, and says "lost" the moment an extension fails, a cap is reached, or the validity comes within the
/// safety margin of its end while an extension is still in flight. Lives on the client's thread. Never
/// releases by itself: stop() only stops extending (the lock then expires); release() releases and stops.
///
/// Work under the lock must check isHeld() (or the lock's validity on the clock) right before each step
/// that relies on it, not a flag of its own set from the signals: a busy or paused thread receives lost()
/// late, while isHeld() reads the clock. Both turn a safety margin *before* the validity ends, so a holder
/// that reacts to either still has that margin to stop touching the resource.
class LockKeeper final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockKeeper)

public:
    /// Keeps `lock`, taken by `client`; create it on the client's thread. Does nothing until start(). The
    /// client is watched, not owned: once it is destroyed the keeper stops extending and cannot release.
    /// Destroying the keeper stops extending without releasing: the lock then expires at the end of its TTL.
    LockKeeper(RedlockClient* client, const Lock& lock, QObject* parent = nullptr);

    /// Extend when the remaining validity is at most this fraction of the TTL (default 1/3), and at least
    /// twice the safety margin before the end.
    void setExtendAtFraction(double fraction) { m_fraction = fraction; }
    /// How long before the end of validity the lock counts as lost when no extension has succeeded by then.
    /// Default: a tenth of the TTL.
    void setSafetyMarginMs(qint64 marginMs) { m_marginMs = marginMs; }
    /// The margin in use: the one set, or a tenth of the TTL.
    qint64 safetyMarginMs() const { return m_marginMs >= 0 ? m_marginMs : m_lock.ttlMs / 10; }

    /// The lock as last extended (its validUntilNs and extensions follow each successful extension).
    Lock lock() const { return m_lock; }
    /// A clock check: not lost or released, and now < validUntil - safety margin. True even while this
    /// thread is too busy to run the keeper's timers only as long as the clock says so.
    bool isHeld() const;
    /// True between start() and stop(), release() or the lock being lost.
    bool isRunning() const { return m_running; }

    /// Starts extending; no effect when already running, once lost or released, or without a client.
    void start();
    /// Stops extending and watching the validity; the lock stays held on the nodes until its TTL runs out.
    void stop();
    /// Stops, then releases the lock on every node (RedlockClient::release()); released() says how it went.
    /// isHeld() is false from this call on, whatever the outcome.
    void release();

signals:
    /// An extension succeeded on a quorum; result.lock has the new validity.
    void extended(const redlock::ExtendResult& result);
    /// The lock is no longer safe to rely on: an extension failed, a cap was reached, or the validity came
    /// within the safety margin of its end. Emitted once; the keeper stops; `reason` is translated.
    void lost(const QString& reason);
    /// The outcome of release(), with each node's.
    void released(const redlock::ReleaseResult& result);

private:
    void scheduleNext();
    void extendNow();
    void declareLost(const QString& reason);

    QPointer<RedlockClient> m_client;
    Lock m_lock;
    double m_fraction = 1.0 / 3.0;
    qint64 m_marginMs = -1; ///< -1: a tenth of the TTL
    bool m_running = false;
    bool m_held = true;
    bool m_inFlight = false;
    QTimer m_extendTimer;
    QTimer m_validityTimer; ///< fires a safety margin before the current validity runs out
};

} // namespace redlock
