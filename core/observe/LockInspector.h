#pragma once

#include "observe/KeyReader.h"
#include "observe/LockEventTracker.h"
#include "observe/LockVerdict.h"
#include "observe/ObservationTypes.h"
#include "observe/PackedLockView.h"
#include "observe/RescanBudget.h"
#include "protocol/RedisConnection.h"
#include "redlock/RedlockRules.h"
#include "runtime/SteadyClock.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace redlock {

struct InspectorOptions
{
    QList<NodeEndpoint> nodes;
    // SCAN MATCH glob, also applied on the client. It also says what is a lock (patternNamesLocks): under "*" only
    // values in a lock format the inspector recognises, under any other pattern every value with a TTL.
    QByteArray pattern = QByteArrayLiteral("*");
    int scanCount = 1000;    // SCAN COUNT: bounds the work of one SCAN call on the server
    int readBatchKeys = 500; // keys per read pipeline (2 commands each): bounds one round trip
    // One read-only script per page of keys (EVALSHA_RO, Redis 7) where a node runs it, else the per-key reads
    // (observe/KeyReader.h). Off by default: measured (docs/benchmarks.md, bench-inspect --page-scripts) it costs
    // the nodes 20-25% more CPU per pass than the pipelined per-key reads (a redis.call from Lua costs a node more
    // than a pipelined PTTL), for the same client time.
    bool pageScripts = false;
    double driftFactor = rules::kDefaultDriftFactor;
    qint64 expiringThresholdMs = 1000; // held with less observed validity than this -> Expiring
    // Background reconciliation after start(): a rescan (SCAN + reads) paced to at most budgetPerNode
    // commands per second on each node, then a pause of reconcileIntervalMs, then the next one.
    // reconcileIntervalMs 0 = no background rescan (only refresh()). budgetPerNode 0 = unlimited: a full
    // pass as fast as the nodes answer (the old behaviour: 8% of a core per node at 100,000 keys).
    int reconcileIntervalMs = 5000;
    int budgetPerNode = kDefaultBudgetPerNode;
    bool keyspaceEvents = true; // subscribe to __keyspace@<db>__:<pattern> on every node
    // With a view sink only (`redlock audit`, which wants the largest PTTL and no verdict): each node reads only
    // the keys its own SCAN returns, and the pass keeps no set of the names read, so its memory does not grow with
    // the number of keys. The sink then gets one view per node a key is on, with that node's read alone (the
    // others unasked), and the summary's counts are per node.
    bool perNodeReads = false;
    int eventBatchMs = 50; // keyspace events are coalesced for this long, then re-read
    // A full pass's changes and events go out in emissions of at most this many (0: one of each per pass). For a
    // consumer that takes them one by one (`redlock watch`, the console): the first pass over 100,000 locks is then
    // never one change set and one event list of 100,000 on top of the views.
    int fullPassChunk = 0;
    // With fullPassChunk: at most this many of a full pass's chunks handed over and not yet taken (0: no bound, all at
    // once). The I/O thread otherwise builds them faster than a consumer that prints them takes them, and they wait in
    // its event queue (43 MB of `redlock watch`'s peak at 100,000 locks). After each chunk fullPassChunkSent() is
    // emitted; the next one is built when the consumer calls fullPassChunkTaken(). The reads, probes and live changes
    // go on meanwhile: a live change to a lock not told yet tells it first, in a chunk of its own. The chunks tell the
    // locks in key order (the console's table keeps key order and appends each chunk at its end).
    int fullPassChunksAhead = 0;
    // How often each node's notify-keyspace-events is read (CONFIG GET), to tell live nodes from the ones
    // only the rescan can follow; and how often observerLoad() is emitted. 0 = never.
    int eventsCheckIntervalMs = 15000;
    int loadReportIntervalMs = 1000;
    int commandTimeoutMs = 2000;
    // Nodes out for a delayed restart: not counted by the verdicts (VerdictRules::quarantined). The console
    // keeps it current with setQuarantinedNodes() from NodeRestartScheduler's quarantine.
    QList<int> quarantinedNodes;
    ConnectionOptions connection;
    std::shared_ptr<SteadyClock> clock; // null = SteadyClock::system()
};

using LockSnapshot = QHash<QByteArray, LockView>;
// The inspector's own store: one packed view per lock (observe/PackedLockView.h), unpacked where a view is wanted,
// and beside it the lock's last quorum for its events (LockEventTracker::KeptQuorum; null in a pass's views).
struct StoredLock
{
    PackedLockView view;
    LockEventTracker::KeptQuorum quorum;
};
using PackedViews = QHash<QByteArray, StoredLock>;

// Finds the lock keys on every node and merges them into one LockView per key, kept live.
//
// Discovery: SCAN cursor MATCH pattern COUNT n on every node (never KEYS, never a Lua scan); names are
// filtered by the glob on the client too. The names of a page that this pass has not read yet are read on
// every node at once (a "group"), so one key's N reads are taken moments apart and the key is merged as
// soon as they are in; a key that several nodes' SCANs return is read once. A read is one pipeline per
// node: one read-only script for the page (EVALSHA_RO: one command per page and node) where the node runs it,
// else one MGET for the page (nil for missing keys and non-strings) plus one PTTL per key, so about one
// command per key and node instead of TYPE + PTTL + GET (three). Keys that exist but have no string value
// (Redisson hashes, other types, or an MGET the ACL refused) get TYPE + PTTL + GET + HGETALL in a second,
// small pipeline. Pages are bounded by scanCount / readBatchKeys and at most two groups per scanning node are
// in flight, so no single call is long.
// Live: keyspace notifications (a dedicated connection per node, PSUBSCRIBE __keyspace@<db>__:<pattern>,
// coalesced for eventBatchMs, then the touched keys are re-read on every node). Subscribing is read-only;
// turning notifications on is NodeSession::enableKeyspaceEvents(), never done implicitly. Whether a node
// really sends them (CONFIG GET notify-keyspace-events, checked every eventsCheckIntervalMs) is reported
// per node in liveSourceChanged() and observerLoad().
// Reconciliation: start() runs one full pass at full speed (the baseline), then background rescans paced by
// a budget of commands per second per node (InspectorOptions::budgetPerNode), each group of keys applied
// as soon as it is read, the locks no SCAN returned judged at the end. They catch what events cannot
// tell: nodes with notifications off (then the rescan is the only source), FLUSHALL, changes while the
// Pub/Sub connection was down. A lost Pub/Sub connection or a node restart starts a new rescan at once
// (a resync), also within the budget. refresh() is an explicit full pass at full speed.
//
// Lives on its own thread (an IoThread); snapshot() may be called from any thread.
class LockInspector final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockInspector)

public:
    // From this many views on, a full pass with a bounded hand-off walks them (per-node counts, validity instants)
    // on a thread of its own beside the sort of their names (applyFullPass()).
    static constexpr qsizetype kWalkAsideFrom = 50'000;

    explicit LockInspector(InspectorOptions options, QObject* parent = nullptr);
    ~LockInspector() override;

    // The narrow flag set the live view needs: keyspace channel, generic (del, expire, rename), string,
    // hash, expired and evicted events.
    static QByteArray keyspaceEventFlags() { return QByteArrayLiteral("Kg$hxe"); }
    // True when `flags` (CONFIG GET notify-keyspace-events) already emit everything the live view needs.
    static bool keyspaceEventsSufficient(const QString& flags);
    const InspectorOptions& options() const { return m_options; }
    int nodeCount() const { return static_cast<int>(m_options.nodes.size()); }
    int quorum() const { return rules::quorum(nodeCount()); }
    // What every lock is judged against (observe/LockVerdict.h).
    VerdictRules verdictRules() const
    {
        return {quorum(), m_options.driftFactor, m_options.expiringThresholdMs, m_options.quarantinedNodes, m_downNodes,
                m_runIds};
    }

    // Opens the connections, subscribes, runs a first full inspection and reconciles in the background.
    void start();
    void stop();
    // One full inspection now, at full speed (coalesced with one already running; a background rescan
    // under way goes on without its budget). Completion: inspectionFinished().
    void refresh();
    // A background rescan from the start, within the budget (what a lost Pub/Sub connection or a node
    // restart triggers). Completion: inspectionFinished().
    void resync();
    // The rescan budget, commands per second per node; 0 = unlimited. Applies to the rescan under way.
    void setBudgetPerNode(int commandsPerSecond);
    // The quarantined nodes (InspectorOptions::quarantinedNodes): every known lock is judged again at once, and
    // the ones whose verdict changes are emitted in locksChanged() (with their events), without a re-read.
    void setQuarantinedNodes(QList<int> nodes);
    // The nodes the watch sees down or not answering (VerdictRules::down): every known lock is judged again at
    // once, as setQuarantinedNodes() does, so a lock resting on such a node is not shown safe until a read says
    // so. The keys a node that comes back was not read for are read again at once.
    void setDownNodes(QList<int> nodes);
    bool isInspecting() const { return m_pass != nullptr; }
    // The consumer has handled one of a full pass's chunks (InspectorOptions::fullPassChunksAhead): the next one may be
    // built. Any thread; acted on from the inspector's event loop.
    void fullPassChunkTaken();
    // The consumer's own backlog of a full pass's chunks is long (a table applying them a slice per turn, behind a
    // hand-off built faster than that): no further chunk is built while held, whatever fullPassChunksAhead allows,
    // so that the chunks' unpacked views (about 1.3 KB a lock) never pile up there; released, the hand-off goes on.
    // A drain (tellRestOfPassNow(), a new pass) ignores it. Any thread; acted on from the inspector's event loop.
    void holdHandOff(bool hold);
    // Tells the rest of a bounded full pass at once, unbounded, on the inspector's thread: for a consumer about to
    // stop whose event tap (a journal) must have every lock the pass saw, not only the chunks printed so far.
    void tellRestOfPassNow() { continueHandOff(true); }

    // For one-shot consumers that write each lock out as it is found (redlock inspect): while a sink is set,
    // a full pass hands every lock's view to it as soon as the view is merged, on the inspector's thread and
    // in the order the reads complete, and keeps none of them. Memory is then bounded by the reads in flight
    // and the names of the keys already read (so that a key several nodes' SCANs return is read once; none
    // with InspectorOptions::perNodeReads), not by the views; a slow sink slows the pass down instead of queueing
    // views. snapshot() stays empty, locksChanged() and lockEvents() are not emitted for full passes, and the summary's
    // `locks` counts the views handed over. Set it before the first pass, on an inspector without keyspace events.
    using ViewSink = std::function<void(LockView&& view)>;
    void setViewSink(ViewSink sink) { m_viewSink = std::move(sink); }

    // The current views, from any thread: called from another thread it waits for the inspector's thread to
    // take the copy (never call it from a thread the inspector's thread waits on), then unpacks it on its own.
    LockSnapshot snapshot() const;
    SkippedKeys lastSkipped() const;
    // Instants at which held views are judged again, kept now (with those of views replaced since, dropped when they
    // come due): what the validity timer costs. On the inspector's thread.
    qsizetype validityInstantsKept() const { return qsizetype(m_validityDue.size()); }

signals:
    void inspectionStarted();
    void inspectionFinished(const redlock::InspectionSummary& summary);
    // Batched: one per full inspection (fullRefresh) or per event tick. Not emitted when nothing changed.
    void locksChanged(const redlock::LockChangeSet& changes);
    // The locks the first full inspection finds held come as SeenHeld (found, not seen acquired), and nothing
    // else of that inspection (it is the baseline, not news).
    void lockEvents(const QList<redlock::LockEvent>& events);
    // After each chunk of a bounded hand-off (InspectorOptions::fullPassChunksAhead), once its locksChanged() and
    // lockEvents() were emitted: the consumer answers fullPassChunkTaken() when it has handled them.
    void fullPassChunkSent();
    // A bounded hand-off told its last lock (after its last fullPassChunkSent(), or at once for a pass that had
    // nothing to tell): the full pass is whole on the consumer's side. inspectionFinished() may come before it.
    void fullPassTold();
    // Per node: subscribed to keyspace events or not (and why not).
    void keyspaceSubscription(int node, bool subscribed, const QString& message);
    // The node's run_id changed across a reconnect: it restarted, and lost every lock it did not persist.
    // Locks that lose their quorum that way are reported as LockEvent::Kind::Lost, not as released.
    void nodeRestarted(int node);
    // Per node: whether live changes come from keyspace events (subscribed, and the node's
    // notify-keyspace-events has what keyspaceEventFlags() needs), or only from the budgeted rescan, and why.
    // Emitted when it changes (the first time once the node's configuration is known).
    void liveSourceChanged(int node, bool eventsLive, const QString& why);
    // Every loadReportIntervalMs while started: what the inspector costs each node.
    void observerLoad(const QList<redlock::ObserverLoad>& load);

private:
    struct Pass;
    struct NodeLink
    {
        RedisConnection* reader = nullptr;
        std::unique_ptr<KeyReader> keys; // reads lock keys on `reader`
        RedisConnection* subscriber = nullptr;
        bool subscribed = false;
        bool everSubscribed = false;
        // notify-keyspace-events as last read: sufficient, insufficient, or unknown (not read / refused).
        enum class EventsConfig { Unknown, Off, On } eventsConfig = EventsConfig::Unknown;
        bool endingsTold = false; // the configuration sends del and expired events (deferUntoldEndings)
        QString eventsNote;       // why the events are not live (configuration)
        QString subscribeNote;    // why not subscribed (refused, connection lost)
        bool configChecked = false;
        int liveReported = -1; // last liveSourceChanged(): -1 none, 0 rescan only, 1 live
        QString liveReportedWhy;
        // Commands sent by purpose, and the totals at the last load report.
        quint64 rescanCommands = 0;
        quint64 eventCommands = 0;
        quint64 reportedTotal = 0, reportedRescan = 0, reportedEvents = 0;
        // Restarts, from the reader's INFO run_id after each reconnect: the instant the reader lost the old
        // instance (everything read before it came from that instance), when the run_id then changed.
        QByteArray runId;
        qint64 lostAtNs = 0;
        // Reconnected, and the run_id not yet checked: a key it says is absent may be one a restart lost, so
        // its reads count as unreachable until the check answered (then readsWithheld asks for a resync).
        bool restartUnchecked = false;
        bool readsWithheld = false;
        quint64 restartChecks = 0; // checkRestartedNode() runs started: only the latest one applies
    };

    // One group's reads: per node, one KeyRead per key in key order.
    struct GroupReads
    {
        QList<QByteArray> keys;
        std::vector<QList<KeyRead>> perNode;
    };
    // What one group's reads say about one key: a view to keep, a key that is no lock, or nothing left.
    enum class Outcome { Lock, NoTtl, OtherType, NotALockFormat, Gone };

    enum class Apply {
        ScanPart, // a part of a rescan: the keys it read (fullRefresh set: found by a SCAN pass)
        Events,   // keys re-read after keyspace events
    };
    void startPass(bool incremental, bool throttled);
    void continueScan(int node);
    bool budgetAllows();
    void charge(int node, qint64 commands, bool forPass);
    void scheduleRescan(int delayMs);
    void checkEventsConfig(int node);
    void reportLiveSource(int node);
    void reportLoad();
    void scanPage(int node, const QByteArray& cursor);
    void onGroupRead(int scanNode, GroupReads& group);
    void nodeScanFailed(int node, const QString& error);
    void maybeFinishNode(int node);
    void maybeFinishPass();
    void finishPass();
    void emitFinished(const Pass& pass, const SkippedKeys& skipped);
    // Reads `keys` on every node at once; a node that `ask` says false for is not asked and reads as
    // unreachable, for the reason in `why`. done() is called once, when every node answered (or failed).
    // forPass: the reads of a pass (counted and charged to its budget), else of keyspace events.
    void readOnAllNodes(const QList<QByteArray>& keys, const QList<bool>& ask, const QStringList& why, bool forPass,
                        std::function<void(GroupReads)> done);
    // Takes the key's reads out of `group` (moved into the view): each key of a group is merged once.
    Outcome mergeGroupKey(GroupReads& group, qsizetype index, LockView& view) const;
    void subscribe(int node);
    // The reader is ready: its handshake read the server's run_id (RedisConnection::serverRunId()). Applied before
    // any read on the new connection is answered, so no verdict ever counts a node's server as unknown when it was
    // known: "three names, two servers" is judged as two servers from the first read on.
    void noteRunId(int node);
    void checkRestartedNode(int node, const QByteArray& cursor, std::shared_ptr<QSet<QByteArray>> present,
                            quint64 check);
    void onKeyspaceMessage(int node, const RedisReply& reply);
    void flushTouched();
    // A known lock that no SCAN of this pass returned: absent where the SCAN completed, unknown elsewhere.
    LockView vanished(const QByteArray& key, const QList<bool>& reachable, const QStringList& unreachableWhy) const;
    // A full pass's result replaces the views; the keys in `keep` keep theirs (they are in `updated` as they are).
    void applyFullPass(PackedViews updated, const QSet<QByteArray>& keep);
    // The keys in `touched` take their views in `updated`, or go when they are not in it. `told`: the keyspace
    // events that named them, per key (Evidence::Name flags), when keyspace events prompted the reads.
    using EventNames = QHash<QByteArray, quint8>;
    void applyChanges(QHash<QByteArray, LockView> updated, const QSet<QByteArray>& touched, Apply how,
                      const EventNames* told = nullptr);
    // Every node is subscribed, and sends the keyspace events that tell deletions and expirations apart.
    bool eventsTellEveryEnding() const;
    // The keys of `touched` a read found gone without an event's name for it: read again after the next batch of
    // events instead of applied now (LockInspectorLiveFeed.cpp).
    QList<QByteArray> deferUntoldEndings(const EventNames* told, const QHash<QByteArray, LockView>& updated,
                                         const QSet<QByteArray>& touched);
    LockEventTracker::Phase eventPhase(bool fullPass);
    // `last`: the key's last quorum (takeQuorum()), updated by the tracker; the caller keeps it (keepQuorum()).
    using LastQuorum = std::optional<LockEventTracker::LastQuorum>;
    // *after goes into the change set by moving when it appeared or changed: the caller does not read it again.
    // afterStored: what the store keeps for it (*after is exactly its unpacked form), whose bytes it carries
    // (LockView::packed); null when not known.
    void noteChange(const QByteArray& key, LastQuorum& last, const LockView* before, LockView* after,
                    const PackedLockView* afterStored, LockEventTracker::Phase phase, LockChangeSet& changes,
                    QList<LockEvent>& events, LockEventTracker::Evidence evidence = {});
    // The key's last quorum, from where it is kept: beside the view in `from` (the key's entry in m_views, or in the
    // views a pass replaced), else aside (taken out). keepQuorum() puts it beside the key's view in m_views
    // (`beside`, replacing what was there), else aside (no view, or not exactly packable beside it).
    LastQuorum takeQuorum(const QByteArray& key, const StoredLock* from);
    void keepQuorum(const QByteArray& key, LastQuorum last, StoredLock* beside);
    // A read found the lock of `stored` as `kept` has it (LockView::sameStateAs: the same holders, its PTTLs only
    // ticked down): `stored` keeps those bytes, the ones the consumers were told and share (one copy a lock), with the
    // read's last quorum beside them. False where that quorum cannot be kept beside them: `stored` is left as it is.
    static bool keepUnchanged(StoredLock& stored, const PackedLockView& kept, const LastQuorum& last);
    void publish(LockChangeSet& changes, QList<LockEvent>& events);
    // The bounded hand-off of a full pass (InspectorOptions::fullPassChunksAhead): the keys whose change and events
    // are not told yet, told from the views when the consumer has room (or at once: `drain`), or ahead of a change
    // that is about to replace their view (tellEarly).
    struct HandOff
    {
        PackedViews before; // the views the pass replaced
        // The keys to tell, sorted, from `next` on; but those told early (tellEarly) since, which are in toldEarly
        // until their turn comes. No set of every key: the sorted list is the set (binary search). The keys before
        // `next` are dropped from time to time (continueHandOff()).
        QList<QByteArray> order;
        qsizetype total = 0; // keys to tell in all (LockChangeSet::handOffSize)
        qsizetype next = 0;
        QSet<QByteArray> toldEarly;
        qsizetype untold = 0; // keys not told yet
        LockEventTracker::Phase phase = LockEventTracker::Phase::Watching;
        bool isUntold(const QByteArray& key) const;
    };
    void continueHandOff(bool drain);
    void tellEarly(const QSet<QByteArray>& keys);
    void tellUntold(const QByteArray& key, LockChangeSet& changes, QList<LockEvent>& events);
    // The same with the key's stored view looked up (m_views.end(): none).
    void tellUntold(const QByteArray& key, PackedViews::iterator after, LockChangeSet& changes,
                    QList<LockEvent>& events);
    void sendHandOffChunk(LockChangeSet& changes, QList<LockEvent>& events);
    void countHolding(const PackedLockView& view, int delta);
    // Every known lock judged again now (the rules changed); the ones whose state changes are applied.
    void judgeAllAgain();
    // Time: a held view is judged again when it turns expiring and when its observed validity ends (then it is
    // re-read too): no lock stays "held" past its validity for want of a keyspace event or a rescan.
    // The next instant after afterNs at which the view's verdict changes by itself, if held.
    void noteValidity(const QByteArray& key, const PackedLockView& view, qint64 afterNs = 0);
    struct ValidityInstants
    {
        qint64 expiringNs = 0; // judgeLock says Expiring from this steady instant on
        qint64 endNs = 0;      // and Unknown (validity ended) from this one on
    };
    ValidityInstants validityInstants(const PackedLockView& view) const;
    // A view that is not held: the instant its nodes' keys have all expired (then it is read again), nullopt when
    // one holds it without expiry or none holds anything.
    static std::optional<qint64> goneInstant(const PackedLockView& view);
    // The view's next instant after afterNs (the one noteValidity() keeps), or nullopt when it has none.
    std::optional<qint64> nextValidityInstant(const PackedLockView& view, qint64 afterNs) const;
    // Pushes the current views' instants that fall after the horizon and up to now + kValidityHorizonNs.
    void sweepValidity(qint64 nowNs);
    void armValidityTimer();
    void onValidityTimer();
    void noteCallUs(qint64 us);

    InspectorOptions m_options;
    std::shared_ptr<SteadyClock> m_clock;
    std::vector<NodeLink> m_links;
    PackedViews m_views;
    LockEventTracker m_events; // acquired, released, expired, lost, ... from successive views
    // The last quorums kept without a view beside them (keepQuorum()): a key the first pass no longer found after a
    // live change had read it held, a quorum kept through an Unknown view that lacks its token, and the like.
    QHash<QByteArray, LockEventTracker::LastQuorum> m_quorumsAside;
    mutable QMutex m_snapshotMutex; // guards m_lastSkipped
    SkippedKeys m_lastSkipped;
    std::unique_ptr<Pass> m_pass;
    quint64 m_passGeneration = 0;
    bool m_refreshAgain = false;
    bool m_baselineDone = false; // the first full pass's holders are SeenHeld, and no other events of it
    EventNames m_touched;        // keys named by keyspace events since the last flush, with the events' names
    bool m_flushInFlight = false;
    qint64 m_longestCallUs = 0; // of the current pass
    QList<int> m_locksPerNode;  // views holding a lock value, per node (kept with m_views)
    bool m_started = false;
    bool m_resyncPending = false;          // start the next rescan as soon as the current pass ends
    qint64 m_lastPassCommandsPerNode = -1; // what the last complete pass cost one node (for the estimate)
    QElapsedTimer m_loadClock;
    RescanBudget m_budget;
    QElapsedTimer m_budgetClock; // the budget is real time whatever m_clock is
    QTimer m_reconcileTimer;     // single shot: the next background rescan
    QTimer m_throttleTimer;      // single shot: the budget allows the next page
    QTimer m_eventsCheckTimer;
    QTimer m_loadTimer;
    QTimer m_eventTimer;
    QList<int> m_downNodes;               // VerdictRules::down
    QSet<QByteArray> m_awaitingEventName; // deferUntoldEndings(): keys read again for their keyspace event's name
    QList<QByteArray> m_runIds; // VerdictRules::runIds: per node, the last run_id its reader read (empty: unknown)
    // Steady instants at which a held view's verdict changes by itself (turns expiring, validity ends) and its key,
    // a min-heap (std::push_heap with std::greater): 32 bytes an entry, where a multimap node took 80. Entries of
    // views replaced since are dropped when they come due.
    // Only the instants up to m_validityHorizonNs are kept: a later one is pushed by the sweep (sweepValidity(), a
    // walk over the views when the horizon is half-way gone) that brings the horizon past it. So locks with long
    // TTLs cost no entry until their instant is near (100,000 locks of an hour took 4.2 MB at the first pass, and
    // each rescan that read them again pushed 100,000 more, dropped only an hour later), and locks with short TTLs
    // are kept as before (no sweep while no instant lies beyond the horizon).
    static constexpr qint64 kValidityHorizonNs = 60'000'000'000;
    using ValidityDue = std::pair<qint64, QByteArray>;
    std::vector<ValidityDue> m_validityDue;
    qint64 m_validityHorizonNs = std::numeric_limits<qint64>::min(); // min: not set yet (set by the first instant)
    bool m_validityBeyond = false; // an instant after the horizon was left to the sweep
    QTimer m_validityTimer;        // single shot, precise: the earliest of m_validityDue
    ViewSink m_viewSink;
    std::optional<HandOff> m_handOff;
    int m_chunksOut = 0;        // chunks of a bounded hand-off sent and not yet taken
    bool m_handOffHeld = false; // holdHandOff()
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace redlock
