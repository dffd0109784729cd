#pragma once

#include <QDateTime>

#include <atomic>
#include <memory>

namespace redlock {

// Wall-clock time (ms since the epoch) for instants that must survive a process restart, such as the due
// time of a delayed node restart. Injectable like SteadyClock, so tests can let a long delay pass at once.
class WallClock
{
public:
    virtual ~WallClock() = default;
    virtual qint64 nowMs() const { return QDateTime::currentMSecsSinceEpoch(); }
    static std::shared_ptr<WallClock> system()
    {
        static const auto clock = std::make_shared<WallClock>();
        return clock;
    }
};

// Real time plus an offset the test controls.
class ShiftedWallClock final : public WallClock
{
public:
    qint64 nowMs() const override { return WallClock::nowMs() + m_offsetMs.load(); }
    void advanceMs(qint64 ms) { m_offsetMs += ms; }

private:
    std::atomic<qint64> m_offsetMs{0};
};

} // namespace redlock
