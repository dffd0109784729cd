#include "views/NodesPanel.h"

#include "controller/ClusterController.h"
#include "models/NodesModel.h"
#include "theme/Icons.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableView>

namespace redlock {

NodesPanel::NodesPanel(ClusterController* controller, NodesModel* model, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_model(model), m_view(new QTableView(this)),
      m_findings(new QListWidget(this)), m_budget(new QSpinBox(this))
{
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(NodesModel::RawValueRole);
    m_view->setObjectName(QStringLiteral("nodesTable"));
    m_view->setModel(proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(NodesModel::AddressColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_view->horizontalHeader()->setStretchLastSection(true);
    const QFontMetrics fm = fontMetrics();
    m_view->setColumnWidth(NodesModel::AddressColumn, fm.horizontalAdvance(QStringLiteral("#5 127.0.0.1:65535")) + 24);
    m_view->setColumnWidth(NodesModel::StateColumn,
                           fm.horizontalAdvance(QStringLiteral("up (degraded)")) + 40); // icon, text
    m_view->setColumnWidth(NodesModel::RoleColumn, fm.horizontalAdvance(QStringLiteral("master, 2 replicas")) + 16);
    m_view->setColumnWidth(NodesModel::LatencyColumn, fm.horizontalAdvance(QStringLiteral("000.00 ms")) + 20);
    m_view->setColumnWidth(NodesModel::ClockOffsetColumn, fm.horizontalAdvance(QStringLiteral("Clock offset")) + 20);
    // Sized for the usual texts, so the Safety audit column stays in view at 1400 px; the longer ones (a
    // restart's time, "rescan only") are in the cells' tooltips too. Double-click a header edge to fit.
    m_view->setColumnWidth(NodesModel::UptimeColumn, fm.horizontalAdvance(QStringLiteral("23 h 59 min 59 s")) + 16);
    m_view->setColumnWidth(NodesModel::LoadColumn, fm.horizontalAdvance(QStringLiteral("00,000 cmd/s")) + 16);
    // Nodes behind a bastion say so in the address ("#1 10.0.0.5:6379 (via ops@bastion)"): wide enough for that.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        for (int row = 0; row < m_model->rowCount(); ++row) {
            if (!m_model->facts(row).endpoint.sshRoute.isEmpty()) {
                m_view->resizeColumnToContents(NodesModel::AddressColumn);
                return;
            }
        }
    });

    // The operator sets what the console may cost each node: the lock view's background rescan stays within
    // it (live changes come from keyspace events; the Console load column shows the result).
    m_budget->setObjectName(QStringLiteral("rescanBudget"));
    m_budget->setRange(0, 1000000);
    m_budget->setSingleStep(100);
    m_budget->setSpecialValueText(tr("unlimited"));
    m_budget->setSuffix(tr(" commands/s per node"));
    m_budget->setValue(m_controller->rescanBudget());
    m_budget->setToolTip(tr("How many commands per second the lock view's background rescan may send each node. "
                            "Live changes come from keyspace events; the rescan catches what they miss, and is "
                            "the only source on nodes without them. 0: no limit (a full pass at full speed)."));
    auto* budgetLabel = new QLabel(tr("&Rescan budget:"), this);
    budgetLabel->setBuddy(m_budget);
    connect(m_budget, &QSpinBox::valueChanged, m_controller, &ClusterController::setRescanBudget);
    connect(m_controller, &ClusterController::rescanBudgetChanged, m_budget, [this](int budget) {
        const QSignalBlocker quiet(m_budget);
        m_budget->setValue(budget);
    });

    m_findings->setObjectName(QStringLiteral("auditFindings"));
    m_findings->setWordWrap(true);
    m_findings->setAlternatingRowColors(true);
    const int smallIcon = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_findings->setIconSize(QSize(smallIcon, smallIcon));

    // The budget sits under the audit findings, so the nodes table keeps its full height for the node rows.
    auto* side = new QWidget(this);
    auto* budgetRow = new QHBoxLayout;
    budgetRow->addWidget(budgetLabel);
    budgetRow->addWidget(m_budget, 1);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_findings, 1);
    sideLayout->addLayout(budgetRow);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({1000, 380});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_controller, &ClusterController::auditChanged, this, &NodesPanel::showFindings);
}

void NodesPanel::showFindings()
{
    const auto& findings = m_controller->findings();
    m_findings->clear();
    if (findings.isEmpty()) {
        m_findings->addItem(new QListWidgetItem(Icons::severity(std::nullopt), tr("Safety audit: no findings")));
        return;
    }
    for (const AuditFinding& f : findings) {
        QStringList nodes;
        for (const int n : f.nodes)
            nodes << tr("#%1").arg(n + 1);
        const QString where = nodes.isEmpty() ? tr("cluster") : nodes.join(QStringLiteral(" "));
        auto* item = new QListWidgetItem(Icons::severity(f.severity),
                                         tr("%1 [%2]: %3").arg(severityName(f.severity), where, f.title));
        item->setToolTip(f.explanation);
        m_findings->addItem(item);
    }
}

} // namespace redlock
