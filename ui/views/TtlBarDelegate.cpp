#include "views/TtlBarDelegate.h"

#include "models/LocksModel.h"
#include "runtime/HumanUnits.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"

#include <QApplication>
#include <QPainter>

namespace redlock {

TtlBarDelegate::TtlBarDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QSize TtlBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(std::max(
        size.width(), option.fontMetrics.horizontalAdvance(
                          Icons::presenceGlyph(NodeLockState::Presence::Holding, false) + QStringLiteral(" 00.0 s")) +
                          16));
    return size;
}

void TtlBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QVariant value = index.data(LocksModel::TtlCellRole);
    if (!value.canConvert<TtlCell>()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const TtlCell cell = value.value<TtlCell>();

    // Background and selection as the style draws them, without the text.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QPalette& palette = option.palette;
    const bool selected = option.state & QStyle::State_Selected;
    const QRect bar = option.rect.adjusted(3, 3, -3, -3);
    QString text = cell.text;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    switch (cell.kind) {
    case TtlCell::Kind::Majority:
    case TtlCell::Kind::OtherToken:
    case TtlCell::Kind::Tombstone: {
        const bool majority = cell.kind == TtlCell::Kind::Majority;
        const bool tombstone = cell.kind == TtlCell::Kind::Tombstone;
        const QColor fill = StatePalette::forPalette(palette).color(majority    ? StatePalette::Role::Held
                                                                    : tombstone ? StatePalette::Role::Released
                                                                                : StatePalette::Role::Contested);
        double fraction = 1.0;
        if (cell.remainingMs >= 0 && cell.scaleMs > 0)
            fraction = std::clamp(double(cell.remainingMs) / double(cell.scaleMs), 0.0, 1.0);
        QRect filled = bar;
        filled.setWidth(std::max(2, int(bar.width() * fraction)));
        painter->setPen(QPen(fill, 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(bar.adjusted(0, 0, -1, -1));
        QColor light = fill;
        light.setAlpha(majority ? 110 : 70);
        painter->fillRect(filled, light);
        if (tombstone) {
            // A lock-delay: dotted, its own mark; the time is when this node lets a newcomer in.
            painter->fillRect(filled, QBrush(fill, Qt::Dense6Pattern));
            text = Icons::verdictGlyph(LockVerdict::ReleasedByOperator) + QLatin1Char(' ') +
                   (cell.remainingMs < 0 ? QStringLiteral("∞") : HumanUnits::remaining(cell.remainingMs));
        } else if (!majority) {
            painter->fillRect(filled, QBrush(fill, Qt::BDiagPattern));
            // The model's text says "other …"; the mark and the hatching say it here, leaving room for the time.
            text = Icons::presenceGlyph(NodeLockState::Presence::Holding, false) + QLatin1Char(' ') +
                   (cell.remainingMs < 0 ? QStringLiteral("∞") : HumanUnits::remaining(cell.remainingMs));
        }
        break;
    }
    case TtlCell::Kind::Unreachable:
        painter->fillRect(bar, QBrush(palette.color(QPalette::Mid), Qt::DiagCrossPattern));
        text = Icons::presenceGlyph(NodeLockState::Presence::Unreachable) + QLatin1Char(' ') + text;
        break;
    case TtlCell::Kind::NotALock:
        text = Icons::presenceGlyph(NodeLockState::Presence::NotALock) + QLatin1Char(' ') + text;
        break;
    case TtlCell::Kind::Absent:
        text = Icons::presenceGlyph(NodeLockState::Presence::Absent);
        break;
    }
    painter->setPen(selected                             ? palette.color(QPalette::HighlightedText)
                    : cell.kind == TtlCell::Kind::Absent ? palette.color(QPalette::PlaceholderText)
                                                         : palette.color(QPalette::Text));
    painter->drawText(bar.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                      option.fontMetrics.elidedText(text, Qt::ElideRight, bar.width() - 8));
    painter->restore();
}

} // namespace redlock
