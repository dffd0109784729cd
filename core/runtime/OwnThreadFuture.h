#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QThread>

#include <functional>
#include <memory>

namespace redlock {

// Runs `starter` on `context`'s thread (at once when called there, else queued) and returns a future for the
// one result it delivers. The pattern behind every asynchronous core call: callers on any thread get a
// QFuture, the work and its I/O stay on the object's thread. If `context` is destroyed before the queued
// call runs, the promise is dropped and the future is cancelled (resultCount() == 0).
template <typename T, typename Starter> QFuture<T> runOnOwnThread(QObject* context, Starter starter)
{
    auto promise = std::make_shared<QPromise<T>>();
    QFuture<T> future = promise->future();
    promise->start();
    auto run = [promise, starter]() mutable {
        starter(std::function<void(const T&)>([promise](const T& result) {
            promise->addResult(result);
            promise->finish();
        }));
    };
    if (QThread::currentThread() == context->thread())
        run();
    else
        QMetaObject::invokeMethod(context, run, Qt::QueuedConnection);
    return future;
}

// Calls handler(result) on context's thread once future has its result, or never if context is destroyed
// first (or the future is cancelled). Instead of QFuture::then(context, ...): Qt 6.4 reads the context's
// QPointer on the thread that finishes the future, races with the context being destroyed on its own
// thread, and asserts that it is still alive (an abort in builds with assertions). A context that goes away
// with a call in flight is normal here (a keeper released and deleted, a dialog closed, a panel rebuilt).
// The QFutureWatcher belongs to context, so Qt disconnects it safely when context goes. Call it on
// context's thread. The handler never runs inside this call, even for a future that has already finished.
template <typename T, typename Handler> void whenFinished(QObject* context, const QFuture<T>& future, Handler handler)
{
    Q_ASSERT(QThread::currentThread() == context->thread());
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, handler = std::move(handler)]() mutable {
                         watcher->deleteLater();
                         if (watcher->future().resultCount() > 0)
                             handler(watcher->result());
                     });
    watcher->setFuture(future);
}

} // namespace redlock
