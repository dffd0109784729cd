#pragma once

#include <QtGlobal>

#include <chrono>
#include <memory>

namespace redlock {

/// The monotonic clock the Redlock maths runs on. Injectable so tests can make time pass exactly
/// (an attempt that "took" longer than the TTL, a lock that expired) without sleeping.
class SteadyClock
{
public:
    virtual ~SteadyClock() = default;
    /// Nanoseconds on a monotonic clock (std::chrono::steady_clock): only differences mean something.
    virtual qint64 nowNs() const
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    /// The real clock, shared; thread-safe.
    static std::shared_ptr<SteadyClock> system()
    {
        static const auto clock = std::make_shared<SteadyClock>();
        return clock;
    }
};

} // namespace redlock
