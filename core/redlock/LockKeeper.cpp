#include "redlock/LockKeeper.h"

#include "redlock/RedlockClient.h"
#include "runtime/OwnThreadFuture.h"

#include <algorithm>

namespace redlock {

LockKeeper::LockKeeper(RedlockClient* client, const Lock& lock, QObject* parent)
    : QObject(parent), m_client(client), m_lock(lock)
{
    m_extendTimer.setSingleShot(true);
    m_extendTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_extendTimer, &QTimer::timeout, this, &LockKeeper::extendNow);
    m_validityTimer.setSingleShot(true);
    m_validityTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_validityTimer, &QTimer::timeout, this, [this] {
        declareLost(tr("less than the safety margin (%1 ms) of validity left and no extension has succeeded")
                        .arg(safetyMarginMs()));
    });
}

bool LockKeeper::isHeld() const
{
    return m_held && m_client && m_client->nowNs() < m_lock.validUntilNs - safetyMarginMs() * 1'000'000;
}

void LockKeeper::start()
{
    if (m_running || !m_held || !m_client)
        return;
    m_running = true;
    scheduleNext();
}

void LockKeeper::stop()
{
    m_running = false;
    m_extendTimer.stop();
    m_validityTimer.stop();
}

void LockKeeper::release()
{
    stop();
    if (!m_client)
        return;
    m_held = false;
    whenFinished(this, m_client->release(m_lock), [this](const ReleaseResult& r) { emit released(r); });
}

void LockKeeper::scheduleNext()
{
    if (!m_running || !m_client)
        return;
    const qint64 marginMs = safetyMarginMs();
    const qint64 remainingMs = m_lock.remainingValidityMs(m_client->nowNs());
    if (remainingMs <= marginMs) {
        declareLost(
            tr("less than the safety margin (%1 ms) of validity left and no extension has succeeded").arg(marginMs));
        return;
    }
    const qint64 threshold =
        std::max(static_cast<qint64>(static_cast<double>(m_lock.ttlMs) * m_fraction), 2 * marginMs);
    m_extendTimer.start(static_cast<int>(std::max<qint64>(0, remainingMs - threshold)));
    m_validityTimer.start(static_cast<int>(remainingMs - marginMs));
}

void LockKeeper::extendNow()
{
    if (!m_running || !m_client || m_inFlight)
        return;
    m_inFlight = true;
    whenFinished(this, m_client->extend(m_lock, m_lock.ttlMs), [this](const ExtendResult& r) {
        m_inFlight = false;
        if (!m_running)
            return;
        if (!r.ok) {
            declareLost(r.error);
            return;
        }
        m_lock = r.lock;
        emit extended(r);
        scheduleNext();
    });
}

void LockKeeper::declareLost(const QString& reason)
{
    if (!m_held)
        return;
    m_held = false;
    stop();
    emit lost(reason);
}

} // namespace redlock
