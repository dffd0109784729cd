#include "history/HistoryTimeline.h"

#include "history/HistoryModel.h"
#include "observe/ObservationTypes.h"
#include "runtime/HumanUnits.h"
#include "theme/StatePalette.h"

#include <QDateTime>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>

namespace redlock {

namespace {

StatePalette::Role roleFor(const HolderInterval& i)
{
    if (i.endedBy == u"expired")
        return StatePalette::Role::Expiring;
    if (i.endedBy == u"lost-on-restart" || i.endedBy == u"force-released" || i.endedBy == u"evicted")
        return StatePalette::Role::Danger;
    if (i.endedBy == u"unobserved" || i.endedBy == u"ended-unwatched" || i.endedBy == u"released-or-expired")
        return StatePalette::Role::Neutral; // its end was not seen
    return StatePalette::Role::Held;        // still held, released, taken over
}

// A bar whose start was not seen (held when first seen): it fades in from the left, with no left edge.
void fillBar(QPainter& p, const QRect& bar, const QColor& fill, bool startUnseen)
{
    if (!startUnseen) {
        p.fillRect(bar, fill);
        return;
    }
    const int fade = std::min(28, std::max(1, bar.width() / 3));
    QLinearGradient gradient(bar.left(), 0, bar.left() + fade, 0);
    QColor clear = fill;
    clear.setAlpha(0);
    gradient.setColorAt(0, clear);
    gradient.setColorAt(1, fill);
    p.fillRect(QRect(bar.left(), bar.top(), fade, bar.height()), gradient);
    p.fillRect(bar.adjusted(fade, 0, 0, 0), fill);
}

void outlineBar(QPainter& p, const QRect& bar, bool startUnseen)
{
    const QRect r = bar.adjusted(0, 0, -1, -1);
    if (!startUnseen) {
        p.drawRect(r);
        return;
    }
    p.drawLine(r.topLeft(), r.topRight());
    p.drawLine(r.topRight(), r.bottomRight());
    p.drawLine(r.bottomLeft(), r.bottomRight());
}

// One row per holder, named as shown: a client that acquires again (with a new token each time) stays on its row.
QString rowOf(const HolderInterval& i)
{
    return holderDisplayText(i.holder, i.token);
}

} // namespace

HistoryTimeline::HistoryTimeline(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

HistoryTimeline::~HistoryTimeline() = default;

void HistoryTimeline::setKey(const QByteArray& key, const QList<HolderInterval>& intervals,
                             const QList<JournalEvent>& events, qint64 sinceMs, qint64 untilMs,
                             const QList<UnwatchedSpan>& unwatched)
{
    m_unwatched.clear();
    for (const UnwatchedSpan& span : unwatched) {
        if (span.fromMs <= untilMs && (span.isOpen() || span.toMs >= sinceMs))
            m_unwatched.append(span);
    }
    m_unwatchedBands.clear();
    m_key = key;
    m_intervals = intervals;
    m_marks.clear();
    for (const JournalEvent& e : events) {
        if (e.kind == u"contested" || e.kind == u"force-released" || e.kind == u"force-released-minority" ||
            e.kind == u"lost-on-restart")
            m_marks.append(e);
    }
    m_holders.clear();
    for (const HolderInterval& i : intervals) {
        if (!m_holders.contains(rowOf(i)))
            m_holders.append(rowOf(i));
    }
    m_sinceMs = sinceMs;
    m_untilMs = std::max(untilMs, sinceMs + 1);
    m_hasKey = true;
    m_bars.clear();
    updateGeometry();
    update();
}

void HistoryTimeline::clear()
{
    m_hasKey = false;
    m_key.clear();
    m_intervals.clear();
    m_marks.clear();
    m_holders.clear();
    m_bars.clear();
    m_unwatched.clear();
    m_unwatchedBands.clear();
    update();
}

QString HistoryTimeline::unwatchedLabel(int i) const
{
    return i >= 0 && i < m_unwatched.size() ? HistoryModel::unwatchedText(m_unwatched[i]) : QString();
}

QString HistoryTimeline::barLabel(int n) const
{
    if (n < 0 || n >= m_intervals.size())
        return {};
    const HolderInterval& i = m_intervals[n];
    // Held when first seen: "at least" that long, never an acquisition time.
    const QString duration = HumanUnits::duration(i.durationMs(m_untilMs));
    const bool atLeast = i.atLeastSince || (!i.isOpen() && i.goneByMs >= 0);
    QString label =
        (atLeast ? tr("at least %1").arg(duration) : duration) + QStringLiteral(" · ") + intervalEndName(i.endedBy);
    if (i.writer.isKnown())
        label += QStringLiteral(" · ") + tr("seen by %1").arg(HistoryModel::writerText(i.writer));
    return label;
}

QSize HistoryTimeline::sizeHint() const
{
    const int rows = std::clamp(int(m_holders.size()), 1, 8);
    return {600, fontMetrics().height() * (4 + rows * 2) + 16}; // the legend may take two lines
}

QSize HistoryTimeline::minimumSizeHint() const
{
    // Two legend lines, the key, two holders and the axis.
    return {200, fontMetrics().height() * 7 + 30};
}

void HistoryTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (!m_hasKey) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Select an interval to see the key's timeline"));
        return;
    }
    const StatePalette states = StatePalette::forPalette(pal);
    // Legend: what the colours say (wrapped to the width), then the key.
    int legendX = 8;
    int legendY = 4;
    auto legend = [&](const QString& text, StatePalette::Role role, Qt::BrushStyle pattern, bool startUnseen = false) {
        if (legendX > 8 && legendX + 27 + fm.horizontalAdvance(text) > width() - 8) {
            legendX = 8;
            legendY += fm.height() + 2;
        }
        QColor c = states.color(role);
        const QRect swatch(legendX, legendY + 2, startUnseen ? 22 : 14, fm.height() - 4);
        QColor fill = c;
        fill.setAlpha(120);
        fillBar(p, swatch, fill, startUnseen);
        if (pattern != Qt::SolidPattern)
            p.fillRect(swatch, QBrush(c, pattern));
        p.setPen(c);
        outlineBar(p, swatch, startUnseen);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(swatch.right() + 5, legendY + fm.ascent(), text);
        legendX = swatch.right() + 5 + fm.horizontalAdvance(text) + 14;
    };
    legend(tr("held, released or taken over"), StatePalette::Role::Held, Qt::SolidPattern);
    legend(tr("expired"), StatePalette::Role::Expiring, Qt::SolidPattern);
    legend(tr("lost or force-released"), StatePalette::Role::Danger, Qt::BDiagPattern);
    legend(tr("end not seen"), StatePalette::Role::Neutral, Qt::Dense6Pattern);
    legend(tr("held before first seen"), StatePalette::Role::Held, Qt::SolidPattern, true);
    legend(tr("not watched"), StatePalette::Role::Neutral, Qt::FDiagPattern);

    const int top = legendY + fm.height() + 6;
    p.setPen(pal.color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRect(8, top, width() - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(printableBytes(m_key), Qt::ElideRight, width() - 16));
    p.setFont(font());

    const int axisHeight = fm.height() + 8;
    // A column of holder names on the left, the bars to its right.
    const int nameWidth = std::min(240, width() / 4);
    const QRect plot(8 + nameWidth, top + fm.height() + 6, width() - 16 - nameWidth,
                     height() - (top + fm.height() + 6) - axisHeight);
    const int rows = int(m_holders.size());
    if (plot.width() < 40 || plot.height() < 10)
        return;
    if (rows == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, tr("No holder in this time range"));
    }
    const qint64 span = m_untilMs - m_sinceMs;
    auto xFor = [&](qint64 ms) {
        return plot.left() +
               int(double(std::clamp(ms, m_sinceMs, m_untilMs) - m_sinceMs) / double(span) * plot.width());
    };

    // Axis: wall-clock labels, as many as fit.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(plot.left(), plot.bottom() + 1, plot.right(), plot.bottom() + 1);
    const qint64 steps[] = {1000,     5000,           15'000,         60'000,      300'000,        900'000,
                            3600'000, 3 * 3600'000LL, 6 * 3600'000LL, 86400'000LL, 7 * 86400'000LL};
    const QString format = span <= 3 * 60'000    ? QStringLiteral("HH:mm:ss")
                           : span <= 86400'000LL ? QStringLiteral("HH:mm")
                                                 : QStringLiteral("MM-dd HH:mm");
    const int labelWidth = fm.horizontalAdvance(QStringLiteral("00-00 00:00")) + 16;
    const int maxLabels = std::max(2, plot.width() / labelWidth);
    qint64 step = steps[std::size(steps) - 1];
    for (const qint64 s : steps) {
        if (span / s <= maxLabels) {
            step = s;
            break;
        }
    }
    p.setPen(pal.color(QPalette::Text));
    const qint64 offset = QDateTime::fromMSecsSinceEpoch(m_sinceMs).offsetFromUtc() * 1000LL;
    for (qint64 t = ((m_sinceMs + offset) / step + 1) * step - offset; t <= m_untilMs; t += step) {
        const int x = xFor(t);
        p.drawLine(x, plot.bottom() + 1, x, plot.bottom() + 4);
        p.drawText(QRect(x - labelWidth / 2, plot.bottom() + 4, labelWidth, fm.height()),
                   Qt::AlignHCenter | Qt::AlignTop, QDateTime::fromMSecsSinceEpoch(t).toString(format));
    }

    // The spans nobody watched: grey hatched bands across every row, under the bars (a tenure that went on across
    // one is drawn over it: the same holder was seen before and after). Labelled at the top when they fit.
    m_unwatchedBands = QList<QRect>(m_unwatched.size());
    for (qsizetype n = 0; n < m_unwatched.size(); ++n) {
        const UnwatchedSpan& gap = m_unwatched[n];
        const int x0 = xFor(gap.fromMs);
        const int x1 = xFor(gap.isOpen() ? m_untilMs : gap.toMs);
        const QRect band(x0, plot.top(), std::max(3, x1 - x0), plot.height());
        m_unwatchedBands[n] = band;
        const QColor grey = states.color(StatePalette::Role::Neutral);
        QColor fill = grey;
        fill.setAlpha(50);
        p.fillRect(band, fill);
        p.fillRect(band, QBrush(grey, Qt::FDiagPattern));
        p.setPen(QPen(grey, 1, Qt::DashLine));
        p.drawLine(band.left(), band.top(), band.left(), band.bottom());
        p.drawLine(band.right(), band.top(), band.right(), band.bottom());
    }

    // One row per holder, a bar per tenure.
    m_bars = QList<QRect>(m_intervals.size());
    // Rows stay tall enough for their label; the holders that do not fit are counted at the bottom.
    const int rowHeight = rows > 0 ? std::max(fm.height() + 4, std::min(plot.height() / rows, fm.height() * 2)) : 0;
    const int fitting = rowHeight > 0 ? std::max(1, plot.height() / rowHeight) : 0;
    if (rows > fitting) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(plot.left(), top, plot.width(), fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   tr("%n more holder(s) not shown: enlarge the panel", nullptr, rows - fitting));
    }
    for (qsizetype n = 0; n < m_intervals.size(); ++n) {
        const HolderInterval& i = m_intervals[n];
        const int row = int(m_holders.indexOf(rowOf(i)));
        if (row < 0 || row >= fitting)
            continue;
        const int x0 = xFor(i.fromMs);
        const int x1 = xFor(i.isOpen() ? m_untilMs : i.toMs);
        const QRect bar(x0, plot.top() + row * rowHeight + 2, std::max(3, x1 - x0), rowHeight - 4);
        m_bars[n] = bar;
        const StatePalette::Role role = roleFor(i);
        const QColor c = states.color(role);
        QColor fill = c;
        fill.setAlpha(120);
        fillBar(p, bar, fill, i.atLeastSince);
        if (role == StatePalette::Role::Danger)
            p.fillRect(bar, QBrush(c, Qt::BDiagPattern));
        else if (role == StatePalette::Role::Neutral)
            p.fillRect(bar, QBrush(c, Qt::Dense6Pattern));
        p.setPen(c);
        outlineBar(p, bar, i.atLeastSince);
        if (i.isOpen()) // still held: an arrow at the end says it goes on
            p.drawLine(bar.right(), bar.top(), bar.right(), bar.bottom());
        // An end nobody saw: between the last sighting and the read that found it gone, a hatched tail (it ended
        // somewhere in there), never a bar drawn to a made-up end.
        if (!i.isOpen() && i.goneByMs > i.toMs) {
            const int tailEnd = xFor(i.goneByMs);
            if (tailEnd > bar.right() + 1) {
                const QRect tail(bar.right() + 1, bar.top(), tailEnd - bar.right() - 1, bar.height());
                p.fillRect(tail, QBrush(states.color(StatePalette::Role::Neutral), Qt::Dense6Pattern));
            }
        }
        // Inside the bar only (bars of one row never overlap their labels): how long, how it ended, who saw it.
        const QString label = barLabel(int(n));
        const QRect textRect = bar.adjusted(3, 0, -2, 0);
        if (textRect.width() > fm.horizontalAdvance(QStringLiteral("0.0 s"))) {
            p.setPen(pal.color(QPalette::Text));
            p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(label, Qt::ElideRight, textRect.width()));
        }
    }
    p.setPen(pal.color(QPalette::Text));
    for (int row = 0; row < std::min(rows, fitting); ++row) {
        const QRect nameRect(8, plot.top() + row * rowHeight, nameWidth - 6, rowHeight);
        p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(m_holders[row], Qt::ElideRight, nameRect.width()));
    }
    // The bands' labels over the bars, on the Base colour so that they read on any bar.
    for (qsizetype n = 0; n < m_unwatched.size(); ++n) {
        const QRect& band = m_unwatchedBands[n];
        const QString text = unwatchedLabel(int(n));
        const int w = std::min(fm.horizontalAdvance(text) + 8, std::max(band.width(), plot.right() - band.left()));
        if (w < fm.horizontalAdvance(QStringLiteral("not w")))
            continue;
        const QRect r(std::min(band.left(), plot.right() - w), plot.bottom() - fm.height() - 1, w, fm.height());
        p.fillRect(r, pal.color(QPalette::Base));
        p.setPen(pal.color(QPalette::Text));
        p.drawText(r, Qt::AlignCenter, fm.elidedText(text, Qt::ElideRight, r.width() - 4));
    }
    // Contests, losses and force releases: marks across the rows.
    for (const JournalEvent& e : std::as_const(m_marks)) {
        if (e.atMs < m_sinceMs || e.atMs > m_untilMs)
            continue;
        const QColor c =
            states.color(e.kind == u"contested" ? StatePalette::Role::Contested : StatePalette::Role::Danger);
        const int x = xFor(e.atMs);
        p.setPen(QPen(c, 2, Qt::DashLine));
        p.drawLine(x, plot.top(), x, plot.bottom());
        p.drawText(x + 3, plot.top() + fm.ascent(), journalKindName(e.kind));
    }
}

} // namespace redlock
