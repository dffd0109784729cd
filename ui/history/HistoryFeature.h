#pragma once

#include "history/LockJournal.h"

#include <QObject>

#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;

namespace redlock {

class ClusterController;
class HistoryPanel;
class MainWindow;
class OperatorActions;

// Adds the lock history to the main window through its extension points, as OperatorFeature adds the
// operator's actions: the journal (LockJournal) that records every lock event the controller passes on and
// every force release the operator runs, the history dock (HistoryPanel), a History menu and "Show history"
// in the locks table's context menu. When the journal cannot be written, the event log and the panel say why
// (and what was dropped); monitoring is not affected.
class HistoryFeature final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryFeature)

public:
    // options: nullopt = no journal (--no-journal): the panel says so. operatorActions may be null.
    HistoryFeature(ClusterController* controller, MainWindow* window, OperatorActions* operatorActions,
                   std::optional<JournalOptions> options, QObject* parent = nullptr);
    ~HistoryFeature() override;

    LockJournal* journal() const { return m_journal.get(); }

    // The deployment's history a profile names (ConnectionProfile::history; empty: this console's own journal):
    // the history view shows it, read only. The console's own journal is written as before: the deployment's is
    // its always-on writer's (the exporter); a console taking its writer lock while the exporter restarts would
    // keep the exporter out of it for as long as the console stays open.
    void setDeploymentHistory(const QString& journal);
    HistoryPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    QAction* toggleAction() const { return m_toggle; }
    QAction* showLockHistoryAction() const { return m_showLock; }

private:
    void logProblem(const QString& message, bool recovered);
    void logWarning(const QString& message);
    QByteArray selectedKey() const;

    MainWindow* m_window;
    std::unique_ptr<LockJournal> m_journal;
    HistoryPanel* m_panel;
    QDockWidget* m_dock;
    QAction* m_toggle;
    QAction* m_showLock;
    QLabel* m_notWritten; // in the status bar while the journal cannot write: history missing is not silent
};

} // namespace redlock
