#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace redlock {

// Measures how long the thread it lives on stops answering its event loop: a heartbeat timer fires every
// intervalMs, and the longest gap between two beats beyond the interval is the longest stall.
class StallMonitor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StallMonitor)

public:
    explicit StallMonitor(int intervalMs = 5, QObject* parent = nullptr);

    void start();
    void stop();
    void reset();
    qint64 longestStallUs() const { return m_longestUs; }
    // CPU time this thread spent during the longest stall: much less than the stall means the thread was
    // waiting for a CPU (other threads and processes), not working.
    qint64 longestStallCpuUs() const { return m_longestCpuUs; }
    qint64 beats() const { return m_beats; }

private:
    void beat();

    int m_intervalMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    qint64 m_longestUs = 0;
    qint64 m_longestCpuUs = 0;
    qint64 m_lastCpuNs = 0;
    qint64 m_beats = 0;
};

} // namespace redlock
