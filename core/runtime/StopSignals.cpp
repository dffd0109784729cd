#include "runtime/StopSignals.h"

#include <QSocketNotifier>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace redlock {

namespace {

// Read end, write end. The write end is all the handler touches.
int g_pipe[2] = {-1, -1};

void onStopSignal(int signalNumber)
{
    const int savedErrno = errno; // the interrupted code may be about to read errno
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] const auto written = ::write(g_pipe[1], &byte, 1);
    errno = savedErrno;
}

void closePipe()
{
    for (int& fd : g_pipe) {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
}

} // namespace

StopSignals::StopSignals(QObject* parent) : QObject(parent)
{
    if (g_pipe[0] >= 0) {
        m_error = QStringLiteral("another StopSignals is active in this process");
        return;
    }
    if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        g_pipe[0] = g_pipe[1] = -1;
        return;
    }
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int i = 0; i < int(std::size(kSignals)); ++i) {
        if (::sigaction(kSignals[i], &action, &m_previous[i]) != 0) {
            m_error = QString::fromLocal8Bit(std::strerror(errno));
            uninstall(i);
            return;
        }
    }
    m_notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StopSignals::drain);
}

StopSignals::~StopSignals()
{
    if (isActive())
        uninstall(int(std::size(kSignals)));
}

void StopSignals::drain()
{
    unsigned char byte = 0;
    while (::read(g_pipe[0], &byte, 1) == 1)
        emit received(byte);
}

void StopSignals::uninstall(int installed)
{
    // The handlers first: once they are back, nothing writes to the pipe any more.
    for (int i = 0; i < installed; ++i)
        ::sigaction(kSignals[i], &m_previous[i], nullptr);
    delete m_notifier;
    m_notifier = nullptr;
    closePipe();
}

} // namespace redlock
