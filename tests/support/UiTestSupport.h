#pragma once

// Lock views as LockInspector makes them, for model and widget tests that need exact, repeatable input.
// (The Redlock behaviour itself is tested against real nodes in the core tests and TestConsoleDemo.)

#include "observe/LockInspector.h"
#include "observe/ObservationTypes.h"
#include "runtime/SteadyClock.h"

#include <QDateTime>

inline redlock::LockView makeLockView(const QByteArray& key, const QList<QByteArray>& tokens,
                                      const QList<qint64>& pttls,
                                      qint64 observedAtNs = redlock::SteadyClock::system()->nowNs())
{
    using namespace redlock;
    LockView view;
    view.key = key;
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        NodeLockState s;
        if (tokens[i] == "!") {
            s.presence = NodeLockState::Presence::Unreachable;
            s.note = QStringLiteral("connection refused");
        } else if (tokens[i].isEmpty()) {
            s.presence = NodeLockState::Presence::Absent;
        } else {
            s.presence = NodeLockState::Presence::Holding;
            s.token = tokens[i];
            s.pttlMs = pttls.value(i, 10000);
        }
        view.nodes.append(s);
    }
    view.observedAtMs = QDateTime::currentMSecsSinceEpoch();
    view.observedAtNs = observedAtNs;
    judgeLock(view, {rules::quorum(int(tokens.size())), 0.01, 1000});
    view.holder = SharedHolder(decodeHolder(view.key, view.token));
    return view;
}

inline redlock::LockView heldView(const QByteArray& key, qint64 pttl,
                                  qint64 observedAtNs = redlock::SteadyClock::system()->nowNs())
{
    return makeLockView(key, {"tok-" + key, "tok-" + key, "tok-" + key, "tok-" + key, "tok-" + key},
                        {pttl, pttl, pttl, pttl, pttl}, observedAtNs);
}
