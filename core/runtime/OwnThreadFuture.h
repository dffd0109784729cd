#pragma once

#include <QFuture>
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

} // namespace redlock
