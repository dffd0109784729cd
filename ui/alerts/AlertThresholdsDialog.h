#pragma once

#include "alerts/AlertMonitor.h"

#include <QDialog>

class QCheckBox;
class QSpinBox;

namespace redlock {

// Edits the alert thresholds: per rule on/off and how long its condition must last (seconds), how long a
// condition must be gone before its alert clears, and how often an unacknowledged alert reminds. Widgets are
// named "enabled-<rule id>", "after-<rule id>", "clearAfter", "repeatAfter".
class AlertThresholdsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertThresholdsDialog)

public:
    explicit AlertThresholdsDialog(const AlertThresholds& thresholds, QWidget* parent = nullptr);

    AlertThresholds thresholds() const;
    void setThresholds(const AlertThresholds& thresholds);

private:
    static QString ruleHelp(AlertRule rule);

    QCheckBox* m_enabled[kAlertRuleCount] = {};
    QSpinBox* m_after[kAlertRuleCount] = {};
    QSpinBox* m_clearAfter = nullptr;
    QSpinBox* m_repeatAfter = nullptr;
};

} // namespace redlock
