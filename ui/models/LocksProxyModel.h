#pragma once

#include <QSortFilterProxyModel>

namespace redlock {

class LocksModel;

// Sorts the locks table on raw values (key bytes, verdict order, expiry instants) and filters by a text
// that may appear in the key, the holder or the verdict. With a LocksModel underneath it compares rows
// directly instead of through QVariants, which keeps sorting 100,000 rows well under a frame budget.
class LocksProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocksProxyModel)

public:
    explicit LocksProxyModel(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;
    QString filterText() const { return m_filterText; }

public slots:
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    LocksModel* m_locks = nullptr;
    QString m_filterText;
};

} // namespace redlock
