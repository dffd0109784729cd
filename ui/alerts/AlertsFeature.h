#pragma once

#include "alerts/AlertMonitor.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QAction;
class QDockWidget;
class QSettings;
class QSystemTrayIcon;

namespace redlock {

class AlertThresholdsDialog;
class AlertsModel;
class AlertsPanel;
class ClusterController;
class MainWindow;

// Alerts in the console, added to the main window through its extension points: an AlertMonitor fed by the
// controller's signals (locks, node facts with the quarantined nodes, audit findings), the alerts list in a
// dock, an Alerts menu, event log entries for every alert raised and cleared, and desktop notifications through
// the system tray. Without a system tray (offscreen, some desktops) a notification shows in the status bar and
// opens the alerts dock instead, and the panel says so. Thresholds come from QSettings and are saved there.
class AlertsFeature final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertsFeature)

public:
    AlertsFeature(ClusterController* controller, MainWindow* window, QSettings* settings, QObject* parent = nullptr);
    ~AlertsFeature() override;

    // Tests: the clock of the monitors made from now on.
    void setClock(std::shared_ptr<SteadyClock> clock) { m_clock = std::move(clock); }

    AlertMonitor* monitor() const { return m_monitor.get(); }
    AlertsModel* model() const { return m_model; }
    AlertsPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    QAction* thresholdsAction() const { return m_thresholdsAction; }
    bool trayAvailable() const { return m_tray != nullptr; }
    const AlertThresholds& thresholds() const { return m_thresholds; }
    // Applies and saves.
    void setThresholds(const AlertThresholds& thresholds);
    // Window-modal, deleted on close; applies and saves on OK.
    AlertThresholdsDialog* openThresholds();

signals:
    // A notification was shown (tray message, or the status bar and dock without a tray).
    void notified(const redlock::Alert& alert, bool repeat);

private:
    void onStarted();
    void onNotify(const Alert& alert, bool repeat);
    void logAlert(const Alert& alert, bool raised);

    ClusterController* m_controller;
    MainWindow* m_window;
    QSettings* m_settings;
    AlertThresholds m_thresholds;
    std::shared_ptr<SteadyClock> m_clock;
    std::unique_ptr<AlertMonitor> m_monitor;
    AlertsModel* m_model;
    AlertsPanel* m_panel;
    QDockWidget* m_dock;
    QAction* m_thresholdsAction;
    QSystemTrayIcon* m_tray = nullptr;
};

} // namespace redlock
