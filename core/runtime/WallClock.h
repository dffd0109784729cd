#pragma once

#include <QDateTime>

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

} // namespace redlock
