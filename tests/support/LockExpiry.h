#pragma once

// A lock seen held, then expired, with nothing racing the machine's speed. A short TTL (a few hundred ms) has to
// be read after its keyspace event and before it runs out, and on a loaded machine the read comes late: no
// "acquired", or a quorum that lapses between two reads. Instead the test takes a long TTL, waits for the
// inspector to report it held, then lets the TTL run out while the inspector's thread is held: each node expires
// the key itself (PEXPIRE 1 and a read until it is gone: the nodes send real `expired` keyspace events, no DEL),
// and the inspector's clock moves on by the TTL. When its thread goes on, the events are read at once and the
// quorum is gone at or after its expiry on the inspector's clock.

#include "observe/LockInspector.h"
#include "support/ObservationTestSupport.h"
#include "support/ShiftedClock.h"

#include <QDeadlineTimer>
#include <QScopeGuard>
#include <QSemaphore>
#include <QThread>

#include <memory>

inline bool expireWhileInspectorWaits(redlock::LockInspector* inspector, redlock::ShiftedClock& clock,
                                      const QList<redlock::NodeEndpoint>& nodes, const QByteArray& key, qint64 ttlMs,
                                      QString* error)
{
    auto held = std::make_shared<QSemaphore>();
    auto resume = std::make_shared<QSemaphore>();
    QMetaObject::invokeMethod(
        inspector,
        [held, resume] {
            held->release();
            resume->acquire();
        },
        Qt::QueuedConnection);
    // However this returns, the inspector's thread goes on.
    const auto resumeAtExit = qScopeGuard([resume] { resume->release(); });
    if (!held->tryAcquire(1, 30000)) {
        *error = QStringLiteral("the inspector's thread was not held within 30 s");
        return false;
    }
    for (const redlock::NodeEndpoint& node : nodes) {
        const redlock::RedisReply r = runCommand(node, {"PEXPIRE", key, "1"});
        if (!r.isInteger() || r.integer() != 1) {
            *error =
                QStringLiteral("PEXPIRE %1 on %2: %3").arg(QString::fromUtf8(key), node.displayName(), r.errorText());
            return false;
        }
    }
    const QDeadlineTimer deadline(10000);
    for (const redlock::NodeEndpoint& node : nodes) {
        // EXISTS expires the key on access once its millisecond has passed (the node sends `expired`).
        while (runCommand(node, {"EXISTS", key}).integer() != 0) {
            if (deadline.hasExpired()) {
                *error = QStringLiteral("%1 still on %2 10 s after PEXPIRE 1")
                             .arg(QString::fromUtf8(key), node.displayName());
                return false;
            }
            QThread::msleep(2);
        }
    }
    clock.advanceMs(ttlMs);
    return true;
}
