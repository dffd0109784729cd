#pragma once

#include <QStyledItemDelegate>

namespace redlock {

// Paints a locks-table node column (LocksModel::TtlCellRole) as a bar of the node's remaining TTL.
// The states differ by more than colour: majority token = solid bar and the time; another token = hatched
// bar, "≠" and the time; absent = a dash; unreachable = cross-hatched cell with "✕".
class TtlBarDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TtlBarDelegate)

public:
    explicit TtlBarDelegate(QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace redlock
