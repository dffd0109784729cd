#include "operate/RestartPlanner.h"

#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace redlock {

qint64 RestartPlanner::defaultDelayMs(qint64 configuredMaxTtlMs, qint64 largestPttlMs, double driftFactor)
{
    const qint64 ttl = std::max<qint64>({0, configuredMaxTtlMs, largestPttlMs});
    return ttl + rules::clockDriftMs(ttl, driftFactor);
}

RestartPlanner::LockSource RestartPlanner::locksOf(const LockSnapshot& snapshot)
{
    return [&snapshot](const LockVisitor& visit) {
        for (const LockView& view : snapshot)
            visit(view.key, PackedLockView(view));
    };
}

qint64 RestartPlanner::largestPttlOnNode(const LockSource& locks, int node)
{
    return survey(locks, node, 0, {}, {}).largestPttlMs;
}

QList<int> RestartPlanner::namesOfServer(int node, int nodeCount, const QList<QByteArray>& runIds)
{
    QList<int> names{node};
    for (int i = 0; i < nodeCount; ++i) {
        if (rules::sameServer(runIds, node, i))
            names.append(i);
    }
    std::sort(names.begin(), names.end());
    return names;
}

QList<AffectedLock> RestartPlanner::affectedLocks(const LockSource& locks, int node, int nodeCount,
                                                  const QList<int>& unavailable, const QList<QByteArray>& runIds)
{
    return survey(locks, node, nodeCount, unavailable, runIds).affected;
}

// survey()'s walk, one lock at a time: survey() feeds it the source directly, SurveyWalk a slice of its rows at a time.
struct SurveyWalk::State
{
    struct Listed
    {
        QByteArray key;
        PackedLockView view;
        int holdersNow;
        int holdersWhileDown;
    };

    State(int goingOutNode, int nodes, QList<int> down, QList<QByteArray> nodeRunIds)
        : node(goingOutNode), nodeCount(nodes), quorum(rules::quorum(nodes)), unavailable(std::move(down)),
          runIds(std::move(nodeRunIds)), goingOut(RestartPlanner::namesOfServer(node, nodeCount, runIds))
    {}

    static bool byKey(const Listed& a, const Listed& b) { return a.key < b.key; }

    void add(const QByteArray& key, const PackedLockView& view)
    {
        if (view.presence(node) == NodeLockState::Presence::Holding)
            out.largestPttlMs = std::max(out.largestPttlMs, view.pttlMs(node));
        if (nodeCount <= 0 || !view.hasQuorum()) // held, or stuck on a quorum
            return;
        view.tokenHolders(&holding);
        remaining.clear();
        bool held = false; // by the server going out, under any of its names
        for (const int i : std::as_const(holding)) {
            if (goingOut.contains(i))
                held = true;
            else if (!unavailable.contains(i))
                remaining.append(i);
        }
        if (!held)
            return;
        const int serversLeft = rules::distinctServers(runIds, remaining);
        if (serversLeft >= quorum)
            return;
        ++out.affectedCount;
        if (listed.size() == size_t(RestartPlanner::kAffectedListed)) {
            if (!(key < listed.front().key))
                return;
            std::pop_heap(listed.begin(), listed.end(), byKey);
            listed.pop_back();
        }
        listed.push_back({key, view, rules::distinctServers(runIds, holding), serversLeft});
        std::push_heap(listed.begin(), listed.end(), byKey);
    }

    LockSurvey finish() const
    {
        LockSurvey survey = out;
        std::vector<Listed> sorted = listed;
        std::sort_heap(sorted.begin(), sorted.end(), byKey);
        survey.affected.reserve(qsizetype(sorted.size()));
        for (const Listed& l : sorted) {
            // Only the locks listed are unpacked (the holder's summary is decoded from the value).
            const LockView unpacked = l.view.unpack(l.key);
            AffectedLock a;
            a.key = l.key;
            a.token = unpacked.token;
            a.holderSummary = unpacked.holder->summary;
            a.holdersNow = l.holdersNow;
            a.holdersWhileDown = l.holdersWhileDown;
            a.observedValidityMs = unpacked.observedValidityMs;
            survey.affected.append(a);
        }
        return survey;
    }

    const int node;
    const int nodeCount;
    const int quorum;
    const QList<int> unavailable;
    const QList<QByteArray> runIds;
    const QList<int> goingOut;
    QList<int> holding;   // names holding the lock's token
    QList<int> remaining; // of those, the ones still counted while the server is out
    // The first kAffectedListed keys seen so far, as a max-heap on the key: a smaller key replaces the largest.
    std::vector<Listed> listed;
    LockSurvey out;
    // SurveyWalk's: where it is in the source's key order.
    RestartPlanner::KeyOrderedLocks source;
    QByteArray lastKey;
    bool started = false;
    bool done = false;
    qsizetype walked = 0;
    qsizetype total = 0;
};

LockSurvey RestartPlanner::survey(const LockSource& locks, int node, int nodeCount, const QList<int>& unavailable,
                                  const QList<QByteArray>& runIds)
{
    if (!locks)
        return {};
    SurveyWalk::State state(node, nodeCount, unavailable, runIds);
    locks([&state](const QByteArray& key, const PackedLockView& view) { state.add(key, view); });
    return state.finish();
}

SurveyWalk::SurveyWalk(RestartPlanner::KeyOrderedLocks locks, qsizetype total, int node, int nodeCount,
                       QList<int> unavailable, QList<QByteArray> runIds)
    : m_state(std::make_unique<State>(node, nodeCount, std::move(unavailable), std::move(runIds)))
{
    m_state->source = std::move(locks);
    m_state->total = std::max<qsizetype>(0, total);
    m_state->done = !m_state->source;
}

SurveyWalk::~SurveyWalk() = default;

bool SurveyWalk::step(qsizetype count)
{
    State& s = *m_state;
    if (s.done)
        return true;
    count = std::max<qsizetype>(count, 1);
    const QByteArray after = s.lastKey; // shared, not copied: the visits below move lastKey on
    const qsizetype visited =
        s.source(s.started ? &after : nullptr, count, [&s](const QByteArray& key, const PackedLockView& view) {
            s.add(key, view);
            s.lastKey = key;
            ++s.walked;
        });
    s.started = true;
    s.done = visited < count; // the source had no more after the last key
    return s.done;
}

qsizetype SurveyWalk::walked() const
{
    return m_state->walked;
}

qsizetype SurveyWalk::total() const
{
    return std::max(m_state->total, m_state->walked);
}

bool SurveyWalk::isDone() const
{
    return m_state->done;
}

LockSurvey SurveyWalk::result() const
{
    return m_state->finish();
}

namespace {

// Other nodes down or quarantined, ascending, once each, without the node's own names.
QList<int> normalizedUnavailable(QList<int> unavailable, int nodeCount, const QList<int>& names)
{
    std::sort(unavailable.begin(), unavailable.end());
    unavailable.erase(std::unique(unavailable.begin(), unavailable.end()), unavailable.end());
    unavailable.erase(
        std::remove_if(unavailable.begin(), unavailable.end(),
                       [nodeCount, &names](int i) { return i < 0 || i >= nodeCount || names.contains(i); }),
        unavailable.end());
    return unavailable;
}

} // namespace

RestartPlan RestartPlanner::plan(int node, int nodeCount, const LockSource& locks, qint64 configuredMaxTtlMs,
                                 double driftFactor, QList<int> unavailable, const QList<QByteArray>& runIds)
{
    unavailable = normalizedUnavailable(std::move(unavailable), nodeCount, namesOfServer(node, nodeCount, runIds));
    return plan(node, nodeCount, survey(locks, node, nodeCount, unavailable, runIds), configuredMaxTtlMs, driftFactor,
                unavailable, runIds);
}

RestartPlan RestartPlanner::plan(int node, int nodeCount, const LockSurvey& survey, qint64 configuredMaxTtlMs,
                                 double driftFactor, QList<int> unavailable, const QList<QByteArray>& runIds)
{
    const QList<int> names = namesOfServer(node, nodeCount, runIds);
    unavailable = normalizedUnavailable(std::move(unavailable), nodeCount, names);
    RestartPlan p;
    p.node = node;
    p.nodeCount = nodeCount;
    p.quorum = rules::quorum(nodeCount);
    p.configuredMaxTtlMs = configuredMaxTtlMs;
    p.largestPttlMs = survey.largestPttlMs;
    const qint64 ttl = std::max<qint64>({0, configuredMaxTtlMs, p.largestPttlMs});
    p.driftMs = rules::clockDriftMs(ttl, driftFactor);
    p.defaultDelayMs = ttl + p.driftMs;
    p.unavailable = unavailable;
    for (const int i : names) {
        if (i != node)
            p.sameServer.append(i);
    }
    p.affected = survey.affected;
    p.affectedCount = survey.affectedCount;
    QList<int> counted; // names neither going out nor already unavailable
    for (int i = 0; i < nodeCount; ++i) {
        if (!names.contains(i) && !unavailable.contains(i))
            counted.append(i);
    }
    p.nodesUpDuring = rules::distinctServers(runIds, counted);
    p.breaksQuorum = p.nodesUpDuring < p.quorum;
    if (!p.sameServer.isEmpty()) {
        QStringList others;
        for (const int i : std::as_const(p.sameServer))
            others.append(QString::number(i + 1));
        p.sameServerNote = tr("node %1 is the same Redis server as node(s) %2 (same run_id): taking it out takes "
                              "%n other name(s) out too",
                              nullptr, int(p.sameServer.size()))
                               .arg(node + 1)
                               .arg(others.join(QStringLiteral(", ")));
    }
    if (p.breaksQuorum) {
        p.quorumExplanation =
            tr("with node %1 out, %2 of %3 nodes would be counted (%4 already down or quarantined): fewer than "
               "the quorum of %5, so no lock could be acquired or extended until it is back")
                .arg(node + 1)
                .arg(p.nodesUpDuring)
                .arg(nodeCount)
                .arg(unavailable.size())
                .arg(p.quorum);
        if (!p.sameServerNote.isEmpty())
            p.quorumExplanation += QStringLiteral("; ") + p.sameServerNote;
    }
    return p;
}

} // namespace redlock
