#pragma once

#include <QList>

namespace redlock {

// The rescan's budget on each node: a token bucket in commands, refilled at the rate (commands per second).
// A tenth of a second's worth may be saved up, so the pace is even, not bursts; a page may take a bucket into
// debt, and the next page waits until every reachable node's debt is paid back. Time is given by the caller
// (nanoseconds of a monotonic clock), so the arithmetic is pure.
class RescanBudget
{
public:
    explicit RescanBudget(int nodeCount) : m_tokens(nodeCount, 0.0), m_refilledAtNs(nodeCount, 0) {}

    // Every bucket empty, as of nowNs: a new rescan starts.
    void restart(qint64 nowNs);
    // `commands` were sent to `node`.
    void spend(int node, qint64 commands) { m_tokens[node] -= double(commands); }
    // 0 when no reachable node is in debt at nowNs (at `ratePerSecond`, at least 1); else the milliseconds
    // until the deepest debt is paid back.
    int waitMs(qint64 nowNs, int ratePerSecond, const QList<bool>& reachable);

private:
    QList<double> m_tokens;
    QList<qint64> m_refilledAtNs;
};

} // namespace redlock
