#include "alerts/AlertsPanel.h"

#include "alerts/AlertsModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace redlock {

AlertsPanel::AlertsPanel(AlertsModel* model, QWidget* parent) : QWidget(parent), m_model(model)
{
    setObjectName(QStringLiteral("alertsPanel"));
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("alertsView"));
    m_view->setModel(model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(AlertsModel::StateColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(AlertsModel::RuleColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(AlertsModel::MessageColumn, QHeaderView::Stretch);
    m_view->setWordWrap(false);

    m_acknowledge = new QPushButton(tr("&Acknowledge"));
    m_acknowledge->setObjectName(QStringLiteral("acknowledgeAlert"));
    m_acknowledge->setToolTip(tr("The alert stays listed and stops notifying"));
    m_muteRule = new QToolButton;
    m_muteRule->setObjectName(QStringLiteral("muteRule"));
    m_muteRule->setText(tr("Mute rule"));
    m_muteRule->setPopupMode(QToolButton::InstantPopup);
    m_muteRule->setMenu(muteMenu(true));
    m_muteSubject = new QToolButton;
    m_muteSubject->setObjectName(QStringLiteral("muteSubject"));
    m_muteSubject->setText(tr("Mute key or node"));
    m_muteSubject->setPopupMode(QToolButton::InstantPopup);
    m_muteSubject->setMenu(muteMenu(false));
    m_unmute = new QPushButton(tr("&Unmute all"));
    m_unmute->setObjectName(QStringLiteral("unmuteAll"));
    m_thresholds = new QPushButton(tr("&Thresholds…"));
    m_thresholds->setObjectName(QStringLiteral("alertThresholds"));
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("notificationNote"));
    m_note->setWordWrap(true);

    auto* buttons = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{m_acknowledge, m_muteRule, m_muteSubject, m_unmute})
        buttons->addWidget(w);
    buttons->addWidget(m_note, 1);
    buttons->addWidget(m_thresholds);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(m_acknowledge, &QPushButton::clicked, this, [this] {
        const auto alert = selectedAlert();
        if (alert && m_model->monitor())
            m_model->monitor()->acknowledge(alert->id);
        updateButtons();
    });
    connect(m_unmute, &QPushButton::clicked, this, [this] {
        if (m_model->monitor())
            m_model->monitor()->unmuteAll();
    });
    connect(m_thresholds, &QPushButton::clicked, this, &AlertsPanel::thresholdsRequested);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &AlertsPanel::updateButtons);
    connect(model, &QAbstractItemModel::dataChanged, this, &AlertsPanel::updateButtons);
    connect(model, &QAbstractItemModel::modelReset, this, &AlertsPanel::updateButtons);
    connect(model, &QAbstractItemModel::rowsInserted, this, &AlertsPanel::updateButtons);
    updateButtons();
}

QList<qint64> AlertsPanel::muteDurations()
{
    return {15 * 60 * 1000LL, 60 * 60 * 1000LL, 8 * 60 * 60 * 1000LL, 24 * 60 * 60 * 1000LL};
}

QMenu* AlertsPanel::muteMenu(bool byRule)
{
    auto* menu = new QMenu(this);
    const QStringList labels{tr("for 15 minutes"), tr("for 1 hour"), tr("for 8 hours"), tr("for 24 hours")};
    const QList<qint64> durations = muteDurations();
    for (int i = 0; i < durations.size(); ++i) {
        QAction* action = menu->addAction(labels[i]);
        action->setObjectName(QStringLiteral("%1-%2").arg(byRule ? u"muteRule" : u"muteSubject").arg(i));
        connect(action, &QAction::triggered, this, [this, byRule, ms = durations[i]] {
            const auto alert = selectedAlert();
            AlertMonitor* monitor = m_model->monitor();
            if (!alert || !monitor)
                return;
            if (byRule)
                monitor->muteRule(alert->rule, ms);
            else
                monitor->muteSubject(alert->subject, ms);
        });
    }
    return menu;
}

std::optional<Alert> AlertsPanel::selectedAlert() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid() || current.row() >= m_model->rowCount())
        return std::nullopt;
    return m_model->alertAt(current.row());
}

void AlertsPanel::updateButtons()
{
    const auto alert = selectedAlert();
    m_acknowledge->setEnabled(alert && alert->isActive() && !alert->acknowledged);
    m_muteRule->setEnabled(alert.has_value());
    m_muteSubject->setEnabled(alert && !alert->subject.isEmpty());
}

void AlertsPanel::setNotificationNote(const QString& text)
{
    m_note->setText(text);
}

} // namespace redlock
