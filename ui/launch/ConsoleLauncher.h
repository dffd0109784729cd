#pragma once

#include "controller/ClusterController.h"
#include "export/MetricsHttpServer.h" // ListenAddress
#include "redlock/RedlockRules.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QSettings;
class QTemporaryDir;

namespace redlock {

class AlertsFeature;
class DemoController;
class HistoryFeature;
class MetricsEndpoint;
class MainWindow;
class OperatorFeature;

// What the command line asked for.
struct LaunchOptions
{
    QString nodes;      // --nodes host:port,...
    QString pattern;    // --pattern (empty: the profile's, or *)
    QString profile;    // --profile NAME
    bool demo = false;  // --demo
    QString screenshot; // --screenshot FILE
    // --screenshot-delay: how long to wait after the first refresh, so the charts have a history.
    int screenshotDelayMs = 0;
    bool readOnly = false;
    double driftFactor = rules::kDefaultDriftFactor;
    // --dark: main.cpp sets StatePalette::darkApplicationPalette() with the Fusion style before the window is
    // made. Without it the console follows the desktop's palette, dark or light (StatePalette follows it).
    bool dark = false;
    // --metrics-listen: also serve the watched cluster's state to Prometheus on http://ADDRESS:PORT/metrics.
    std::optional<ListenAddress> metricsListen;
    // The lock history journal: --journal FILE (empty: LockJournal::defaultPath(); in demo mode a temporary file
    // beside the demo, so the demo's locks stay out of the operator's history), --no-journal for none.
    QString journal;
    bool noJournal = false;
    // --open-dock NAME: docks shown at start ("history", "testBench"), e.g. for screenshots.
    QStringList openDocks;
    // --screenshot-profiles: the screenshot is of the profiles dialog (--profile selected), for the docs.
    bool screenshotProfiles = false;
};

// Puts the console together: the controller, the main window, and in demo mode a DemoWorkload on its own
// I/O thread (the local cluster starts there, never on the GUI thread). With a screenshot file it renders
// the window once the first full refresh is in (and the screenshot delay has passed) and reports
// finished(exit code).
class ConsoleLauncher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsoleLauncher)

public:
    explicit ConsoleLauncher(QSettings* settings, QObject* parent = nullptr);
    ~ConsoleLauncher() override;

    bool start(const LaunchOptions& options, QString* error);

    ClusterController* controller() const { return m_controller.get(); }
    MainWindow* window() const { return m_window.get(); }
    DemoController* demo() const { return m_demo.get(); }
    OperatorFeature* operatorFeature() const { return m_operator.get(); }
    // With --metrics-listen; null otherwise.
    MetricsEndpoint* metricsEndpoint() const { return m_metricsEndpoint.get(); }
    AlertsFeature* alertsFeature() const { return m_alerts.get(); }
    HistoryFeature* historyFeature() const { return m_history.get(); }

signals:
    // Only in screenshot mode, or when the demo cannot start.
    void finished(int exitCode, const QString& message);

public slots:
    void openProfiles();

private:
    bool connectTo(const ClusterSettings& settings, QString* error);
    // A node's password, asked in a dialog (why, when not empty, says why it is asked); nullopt = cancelled.
    std::optional<QString> askPassword(int node, const QString& name, const QString& why);
    void restoreRescanBudget();
    void takeScreenshot();
    void fail(const QString& message);

    QSettings* m_settings;
    LaunchOptions m_options;
    std::unique_ptr<ClusterController> m_controller;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<OperatorFeature> m_operator;
    std::unique_ptr<MetricsEndpoint> m_metricsEndpoint;
    std::unique_ptr<AlertsFeature> m_alerts;
    std::unique_ptr<HistoryFeature> m_history;
    std::unique_ptr<QTemporaryDir> m_demoJournalDir;
    std::unique_ptr<DemoController> m_demo; // the demo's thread, its cluster and clients
    bool m_refreshed = false;
    bool m_metricsTicked = false;
    bool m_screenshotTaken = false;
};

} // namespace redlock
