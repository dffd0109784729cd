// Benchmark (prints figures; not a timed test): the console over 10,000 and 100,000 locks (or a count given) on 5
// local nodes.
// Measures, on the GUI thread of a real (offscreen) main window: the time from start to the first full
// locks table, the longest event-loop stall (a 5 ms heartbeat: the largest gap beyond its interval) while
// the first table loads and during later refreshes with churn, and the process RSS.
#include "alerts/AlertsFeature.h"
#include "controller/ClusterController.h"
#include "history/HistoryFeature.h"
#include "localcluster/LocalCluster.h"
#include "models/LocksModel.h"
#include "observe/LockInspector.h"
#include "operate/OperatorFeature.h"
#include "operate/RestartPlanner.h"
#include "runtime/IoThread.h"
#include "runtime/MemoryTuning.h"
#include "support/ObservationTestSupport.h"
#include "support/StallMonitor.h"
#include "views/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <malloc.h>

using namespace redlock;

namespace {

// Which event took longest on the GUI thread (for finding the cause of a stall).
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        if (depth++ > 0) {
            const bool r = QApplication::notify(receiver, event);
            --depth;
            return r;
        }
        QElapsedTimer t;
        t.start();
        const int type = event->type();
        QByteArray cls = receiver->metaObject()->className();
        for (QObject* p = receiver->parent(); p; p = p->parent())
            cls += QByteArray(" < ") + p->metaObject()->className();
        const bool r = QApplication::notify(receiver, event);
        const qint64 ns = t.nsecsElapsed();
        if (ns > slowestNs) {
            slowestNs = ns;
            slowest = cls + " event " + QByteArray::number(type);
        }
        --depth;
        return r;
    }
    qint64 slowestNs = 0;
    QByteArray slowest;
    int depth = 0;
};

qint64 rssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

void fill(const LocalCluster& cluster, int count)
{
    for (const NodeEndpoint& ep : cluster.endpoints()) {
        runCommands(ep, {{"FLUSHALL"}});
        const int chunk = 20000;
        for (int from = 0; from < count; from += chunk) {
            QList<QList<QByteArray>> commands;
            for (int i = from; i < std::min(count, from + chunk); ++i)
                commands.append(
                    {"SET", "bench:lock:" + QByteArray::number(i), "token-" + QByteArray::number(i), "PX", "600000"});
            runCommands(ep, commands, 60000);
        }
    }
}

// Lives on its own thread: rewrites 1% of the keys every 200 ms.
class Churner : public QObject
{
public:
    Churner(const QList<NodeEndpoint>& endpoints, int count, int perMille) : m_count(count), m_perMille(perMille)
    {
        if (perMille <= 0)
            return; // no churn: only the rescans read the locks again
        for (const NodeEndpoint& ep : endpoints) {
            m_connections.append(new RedisConnection(ep, {}, this));
            m_connections.last()->open();
        }
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const int n = std::max(1, int(qint64(m_count) * m_perMille / 1000));
            for (RedisConnection* c : std::as_const(m_connections)) {
                QList<RedisConnection::Command> commands;
                for (int i = 0; i < n; ++i) {
                    const int key = (m_round * n + i) % m_count;
                    commands.append({{"SET", "bench:lock:" + QByteArray::number(key),
                                      "moved-" + QByteArray::number(m_round), "PX", "600000"},
                                     [](const RedisReply&) {}});
                }
                c->sendPipeline(std::move(commands), 10000);
            }
            ++m_round;
        });
        m_timer.start(200);
    }

private:
    QList<RedisConnection*> m_connections;
    QTimer m_timer;
    int m_count;
    int m_perMille;
    int m_round = 0;
};

// With the lock history on (the console's default), every event of the churn is journaled too: the GUI thread
// only hands the batches over, the journal's thread writes them.
bool g_journal = true;
int g_churnPerMille = 10; // of the locks, every 200 ms

void runOnce(LocalCluster& cluster, int count, int churnSeconds, int rescanBudget)
{
    fill(cluster, count);
    std::fprintf(stderr, "bench-console: %d locks written\n", count);
    if (auto* timing = dynamic_cast<TimingApplication*>(qApp))
        timing->slowestNs = 0;
    ClusterController controller;
    if (rescanBudget >= 0)
        controller.setRescanBudget(rescanBudget);
    MainWindow window(&controller);
    QTemporaryDir journalDir;
    std::optional<JournalOptions> journal;
    if (g_journal) {
        journal.emplace();
        journal->path = journalDir.filePath(QStringLiteral("history.sqlite"));
    }
    HistoryFeature history(&controller, &window, nullptr, journal);
    // The console's other features, as ConsoleLauncher makes them: the alert monitor follows every lock on the GUI
    // thread (its thresholds from a settings file of its own, the defaults).
    OperatorFeature operate(&controller, &window);
    QSettings alertSettings(journalDir.filePath(QStringLiteral("console.ini")), QSettings::IniFormat);
    AlertsFeature alerts(&controller, &window, &alertSettings);
    window.resize(1400, 900);
    window.show();
    StallMonitor stalls(5);
    stalls.start();

    ClusterSettings settings;
    settings.nodes = cluster.endpoints();
    settings.pattern = "bench:*";
    settings.refreshIntervalMs = 2000;
    const qint64 rssBeforeKb = rssKb(); // the application and its window, before the first lock
    QElapsedTimer sinceStart;
    sinceStart.start();
    controller.start(settings);

    QEventLoop loop;
    qint64 firstTableMs = -1;
    qint64 firstPassMs = -1;  // when the first inspection's summary reached the GUI thread
    qint64 firstSliceMs = -1; // when the first slice of rows was applied
    qint64 firstPassInInspectorMs = -1;
    QObject::connect(&controller, &ClusterController::inspectionFinished, &loop, [&](const InspectionSummary& s) {
        if (firstPassMs < 0) {
            firstPassMs = sinceStart.elapsed();
            firstPassInInspectorMs = s.elapsedUs / 1000;
        }
    });
    qint64 loadStallUs = 0;
    qint64 loadStallCpuUs = 0;
    QObject::connect(window.locksModel(), &LocksModel::locksApplied, &loop, [&] {
        if (firstSliceMs < 0 && window.locksModel()->rowCount() > 0)
            firstSliceMs = sinceStart.elapsed();
        if (firstTableMs < 0 && window.locksModel()->rowCount() >= count) {
            firstTableMs = sinceStart.elapsed();
            QTimer::singleShot(100, &loop, [&] {
                loadStallUs = stalls.longestStallUs();
                loadStallCpuUs = stalls.longestStallCpuUs();
                stalls.reset();
                loop.quit();
            });
        }
    });
    // 60 s, and a minute more for every further 250,000 locks (a million: about 4 minutes).
    const int waitS = 60 + 60 * std::max(0, count - 100000) / 250000;
    QTimer::singleShot(waitS * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    if (firstTableMs < 0) {
        std::printf("%7d locks: the first full table did not arrive within %d s\n", count, waitS);
        return;
    }

    // What opening the Restart dialog costs the GUI thread: the planner's walk over the table's packed rows, as
    // OperatorFeature::openRestart() hands them to it (all nodes up; and with two other nodes down, when every lock
    // falls below quorum and the plan keeps the first kAffectedListed by key). Thread CPU time: the walk's own work.
    {
        const LocksModel* locksModel = window.locksModel();
        const auto locks = [locksModel](const RestartPlanner::LockVisitor& visit) {
            for (int row = 0; row < locksModel->rowCount(); ++row)
                visit(locksModel->keyAt(row), locksModel->packedAt(row));
        };
        const auto threadCpuUs = [] {
            timespec ts{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
        };
        const int nodes = int(cluster.endpoints().size());
        for (const QList<int>& down : {QList<int>{}, QList<int>{1, 2}}) {
            qint64 bestUs = -1;
            qint64 worstUs = 0;
            int affected = 0;
            for (int round = 0; round < 3; ++round) {
                const qint64 before = threadCpuUs();
                const RestartPlan plan = RestartPlanner::plan(0, nodes, locks, 30000, 0.01, down, {});
                const qint64 spent = threadCpuUs() - before;
                bestUs = bestUs < 0 ? spent : std::min(bestUs, spent);
                worstUs = std::max(worstUs, spent);
                affected = plan.affectedCount;
            }
            std::printf("         restart planner, whole walk over %d rows (%lld other nodes down, %d locks affected): "
                        "%lld-%lld ms of GUI CPU (3 rounds)\n",
                        locksModel->rowCount(), qint64(down.size()), affected, bestUs / 1000, worstUs / 1000);
            // As the dialog walks them: a slice per event, each after the last key walked (nothing taken up front).
            qint64 takeUs = threadCpuUs();
            SurveyWalk walk(
                [locksModel](const QByteArray* after, qsizetype most, const RestartPlanner::LockVisitor& visit) {
                    return locksModel->visitRowsAfter(after, most, visit);
                },
                locksModel->rowCount(), 0, nodes, down, {});
            takeUs = threadCpuUs() - takeUs;
            qint64 longestSliceUs = 0;
            int slices = 0;
            for (bool done = false; !done; ++slices) {
                const qint64 before = threadCpuUs();
                done = walk.step(20000);
                longestSliceUs = std::max(longestSliceUs, threadCpuUs() - before);
            }
            qint64 resultUs = threadCpuUs();
            const int slicedAffected = walk.result().affectedCount;
            resultUs = threadCpuUs() - resultUs;
            std::printf("           sliced as the Restart dialog walks it: starting %lld ms, longest of %d slices "
                        "of 20,000 %lld ms, the result %lld ms (%d locks affected)\n",
                        takeUs / 1000, slices, longestSliceUs / 1000, resultUs / 1000, slicedAffected);
        }
        std::fflush(stdout);
    }

    // Churn from another thread: every 200 ms another 1% of the locks (g_churnPerMille) changes hands on every node, so
    // keyspace events and the periodic full scans both bring batches to the GUI.
    IoThread churnThread(QStringLiteral("bench-churn"));
    churnThread.create<Churner>(cluster.endpoints(), count, g_churnPerMille);
    int inspections = 0;
    QObject::connect(&controller, &ClusterController::inspectionFinished, &loop, [&] { ++inspections; });
    stalls.reset();
    QTimer::singleShot(churnSeconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    const qint64 refreshStallUs = stalls.longestStallUs();
    const qint64 refreshStallCpuUs = stalls.longestStallCpuUs();

    // A stall's CPU time is what the GUI thread itself worked in it; the rest it waited for a CPU.
    const qint64 rssAfterKb = rssKb();
    std::printf("%7d locks: first full table %5lld ms | longest GUI stall: while loading %4lld ms (%lld ms on CPU), "
                "during %d s of %g%%/200ms churn (%d rescans completed) %4lld ms (%lld ms on CPU) | RSS %lld MB\n",
                count, firstTableMs, loadStallUs / 1000, loadStallCpuUs / 1000, churnSeconds, g_churnPerMille / 10.0,
                inspections, refreshStallUs / 1000, refreshStallCpuUs / 1000, rssAfterKb / 1024);
    // Issue 12's target is the whole process at 100,000 locks, the application itself included.
    std::printf("         memory: RSS %lld MB with the locks (target at 100,000: <= 250 MB), %lld MB before the first "
                "one, %.2f KB per lock\n",
                rssAfterKb / 1024, rssBeforeKb / 1024, double(rssAfterKb - rssBeforeKb) / count);
    // Where it is: the allocator's heap in use and freed but kept (every arena), its own mappings, and how much of
    // the first pass's journal backlog is still queued (held "seen held" events are heap in use until written).
    {
        const struct mallinfo2 mi = mallinfo2();
        const JournalStatus st = history.journal() ? history.journal()->status() : JournalStatus();
        std::printf("         heap: %zu MB in use, %zu MB freed and kept, %zu MB in mappings of its own; journal "
                    "%lld events pending\n",
                    mi.uordblks >> 20, mi.fordblks >> 20, mi.hblkhd >> 20, st.pending);
    }
    // What of it is freed heap the allocator kept (the peak of a first load: its change sets) and what is live.
    malloc_trim(0);
    const qint64 rssTrimmedKb = rssKb();
    std::printf("         after malloc_trim(0): RSS %lld MB, %.2f KB per lock live\n", rssTrimmedKb / 1024,
                double(rssTrimmedKb - rssBeforeKb) / count);
    if (auto* timing = dynamic_cast<TimingApplication*>(qApp);
        timing && qEnvironmentVariableIsSet("REDLOCK_UI_TIMING")) {
        std::printf("         slowest GUI event: %s, %lld ms\n", timing->slowest.constData(),
                    timing->slowestNs / 1000000);
        timing->slowestNs = 0;
    }
    std::printf("         first pass: %lld ms in the inspector, summary on the GUI thread at %lld ms, first rows at "
                "%lld ms\n",
                firstPassInInspectorMs, firstPassMs, firstSliceMs);
    if (LockJournal* j = history.journal()) {
        QElapsedTimer flushTimer;
        flushTimer.start();
        j->flush().waitForFinished();
        const JournalStatus st = j->status();
        std::printf(
            "         lock history journal: %lld events written, %lld pending, %lld dropped (final flush %lld ms)%s\n",
            st.written, st.pending, st.dropped, flushTimer.elapsed(),
            st.error.isEmpty() ? "" : qPrintable(QStringLiteral(", error: ") + st.error));
    } else {
        std::printf("         lock history journal: off\n");
    }
    std::fflush(stdout);
    controller.stop();
}

} // namespace

int main(int argc, char* argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // As the console's main() does: the figures are the product's. --dynamic-mmap-threshold measures without.
    bool dynamicThreshold = false;
    for (int i = 1; i < argc; ++i)
        dynamicThreshold = dynamicThreshold || QByteArray(argv[i]) == "--dynamic-mmap-threshold";
    if (!dynamicThreshold)
        keepLargeBuffersReturnable();
    TimingApplication app(argc, argv);
    // bench-console [COUNT] [--no-journal] [--keyspace-events] [--dynamic-mmap-threshold] [--churn-seconds=N]
    // [--rescan-budget=N] [--churn-per-mille=N]: with keyspace events every change of the churn reaches the console
    // (and the journal) at once, instead of through the budgeted rescan. A longer churn measures the RSS later on (at
    // 1M no rescan completed within 180 s at the default budget: "rescans completed" says whether one did; a budget of
    // 0, no limit, makes rescans follow each other). The churn changes 1% of the locks every 200 ms unless told
    // otherwise (0: none).
    QList<int> counts{10000, 100000};
    int churnSeconds = 10;
    int rescanBudget = -1; // the console's default
    LocalNodeOptions nodeOptions;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--no-journal")
            g_journal = false;
        else if (arg.startsWith("--churn-seconds="))
            churnSeconds = arg.mid(16).toInt();
        else if (arg.startsWith("--rescan-budget="))
            rescanBudget = arg.mid(16).toInt();
        else if (arg.startsWith("--churn-per-mille="))
            g_churnPerMille = arg.mid(18).toInt();
        else if (arg == "--keyspace-events")
            nodeOptions.notifyKeyspaceEvents = QString::fromLatin1(LockInspector::keyspaceEventFlags());
        else if (arg != "--dynamic-mmap-threshold")
            counts = {arg.toInt()};
    }
    LocalCluster cluster;
    QString error;
    if (!cluster.start(5, nodeOptions, &error)) {
        std::fprintf(stderr, "bench-console: %s\n", qPrintable(error));
        return 1;
    }
    for (const int count : counts)
        runOnce(cluster, count, churnSeconds, rescanBudget);
    return 0;
}
