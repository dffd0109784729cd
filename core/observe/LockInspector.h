#pragma once

#include "observe/ObservationTypes.h"
#include "protocol/RedisConnection.h"
#include "runtime/SteadyClock.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

namespace redlock {

struct InspectorOptions
{
    QList<NodeEndpoint> nodes;
    QByteArray pattern = QByteArrayLiteral("*"); // SCAN MATCH glob, also applied on the client
    int scanCount = 1000;                        // SCAN COUNT: bounds the work of one SCAN call on the server
    int readBatchKeys = 500;                     // keys per read pipeline (2 commands each): bounds one round trip
    double driftFactor = 0.01;
    qint64 expiringThresholdMs = 1000; // held with less observed validity than this -> Expiring
    int reconcileIntervalMs = 5000;    // periodic full SCAN after start(); 0 = only on refresh()
    bool keyspaceEvents = true;        // subscribe to __keyspace@<db>__:<pattern> on every node
    int eventBatchMs = 50;             // keyspace events are coalesced for this long, then re-read
    int commandTimeoutMs = 2000;
    ConnectionOptions connection;
    std::shared_ptr<SteadyClock> clock; // null = SteadyClock::system()
};

using LockSnapshot = QHash<QByteArray, LockView>;

// Finds the lock keys on every node and merges them into one LockView per key, kept live.
//
// Discovery: SCAN cursor MATCH pattern COUNT n on every node (never KEYS, never a Lua scan); names are
// filtered by the glob on the client too. The names of a page that this pass has not read yet are read on
// every node at once (a "group"), so one key's N reads are taken moments apart and the key is merged as
// soon as they are in; a key that several nodes' SCANs return is read once. A read is one pipeline per
// node: one MGET for the page (nil for missing keys and non-strings) plus one PTTL per key, so about one
// command per key and node instead of TYPE + PTTL + GET (three). Keys that exist but have no string value
// (Redisson hashes, other types, or an MGET the ACL refused) get TYPE + PTTL + GET + HGETALL in a second,
// small pipeline. Pages are bounded by scanCount / readBatchKeys and at most two groups per scanning node are
// in flight, so no single call is long.
// Live: keyspace notifications (a dedicated connection per node, PSUBSCRIBE __keyspace@<db>__:<pattern>,
// coalesced for eventBatchMs, then the touched keys are re-read on every node), plus a periodic full SCAN,
// because Pub/Sub drops events on reconnects and nodes may have notifications off. Subscribing is
// read-only; turning notifications on is NodeSession::enableKeyspaceEvents(), never done implicitly.
//
// Lives on its own thread (an IoThread); snapshot() may be called from any thread.
class LockInspector final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockInspector)

public:
    explicit LockInspector(InspectorOptions options, QObject* parent = nullptr);
    ~LockInspector() override;

    // The narrow flag set the live view needs: keyspace channel, generic (del, expire, rename), string,
    // hash, expired and evicted events.
    static QByteArray keyspaceEventFlags() { return QByteArrayLiteral("Kg$hxe"); }
    // True when `flags` (CONFIG GET notify-keyspace-events) already emit everything the live view needs.
    static bool keyspaceEventsSufficient(const QString& flags);
    // Redis glob matching (*, ?, [a-z], [^x], \\ escapes), binary safe: the client-side filter.
    static bool globMatches(const QByteArray& pattern, const QByteArray& name);

    // The verdict for one key from per-node states (pure: the heart of the inspector, tested directly).
    // restsOn: Held/Expiring/MinorityLeftover -> the nodes holding the token; Contested -> the nodes holding
    // any token; Free -> the nodes that answered; Unknown -> the unreachable (or refusing) nodes; Stuck -> the
    // nodes holding a value without expiry (Stuck wins over every other verdict: it never resolves by itself).
    static void judge(LockView& view, int quorum, double driftFactor, qint64 expiringThresholdMs);

    const InspectorOptions& options() const { return m_options; }
    int nodeCount() const { return static_cast<int>(m_options.nodes.size()); }
    int quorum() const { return nodeCount() / 2 + 1; }

    // Opens the connections, subscribes, runs a first full inspection and reconciles periodically.
    void start();
    void stop();
    // One full inspection now (coalesced with one already running). Completion: inspectionFinished().
    void refresh();
    bool isInspecting() const { return m_pass != nullptr; }

    // The current views, from any thread: called from another thread it waits for the inspector's thread to
    // take the copy (never call it from a thread the inspector's thread waits on).
    LockSnapshot snapshot() const;
    SkippedKeys lastSkipped() const;

signals:
    void inspectionStarted();
    void inspectionFinished(const redlock::InspectionSummary& summary);
    // Batched: one per full inspection (fullRefresh) or per event tick. Not emitted when nothing changed.
    void locksChanged(const redlock::LockChangeSet& changes);
    // Not emitted for the locks the first full inspection finds (they are the baseline, not news).
    void lockEvents(const QList<redlock::LockEvent>& events);
    // Per node: subscribed to keyspace events or not (and why not).
    void keyspaceSubscription(int node, bool subscribed, const QString& message);
    // The node's run_id changed across a reconnect: it restarted, and lost every lock it did not persist.
    // Locks that lose their quorum that way are reported as LockEvent::Kind::Lost, not as released.
    void nodeRestarted(int node);

private:
    struct Pass;
    struct KeyRead;
    struct NodeLink
    {
        RedisConnection* reader = nullptr;
        RedisConnection* subscriber = nullptr;
        bool subscribed = false;
        bool everSubscribed = false;
        // Restarts, from the reader's INFO run_id after each reconnect: the instant the reader lost the old
        // instance (everything read before it came from that instance), when the run_id then changed.
        QByteArray runId;
        qint64 lostAtNs = 0;
        qint64 restartedAtNs = 0; // 0 = no restart seen
    };

    // One group's reads: per node, one KeyRead per key in key order.
    struct GroupReads
    {
        QList<QByteArray> keys;
        std::vector<QList<KeyRead>> perNode;
    };
    // What one group's reads say about one key: a view to keep, a key that is no lock, or nothing left.
    enum class Outcome { Lock, NoTtl, OtherType, Gone };

    void scanPage(int node, const QByteArray& cursor);
    void onGroupRead(int scanNode, const GroupReads& group);
    void nodeScanFailed(int node, const QString& error);
    void maybeFinishNode(int node);
    void maybeFinishPass();
    void finishPass();
    // Reads `keys` on every node at once; a node that `ask` says false for is not asked and reads as
    // unreachable, for the reason in `why`. done() is called once, when every node answered (or failed).
    void readOnAllNodes(const QList<QByteArray>& keys, const QList<bool>& ask, const QStringList& why,
                        std::function<void(GroupReads)> done);
    Outcome mergeGroupKey(const GroupReads& group, qsizetype index, LockView& view) const;
    // Reads keys on one node in pipelines of at most readBatchKeys keys; done() gets one KeyRead per key
    // (in order) and is called once, after the last batch. A batch's round trip is added to *longestCallUs.
    void readKeys(int node, const QList<QByteArray>& keys, std::function<void(QList<KeyRead>)> done);
    void readBatch(int node, const QList<QByteArray>& keys, std::function<void(QList<KeyRead>)> done);
    void subscribe(int node);
    void checkRunId(int node);
    void onKeyspaceMessage(int node, const RedisReply& reply);
    void flushTouched();
    // A known lock that no SCAN of this pass returned: absent where the SCAN completed, unknown elsewhere.
    LockView vanished(const QByteArray& key, const QList<bool>& reachable, const QStringList& unreachableWhy) const;
    void applyChanges(QHash<QByteArray, LockView> updated, const QSet<QByteArray>& touched, bool full);
    void deriveEvents(const QByteArray& key, const LockView* before, const LockView* after, qint64 nowMs,
                      QList<LockEvent>* events); // events: null = remember the holder, build no event
    void noteCallUs(qint64 us);
    QList<int> locksPerNode() const;

    InspectorOptions m_options;
    std::shared_ptr<SteadyClock> m_clock;
    std::vector<NodeLink> m_links;
    QHash<QByteArray, LockView> m_views;
    // Per key, the last token seen on a quorum (kept through Unknown), for acquired/released/changed events.
    struct LastQuorum
    {
        QByteArray token;
        qint64 endsNs = 0;    // steady instant that quorum runs out (expired vs released); 0 = never (no TTL)
        qint64 seenAtNs = 0;  // steady instant of the read that last saw it (a restart after it lost it there)
        quint64 nodeMask = 0; // the nodes (below 64) holding it then
    };
    QHash<QByteArray, LastQuorum> m_lastQuorum;
    mutable QMutex m_snapshotMutex; // guards m_lastSkipped
    SkippedKeys m_lastSkipped;
    std::unique_ptr<Pass> m_pass;
    quint64 m_passGeneration = 0;
    bool m_refreshAgain = false;
    bool m_baselineDone = false; // no events for what the first full pass finds
    QSet<QByteArray> m_touched;  // keys named by keyspace events since the last flush
    bool m_flushInFlight = false;
    qint64 m_longestCallUs = 0; // of the current pass
    QTimer m_reconcileTimer;
    QTimer m_eventTimer;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace redlock
