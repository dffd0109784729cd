#include "runtime/IoThread.h"

#include <algorithm>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace redlock {

IoThread::IoThread(const QString& name, Priority priority) : m_thread(std::make_unique<QThread>())
{
    m_thread->setObjectName(name);
    m_context = new QObject;
    m_context->moveToThread(m_thread.get());
    m_thread->start();
    if (priority == Priority::Background) {
#ifdef Q_OS_LINUX
        // QThread's priorities do nothing under Linux's default scheduler (and IdlePriority, SCHED_IDLE, could
        // starve the thread for as long as the machine is busy); a thread's own nice value is honoured.
        runAndWait([] {
            const pid_t tid = gettid();
            errno = 0;
            const int nice = getpriority(PRIO_PROCESS, id_t(tid));
            if (errno == 0)
                setpriority(PRIO_PROCESS, id_t(tid), std::min(nice + 10, 19));
        });
#else
        m_thread->setPriority(QThread::LowPriority);
#endif
    }
}

IoThread::~IoThread()
{
    runAndWait([this] {
        for (qsizetype i = m_owned.size() - 1; i >= 0; --i)
            delete m_owned[i].data();
        m_owned.clear();
        delete m_context;
        m_context = nullptr;
    });
    m_thread->quit();
    m_thread->wait(5000);
}

} // namespace redlock
