#pragma once

#include "history/HistoryTypes.h"

#include <QWidget>

namespace redlock {

// The history view's per-key timeline: over the queried time range, one row per holder with a bar for each of
// its tenures, coloured (and patterned) by how it ended, in the state palette the validity timeline uses; the
// key's contests and force releases as marks on the axis; the spans nobody watched as grey hatched bands across the
// rows ("not watched 02:10–02:12"), never as an end; each bar says which writer saw it.
class HistoryTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryTimeline)

public:
    explicit HistoryTimeline(QWidget* parent = nullptr);
    ~HistoryTimeline() override;

    void setKey(const QByteArray& key, const QList<HolderInterval>& intervals, const QList<JournalEvent>& events,
                qint64 sinceMs, qint64 untilMs, const QList<UnwatchedSpan>& unwatched = {});
    void clear();

    QByteArray key() const { return m_key; }
    int intervalCount() const { return int(m_intervals.size()); }
    int holderRows() const { return int(m_holders.size()); }
    QString holderLabel(int row) const { return m_holders.value(row); } // as drawn (before eliding)
    // Where the bar of interval i was last painted (empty before a paint), for tests.
    QRect barRect(int i) const { return m_bars.value(i); }
    // The spans nobody watched within the range, and where the band of span i was last painted.
    int unwatchedCount() const { return int(m_unwatched.size()); }
    QRect unwatchedRect(int i) const { return m_unwatchedBands.value(i); }
    QString unwatchedLabel(int i) const; // as drawn on the band (before eliding)
    QString barLabel(int i) const;       // as drawn inside the bar of interval i (before eliding)

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QByteArray m_key;
    QList<HolderInterval> m_intervals;
    QList<JournalEvent> m_marks;
    QStringList m_holders; // holders as shown (holderDisplayText), one row each, in order of first tenure
    qint64 m_sinceMs = 0;
    qint64 m_untilMs = 0;
    bool m_hasKey = false;
    QList<QRect> m_bars;
    QList<UnwatchedSpan> m_unwatched;
    QList<QRect> m_unwatchedBands;
};

} // namespace redlock
