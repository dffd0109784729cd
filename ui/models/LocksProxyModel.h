#pragma once

#include <QIdentityProxyModel>
#include <QPointer>

namespace redlock {

class LocksModel;

// What the locks table shows: the locks model as it is (key order) until the operator sorts by another column or
// filters, then the rows sorted on raw values (key bytes, verdict order, expiry instants) and filtered by a text
// that may appear in the key, the holder or the verdict.
//
// Why not a QSortFilterProxyModel all the time: it keeps a mapping of every row and rebuilds it on every insertion,
// sorted or not, so a first table of 1,000,000 locks coming in 1,000 slices cost 1,000 walks over up to a million
// rows (26 s of the GUI thread, measured). In key order and unfiltered the table needs no mapping: the rows go
// straight through (QIdentityProxyModel), and a slice appended at the end costs the table its own rows only. The
// sorting and filtering model underneath is attached only while a sort or a filter is asked for, and let go when
// it is not. Switching between the two resets the view (MainWindow keeps the selected lock across it).
class LocksProxyModel final : public QIdentityProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocksProxyModel)

public:
    explicit LocksProxyModel(QObject* parent = nullptr);

    // The model whose rows are shown (a LocksModel; any model works, sorted and filtered on its display texts).
    void setSourceModel(QAbstractItemModel* model) override;
    QAbstractItemModel* locksModel() const { return m_locks; }
    QString filterText() const;
    // -1: the locks model's own order (key order).
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    // True while the rows go straight through (no sort other than key order, no filter).
    bool isPassThrough() const;
    // The row showing the locks model's row `locksRow` (-1: filtered out or none).
    int rowOfLocksRow(int locksRow) const;

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

public slots:
    void setFilterText(const QString& text);

private:
    class Sorter;
    bool wantsPassThrough() const;
    // Puts the rows straight through or through the sorter, whichever the sort and filter ask for.
    void route();

    QPointer<QAbstractItemModel> m_locks;
    Sorter* m_sorter;
    QString m_filterText;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace redlock
