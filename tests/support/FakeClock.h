#pragma once

// A redis-server whose wall clock differs from this machine's: libfaketime preloaded with a FAKETIME
// offset, and glibc's malloc preloaded before it (GlibcMalloc.cpp says why). The paths come from CMake
// (tests/CMakeLists.txt); libfaketime is installed by scripts/setup-deps.sh.

#include "localcluster/LocalCluster.h"

#include <QFileInfo>

// Options for a node whose clock is offsetSeconds ahead (negative: behind); false and *error when
// libfaketime or the malloc shim is missing (a test then fails: it must not pass without having run).
inline bool withClockOffset(redlock::LocalNodeOptions* options, int offsetSeconds, QString* error)
{
    const QString faketime = QStringLiteral(REDLOCK_FAKETIME_LIBRARY);
    const QString shim = QStringLiteral(REDLOCK_GLIBC_MALLOC_SHIM);
    if (faketime.isEmpty() || !QFileInfo::exists(faketime)) {
        *error =
            QStringLiteral("libfaketime not found (%1): run scripts/setup-deps.sh and configure again").arg(faketime);
        return false;
    }
    if (!QFileInfo::exists(shim)) {
        *error = QStringLiteral("%1 not built").arg(shim);
        return false;
    }
    options->environment << QStringLiteral("LD_PRELOAD=%1 %2").arg(shim, faketime)
                         << QStringLiteral("FAKETIME=%1%2s")
                                .arg(offsetSeconds < 0 ? QStringLiteral("-") : QStringLiteral("+"))
                                .arg(qAbs(offsetSeconds))
                         // The offset applies to the wall clock only; monotonic timers stay real.
                         << QStringLiteral("FAKETIME_DONT_FAKE_MONOTONIC=1");
    return true;
}
