#pragma once

#include "controller/OperatorActions.h"

#include <QObject>
#include <QPointer>

class QAction;
class QDockWidget;

namespace redlock {

class AuditLogDialog;
class ClusterController;
class ForceReleaseDialog;
class IoThread;
class LocalCluster;
class MainWindow;
class RestartDialog;
class BenchPanel;

// Adds the operator's actions to the main window, through its extension points, without the window knowing
// about them: the Operations menu, a toolbar section, the locks table's and nodes table's context menus, a
// button in the lock detail, the test bench dock,
// quarantine countdowns in the nodes table and event log entries. Reconfigures OperatorActions and the test
// bench each time the controller starts on a cluster; read-only mode disables every destructive action.
class OperatorFeature final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OperatorFeature)

public:
    OperatorFeature(ClusterController* controller, MainWindow* window, QObject* parent = nullptr);
    ~OperatorFeature() override;

    // Everything but `cluster`, which comes from the controller at each start (tests: short delays, temp files).
    void setDefaults(const OperatorSettings& defaults) { m_defaults = defaults; }
    void setLocalCluster(IoThread* thread, LocalCluster* cluster);
    // Drops the core objects (before the demo's cluster thread goes away).
    void stop();

    OperatorActions* actions() const { return m_actions; }
    BenchPanel* testBench() const { return m_bench; }
    QDockWidget* testBenchDock() const { return m_benchDock; }
    QAction* forceReleaseAction() const { return m_forceRelease; }
    QAction* restartAction() const { return m_restart; }
    QAction* abandonAction() const { return m_abandon; }
    QAction* auditLogAction() const { return m_auditLog; }
    QAction* testBenchAction() const { return m_benchToggle; }

    QByteArray selectedKey() const;
    int selectedNode() const;
    // Open the dialogs (window-modal, deleted on close) and return them, for the menus and for tests.
    ForceReleaseDialog* openForceRelease(const QByteArray& key);
    RestartDialog* openRestart(int node);
    AuditLogDialog* openAuditLog();

private:
    void onStarted();
    void updateActions();
    void updateQuarantine();
    void logEvent(const QString& kind, const QString& kindId, const QString& detail, const QByteArray& key = {});
    QString nodeName(int node) const;

    ClusterController* m_controller;
    MainWindow* m_window;
    OperatorActions* m_actions;
    OperatorSettings m_defaults;
    BenchPanel* m_bench;
    QDockWidget* m_benchDock;
    QAction* m_forceRelease;
    QAction* m_restart;
    QAction* m_abandon;
    QAction* m_auditLog;
    QAction* m_benchToggle;
    QPointer<QWidget> m_detailButton;
};

} // namespace redlock
