#pragma once

// Shared bits of the operator console tests: temp files for the audit log and the restart state, and
// screenshots of dialogs when REDLOCK_SCREENSHOT_DIR is set (to look at them).

#include <QDir>
#include <QPixmap>
#include <QWidget>

inline void screenshot(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("REDLOCK_SCREENSHOT_DIR");
    if (dir.isEmpty() || !widget)
        return;
    QDir().mkpath(dir);
    widget->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")), "PNG");
}
