#include "alerts/AlertsModel.h"

#include "theme/Icons.h"

#include <QDateTime>

namespace redlock {

AlertsModel::AlertsModel(int clearedCapacity, QObject* parent)
    : QAbstractTableModel(parent), m_clearedCapacity(std::max(0, clearedCapacity))
{}

void AlertsModel::setMonitor(AlertMonitor* monitor)
{
    if (m_monitor)
        disconnect(m_monitor, nullptr, this, nullptr);
    beginResetModel();
    m_monitor = monitor;
    m_rows.clear();
    if (monitor) {
        const QList<Alert> active = monitor->alerts();
        for (const Alert& a : active)
            m_rows.push_front(a);
        connect(monitor, &AlertMonitor::alertRaised, this, &AlertsModel::onRaised);
        connect(monitor, &AlertMonitor::alertCleared, this, &AlertsModel::onCleared);
        connect(monitor, &AlertMonitor::alertChanged, this, &AlertsModel::onChanged);
        connect(monitor, &AlertMonitor::mutesChanged, this, [this] {
            if (!m_rows.empty())
                emit dataChanged(index(0, StateColumn), index(rowCount() - 1, StateColumn));
        });
    }
    endResetModel();
    emit activeCountChanged(activeCount());
}

int AlertsModel::activeCount() const
{
    return static_cast<int>(std::count_if(m_rows.cbegin(), m_rows.cend(), [](const Alert& a) { return a.isActive(); }));
}

int AlertsModel::rowOfActive(const QByteArray& id) const
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].isActive() && m_rows[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

void AlertsModel::onRaised(const Alert& alert)
{
    beginInsertRows({}, 0, 0);
    m_rows.push_front(alert);
    endInsertRows();
    // Past the capacity, the oldest cleared alert goes.
    const int cleared = static_cast<int>(m_rows.size()) - activeCount();
    if (cleared > m_clearedCapacity) {
        for (int row = rowCount() - 1; row >= 0; --row) {
            if (!m_rows[size_t(row)].isActive()) {
                beginRemoveRows({}, row, row);
                m_rows.erase(m_rows.begin() + row);
                endRemoveRows();
                break;
            }
        }
    }
    emit activeCountChanged(activeCount());
}

void AlertsModel::onCleared(const Alert& alert)
{
    const int row = rowOfActive(alert.id);
    if (row < 0)
        return;
    m_rows[size_t(row)] = alert;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    emit activeCountChanged(activeCount());
}

void AlertsModel::onChanged(const Alert& alert)
{
    const int row = rowOfActive(alert.id);
    if (row < 0)
        return;
    m_rows[size_t(row)] = alert;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

QString AlertsModel::stateText(const Alert& alert) const
{
    if (!alert.isActive())
        return tr("cleared");
    if (alert.acknowledged)
        return tr("acknowledged");
    if (m_monitor && m_monitor->isMuted(alert))
        return tr("muted");
    return tr("active");
}

int AlertsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AlertsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlertsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Alert& a = m_rows[size_t(index.row())];
    auto time = [](qint64 ms) {
        return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss")) : QString();
    };
    switch (role) {
    case Qt::ToolTipRole:
        if (a.group && index.column() == MessageColumn) {
            // The examples whole, one a line (the message cuts them).
            QStringList lines{a.message};
            for (const QByteArray& e : a.examples)
                lines << QStringLiteral("  ") + printableBytes(e);
            return lines.join(u'\n');
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case StateColumn:
            return stateText(a);
        case RuleColumn:
            return a.group ? tr("%1 (%2)").arg(alertRuleName(a.rule)).arg(a.count) : alertRuleName(a.rule);
        case MessageColumn:
            return a.message;
        case SinceColumn:
            return time(a.sinceMs);
        case RaisedColumn:
            return time(a.raisedAtMs);
        case ClearedColumn:
            return time(a.clearedAtMs);
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() != StateColumn)
            return {};
        if (!a.isActive())
            return Icons::severity(std::nullopt);
        return Icons::severity(a.acknowledged ? AuditFinding::Severity::Info : AuditFinding::Severity::Severe);
    case IdRole:
        return a.id;
    case SubjectRole:
        return a.subject;
    case RuleRole:
        return static_cast<int>(a.rule);
    case ActiveRole:
        return a.isActive();
    case CountRole:
        return a.count;
    default:
        return {};
    }
}

QVariant AlertsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StateColumn:
        return tr("State");
    case RuleColumn:
        return tr("Rule");
    case MessageColumn:
        return tr("Alert");
    case SinceColumn:
        return tr("Since");
    case RaisedColumn:
        return tr("Raised");
    case ClearedColumn:
        return tr("Cleared");
    }
    return {};
}

} // namespace redlock
