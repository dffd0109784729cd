#pragma once

// Value types of cluster observation: what NodeSession learns about a node, what LockInspector learns
// about the locks, and what SafetyAudit concludes. Plain copyable values, so they cross threads in queued
// signals and models can keep them without talking to Redis.

#include "observe/PackedViewBytes.h"
#include "protocol/NodeEndpoint.h"
#include "protocol/RedisReply.h"
#include "redlock/LockToken.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <memory>
#include <optional>

namespace redlock {

// ---------------------------------------------------------------------------------------------- nodes

enum class NodeHealth {
    Connecting,   // first connect or reconnect in progress
    Up,           // answers commands (some may still be refused: see NodeFacts::refusedCommands)
    AuthFailed,   // AUTH refused (wrong password / user) or the node wants a password we do not have
    NoPermission, // the handshake itself was refused by ACL (e.g. PING)
    Down,         // unreachable, timed out or lost; NodeFacts::reason says why; reconnecting with backoff
    NotAnswering, // connected, but PING got no reply within the command timeout (a hung, stopped or overloaded
                  // server): down for quorum, alerts and metrics until it answers again
};

QString nodeHealthName(NodeHealth health); // translated

// Everything one NodeSession knows about its node. Fields that could not be read keep their "unknown"
// value (-1, empty, nullopt) and the command that was refused is listed in refusedCommands.
struct NodeFacts
{
    int node = -1;
    NodeEndpoint endpoint;
    NodeHealth health = NodeHealth::Connecting;
    RedisErrorKind errorKind = RedisErrorKind::None;
    QString reason; // why the node is not Up (translated or server text)

    // Commands the node refused (NOPERM), e.g. "INFO", "CONFIG GET", "TIME": the view is degraded, not dead.
    QStringList refusedCommands;
    bool isDegraded() const { return health == NodeHealth::Up && !refusedCommands.isEmpty(); }
    // Connecting, or connected with its first INFO round still on its way: not read yet, which is not "could
    // not be read" (the audit's "not yet audited").
    bool isAwaitingFirstFacts() const
    {
        return !infoKnown && !refusedCommands.contains(QStringLiteral("INFO")) &&
               (health == NodeHealth::Connecting || health == NodeHealth::Up);
    }

    // Last PING round trip and TIME-based clock offset (server clock - local wall clock, compensated for
    // half the round trip). -1 / nullopt until measured.
    qint64 latencyUs = -1;
    std::optional<qint64> clockOffsetUs;
    // How far off clockOffsetUs may be: half the round trip of the sample it was taken from (the sample with the
    // lowest round trip of the last few: the one the server's clock read is best placed in). -1 unknown.
    qint64 clockOffsetUncertaintyUs = -1;

    // INFO
    bool infoKnown = false;
    QString role; // "master" | "slave"
    int connectedReplicas = -1;
    QByteArray runId;
    qint64 uptimeSeconds = -1;
    QString redisVersion;
    QString maxmemoryPolicy;
    qint64 maxmemoryBytes = -1; // 0 = no limit
    int aofEnabled = -1;        // 1 / 0 / -1 unknown
    // CONFIG GET
    QString appendFsync;                         // "always" | "everysec" | "no" | empty = unknown
    std::optional<QString> notifyKeyspaceEvents; // nullopt = unknown (CONFIG refused)
    // The node holds fencing counters (fenceCountersKey()): fencing is in use. 1 / 0 / -1 unknown.
    int fencingCounters = -1;

    // Restarts seen by this session: the run_id changed while we watched.
    QByteArray previousRunId;
    qint64 restartSeenAtMs = 0;  // wall clock (ms since epoch) when the new run_id was first seen; 0 = none
    qint64 downtimeMs = -1;      // estimated gap between the old instance's last answer and the new start
    qint64 factsUpdatedAtMs = 0; // wall clock of the last INFO/CONFIG refresh

    // Milliseconds since the node (re)started, from INFO uptime, as of the INFO read (factsUpdatedAtMs); -1 unknown.
    qint64 uptimeMs() const { return uptimeSeconds < 0 ? -1 : uptimeSeconds * 1000; }
    // The same at the wall-clock instant nowMs: uptime goes on between two reads of INFO.
    qint64 uptimeMsAt(qint64 nowMs) const
    {
        if (uptimeSeconds < 0)
            return -1;
        return uptimeSeconds * 1000 + (factsUpdatedAtMs > 0 ? std::max<qint64>(0, nowMs - factsUpdatedAtMs) : 0);
    }
};

// The one node-up rule of every front end (the console, `watch`, the exporters): a node whose session says Up (it
// answers commands) and that no delayed restart keeps out (quarantined). Nothing else counts.
bool nodeCountsAsUp(const NodeFacts& facts, const QList<int>& quarantined);
// Distinct servers up by that rule: nodes that answer with the same run_id (one server under two names) count once
// (rules::distinctServers). What a quorum is counted from.
int distinctServersUp(const QList<NodeFacts>& facts, const QList<int>& quarantined);

// One PING/TIME sample, for charts.
struct NodeSample
{
    int node = -1;
    qint64 atMs = 0;       // wall clock
    qint64 latencyUs = -1; // -1: the PING failed
    std::optional<qint64> clockOffsetUs;
    double commandsPerSecond = -1;        // what the session sent the node since the previous sample; -1 unknown
    qint64 clockOffsetUncertaintyUs = -1; // see NodeFacts::clockOffsetUncertaintyUs
    quint64 commandsWritten = 0;          // everything the session's connection sent so far (for counters)
};

// ---------------------------------------------------------------------------------------------- locks

enum class LockVerdict {
    Held,             // one token on >= quorum nodes
    Expiring,         // held, but the observed validity is under the inspector's threshold
    Contested,        // no token reaches quorum, >= 2 tokens present (and the unreachable nodes cannot change that)
    MinorityLeftover, // one token on fewer than quorum nodes and no other: a failed or half-released acquire
    Free,             // no token anywhere a quorum could hold one
    Unknown,          // too many nodes unreachable (or refusing the read) to tell
    Stuck, // a lock value with no expiry (PTTL -1) on some node: it never goes away by itself (PERSIST, a SET
           // without PX, a client bug); an operator must release it
    ReleasedByOperator, // lock-delay: an operator's force release left tombstones (LockTombstone) and no token has
                        // a quorum; nobody holds it, a newcomer can acquire once enough tombstones expired
                        // (LockView::freeInMs)
};

QString lockVerdictName(LockVerdict verdict); // translated, for display
QString lockVerdictId(LockVerdict verdict);   // stable, untranslated ("held", "contested", ...) for JSON

// Which client library wrote a value, recognised from its format. Recognition is a label, not a proof: a
// random 32-hex value may come from any library.
enum class HolderFormat {
    Opaque,         // not recognised: shown raw
    RedlockConsole, // this project's LockToken (identity decoded)
    NodeRedlock,    // node-redlock: 16 random bytes, hex
    Redsync,        // Redsync: 16 random bytes, base64 (std encoding)
    PrefixedUuid,   // pottery / RedLock.net: key under "redlock:", value a uuid4 / GUID
    Uuid,           // redlock-rb: a uuid value
    Redisson,       // Redisson RLock hash: field "<clientUUID>:<threadId>" -> reentrancy count
    Tombstone,      // not a holder: the LockTombstone of a force release with lock-delay
};

QString holderFormatName(HolderFormat format); // translated library name(s)
QString holderFormatId(HolderFormat format);   // stable id for JSON

struct HolderInfo
{
    HolderFormat format = HolderFormat::Opaque;
    std::optional<LockToken> token;         // RedlockConsole
    std::optional<LockTombstone> tombstone; // Tombstone
    QString redissonClientId;               // Redisson
    qint64 redissonThreadId = -1;
    qint64 reentrancy = -1;
    // One line for tables: "host pid 123 (client)", "Redisson 1b2c…:42 ×2", "released by alice@host at …", or
    // the raw value escaped.
    QString summary;
};

// A view's holder: decoded once, when first asked for, and shared by every copy of the view (the inspector's, the
// table's, a change set's). HolderInfo is 200 bytes, more than half of a view, and a console keeps two views per lock.
// Decoding (the summary's text) was a fifth of the inspector's work per lock while most views are never shown: a
// pass judges every lock and packs it, which keeps where the holder comes from, not the holder; a table shows only
// the rows on screen. The first caller decodes, on whichever thread; the others wait for it.
class SharedHolder
{
public:
    SharedHolder() = default;
    // fromNode: the node whose state it was decoded from (its Redisson hash fields, else its value); -1: from the
    // view's token (LockView::token). A packed view keeps that instead of the holder (observe/PackedLockView.h).
    explicit SharedHolder(HolderInfo info, int fromNode = -1);
    // decodeHolder(key, value), when first asked for.
    static SharedHolder ofValue(const QByteArray& key, const QByteArray& value, int fromNode = -1);
    // decodeRedissonHolder(fields), when first asked for.
    static SharedHolder ofRedissonHash(const QList<std::pair<QByteArray, QByteArray>>& fields, int fromNode);
    const HolderInfo& operator*() const;
    const HolderInfo* operator->() const { return &**this; }
    bool isNull() const { return m_source == nullptr; }
    int fromNode() const { return m_fromNode; }

private:
    struct Source;
    static const HolderInfo& none();
    std::shared_ptr<Source> m_source;
    int m_fromNode = -1;
};

// Decodes a lock value (string) or a Redisson hash's fields. Pure.
HolderInfo decodeHolder(const QByteArray& key, const QByteArray& value);
// decodeHolder(key, value).format without the rest (no summary made): what the reads ask of every value.
HolderFormat holderFormatOf(const QByteArray& key, const QByteArray& value);
HolderInfo decodeRedissonHolder(const QList<std::pair<QByteArray, QByteArray>>& fields);
// The one escaping for display, on every path (console cells and dialogs, CLI text and JSON): valid UTF-8
// is shown as text; control characters (C0, DEL, C1), line/paragraph separators, bidirectional overrides,
// the backslash and invalid bytes become \xNN per byte, so a key, a lock value or a holder name can neither
// drive a terminal (ESC, OSC, BEL, CR) nor forge a line or a row. At most maxChars characters, then "…"
// (the work is bounded by maxChars too); maxChars < 0 shows everything.
QString printableBytes(const QByteArray& bytes, int maxChars = 200);
// The same for text that is already decoded: holder and client names, error messages from servers.
QString printableText(const QString& text, int maxChars = 200);

// What one node says about one key.
struct NodeLockState
{
    enum class Presence {
        Unreachable, // the node could not be read: never taken as "absent"
        Absent,      // the node answered: no such key
        Holding,     // a lock value (pttlMs -1: one with no expiry, see LockVerdict::Stuck)
        NotALock,    // the key exists but is not a lock here (a list/set/zset/..., or no TTL and not lock-like)
        Refused,     // the node refused to read the key (ACL: NOPERM); like Unreachable never taken as "absent"
    };
    Presence presence = Presence::Unreachable;
    QByteArray token; // Holding: the string value, or the Redisson hash's holder field(s)
    QList<std::pair<QByteArray, QByteArray>> hashFields; // Redisson hash: field -> value
    qint64 pttlMs = -2;                                  // PTTL when read (-1 no TTL, -2 absent)
    QString note; // Unreachable, Refused: why (the server's error); NotALock: the type or "no TTL"

    friend bool operator==(const NodeLockState&, const NodeLockState&) = default;
};

// One lock key merged over the N nodes.
struct LockView
{
    QByteArray key;
    QList<NodeLockState> nodes; // one per configured node, in configuration order
    LockVerdict verdict = LockVerdict::Unknown;
    QByteArray token;   // the token the verdict is about (held: the majority token); empty when none
    int holders = 0;    // nodes holding `token`
    int tokenCount = 0; // distinct tokens seen
    int quorum = 0;
    QList<int> restsOn; // nodes the verdict rests on (see judgeLock in observe/LockVerdict.h)
    // Held/Expiring: the quorum-th largest PTTL among the holders minus drift, at observedAtNs.
    // After that many ms fewer than a quorum still hold the lock. -1 when not held.
    qint64 observedValidityMs = -1;
    qint64 observedAtMs = 0; // wall clock of the read
    qint64 observedAtNs = 0; // steady clock of the read (SteadyClock of the inspector)
    SharedHolder holder;
    // ReleasedByOperator: ms after observedAtMs until a newcomer can acquire the lock (rules::quorumFreeInMs over
    // the nodes that still have something in the key); -1 unknown (nodes unreachable or without expiry).
    qint64 freeInMs = -1;
    // Nodes whose state was not counted by the verdict because they are quarantined (stopped or being stopped
    // for a delayed restart, see NodeRestartScheduler): judged as if unreachable, whatever they answered.
    QList<int> uncounted;
    // Nodes holding a lock value with no expiry (PTTL -1), whatever the verdict: a leftover that never goes away by
    // itself, beside a live quorum of another token (Held) or as the verdict itself (Stuck). noExpiryToken is that
    // value (the one on most of those nodes): what a force release from this row replaces (releaseToken()).
    QList<int> noExpiryNodes;
    QByteArray noExpiryToken;
    // Unknown because the observed validity of the quorum ran out and the key was not read again since (judgeLock
    // with a later instant): its holder may have extended it, or it expired.
    bool validityEnded = false;
    // The bytes of exactly this view as the inspector stores it (PackedLockView, shared, not a copy) when a change
    // set carries it (LockInspector::noteChange); empty otherwise. A table keeps them instead of packing the view
    // again: no pack per row on the GUI thread, and one copy of each lock's packed view fewer until the inspector
    // stores a newer one (a re-read or rescan whose view has the same state is not told, so the row keeps the older
    // bytes beside it). Code that changes a view with them must clear them (sameStateAs() and the rest ignore them).
    PackedViewBytes packed;

    bool isHeld() const { return verdict == LockVerdict::Held || verdict == LockVerdict::Expiring; }
    // One token on a quorum, whatever else (Held, Expiring, or Stuck with a quorum of holders).
    bool hasQuorum() const { return holders >= quorum && quorum > 0; }
    // The token an operator's force release from this lock replaces: the value without expiry when there is one
    // (the leftover an operator goes looking for, never the live holder beside it), else the verdict's token.
    const QByteArray& releaseToken() const { return noExpiryNodes.isEmpty() ? token : noExpiryToken; }
    // Remaining observed validity at steady instant nowNs (clamped at 0); -1 when not held.
    qint64 remainingValidityMs(qint64 nowNs) const
    {
        if (observedValidityMs < 0)
            return -1;
        const qint64 left = observedValidityMs - (nowNs - observedAtNs) / 1'000'000;
        return left < 0 ? 0 : left;
    }
    // ReleasedByOperator: ms until a newcomer can acquire, at steady instant nowNs (clamped at 0); -1 unknown.
    qint64 remainingFreeInMs(qint64 nowNs) const
    {
        if (freeInMs < 0)
            return -1;
        const qint64 left = freeInMs - (nowNs - observedAtNs) / 1'000'000;
        return left < 0 ? 0 : left;
    }
    // Same verdict, token and per-node facts (PTTLs compared loosely: they tick down by themselves).
    bool sameStateAs(const LockView& other) const;
};

// Counts of keys under the pattern that were not locks, by reason.
struct SkippedKeys
{
    qint64 noTtl = 0;
    qint64 otherType = 0;       // list, set, zset, stream, ...
    qint64 outsidePattern = 0;  // SCAN returned a name the glob does not match (ACL key patterns)
    qint64 redissonHelpers = 0; // redisson_lock__channel:* and similar
    // A value with a TTL in no lock format the inspector recognises, under a pattern that names no lock (the default
    // "*", see patternNamesLocks): a cache entry, a session, application data.
    qint64 notALockFormat = 0;
    qint64 total() const { return noTtl + otherType + outsidePattern + redissonHelpers + notALockFormat; }
};

// One batch of changes, emitted once per refresh or event tick. Models apply it with one
// begin/endInsertRows, one dataChanged and one begin/endRemoveRows per batch.
struct LockChangeSet
{
    QList<LockView> appeared;
    QList<LockView> changed;
    QList<QByteArray> disappeared; // keys that are gone from every reachable node
    bool fullRefresh = false;      // the result of a full SCAN pass (otherwise: keyspace events)
    qint64 atMs = 0;
    QList<int> locksPerNode; // keys holding a lock value per node, after this batch
    // A chunk of a full pass's bounded hand-off (InspectorOptions::fullPassChunksAhead): how many locks the whole
    // hand-off tells, so that a table makes room once instead of doubling (moving 500,000 rows at once at 1M).
    qsizetype handOffSize = 0;
    bool isEmpty() const { return appeared.isEmpty() && changed.isEmpty() && disappeared.isEmpty(); }
};

struct LockEvent
{
    enum class Kind {
        Acquired,     // a token reached quorum
        Released,     // the quorum went away before its TTL ran out
        Expired,      // the quorum went away at (or after) its observed expiry
        TokenChanged, // another token now holds the quorum
        Contested,    // no token has quorum, several are present
        Lost,         // the quorum went away before its TTL because nodes holding it restarted without it (their
                      // run_id changed): data loss, not a release; the holder still believes it holds the lock
        Extended,     // the same token still holds the quorum, which now runs out later than when last seen: its
                      // holder extended it (an extension by less than LockEventTracker::kExtendSlackMs is not told)
        SeenHeld,     // a token found on a quorum whose acquisition was not observed: the lock was already held when
                      // watching started (the first full inspection), or while its state was unknown (too many
                      // nodes unreachable). Not a transition: its holder held it at least since then, maybe long
                      // before. The lock history starts an "at least since" interval with it.
        ReleasedOrExpired, // the quorum went away unobserved (no keyspace event named it: notifications off, the
                           // rescan found it gone) once its TTL could have run out: released or expired, which is
                           // not known, some time between lastSeenHeldMs and atMs
        Evicted,           // the quorum went away and the nodes said `evicted` (maxmemory eviction): data loss, the
                           // holder still believes it holds the lock
    };
    Kind kind = Kind::Acquired;
    QByteArray key;
    QByteArray token;         // the new holder (Acquired, TokenChanged, SeenHeld) or the old one (Released, Expired)
    QByteArray previousToken; // TokenChanged
    QList<int> nodes;         // Lost: the nodes that restarted without the lock
    qint64 atMs = 0;          // wall clock when observed; Expired: when the validity ran out (not later)
    // An end nobody saw happen (Released, ReleasedOrExpired, TokenChanged told by a read that no keyspace event
    // prompted): the wall-clock instant of the last read that still saw the old holder on a quorum. The change
    // happened after it and by atMs, when exactly is not known. 0: atMs is when it happened (a keyspace event told
    // it, within the event batch).
    qint64 lastSeenHeldMs = 0;
    QString holderSummary;
    bool endsUnobserved() const { return lastSeenHeldMs > 0; }
};

QString lockEventKindName(LockEvent::Kind kind); // translated
QString lockEventKindId(LockEvent::Kind kind);   // stable id

// How the inspector reads a node's lock keys (observe/KeyReader.h): one read-only script per SCAN page (EVALSHA_RO,
// Redis 7), or the per-key commands (MGET + PTTL per key) where the node refuses the script. Unknown until the
// node answered a page.
enum class ReadPath { Unknown, PageScript, PerKey };

struct InspectionSummary
{
    qint64 startedAtMs = 0;
    qint64 elapsedUs = 0;     // whole pass, all nodes
    qint64 longestCallUs = 0; // slowest single round trip (one SCAN or one read pipeline)
    qint64 keysScanned = 0;   // names returned by SCAN over all nodes
    qint64 commandsSent = 0;
    int locks = 0; // lock views after the pass
    // Names the pass kept so that a key several nodes' SCANs return is read once (KeySet): what its memory grows
    // with. 0 when each node reads only what its own SCAN returns (InspectorOptions::perNodeReads).
    qint64 keysRemembered = 0;
    SkippedKeys skipped;
    QList<bool> nodeReachable; // per node: the whole SCAN completed
    QStringList errors;        // per-node failures, "host:port: text"
    QList<ReadPath> readPaths; // per node: how its keys were read
};

// The default rescan budget of LockInspector, commands per second per node: a full rescan of 100,000 keys
// takes about 3.5 minutes and costs a node well under 1% of a core (measured by bench-observer).
constexpr int kDefaultBudgetPerNode = 500;

// What watching the locks costs one node (LockInspector::observerLoad), and where live changes come from.
struct ObserverLoad
{
    int node = -1;
    double commandsPerSecond = 0;   // everything the inspector sent the node over the last report interval
    quint64 commandsWritten = 0;    // everything the inspector's connections sent the node so far (for counters)
    double eventReadsPerSecond = 0; // of which re-reads of keys named by keyspace events
    double rescanPerSecond = 0;     // of which the reconciliation rescan (full passes included)
    int budgetPerSecond = 0;        // the rescan's budget; 0 = unlimited
    bool eventsLive = false;        // keyspace events arrive: changes show at once; else only via the rescan
    QString eventsNote;             // why not live
    int rescanPercent = -1;         // progress of the rescan under way (by known keys); -1 = none running
    qint64 fullRescanMs = -1;       // how long one full rescan takes at the budget; -1 unknown or unlimited
    ReadPath readPath = ReadPath::Unknown;
    QString readPathNote; // why the per-key path (the node's refusal), empty otherwise
};

// ---------------------------------------------------------------------------------------------- audit

struct AuditFinding
{
    enum class Severity { Info, Warning, Severe };
    QString ruleId; // stable: "replica", "has-replicas", "persistence", "restart-early", "eviction",
                    // "recent-start", "clock-offset", "same-server", "node-count", "unverified", "not-yet-audited"
    Severity severity = Severity::Warning;
    QList<int> nodes;    // nodes concerned (empty: the cluster as a whole)
    QString title;       // short, translated
    QString explanation; // one or two sentences, translated
};

QString severityName(AuditFinding::Severity severity); // translated
QString severityId(AuditFinding::Severity severity);   // "info" | "warning" | "severe"

} // namespace redlock

Q_DECLARE_METATYPE(redlock::NodeFacts)
Q_DECLARE_METATYPE(redlock::NodeSample)
Q_DECLARE_METATYPE(redlock::LockView)
Q_DECLARE_METATYPE(redlock::LockChangeSet)
Q_DECLARE_METATYPE(redlock::LockEvent)
Q_DECLARE_METATYPE(redlock::InspectionSummary)
Q_DECLARE_METATYPE(redlock::AuditFinding)
Q_DECLARE_METATYPE(redlock::ObserverLoad)
