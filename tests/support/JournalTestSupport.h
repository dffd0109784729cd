#pragma once

// What the journal tests share (TestLockJournal, TestPostgresJournal): a wall clock the test sets, and the result of
// a journal's future.

#include "runtime/WallClock.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QFuture>

// A wall clock the test sets.
class SetClock final : public redlock::WallClock
{
public:
    qint64 nowMs() const override { return now.loadRelaxed(); }
    QAtomicInteger<qint64> now = QDateTime::currentMSecsSinceEpoch();
};

template <typename T> T await(const QFuture<T>& future)
{
    const_cast<QFuture<T>&>(future).waitForFinished();
    return future.result();
}
