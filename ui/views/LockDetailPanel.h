#pragma once

#include "controller/ClusterController.h"

#include <QTimer>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QTableWidget;
class QTreeWidget;

namespace redlock {

class EventLogModel;
class LocksModel;
class ValidityTimeline;

// The selected lock: its verdict and holder, the per-node matrix (token, PTTL now, and the PTTL and
// latency of the console's own last read of the key), the validity timeline and the recent holders of the
// key from live events. Follows the lock as batches arrive; reads the key again once a second.
class LockDetailPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockDetailPanel)

public:
    enum MatrixColumn {
        NodeColumn,
        PresenceColumn,
        TokenColumn,
        PttlColumn,
        LastReadColumn,
        LatencyColumn,
        MatrixColumnCount
    };

    LockDetailPanel(ClusterController* controller, LocksModel* locks, EventLogModel* events, QWidget* parent = nullptr);

    void showKey(const QByteArray& key);
    // A widget in the action row under the detail (right-aligned, in the order added): MainWindow's extension
    // point for the operator's buttons.
    void addActionWidget(QWidget* widget);
    QByteArray key() const { return m_key; }
    QTableWidget* matrix() const { return m_matrix; }
    ValidityTimeline* timeline() const { return m_timeline; }
    QTreeWidget* holders() const { return m_holders; }

private:
    void refresh();
    void refreshCountdown();
    QString summaryText(const LockView& view) const;
    void showReason(const QString& reason);
    void refreshHolders();
    void onKeyRead(const QByteArray& key, const QList<KeyReadResult>& results);
    void setCell(int row, int column, const QString& text, const QString& toolTip = {});

    ClusterController* m_controller;
    LocksModel* m_locks;
    EventLogModel* m_events;
    QByteArray m_key;
    QLabel* m_title;
    QLabel* m_summary;
    QLabel* m_reason;
    QTableWidget* m_matrix;
    ValidityTimeline* m_timeline;
    QTreeWidget* m_holders;
    QHBoxLayout* m_actionRow;
    QTimer m_readTimer;
    QTimer m_countdownTimer;
};

} // namespace redlock
