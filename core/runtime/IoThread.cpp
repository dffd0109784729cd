#include "runtime/IoThread.h"

namespace redlock {

IoThread::IoThread(const QString& name) : m_thread(std::make_unique<QThread>())
{
    m_thread->setObjectName(name);
    m_context = new QObject;
    m_context->moveToThread(m_thread.get());
    m_thread->start();
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
