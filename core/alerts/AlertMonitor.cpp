#include "alerts/AlertMonitor.h"

#include "redlock/RedlockRules.h"
#include "redlock/Rl1Digits.h"
#include "runtime/HumanUnits.h"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <utility>

namespace redlock {

namespace {

constexpr std::array<const char*, kAlertRuleCount> kRuleIds{
    "lock-held", "lock-contested", "minority-leftover", "quorum-lost", "node-down", "severe-finding", "clock-offset",
};

size_t index(AlertRule rule)
{
    return static_cast<size_t>(rule);
}

quint8 smallCount(int n)
{
    return static_cast<quint8>(std::clamp(n, 0, int(std::numeric_limits<quint8>::max())));
}

// Whether the view's holder was decoded from a hash's fields (judgeLock: those of the first node holding the token),
// not from the token: then its summary (Redisson's reentrancy count) cannot be made again from the key and token.
bool holderFromHash(const LockView& view)
{
    for (const NodeLockState& s : view.nodes) {
        if (s.presence == NodeLockState::Presence::Holding && s.token == view.token)
            return !s.hashFields.isEmpty();
    }
    return false;
}

} // namespace

QByteArray AlertMonitor::KeptToken::token() const
{
    switch (form) {
    case Whole:
        return rest ? rest->bytes : QByteArray();
    case Hex32: {
        QByteArray out(rl1::kDigits, Qt::Uninitialized);
        rl1::writeDigits(out.data(), digits.data());
        return out;
    }
    case Rl1:
        break;
    }
    const QByteArray& tail = rest ? rest->bytes : QByteArray();
    QByteArray out(rl1::kDigitsEnd + tail.size(), Qt::Uninitialized);
    rl1::writeHead(out.data(), digits.data());
    std::copy(tail.cbegin(), tail.cend(), out.begin() + rl1::kDigitsEnd);
    return out;
}

void AlertMonitor::keepToken(const QByteArray& token, KeptToken* into)
{
    into->form = KeptToken::Whole;
    into->digits = {};
    into->rest.reset();
    rl1::Digits digits;
    if (rl1::splitDigits(token, &digits)) {
        into->form = KeptToken::Hex32;
        into->digits = digits;
        return;
    }
    if (!rl1::split(token, &digits)) {
        if (!token.isEmpty()) {
            into->rest = new KeptToken::Rest;
            into->rest->bytes = token;
        }
        return;
    }
    into->form = KeptToken::Rl1;
    into->digits = digits;
    // Looked up without a copy (the raw data is the token's, only for the lookup).
    const qsizetype from = rl1::kDigitsEnd;
    const QByteArray rest = QByteArray::fromRawData(token.constData() + from, token.size() - from);
    if (const auto it = m_tokenRests.constFind(rest); it != m_tokenRests.cend()) {
        into->rest = *it;
        return;
    }
    // A rest no lock keeps any more (its client's locks are gone) is only held by the set: let go now and then.
    if (m_tokenRests.size() >= 2 * m_tokenRestsSwept + 64) {
        m_tokenRests.removeIf([](QHash<QByteArray, QExplicitlySharedDataPointer<KeptToken::Rest>>::iterator r) {
            return r.value()->ref.loadRelaxed() == 1;
        });
        m_tokenRestsSwept = m_tokenRests.size();
    }
    auto* kept = new KeptToken::Rest;
    kept->bytes = QByteArray(rest.constData(), rest.size());
    into->rest = kept;
    m_tokenRests.insert(kept->bytes, into->rest);
}

QByteArray AlertMonitor::keySubject(const QByteArray& key)
{
    return QByteArrayLiteral("key:") + key;
}

QByteArray AlertMonitor::nodeSubject(int node)
{
    return QByteArrayLiteral("node:") + QByteArray::number(node);
}

QString alertRuleName(AlertRule rule)
{
    switch (rule) {
    case AlertRule::LockHeld:
        return AlertMonitor::tr("lock held too long");
    case AlertRule::LockContested:
        return AlertMonitor::tr("lock contested");
    case AlertRule::MinorityLeftover:
        return AlertMonitor::tr("minority leftover");
    case AlertRule::QuorumLost:
        return AlertMonitor::tr("quorum lost");
    case AlertRule::NodeDown:
        return AlertMonitor::tr("node down");
    case AlertRule::SevereFinding:
        return AlertMonitor::tr("severe audit finding");
    case AlertRule::ClockOffset:
        return AlertMonitor::tr("clock offset");
    }
    return {};
}

QString alertRuleId(AlertRule rule)
{
    return QString::fromLatin1(kRuleIds[index(rule)]);
}

std::optional<AlertRule> alertRuleFromId(const QString& id)
{
    for (int i = 0; i < kAlertRuleCount; ++i) {
        if (id == QLatin1String(kRuleIds[static_cast<size_t>(i)]))
            return static_cast<AlertRule>(i);
    }
    return std::nullopt;
}

AlertMonitor::AlertMonitor(AlertMonitorOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options)),
      m_clock(m_options.clock ? m_options.clock : SteadyClock::system()),
      m_wall(m_options.wallClock ? m_options.wallClock : WallClock::system())
{
    qRegisterMetaType<Alert>();
    m_facts.resize(m_options.nodeCount);
    for (int i = 0; i < m_options.nodeCount; ++i)
        m_facts[i].node = i;
    m_seen.fill(false, m_options.nodeCount);
    m_wallMinusSteadyMs = wallMs() - nowNs() / 1'000'000;
    if (m_options.evaluateIntervalMs > 0) {
        m_timer.setInterval(m_options.evaluateIntervalMs);
        connect(&m_timer, &QTimer::timeout, this, &AlertMonitor::evaluate);
        m_timer.start();
    }
    m_muteTimer.setSingleShot(true);
    connect(&m_muteTimer, &QTimer::timeout, this, &AlertMonitor::onMuteTimer);
}

AlertMonitor::~AlertMonitor() = default;

void AlertMonitor::setSince(LockState* s, qint64 sinceNs, qint64 sinceMs) const
{
    s->sinceNs = sinceNs;
    // Off by more than 24 days (the wall clock set that far since the start): the nearest that is kept.
    const qint64 delta = sinceMs - (sinceNs / 1'000'000 + m_wallMinusSteadyMs);
    s->sinceMsDelta = static_cast<qint32>(
        std::clamp<qint64>(delta, std::numeric_limits<qint32>::min(), std::numeric_limits<qint32>::max()));
}

void AlertMonitor::setThresholds(const AlertThresholds& thresholds)
{
    m_options.thresholds = thresholds;
    m_lockWalkDueNs = 0;
    evaluate();
}

void AlertMonitor::setMaxTtlMs(qint64 ms)
{
    if (ms == m_options.maxTtlMs)
        return;
    m_options.maxTtlMs = ms;
    recomputeNodeConditions();
}

qint64 AlertMonitor::clockBudgetMs() const
{
    // The audit's drift budget, from the same rule: the largest TTL in use times the drift factor, plus 2 ms.
    const qint64 ttl = m_options.maxTtlMs > 0 ? m_options.maxTtlMs : m_options.defaultTtlMs;
    return rules::clockDriftMs(ttl, m_options.driftFactor);
}

// ------------------------------------------------------------------------------------------------ inputs

void AlertMonitor::applyLocks(const LockChangeSet& changes)
{
    // A full pass's hand-off says how many locks it tells: room for all of them at once, not a rehash of every state
    // kept so far as the table of states doubles (at 1M held locks, one turn of 100 ms and more). Once: the states
    // the hand-off brings are among the `told` (asking for size() + told at every chunk, df749f9, rehashed the
    // reserved table again at 49,000 states; an eighth more, f2b5fdd, gave twice the buckets 1M needs).
    if (const qsizetype told = changes.handOffSize; told > 0 && m_locks.capacity() < told)
        m_locks.reserve(told);
    for (const LockView& v : changes.appeared)
        applyLock(v);
    for (const LockView& v : changes.changed)
        applyLock(v);
    for (const QByteArray& key : changes.disappeared) {
        putLock(m_locks, key, nullptr);
        putLock(m_noExpiry, key, nullptr);
        m_hashHolders.remove(key);
    }
}

void AlertMonitor::putLock(QHash<QByteArray, LockState>& map, const QByteArray& key, LockState* next)
{
    const auto it = map.find(key);
    if (it != map.end() && it->member) {
        const AlertRule rule = it->rule();
        Group& g = m_groups[index(rule)];
        if (next && next->rule() == rule && (rule == AlertRule::LockContested || next->token == it->token)) {
            next->member = true;
        } else {
            // Gone, or another condition: compared with what the key has at the next evaluation (followDetached), as a
            // single alert's is (another token there: it leaves at once).
            --g.attached;
            g.detached.insert(key, Detached{it->token, nowNs(), sinceMsOf(*it)});
        }
    }
    if (!next) {
        if (it != map.end())
            map.erase(it);
        return;
    }
    // The same condition put again (its view changed, the condition did not: an extension, Held <-> Expiring) is due
    // when it was already, or alerted (looked at as such): an alerted lock's changed view makes no walk of every lock.
    const bool sameCondition = it != map.end() && !it->member && !next->member && it->rule() == next->rule() &&
                               it->noExpiry == next->noExpiry && it->sinceNs == next->sinceNs;
    if (!next->member && !sameCondition)
        m_lockWalkDueNs = std::min(m_lockWalkDueNs, raisableAtNs(*next));
    if (it != map.end())
        *it = *next;
    else
        map.insert(key, *next);
}

qint64 AlertMonitor::raisableAtNs(const LockState& s) const
{
    const AlertThresholds& t = m_options.thresholds;
    constexpr qint64 never = std::numeric_limits<qint64>::max();
    if (!t.isEnabled(s.rule()))
        return never;
    if (s.noExpiry)
        return s.sinceNs;
    const qint64 afterMs = std::max<qint64>(0, t.after(s.rule()));
    return afterMs >= (never - std::max<qint64>(0, s.sinceNs)) / 1'000'000 ? never : s.sinceNs + afterMs * 1'000'000;
}

void AlertMonitor::lookAgainAt(AlertRule rule, const QByteArray& key)
{
    for (const QHash<QByteArray, LockState>* map : {&m_locks, &m_noExpiry}) {
        if (const auto s = map->constFind(key); s != map->cend() && s->rule() == rule && !s->member)
            m_lockWalkDueNs = std::min(m_lockWalkDueNs, raisableAtNs(*s));
    }
}

void AlertMonitor::followDetached(AlertRule rule, qint64 now)
{
    Group& g = m_groups[index(rule)];
    if (!m_options.thresholds.isEnabled(rule)) {
        dropMembers(rule);
        return;
    }
    const qint64 clearAfterMs = m_options.thresholds.clearAfterMs;
    for (auto d = g.detached.begin(); d != g.detached.end();) {
        // Its condition back (the same token's hold or leftover, or a contest): attached again, as a single alert
        // stays through a flicker. Another token's: that holder's, a new condition. Else gone after the hysteresis.
        LockState* back = nullptr;
        bool another = false;
        bool attachedStill = false; // through the key's other state (a leftover without expiry beside one with)
        for (QHash<QByteArray, LockState>* map : {&m_locks, &m_noExpiry}) {
            const auto s = map->find(d.key());
            if (s == map->end() || s->rule() != rule)
                continue;
            if (s->member) {
                attachedStill = true;
                break;
            }
            if (rule == AlertRule::LockContested || s->token == d->token) {
                back = &*s;
                break;
            }
            another = true;
        }
        if (attachedStill) {
            d = g.detached.erase(d);
            g.changed = true;
        } else if (back) {
            back->member = true;
            ++g.attached;
            // Followed from the state now, whose start is the flicker's end: the summary's earliest may move on.
            if (d->sinceMs <= g.sinceMs && --g.atSince <= 0)
                g.stale = true;
            d = g.detached.erase(d);
        } else if (another || (now - d->lastActiveNs) / 1'000'000 >= clearAfterMs) {
            // Another token's state of the rule on the key, passed over while this one was a member (evaluateLocks).
            if (another)
                lookAgainAt(rule, d.key());
            const QByteArray key = d.key();
            const qint64 sinceMs = d->sinceMs;
            d = g.detached.erase(d);
            left(rule, key, sinceMs);
        } else {
            ++d;
        }
    }
}

void AlertMonitor::dropMembers(AlertRule rule)
{
    Group& g = m_groups[index(rule)];
    if (g.count() == 0)
        return;
    if (g.attached > 0) {
        m_lockWalkDueNs = 0; // the states let go are looked at again
        for (QHash<QByteArray, LockState>* map : {&m_locks, &m_noExpiry}) {
            for (LockState& s : *map) {
                if (s.rule() == rule)
                    s.member = false;
            }
        }
    }
    g.attached = 0;
    g.detached.clear();
    g.members.clear();
    g.examples.clear();
    g.stale = false;
    g.changed = true;
}

void AlertMonitor::clearLocks()
{
    const qint64 now = nowNs();
    for (QHash<QByteArray, LockState>* map : {&m_locks, &m_noExpiry}) {
        for (auto it = map->cbegin(); it != map->cend(); ++it) {
            if (!it->member)
                continue;
            Group& g = m_groups[index(it->rule())];
            --g.attached;
            g.detached.insert(it.key(), Detached{it->token, now, sinceMsOf(*it)});
        }
    }
    m_locks.clear();
    m_noExpiry.clear();
    m_hashHolders.clear();
}

void AlertMonitor::applyNoExpiry(const LockView& view)
{
    // A value without expiry on a minority, as the verdict (Stuck) or beside a live quorum of another token: it
    // never goes away and costs the key a node of fault tolerance for good. On a quorum it is a hold (LockHeld).
    if (view.noExpiryNodes.isEmpty() || view.noExpiryNodes.size() >= view.quorum) {
        if (view.verdict != LockVerdict::Unknown) // cannot tell: what was seen before still stands
            putLock(m_noExpiry, view.key, nullptr);
        return;
    }
    LockState next;
    next.ruleIndex = quint8(AlertRule::MinorityLeftover);
    next.noExpiry = true;
    keepToken(view.noExpiryToken, &next.token);
    next.holders = smallCount(int(view.noExpiryNodes.size()));
    next.tokenCount = smallCount(view.tokenCount);
    const auto it = m_noExpiry.constFind(view.key);
    if (it != m_noExpiry.cend() && it->token == next.token) {
        next.sinceNs = it->sinceNs;
        next.sinceMsDelta = it->sinceMsDelta;
    } else {
        setSince(&next, nowNs(), wallMs());
    }
    putLock(m_noExpiry, view.key, &next);
}

void AlertMonitor::applyLock(const LockView& view)
{
    applyNoExpiry(view);
    AlertRule rule = AlertRule::LockHeld;
    switch (view.verdict) {
    case LockVerdict::Held:
    case LockVerdict::Expiring:
        rule = AlertRule::LockHeld;
        break;
    case LockVerdict::Stuck:
        // A value without expiry on a quorum is held for good: the longest hold of all. On a minority it is a
        // leftover without expiry (applyNoExpiry).
        if (!view.hasQuorum()) {
            putLock(m_locks, view.key, nullptr);
            m_hashHolders.remove(view.key);
            return;
        }
        rule = AlertRule::LockHeld;
        break;
    case LockVerdict::Contested:
        rule = AlertRule::LockContested;
        break;
    case LockVerdict::MinorityLeftover:
        rule = AlertRule::MinorityLeftover;
        break;
    case LockVerdict::Unknown:
        return; // too many nodes unreachable to tell: what was seen before still stands
    case LockVerdict::Free:
    case LockVerdict::ReleasedByOperator: // tombstones of a lock-delay release: nobody holds it
        putLock(m_locks, view.key, nullptr);
        m_hashHolders.remove(view.key);
        return;
    }
    LockState next;
    next.ruleIndex = quint8(rule);
    keepToken(view.token, &next.token);
    next.holders = smallCount(view.holders);
    next.tokenCount = smallCount(view.tokenCount);
    // Only a hold's message names its holder (lockMessage).
    if (rule == AlertRule::LockHeld && holderFromHash(view))
        m_hashHolders.insert(view.key, view.holder->summary);
    else
        m_hashHolders.remove(view.key);
    const auto it = m_locks.constFind(view.key);
    // The same condition goes on: held by the same token, contested, or left over by the same token.
    if (it != m_locks.cend() && it->rule() == rule && (rule == AlertRule::LockContested || it->token == next.token)) {
        next.sinceNs = it->sinceNs;
        next.sinceMsDelta = it->sinceMsDelta;
    } else {
        setSince(&next, nowNs(), wallMs());
    }
    putLock(m_locks, view.key, &next);
}

void AlertMonitor::setNodeFacts(const NodeFacts& facts)
{
    if (facts.node < 0 || facts.node >= m_facts.size())
        return;
    m_facts[facts.node] = facts;
    if (facts.health != NodeHealth::Connecting)
        m_seen[facts.node] = true;
    recomputeNodeConditions();
}

void AlertMonitor::setQuarantined(const QList<int>& nodes)
{
    m_quarantined = nodes;
    recomputeNodeConditions();
}

void AlertMonitor::setFindings(const QList<AuditFinding>& findings)
{
    m_findings = findings;
    recomputeNodeConditions();
}

QString AlertMonitor::nodeName(int node) const
{
    const QString name = m_options.nodeNames.value(node);
    return name.isEmpty() ? tr("node %1").arg(node + 1) : tr("node %1 (%2)").arg(node + 1).arg(name);
}

void AlertMonitor::updateCondition(QHash<QByteArray, Condition>& into, Condition c)
{
    const QByteArray id = alertRuleId(c.rule).toLatin1() + ':' + c.subject;
    const auto old = m_nodeConditions.constFind(id);
    if (old != m_nodeConditions.cend()) {
        c.sinceNs = old->sinceNs;
        c.sinceMs = old->sinceMs;
    } else {
        c.sinceNs = nowNs();
        c.sinceMs = wallMs();
    }
    into.insert(id, c);
}

void AlertMonitor::recomputeNodeConditions()
{
    QHash<QByteArray, Condition> next;
    const qint64 budgetMs = clockBudgetMs();
    // Out: known down (reported as something other than Up after its first connect) or kept down by a delayed
    // restart. A node still on its first connect is not known down yet. Names of one server (one run_id) count once,
    // as in ClusterWatch::nodesUp and redlock_servers_up.
    QList<QByteArray> runIds;
    QList<int> notOut;
    runIds.reserve(m_facts.size());
    for (int n = 0; n < m_facts.size(); ++n) {
        const NodeFacts& f = m_facts[n];
        const bool quarantined = m_quarantined.contains(n);
        runIds.append(f.runId);
        if (!quarantined && (!m_seen[n] || f.health == NodeHealth::Up))
            notOut.append(n);
        // A node kept down by a delayed restart is planned, not an alert (it still counts against the quorum).
        if (m_seen[n] && f.health != NodeHealth::Up && !quarantined) {
            Condition c;
            c.rule = AlertRule::NodeDown;
            c.subject = nodeSubject(n);
            c.node = n;
            c.message =
                f.reason.isEmpty()
                    ? tr("%1 is down (%2)").arg(nodeName(n), nodeHealthName(f.health))
                    : tr("%1 is down (%2: %3)").arg(nodeName(n), nodeHealthName(f.health), printableText(f.reason));
            updateCondition(next, c);
        }
        if (f.health == NodeHealth::Up && f.clockOffsetUs && qAbs(*f.clockOffsetUs) > budgetMs * 1000) {
            Condition c;
            c.rule = AlertRule::ClockOffset;
            c.subject = nodeSubject(n);
            c.node = n;
            c.message = tr("the clock of %1 is %2 ms off, beyond the drift budget of %3 ms")
                            .arg(nodeName(n))
                            .arg(*f.clockOffsetUs / 1000)
                            .arg(budgetMs);
            updateCondition(next, c);
        }
    }
    const int quorum = rules::quorum(static_cast<int>(m_facts.size()));
    const int up = rules::distinctServers(runIds, notOut);
    if (up < quorum) {
        Condition c;
        c.rule = AlertRule::QuorumLost;
        c.message = tr("only %1 of %2 nodes are up (quorum %3): no lock can be granted or released")
                        .arg(up)
                        .arg(m_facts.size())
                        .arg(quorum);
        updateCondition(next, c);
    }
    for (const AuditFinding& finding : std::as_const(m_findings)) {
        if (finding.severity != AuditFinding::Severity::Severe)
            continue;
        Condition c;
        c.rule = AlertRule::SevereFinding;
        QByteArrayList nodes;
        QStringList names;
        for (const int n : finding.nodes) {
            nodes << QByteArray::number(n);
            names << nodeName(n);
        }
        c.subject = QByteArrayLiteral("audit:") + finding.ruleId.toLatin1() + ':' + nodes.join(',');
        c.message = names.isEmpty() ? finding.title : tr("%1: %2").arg(finding.title, names.join(QLatin1String(", ")));
        updateCondition(next, c);
    }
    m_nodeConditions = std::move(next);
}

// ------------------------------------------------------------------------------------------------ evaluation

QString AlertMonitor::holderOf(const QByteArray& key, const LockState& s) const
{
    // As the view's holder was decoded (judgeLock), from its token unless a hash's fields gave it; decoded only for a
    // message, not kept for every lock.
    QString holder;
    if (!s.noExpiry) {
        if (const auto it = m_hashHolders.constFind(key); it != m_hashHolders.cend())
            holder = *it;
    }
    const QByteArray token = s.token.token();
    if (holder.isNull())
        holder = decodeHolder(key, token).summary;
    return holder.isEmpty() ? printableBytes(token, 40) : holder;
}

QString AlertMonitor::lockMessage(const QByteArray& key, const LockState& s) const
{
    const qint64 threshold = m_options.thresholds.after(s.rule());
    switch (s.rule()) {
    case AlertRule::LockHeld:
        return tr("lock %1 held by %2 for longer than %3")
            .arg(printableBytes(key), holderOf(key, s), HumanUnits::duration(threshold));
    case AlertRule::LockContested:
        return tr("lock %1 contested by %2 tokens, none on a quorum, for longer than %3")
            .arg(printableBytes(key))
            .arg(s.tokenCount)
            .arg(HumanUnits::duration(threshold));
    case AlertRule::MinorityLeftover:
        if (s.noExpiry)
            return tr("lock %1: a value without expiry on %2 of %3 nodes (%4): it never goes away by itself")
                .arg(printableBytes(key))
                .arg(s.holders)
                .arg(m_facts.size())
                .arg(holderOf(key, s));
        return tr("lock %1: a leftover on %2 of %3 nodes, older than %4 (a failed or half-released acquire)")
            .arg(printableBytes(key))
            .arg(s.holders)
            .arg(m_facts.size())
            .arg(HumanUnits::duration(threshold));
    default:
        return {};
    }
}

void AlertMonitor::consider(const Condition& c, qint64 now, QList<Condition>* fresh)
{
    const QByteArray id = alertRuleId(c.rule).toLatin1() + ':' + c.subject;
    if (const auto it = m_active.find(id); it != m_active.end()) {
        it->lastActiveNs = now;
        it->seen = m_generation;
        return;
    }
    QHash<QByteArray, Member>& members = m_groups[index(c.rule)].members;
    if (const auto m = members.find(c.key.isEmpty() ? c.subject : c.key); m != members.end()) {
        m->lastActiveNs = now;
        m->seen = m_generation;
        return;
    }
    fresh->append(c);
}

void AlertMonitor::raiseOne(const Condition& c, qint64 now)
{
    Active a;
    a.alert.rule = c.rule;
    a.alert.id = alertRuleId(c.rule).toLatin1() + ':' + c.subject;
    a.alert.subject = c.subject;
    a.alert.key = c.key;
    a.alert.node = c.node;
    a.alert.message = c.message;
    a.alert.sinceMs = c.sinceMs;
    a.alert.raisedAtMs = wallMs();
    a.token = c.token;
    a.lastActiveNs = now;
    a.seen = m_generation;
    // Once: a key's two states of one rule found fresh together are one alert (a second raise left an id in m_order
    // that outlived the alert, an empty row).
    if (m_active.contains(a.alert.id))
        return;
    m_active.insert(a.alert.id, a);
    m_order.append(a.alert.id);
    emit alertRaised(a.alert);
}

QByteArray AlertMonitor::groupId(AlertRule rule)
{
    return alertRuleId(rule).toLatin1() + QByteArrayLiteral(":group");
}

bool AlertMonitor::isGrouped(const QByteArray& id) const
{
    // "<rule id>:<subject>"; a lock rule's member is followed by its key ("key:<key>").
    const qsizetype colon = id.indexOf(':');
    const std::optional<AlertRule> rule =
        colon < 0 ? std::nullopt : alertRuleFromId(QString::fromLatin1(id.first(colon)));
    if (!rule)
        return false;
    const QByteArray subject = id.sliced(colon + 1);
    const Group& g = m_groups[index(*rule)];
    if (!isLockRule(*rule))
        return g.members.contains(subject);
    if (!subject.startsWith("key:"))
        return false;
    const QByteArray key = subject.sliced(4);
    for (const QHash<QByteArray, LockState>* map : {&m_locks, &m_noExpiry}) {
        const auto s = map->constFind(key);
        if (s != map->cend() && s->member && s->rule() == *rule)
            return true;
    }
    return g.detached.contains(key);
}

void AlertMonitor::joined(AlertRule rule, const QByteArray& name, qint64 sinceMs)
{
    Group& g = m_groups[index(rule)];
    g.changed = true;
    if (g.stale)
        return;
    // The summary as they join: the earliest start, and the first few names in order.
    constexpr qsizetype kExamples = 3;
    if (g.count() == 1 || sinceMs < g.sinceMs) {
        g.sinceMs = sinceMs;
        g.atSince = 1;
    } else if (sinceMs == g.sinceMs) {
        ++g.atSince;
    }
    const auto at = std::lower_bound(g.examples.begin(), g.examples.end(), name);
    if (at - g.examples.begin() < kExamples && (at == g.examples.end() || *at != name)) {
        g.examples.insert(at, name);
        if (g.examples.size() > kExamples)
            g.examples.removeLast();
    }
}

void AlertMonitor::left(AlertRule rule, const QByteArray& name, qint64 sinceMs)
{
    Group& g = m_groups[index(rule)];
    g.changed = true;
    // One the summary names (the last at the earliest start, or an example): made again from all members (once, at the
    // end of the evaluation). A storm's members share their start: one of them leaving is not the last.
    if ((sinceMs <= g.sinceMs && --g.atSince <= 0) || g.examples.contains(name))
        g.stale = true;
}

void AlertMonitor::raise(const QList<Condition>& fresh, const QList<FreshLock>& freshLocks, qint64 now)
{
    std::array<QList<const Condition*>, kAlertRuleCount> byRule;
    std::array<QList<const FreshLock*>, kAlertRuleCount> locksByRule;
    for (const Condition& c : fresh)
        byRule[index(c.rule)].append(&c);
    for (const FreshLock& f : freshLocks)
        locksByRule[index(f.rule)].append(&f);
    // The lock's state as it is now (a slot of alertRaised may have changed the monitor since it was found fresh).
    // Not a member already through the key's other state (a leftover without expiry beside one with: one member).
    const auto stateOf = [this](const FreshLock& f) -> LockState* {
        QHash<QByteArray, LockState>& map = f.noExpiry ? m_noExpiry : m_locks;
        const QHash<QByteArray, LockState>& other = f.noExpiry ? m_locks : m_noExpiry;
        const auto s = map.find(f.key);
        if (s == map.end() || s->rule() != f.rule || s->member)
            return nullptr;
        const auto o = other.constFind(f.key);
        return o != other.cend() && o->member && o->rule() == f.rule ? nullptr : &*s;
    };
    for (int r = 0; r < kAlertRuleCount; ++r) {
        const QList<const Condition*>& conditions = byRule[static_cast<size_t>(r)];
        const QList<const FreshLock*>& locks = locksByRule[static_cast<size_t>(r)];
        const qsizetype count = conditions.size() + locks.size();
        if (count == 0)
            continue;
        const auto rule = static_cast<AlertRule>(r);
        const QByteArray gid = groupId(rule);
        const bool joining = m_active.contains(gid);
        if (!joining && (m_options.groupAtCount <= 0 || count < m_options.groupAtCount)) {
            for (const Condition* c : conditions)
                raiseOne(*c, now);
            for (const FreshLock* f : locks) {
                const LockState* s = stateOf(*f);
                if (!s)
                    continue;
                Condition c;
                c.rule = rule;
                c.subject = keySubject(f->key);
                c.key = f->key;
                c.sinceNs = s->sinceNs;
                c.sinceMs = sinceMsOf(*s);
                c.message = lockMessage(f->key, *s);
                if (rule != AlertRule::LockContested)
                    c.token = s->token;
                raiseOne(c, now);
            }
            continue;
        }
        // A storm (a node restart leaves a leftover on every key): one alert for all, not thousands of rows and
        // notifications. Its members are followed one by one, unlisted, so that each clears on its own.
        Group& g = m_groups[size_t(r)];
        for (const Condition* c : conditions) {
            const QByteArray& name = c->key.isEmpty() ? c->subject : c->key;
            g.members.insert(name, Member{m_generation, now, c->sinceMs});
            joined(rule, name, c->sinceMs);
        }
        for (const FreshLock* f : locks) {
            LockState* s = stateOf(*f);
            if (!s)
                continue;
            s->member = true;
            ++g.attached;
            joined(rule, f->key, sinceMsOf(*s));
        }
        if (joining)
            continue;
        Active group;
        group.alert.rule = rule;
        group.alert.id = gid;
        group.alert.subject = QByteArrayLiteral("group:") + alertRuleId(rule).toLatin1();
        group.alert.group = true;
        group.alert.raisedAtMs = wallMs();
        group.lastActiveNs = now;
        group.seen = m_generation;
        updateGroup(rule, group);
        g.changed = false; // raised with these members, not changed
        m_active.insert(gid, group);
        m_order.append(gid);
        emit alertRaised(group.alert);
    }
}

void AlertMonitor::updateGroup(AlertRule rule, Active& group)
{
    Group& g = m_groups[index(rule)];
    if (g.stale) {
        // The examples: the first members in order (of their keys, or subjects), stable while they last.
        constexpr qsizetype kExamples = 3;
        g.examples.clear();
        g.sinceMs = 0;
        bool first = true;
        const auto note = [&](const QByteArray& name, qint64 sinceMs) {
            if (first || sinceMs < g.sinceMs) {
                g.sinceMs = sinceMs;
                g.atSince = 0;
            }
            if (sinceMs == g.sinceMs)
                ++g.atSince;
            first = false;
            const auto at = std::lower_bound(g.examples.begin(), g.examples.end(), name);
            if (at - g.examples.begin() < kExamples) {
                g.examples.insert(at, name);
                if (g.examples.size() > kExamples)
                    g.examples.removeLast();
            }
        };
        if (g.attached > 0) {
            for (const QHash<QByteArray, LockState>* map : {&m_locks, &m_noExpiry}) {
                for (auto it = map->cbegin(); it != map->cend(); ++it) {
                    if (it->member && it->rule() == rule)
                        note(it.key(), sinceMsOf(*it));
                }
            }
        }
        for (auto it = g.detached.cbegin(); it != g.detached.cend(); ++it)
            note(it.key(), it->sinceMs);
        for (auto it = g.members.cbegin(); it != g.members.cend(); ++it)
            note(it.key(), it->sinceMs);
        g.stale = false;
    }
    const bool locks = isLockRule(rule);
    QStringList shown;
    for (const QByteArray& name : std::as_const(g.examples)) {
        bool isNode = false;
        const int node = !locks && name.startsWith("node:") ? name.sliced(5).toInt(&isNode) : -1;
        shown.append(isNode ? nodeName(node) : printableBytes(name, 60));
    }
    Alert& a = group.alert;
    a.count = static_cast<int>(g.count());
    a.sinceMs = g.sinceMs;
    a.examples = g.examples;
    if (a.count > shown.size())
        shown.append(QStringLiteral("…"));
    a.message = locks ? tr("%n lock(s), e.g. %1", nullptr, a.count).arg(shown.join(QLatin1String(", ")))
                      : tr("%n alert(s), e.g. %1", nullptr, a.count).arg(shown.join(QLatin1String(", ")));
}

void AlertMonitor::evaluate()
{
    ++m_generation;
    const qint64 now = nowNs();
    const AlertThresholds& t = m_options.thresholds;
    // The threshold only decides raising: a raised alert whose condition is present again stays (the
    // hysteresis), even when the condition came back too recently to have lasted the threshold once more.
    const auto present = [&](AlertRule rule, qint64 sinceNs, bool active) {
        return t.isEnabled(rule) && (active || (now - sinceNs) / 1'000'000 >= t.after(rule));
    };
    const auto isActive = [&](AlertRule rule, const QByteArray& subject) {
        return m_active.contains(alertRuleId(rule).toLatin1() + ':' + subject) ||
               m_groups[index(rule)].members.contains(subject);
    };
    for (int r = 0; r < kAlertRuleCount; ++r) {
        if (isLockRule(static_cast<AlertRule>(r)))
            followDetached(static_cast<AlertRule>(r), now);
    }
    QList<Condition> fresh;
    QList<FreshLock> freshLocks;
    // The keys with a single alert now (few): every other lock below its threshold is passed over without making its
    // alert's id (100,000 held locks took 40 ms an evaluation, every second, making ids to look up). A group's members
    // are found by their key.
    QSet<QByteArray> alerted;
    for (const Active& a : std::as_const(m_active)) {
        if (!a.alert.key.isEmpty())
            alerted.insert(a.alert.key);
    }
    const bool walk = now >= m_lockWalkDueNs;
    if (walk)
        m_lockWalkDueNs = std::numeric_limits<qint64>::max();
    // The values without expiry first: a key's leftover of each kind found fresh together is one alert, the one that
    // never goes away by itself (the other waits for it, evaluateLocks).
    evaluateLocks(m_noExpiry, m_locks, now, alerted, walk, &freshLocks);
    evaluateLocks(m_locks, m_noExpiry, now, alerted, walk, &freshLocks);
    for (const Condition& c : std::as_const(m_nodeConditions)) {
        if (present(c.rule, c.sinceNs, isActive(c.rule, c.subject)))
            consider(c, now, &fresh);
    }
    raise(fresh, freshLocks, now);
    // Clear what has been gone for clearAfterMs (at once when its rule was switched off): single alerts and node
    // rules' members (lock rules' in followDetached); a group goes with its last member.
    const auto gone = [&](AlertRule rule, quint64 seen, qint64 lastActiveNs) {
        return seen != m_generation && (!t.isEnabled(rule) || (now - lastActiveNs) / 1'000'000 >= t.clearAfterMs);
    };
    for (int r = 0; r < kAlertRuleCount; ++r) {
        const auto rule = static_cast<AlertRule>(r);
        QHash<QByteArray, Member>& members = m_groups[size_t(r)].members;
        for (auto it = members.begin(); it != members.end();) {
            if (!gone(rule, it->seen, it->lastActiveNs)) {
                ++it;
                continue;
            }
            const QByteArray name = it.key();
            const qint64 sinceMs = it->sinceMs;
            it = members.erase(it);
            left(rule, name, sinceMs);
        }
    }
    const QList<QByteArray> order = m_order;
    for (const QByteArray& id : order) {
        const auto it = m_active.constFind(id);
        if (it != m_active.cend() && !it->alert.group && gone(it->alert.rule, it->seen, it->lastActiveNs))
            clearActive(id);
    }
    for (int r = 0; r < kAlertRuleCount; ++r) {
        Group& g = m_groups[size_t(r)];
        if (!std::exchange(g.changed, false))
            continue;
        const auto it = m_active.find(groupId(static_cast<AlertRule>(r)));
        if (it == m_active.end())
            continue;
        if (g.count() == 0) {
            clearActive(QByteArray(it.key())); // a copy: erasing the item would leave a reference to another one's key
            continue;
        }
        updateGroup(static_cast<AlertRule>(r), *it);
        emit alertChanged(it->alert);
    }
    for (const QByteArray& id : std::as_const(m_order))
        maybeNotify(m_active[id], now);
}

void AlertMonitor::evaluateLocks(const QHash<QByteArray, LockState>& locks, const QHash<QByteArray, LockState>& other,
                                 qint64 now, const QSet<QByteArray>& alerted, bool walk, QList<FreshLock>* fresh)
{
    const AlertThresholds& t = m_options.thresholds;
    const auto present = [&](const LockState& s, bool active) {
        return t.isEnabled(s.rule()) && (active || s.noExpiry || (now - s.sinceNs) / 1'000'000 >= t.after(s.rule()));
    };
    const auto look = [&](const QByteArray& key, const LockState& s) {
        // A hold or a leftover is one token's: another token on the key is a new condition. The old alert
        // clears at once (it would go on naming a holder that is gone) and the new one counts from its
        // own start (applyLock reset sinceNs).
        const bool perToken = s.rule() != AlertRule::LockContested;
        const QByteArray subject = keySubject(key);
        const QByteArray id = alertRuleId(s.rule()).toLatin1() + ':' + subject;
        if (perToken) {
            const auto a = m_active.constFind(id);
            if (a != m_active.cend() && a->token != s.token) {
                // Unless the key's other state of the rule is the alert's (a leftover without expiry of another token
                // beside it): that one goes on, this one waits for it to clear (clearActive), not the two clearing
                // each other at every evaluation.
                const auto o = other.constFind(key);
                if (o != other.cend() && o->rule() == s.rule() && o->token == a->token)
                    return;
                clearActive(id);
            }
        }
        const auto active = m_active.find(id);
        if (!present(s, active != m_active.end())) {
            // Not yet (its alert, another token's, cleared above): looked at again when it can be raised.
            m_lockWalkDueNs = std::min(m_lockWalkDueNs, raisableAtNs(s));
            return;
        }
        if (active != m_active.end()) {
            active->lastActiveNs = now;
            active->seen = m_generation;
            return;
        }
        fresh->append({key, s.rule(), s.noExpiry});
        // Raised in this evaluation; looked at again in the next whatever becomes of it there.
        m_lockWalkDueNs = now;
    };
    if (!walk) {
        // Nothing can be raised yet (m_lockWalkDueNs): the alerted keys go on, or clear.
        for (const QByteArray& key : alerted) {
            ++m_lockStatesLooked;
            const auto it = locks.constFind(key);
            if (it != locks.cend() && !it->member)
                look(it.key(), *it);
        }
        return;
    }
    for (auto it = locks.cbegin(); it != locks.cend(); ++it) {
        ++m_lockStatesLooked;
        if (it->member) // followed by its group (putLock, followDetached)
            continue;
        const bool isAlerted = !alerted.isEmpty() && alerted.contains(it.key());
        if (!present(*it, false) && !isAlerted) {
            m_lockWalkDueNs = std::min(m_lockWalkDueNs, raisableAtNs(*it));
            continue;
        }
        // In its group already through the key's other state (a leftover without expiry beside a hold's leftover of
        // the same rule: one member, raise()): found fresh, it would make every evaluation walk every lock. Looked at
        // again when that state leaves the group (followDetached).
        if (!isAlerted) {
            const auto o = other.constFind(it.key());
            if (o != other.cend() && o->member && o->rule() == it->rule())
                continue;
        }
        look(it.key(), *it);
    }
}

void AlertMonitor::clearActive(const QByteArray& id)
{
    const auto it = m_active.find(id);
    if (it == m_active.end())
        return;
    Alert cleared = it->alert;
    cleared.clearedAtMs = wallMs();
    if (cleared.group) {
        dropMembers(cleared.rule);
        m_groups[index(cleared.rule)].changed = false;
    }
    m_active.erase(it);
    m_order.removeOne(id);
    // A state of the key that waited for this alert to go (evaluateLocks).
    if (!cleared.key.isEmpty())
        lookAgainAt(cleared.rule, cleared.key);
    emit alertCleared(cleared);
}

void AlertMonitor::maybeNotify(Active& a, qint64 now)
{
    if (a.alert.acknowledged || isMuted(a.alert))
        return;
    const qint64 repeat = m_options.thresholds.repeatAfterMs;
    const bool first = a.lastNotifiedNs == 0;
    if (!first && (repeat <= 0 || (now - a.lastNotifiedNs) / 1'000'000 < repeat))
        return;
    a.lastNotifiedNs = now;
    ++a.alert.notifications;
    emit notify(a.alert, !first);
    emit alertChanged(a.alert);
}

// ------------------------------------------------------------------------------------------------ operator

QList<Alert> AlertMonitor::alerts() const
{
    QList<Alert> out;
    out.reserve(m_order.size());
    for (const QByteArray& id : m_order)
        out.append(m_active.value(id).alert);
    return out;
}

std::optional<Alert> AlertMonitor::alert(const QByteArray& id) const
{
    const auto it = m_active.constFind(id);
    if (it == m_active.cend())
        return std::nullopt;
    return it->alert;
}

bool AlertMonitor::acknowledge(const QByteArray& id)
{
    const auto it = m_active.find(id);
    if (it == m_active.end())
        return false;
    if (!it->alert.acknowledged) {
        it->alert.acknowledged = true;
        emit alertChanged(it->alert);
    }
    return true;
}

void AlertMonitor::muteRule(AlertRule rule, qint64 forMs)
{
    m_ruleMutedUntilNs[index(rule)] = forMs > 0 ? nowNs() + forMs * 1'000'000 : 0;
    armMuteTimer();
    emit mutesChanged();
}

void AlertMonitor::muteSubject(const QByteArray& subject, qint64 forMs)
{
    if (forMs > 0)
        m_subjectMutedUntilNs.insert(subject, nowNs() + forMs * 1'000'000);
    else
        m_subjectMutedUntilNs.remove(subject);
    armMuteTimer();
    emit mutesChanged();
}

void AlertMonitor::unmuteAll()
{
    m_ruleMutedUntilNs.fill(0);
    m_subjectMutedUntilNs.clear();
    armMuteTimer();
    emit mutesChanged();
    evaluate(); // what was raised while muted notifies now
}

void AlertMonitor::armMuteTimer()
{
    const qint64 now = nowNs();
    qint64 earliest = 0;
    const auto consider = [&](qint64 until) {
        if (until > now && (earliest == 0 || until < earliest))
            earliest = until;
    };
    for (const qint64 until : m_ruleMutedUntilNs)
        consider(until);
    for (const qint64 until : std::as_const(m_subjectMutedUntilNs))
        consider(until);
    if (earliest == 0) {
        m_muteTimer.stop();
        return;
    }
    // Rounded up: at its timeout the mute has run out (a timer that fires early is armed again for the rest).
    const qint64 ms = (earliest - now + 999'999) / 1'000'000;
    m_muteTimer.start(static_cast<int>(std::clamp<qint64>(ms, 1, std::numeric_limits<int>::max())));
}

void AlertMonitor::onMuteTimer()
{
    const qint64 now = nowNs();
    bool ended = false;
    for (qint64& until : m_ruleMutedUntilNs) {
        if (until != 0 && until <= now) {
            until = 0;
            ended = true;
        }
    }
    for (auto it = m_subjectMutedUntilNs.begin(); it != m_subjectMutedUntilNs.end();) {
        if (it.value() <= now) {
            it = m_subjectMutedUntilNs.erase(it);
            ended = true;
        } else {
            ++it;
        }
    }
    armMuteTimer();
    if (ended)
        emit mutesChanged();
}

qint64 AlertMonitor::ruleMutedForMs(AlertRule rule) const
{
    return std::max<qint64>(0, (m_ruleMutedUntilNs[index(rule)] - nowNs()) / 1'000'000);
}

qint64 AlertMonitor::subjectMutedForMs(const QByteArray& subject) const
{
    return std::max<qint64>(0, (m_subjectMutedUntilNs.value(subject) - nowNs()) / 1'000'000);
}

bool AlertMonitor::isMuted(const Alert& alert) const
{
    const qint64 now = nowNs();
    return m_ruleMutedUntilNs[index(alert.rule)] > now || m_subjectMutedUntilNs.value(alert.subject) > now;
}

} // namespace redlock
