#include "operate/NodeRestartScheduler.h"

#include "protocol/RedisConnection.h"
#include "runtime/ClientName.h"

#include <QProcess>

#include <utility>

namespace redlock {

namespace {

// What is kept of a stop or start command's output (for the error shown when it fails).
constexpr qsizetype kMaxOutputBytes = 64 * 1024;

} // namespace

CommandRestartBackend::CommandRestartBackend(RestartMethod method, QObject* parent)
    : RestartBackend(parent), m_method(std::move(method))
{}

void CommandRestartBackend::stop(Done done)
{
    runProgram(this, m_method.stopProgram, m_method.stopArguments, m_method.commandTimeoutMs, std::move(done));
}

void CommandRestartBackend::start(Done done)
{
    runProgram(this, m_method.startProgram, m_method.startArguments, m_method.commandTimeoutMs, std::move(done));
}

void CommandRestartBackend::runProgram(QObject* context, const QString& program, const QStringList& arguments,
                                       int timeoutMs, Done done)
{
    if (program.isEmpty()) {
        done({false, tr("no program configured"), {}});
        return;
    }
    auto* process = new QProcess(context);
    process->setProcessChannelMode(QProcess::MergedChannels);
    struct Run
    {
        QByteArray output;
        bool finished = false;
        bool timedOut = false;
    };
    auto run = std::make_shared<Run>();
    auto complete = [process, run, done, program](StepResult r) {
        if (run->finished)
            return;
        run->finished = true;
        run->output += process->readAll();
        r.output = QString::fromUtf8(run->output.right(kMaxOutputBytes));
        process->deleteLater();
        done(r);
    };
    QObject::connect(process, &QProcess::readyRead, process, [process, run] {
        run->output += process->readAll();
        if (run->output.size() > 2 * kMaxOutputBytes)
            run->output = run->output.right(kMaxOutputBytes);
    });
    QObject::connect(
        process, &QProcess::errorOccurred, process, [process, complete, program](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                complete({false, tr("%1 could not be started: %2").arg(program, process->errorString()), {}});
        });
    QObject::connect(
        process, &QProcess::finished, process,
        [complete, run, program, timeoutMs](int exitCode, QProcess::ExitStatus status) {
            if (run->timedOut)
                complete({false, tr("%1 did not finish within %2 ms and was killed").arg(program).arg(timeoutMs), {}});
            else if (status != QProcess::NormalExit)
                complete({false, tr("%1 crashed").arg(program), {}});
            else if (exitCode != 0)
                complete({false, tr("%1 exited with code %2").arg(program).arg(exitCode), {}});
            else
                complete({true, {}, {}});
        });
    QTimer::singleShot(timeoutMs, process, [process, run] {
        if (run->finished)
            return;
        run->timedOut = true;
        process->kill();
    });
    // QProcess::start(program, arguments) execs the program directly: no shell parses anything.
    process->start(program, arguments);
}

ShutdownRestartBackend::ShutdownRestartBackend(const NodeEndpoint& endpoint, const ConnectionOptions& connection,
                                               int timeoutMs, QObject* parent)
    : RestartBackend(parent), m_endpoint(endpoint), m_connection(connection), m_timeoutMs(timeoutMs)
{
    m_connection.autoReconnect = false;
    if (m_connection.clientName.isEmpty())
        m_connection.clientName = applicationClientName("shutdown");
}

void ShutdownRestartBackend::stop(Done done)
{
    auto* c = new RedisConnection(m_endpoint, m_connection, this);
    c->send(
        {"SHUTDOWN", "NOSAVE"},
        [c, done](const RedisReply& reply) {
            c->deleteLater();
            // Redis answers a successful SHUTDOWN by closing the connection.
            if (reply.type() == RedisReply::Type::Failure && reply.errorKind() == RedisErrorKind::ConnectionLost) {
                done({true, {}, {}});
                return;
            }
            if (reply.isError())
                done({false, tr("SHUTDOWN NOSAVE failed: %1").arg(reply.errorText()), {}});
            else
                done({false, tr("SHUTDOWN NOSAVE was answered instead of closing the connection"), {}});
        },
        m_timeoutMs);
}

void ShutdownRestartBackend::start(Done done)
{
    done({true, {}, {}});
}

} // namespace redlock
