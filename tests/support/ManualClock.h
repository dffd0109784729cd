#pragma once

#include "runtime/SteadyClock.h"

#include <atomic>

// A steady clock that stands still: time moves only when the test moves it. For tests that compare what
// is computed from the clock to the millisecond (ShiftedClock runs in real time, so a loaded machine adds
// milliseconds between stamping a view and reading its remaining validity).
class ManualClock final : public redlock::SteadyClock
{
public:
    qint64 nowNs() const override { return m_nowNs.load(); }
    void advanceMs(qint64 ms) { m_nowNs += ms * 1'000'000; }

private:
    std::atomic<qint64> m_nowNs{redlock::SteadyClock::nowNs()};
};
