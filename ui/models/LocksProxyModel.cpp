#include "models/LocksProxyModel.h"

#include "models/LocksModel.h"

#include <QSortFilterProxyModel>

namespace redlock {

// Sorts and filters with the locks model's own comparisons on raw values (no QVariant per comparison): 100,000
// rows sort in well under a frame budget.
class LocksProxyModel::Sorter final : public QSortFilterProxyModel
{
public:
    explicit Sorter(QObject* parent) : QSortFilterProxyModel(parent)
    {
        setSortRole(LocksModel::RawValueRole);
        setDynamicSortFilter(true);
    }

    void setLocks(QAbstractItemModel* model)
    {
        m_locks = qobject_cast<LocksModel*>(model);
        setSourceModel(model);
    }

    void setFilterText(const QString& text)
    {
        if (text == m_filterText)
            return;
        m_filterText = text;
        invalidateRowsFilter();
    }
    QString filterText() const { return m_filterText; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override
    {
        if (m_filterText.isEmpty())
            return true;
        if (m_locks)
            return m_locks->matches(sourceRow, m_filterText);
        const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
        return index.data().toString().contains(m_filterText, Qt::CaseInsensitive);
    }

    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override
    {
        if (m_locks)
            return m_locks->lessThan(left.row(), right.row(), left.column());
        return QSortFilterProxyModel::lessThan(left, right);
    }

private:
    LocksModel* m_locks = nullptr;
    QString m_filterText;
};

LocksProxyModel::LocksProxyModel(QObject* parent) : QIdentityProxyModel(parent), m_sorter(new Sorter(this)) {}

void LocksProxyModel::setSourceModel(QAbstractItemModel* model)
{
    if (model == m_locks)
        return;
    m_sorter->setLocks(nullptr);
    QIdentityProxyModel::setSourceModel(nullptr);
    m_locks = model;
    route();
}

QString LocksProxyModel::filterText() const
{
    return m_filterText;
}

bool LocksProxyModel::isPassThrough() const
{
    return m_locks && sourceModel() == m_locks;
}

int LocksProxyModel::rowOfLocksRow(int locksRow) const
{
    if (!m_locks || locksRow < 0 || locksRow >= m_locks->rowCount())
        return -1;
    if (isPassThrough())
        return locksRow;
    return m_sorter->mapFromSource(m_locks->index(locksRow, 0)).row();
}

bool LocksProxyModel::wantsPassThrough() const
{
    // The locks model keeps its rows in key order (bytes): sorted by key ascending is its own order.
    const bool ownOrder = m_sortColumn < 0 || (m_sortColumn == LocksModel::KeyColumn &&
                                               m_sortOrder == Qt::AscendingOrder && qobject_cast<LocksModel*>(m_locks));
    return ownOrder && m_filterText.isEmpty();
}

void LocksProxyModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column < 0 ? -1 : column;
    m_sortOrder = order;
    route();
}

void LocksProxyModel::setFilterText(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_filterText)
        return;
    m_filterText = trimmed;
    route();
}

void LocksProxyModel::route()
{
    if (!m_locks)
        return;
    if (wantsPassThrough()) {
        // Let go of the sorter before its filter changes: a filter cleared while it is attached would put back
        // every row it had filtered out, one run at a time, for nothing (10 s at 1M rows).
        if (sourceModel() != m_locks)
            QIdentityProxyModel::setSourceModel(m_locks); // one reset of the view
        m_sorter->setLocks(nullptr);                      // no mapping kept meanwhile
        m_sorter->setFilterText(m_filterText);
        return;
    }
    // Sorted and filtered before it is shown: one reset when the sorter comes in, and while it is in, a new sort or
    // filter moves rows (the view keeps its selection).
    m_sorter->setFilterText(m_filterText);
    if (m_sorter->sourceModel() != m_locks)
        m_sorter->setLocks(m_locks);
    m_sorter->sort(m_sortColumn, m_sortOrder);
    if (sourceModel() != m_sorter)
        QIdentityProxyModel::setSourceModel(m_sorter);
}

} // namespace redlock
