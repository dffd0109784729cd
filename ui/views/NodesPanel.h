#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QSpinBox;
class QTableView;

namespace redlock {

class ClusterController;
class NodesModel;

// The nodes table and, beside it, the safety audit's findings in full (the table shows them per node at a
// glance; cluster-wide findings such as an even node count only appear here).
class NodesPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodesPanel)

public:
    NodesPanel(ClusterController* controller, NodesModel* model, QWidget* parent = nullptr);
    QTableView* view() const { return m_view; }
    QListWidget* findings() const { return m_findings; }
    QSpinBox* rescanBudget() const { return m_budget; }

private:
    void showFindings();

    ClusterController* m_controller;
    NodesModel* m_model;
    QTableView* m_view;
    QListWidget* m_findings;
    QSpinBox* m_budget;
};

} // namespace redlock
