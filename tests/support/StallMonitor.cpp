#include "support/StallMonitor.h"

#include <ctime>

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
    m_longestCpuUs = 0;
    m_beats = 0;
    m_lastNs = m_clock.isValid() ? m_clock.nsecsElapsed() : 0;
}

namespace {
qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
} // namespace

void StallMonitor::beat()
{
    const qint64 now = m_clock.nsecsElapsed();
    const qint64 cpu = threadCpuNs();
    const qint64 gapUs = (now - m_lastNs) / 1000 - qint64(m_intervalMs) * 1000;
    if (m_beats > 0 && gapUs > m_longestUs) {
        m_longestUs = gapUs;
        m_longestCpuUs = (cpu - m_lastCpuNs) / 1000;
    }
    m_lastNs = now;
    m_lastCpuNs = cpu;
    ++m_beats;
}

} // namespace redlock
