#include "views/EventLogPanel.h"

#include "models/EventLogModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace redlock {

EventLogFilterModel::EventLogFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(EventLogModel::RawValueRole);
}

void EventLogFilterModel::setText(const QString& text)
{
    m_text = text.trimmed();
    invalidateRowsFilter();
}

void EventLogFilterModel::setKindFilter(const QString& kind)
{
    m_kind = kind;
    invalidateRowsFilter();
}

bool EventLogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* log = qobject_cast<const EventLogModel*>(sourceModel());
    if (!log)
        return true;
    Q_UNUSED(sourceParent)
    const EventLogModel::Entry& e = log->entry(sourceRow);
    if (m_kind == QLatin1String("lock") && e.source != EventLogModel::Source::LockEvent)
        return false;
    if (m_kind == QLatin1String("operator") && e.source != EventLogModel::Source::OperatorAction)
        return false;
    if (!m_kind.isEmpty() && m_kind != QLatin1String("lock") && m_kind != QLatin1String("operator") &&
        e.kindId != m_kind)
        return false;
    if (m_text.isEmpty())
        return true;
    // The texts shown (a lock event's are made here if no one read them yet).
    return printableBytes(e.key).contains(m_text, Qt::CaseInsensitive) ||
           e.holder().contains(m_text, Qt::CaseInsensitive) || e.detail().contains(m_text, Qt::CaseInsensitive) ||
           e.kind().contains(m_text, Qt::CaseInsensitive);
}

bool EventLogFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const auto* log = qobject_cast<const EventLogModel*>(sourceModel());
    if (!log || left.column() != EventLogModel::TimeColumn)
        return QSortFilterProxyModel::lessThan(left, right);
    const qint64 l = log->entry(left.row()).atMs;
    const qint64 r = log->entry(right.row()).atMs;
    return l != r ? l < r : left.row() < right.row();
}

EventLogPanel::EventLogPanel(EventLogModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_proxy(new EventLogFilterModel(this)), m_filter(new QLineEdit(this)),
      m_kind(new QComboBox(this)), m_view(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->sort(EventLogModel::TimeColumn, Qt::DescendingOrder);

    m_filter->setPlaceholderText(tr("Filter events by key, holder or detail"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("eventFilter"));
    m_kind->setObjectName(QStringLiteral("eventKind"));
    m_kind->addItem(tr("All events"), QString());
    m_kind->addItem(tr("Lock events"), QStringLiteral("lock"));
    m_kind->addItem(tr("Operator actions"), QStringLiteral("operator"));
    for (const LockEvent::Kind kind :
         {LockEvent::Kind::Acquired, LockEvent::Kind::Released, LockEvent::Kind::Expired, LockEvent::Kind::TokenChanged,
          LockEvent::Kind::Contested, LockEvent::Kind::Lost, LockEvent::Kind::Extended, LockEvent::Kind::SeenHeld,
          LockEvent::Kind::ReleasedOrExpired, LockEvent::Kind::Evicted})
        m_kind->addItem(lockEventKindName(kind), lockEventKindId(kind));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &EventLogFilterModel::setText);
    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setKindFilter(m_kind->currentData().toString()); });

    m_view->setModel(m_proxy);
    m_view->setObjectName(QStringLiteral("eventLog"));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(EventLogModel::TimeColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setColumnWidth(EventLogModel::TimeColumn,
                           m_view->fontMetrics().horizontalAdvance(QStringLiteral("00:00:00.000")) + 20);
    m_view->setColumnWidth(EventLogModel::KindColumn, 130);
    m_view->setColumnWidth(EventLogModel::KeyColumn, 220);
    m_view->setColumnWidth(EventLogModel::HolderColumn, 260);

    auto* top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(m_kind);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
}

} // namespace redlock
