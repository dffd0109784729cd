#include "views/ValidityTimeline.h"

#include "runtime/HumanUnits.h"
#include "runtime/SteadyClock.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace redlock {

ValidityTimeline::ValidityTimeline(QWidget* parent) : QWidget(parent), m_clock(SteadyClock::system())
{
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, qOverload<>(&QWidget::update));
    setMinimumHeight(120);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

ValidityTimeline::~ValidityTimeline() = default;

void ValidityTimeline::setClock(std::shared_ptr<SteadyClock> clock)
{
    m_clock = clock ? std::move(clock) : SteadyClock::system();
}

void ValidityTimeline::setLock(const LockView& view, double driftFactor)
{
    m_view = view;
    m_driftFactor = driftFactor;
    m_hasLock = true;
    m_timer.start();
    update();
    updateGeometry();
}

void ValidityTimeline::clear()
{
    m_hasLock = false;
    m_view = {};
    m_timer.stop();
    update();
}

qint64 ValidityTimeline::elapsedMs() const
{
    return (m_clock->nowNs() - m_view.observedAtNs) / 1'000'000;
}

qint64 ValidityTimeline::nodeExpiresInMs(int node) const
{
    if (!m_hasLock || node < 0 || node >= m_view.nodes.size())
        return -1;
    const NodeLockState& s = m_view.nodes[node];
    if (s.presence != NodeLockState::Presence::Holding || s.pttlMs < 0)
        return -1;
    return std::max<qint64>(0, s.pttlMs - elapsedMs());
}

qint64 ValidityTimeline::quorumEndsInMs() const
{
    if (!m_hasLock || !m_view.isHeld() || m_view.quorum <= 0)
        return -1;
    // The quorum-th largest PTTL among the nodes holding the majority token: after it, fewer than a
    // quorum still hold the lock.
    QList<qint64> pttls;
    for (const NodeLockState& s : m_view.nodes) {
        if (s.presence == NodeLockState::Presence::Holding && s.token == m_view.token && s.pttlMs >= 0)
            pttls.append(s.pttlMs);
    }
    if (pttls.size() < m_view.quorum)
        return -1;
    std::sort(pttls.begin(), pttls.end(), std::greater<>());
    return std::max<qint64>(0, pttls[m_view.quorum - 1] - elapsedMs());
}

qint64 ValidityTimeline::validityEndsInMs() const
{
    if (!m_hasLock || !m_view.isHeld())
        return -1;
    return m_view.remainingValidityMs(m_clock->nowNs());
}

QSize ValidityTimeline::sizeHint() const
{
    const int rows = std::max<int>(3, int(m_view.nodes.size()));
    return {420, 40 + rows * (fontMetrics().height() + 8) + fontMetrics().height() * 2};
}

QSize ValidityTimeline::minimumSizeHint() const
{
    return {240, 120};
}

void ValidityTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (!m_hasLock) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Select a lock to see its validity timeline"));
        return;
    }

    const int n = int(m_view.nodes.size());
    const int labelWidth = fm.horizontalAdvance(QStringLiteral("#00 ")) + 8;
    const int top = fm.height() + 6; // room for the legend
    const int axisHeight = fm.height() + 6;
    const QRect plot(labelWidth, top, width() - labelWidth - 12, height() - top - axisHeight - 4);
    if (plot.width() < 20 || plot.height() < 10 || n == 0)
        return;

    qint64 horizon = 1000;
    for (int i = 0; i < n; ++i)
        horizon = std::max(horizon, nodeExpiresInMs(i));
    horizon = horizon * 11 / 10;
    auto xFor = [&](qint64 ms) {
        return plot.left() + int(double(std::clamp<qint64>(ms, 0, horizon)) / horizon * plot.width());
    };

    // Axis: now on the left, seconds to the right.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(plot.left(), plot.bottom() + 1, plot.right(), plot.bottom() + 1);
    const qint64 stepCandidates[] = {250, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000};
    qint64 step = stepCandidates[std::size(stepCandidates) - 1];
    for (const qint64 c : stepCandidates) {
        if (horizon / c <= 8) {
            step = c;
            break;
        }
    }
    p.setPen(pal.color(QPalette::Text));
    for (qint64 t = 0; t <= horizon; t += step) {
        const int x = xFor(t);
        p.drawLine(x, plot.bottom() + 1, x, plot.bottom() + 4);
        const QString label = t == 0 ? tr("now") : tr("+%1 s").arg(double(t) / 1000.0, 0, 'g', 3);
        p.drawText(QRect(x - 40, plot.bottom() + 4, 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop, label);
    }

    const int rowHeight = std::max(8, plot.height() / n);
    // The TTL bars' colours (TtlBarDelegate): the majority token's, another token's.
    const StatePalette states = StatePalette::forPalette(pal);
    const QColor majority = states.color(StatePalette::Role::Held);
    const QColor other = states.color(StatePalette::Role::Contested);
    const QColor released = states.color(StatePalette::Role::Released);
    for (int i = 0; i < n; ++i) {
        const NodeLockState& s = m_view.nodes[i];
        const QRect row(plot.left(), plot.top() + i * rowHeight + 2, plot.width(), rowHeight - 4);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(0, row.top(), labelWidth - 4, row.height()), Qt::AlignRight | Qt::AlignVCenter,
                   tr("#%1").arg(i + 1));
        QString text;
        switch (s.presence) {
        case NodeLockState::Presence::Holding: {
            // A lock-delay tombstone is nobody's token: drawn as the TTL cells draw it, never as the majority.
            const bool tombstone = s.hashFields.isEmpty() && LockTombstone::isTombstone(s.token);
            const bool isMajority = !tombstone && s.token == m_view.token && m_view.verdict != LockVerdict::Contested;
            const qint64 left = nodeExpiresInMs(i);
            const QRect bar(row.left(), row.top(), std::max(2, xFor(left < 0 ? horizon : left) - row.left()),
                            row.height());
            const QColor c = isMajority ? majority : tombstone ? released : other;
            QColor light = c;
            light.setAlpha(isMajority ? 120 : 70);
            p.fillRect(bar, light);
            if (tombstone)
                p.fillRect(bar, QBrush(c, Qt::Dense6Pattern));
            else if (!isMajority)
                p.fillRect(bar, QBrush(c, Qt::BDiagPattern));
            p.setPen(c);
            p.drawRect(bar.adjusted(0, 0, -1, -1));
            const QString mark = tombstone ? Icons::verdictGlyph(LockVerdict::ReleasedByOperator) + QLatin1Char(' ')
                                 : isMajority
                                     ? QString()
                                     : Icons::presenceGlyph(NodeLockState::Presence::Holding, false) + QLatin1Char(' ');
            text = mark + (left < 0 ? tr("no TTL") : HumanUnits::remaining(left));
            break;
        }
        case NodeLockState::Presence::Absent:
            text = Icons::presenceGlyph(NodeLockState::Presence::Absent) + QLatin1Char(' ') + tr("absent");
            break;
        case NodeLockState::Presence::Unreachable:
            p.fillRect(row, QBrush(pal.color(QPalette::Mid), Qt::DiagCrossPattern));
            text = Icons::presenceGlyph(NodeLockState::Presence::Unreachable) + QLatin1Char(' ') + tr("unreachable");
            break;
        case NodeLockState::Presence::Refused:
            p.fillRect(row, QBrush(pal.color(QPalette::Mid), Qt::DiagCrossPattern));
            text = Icons::presenceGlyph(NodeLockState::Presence::Refused) + QLatin1Char(' ') +
                   tr("no permission: %1").arg(s.note);
            break;
        case NodeLockState::Presence::NotALock:
            text = Icons::presenceGlyph(NodeLockState::Presence::NotALock) + QLatin1Char(' ') +
                   tr("not a lock (%1)").arg(s.note);
            break;
        }
        p.setPen(pal.color(QPalette::Text));
        p.drawText(row.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    }

    // Quorum end, validity and the drift margin between them.
    const qint64 quorumEnd = quorumEndsInMs();
    const qint64 validity = validityEndsInMs();
    int legendX = plot.left();
    auto legend = [&](const QString& text, const QColor& color, Qt::PenStyle style) {
        p.setPen(QPen(color, 2, style));
        p.drawLine(legendX, fm.height() / 2 + 2, legendX + 16, fm.height() / 2 + 2);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(legendX + 20, fm.ascent() + 1, text);
        legendX += 20 + fm.horizontalAdvance(text) + 16;
    };
    const QColor validityColor = states.color(StatePalette::Role::Accent);
    const QColor quorumEndColor = states.color(StatePalette::Role::Danger);
    QColor driftColor = quorumEndColor;
    driftColor.setAlpha(140);
    if (quorumEnd >= 0 && validity >= 0) {
        const int xv = xFor(validity);
        const int xq = xFor(quorumEnd);
        if (xq > xv)
            p.fillRect(QRect(xv, plot.top(), xq - xv, plot.height()), QBrush(driftColor, Qt::FDiagPattern));
        p.setPen(QPen(validityColor, 2, Qt::SolidLine));
        p.drawLine(xv, plot.top() - 2, xv, plot.bottom());
        p.setPen(QPen(quorumEndColor, 2, Qt::DashLine));
        p.drawLine(xq, plot.top() - 2, xq, plot.bottom());
        legend(tr("validity %1").arg(HumanUnits::remaining(validity)), validityColor, Qt::SolidLine);
        legend(tr("quorum ends %1").arg(HumanUnits::remaining(quorumEnd)), quorumEndColor, Qt::DashLine);
        legend(tr("drift margin %1 ms").arg(quorumEnd - validity), quorumEndColor, Qt::DotLine);
    } else {
        p.setPen(pal.color(QPalette::Text));
        p.drawText(plot.left(), fm.ascent() + 1,
                   tr("No quorum holds this key (%1): no validity").arg(lockVerdictName(m_view.verdict)));
    }
}

} // namespace redlock
