#include "StallMonitor.h"

namespace redlock {

StallMonitor::StallMonitor(int intervalMs, QObject* parent) : QObject(parent), m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(m_intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &StallMonitor::beat);
}

void StallMonitor::start()
{
    m_clock.start();
    m_lastNs = 0;
    m_timer.start();
}

void StallMonitor::stop()
{
    m_timer.stop();
}

void StallMonitor::reset()
{
    m_longestUs = 0;
    m_beats = 0;
    m_lastNs = m_clock.isValid() ? m_clock.nsecsElapsed() : 0;
}

void StallMonitor::beat()
{
    const qint64 now = m_clock.nsecsElapsed();
    const qint64 gapUs = (now - m_lastNs) / 1000 - qint64(m_intervalMs) * 1000;
    if (m_beats > 0 && gapUs > m_longestUs)
        m_longestUs = gapUs;
    m_lastNs = now;
    ++m_beats;
}

} // namespace redlock
