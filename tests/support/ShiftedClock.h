#pragma once

#include "runtime/SteadyClock.h"
#include "runtime/WallClock.h"

#include <atomic>

namespace redlock {

// Test doubles for the injectable clocks: real time plus an offset the test moves forward, so a test lets a
// TTL or a restart delay pass at once instead of sleeping.

// Real time plus an offset the test controls.
class ShiftedClock final : public SteadyClock
{
public:
    qint64 nowNs() const override { return SteadyClock::nowNs() + m_offsetNs.load(); }
    void advanceMs(qint64 ms) { m_offsetNs += ms * 1'000'000; }

private:
    std::atomic<qint64> m_offsetNs{0};
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
