#pragma once

#include <QObject>
#include <QString>

#include <csignal>
#include <iterator>

class QSocketNotifier;

namespace redlock {

/// SIGINT, SIGTERM and SIGHUP as a Qt signal, for a process that must stop cleanly on Ctrl+C, a service
/// manager's stop or a closed terminal: tear down what it started and print its last lines instead of dying
/// where it stands.
///
/// The self-pipe: the POSIX handler only writes the signal's number into a pipe (write() is
/// async-signal-safe; nothing in Qt is), and a QSocketNotifier on the pipe's other end emits received() on the
/// thread of this object, from its event loop. A signal that arrives before the loop runs is delivered as soon
/// as it does.
///
/// One instance at a time in a process (the handler reaches the pipe through a global); the destructor puts
/// the previous handlers back.
class StopSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StopSignals)

public:
    /// Installs the handlers for SIGINT, SIGTERM and SIGHUP; received() is emitted on this object's thread.
    explicit StopSignals(QObject* parent = nullptr);
    ~StopSignals() override;

    /// False when the pipe or a handler could not be set up; errorString() says why. Nothing is installed then.
    bool isActive() const { return m_notifier != nullptr; }
    /// Why setting up failed; empty when isActive().
    QString errorString() const { return m_error; }

signals:
    /// Once per signal received: SIGINT, SIGTERM or SIGHUP.
    void received(int signalNumber);

private:
    void drain();
    void uninstall(int installed);

    static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction m_previous[std::size(kSignals)] = {};
    QSocketNotifier* m_notifier = nullptr;
    QString m_error;
};

} // namespace redlock
