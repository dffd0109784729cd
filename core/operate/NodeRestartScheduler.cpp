#include "operate/NodeRestartScheduler.h"

#include "runtime/OwnThreadFuture.h"

#include "operate/AuditLog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QPromise>
#include <QRegularExpression>
#include <QSaveFile>
#include <QThread>
#include <QUuid>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace redlock {

namespace {

constexpr qsizetype kMaxOutputBytes = 64 * 1024;
// The state file's format; loadPending() also reads version 1 (no stopConfirmed).
constexpr int kStateFileVersion = 2;

using State = PendingRestart::State;

QJsonObject methodToJson(const RestartMethod& m)
{
    return {{QStringLiteral("kind"), restartMethodId(m.kind)},
            {QStringLiteral("localIndex"), m.localIndex},
            {QStringLiteral("stopProgram"), m.stopProgram},
            {QStringLiteral("stopArguments"), QJsonArray::fromStringList(m.stopArguments)},
            {QStringLiteral("startProgram"), m.startProgram},
            {QStringLiteral("startArguments"), QJsonArray::fromStringList(m.startArguments)},
            {QStringLiteral("commandTimeoutMs"), m.commandTimeoutMs}};
}

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue& e : v.toArray())
        out << e.toString();
    return out;
}

std::optional<RestartMethod> methodFromJson(const QJsonObject& o)
{
    RestartMethod m;
    const QString kind = o.value(QStringLiteral("kind")).toString();
    if (kind == restartMethodId(RestartMethod::Kind::LocalCluster))
        m.kind = RestartMethod::Kind::LocalCluster;
    else if (kind == restartMethodId(RestartMethod::Kind::Commands))
        m.kind = RestartMethod::Kind::Commands;
    else if (kind == restartMethodId(RestartMethod::Kind::ShutdownNoSave))
        m.kind = RestartMethod::Kind::ShutdownNoSave;
    else
        return std::nullopt;
    m.localIndex = o.value(QStringLiteral("localIndex")).toInt(-1);
    m.stopProgram = o.value(QStringLiteral("stopProgram")).toString();
    m.stopArguments = stringList(o.value(QStringLiteral("stopArguments")));
    m.startProgram = o.value(QStringLiteral("startProgram")).toString();
    m.startArguments = stringList(o.value(QStringLiteral("startArguments")));
    m.commandTimeoutMs = o.value(QStringLiteral("commandTimeoutMs")).toInt(60000);
    return m;
}

// Steady-clock readings compare across processes only within one boot of the machine.
QString bootId()
{
    QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.readAll().trimmed());
}

QByteArray runIdFromInfo(const QByteArray& info)
{
    for (const QByteArray& line : info.split('\n')) {
        if (line.startsWith("run_id:"))
            return line.mid(7).trimmed();
    }
    return {};
}

} // namespace

QString restartMethodName(RestartMethod::Kind kind)
{
    switch (kind) {
    case RestartMethod::Kind::LocalCluster:
        return QCoreApplication::translate("redlock::RestartMethod", "local cluster process");
    case RestartMethod::Kind::Commands:
        return QCoreApplication::translate("redlock::RestartMethod", "stop and start commands");
    case RestartMethod::Kind::ShutdownNoSave:
        return QCoreApplication::translate("redlock::RestartMethod",
                                           "SHUTDOWN NOSAVE (a supervisor restarts it; the delay is only watched)");
    }
    return {};
}

bool restartMethodEnforcesDelay(RestartMethod::Kind kind)
{
    return kind != RestartMethod::Kind::ShutdownNoSave;
}

QString restartMethodId(RestartMethod::Kind kind)
{
    switch (kind) {
    case RestartMethod::Kind::LocalCluster:
        return QStringLiteral("local-cluster");
    case RestartMethod::Kind::Commands:
        return QStringLiteral("commands");
    case RestartMethod::Kind::ShutdownNoSave:
        return QStringLiteral("shutdown-nosave");
    }
    return {};
}

QString restartStateName(PendingRestart::State state)
{
    switch (state) {
    case State::Stopping:
        return QCoreApplication::translate("redlock::RestartState", "stopping");
    case State::Quarantined:
        return QCoreApplication::translate("redlock::RestartState", "waiting out the delay");
    case State::Starting:
        return QCoreApplication::translate("redlock::RestartState", "starting");
    case State::Done:
        return QCoreApplication::translate("redlock::RestartState", "restarted");
    case State::Failed:
        return QCoreApplication::translate("redlock::RestartState", "failed");
    case State::Abandoned:
        return QCoreApplication::translate("redlock::RestartState", "abandoned");
    }
    return {};
}

QString restartStateId(PendingRestart::State state)
{
    switch (state) {
    case State::Stopping:
        return QStringLiteral("stopping");
    case State::Quarantined:
        return QStringLiteral("quarantined");
    case State::Starting:
        return QStringLiteral("starting");
    case State::Done:
        return QStringLiteral("done");
    case State::Failed:
        return QStringLiteral("failed");
    case State::Abandoned:
        return QStringLiteral("abandoned");
    }
    return {};
}

// ------------------------------------------------------------------------------------------------ backends

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
        m_connection.clientName = "redlock-console:shutdown";
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

// ------------------------------------------------------------------------------------------------ scheduler

NodeRestartScheduler::NodeRestartScheduler(RestartSchedulerOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)), m_clock(m_options.clock ? m_options.clock : WallClock::system()),
      m_steady(m_options.steadyClock ? m_options.steadyClock : SteadyClock::system())
{
    m_tick.setInterval(std::max(10, m_options.tickIntervalMs));
    connect(&m_tick, &QTimer::timeout, this, &NodeRestartScheduler::tick);
}

NodeRestartScheduler::~NodeRestartScheduler()
{
    m_tick.stop();
    // Probes and backends fail their pending requests as they go; those callbacks must not touch a
    // half-destroyed scheduler, so they are deleted here, while find() already answers nothing.
    // A pending restart stays in the state file.
    m_shuttingDown = true;
    auto entries = std::exchange(m_entries, {});
    for (auto& [id, entry] : entries) {
        delete entry.probe;
        delete entry.backend;
    }
    // Connections no entry holds any more (an entry that ended while its probe still had a request out) go
    // now too: left to ~QObject, their failing requests would call into a scheduler already destroyed.
    qDeleteAll(findChildren<RedisConnection*>(Qt::FindDirectChildrenOnly));
}

RestartPlan NodeRestartScheduler::plan(int node, const LockSnapshot& snapshot, const QList<int>& nodesDown) const
{
    QList<int> unavailable = nodesDown;
    unavailable << quarantinedNodes();
    return RestartPlanner::plan(node, nodeCount(), snapshot, m_options.configuredMaxTtlMs, m_options.driftFactor,
                                unavailable);
}

QFuture<ScheduleResult> NodeRestartScheduler::schedule(const RestartRequest& request)
{
    return runOnOwnThread<ScheduleResult>(
        this, [this, request](std::function<void(const ScheduleResult&)> deliver) { doSchedule(request, deliver); });
}

void NodeRestartScheduler::doSchedule(const RestartRequest& request, std::function<void(const ScheduleResult&)> deliver)
{
    ScheduleResult result;
    const int node = request.node;
    auto refuse = [&](const QString& why) {
        result.error = why;
        deliver(result);
    };
    if (m_options.readOnly)
        return refuse(tr("read-only mode: node restart refused"));
    if (node < 0 || node >= nodeCount())
        return refuse(tr("no node %1").arg(node + 1));
    if (isQuarantined(node))
        return refuse(tr("node %1 already has a restart pending").arg(node + 1));
    result.plan = plan(node, request.snapshot, request.nodesDown);
    const qint64 delay = request.delayMs < 0 ? result.plan.defaultDelayMs : request.delayMs;
    if (delay < result.plan.defaultDelayMs && !request.allowShorterDelay)
        return refuse(tr("a delay of %1 ms is shorter than the %2 ms the node must stay out (the largest lock TTL "
                         "plus drift): locks it voted for could still be live when it votes again")
                          .arg(delay)
                          .arg(result.plan.defaultDelayMs));
    if (result.plan.breaksQuorum && !request.overrideQuorum)
        return refuse(tr("refused: %1").arg(result.plan.quorumExplanation));
    if (request.method.kind == RestartMethod::Kind::ShutdownNoSave && !request.confirmShutdown)
        return refuse(tr("SHUTDOWN NOSAVE needs an explicit confirmation: the node loses its data and must be "
                         "brought back by something else"));
    if (request.method.kind == RestartMethod::Kind::Commands &&
        (request.method.stopProgram.isEmpty() || request.method.startProgram.isEmpty()))
        return refuse(tr("both a stop and a start program are needed"));

    PendingRestart r;
    r.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    r.node = node;
    r.endpoint = m_options.nodes[node].displayName();
    r.identity = m_options.nodes[node].identity();
    r.method = request.method;
    if (r.method.kind == RestartMethod::Kind::LocalCluster && r.method.localIndex < 0)
        r.method.localIndex = node;
    r.delayMs = delay;
    r.reason = request.reason;
    r.state = State::Stopping;
    QString error;
    RestartBackend* backend = makeBackend(r, &error);
    if (!backend)
        return refuse(error);

    // Until the stop is confirmed, the delay is counted from now, provisionally.
    rebase(r);
    r.stopConfirmed = false;
    Entry& entry = m_entries[r.id];
    entry.restart = r;
    entry.backend = backend;
    entry.probe = makeProbe(node);

    const QString id = r.id;
    const QJsonObject scheduled{{QStringLiteral("overrideQuorum"), request.overrideQuorum && result.plan.breaksQuorum},
                                {QStringLiteral("shorterDelay"), delay < result.plan.defaultDelayMs},
                                {QStringLiteral("defaultDelayMs"), result.plan.defaultDelayMs},
                                {QStringLiteral("locksBelowQuorum"), static_cast<int>(result.plan.affected.size())}};
    readRunId(entry.probe, [this, id, result, deliver, scheduled](const QByteArray& runId, bool) mutable {
        Entry* e = find(id);
        if (!e) {
            result.error = tr("abandoned before the stop step");
            deliver(result);
            return;
        }
        e->restart.runIdBefore = runId;
        // Intent before action: the state file (what keeps the node out after a console restart, with the run_id
        // that tells whether the stop ever took effect) and the audit line are on disk before the node is touched.
        QString why;
        const bool saved = save(&why);
        if (!saved || !audit(QStringLiteral("node-restart-scheduled"), e->restart, scheduled, &why)) {
            const int refusedNode = e->restart.node;
            e->backend->deleteLater();
            e->probe->deleteLater();
            m_entries.erase(id);
            if (saved)
                save(); // takes the entry out again (a failure is reported; a resume would drop it: not stopped)
            result.error = saved ? tr("the audit log could not be written, so node %1 was not stopped: %2")
                                       .arg(refusedNode + 1)
                                       .arg(why)
                                 : tr("the pending restarts could not be saved, so node %1 was not stopped (a "
                                      "console restart would forget that it is kept down): %2")
                                       .arg(refusedNode + 1)
                                       .arg(why);
            deliver(result);
            return;
        }
        emit restartChanged(e->restart);
        e->backend->stop([this, id, result, deliver](const RestartBackend::StepResult& step) mutable {
            onStopped(id, step);
            Entry* done = find(id);
            result.restart = done ? done->restart : PendingRestart{};
            result.accepted = step.ok;
            if (!step.ok)
                result.error = step.error;
            deliver(result);
            if (done && done->restart.state == State::Failed)
                finish(id, State::Failed, step.error);
        });
    });
}

RestartBackend* NodeRestartScheduler::makeBackend(const PendingRestart& r, QString* error)
{
    switch (r.method.kind) {
    case RestartMethod::Kind::LocalCluster:
        if (RestartBackend* backend =
                m_options.localClusterBackend ? m_options.localClusterBackend(r.method.localIndex, this) : nullptr)
            return backend;
        *error = tr("node %1 is not a node of the local cluster").arg(r.node + 1);
        return nullptr;
    case RestartMethod::Kind::Commands:
        return new CommandRestartBackend(r.method, this);
    case RestartMethod::Kind::ShutdownNoSave:
        return new ShutdownRestartBackend(m_options.nodes[r.node], m_options.connection, m_options.probeTimeoutMs,
                                          this);
    }
    *error = tr("unknown restart method");
    return nullptr;
}

RedisConnection* NodeRestartScheduler::makeProbe(int node)
{
    ConnectionOptions o = m_options.connection;
    o.connectTimeoutMs = m_options.probeTimeoutMs;
    o.autoReconnect = true;
    o.backoffInitialMs = std::min(100, m_options.tickIntervalMs);
    o.backoffMaxMs = std::max(m_options.tickIntervalMs, 100);
    if (o.clientName.isEmpty())
        o.clientName = "redlock-console:restart-probe";
    return new RedisConnection(m_options.nodes[node], o, this);
}

void NodeRestartScheduler::readRunId(RedisConnection* probe, std::function<void(const QByteArray&, bool answered)> done)
{
    probe->send(
        {"INFO", "server"},
        [done](const RedisReply& reply) {
            if (reply.isString()) {
                done(runIdFromInfo(reply.bytes()), true);
                return;
            }
            // NOPERM on INFO still proves the node answers; so does a handshake refused with -LOADING (the
            // node is up and loading its data): only its run_id cannot be read.
            done({}, reply.type() == RedisReply::Type::Error || reply.errorKind() == RedisErrorKind::Loading);
        },
        m_options.probeTimeoutMs);
}

void NodeRestartScheduler::onStopped(const QString& id, const RestartBackend::StepResult& step)
{
    Entry* e = find(id);
    if (!e)
        return;
    PendingRestart& r = e->restart;
    r.output = step.output;
    audit(QStringLiteral("node-stop"), r,
          {{QStringLiteral("ok"), step.ok},
           {QStringLiteral("error"), step.error},
           {QStringLiteral("output"), step.output}});
    if (!step.ok) {
        r.state = State::Failed;
        r.error = step.error;
        return; // finish() follows in the caller, after the schedule result is delivered
    }
    // The delay counts from the moment the node is known down; a stop command's exit is not proof of that,
    // so the probe confirms it (at once, then every tick).
    rebase(r);
    r.stopConfirmed = e->backend && e->backend->confirmsStop();
    r.state = State::Quarantined;
    save();
    emit restartChanged(r);
    emit countdown(r.node, r.remainingMs(steadyNowMs()));
    if (!m_tick.isActive())
        m_tick.start();
    if (!r.stopConfirmed)
        probeEarly(*e);
}

void NodeRestartScheduler::rebase(PendingRestart& r)
{
    r.stoppedAtMs = nowMs();
    r.dueAtMs = r.stoppedAtMs + r.delayMs;
    r.dueAtSteadyMs = steadyNowMs() + r.delayMs;
}

void NodeRestartScheduler::tick()
{
    std::vector<QString> ids;
    for (const auto& [id, entry] : m_entries)
        ids.push_back(id);
    for (const QString& id : ids) {
        Entry* e = find(id);
        if (!e || e->restart.state != State::Quarantined || e->restart.held)
            continue; // a held node waits for the operator: no countdown, no start
        PendingRestart& r = e->restart;
        const qint64 remaining = r.remainingMs(steadyNowMs());
        // The countdown runs on the monotonic clock; when the wall clock steps, the wall-clock due time (shown,
        // and used should the console restart) moves with it.
        const qint64 wallDue = nowMs() + remaining;
        if (remaining > 0 && std::abs(wallDue - r.dueAtMs) > 1000) {
            r.stoppedAtMs += wallDue - r.dueAtMs;
            r.dueAtMs = wallDue;
            save();
            emit restartChanged(r);
        }
        if (remaining > 0 || !r.stopConfirmed) {
            emit countdown(r.node, std::max<qint64>(remaining, 1));
            probeEarly(*e);
        } else if (r.startFailures > 0 && steadyNowMs() < r.retryAtSteadyMs) {
            emit countdown(r.node, 0);
            probeBack(*e, false);
        } else if (r.startFailures > 0) {
            // A retry (or the first attempt after the console came back): the node may have been started by
            // someone else meanwhile, and a second start would fail on it (port taken) and count as a failure.
            emit countdown(r.node, 0);
            probeBack(*e, true);
        } else {
            emit countdown(r.node, 0);
            startDue(*e);
        }
    }
    bool anyQuarantined = false;
    for (const auto& [id, entry] : m_entries)
        anyQuarantined = anyQuarantined || (entry.restart.state == State::Quarantined && !entry.restart.held);
    if (!anyQuarantined)
        m_tick.stop();
}

void NodeRestartScheduler::probeEarly(Entry& entry)
{
    // Once a new instance has been flagged there is nothing more to learn; while the stop is unconfirmed, every
    // tick looks again.
    if (entry.probing || (entry.restart.returnedEarly && entry.restart.stopConfirmed))
        return;
    entry.probing = true;
    const QString id = entry.restart.id;
    readRunId(entry.probe, [this, id](const QByteArray& runId, bool answered) {
        Entry* e = find(id);
        if (!e)
            return;
        e->probing = false;
        PendingRestart& r = e->restart;
        if (r.state != State::Quarantined)
            return;
        if (std::exchange(e->resumedStopping, false) && answered && !runId.isEmpty() && runId == r.runIdBefore) {
            // Saved just before its stop step, and the instance seen then still answers: the stop never took
            // effect (the console went away first). Not stopped now: the operator decided on it against a quorum
            // check made then, and nobody confirms it now; the node kept its data, so counting it is right.
            const QString message =
                tr("the restart of node %1 %2 was saved just before its stop step, and the node still answers as "
                   "the same instance (run_id %3): the console went away before stopping it. The restart is "
                   "dropped and the node counts again; schedule it again if it is still needed")
                    .arg(r.node + 1)
                    .arg(r.endpoint, QString::fromLatin1(runId));
            audit(QStringLiteral("node-restart-dropped"), r,
                  {{QStringLiteral("runId"), QString::fromLatin1(runId)}, {QStringLiteral("why"), message}});
            emit operatorAlert(r.node, message);
            finish(id, State::Failed, message);
            return;
        }
        // The old instance: its run_id, or, before the stop is confirmed, any answer without a readable run_id
        // (it cannot be told apart).
        const bool oldInstance = answered && (r.stopConfirmed ? !runId.isEmpty() && runId == r.runIdBefore
                                                              : runId.isEmpty() || runId == r.runIdBefore);
        if (oldInstance) {
            // It has not gone down: the delay counts from the last time it was seen.
            r.stopConfirmed = false;
            rebase(r);
            const bool first = !r.returnedEarly;
            if (first) {
                r.returnedEarly = true;
                r.earlyDetail = runId.isEmpty()
                                    ? tr("node %1 still answers and its run_id cannot be read: the delay counts "
                                         "from when it stops answering")
                                          .arg(r.node + 1)
                                    : tr("node %1 still answers as the same instance (run_id %2): it has not gone "
                                         "down, and the delay counts from when it stops answering")
                                          .arg(r.node + 1)
                                          .arg(QString::fromLatin1(runId));
                audit(QStringLiteral("node-still-up"), r, {{QStringLiteral("runId"), QString::fromLatin1(runId)}});
                save();
                emit restartChanged(r);
                emit nodeReturnedEarly(r.node, r.remainingMs(steadyNowMs()), r.earlyDetail);
            }
            // Later sightings only move the countdown (a resumed unconfirmed entry is re-based anyway).
            emit countdown(r.node, r.remainingMs(steadyNowMs()));
            return;
        }
        if (!r.stopConfirmed) {
            // The old instance is gone: the delay counts from now, the first moment that is known.
            r.stopConfirmed = true;
            r.returnedEarly = false;
            r.earlyDetail.clear();
            rebase(r);
            save();
            audit(QStringLiteral("node-stop-confirmed"), r,
                  {{QStringLiteral("stoppedAt"),
                    QDateTime::fromMSecsSinceEpoch(r.stoppedAtMs, Qt::UTC).toString(Qt::ISODateWithMs)}});
            emit restartChanged(r);
            emit countdown(r.node, r.remainingMs(steadyNowMs()));
        }
        const qint64 remaining = r.remainingMs(steadyNowMs());
        if (!answered || remaining <= 0 || r.returnedEarly)
            return;
        // A new instance answers. Nothing here can keep it out: clients count it as soon as it answers.
        r.returnedEarly = true;
        r.earlyDetail =
            tr("node %1 answers again %2 ms before the delay has passed%3: clients count it again and it may vote "
               "for locks it lost. The console cannot keep it out; it only flags it")
                .arg(r.node + 1)
                .arg(remaining)
                .arg(runId.isEmpty() ? QString() : tr(" (new run_id %1)").arg(QString::fromLatin1(runId)));
        save();
        audit(QStringLiteral("node-returned-early"), r,
              {{QStringLiteral("remainingMs"), remaining}, {QStringLiteral("runId"), QString::fromLatin1(runId)}});
        emit restartChanged(r);
        emit nodeReturnedEarly(r.node, remaining, r.earlyDetail);
    });
}

void NodeRestartScheduler::startDue(Entry& entry)
{
    PendingRestart& r = entry.restart;
    if (m_options.readOnly) {
        finish(r.id, State::Failed,
               tr("read-only mode: node %1 is due but was not started; start it yourself or leave read-only mode")
                   .arg(r.node + 1));
        return;
    }
    if (!entry.backend) {
        QString error;
        entry.backend = makeBackend(r, &error);
        if (!entry.backend) {
            finish(r.id, State::Failed, error);
            return;
        }
    }
    // Intent before action: the node votes again once started, so its start is on disk first. When the line
    // cannot be written the start is refused and counted as a failed start: the node stays out and the retry
    // (with backoff) tries again; the operator sees each refusal and, in the end, the give-up.
    QString why;
    if (!audit(QStringLiteral("node-start-intent"), r, {{QStringLiteral("attempt"), r.startFailures + 1}}, &why)) {
        onStartFailed(entry, tr("not started, because the audit log could not be written: %1").arg(why));
        return;
    }
    r.state = State::Starting;
    save();
    emit restartChanged(r);
    const QString id = r.id;
    entry.backend->start([this, id](const RestartBackend::StepResult& step) {
        Entry* e = find(id);
        if (!e)
            return;
        e->restart.output = step.output;
        audit(QStringLiteral("node-start"), e->restart,
              {{QStringLiteral("ok"), step.ok},
               {QStringLiteral("error"), step.error},
               {QStringLiteral("output"), step.output},
               {QStringLiteral("attempt"), e->restart.startFailures + 1},
               {QStringLiteral("startedAt"),
                QDateTime::fromMSecsSinceEpoch(nowMs(), Qt::UTC).toString(Qt::ISODateWithMs)}});
        if (step.ok)
            finish(id, State::Done);
        else
            onStartFailed(*e, step.error.isEmpty() ? tr("the start step failed") : step.error);
    });
}

void NodeRestartScheduler::onStartFailed(Entry& entry, const QString& error)
{
    PendingRestart& r = entry.restart;
    ++r.startFailures;
    const int attempts = std::max(1, m_options.startAttempts);
    if (r.startFailures >= attempts) {
        r.error = tr("node %1 could not be started (%n attempt(s)); last error: %2", nullptr, r.startFailures)
                      .arg(r.node + 1)
                      .arg(error);
        audit(QStringLiteral("node-start-given-up"), r, {{QStringLiteral("attempts"), r.startFailures}});
        emit startFailed(r, -1);
        finish(QString(r.id), State::Failed);
        return;
    }
    // Exponential backoff, bounded: initial, 2x, 4x, ... at most startRetryMaxMs. The node stays quarantined
    // meanwhile: it is down, and it must not be counted before it really is back.
    const qint64 initial = std::max(1, m_options.startRetryInitialMs);
    qint64 retryIn = initial;
    for (int i = 1; i < r.startFailures && retryIn < m_options.startRetryMaxMs; ++i)
        retryIn *= 2;
    retryIn = std::min<qint64>(retryIn, std::max<qint64>(initial, m_options.startRetryMaxMs));
    r.state = State::Quarantined;
    r.error = error;
    r.retryAtSteadyMs = steadyNowMs() + retryIn;
    save();
    emit restartChanged(r);
    emit startFailed(r, retryIn);
    if (!m_tick.isActive())
        m_tick.start();
}

void NodeRestartScheduler::probeBack(Entry& entry, bool startIfNotBack)
{
    if (entry.probing)
        return; // the next tick looks again
    entry.probing = true;
    const QString id = entry.restart.id;
    readRunId(entry.probe, [this, id, startIfNotBack](const QByteArray& runId, bool answered) {
        Entry* e = find(id);
        if (!e)
            return;
        e->probing = false;
        PendingRestart& r = e->restart;
        if (r.state != State::Quarantined || r.startFailures == 0)
            return;
        // The stop was confirmed (a start is only tried after that), so whatever answers now is a new instance,
        // with or without a readable run_id: one still loading its data (-LOADING), or refusing INFO (NOPERM).
        // A failed start step that timed out may have started it. Starting another would fail on the port it
        // holds and count towards giving up on a node that is up.
        const bool back = answered && (r.stopConfirmed || (!runId.isEmpty() && runId != r.runIdBefore));
        if (!back) {
            if (startIfNotBack)
                startDue(*e);
            return;
        }
        audit(QStringLiteral("node-back"), r, {{QStringLiteral("runId"), QString::fromLatin1(runId)}});
        r.error = runId.isEmpty()
                      ? tr("node %1 is back (a new instance answers; its run_id cannot be read yet, e.g. while it "
                           "loads its data) after %n failed start(s)",
                           nullptr, r.startFailures)
                            .arg(r.node + 1)
                      : tr("node %1 is back (new run_id %2), started by something else after %n failed start(s)",
                           nullptr, r.startFailures)
                            .arg(r.node + 1)
                            .arg(QString::fromLatin1(runId));
        finish(id, State::Done);
    });
}

void NodeRestartScheduler::finish(const QString& id, PendingRestart::State state, const QString& error)
{
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return;
    PendingRestart r = it->second.restart;
    r.state = state;
    if (!error.isEmpty())
        r.error = error;
    if (it->second.backend)
        it->second.backend->deleteLater();
    if (it->second.probe)
        it->second.probe->deleteLater();
    m_entries.erase(it);
    save();
    emit restartChanged(r);
    emit restartFinished(r);
}

bool NodeRestartScheduler::abandon(int node, QString* error)
{
    for (auto& [id, entry] : m_entries) {
        if (entry.restart.node == node && entry.restart.isActive()) {
            if (entry.restart.state != State::Quarantined) {
                if (error)
                    *error = tr("node %1 is being stopped or started right now").arg(node + 1);
                return false;
            }
            // Intent before action: once abandoned the node counts again, so that is on disk first.
            QString why;
            if (!audit(QStringLiteral("node-restart-abandoned"), entry.restart,
                       {{QStringLiteral("remainingMs"), entry.restart.remainingMs(steadyNowMs())},
                        {QStringLiteral("held"), entry.restart.held}},
                       &why)) {
                const QString message =
                    tr("the audit log could not be written, so the restart of node %1 is still tracked (the node "
                       "stays out of the count): %2")
                        .arg(node + 1)
                        .arg(why);
                if (error)
                    *error = message;
                emit operatorAlert(node, message);
                return false;
            }
            finish(QString(id), State::Abandoned);
            return true;
        }
    }
    if (error)
        *error = tr("node %1 has no pending restart").arg(node + 1);
    return false;
}

QList<PendingRestart> NodeRestartScheduler::pending() const
{
    QList<PendingRestart> out;
    for (const auto& [id, entry] : m_entries)
        out.append(entry.restart);
    std::sort(out.begin(), out.end(), [](const PendingRestart& a, const PendingRestart& b) { return a.node < b.node; });
    return out;
}

QList<int> NodeRestartScheduler::quarantinedNodes() const
{
    QList<int> out;
    for (const auto& [id, entry] : m_entries) {
        if (entry.restart.isActive())
            out.append(entry.restart.node);
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool NodeRestartScheduler::isQuarantined(int node) const
{
    return quarantinedNodes().contains(node);
}

NodeRestartScheduler::Entry* NodeRestartScheduler::find(const QString& id)
{
    if (m_shuttingDown)
        return nullptr;
    auto it = m_entries.find(id);
    return it == m_entries.end() ? nullptr : &it->second;
}

bool NodeRestartScheduler::save(QString* error)
{
    if (m_options.stateFile.isEmpty())
        return true;
    auto fail = [&](const QString& why) {
        if (error) {
            *error = why;
        } else if (why != m_lastSaveError) {
            // Once per failure until a save succeeds again: the node it keeps down could be forgotten by a
            // console restarted now.
            emit operatorAlert(-1, tr("the pending restarts could not be saved: %1. A console restarted now may "
                                      "not know which nodes it keeps down")
                                       .arg(why));
        }
        m_lastSaveError = why;
        return false;
    };
    if (!m_saveBlocked.isEmpty())
        return fail(m_saveBlocked);
    QJsonArray restarts;
    const QString boot = bootId();
    for (const auto& [id, entry] : m_entries) {
        const PendingRestart& r = entry.restart;
        if (!r.isActive())
            continue;
        restarts.append(
            QJsonObject{{QStringLiteral("id"), r.id},
                        {QStringLiteral("node"), r.node},
                        {QStringLiteral("endpoint"), r.endpoint},
                        {QStringLiteral("identity"), r.identity},
                        {QStringLiteral("method"), methodToJson(r.method)},
                        {QStringLiteral("state"), restartStateId(r.state)},
                        {QStringLiteral("delayMs"), r.delayMs},
                        {QStringLiteral("stoppedAtMs"), r.stoppedAtMs},
                        {QStringLiteral("dueAtMs"), r.dueAtMs},
                        {QStringLiteral("stopConfirmed"), r.stopConfirmed},
                        {QStringLiteral("steady"),
                         QJsonObject{{QStringLiteral("bootId"), boot}, {QStringLiteral("dueAtMs"), r.dueAtSteadyMs}}},
                        {QStringLiteral("runIdBefore"), QString::fromLatin1(r.runIdBefore)},
                        {QStringLiteral("returnedEarly"), r.returnedEarly},
                        {QStringLiteral("startFailures"), r.startFailures},
                        {QStringLiteral("held"), r.held},
                        {QStringLiteral("error"), r.error},
                        {QStringLiteral("reason"), r.reason}});
    }
    for (const QJsonValue& foreign : std::as_const(m_foreign))
        restarts.append(foreign);
    const QString dir = QFileInfo(m_options.stateFile).absolutePath();
    if (!QDir().mkpath(dir))
        return fail(tr("cannot create the folder %1").arg(dir));
    QSaveFile file(m_options.stateFile);
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("cannot write %1: %2").arg(m_options.stateFile, file.errorString()));
    const QByteArray bytes = QJsonDocument(QJsonObject{{QStringLiteral("version"), kStateFileVersion},
                                                       {QStringLiteral("restarts"), restarts}})
                                 .toJson(QJsonDocument::Indented);
    if (file.write(bytes) != bytes.size()) {
        const QString why = tr("cannot write %1: %2").arg(m_options.stateFile, file.errorString());
        file.cancelWriting();
        return fail(why);
    }
    // QSaveFile syncs the file before it replaces the old one; the rename reaches the disk with the folder.
    if (!file.commit())
        return fail(tr("cannot write %1: %2").arg(m_options.stateFile, file.errorString()));
    const int dirFd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const bool synced = dirFd >= 0 && ::fsync(dirFd) == 0;
    const int savedErrno = errno;
    if (dirFd >= 0)
        ::close(dirFd);
    if (!synced)
        return fail(
            tr("cannot sync the folder %1 to disk: %2").arg(dir, QString::fromLocal8Bit(std::strerror(savedErrno))));
    if (!m_lastSaveError.isEmpty() && !error)
        emit operatorAlert(-1, tr("the pending restarts are saved again in %1").arg(m_options.stateFile));
    m_lastSaveError.clear();
    return true;
}

PendingRestart NodeRestartScheduler::heldRestart(int node, const QString& why) const
{
    PendingRestart r;
    r.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    r.node = node;
    r.endpoint = m_options.nodes[node].displayName();
    r.identity = m_options.nodes[node].identity();
    r.state = State::Quarantined;
    r.held = true;
    r.error = why;
    r.stoppedAtMs = nowMs();
    r.dueAtMs = r.stoppedAtMs;
    r.dueAtSteadyMs = steadyNowMs();
    return r;
}

QString NodeRestartScheduler::recoverDamaged(const QByteArray& bytes, const QString& damage)
{
    const QString path = m_options.stateFile;
    // Whatever it holds is kept: renamed aside (never written over), for the operator to read.
    QString aside = path + QStringLiteral(".damaged");
    for (int n = 2; QFileInfo::exists(aside); ++n)
        aside = path + QStringLiteral(".damaged.%1").arg(n);
    const bool kept = QFile::rename(path, aside);
    if (!kept)
        m_saveBlocked = tr("%1 is damaged and could not be renamed to %2, so it is not written over and no restart "
                           "can be scheduled: move it away, then reconnect")
                            .arg(path, aside);
    // The nodes it names, by their identity as a JSON string ("host|port", or "host|port|db" as older files
    // wrote it): a truncated or unknown-version file still names them.
    QList<int> named;
    QStringList names;
    for (int i = 0; i < nodeCount(); ++i) {
        const QByteArray array =
            QJsonDocument(QJsonArray{m_options.nodes[i].identity()}).toJson(QJsonDocument::Compact);
        const QByteArray quoted = array.mid(1, array.size() - 2);
        const QByteArray withDb = quoted.left(quoted.size() - 1) + '|';
        if (!bytes.contains(quoted) && !bytes.contains(withDb))
            continue;
        named << i;
        names << QStringLiteral("#%1 %2").arg(i + 1).arg(m_options.nodes[i].displayName());
        bool tracked = false;
        for (const auto& [id, entry] : m_entries)
            tracked = tracked || entry.restart.node == i;
        if (tracked)
            continue;
        const PendingRestart r = heldRestart(
            i, tr("named in a damaged pending-restart file (%1): how and when it was stopped is not known, so the "
                  "console keeps it out and does not start it; check the node, then abandon its restart")
                   .arg(kept ? aside : path));
        Entry& entry = m_entries[r.id];
        entry.restart = r;
        audit(QStringLiteral("node-restart-held"), r,
              {{QStringLiteral("stateFile"), kept ? aside : path}, {QStringLiteral("damage"), damage}});
        emit restartChanged(r);
    }
    QString message = tr("The pending-restart file %1 is damaged: %2.").arg(path, damage);
    message += u' ';
    message += kept ? tr("It was kept as %1, and a new one is started.").arg(aside) : m_saveBlocked + u'.';
    message += u' ';
    message += named.isEmpty()
                   ? tr("It names no node of this profile.")
                   : tr("Node(s) named in it are kept out of the count and not started by the console: %1. Check "
                        "each one (start it if it is down), then abandon its restart.")
                         .arg(names.join(QStringLiteral(", ")));
    return message;
}

int NodeRestartScheduler::loadPending(QString* error)
{
    m_foreign = {};
    if (m_options.stateFile.isEmpty())
        return 0;
    QFile file(m_options.stateFile);
    if (!file.exists())
        return 0;
    if (!file.open(QIODevice::ReadOnly)) {
        // What it holds is not known: nothing is written over it.
        m_saveBlocked = tr("%1 cannot be read (%2), so it is not written over and no restart can be scheduled: "
                           "fix its permissions, then reconnect")
                            .arg(m_options.stateFile, file.errorString());
        if (error)
            *error = m_saveBlocked;
        return 0;
    }
    const QByteArray bytes = file.readAll();
    file.close();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    const int version = doc.object().value(QStringLiteral("version")).toInt(0);
    QString damage;
    if (!doc.isObject())
        damage = tr("it is not a JSON object (%1)").arg(parseError.errorString());
    else if (version != 1 && version != kStateFileVersion)
        damage = tr("its version (%1) is not one this console reads (1 or %2)")
                     .arg(doc.object().value(QStringLiteral("version")).toVariant().toString())
                     .arg(kStateFileVersion);
    else if (!doc.object().value(QStringLiteral("restarts")).isArray())
        damage = tr("it has no list of restarts");
    QStringList problems;
    QStringList unreadable;
    int resumed = 0;
    const QString boot = bootId();
    const QJsonArray saved = damage.isEmpty() ? doc.object().value(QStringLiteral("restarts")).toArray() : QJsonArray{};
    for (const QJsonValue& v : saved) {
        const QJsonObject o = v.toObject();
        PendingRestart r;
        r.id = o.value(QStringLiteral("id")).toString();
        r.identity = o.value(QStringLiteral("identity")).toString();
        // Files from before one server was one vote name TCP nodes "host|port|db": the server is "host|port".
        static const QRegularExpression withDb(QStringLiteral("^([^|]+\\|\\d+)\\|\\d+$"));
        if (const QRegularExpressionMatch m = withDb.match(r.identity); m.hasMatch())
            r.identity = m.captured(1);
        r.endpoint = o.value(QStringLiteral("endpoint")).toString();
        r.node = -1;
        for (int i = 0; i < nodeCount(); ++i) {
            if (m_options.nodes[i].identity() == r.identity)
                r.node = i;
        }
        if (r.node < 0 && v.isObject() && !r.identity.isEmpty()) {
            // Another profile's node (the file is shared): its console resumes it; it is written back as it is.
            m_foreign.append(o);
            problems << tr("a pending restart of %1 stays in %2 for the profile it belongs to: not a node of this "
                           "profile")
                            .arg(r.endpoint.isEmpty() ? r.identity : r.endpoint, m_options.stateFile);
            continue;
        }
        const auto method = methodFromJson(o.value(QStringLiteral("method")).toObject());
        const QString savedState = o.value(QStringLiteral("state")).toString();
        const bool knownState = savedState == restartStateId(State::Stopping) ||
                                savedState == restartStateId(State::Quarantined) ||
                                savedState == restartStateId(State::Starting);
        if (r.node < 0 || !method || r.id.isEmpty() || m_entries.count(r.id) || !knownState) {
            unreadable << (r.endpoint.isEmpty() ? tr("entry %1").arg(unreadable.size() + 1) : r.endpoint);
            continue;
        }
        r.method = *method;
        r.delayMs = o.value(QStringLiteral("delayMs")).toInteger();
        r.stoppedAtMs = o.value(QStringLiteral("stoppedAtMs")).toInteger();
        r.dueAtMs = o.value(QStringLiteral("dueAtMs")).toInteger();
        r.runIdBefore = o.value(QStringLiteral("runIdBefore")).toString().toLatin1();
        r.returnedEarly = o.value(QStringLiteral("returnedEarly")).toBool();
        r.reason = o.value(QStringLiteral("reason")).toString();
        // Failed starts so far (the backoff goes on from there; the next attempt runs at the next tick).
        r.startFailures = std::max(0, o.value(QStringLiteral("startFailures")).toInt());
        r.error = o.value(QStringLiteral("error")).toString();
        r.retryAtSteadyMs = 0;
        r.held = o.value(QStringLiteral("held")).toBool();
        if (r.held) {
            // Still waiting for the operator: said again at every start of the console.
            r.state = State::Quarantined;
            problems << tr("node %1 %2 is still kept out: %3").arg(r.node + 1).arg(r.endpoint, r.error);
            Entry& entry = m_entries[r.id];
            entry.restart = r;
            ++resumed;
            emit restartChanged(r);
            continue;
        }
        // Version 1 files had no stopConfirmed: a quarantined entry had its stop confirmed.
        r.stopConfirmed =
            savedState != restartStateId(State::Stopping) && o.value(QStringLiteral("stopConfirmed")).toBool(true);
        if (r.stopConfirmed) {
            // Resume on the later of the wall-clock due time and, within the same boot, the monotonic one: a
            // wall-clock step while the console was away cannot shorten the delay.
            qint64 remaining = r.dueAtMs - nowMs();
            const QJsonObject steady = o.value(QStringLiteral("steady")).toObject();
            if (!boot.isEmpty() && steady.value(QStringLiteral("bootId")).toString() == boot)
                remaining = std::max(remaining, steady.value(QStringLiteral("dueAtMs")).toInteger() - steadyNowMs());
            remaining = std::max<qint64>(0, remaining);
            r.dueAtSteadyMs = steadyNowMs() + remaining;
            if (nowMs() + remaining - r.dueAtMs > 1000) { // the wall clock stepped forward meanwhile
                r.stoppedAtMs += nowMs() + remaining - r.dueAtMs;
                r.dueAtMs = nowMs() + remaining;
            }
        } else {
            // The stop time was provisional (the console went away while the stop step ran): when the stop
            // really happened is not known, only that it was not before now. Count from now; the probe then
            // re-bases it while the old instance still answers.
            rebase(r);
            r.returnedEarly = false;
        }
        // Whatever step was running when the console went away, the node may be down: keep it out (a start
        // that was running is retried when due).
        r.state = State::Quarantined;
        Entry& entry = m_entries[r.id];
        entry.restart = r;
        entry.probe = makeProbe(r.node);
        entry.resumedStopping = savedState == restartStateId(State::Stopping);
        ++resumed;
        emit restartChanged(r);
    }
    if (!unreadable.isEmpty())
        damage = tr("%n of its entries cannot be read (%1)", nullptr, int(unreadable.size()))
                     .arg(unreadable.join(QStringLiteral(", ")));
    if (!damage.isEmpty()) {
        const qsizetype before = static_cast<qsizetype>(m_entries.size());
        problems.prepend(recoverDamaged(bytes, damage));
        resumed += static_cast<int>(static_cast<qsizetype>(m_entries.size()) - before);
    }
    if (error && !problems.isEmpty())
        *error = problems.join(u'\n');
    if (resumed > 0 && !m_tick.isActive())
        m_tick.start();
    save();
    for (auto& [id, entry] : m_entries) {
        if (entry.restart.state == State::Quarantined && !entry.restart.stopConfirmed && !entry.restart.held)
            probeEarly(entry);
    }
    return resumed;
}

bool NodeRestartScheduler::audit(const QString& action, const PendingRestart& r, const QJsonObject& extra,
                                 QString* error)
{
    QJsonObject details{
        {QStringLiteral("node"), r.node},
        {QStringLiteral("endpoint"), r.endpoint},
        {QStringLiteral("method"), restartMethodId(r.method.kind)},
        {QStringLiteral("restartId"), r.id},
        {QStringLiteral("delayMs"), r.delayMs},
        {QStringLiteral("dueAt"), QDateTime::fromMSecsSinceEpoch(r.dueAtMs, Qt::UTC).toString(Qt::ISODateWithMs)}};
    if (!r.reason.isEmpty())
        details.insert(QStringLiteral("reason"), r.reason);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        details.insert(it.key(), it.value());
    QString why;
    if (AuditLog(m_options.auditLogPath).append(action, m_options.profileName, {}, {}, details, &why))
        return true;
    if (error)
        *error = why;
    else
        emit operatorAlert(
            r.node,
            tr("node %1: the audit log could not be written (%2 not recorded): %3").arg(r.node + 1).arg(action, why));
    return false;
}

} // namespace redlock
