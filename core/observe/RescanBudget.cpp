#include "observe/RescanBudget.h"

#include <algorithm>
#include <cmath>

namespace redlock {

void RescanBudget::restart(qint64 nowNs)
{
    m_tokens.fill(0.0);
    m_refilledAtNs.fill(nowNs);
}

int RescanBudget::waitMs(qint64 nowNs, int ratePerSecond, const QList<bool>& reachable)
{
    const double rate = std::max(1, ratePerSecond);
    double worst = 0;
    for (qsizetype n = 0; n < m_tokens.size(); ++n) {
        m_tokens[n] = std::min(rate / 10, m_tokens[n] + double(nowNs - m_refilledAtNs[n]) * rate / 1e9);
        m_refilledAtNs[n] = nowNs;
        if (reachable.value(n, false) && m_tokens[n] < 0)
            worst = std::max(worst, -m_tokens[n]);
    }
    if (worst <= 0)
        return 0;
    return std::max(1, static_cast<int>(std::ceil(worst * 1000 / rate)));
}

} // namespace redlock
