#include "operate/NodeRestartScheduler.h"

#include "runtime/OwnThreadFuture.h"

#include "operate/AuditLog.h"
#include "runtime/ClientName.h"

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

using State = PendingRestart::State;

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

RestartPlan NodeRestartScheduler::plan(int node, const RestartPlanner::LockSource& locks, const QList<int>& nodesDown,
                                       const QList<QByteArray>& runIds) const
{
    QList<int> unavailable = nodesDown;
    unavailable << quarantinedNodes();
    return RestartPlanner::plan(node, nodeCount(), locks, m_options.configuredMaxTtlMs, m_options.driftFactor,
                                unavailable, runIds);
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
    // Another name of a server being restarted is that server: stopping it again would restart what is kept down.
    if (const int pending = rules::sameServerAs(request.runIds, node, quarantinedNodes()); pending >= 0)
        return refuse(tr("node %1 is the same Redis server as node %2 (same run_id), which already has a restart "
                         "pending")
                          .arg(node + 1)
                          .arg(pending + 1));
    if (isQuarantined(node))
        return refuse(tr("node %1 already has a restart pending").arg(node + 1));
    QList<int> unavailable = request.nodesDown;
    unavailable << quarantinedNodes(); // now, on this thread: the node counts are not taken from the request
    result.plan = RestartPlanner::plan(node, nodeCount(), request.locks, m_options.configuredMaxTtlMs,
                                       m_options.driftFactor, unavailable, request.runIds);
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
    r.sameServer = result.plan.sameServer;
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
                                {QStringLiteral("locksBelowQuorum"), result.plan.affectedCount}};
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
        o.clientName = applicationClientName("restart-probe");
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
        if (entry.restart.names().contains(node) && entry.restart.isActive()) {
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
            out.append(entry.restart.names()); // every name of the server: an alias would vote for it
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
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
