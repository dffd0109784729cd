#pragma once

#include "export/PrometheusText.h"
#include "observe/ObservationTypes.h"
#include "redlock/RedlockRules.h"
#include "redlock/Rl1Digits.h"
#include "runtime/SteadyClock.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QSet>

#include <memory>
#include <vector>

namespace redlock {

struct ExporterOptions
{
    QList<NodeEndpoint> nodes;
    double driftFactor = rules::kDefaultDriftFactor;
    // The largest lock TTL in use, for the audit's restart rule (rules::auditMaxTtlMs: raised to the largest PTTL seen;
    // 0 = rules::kDefaultMaxTtlMs). Only for the exporter's own audit: a ClusterWatch's findings replace it.
    qint64 maxTtlMs = 0;
    int budgetPerNode = kDefaultBudgetPerNode; // the inspector's rescan budget, exported as is
    // One series per lock key (redlock_lock_holders{key,verdict}): as many series as keys, so only on request.
    bool perKeyMetrics = false;
    // With perKeyMetrics, at most this many per-key series (the first keys in key order, stable from scrape to
    // scrape): a scrape stays small and fast whatever the number of keys, and redlock_key_series_dropped says how
    // many were left out.
    qsizetype maxKeySeries = kDefaultMaxKeySeries;
    static constexpr qsizetype kDefaultMaxKeySeries = 10000;
    std::shared_ptr<SteadyClock> clock; // the inspector's clock (null = SteadyClock::system())
};

// What `redlock exporter` serves on /metrics: the latest state of the observation (node sessions, lock inspector,
// safety audit) in the Prometheus text format. No I/O: it is fed by the observation's signals (connect them
// queued to this object's thread) and renders from what it holds, so a scrape never waits for a node.
//
// Labels carry what is safe to show: node = the endpoint's display name (host:port[/db], unix:/path; never the
// user, the password or TLS files), verdict, event, rule, severity; never a lock value. A lock key is a label
// only with perKeyMetrics. Every label value goes through printableText/printableBytes and the format's escaping.
//
// The metric names, their units and their meaning are listed in docs/operator-guide.md.
class PrometheusExporter final
{
    Q_DISABLE_COPY_MOVE(PrometheusExporter)

public:
    explicit PrometheusExporter(ExporterOptions options);

    // NodeSession::factsChanged, ::sampled, ::restarted.
    void addFacts(const NodeFacts& facts);
    void addSample(const NodeSample& sample);
    void addRestart(const NodeFacts& facts);
    // LockInspector::locksChanged, ::lockEvents, ::inspectionFinished, ::observerLoad.
    void addChanges(const LockChangeSet& changes);
    void addEvents(const QList<LockEvent>& events);
    void addInspection(const InspectionSummary& summary);
    void addObserverLoad(const QList<ObserverLoad>& load);

    // The rescan budget changed (exported as is).
    void setBudgetPerNode(int commandsPerSecond) { m_options.budgetPerNode = commandsPerSecond; }
    // Nodes a delayed restart keeps out (the console's NodeRestartScheduler): not counted in redlock_servers_up,
    // by the same rule as every front end (nodeCountsAsUp). A standalone exporter schedules none.
    void setQuarantinedNodes(const QList<int>& nodes) { m_quarantined = nodes; }
    // Findings from an audit run elsewhere (the console's, against its configured max TTL): from now on they
    // replace the exporter's own audit.
    void setFindings(const QList<AuditFinding>& findings);

    // The exposition (text format 0.0.4) as of now.
    QByteArray exposition() const;

    const QList<AuditFinding>& findings() const { return m_findings; }
    // With perKeyMetrics: the lock keys known now beyond maxKeySeries (0 = every key has its series).
    qsizetype keysOverSeriesLimit() const;
    // Bounds, in seconds, of the held-lock gauges (redlock_held_locks_older_than, ..._expiring_within) and of
    // the hold-duration histogram (ageBuckets).
    static const QList<double>& ageBuckets();
    static const QList<double>& validityBuckets();

private:
    // 16 bytes a key beside its key in m_keys (before, 48 and a copy of the held token: about 100 bytes of heap a key
    // at 1M held locks). The token a hold is about is kept with the hold (m_holdTokens), not here.
    struct KeyState
    {
        LockVerdict verdict = LockVerdict::Unknown;
        int holders = 0;
        qsizetype hold = -1; // its Hold in m_holds while a token holds it (Unknown included); -1 not held
    };
    // The token a hold is about, only to tell whether a later view is the same holder (exactly: no hash, no prefix).
    // This project's tokens ("rl1:", 32 lower-case hex digits, ":<rest>") as the digits' 16 bytes and their rest,
    // which is the same for every lock one client takes and shared (m_tokenRests), as AlertMonitor keeps them; any
    // other token whole in `rest`, sharing the view's buffer (kHoldRl1 in m_holdFlags tells which).
    struct HoldToken
    {
        QByteArray rest;
        rl1::Digits digits{};
    };
    // A hold's times, in one dense array that a scrape walks (at 1M locks, walking the keys' hash for them took about
    // 150 ms a scrape), 16 bytes each; beside it, in arrays of their own, whose hold it is (to move the last hold into
    // a freed place) and whether it counts now (Unknown keeps the hold, its start for when it is held again, but does
    // not count it).
    struct Hold
    {
        qint64 sinceNs = 0;       // steady instant the current token was first seen holding the lock
        qint64 validityEndNs = 0; // steady instant its observed validity runs out
    };
    void apply(const LockView& view);
    void forget(const QByteArray& key, qint64 atNs);
    void endHold(const Hold& hold, qint64 atNs);
    void freeHold(qsizetype index);
    void insertKey(const QByteArray& key, const KeyState& state);
    void keepToken(qsizetype hold, const QByteArray& token);
    bool holdTokenIs(qsizetype hold, const QByteArray& token) const;
    void runAudit();
    // A count of commands a connection sent, exported as a counter that never goes down: a new connection
    // (reconnect) starts again from 0, which adds to the total instead of lowering it.
    struct CommandCounter
    {
        quint64 lastWritten = 0;
        quint64 total = 0;
        bool known = false;
        void advance(quint64 written);
    };

    ExporterOptions m_options;
    std::shared_ptr<SteadyClock> m_clock;
    QList<QString> m_nodeNames; // printable
    QList<NodeFacts> m_facts;
    QList<int> m_quarantined;
    QList<CommandCounter> m_sessionCommands;
    QList<CommandCounter> m_inspectorCommands;
    QList<quint64> m_restarts;
    QList<ObserverLoad> m_load; // empty until the first report
    QList<int> m_locksPerNode;
    QList<AuditFinding> m_findings;
    bool m_externalFindings = false;
    qint64 m_largestPttlMs = 0;

    QHash<QByteArray, KeyState> m_keys;
    std::vector<Hold> m_holds;
    std::vector<QByteArray> m_holdKeys;
    std::vector<HoldToken> m_holdTokens;
    // Per hold: kHoldCounted (it counts now: not Unknown), kHoldRl1 (its token is kept as rl1 digits and rest).
    static constexpr quint8 kHoldCounted = 1;
    static constexpr quint8 kHoldRl1 = 2;
    std::vector<quint8> m_holdFlags;
    // The rests of the rl1 tokens kept (one per client process), each once; those no hold keeps any more are let go
    // when the set has grown to twice its size after the last sweep.
    QSet<QByteArray> m_tokenRests;
    qsizetype m_tokenRestsSwept = 0;
    QMap<LockVerdict, int> m_verdictCounts;
    QSet<QByteArray> m_withoutExpiry; // keys with a lock value without expiry on some node (LockView::noExpiryNodes)
    QMap<LockEvent::Kind, quint64> m_eventCounts;
    PrometheusText::Histogram m_holdDurations;

    // --key-labels: the per-key series in key order (the first maxKeySeries distinct printable keys, and how many were
    // left out), made again only when the set of keys changed since (m_keySetGeneration: a key came or went), not at
    // every scrape: at 1M keys escaping and sorting them all took most of a scrape. A verdict or holders changed is
    // read from m_keys at the scrape.
    struct KeySeries
    {
        quint64 generation = 0;
        bool made = false;
        QList<std::pair<QString, QByteArray>> first; // printable key, key
        qsizetype dropped = 0;
    };
    quint64 m_keySetGeneration = 0;
    mutable KeySeries m_keySeries;

    quint64 m_inspections = 0;
    InspectionSummary m_lastInspection;
};

} // namespace redlock
