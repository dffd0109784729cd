#include "operate/OperatorFeature.h"

#include "bench/BenchPanel.h"
#include "controller/ClusterController.h"
#include "models/EventLogModel.h"
#include "models/LocksModel.h"
#include "models/NodesModel.h"
#include "operate/AuditLogDialog.h"
#include "operate/ForceReleaseDialog.h"
#include "operate/RestartDialog.h"
#include "runtime/HumanUnits.h"
#include "theme/Icons.h"
#include "views/LockDetailPanel.h"
#include "views/MainWindow.h"
#include "views/NodesPanel.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QTableView>

namespace redlock {

OperatorFeature::OperatorFeature(ClusterController* controller, MainWindow* window, QObject* parent)
    : QObject(parent), m_controller(controller), m_window(window), m_actions(new OperatorActions(this))
{
    m_forceRelease = new QAction(tr("&Force release…"), this);
    m_forceRelease->setObjectName(QStringLiteral("forceReleaseAction"));
    m_forceRelease->setShortcut(Qt::SHIFT | Qt::Key_Delete);
    m_forceRelease->setToolTip(tr("Delete the selected lock on the nodes where it still holds the token shown"));
    m_restart = new QAction(tr("Restart node with &delay…"), this);
    m_restart->setObjectName(QStringLiteral("restartAction"));
    m_restart->setToolTip(tr("Take the selected node out for longer than the largest TTL, then start it again "
                             "(kept down by the console; with SHUTDOWN NOSAVE only watched)"));
    m_restart->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
    m_abandon = new QAction(tr("&Abandon delayed restart"), this);
    m_abandon->setToolTip(tr("Stop tracking the selected node's restart; it is not started again"));
    m_auditLog = new QAction(tr("A&udit log…"), this);
    m_auditLog->setObjectName(QStringLiteral("auditLogAction"));
    m_auditLog->setShortcut(Qt::CTRL | Qt::Key_L);
    Icons::setIcon(m_forceRelease, Icons::Action::ForceRelease);
    Icons::setIcon(m_restart, Icons::Action::Restart);
    Icons::setIcon(m_abandon, Icons::Action::AbandonRestart);
    Icons::setIcon(m_auditLog, Icons::Action::AuditLog);

    m_bench = new BenchPanel;
    m_benchDock = window->addDockPanel(m_bench, tr("Test bench"), QStringLiteral("testBenchDock"));
    m_benchToggle = m_benchDock->toggleViewAction();
    m_benchToggle->setText(tr("&Test bench"));
    m_benchToggle->setShortcut(Qt::CTRL | Qt::Key_T);
    Icons::setIcon(m_benchToggle, Icons::Action::TestBench);

    QMenu* menu = window->insertMenu(tr("&Operations"));
    menu->addAction(m_forceRelease);
    menu->addAction(m_restart);
    menu->addAction(m_abandon);
    menu->addSeparator();
    menu->addAction(m_benchToggle);
    menu->addAction(m_auditLog);
    window->addToolBarSection({m_forceRelease, m_benchToggle});
    window->addLocksContextAction(m_forceRelease);
    window->addNodesContextAction(m_restart);
    window->addNodesContextAction(m_abandon);

    connect(m_forceRelease, &QAction::triggered, this, [this] { openForceRelease(selectedKey()); });
    connect(m_restart, &QAction::triggered, this, [this] { openRestart(selectedNode()); });
    connect(m_abandon, &QAction::triggered, this, [this] { m_actions->abandonRestart(selectedNode()); });
    connect(m_auditLog, &QAction::triggered, this, &OperatorFeature::openAuditLog);

    connect(window->locksView()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OperatorFeature::updateActions);
    // Force release follows the selected lock (selectedKey()): a row's selection may change after its current index.
    connect(window->locksView()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &OperatorFeature::updateActions);
    connect(window->nodesPanel()->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OperatorFeature::updateActions);

    // The lock detail gets its own button for the lock it shows.
    auto* button = new QPushButton(tr("Force release…"));
    Icons::setIcon(button, Icons::Action::ForceRelease);
    button->setObjectName(QStringLiteral("detailForceRelease"));
    connect(button, &QPushButton::clicked, this, [this] { openForceRelease(m_window->detail()->key()); });
    window->addLockDetailWidget(button);
    m_detailButton = button;

    connect(m_controller, &ClusterController::started, this, &OperatorFeature::onStarted);
    connect(m_controller, &ClusterController::stopped, this, [this] {
        m_actions->stop();
        m_bench->setCluster({}, true);
        updateActions();
    });
    connect(m_actions, &OperatorActions::quarantineChanged, this, &OperatorFeature::updateQuarantine);
    connect(m_actions, &OperatorActions::countdown, this, [this](int, qint64) { updateQuarantine(); });
    connect(m_actions, &OperatorActions::restartChanged, this, [this](const PendingRestart& r) {
        updateQuarantine();
        // A failed start waiting for its retry is logged by startFailed, with when the next attempt runs.
        if (r.state == PendingRestart::State::Quarantined && r.startFailures > 0)
            return;
        logEvent(tr("delayed restart"), QStringLiteral("delayed-restart"),
                 tr("node #%1 %2: %3").arg(r.node + 1).arg(r.endpoint, restartStateName(r.state)) +
                     (r.error.isEmpty() ? QString() : QStringLiteral(" — ") + r.error));
    });
    connect(m_actions, &OperatorActions::startFailed, this, [this](const PendingRestart& r, qint64 retryInMs) {
        if (retryInMs < 0)
            logEvent(tr("restart given up"), QStringLiteral("restart-given-up"),
                     tr("node #%1 %2: %3").arg(r.node + 1).arg(r.endpoint, r.error));
        else
            logEvent(tr("start failed"), QStringLiteral("restart-start-failed"),
                     tr("node #%1 %2 could not be started (%3), kept out; next attempt in %4")
                         .arg(r.node + 1)
                         .arg(r.endpoint, r.error, HumanUnits::duration(retryInMs)));
    });
    connect(m_actions, &OperatorActions::nodeReturnedEarly, this,
            [this](int node, qint64 remainingMs, const QString& detail) {
                logEvent(tr("node back early"), QStringLiteral("node-returned-early"),
                         tr("node #%1 %2 answered %3 before its delay has passed: %4")
                             .arg(node + 1)
                             .arg(nodeName(node), HumanUnits::duration(remainingMs), detail));
                m_window->nodesModel()->setStateNote(
                    node, tr("answers — %1 of the delay left").arg(HumanUnits::duration(remainingMs)), true);
            });
    // Failures of the operator actions' safety records (audit log, pending-restart file) and refused steps.
    connect(m_actions, &OperatorActions::operatorAlert, this, [this](int node, const QString& message) {
        logEvent(tr("operator action failed"), QStringLiteral("operator-alert"),
                 node < 0 ? message : tr("node #%1 %2: %3").arg(node + 1).arg(nodeName(node), message));
    });
    connect(m_window->locksModel(), &LocksModel::locksApplied, this, &OperatorFeature::updateActions);
    if (m_controller->isRunning())
        onStarted();
    updateActions();
}

OperatorFeature::~OperatorFeature()
{
    stop();
}

void OperatorFeature::setLocalCluster(IoThread* thread, LocalCluster* cluster)
{
    m_actions->setLocalCluster(thread, cluster);
}

void OperatorFeature::stop()
{
    m_actions->stop();
    m_bench->stop();
}

void OperatorFeature::onStarted()
{
    OperatorSettings s = m_defaults;
    s.cluster = m_controller->settings();
    s.production = s.production || m_controller->settings().production;
    m_actions->configure(s);
    m_controller->setConfiguredMaxTtlMs(s.configuredMaxTtlMs);
    m_bench->setCluster(s.cluster.nodes, s.cluster.readOnly);
    if (!m_actions->resumeMessage().isEmpty())
        logEvent(tr("delayed restart"), QStringLiteral("delayed-restart"), m_actions->resumeMessage());
    updateQuarantine();
    updateActions();
}

QString OperatorFeature::nodeName(int node) const
{
    return m_actions->settings().cluster.nodes.value(node).displayName();
}

QByteArray OperatorFeature::selectedKey() const
{
    // Only a row the operator selected: a current index without a selection is no one's pick.
    const QItemSelectionModel* selection = m_window->locksView()->selectionModel();
    const QModelIndex current = selection->currentIndex();
    return current.isValid() && selection->isSelected(current) ? current.data(LocksModel::KeyRole).toByteArray()
                                                               : QByteArray();
}

int OperatorFeature::selectedNode() const
{
    const QModelIndex current = m_window->nodesPanel()->view()->selectionModel()->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void OperatorFeature::updateActions()
{
    const bool ready = m_actions->isConfigured();
    const bool writable = ready && !m_actions->readOnly();
    const QString readOnlyTip = tr("Read-only mode: destructive actions are disabled");
    const std::optional<LockView> view = m_window->locksModel()->viewFor(selectedKey());
    m_forceRelease->setEnabled(writable && view && !view->releaseToken().isEmpty());
    const int node = selectedNode();
    m_restart->setEnabled(writable && node >= 0 && !m_actions->isQuarantined(node));
    m_abandon->setEnabled(writable && node >= 0 && m_actions->isQuarantined(node));
    m_benchToggle->setEnabled(true);
    if (m_detailButton) {
        const std::optional<LockView> shown = m_window->locksModel()->viewFor(m_window->detail()->key());
        m_detailButton->setEnabled(writable && shown && !shown->releaseToken().isEmpty());
        m_detailButton->setToolTip(ready && !writable ? readOnlyTip : QString());
    }
    for (QAction* a : {m_forceRelease, m_restart, m_abandon})
        a->setStatusTip(ready && !writable ? readOnlyTip : QString());
}

void OperatorFeature::updateQuarantine()
{
    NodesModel* nodes = m_window->nodesModel();
    for (int n = 0; n < m_actions->nodeCount(); ++n) {
        if (!m_actions->isQuarantined(n)) {
            nodes->setStateNote(n, {});
            continue;
        }
        if (m_actions->quarantineHeld(n))
            nodes->setStateNote(n, tr("kept out — check it, then abandon its restart"), true);
        else if (nodes->stateNoteIsWarning(n))
            nodes->setStateNote(
                n, tr("answers — %1 of the delay left").arg(HumanUnits::duration(m_actions->quarantineRemainingMs(n))),
                true);
        else if (m_actions->quarantineEnforced(n))
            nodes->setStateNote(n, tr("kept down — %1").arg(HumanUnits::duration(m_actions->quarantineRemainingMs(n))));
        else
            nodes->setStateNote(n, tr("watched — %1").arg(HumanUnits::duration(m_actions->quarantineRemainingMs(n))));
    }
    m_controller->setQuarantinedNodes(m_actions->quarantinedNodes());
    updateActions();
}

ForceReleaseDialog* OperatorFeature::openForceRelease(const QByteArray& key)
{
    const std::optional<LockView> view = m_window->locksModel()->viewFor(key);
    if (!m_actions->isConfigured() || !view || view->releaseToken().isEmpty())
        return nullptr;
    // A value without expiry is what an operator releases from this row, never the live holder beside it.
    const QByteArray& token = view->releaseToken();
    const QString holder = token == view->token ? view->holder->summary : decodeHolder(key, token).summary;
    auto* dialog = new ForceReleaseDialog(m_actions, key, token, holder, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ForceReleaseDialog::resultShown, this, [this, dialog, key] {
        const ForceReleaseReport& r = dialog->result();
        // The deletes ran but their result line is not in the audit log: the operator must know.
        const QString unlogged =
            r.refused || r.audited
                ? QString()
                : tr(" — its result could not be written to the audit log (the intent line is there): %1")
                      .arg(r.auditError);
        const QString outcome =
            r.refused ? tr("refused: %1").arg(r.error)
            : r.lockDelay.mode == LockDelay::Mode::Delete
                ? tr("deleted on %1 of %2 nodes, left to a new holder on %3, unreachable %4")
                      .arg(r.matched())
                      .arg(r.nodes.size())
                      .arg(r.count(ForceReleaseNode::Kind::TokenChanged))
                      .arg(r.unreachable())
                : tr("released with a lock-delay on %1 of %2 nodes (up to %3 ms), left to a new holder on %4, "
                     "unreachable %5")
                      .arg(r.matched())
                      .arg(r.nodes.size())
                      .arg(r.longestLockDelayMs())
                      .arg(r.count(ForceReleaseNode::Kind::TokenChanged))
                      .arg(r.unreachable());
        logEvent(tr("force release"), QStringLiteral("force-release"), outcome + unlogged, key);
        m_controller->refreshNow();
    });
    dialog->open();
    return dialog;
}

RestartDialog* OperatorFeature::openRestart(int node)
{
    if (!m_actions->isConfigured() || node < 0 || node >= m_actions->nodeCount())
        return nullptr;
    // The table's rows as they are kept, packed, in key order: the planner reads them in place, a range at a time,
    // and unpacks only the locks it lists (at 100k locks, unpacking every row into a snapshot took about 200 ms and
    // 127 MB on the GUI thread; at 1M, even taking the rows shared took about 0.2 s).
    const QPointer<const LocksModel> locksModel = m_window->locksModel();
    auto locks = [locksModel](const QByteArray* after, qsizetype count, const RestartPlanner::LockVisitor& visit) {
        return locksModel ? locksModel->visitRowsAfter(after, count, visit) : 0;
    };
    QList<int> down;
    QList<QByteArray> runIds; // names of one server count once, and go out together
    const QList<NodeFacts>& facts = m_controller->nodeFacts();
    for (int i = 0; i < facts.size(); ++i) {
        if (i != node && facts[i].health != NodeHealth::Up)
            down << i;
        runIds << facts[i].runId;
    }
    auto* dialog = new RestartDialog(m_actions, node, std::move(locks), locksModel->rowCount(), down, runIds, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The table is reset only for another cluster (MainWindow::onStarted): the dialog's node, its names and the locks
    // it is counting are of the cluster that went.
    connect(locksModel, &QAbstractItemModel::modelAboutToBeReset, dialog, &QDialog::reject);
    dialog->open();
    return dialog;
}

AuditLogDialog* OperatorFeature::openAuditLog()
{
    auto* dialog = new AuditLogDialog(m_actions->auditLogPath(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void OperatorFeature::logEvent(const QString& kind, const QString& kindId, const QString& detail, const QByteArray& key)
{
    EventLogModel::Entry e;
    e.atMs = QDateTime::currentMSecsSinceEpoch();
    e.source = EventLogModel::Source::OperatorAction;
    e.texts.kind = kind;
    e.kindId = kindId;
    e.key = key;
    e.texts.detail = detail;
    m_window->eventLog()->addEntries({e});
}

} // namespace redlock
