#include "views/NodesPanel.h"

#include "controller/ClusterController.h"
#include "models/NodesModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>

namespace redlock {

NodesPanel::NodesPanel(ClusterController* controller, NodesModel* model, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_model(model), m_view(new QTableView(this)),
      m_findings(new QListWidget(this))
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
    m_view->setColumnWidth(NodesModel::StateColumn, fm.horizontalAdvance(QStringLiteral("● up (degraded)")) + 16);
    m_view->setColumnWidth(NodesModel::RoleColumn, fm.horizontalAdvance(QStringLiteral("master, 2 replicas")) + 16);
    m_view->setColumnWidth(NodesModel::LatencyColumn, fm.horizontalAdvance(QStringLiteral("000.00 ms")) + 20);
    m_view->setColumnWidth(NodesModel::ClockOffsetColumn, fm.horizontalAdvance(QStringLiteral("Clock offset")) + 20);
    m_view->setColumnWidth(NodesModel::UptimeColumn,
                           fm.horizontalAdvance(QStringLiteral("59 min 59 s, restarted at 00:00:00")) + 16);

    m_findings->setObjectName(QStringLiteral("auditFindings"));
    m_findings->setWordWrap(true);
    m_findings->setAlternatingRowColors(true);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(m_findings);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({1000, 380});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_controller, &ClusterController::auditChanged, this, &NodesPanel::showFindings);
}

void NodesPanel::showFindings()
{
    const auto& findings = m_controller->findings();
    m_findings->clear();
    if (findings.isEmpty()) {
        m_findings->addItem(tr("✓ Safety audit: no findings"));
        return;
    }
    for (const AuditFinding& f : findings) {
        QStringList nodes;
        for (const int n : f.nodes)
            nodes << tr("#%1").arg(n + 1);
        const QString symbol = f.severity == AuditFinding::Severity::Severe    ? QStringLiteral("✖")
                               : f.severity == AuditFinding::Severity::Warning ? QStringLiteral("⚠")
                                                                               : QStringLiteral("ℹ");
        const QString where = nodes.isEmpty() ? tr("cluster") : nodes.join(QStringLiteral(" "));
        auto* item = new QListWidgetItem(tr("%1 %2 [%3]: %4").arg(symbol, severityName(f.severity), where, f.title));
        item->setToolTip(f.explanation);
        m_findings->addItem(item);
    }
}

} // namespace redlock
