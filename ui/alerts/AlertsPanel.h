#pragma once

#include "alerts/AlertMonitor.h"

#include <QWidget>

#include <optional>

class QLabel;
class QMenu;
class QPushButton;
class QTableView;
class QToolButton;

namespace redlock {

class AlertsModel;

// The alerts list with what an operator does about them: acknowledge the selected alert, mute its rule or its
// subject (the lock key or the node) for a while, unmute everything, edit the thresholds. Acts on the model's
// monitor; a note says how notifications reach the operator (the system tray, or this panel when there is none).
class AlertsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertsPanel)

public:
    explicit AlertsPanel(AlertsModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    void setNotificationNote(const QString& text);
    // The mute durations the menus offer, in ms.
    static QList<qint64> muteDurations();

signals:
    void thresholdsRequested();

private:
    std::optional<Alert> selectedAlert() const;
    void updateButtons();
    QMenu* muteMenu(bool byRule);

    AlertsModel* m_model;
    QTableView* m_view;
    QPushButton* m_acknowledge;
    QToolButton* m_muteRule;
    QToolButton* m_muteSubject;
    QPushButton* m_unmute;
    QPushButton* m_thresholds;
    QLabel* m_note;
};

} // namespace redlock
