#pragma once

#include "observe/ObservationTypes.h"

#include <QTimer>
#include <QWidget>

#include <memory>

namespace redlock {

class SteadyClock;

// The lock detail's timeline, from now to the last expiry: per node a bar from now to that node's expiry
// (solid: majority token, hatched: another token, cross-hatched: unreachable), the instant the quorum of
// holders runs out, the observed validity line before it and the drift margin between the two. Repaints on
// its own timer while a lock is shown, so it moves without new data.
class ValidityTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ValidityTimeline)

public:
    explicit ValidityTimeline(QWidget* parent = nullptr);
    ~ValidityTimeline() override;

    void setLock(const LockView& view, double driftFactor);
    void clear();
    void setClock(std::shared_ptr<SteadyClock> clock);

    // The instants drawn, in ms from now (-1 when there is none): for tests and tooltips.
    qint64 quorumEndsInMs() const;
    qint64 validityEndsInMs() const;
    qint64 nodeExpiresInMs(int node) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    qint64 elapsedMs() const;

    LockView m_view;
    bool m_hasLock = false;
    double m_driftFactor = 0.01;
    QTimer m_timer;
    std::shared_ptr<SteadyClock> m_clock;
};

} // namespace redlock
