#pragma once

#include "alerts/AlertMonitor.h"

#include <QAbstractTableModel>
#include <QPointer>

#include <deque>

namespace redlock {

// The alerts list: what an AlertMonitor raised, newest first, active ones with their state (active,
// acknowledged, muted) and cleared ones kept (up to a capacity) with when they cleared. Only translates the
// monitor's signals; acknowledging and muting are the monitor's.
class AlertsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertsModel)

public:
    enum Column { StateColumn, RuleColumn, MessageColumn, SinceColumn, RaisedColumn, ClearedColumn, ColumnCount };
    enum Role {
        IdRole = Qt::UserRole + 1, // QByteArray: Alert::id
        SubjectRole,               // QByteArray: Alert::subject
        RuleRole,                  // int: AlertRule
        ActiveRole,                // bool
        CountRole,                 // int: Alert::count (a group: the alerts it stands for; else 1)
    };

    explicit AlertsModel(int clearedCapacity = 500, QObject* parent = nullptr);

    // Follows `monitor` (null: none) and lists its active alerts; what was listed before is dropped.
    void setMonitor(AlertMonitor* monitor);
    AlertMonitor* monitor() const { return m_monitor; }

    const Alert& alertAt(int row) const { return m_rows[size_t(row)]; }
    int activeCount() const;
    QString stateText(const Alert& alert) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void activeCountChanged(int active);

private:
    void onRaised(const Alert& alert);
    void onCleared(const Alert& alert);
    void onChanged(const Alert& alert);
    int rowOfActive(const QByteArray& id) const;

    int m_clearedCapacity;
    QPointer<AlertMonitor> m_monitor;
    std::deque<Alert> m_rows; // newest first
};

} // namespace redlock
