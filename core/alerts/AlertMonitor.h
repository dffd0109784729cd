#pragma once

#include "observe/ObservationTypes.h"
#include "redlock/RedlockRules.h"
#include "redlock/Rl1Digits.h"
#include "runtime/SteadyClock.h"
#include "runtime/WallClock.h"

#include <QExplicitlySharedDataPointer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <array>
#include <memory>
#include <optional>

namespace redlock {

// What an alert watches for. Each rule is raised once its condition has lasted the rule's threshold.
enum class AlertRule {
    LockHeld,         // one token has held a lock key (held / expiring) for longer than the threshold
    LockContested,    // a key has been contested (several tokens, none on a quorum) for longer than the threshold
    MinorityLeftover, // a minority leftover (one token below quorum) older than the threshold
    QuorumLost,       // fewer than a quorum of the nodes are up (quarantined ones are not counted)
    NodeDown,         // a node has been unreachable (or refusing the handshake) for longer than the threshold
    SevereFinding,    // the safety audit has a severe finding
    ClockOffset,      // a node's clock offset is beyond the drift budget (rules::clockDriftMs of the max TTL)
};
constexpr int kAlertRuleCount = 7;

QString alertRuleName(AlertRule rule); // translated
QString alertRuleId(AlertRule rule);   // stable: "lock-held", "node-down", ...
std::optional<AlertRule> alertRuleFromId(const QString& id);

// Per rule: on or off and how long its condition must last before the alert is raised; and how long a
// condition must be gone before its alert clears (hysteresis: a condition that flickers raises one alert,
// not one per flicker).
struct AlertThresholds
{
    std::array<bool, kAlertRuleCount> enabled{true, true, true, true, true, true, true};
    std::array<qint64, kAlertRuleCount> afterMs{
        5 * 60 * 1000, // LockHeld: held longer than 5 minutes
        30 * 1000,     // LockContested: contested for 30 s
        60 * 1000,     // MinorityLeftover: a leftover older than a minute
        5 * 1000,      // QuorumLost: 5 s (a reconnect is no alert)
        10 * 1000,     // NodeDown: 10 s
        0,             // SevereFinding: at once
        10 * 1000,     // ClockOffset: 10 s (one noisy TIME sample is no alert)
    };
    qint64 clearAfterMs = 5000; // a raised alert clears when its condition has been gone this long
    // An active alert nobody acknowledged notifies again after this long; 0 = once only.
    qint64 repeatAfterMs = 30 * 60 * 1000;

    bool isEnabled(AlertRule rule) const { return enabled[static_cast<size_t>(rule)]; }
    qint64 after(AlertRule rule) const { return afterMs[static_cast<size_t>(rule)]; }
    void set(AlertRule rule, bool on, qint64 ms)
    {
        enabled[static_cast<size_t>(rule)] = on;
        afterMs[static_cast<size_t>(rule)] = ms;
    }
    friend bool operator==(const AlertThresholds&, const AlertThresholds&) = default;
};

struct Alert
{
    AlertRule rule = AlertRule::NodeDown;
    // Stable identity: the rule plus what it is about (a lock key, a node, an audit rule and its nodes, or
    // nothing for the cluster). The same condition raised again has the same id.
    QByteArray id;          // "<rule id>:<subject>"
    QByteArray subject;     // "key:<lock key, raw bytes>", "node:<n>" (0-based), "audit:<rule>:<nodes>", or empty
    QByteArray key;         // lock rules
    int node = -1;          // NodeDown, ClockOffset
    QString message;        // translated, printable (keys and server text escaped)
    qint64 sinceMs = 0;     // wall clock: when the condition began (as first observed)
    qint64 raisedAtMs = 0;  // wall clock
    qint64 clearedAtMs = 0; // wall clock; 0 = active
    bool acknowledged = false;
    int notifications = 0; // how often it notified (0: muted or acknowledged since it was raised)
    // A group: many alerts of one rule raised together (a leftover on every key after a node restart) are one
    // alert, "<rule id>:group", subject "group:<rule id>". count: the conditions it stands for now (1 for a single
    // alert); examples: a few of them, the first in order (their lock keys, raw bytes, or their subjects).
    bool group = false;
    int count = 1;
    QByteArrayList examples;

    bool isActive() const { return clearedAtMs == 0; }
};

struct AlertMonitorOptions
{
    int nodeCount = 0;
    QStringList nodeNames; // display names, one per node (empty: "node N")
    double driftFactor = rules::kDefaultDriftFactor;
    qint64 maxTtlMs = 0; // the largest TTL in use (the audit's: ClusterWatch::auditMaxTtlMs); 0 = unknown: defaultTtlMs
    qint64 defaultTtlMs = rules::kDefaultMaxTtlMs; // as AuditInput::defaultTtlMs
    AlertThresholds thresholds;
    // This many alerts of one rule (or more) to raise in one evaluation are raised as one group alert, and while it
    // is active, new alerts of its rule join it (its count goes up; no new row, no new notification). 0 = never.
    int groupAtCount = 10;
    int evaluateIntervalMs = 1000;        // the timer that lets time thresholds pass; 0 = only evaluate() calls
    std::shared_ptr<SteadyClock> clock;   // null = SteadyClock::system(): every duration
    std::shared_ptr<WallClock> wallClock; // null = WallClock::system(): the times shown
};

// Turns what the console (or `redlock watch`) observes into alerts: LockInspector's change sets, the
// NodeSessions' facts (with the nodes a delayed restart keeps out), the safety audit's findings. Pure
// evaluation, no I/O: it lives on its consumer's thread and is fed through the apply/set members.
//
// An alert is raised once, when its condition has lasted the rule's threshold, and cleared when the condition
// has been gone for clearAfterMs; meanwhile a condition that goes and comes back keeps the one alert (the
// threshold only decides raising: back for a moment is back, whatever the threshold). How long a lock has been held,
// contested or left over counts from when this monitor first saw it so (a lock already held when watching began counts
// from then). notify() says when to tell a person: on raising, unless the alert is muted (per rule or per subject, for
// a while) or acknowledged, and again every repeatAfterMs while nobody acknowledged it. Muted and acknowledged alerts
// are still raised, listed and cleared.
//
// An alert storm is grouped: when groupAtCount alerts of one rule or more would be raised in the same evaluation,
// one group alert stands for them (Alert::group, with a count and a few examples); its members are followed as
// single alerts are (they clear when their condition is gone) but not listed, raised or notified one by one. The
// group changes (alertChanged) as members join or clear, and clears with its last member.
class AlertMonitor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertMonitor)

public:
    explicit AlertMonitor(AlertMonitorOptions options, QObject* parent = nullptr);
    ~AlertMonitor() override;

    const AlertMonitorOptions& options() const { return m_options; }
    const AlertThresholds& thresholds() const { return m_options.thresholds; }
    void setThresholds(const AlertThresholds& thresholds);
    // The max TTL behind the drift budget (the audit's: ClusterWatch::auditMaxTtlMs()).
    void setMaxTtlMs(qint64 ms);
    qint64 clockBudgetMs() const;

    // Inputs.
    void applyLocks(const LockChangeSet& changes);
    void clearLocks();
    void setNodeFacts(const NodeFacts& facts);
    void setQuarantined(const QList<int>& nodes);
    void setFindings(const QList<AuditFinding>& findings);

    // Active alerts, oldest first (a group once, not its members).
    QList<Alert> alerts() const;
    std::optional<Alert> alert(const QByteArray& id) const; // a single alert or a group, not a group's member
    // The group alert of a rule: "<rule id>:group".
    static QByteArray groupId(AlertRule rule);
    // Whether a condition is active now as a member of its rule's group (not listed on its own).
    bool isGrouped(const QByteArray& id) const;

    // The operator has seen it: it stays listed and active, and stops notifying. False: no such active alert.
    bool acknowledge(const QByteArray& id);
    // No notification for the rule, or for everything about one subject (a lock key, a node), for forMs.
    void muteRule(AlertRule rule, qint64 forMs);
    void muteSubject(const QByteArray& subject, qint64 forMs); // Alert::subject; forMs 0 = unmute
    static QByteArray keySubject(const QByteArray& key);
    static QByteArray nodeSubject(int node);
    void unmuteAll();
    bool isMuted(const Alert& alert) const;
    // Remaining mute of a rule / subject, 0 = not muted.
    qint64 ruleMutedForMs(AlertRule rule) const;
    qint64 subjectMutedForMs(const QByteArray& subject) const;
    // Lock states the evaluations looked at so far: what they cost. Until a lock's rule's threshold can have passed,
    // an evaluation looks at the alerted locks only, not at every lock.
    qint64 lockStatesLooked() const { return m_lockStatesLooked; }

public slots:
    // Raises and clears what the inputs and the passing time call for (the timer calls it too).
    void evaluate();

signals:
    void alertRaised(const redlock::Alert& alert);
    void alertCleared(const redlock::Alert& alert);
    // Acknowledged, or its notification count changed.
    void alertChanged(const redlock::Alert& alert);
    // Tell a person now (a desktop notification). repeat: a reminder of an alert nobody acknowledged.
    void notify(const redlock::Alert& alert, bool repeat);
    // A mute was set or lifted, or ran out.
    void mutesChanged();

private:
    // A token as the monitor keeps it, per lock and per alert, in 25 bytes (a lock's state keeps its small fields in
    // the rest of the struct's 32): this project's tokens ("rl1:", 32 lowercase hex digits, ":<pid>:<host>:<client>")
    // as the 16 bytes of their digits and their rest, which is the same for every lock one client takes and shared
    // (m_tokenRests); node-redlock's (32 lowercase hex digits) as their digits alone; any other token whole, in a rest
    // of its own (a heap block of 48 bytes: 24 more a lock than a QByteArray sharing the view's buffer, for Redsync's,
    // Redisson's and uuid tokens). Exact: token() gives it back, and == is the tokens' equality. (Before, a large watch
    // kept each lock's token in a buffer of its own: 80 bytes of heap a lock that only the monitor kept; then a
    // QByteArray of 24 bytes in each lock's state.)
    struct KeptToken
    {
        struct Rest : QSharedData
        {
            QByteArray bytes;
        };
        enum Form : quint8 { Whole, Rl1, Hex32 };

        QExplicitlySharedDataPointer<Rest> rest; // Rl1: the part after the digits (from ':' on); Whole: the token
        rl1::Digits digits{};                    // Rl1, Hex32: the 32 digits, two a byte (core/redlock/Rl1Digits.h)
        Form form = Whole;

        QByteArray token() const;
        friend bool operator==(const KeptToken& a, const KeptToken& b)
        {
            return a.form == b.form && a.digits == b.digits &&
                   (a.rest == b.rest || (a.rest && b.rest && a.rest->bytes == b.rest->bytes));
        }
    };
    struct Condition
    {
        AlertRule rule = AlertRule::NodeDown;
        QByteArray subject;
        QByteArray key;
        int node = -1;
        qint64 sinceNs = 0;
        qint64 sinceMs = 0;
        QString message;
        KeptToken token; // LockHeld, MinorityLeftover: whose hold or leftover it is
    };
    // One per lock held, contested or left over (100,000 in a large watch): 40 bytes, no text of its own. The holder's
    // summary is made again from the key and the token when a message is (holderOf).
    struct LockState
    {
        [[no_unique_address]] KeptToken token;              // the small fields below sit in its tail
        quint8 ruleIndex : 2 = quint8(AlertRule::LockHeld); // LockHeld, LockContested or MinorityLeftover
        // MinorityLeftover of a value without expiry (LockView::noExpiryNodes on fewer than a quorum): it never goes
        // away by itself, so it is raised at once, not after the rule's threshold.
        bool noExpiry : 1 = false;
        // This condition is its rule's group's member (attached): present while this state lasts, with nothing to do
        // in an evaluation; replaced by another condition or removed, the member is detached (putLock).
        bool member : 1 = false;
        quint8 holders = 0;    // (at most 255 counted)
        quint8 tokenCount = 0; // (at most 255 counted)
        // The wall instant it began (as first observed), as its difference from what the steady instant gives
        // (sinceMsOf): 0 unless the wall clock was set since the monitor started.
        qint32 sinceMsDelta = 0;
        qint64 sinceNs = 0;

        AlertRule rule() const { return static_cast<AlertRule>(ruleIndex); }
    };
    static_assert(sizeof(LockState) <= 40, "one per lock: keep it small");
    qint64 sinceMsOf(const LockState& s) const { return s.sinceNs / 1'000'000 + m_wallMinusSteadyMs + s.sinceMsDelta; }
    void setSince(LockState* s, qint64 sinceNs, qint64 sinceMs) const;
    // A lock's condition to raise in this evaluation (its state is looked up again then): its alert's texts are made
    // only for a single alert. A storm raises 100,000 at once as one group, whose members need none of them.
    struct FreshLock
    {
        QByteArray key;
        AlertRule rule = AlertRule::LockHeld;
        bool noExpiry = false; // in m_noExpiry, not m_locks
    };
    // A single alert, or a group (its members are in m_groups).
    struct Active
    {
        Alert alert;
        KeptToken token; // LockHeld, MinorityLeftover: the token the alert is about (another token: another alert)
        qint64 lastActiveNs = 0;
        qint64 lastNotifiedNs = 0;
        quint64 seen = 0; // evaluation generation the condition was last active in
    };
    // A group's members. A lock rule's are the locks' states themselves (LockState::member, "attached"): present while
    // the state lasts, nothing to keep or do per member in an evaluation; replaced by another condition or removed, a
    // member is detached (putLock), and followed until it is back or gone (followDetached). After five minutes every
    // lock held is a member: as an Active with its alert's texts, 100,000 members took 73 MB of RSS and 320 ms of CPU a
    // second. A node rule's members are followed as single alerts are (Member).
    struct Detached
    {
        KeptToken token; // the hold's or leftover's (another token on the key: another condition)
        qint64 lastActiveNs = 0;
        qint64 sinceMs = 0;
    };
    struct Member
    {
        quint64 seen = 0; // evaluation generation the condition was last active in
        qint64 lastActiveNs = 0;
        qint64 sinceMs = 0;
    };
    // A rule's group alert's members, and its summary kept as they join: made again from all of them only when a
    // member it names (an example, or the earliest) leaves.
    struct Group
    {
        qsizetype attached = 0; // lock rules: the states with LockState::member of this rule
        QHash<QByteArray, Detached>
            detached; // lock rules: members gone for now, by key (back within the hysteresis: kept)
        QHash<QByteArray, Member> members; // node rules, by subject
        QByteArrayList examples;           // the first few member names (keys, or subjects), in order
        qint64 sinceMs = 0;                // the earliest member's
        qsizetype atSince = 0;             // members that started then (as far as followed)
        bool stale = false;                // examples and sinceMs are to be made again
        bool changed = false;              // members joined or left in this evaluation

        qsizetype count() const { return attached + detached.size() + members.size(); }
    };

    void applyLock(const LockView& view);
    void applyNoExpiry(const LockView& view);
    // The lock states an evaluation looks at: every one not a group's member when `walk`, else only those of `alerted`
    // (the keys with a single alert). A walk notes in m_lockWalkDueNs when the next one can find something to raise.
    // `other`: the key's other state (m_noExpiry beside m_locks, and the other way round).
    void evaluateLocks(const QHash<QByteArray, LockState>& locks, const QHash<QByteArray, LockState>& other,
                       qint64 nowNs, const QSet<QByteArray>& alerted, bool walk, QList<FreshLock>* fresh);
    // The steady instant from which the state can be raised (its rule's threshold passed; a leftover without expiry
    // at once); the largest instant when its rule is switched off.
    qint64 raisableAtNs(const LockState& s) const;
    // The key's states of the rule that are no group's member, passed over while another state of the key stood for
    // them (evaluateLocks): the walk is due when they can be raised.
    void lookAgainAt(AlertRule rule, const QByteArray& key);
    void updateCondition(QHash<QByteArray, Condition>& into, Condition c);
    void recomputeNodeConditions();
    // A node's or the cluster's condition: active already (alone or as a member), still present. Else it goes into
    // fresh, raised (alone or grouped) by raise().
    void consider(const Condition& c, qint64 nowNs, QList<Condition>* fresh);
    void raise(const QList<Condition>& fresh, const QList<FreshLock>& freshLocks, qint64 nowNs);
    void raiseOne(const Condition& c, qint64 nowNs);
    static bool isLockRule(AlertRule rule)
    {
        return rule == AlertRule::LockHeld || rule == AlertRule::LockContested || rule == AlertRule::MinorityLeftover;
    }
    // A member joined (counted already) or left its rule's group: the summary follows.
    void joined(AlertRule rule, const QByteArray& name, qint64 sinceMs);
    void left(AlertRule rule, const QByteArray& name, qint64 sinceMs);
    void updateGroup(AlertRule rule, Active& group);
    // Keeps `next` as the key's state in `map` (null: removes it), following the group's member attached to the state
    // it replaces: the same condition goes on attached; anything else detaches it.
    void putLock(QHash<QByteArray, LockState>& map, const QByteArray& key, LockState* next);
    // The detached members of a lock rule: attached again, or gone.
    void followDetached(AlertRule rule, qint64 nowNs);
    // Every member of a rule leaves (its rule was switched off, or its group cleared).
    void dropMembers(AlertRule rule);
    void clearActive(const QByteArray& id);
    // A single-shot timer to the earliest mute's end: mutesChanged when one runs out (the "muted" state shown
    // ends then, not at the next change of something else).
    void armMuteTimer();
    void onMuteTimer();
    void maybeNotify(Active& a, qint64 nowNs);
    QString lockMessage(const QByteArray& key, const LockState& s) const;
    QString holderOf(const QByteArray& key, const LockState& s) const;
    QString nodeName(int node) const;
    // Keeps `token` in `into`: an rl1 token's rest is the one copy of m_tokenRests.
    void keepToken(const QByteArray& token, KeptToken* into);
    qint64 nowNs() const { return m_clock->nowNs(); }
    qint64 wallMs() const { return m_wall->nowMs(); }

    AlertMonitorOptions m_options;
    std::shared_ptr<SteadyClock> m_clock;
    std::shared_ptr<WallClock> m_wall;
    qint64 m_wallMinusSteadyMs = 0;          // at the start: what LockState::sinceMsDelta is counted from
    QHash<QByteArray, LockState> m_locks;    // keys held, contested or left over: since when
    QHash<QByteArray, LockState> m_noExpiry; // keys with a value without expiry on a minority: since when
    // The rests of the rl1 tokens kept (one per client process), each once; those no lock keeps any more are let go
    // when the set has grown to twice its size after the last sweep.
    QHash<QByteArray, QExplicitlySharedDataPointer<KeptToken::Rest>> m_tokenRests;
    qsizetype m_tokenRestsSwept = 0;
    // The holders of m_locks' holds whose summary the token does not give: a hash's (Redisson's, with its
    // reentrancy count), made from the hash's fields. Only those are kept as text.
    QHash<QByteArray, QString> m_hashHolders;
    QHash<QByteArray, Condition> m_nodeConditions; // node down, quorum lost, clock offset, severe findings
    QList<NodeFacts> m_facts;
    QList<bool> m_seen; // per node: reported once as something other than Connecting
    QList<int> m_quarantined;
    QList<AuditFinding> m_findings;
    QHash<QByteArray, Active> m_active;          // by alert id: single alerts and groups
    QList<QByteArray> m_order;                   // active ids, oldest first
    std::array<Group, kAlertRuleCount> m_groups; // per rule: the members of its group alert while that is active
    std::array<qint64, kAlertRuleCount> m_ruleMutedUntilNs{};
    QHash<QByteArray, qint64> m_subjectMutedUntilNs;
    quint64 m_generation = 0;
    // Until this steady instant no lock state that is neither alerted alone nor a group's member can be raised: an
    // evaluation before it looks at the alerted keys only, not at every lock (at 1M held locks, about 50 ms of the GUI
    // thread every second for the first five minutes). Made earlier by every state put (putLock), 0 (walk at the next
    // evaluation) when the thresholds change or a group lets its members go.
    qint64 m_lockWalkDueNs = 0;
    // Lock states looked at by the evaluations so far (for tests and benchmarks: what an evaluation costs).
    qint64 m_lockStatesLooked = 0;
    QTimer m_timer;
    QTimer m_muteTimer;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::Alert)
