#pragma once

#include "operate/NodeRestartScheduler.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace redlock {

class OperatorActions;

// "Restart with delay…" for one node: RestartPlanner's default delay and impact preview (the locks that fall
// below quorum while the node is out), the backend chosen from what the node is, the typed override when the
// restart would leave fewer than a quorum of nodes, then NodeRestartScheduler::schedule on its thread.
class RestartDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RestartDialog)

public:
    // locks: the console's locks in key order (kept while counting; lockCount of them now), walked in slices of
    // locksPerSlice() on the event loop, each after the last key walked: over 1M locks the whole walk costs 120-480 ms
    // of CPU, too long a stall for the GUI. Until it is done the dialog says it is counting and cannot schedule.
    // nodesDown: nodes the console sees down now (quarantined ones are added from `actions`). runIds: per node, its
    // NodeFacts::runId (empty: unknown), so that names of one server count once.
    RestartDialog(OperatorActions* actions, int node, RestartPlanner::KeyOrderedLocks locks, qsizetype lockCount,
                  const QList<int>& nodesDown, const QList<QByteArray>& runIds, QWidget* parent = nullptr);

    // The plan: before the walk is done, its node counts and quorum only (no locks, the configured delay).
    const RestartPlan& plan() const { return m_plan; }
    bool isCounting() const { return m_walk != nullptr; }
    static qsizetype locksPerSlice();
    static void setLocksPerSlice(qsizetype count); // tests slice small tables
    QComboBox* methodBox() const { return m_method; }
    QDoubleSpinBox* delayBox() const { return m_delay; }
    QLineEdit* overrideEdit() const { return m_override; }
    QCheckBox* shutdownConfirm() const { return m_confirmShutdown; }
    QLineEdit* stopCommandEdit() const { return m_stopCommand; }
    QLineEdit* startCommandEdit() const { return m_startCommand; }
    QPushButton* restartButton() const { return m_restart; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* introLabel() const { return m_intro; } // what the chosen method enforces and what it only watches
    QTableWidget* impactTable() const { return m_impact; }
    bool hasResult() const { return m_haveResult; }
    const ScheduleResult& result() const { return m_result; }
    QString overrideWord() const; // what must be typed to override the quorum check

    RestartRequest request() const;
    void schedule();

signals:
    void scheduled(const redlock::ScheduleResult& result);
    void counted(); // the walk is done: plan() counts the locks

private:
    void walkSlice();
    void showLocks();
    void updateState();

    OperatorActions* m_actions;
    int m_node;
    QList<int> m_nodesDown;
    QList<QByteArray> m_runIds;
    QList<int> m_unavailable;
    std::unique_ptr<SurveyWalk> m_walk; // while counting
    RestartPlan m_plan;
    double m_shownDelayS = 0; // the delay box's value as the dialog set it
    QLabel* m_delayNote;
    QLabel* m_impactTitle;
    QLabel* m_intro;
    QComboBox* m_method;
    QDoubleSpinBox* m_delay;
    QCheckBox* m_allowShorter;
    QLabel* m_quorum;
    QLineEdit* m_override;
    QCheckBox* m_confirmShutdown;
    QWidget* m_commands;
    QLineEdit* m_stopCommand;
    QLineEdit* m_startCommand;
    QLineEdit* m_reason;
    QTableWidget* m_impact;
    QLabel* m_status;
    QPushButton* m_restart;
    ScheduleResult m_result;
    bool m_haveResult = false;
    bool m_running = false;
};

} // namespace redlock
