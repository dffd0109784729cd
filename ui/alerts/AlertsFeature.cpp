#include "alerts/AlertsFeature.h"

#include "alerts/AlertThresholdsDialog.h"
#include "alerts/AlertsModel.h"
#include "alerts/AlertsPanel.h"
#include "controller/AlertSettings.h"
#include "controller/ClusterController.h"
#include "models/EventLogModel.h"
#include "theme/Icons.h"
#include "views/MainWindow.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QSystemTrayIcon>

namespace redlock {

AlertsFeature::AlertsFeature(ClusterController* controller, MainWindow* window, QSettings* settings, QObject* parent)
    : QObject(parent), m_controller(controller), m_window(window), m_settings(settings),
      m_thresholds(AlertSettings::load(*settings)), m_model(new AlertsModel(500, this))
{
    m_panel = new AlertsPanel(m_model);
    m_dock = window->addDockPanel(m_panel, tr("Alerts"), QStringLiteral("alertsDock"));
    connect(m_panel, &AlertsPanel::thresholdsRequested, this, [this] { openThresholds(); });

    QMenu* menu = window->insertMenu(tr("A&lerts"));
    QAction* show = m_dock->toggleViewAction();
    show->setText(tr("&Alerts panel"));
    show->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    menu->addAction(show);
    m_thresholdsAction = menu->addAction(tr("&Thresholds…"), this, [this] { openThresholds(); });
    m_thresholdsAction->setObjectName(QStringLiteral("alertThresholdsAction"));
    menu->addAction(tr("&Unmute all"), this, [this] {
        if (m_monitor)
            m_monitor->unmuteAll();
    });

    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(Icons::application(), this);
        m_tray->setToolTip(tr("Redlock Console"));
        m_tray->show();
        m_panel->setNotificationNote(tr("Notifications go to the system tray."));
    } else {
        m_panel->setNotificationNote(tr("No system tray here: alerts notify in the status bar and open this panel."));
    }
    connect(m_model, &AlertsModel::activeCountChanged, this,
            [this](int active) { m_dock->setWindowTitle(active > 0 ? tr("Alerts (%1)").arg(active) : tr("Alerts")); });

    connect(controller, &ClusterController::started, this, &AlertsFeature::onStarted);
    connect(controller, &ClusterController::stopped, this, [this] {
        m_model->setMonitor(nullptr);
        m_monitor.reset();
    });
    connect(controller, &ClusterController::locksChanged, this, [this](const LockChangeSet& changes) {
        if (m_monitor)
            m_monitor->applyLocks(changes);
    });
    connect(controller, &ClusterController::nodeFactsChanged, this, [this](int node) {
        if (!m_monitor || node < 0 || node >= m_controller->nodeFacts().size())
            return;
        m_monitor->setQuarantined(m_controller->quarantinedNodes());
        m_monitor->setNodeFacts(m_controller->nodeFacts()[node]);
    });
    connect(controller, &ClusterController::auditChanged, this, [this] {
        if (!m_monitor)
            return;
        m_monitor->setMaxTtlMs(m_controller->auditMaxTtlMs());
        m_monitor->setFindings(m_controller->findings());
    });
    if (controller->isRunning())
        onStarted();
}

AlertsFeature::~AlertsFeature()
{
    m_model->setMonitor(nullptr);
}

void AlertsFeature::onStarted()
{
    m_model->setMonitor(nullptr);
    AlertMonitorOptions o;
    const ClusterSettings& s = m_controller->settings();
    o.nodeCount = static_cast<int>(s.nodes.size());
    for (const NodeEndpoint& n : s.nodes)
        o.nodeNames << n.displayName();
    o.driftFactor = s.driftFactor;
    o.maxTtlMs = m_controller->auditMaxTtlMs();
    o.thresholds = m_thresholds;
    o.clock = m_clock;
    m_monitor = std::make_unique<AlertMonitor>(o);
    connect(m_monitor.get(), &AlertMonitor::alertRaised, this, [this](const Alert& a) { logAlert(a, true); });
    connect(m_monitor.get(), &AlertMonitor::alertCleared, this, [this](const Alert& a) { logAlert(a, false); });
    connect(m_monitor.get(), &AlertMonitor::notify, this, &AlertsFeature::onNotify);
    m_model->setMonitor(m_monitor.get());
}

void AlertsFeature::setThresholds(const AlertThresholds& thresholds)
{
    m_thresholds = thresholds;
    AlertSettings::save(*m_settings, thresholds);
    if (m_monitor)
        m_monitor->setThresholds(thresholds);
}

AlertThresholdsDialog* AlertsFeature::openThresholds()
{
    auto* dialog = new AlertThresholdsDialog(m_thresholds, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { setThresholds(dialog->thresholds()); });
    dialog->show();
    return dialog;
}

void AlertsFeature::onNotify(const Alert& alert, bool repeat)
{
    const QString title = repeat ? tr("Redlock alert (reminder): %1").arg(alertRuleName(alert.rule))
                                 : tr("Redlock alert: %1").arg(alertRuleName(alert.rule));
    if (m_tray) {
        m_tray->showMessage(title, alert.message, QSystemTrayIcon::Warning);
    } else {
        m_window->statusBar()->showMessage(tr("%1 — %2").arg(title, alert.message), 15000);
        m_dock->show(); // room for a few alerts, taken from the panels above (MainWindow::addDockPanel)
        m_dock->raise();
    }
    emit notified(alert, repeat);
}

void AlertsFeature::logAlert(const Alert& alert, bool raised)
{
    EventLogModel::Entry e;
    e.atMs = raised ? alert.raisedAtMs : alert.clearedAtMs;
    e.source = EventLogModel::Source::Console;
    e.texts.kind = raised ? tr("alert") : tr("alert cleared");
    e.kindId = raised ? QStringLiteral("alert-raised") : QStringLiteral("alert-cleared");
    e.key = alert.key;
    e.texts.detail = tr("%1: %2").arg(alertRuleName(alert.rule), alert.message);
    m_window->eventLog()->addEntries({e});
}

} // namespace redlock
