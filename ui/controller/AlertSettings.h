#pragma once

#include "alerts/AlertMonitor.h"

class QSettings;

namespace redlock {

// The console's alert thresholds between runs, in QSettings under "alerts/": per rule "<rule id>/enabled"
// and "<rule id>/afterMs", and "clearAfterMs", "repeatAfterMs". What is not stored keeps AlertThresholds'
// default.
class AlertSettings final
{
public:
    AlertSettings() = delete;
    static AlertThresholds load(QSettings& settings);
    static void save(QSettings& settings, const AlertThresholds& thresholds);
};

} // namespace redlock
