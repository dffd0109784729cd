#pragma once

#include "operate/RestartPlanner.h"
#include "protocol/NodeEndpoint.h"
#include "protocol/RedisConnection.h"
#include "redlock/RedlockRules.h"
#include "runtime/SteadyClock.h"
#include "runtime/WallClock.h"

#include <QByteArray>
#include <QFuture>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>

namespace redlock {

// How a node is taken down and brought back.
struct RestartMethod
{
    enum class Kind {
        LocalCluster,   // a node of this process' LocalCluster: stop the process, start it again (same port, dir)
        Commands,       // operator-configured programs, run without a shell (program + argument list)
        ShutdownNoSave, // SHUTDOWN NOSAVE only; something else (a supervisor) brings the node back, usually
                        // at once: nothing keeps it out, the delay is only watched
    };
    Kind kind = Kind::LocalCluster;
    int localIndex = -1; // LocalCluster: index in the cluster; -1 = the node's index
    QString stopProgram;
    QStringList stopArguments;
    QString startProgram;
    QStringList startArguments;
    int commandTimeoutMs = 60000;
};

QString restartMethodName(RestartMethod::Kind kind); // translated
QString restartMethodId(RestartMethod::Kind kind);   // "local-cluster" | "commands" | "shutdown-nosave"

struct RestartRequest
{
    int node = -1;
    qint64 delayMs = -1; // -1 = the plan's default delay
    RestartMethod method;
    // What the plan shown to the operator read of the locks (RestartPlanner::survey): the largest PTTL on the node,
    // which sets the default delay, and the locks that fall below quorum (for the audit log). A survey, not the locks,
    // so that a request at 1M locks is small and the locks are walked once, where they are kept.
    LockSurvey locks;
    QList<int> nodesDown;           // nodes the caller sees down right now (quarantined ones are added)
    QList<QByteArray> runIds;       // per node, its NodeFacts::runId (empty: unknown): names of one server
    bool overrideQuorum = false;    // the operator confirmed (typed) a restart that leaves fewer than a quorum
    bool allowShorterDelay = false; // the operator confirmed a delay under the default
    bool confirmShutdown = false;   // ShutdownNoSave: the operator confirmed SHUTDOWN NOSAVE
    QString reason;                 // free text for the audit log
};

// The delay is enforced (the console keeps the node down until it has passed) only by methods that start
// the node themselves; with SHUTDOWN NOSAVE it is only watched.
bool restartMethodEnforcesDelay(RestartMethod::Kind kind);

// One node out for a delayed restart. In the process the countdown runs on the scheduler's monotonic clock
// (dueAtSteadyMs), so a step of the wall clock neither shortens nor lengthens it. The wall-clock times
// (ms since the epoch) are for display and to resume after a restart of the console, when the later of
// the wall-clock and the monotonic due time (same boot only) is taken.
struct PendingRestart
{
    enum class State {
        Stopping,    // the stop step runs
        Quarantined, // stopped (or SHUTDOWN sent): not counted by the console and not started until due
        Starting,    // due: the start step runs
        Done,        // started again after the full delay
        Failed,      // stop or start failed (error, output)
        Abandoned,   // the operator stopped tracking it; the node was not started
    };
    QString id;
    int node = -1;
    QString endpoint; // display name
    QString identity; // NodeEndpoint::identity(), to match the node after a reload
    // The node's other names (same run_id, RestartPlan::sameServer when it was scheduled): the same server, kept out
    // with it for the whole delay. Saved by identity, matched again after a reload.
    QList<int> sameServer;
    RestartMethod method;
    State state = State::Stopping;
    qint64 delayMs = 0;
    qint64 stoppedAtMs = 0;   // wall clock: when the stop was confirmed (provisional until stopConfirmed)
    qint64 dueAtMs = 0;       // wall clock: stoppedAtMs + delayMs, moved when the wall clock steps
    qint64 dueAtSteadyMs = 0; // the scheduler's monotonic clock: what the countdown runs on
    // The delay counts from the moment the old instance is known gone: the stop step confirmed it (the process
    // exited, SHUTDOWN closed the connection), or, for stop commands and resumed entries, a probe no longer
    // found the old run_id answering. Until then the countdown is re-based on every probe that still finds it.
    bool stopConfirmed = false;
    QByteArray runIdBefore; // INFO run_id before the stop; empty if it could not be read
    bool returnedEarly = false;
    QString earlyDetail; // translated: what the probe saw
    QString error;       // translated
    QString output;      // captured output of the stop/start commands
    QString reason;
    // Start steps that failed at or after the due time (port taken, bad configuration, backend error). While
    // retries are left the node stays Quarantined and the next start is tried at retryAtSteadyMs (the
    // scheduler's monotonic clock; 0 = at the next tick); `error` holds the last failure.
    int startFailures = 0;
    qint64 retryAtSteadyMs = 0;
    // Recovered from a damaged or unknown-version state file that names this node: how it was stopped, since
    // when and how to start it are not known. The console keeps the node out of its count and never starts it;
    // only the operator ends this (abandon), after checking the node. `error` says so.
    bool held = false;

    // The node and its other names: what is kept out.
    QList<int> names() const { return QList<int>{node} + sameServer; }

    bool isActive() const
    {
        return state == State::Stopping || state == State::Quarantined || state == State::Starting;
    }
    // steadyNowMs: the scheduler's monotonic clock (SteadyClock::nowNs() / 1e6).
    qint64 remainingMs(qint64 steadyNowMs) const { return std::max<qint64>(0, dueAtSteadyMs - steadyNowMs); }
};

QString restartStateName(PendingRestart::State state); // translated
QString restartStateId(PendingRestart::State state);   // stable

struct ScheduleResult
{
    bool accepted = false; // false: refused (error says why) or the stop step failed (restart.error)
    QString error;
    RestartPlan plan;
    PendingRestart restart;
};

// One way of stopping and starting a node. Lives on the scheduler's thread; every step calls done once.
class RestartBackend : public QObject
{
    Q_OBJECT

public:
    struct StepResult
    {
        bool ok = false;
        QString error;  // translated
        QString output; // captured process output, if any
    };
    using Done = std::function<void(const StepResult&)>;

    using QObject::QObject;
    virtual void stop(Done done) = 0;
    virtual void start(Done done) = 0;
    // False: start() does nothing and the node is expected to come back by itself (after the delay).
    virtual bool startsNode() const = 0;
    // True: a successful stop() proves the old instance is gone (the process exited, the server closed the
    // connection). False: the stop step only ran (a stop command can return before the node is down), so
    // the scheduler waits for its probe to stop finding the old instance.
    virtual bool confirmsStop() const = 0;
};

// Runs the operator's programs with QProcess::start(program, arguments): no shell, so nothing in the
// profile is ever interpreted. Output (stdout + stderr) is captured; a non-zero exit, a crash, a failure to
// start or a timeout is a failed step.
class CommandRestartBackend final : public RestartBackend
{
    Q_OBJECT

public:
    explicit CommandRestartBackend(RestartMethod method, QObject* parent = nullptr);
    void stop(Done done) override;
    void start(Done done) override;
    bool startsNode() const override { return true; }
    bool confirmsStop() const override { return false; } // e.g. systemctl stop --no-block returns at once

    static void runProgram(QObject* context, const QString& program, const QStringList& arguments, int timeoutMs,
                           Done done);

private:
    RestartMethod m_method;
};

// SHUTDOWN NOSAVE over a connection of its own; success is the node closing the connection.
class ShutdownRestartBackend final : public RestartBackend
{
    Q_OBJECT

public:
    ShutdownRestartBackend(const NodeEndpoint& endpoint, const ConnectionOptions& connection, int timeoutMs,
                           QObject* parent = nullptr);
    void stop(Done done) override;
    void start(Done done) override;
    bool startsNode() const override { return false; }
    bool confirmsStop() const override { return true; }

private:
    NodeEndpoint m_endpoint;
    ConnectionOptions m_connection;
    int m_timeoutMs;
};

struct RestartSchedulerOptions
{
    QList<NodeEndpoint> nodes;
    qint64 configuredMaxTtlMs = 30000; // the largest TTL any client of these nodes uses
    double driftFactor = 0.01;
    QString stateFile;     // pending restarts (JSON); empty = not persisted
    bool readOnly = false; // schedule() refused; persisted restarts are not started when due
    QString profileName;
    QString auditLogPath; // empty = AuditLog::defaultPath()
    // RestartMethod::LocalCluster: the backend for a node of this process' cluster, or null when localIndex is not
    // one (LocalClusterRestartBackend::factory in localcluster/ makes it; the cluster must live on the scheduler's
    // thread). Empty: that method is refused. operate/ does not know about redis-server processes.
    std::function<RestartBackend*(int localIndex, QObject* parent)> localClusterBackend;
    std::shared_ptr<WallClock> clock;         // null = WallClock::system(); display, state file, resume
    std::shared_ptr<SteadyClock> steadyClock; // null = SteadyClock::system(); the countdown
    int tickIntervalMs = 1000;                // countdown signals, due check and early-return probe
    int probeTimeoutMs = 1000;
    // A start step that fails when due is retried with exponential backoff: after startRetryInitialMs, then
    // twice as long each time, at most startRetryMaxMs apart, for startAttempts attempts in all; then the
    // restart is given up (Failed). With the defaults: 6 attempts over about 2.5 minutes (5, 10, 20, 40, 80 s).
    int startRetryInitialMs = 5000;
    int startRetryMaxMs = 120000;
    int startAttempts = 6;
    ConnectionOptions connection;
};

// Delayed node restarts: plans them (default delay, impact, quorum check), takes the node down through a
// backend, does not count it and does not start it until the full delay has passed on a monotonic clock,
// counted from the confirmed stop, then starts it again (backends that can), and warns when a node answers
// before its due time (run_id probe every tick). What is enforced: the console itself never starts the node
// early. What is only watched: anything else starting it (a supervisor after SHUTDOWN NOSAVE, an operator);
// clients then count it again, and the scheduler can only flag it. Pending restarts are saved to stateFile
// on every change and resumed by loadPending().
//
// Lives on one thread with an event loop; a local cluster (if any) must live there too. schedule() may be
// called from any thread; the other members on the scheduler's thread (or through queued signals).
class NodeRestartScheduler final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodeRestartScheduler)

public:
    explicit NodeRestartScheduler(RestartSchedulerOptions options, QObject* parent = nullptr);
    ~NodeRestartScheduler() override; // never starts or stops a node; pending restarts stay in the file

    const RestartSchedulerOptions& options() const { return m_options; }
    int nodeCount() const { return static_cast<int>(m_options.nodes.size()); }
    int quorum() const { return rules::quorum(nodeCount()); }

    // The plan for restarting `node` now, counting the quarantined nodes as unavailable. runIds: per node, its
    // run_id (RestartRequest::runIds). Pure, no I/O.
    RestartPlan plan(int node, const RestartPlanner::LockSource& locks, const QList<int>& nodesDown,
                     const QList<QByteArray>& runIds) const;

    // Checks the request (read-only, quorum, delay, confirmations), then runs the stop step. The future
    // completes after the stop step; the countdown and the start follow through the signals.
    QFuture<ScheduleResult> schedule(const RestartRequest& request);

    // Reads stateFile and resumes the countdowns (a restart already due is started at the next tick).
    // Returns how many were resumed (held ones included); *error gets a message for everything the operator
    // must know:
    // - entries naming a node of another profile are kept in the file as they are (not resumed here);
    // - a file that is damaged (not JSON, an entry that cannot be read) or of an unknown version is kept aside
    //   (renamed to <file>.damaged, .damaged.2, ...), and every node of this profile it names is held (see
    //   PendingRestart::held): never counted or started until the operator abandons its restart. If it cannot
    //   be kept aside (or cannot be read at all), nothing is written over it: schedule() is refused until then;
    // - a restart saved while its stop step was about to run (state "stopping") whose node still answers as
    //   the instance seen before the stop (same run_id) is dropped, not stopped now: the operator decided on
    //   the stop against a quorum check that no longer holds, and the node never went down.
    int loadPending(QString* error = nullptr);

    QList<PendingRestart> pending() const; // active ones
    QList<int> quarantinedNodes() const;
    bool isQuarantined(int node) const;
    // Stops tracking the node's restart without starting it (the operator takes over). Refused (and
    // operatorAlert emitted) when its audit line cannot be written first.
    bool abandon(int node, QString* error = nullptr);

signals:
    void restartChanged(const redlock::PendingRestart& restart);
    // Every tick while quarantined.
    void countdown(int node, qint64 remainingMs);
    // The node answered before its due time (a new run_id, or the old instance never went down).
    void nodeReturnedEarly(int node, qint64 remainingMs, const QString& detail);
    // Done, Failed or Abandoned.
    void restartFinished(const redlock::PendingRestart& restart);
    // A start step failed (restart.error says why, restart.startFailures how often so far). retryInMs: when
    // the next attempt runs; -1 = no attempt left: the restart is given up (restartFinished(Failed) follows).
    void startFailed(const redlock::PendingRestart& restart, qint64 retryInMs);
    // A failure the operator must know, outside the reply to a call: an audit line or the state file that could
    // not be written after a step already ran, a start or an abandon refused because its audit line could not
    // be written, a restart dropped on resume. node -1: not about one node. The state file's failures are
    // reported once until a save succeeds again.
    void operatorAlert(int node, const QString& message);

private:
    struct Entry
    {
        PendingRestart restart;
        RestartBackend* backend = nullptr; // owned (child)
        RedisConnection* probe = nullptr;  // owned (child)
        bool probing = false;
        // Resumed from the state "stopping": the first probe tells whether the stop step ever took effect.
        bool resumedStopping = false;
    };

    void doSchedule(const RestartRequest& request, std::function<void(const ScheduleResult&)> deliver);
    RestartBackend* makeBackend(const PendingRestart& restart, QString* error);
    RedisConnection* makeProbe(int node);
    void readRunId(RedisConnection* probe, std::function<void(const QByteArray& runId, bool answered)> done);
    void onStopped(const QString& id, const RestartBackend::StepResult& step);
    // Counts the delay from now (the stop confirmed now, or the old instance still seen).
    void rebase(PendingRestart& r);
    void tick();
    void startDue(Entry& entry);
    void onStartFailed(Entry& entry, const QString& error);
    // After a failed start, while it waits for its retry and before each retry: a new instance answering means
    // the node is back (someone else started it), and the restart is done. startIfNotBack: a retry is due, and
    // runs when the node is not back.
    void probeBack(Entry& entry, bool startIfNotBack);
    void probeEarly(Entry& entry);
    void finish(const QString& id, PendingRestart::State state, const QString& error = {});
    // Intent before action: a destructive step runs only once save() and audit() with an error pointer have
    // returned true (the file and the line are on disk, fsynced). Without an error pointer a failure is reported
    // through operatorAlert (the step has run already; the operator must know what was not recorded).
    bool save(QString* error = nullptr);
    bool audit(const QString& action, const PendingRestart& restart, const QJsonObject& extra = {},
               QString* error = nullptr);
    // loadPending: a damaged file is renamed aside; the nodes it names are held. Returns the message.
    QString recoverDamaged(const QByteArray& bytes, const QString& damage);
    PendingRestart heldRestart(int node, const QString& why) const;
    Entry* find(const QString& id);
    qint64 nowMs() const { return m_clock->nowMs(); }
    qint64 steadyNowMs() const { return m_steady->nowNs() / 1'000'000; }

    RestartSchedulerOptions m_options;
    std::shared_ptr<WallClock> m_clock;
    std::shared_ptr<SteadyClock> m_steady;
    std::map<QString, Entry> m_entries; // by id
    QJsonArray m_foreign;               // saved entries of nodes not in this profile: written back as they were
    QString m_saveBlocked;              // why the state file must not be written over (empty: it may)
    QString m_lastSaveError;            // the state file's last failure, reported once
    bool m_shuttingDown = false;        // callbacks from children deleted in the destructor find nothing
    QTimer m_tick;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::PendingRestart)
Q_DECLARE_METATYPE(redlock::ScheduleResult)
