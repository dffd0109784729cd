#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <memory>
#include <utility>

namespace redlock {

/// A thread with a running event loop where core objects (connections, Redlock clients, inspectors) live,
/// so that no Redis I/O happens on the GUI thread or on a thread that blocks on results.
/// Objects made with create() are constructed and destroyed on that thread; the destructor deletes them
/// there, then stops the thread (bounded wait: their destructors do not block).
class IoThread final
{
    Q_DISABLE_COPY_MOVE(IoThread)

public:
    /// How the thread competes for the CPU.
    enum class Priority {
        Normal, ///< like the threads that made it
        /// Work that may wait (the history journal's writer): on a busy machine it gives way to what the operator
        /// sees. On Linux the thread's nice value is raised by 10 (it still runs: about a tenth of a core that
        /// normal threads fill, all of an idle one); elsewhere QThread::LowPriority.
        Background,
    };

    /// Starts the thread (named `name` for debuggers and `top`) and its event loop.
    explicit IoThread(const QString& name = QStringLiteral("redlock-io"), Priority priority = Priority::Normal);
    /// Deletes the objects create() made that still exist, on the I/O thread, then quits and joins it.
    ~IoThread();

    /// The thread; objects moved there run their slots and timers on it.
    QThread* thread() const { return m_thread.get(); }

    /// Constructs a T (a QObject) from `args` on the I/O thread and returns it once constructed: from another
    /// thread the caller blocks until then. Its calls and signals then belong to that thread (connect to it
    /// queued). The IoThread deletes it on teardown unless deleted before.
    template <typename T, typename... Args> T* create(Args&&... args)
    {
        T* object = nullptr;
        auto make = [&] { object = new T(std::forward<Args>(args)...); };
        if (QThread::currentThread() == m_thread.get())
            make();
        else
            QMetaObject::invokeMethod(m_context, make, Qt::BlockingQueuedConnection);
        m_owned.append(object);
        return object;
    }

    /// Runs fn on the I/O thread and waits for it.
    template <typename Fn> void runAndWait(Fn&& fn)
    {
        if (QThread::currentThread() == m_thread.get())
            fn();
        else
            QMetaObject::invokeMethod(m_context, std::forward<Fn>(fn), Qt::BlockingQueuedConnection);
    }

private:
    std::unique_ptr<QThread> m_thread;
    QObject* m_context = nullptr;
    QList<QPointer<QObject>> m_owned;
};

} // namespace redlock
