#include "export/PrometheusExporter.h"

#include "observe/SafetyAudit.h"
#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QSet>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

namespace redlock {

namespace {

using Type = PrometheusText::Type;
using Labels = PrometheusText::Labels;

// The verdicts and events always exported (a zero is a value, a missing series is a question); anything the
// observation adds later is exported too, after these.
const QList<LockVerdict> kVerdicts{
    LockVerdict::Held, LockVerdict::Expiring, LockVerdict::Contested, LockVerdict::MinorityLeftover,
    LockVerdict::Free, LockVerdict::Unknown,  LockVerdict::Stuck,     LockVerdict::ReleasedByOperator};
const QList<LockEvent::Kind> kEventKinds{
    LockEvent::Kind::Acquired,     LockEvent::Kind::Released,          LockEvent::Kind::Expired,
    LockEvent::Kind::TokenChanged, LockEvent::Kind::Contested,         LockEvent::Kind::Lost,
    LockEvent::Kind::Extended,     LockEvent::Kind::ReleasedOrExpired, LockEvent::Kind::Evicted};

double seconds(qint64 ns)
{
    return static_cast<double>(ns) / 1e9;
}

} // namespace

const QList<double>& PrometheusExporter::ageBuckets()
{
    static const QList<double> bounds{0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400};
    return bounds;
}

const QList<double>& PrometheusExporter::validityBuckets()
{
    static const QList<double> bounds{0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600};
    return bounds;
}

PrometheusExporter::PrometheusExporter(ExporterOptions options)
    : m_options(std::move(options)), m_clock(m_options.clock ? m_options.clock : SteadyClock::system()),
      m_holdDurations(PrometheusText::Histogram::withBounds(ageBuckets()))
{
    const qsizetype n = m_options.nodes.size();
    for (qsizetype i = 0; i < n; ++i) {
        m_nodeNames.append(printableText(m_options.nodes[i].displayName(), -1));
        NodeFacts facts;
        facts.node = static_cast<int>(i);
        facts.endpoint = m_options.nodes[i];
        m_facts.append(facts);
    }
    m_sessionCommands = QList<CommandCounter>(n);
    m_inspectorCommands = QList<CommandCounter>(n);
    m_restarts = QList<quint64>(n, 0);
    m_locksPerNode = QList<int>(n, 0);
    runAudit();
}

void PrometheusExporter::addFacts(const NodeFacts& facts)
{
    if (facts.node < 0 || facts.node >= m_facts.size())
        return;
    NodeFacts merged = facts;
    if (merged.health != NodeHealth::Up) {
        // A node that does not answer has no latency or clock offset now: the last ones measured are not
        // exported as if they were current.
        merged.latencyUs = -1;
        merged.clockOffsetUs.reset();
    } else {
        // Samples come more often than facts: keep the newest latency and offset.
        if (merged.latencyUs < 0)
            merged.latencyUs = m_facts[facts.node].latencyUs;
        if (!merged.clockOffsetUs)
            merged.clockOffsetUs = m_facts[facts.node].clockOffsetUs;
    }
    m_facts[facts.node] = merged;
    runAudit();
}

void PrometheusExporter::addSample(const NodeSample& sample)
{
    if (sample.node < 0 || sample.node >= m_facts.size())
        return;
    NodeFacts& facts = m_facts[sample.node];
    m_sessionCommands[sample.node].advance(sample.commandsWritten);
    if (facts.health != NodeHealth::Up)
        return; // see addFacts: nothing is measured on a node that is not up
    facts.latencyUs = sample.latencyUs;
    if (sample.clockOffsetUs)
        facts.clockOffsetUs = sample.clockOffsetUs;
}

void PrometheusExporter::addRestart(const NodeFacts& facts)
{
    if (facts.node >= 0 && facts.node < m_restarts.size())
        ++m_restarts[facts.node];
    addFacts(facts);
}

void PrometheusExporter::addChanges(const LockChangeSet& changes)
{
    const qint64 largestBefore = m_largestPttlMs;
    for (const LockView& view : changes.appeared)
        apply(view);
    for (const LockView& view : changes.changed)
        apply(view);
    if (!changes.disappeared.isEmpty()) {
        const qint64 nowNs = m_clock->nowNs();
        for (const QByteArray& key : changes.disappeared)
            forget(key, nowNs);
    }
    if (changes.locksPerNode.size() == m_locksPerNode.size())
        m_locksPerNode = changes.locksPerNode;
    // The audit judges restarts against the largest TTL in use: a larger PTTL seen can change its findings.
    if (rules::auditMaxTtlMs(m_options.maxTtlMs, m_largestPttlMs) !=
        rules::auditMaxTtlMs(m_options.maxTtlMs, largestBefore))
        runAudit();
}

void PrometheusExporter::apply(const LockView& view)
{
    m_largestPttlMs = std::max(m_largestPttlMs, SafetyAudit::largestPttlMs(view));
    if (!view.noExpiryNodes.isEmpty())
        m_withoutExpiry.insert(view.key);
    else if (view.verdict != LockVerdict::Unknown) // cannot tell: what was seen before still stands
        m_withoutExpiry.remove(view.key);
    const auto it = m_keys.find(view.key);
    KeyState before;
    if (it != m_keys.end()) {
        before = *it;
        --m_verdictCounts[before.verdict];
    }
    ++m_verdictCounts[view.verdict];
    if (view.verdict == LockVerdict::Unknown) {
        // A holder node unreachable says nothing about the hold: it has not ended (no hold duration), and if
        // the lock is Held again by the same token its age goes on. But it is not held now either: it leaves
        // the age and validity histograms (exposition() skips Unknown), and its holders are what this view
        // sees (the reachable nodes holding its token), not the count from when it was held.
        before.verdict = view.verdict;
        before.holders = view.holders;
        if (before.hold >= 0)
            m_holdFlags[size_t(before.hold)] &= quint8(~kHoldCounted);
        if (it != m_keys.end())
            *it = std::move(before);
        else
            insertKey(view.key, before);
        return;
    }
    const bool wasHeld = before.hold >= 0;
    const bool held = view.isHeld();
    const bool sameHold = wasHeld && held && holdTokenIs(before.hold, view.token);
    if (wasHeld && !sameHold)
        endHold(m_holds[size_t(before.hold)], view.observedAtNs);

    KeyState after;
    after.verdict = view.verdict;
    after.holders = view.holders;
    if (held) {
        if (wasHeld) {
            after.hold = before.hold;
        } else {
            after.hold = qsizetype(m_holds.size());
            m_holds.push_back({});
            m_holdKeys.push_back(view.key);
            m_holdTokens.push_back({});
            m_holdFlags.push_back(0);
        }
        Hold& hold = m_holds[size_t(after.hold)];
        if (!sameHold) {
            hold.sinceNs = view.observedAtNs;
            keepToken(after.hold, view.token);
        }
        hold.validityEndNs = view.observedAtNs + view.observedValidityMs * 1'000'000;
        m_holdFlags[size_t(after.hold)] |= kHoldCounted;
    } else if (wasHeld) {
        freeHold(before.hold); // moves another key's hold: `it` stays valid (no insertion, no removal)
    }
    if (it != m_keys.end())
        *it = std::move(after);
    else
        insertKey(view.key, after);
}

void PrometheusExporter::insertKey(const QByteArray& key, const KeyState& state)
{
    m_keys.insert(key, state);
    ++m_keySetGeneration;
}

void PrometheusExporter::forget(const QByteArray& key, qint64 atNs)
{
    m_withoutExpiry.remove(key);
    const auto it = m_keys.constFind(key);
    if (it == m_keys.cend())
        return;
    --m_verdictCounts[it->verdict];
    const qsizetype hold = it->hold;
    m_keys.erase(it);
    ++m_keySetGeneration;
    if (hold >= 0) {
        endHold(m_holds[size_t(hold)], atNs);
        freeHold(hold);
    }
}

void PrometheusExporter::endHold(const Hold& hold, qint64 atNs)
{
    // A hold that expired unseen ended when its validity ran out, not when a rescan noticed.
    const qint64 endNs = std::min(atNs, hold.validityEndNs);
    m_holdDurations.observe(seconds(std::max<qint64>(0, endNs - hold.sinceNs)));
}

void PrometheusExporter::freeHold(qsizetype index)
{
    const size_t last = m_holds.size() - 1;
    if (size_t(index) != last) {
        m_holds[size_t(index)] = m_holds[last];
        m_holdKeys[size_t(index)] = std::move(m_holdKeys[last]);
        m_holdTokens[size_t(index)] = std::move(m_holdTokens[last]);
        m_holdFlags[size_t(index)] = m_holdFlags[last];
        if (const auto moved = m_keys.find(m_holdKeys[size_t(index)]); moved != m_keys.end())
            moved->hold = index;
    }
    m_holds.pop_back();
    m_holdKeys.pop_back();
    m_holdTokens.pop_back();
    m_holdFlags.pop_back();
}

void PrometheusExporter::keepToken(qsizetype hold, const QByteArray& token)
{
    HoldToken& kept = m_holdTokens[size_t(hold)];
    quint8& flags = m_holdFlags[size_t(hold)];
    rl1::Digits digits;
    if (!rl1::split(token, &digits)) {
        kept.rest = token;
        kept.digits = {};
        flags &= quint8(~kHoldRl1);
        return;
    }
    kept.digits = digits;
    flags |= kHoldRl1;
    // Looked up without a copy (the raw data is the token's, only for the lookup).
    const qsizetype from = rl1::kDigitsEnd;
    const QByteArray rest = QByteArray::fromRawData(token.constData() + from, token.size() - from);
    if (const auto it = m_tokenRests.constFind(rest); it != m_tokenRests.cend()) {
        kept.rest = *it;
        return;
    }
    kept.rest.clear(); // before the sweep: a rest only this hold kept goes now
    // A rest no hold keeps any more (its client's locks are gone) is only held by the set: let go now and then.
    if (m_tokenRests.size() >= 2 * m_tokenRestsSwept + 64) {
        m_tokenRests.removeIf([](const QByteArray& r) { return r.isDetached(); });
        m_tokenRestsSwept = m_tokenRests.size();
    }
    kept.rest = *m_tokenRests.insert(QByteArray(rest.constData(), rest.size()));
}

bool PrometheusExporter::holdTokenIs(qsizetype hold, const QByteArray& token) const
{
    const HoldToken& kept = m_holdTokens[size_t(hold)];
    rl1::Digits digits;
    const bool rl1 = rl1::split(token, &digits);
    // A token is of the rl1 form or not whatever keeps it: one of each form are two tokens.
    if (rl1 != bool(m_holdFlags[size_t(hold)] & kHoldRl1))
        return false;
    if (!rl1)
        return kept.rest == token;
    return kept.digits == digits && QByteArrayView(kept.rest) == QByteArrayView(token).sliced(rl1::kDigitsEnd);
}

void PrometheusExporter::addEvents(const QList<LockEvent>& events)
{
    for (const LockEvent& e : events) {
        if (e.kind != LockEvent::Kind::SeenHeld) // a lock found held is no transition
            ++m_eventCounts[e.kind];
    }
}

void PrometheusExporter::addInspection(const InspectionSummary& summary)
{
    ++m_inspections;
    m_lastInspection = summary;
}

void PrometheusExporter::addObserverLoad(const QList<ObserverLoad>& load)
{
    m_load = load;
    for (const ObserverLoad& l : load) {
        if (l.node >= 0 && l.node < m_inspectorCommands.size())
            m_inspectorCommands[l.node].advance(l.commandsWritten);
    }
}

void PrometheusExporter::CommandCounter::advance(quint64 written)
{
    total += written >= lastWritten ? written - lastWritten : written;
    lastWritten = written;
    known = true;
}

qsizetype PrometheusExporter::keysOverSeriesLimit() const
{
    if (!m_options.perKeyMetrics)
        return 0;
    return std::max<qsizetype>(0, m_keys.size() - std::max<qsizetype>(0, m_options.maxKeySeries));
}

void PrometheusExporter::setFindings(const QList<AuditFinding>& findings)
{
    m_externalFindings = true;
    m_findings = findings;
}

void PrometheusExporter::runAudit()
{
    if (m_externalFindings)
        return;
    AuditInput input;
    input.nodes = m_facts;
    input.maxTtlMs = rules::auditMaxTtlMs(m_options.maxTtlMs, m_largestPttlMs);
    input.driftFactor = m_options.driftFactor;
    m_findings = SafetyAudit::run(input);
}

QByteArray PrometheusExporter::exposition() const
{
    const qint64 nowNs = m_clock->nowNs();
    PrometheusText out;
    auto node = [this](qsizetype i) { return Labels{{"node", m_nodeNames.value(i)}}; };
    const qsizetype n = m_nodeNames.size();

    out.family("redlock_nodes", Type::Gauge, u"Redis masters configured (N).");
    out.sample({}, static_cast<double>(n));
    out.family("redlock_quorum", Type::Gauge, u"Nodes a lock needs (N/2+1).");
    out.sample({}, rules::quorum(static_cast<int>(n)));

    out.family("redlock_node_up", Type::Gauge,
               u"1 when the node answers commands (its observer session is up), else 0 (down, connecting, AUTH or "
               u"ACL refused).");
    for (qsizetype i = 0; i < n; ++i)
        out.sample(node(i), m_facts[i].health == NodeHealth::Up ? 1 : 0);
    out.family("redlock_node_quarantined", Type::Gauge,
               u"1 while a delayed restart keeps the node out (it may answer, but is not counted in "
               u"redlock_servers_up), else 0. Only a console schedules delayed restarts.");
    for (qsizetype i = 0; i < n; ++i)
        out.sample(node(i), m_quarantined.contains(int(i)) ? 1 : 0);
    out.family("redlock_servers_up", Type::Gauge,
               u"Distinct Redis servers up: nodes that answer and that no delayed restart keeps out, those with the "
               u"same run_id (one server under two names) counted once. What a quorum is counted from.");
    out.sample({}, distinctServersUp(m_facts, m_quarantined));
    out.family("redlock_node_latency_seconds", Type::Gauge,
               u"Round trip of the observer's last PING to the node; absent while unmeasured, failing or the node "
               u"is not up.");
    for (qsizetype i = 0; i < n; ++i) {
        if (m_facts[i].latencyUs >= 0)
            out.sample(node(i), m_facts[i].latencyUs / 1e6);
    }
    out.family("redlock_node_clock_offset_seconds", Type::Gauge,
               u"Node clock (TIME) minus the exporter's wall clock, compensated for half the round trip; absent "
               u"while unmeasured or the node is not up.");
    for (qsizetype i = 0; i < n; ++i) {
        if (m_facts[i].clockOffsetUs)
            out.sample(node(i), *m_facts[i].clockOffsetUs / 1e6);
    }
    out.family("redlock_node_restarts_total", Type::Counter,
               u"Restarts seen while watching (the node's run_id changed): the locks it did not persist are gone.");
    for (qsizetype i = 0; i < n; ++i)
        out.sample(node(i), static_cast<double>(m_restarts[i]));
    out.family("redlock_node_locks", Type::Gauge, u"Lock keys holding a value on the node.");
    for (qsizetype i = 0; i < n; ++i)
        out.sample(node(i), m_locksPerNode.value(i));

    out.family("redlock_node_keyspace_events_live", Type::Gauge,
               u"1 when changes on the node arrive live by keyspace notifications, 0 when only the budgeted rescan "
               u"sees them.");
    for (const ObserverLoad& l : m_load) {
        if (l.node >= 0 && l.node < n)
            out.sample(node(l.node), l.eventsLive ? 1 : 0);
    }
    // A counter, not a rate: rate() over it is right whatever the scrape interval, and no report is missed.
    out.family("redlock_observer_commands_total", Type::Counter,
               u"Commands the exporter sent the node: source=\"inspector\" (lock reads and the rescan), "
               u"source=\"session\" (PING, TIME, INFO). Read with rate().");
    for (qsizetype i = 0; i < n; ++i) {
        if (m_inspectorCommands[i].known)
            out.sample({{"node", m_nodeNames[i]}, {"source", QStringLiteral("inspector")}},
                       static_cast<double>(m_inspectorCommands[i].total));
        if (m_sessionCommands[i].known)
            out.sample({{"node", m_nodeNames[i]}, {"source", QStringLiteral("session")}},
                       static_cast<double>(m_sessionCommands[i].total));
    }
    out.family("redlock_observer_rescan_budget_commands_per_second", Type::Gauge,
               u"Commands per second the background rescan may send each node (--budget); 0 = no limit.");
    out.sample({}, m_options.budgetPerNode);

    out.family("redlock_locks", Type::Gauge, u"Lock keys by verdict (held, expiring, contested, ...).");
    for (const LockVerdict v : kVerdicts)
        out.sample({{"verdict", lockVerdictId(v)}}, m_verdictCounts.value(v));
    for (auto it = m_verdictCounts.cbegin(); it != m_verdictCounts.cend(); ++it) {
        if (!kVerdicts.contains(it.key()))
            out.sample({{"verdict", lockVerdictId(it.key())}}, it.value());
    }

    out.family("redlock_locks_without_expiry", Type::Gauge,
               u"Lock keys holding a value without expiry (PTTL -1) on at least one node: whatever their verdict "
               u"(stuck, or held by a quorum of another token beside it), a value that never goes away by itself.");
    out.sample({}, static_cast<double>(m_withoutExpiry.size()));

    out.family("redlock_lock_events_total", Type::Counter,
               u"Lock events observed (transitions: a lock found already held when watching starts is not "
               u"counted): event=\"acquired\", \"extended\" (its holder extended it), \"released\", \"expired\", "
               u"\"released-or-expired\" (an end whose cause nobody saw: keyspace events off), \"evicted\", "
               u"\"lost-on-restart\". Contention: event=\"contested\" (no token has a quorum) and "
               u"event=\"token-changed\" (another holder took a quorum).");
    for (const LockEvent::Kind k : kEventKinds)
        out.sample({{"event", lockEventKindId(k)}}, static_cast<double>(m_eventCounts.value(k)));
    for (auto it = m_eventCounts.cbegin(); it != m_eventCounts.cend(); ++it) {
        if (!kEventKinds.contains(it.key()))
            out.sample({{"event", lockEventKindId(it.key())}}, static_cast<double>(it.value()));
    }

    // The held locks now, counted against fixed bounds. Gauges, not histograms: these counts go down when locks
    // are released, and a histogram's buckets are counters that rate() and increase() read a drop of as a reset.
    const QList<double>& ageBounds = ageBuckets();
    const QList<double>& validityBounds = validityBuckets();
    // In whole nanoseconds, each hold counted once where its age and its validity fall among the bounds (ascending),
    // then summed: a scrape over 1M holds is a walk over 16 MB.
    const auto inNs = [](const QList<double>& bounds) {
        std::vector<qint64> ns;
        for (const double b : bounds)
            ns.push_back(std::llround(b * 1e9));
        return ns;
    };
    const std::vector<qint64> ageNs = inNs(ageBounds);
    const std::vector<qint64> validityNs = inNs(validityBounds);
    std::vector<int> overFirst(ageNs.size() + 1, 0);       // [k]: holds older than the first k bounds, not the next
    std::vector<int> withinFrom(validityNs.size() + 1, 0); // [k]: holds within the bounds from the k-th on
    qint64 oldestNs = -1;
    for (size_t i = 0; i < m_holds.size(); ++i) {
        // Unknown keeps the hold's start for when it is held again, but it is not held now.
        if (!(m_holdFlags[i] & kHoldCounted))
            continue;
        const qint64 age = std::max<qint64>(0, nowNs - m_holds[i].sinceNs);
        const qint64 validity = std::max<qint64>(0, m_holds[i].validityEndNs - nowNs);
        oldestNs = std::max(oldestNs, age);
        size_t a = 0;
        while (a < ageNs.size() && age > ageNs[a])
            ++a;
        ++overFirst[a];
        size_t v = 0;
        while (v < validityNs.size() && validity > validityNs[v])
            ++v;
        ++withinFrom[v];
    }
    QList<int> olderThan(ageBounds.size(), 0);
    QList<int> expiringWithin(validityBounds.size(), 0);
    for (qsizetype b = ageBounds.size() - 1, over = 0; b >= 0; --b) {
        over += overFirst[size_t(b) + 1];
        olderThan[b] = over;
    }
    for (qsizetype b = 0, within = 0; b < validityBounds.size(); ++b) {
        within += withinFrom[size_t(b)];
        expiringWithin[b] = within;
    }
    std::optional<double> oldest;
    if (oldestNs >= 0)
        oldest = seconds(oldestNs);
    out.family("redlock_held_locks_older_than", Type::Gauge,
               u"Held locks now whose holder has held them longer than `seconds` (since first seen: a lower bound "
               u"for locks held before the exporter started).");
    for (qsizetype b = 0; b < ageBounds.size(); ++b)
        out.sample({{"seconds", QString::fromLatin1(PrometheusText::formatValue(ageBounds[b]))}}, olderThan[b]);
    out.family("redlock_held_locks_expiring_within", Type::Gauge,
               u"Held locks now with at most `seconds` of observed validity left (the quorum-th largest PTTL minus "
               u"drift).");
    for (qsizetype b = 0; b < validityBounds.size(); ++b)
        out.sample({{"seconds", QString::fromLatin1(PrometheusText::formatValue(validityBounds[b]))}},
                   expiringWithin[b]);
    out.family("redlock_oldest_lock_age_seconds", Type::Gauge,
               u"How long the longest-held lock now has been held (since first seen); absent while none is held.");
    if (oldest)
        out.sample({}, *oldest);
    out.family("redlock_lock_hold_duration_seconds", Type::Histogram,
               u"Holds that ended (released, expired, taken over, lost), by how long they lasted as observed.");
    out.histogram({}, m_holdDurations);

    out.family("redlock_audit_findings", Type::Gauge,
               u"Safety audit findings now, by rule, severity and the node concerned (see `redlock audit`); a "
               u"finding about the deployment as a whole has no node label.");
    QMap<std::tuple<QString, QString, QString>, int> findings;
    for (const AuditFinding& f : m_findings) {
        const QString severity = severityId(f.severity);
        if (f.nodes.isEmpty())
            ++findings[{f.ruleId, severity, QString()}];
        for (const int i : f.nodes)
            ++findings[{f.ruleId, severity, m_nodeNames.value(i)}];
    }
    for (auto it = findings.cbegin(); it != findings.cend(); ++it) {
        const auto& [rule, severity, nodeName] = it.key();
        Labels labels{{"rule", rule}, {"severity", severity}};
        if (!nodeName.isEmpty())
            labels.prepend({"node", nodeName});
        out.sample(labels, it.value());
    }

    out.family("redlock_inspections_total", Type::Counter,
               u"Full passes over the lock keys completed (the first one is the baseline: until then the lock "
               u"metrics are partial).");
    out.sample({}, static_cast<double>(m_inspections));
    out.family("redlock_inspection_duration_seconds", Type::Gauge, u"How long the last full pass took.");
    if (m_inspections > 0)
        out.sample({}, m_lastInspection.elapsedUs / 1e6);
    out.family("redlock_keys_skipped", Type::Gauge,
               u"Keys under the pattern the last pass did not count as locks, by reason: not_a_lock_format (a value "
               u"with a TTL in no lock format recognised, under the default pattern *: a cache entry, a session), "
               u"no_ttl, other_type, outside_pattern, redisson_helper.");
    if (m_inspections > 0) {
        const SkippedKeys& s = m_lastInspection.skipped;
        const std::pair<QString, qint64> reasons[] = {{QStringLiteral("not_a_lock_format"), s.notALockFormat},
                                                      {QStringLiteral("no_ttl"), s.noTtl},
                                                      {QStringLiteral("other_type"), s.otherType},
                                                      {QStringLiteral("outside_pattern"), s.outsidePattern},
                                                      {QStringLiteral("redisson_helper"), s.redissonHelpers}};
        for (const auto& [reason, count] : reasons)
            out.sample({{"reason", reason}}, static_cast<double>(count));
    }

    if (m_options.perKeyMetrics) {
        out.family("redlock_lock_holders", Type::Gauge,
                   u"Per lock key (--key-labels): nodes holding the verdict's token, labelled with the verdict. Keys "
                   u"are shown printable (control characters and backslashes as \\xNN), at most 200 characters. At "
                   u"most redlock_key_series_limit series: the first keys in key order.");
        const qsizetype limit = std::max<qsizetype>(0, m_options.maxKeySeries);
        if (!m_keySeries.made || m_keySeries.generation != m_keySetGeneration) {
            QList<std::pair<QString, QByteArray>> rows;
            rows.reserve(m_keys.size());
            for (auto it = m_keys.cbegin(); it != m_keys.cend(); ++it)
                rows.append({printableBytes(it.key(), 200), it.key()});
            std::sort(rows.begin(), rows.end());
            // Two keys cut to the same 200 characters would be one series twice, which Prometheus refuses: the
            // first one stands for both.
            m_keySeries.first.clear();
            m_keySeries.dropped = 0;
            QString previous;
            for (qsizetype i = 0; i < rows.size(); ++i) {
                if (i > 0 && rows[i].first == previous)
                    continue;
                previous = rows[i].first;
                if (m_keySeries.first.size() == limit)
                    ++m_keySeries.dropped;
                else
                    m_keySeries.first.append(std::move(rows[i]));
            }
            m_keySeries.generation = m_keySetGeneration;
            m_keySeries.made = true;
        }
        const qsizetype dropped = m_keySeries.dropped;
        for (const auto& [printable, key] : std::as_const(m_keySeries.first)) {
            const auto state = m_keys.constFind(key); // there: no key came or went since the list was made
            out.sample({{"key", printable}, {"verdict", lockVerdictId(state->verdict)}}, state->holders);
        }
        out.family("redlock_key_series_limit", Type::Gauge,
                   u"The most per-key series (redlock_lock_holders) a scrape exports (--max-series).");
        out.sample({}, static_cast<double>(limit));
        out.family("redlock_key_series_dropped", Type::Gauge,
                   u"Per-key series left out of this scrape because of redlock_key_series_limit (0: every lock key "
                   u"has its series).");
        out.sample({}, static_cast<double>(dropped));
    }
    // Which build answers, as Prometheus's own exporters say it (node_exporter_build_info): a fleet's dashboards
    // tell an old exporter by its labels. The application's version (the CLI sets it), the Qt it runs on, the
    // hiredis it was built with.
    out.family("redlock_exporter_build_info", Type::Gauge,
               u"Always 1; the labels name the exporter's version and the Qt and hiredis versions it uses.");
    const QString version = QCoreApplication::applicationVersion();
    out.sample({{"version", version.isEmpty() ? QStringLiteral("unknown") : version},
                {"qt", QString::fromLatin1(qVersion())},
                {"hiredis", QStringLiteral("%1.%2.%3").arg(HIREDIS_MAJOR).arg(HIREDIS_MINOR).arg(HIREDIS_PATCH)}},
               1);
    return out.take();
}

} // namespace redlock
