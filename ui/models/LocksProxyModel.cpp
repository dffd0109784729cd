#include "models/LocksProxyModel.h"

#include "models/LocksModel.h"

namespace redlock {

LocksProxyModel::LocksProxyModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(LocksModel::RawValueRole);
    setDynamicSortFilter(true);
}

void LocksProxyModel::setSourceModel(QAbstractItemModel* model)
{
    m_locks = qobject_cast<LocksModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void LocksProxyModel::setFilterText(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_filterText)
        return;
    m_filterText = trimmed;
    invalidateRowsFilter();
}

bool LocksProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_filterText.isEmpty())
        return true;
    if (m_locks)
        return m_locks->matches(sourceRow, m_filterText);
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    return index.data().toString().contains(m_filterText, Qt::CaseInsensitive);
}

bool LocksProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (m_locks)
        return m_locks->lessThan(left.row(), right.row(), left.column());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace redlock
