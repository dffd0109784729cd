#pragma once

// What the journal tests share (TestLockJournal, TestPostgresJournal, TestJournalImport): a wall clock the test
// sets, the result of a journal's future, and an event as a watch journals it.

#include "history/HistoryTypes.h"
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

// An event as a watch journals it. holder: its display text; by default the token, percent-encoded (a summary, as
// decodeHolder makes it, never holds a control character).
inline redlock::JournalEvent journalEvent(qint64 atMs, const QByteArray& key, const char* kind, const QByteArray& token,
                                          const QString& holder = {})
{
    redlock::JournalEvent e;
    e.atMs = atMs;
    e.key = key;
    e.kind = QString::fromLatin1(kind);
    e.token = token;
    e.holder = holder.isEmpty() ? QString::fromLatin1(token.toPercentEncoding()) : holder;
    return e;
}
