#include "controller/AlertSettings.h"

#include <QSettings>

namespace redlock {

namespace {

QString key(AlertRule rule, const char* field)
{
    return QStringLiteral("alerts/%1/%2").arg(alertRuleId(rule), QLatin1String(field));
}

} // namespace

AlertThresholds AlertSettings::load(QSettings& settings)
{
    AlertThresholds t;
    for (int i = 0; i < kAlertRuleCount; ++i) {
        const auto rule = static_cast<AlertRule>(i);
        const bool on = settings.value(key(rule, "enabled"), t.isEnabled(rule)).toBool();
        const qint64 ms = settings.value(key(rule, "afterMs"), t.after(rule)).toLongLong();
        t.set(rule, on, std::max<qint64>(0, ms));
    }
    t.clearAfterMs =
        std::max<qint64>(0, settings.value(QStringLiteral("alerts/clearAfterMs"), t.clearAfterMs).toLongLong());
    t.repeatAfterMs =
        std::max<qint64>(0, settings.value(QStringLiteral("alerts/repeatAfterMs"), t.repeatAfterMs).toLongLong());
    return t;
}

void AlertSettings::save(QSettings& settings, const AlertThresholds& t)
{
    for (int i = 0; i < kAlertRuleCount; ++i) {
        const auto rule = static_cast<AlertRule>(i);
        settings.setValue(key(rule, "enabled"), t.isEnabled(rule));
        settings.setValue(key(rule, "afterMs"), t.after(rule));
    }
    settings.setValue(QStringLiteral("alerts/clearAfterMs"), t.clearAfterMs);
    settings.setValue(QStringLiteral("alerts/repeatAfterMs"), t.repeatAfterMs);
}

} // namespace redlock
