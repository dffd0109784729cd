#pragma once

#include <QtGlobal>

#include <atomic>
#include <chrono>
#include <memory>

namespace redlock {

// The monotonic clock the Redlock maths runs on. Injectable so tests can make time pass exactly
// (an attempt that "took" longer than the TTL, a lock that expired) without sleeping.
class SteadyClock
{
public:
    virtual ~SteadyClock() = default;
    virtual qint64 nowNs() const
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    static std::shared_ptr<SteadyClock> system()
    {
        static const auto clock = std::make_shared<SteadyClock>();
        return clock;
    }
};

// Real time plus an offset the test controls.
class ShiftedClock final : public SteadyClock
{
public:
    qint64 nowNs() const override { return SteadyClock::nowNs() + m_offsetNs.load(); }
    void advanceMs(qint64 ms) { m_offsetNs += ms * 1'000'000; }

private:
    std::atomic<qint64> m_offsetNs{0};
};

} // namespace redlock
