#include "alerts/AlertThresholdsDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace redlock {

namespace {

constexpr int kMaxSeconds = 7 * 24 * 3600;

QSpinBox* secondsBox(const QString& objectName, const QString& suffix, int max)
{
    auto* box = new QSpinBox;
    box->setObjectName(objectName);
    box->setRange(0, max);
    box->setSuffix(suffix);
    box->setAlignment(Qt::AlignRight);
    return box;
}

} // namespace

QString AlertThresholdsDialog::ruleHelp(AlertRule rule)
{
    switch (rule) {
    case AlertRule::LockHeld:
        return tr("One holder keeps a lock longer than:");
    case AlertRule::LockContested:
        return tr("A lock stays contested (no token on a quorum) longer than:");
    case AlertRule::MinorityLeftover:
        return tr("A minority leftover is older than:");
    case AlertRule::QuorumLost:
        return tr("Fewer than a quorum of nodes are up for:");
    case AlertRule::NodeDown:
        return tr("A node is unreachable for:");
    case AlertRule::SevereFinding:
        return tr("The safety audit has a severe finding for:");
    case AlertRule::ClockOffset:
        return tr("A node's clock is off by more than the drift budget for:");
    }
    return {};
}

AlertThresholdsDialog::AlertThresholdsDialog(const AlertThresholds& thresholds, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("alertThresholdsDialog"));
    setWindowTitle(tr("Alert thresholds"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("An alert is raised when its condition has lasted the time given here, and cleared "
                                "when the condition has been gone for the hysteresis below. The clock-offset budget "
                                "is the Redlock drift of the largest TTL in use."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* grid = new QGridLayout;
    for (int i = 0; i < kAlertRuleCount; ++i) {
        const auto rule = static_cast<AlertRule>(i);
        m_enabled[i] = new QCheckBox(alertRuleName(rule));
        m_enabled[i]->setObjectName(QStringLiteral("enabled-%1").arg(alertRuleId(rule)));
        m_after[i] = secondsBox(QStringLiteral("after-%1").arg(alertRuleId(rule)), tr(" s"), kMaxSeconds);
        auto* help = new QLabel(ruleHelp(rule));
        help->setBuddy(m_after[i]);
        grid->addWidget(m_enabled[i], i, 0);
        grid->addWidget(help, i, 1);
        grid->addWidget(m_after[i], i, 2);
        connect(m_enabled[i], &QCheckBox::toggled, m_after[i], &QWidget::setEnabled);
    }
    const int row = kAlertRuleCount;
    m_clearAfter = secondsBox(QStringLiteral("clearAfter"), tr(" s"), 3600);
    auto* clearLabel = new QLabel(tr("Clear an alert when its condition has been gone for:"));
    clearLabel->setBuddy(m_clearAfter);
    grid->addWidget(clearLabel, row, 0, 1, 2);
    grid->addWidget(m_clearAfter, row, 2);
    m_repeatAfter = secondsBox(QStringLiteral("repeatAfter"), tr(" min"), 24 * 60);
    m_repeatAfter->setSpecialValueText(tr("never"));
    auto* repeatLabel = new QLabel(tr("Remind of an unacknowledged alert every:"));
    repeatLabel->setBuddy(m_repeatAfter);
    grid->addWidget(repeatLabel, row + 1, 0, 1, 2);
    grid->addWidget(m_repeatAfter, row + 1, 2);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    auto* buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { setThresholds(AlertThresholds{}); });
    layout->addWidget(buttons);
    setThresholds(thresholds);
}

void AlertThresholdsDialog::setThresholds(const AlertThresholds& t)
{
    for (int i = 0; i < kAlertRuleCount; ++i) {
        const auto rule = static_cast<AlertRule>(i);
        m_enabled[i]->setChecked(t.isEnabled(rule));
        m_after[i]->setValue(static_cast<int>(std::min<qint64>(t.after(rule) / 1000, kMaxSeconds)));
        m_after[i]->setEnabled(t.isEnabled(rule));
    }
    m_clearAfter->setValue(static_cast<int>(std::min<qint64>(t.clearAfterMs / 1000, 3600)));
    m_repeatAfter->setValue(static_cast<int>(std::min<qint64>(t.repeatAfterMs / 60000, 24 * 60)));
}

AlertThresholds AlertThresholdsDialog::thresholds() const
{
    AlertThresholds t;
    for (int i = 0; i < kAlertRuleCount; ++i)
        t.set(static_cast<AlertRule>(i), m_enabled[i]->isChecked(), qint64(m_after[i]->value()) * 1000);
    t.clearAfterMs = qint64(m_clearAfter->value()) * 1000;
    t.repeatAfterMs = qint64(m_repeatAfter->value()) * 60000;
    return t;
}

} // namespace redlock
