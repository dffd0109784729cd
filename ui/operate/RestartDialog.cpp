#include "operate/RestartDialog.h"

#include "controller/OperatorActions.h"
#include "observe/ObservationTypes.h"
#include "runtime/HumanUnits.h"
#include "runtime/OwnThreadFuture.h"
#include "theme/StatePalette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace redlock {

RestartDialog::RestartDialog(OperatorActions* actions, int node, RestartPlanner::KeyOrderedLocks locks,
                             qsizetype lockCount, const QList<int>& nodesDown, const QList<QByteArray>& runIds,
                             QWidget* parent)
    : QDialog(parent), m_actions(actions), m_node(node), m_nodesDown(nodesDown), m_runIds(runIds)
{
    setObjectName(QStringLiteral("restartDialog"));
    const NodeEndpoint endpoint = actions->settings().cluster.nodes.value(node);
    setWindowTitle(tr("Delayed restart of node #%1").arg(node + 1));

    m_unavailable = nodesDown;
    for (int q : actions->quarantinedNodes())
        if (!m_unavailable.contains(q))
            m_unavailable.append(q);
    // The node counts and the quorum need no lock: known at once; the locks are counted in slices.
    m_walk =
        std::make_unique<SurveyWalk>(std::move(locks), lockCount, node, actions->nodeCount(), m_unavailable, runIds);
    m_plan = RestartPlanner::plan(node, actions->nodeCount(), LockSurvey{}, actions->settings().configuredMaxTtlMs,
                                  actions->settings().cluster.driftFactor, m_unavailable, runIds);

    // Set by updateState(): what is enforced depends on the method.
    m_intro = new QLabel(this);
    m_intro->setObjectName(QStringLiteral("restartIntro"));
    m_intro->setWordWrap(true);

    m_delay = new QDoubleSpinBox(this);
    m_delay->setObjectName(QStringLiteral("restartDelay"));
    m_delay->setDecimals(1);
    m_delay->setRange(0.1, 7 * 24 * 3600.0);
    m_delay->setSuffix(tr(" s"));
    m_allowShorter = new QCheckBox(tr("Allow a delay shorter than the default"), this);
    m_delayNote = new QLabel(this);
    m_delayNote->setObjectName(QStringLiteral("restartDelayNote"));
    m_delayNote->setWordWrap(true);

    m_method = new QComboBox(this);
    m_method->setObjectName(QStringLiteral("restartMethod"));
    if (actions->localIndexOf(node) >= 0)
        m_method->addItem(restartMethodName(RestartMethod::Kind::LocalCluster), int(RestartMethod::Kind::LocalCluster));
    m_method->addItem(restartMethodName(RestartMethod::Kind::Commands), int(RestartMethod::Kind::Commands));
    m_method->addItem(restartMethodName(RestartMethod::Kind::ShutdownNoSave), int(RestartMethod::Kind::ShutdownNoSave));
    if (actions->localIndexOf(node) < 0)
        m_method->setCurrentIndex(m_method->findData(int(RestartMethod::Kind::ShutdownNoSave)));

    m_commands = new QWidget(this);
    auto* commandsForm = new QFormLayout(m_commands);
    commandsForm->setContentsMargins(0, 0, 0, 0);
    m_stopCommand = new QLineEdit(m_commands);
    m_stopCommand->setPlaceholderText(tr("e.g. systemctl stop redis-server@7001"));
    m_startCommand = new QLineEdit(m_commands);
    m_startCommand->setPlaceholderText(tr("e.g. systemctl start redis-server@7001"));
    commandsForm->addRow(tr("Stop command:"), m_stopCommand);
    commandsForm->addRow(tr("Start command:"), m_startCommand);
    auto* noShell =
        new QLabel(tr("Run without a shell: the first word is the program, the rest its arguments."), m_commands);
    noShell->setWordWrap(true);
    commandsForm->addRow(QString(), noShell);

    m_confirmShutdown = new QCheckBox(tr("Send SHUTDOWN NOSAVE: the node drops its data and comes back when "
                                         "something else (a supervisor) starts it, perhaps at once"),
                                      this);
    m_confirmShutdown->setObjectName(QStringLiteral("confirmShutdown"));

    m_impact = new QTableWidget(0, 3, this);
    m_impact->setObjectName(QStringLiteral("restartImpact"));
    m_impact->setHorizontalHeaderLabels({tr("Lock"), tr("Holder"), tr("Holders now → while down")});
    m_impact->verticalHeader()->hide();
    m_impact->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_impact->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_impactTitle = new QLabel(this);
    m_impactTitle->setObjectName(QStringLiteral("restartImpactTitle"));
    m_impactTitle->setWordWrap(true);

    m_quorum = new QLabel(this);
    m_quorum->setObjectName(QStringLiteral("restartQuorum"));
    m_quorum->setWordWrap(true);
    m_override = new QLineEdit(this);
    m_override->setObjectName(QStringLiteral("restartOverride"));
    m_override->setPlaceholderText(tr("Type %1 to restart anyway").arg(overrideWord()));
    if (m_plan.breaksQuorum) {
        // The planner's explanation already gives the counts and the quorum.
        m_quorum->setText(tr("Refused: %1. Type “%2” to override.").arg(m_plan.quorumExplanation, overrideWord()));
        StatePalette::setTextRole(m_quorum, StatePalette::Role::Danger);
        QFont font = m_quorum->font();
        font.setBold(true);
        m_quorum->setFont(font);
    } else {
        QString text = tr("%1 of %2 nodes stay counted while the node is out (quorum %3).")
                           .arg(m_plan.nodesUpDuring)
                           .arg(m_plan.nodeCount)
                           .arg(m_plan.quorum);
        if (!m_plan.sameServerNote.isEmpty()) // with breaksQuorum, the explanation ends with it
            text += u' ' + tr("Note: %1.").arg(m_plan.sameServerNote);
        m_quorum->setText(text);
        m_override->hide();
    }
    m_reason = new QLineEdit(this);
    m_reason->setPlaceholderText(tr("Why (written to the audit log)"));

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("restartStatus"));
    m_status->setWordWrap(true);
    if (actions->readOnly())
        m_status->setText(tr("Read-only mode: nodes cannot be restarted."));

    auto* form = new QFormLayout;
    form->addRow(tr("Delay:"), m_delay);
    form->addRow(QString(), m_delayNote);
    form->addRow(QString(), m_allowShorter);
    form->addRow(tr("How:"), m_method);
    form->addRow(QString(), m_commands);
    form->addRow(QString(), m_confirmShutdown);

    auto* buttons = new QDialogButtonBox(this);
    m_restart = buttons->addButton(tr("Restart with delay"), QDialogButtonBox::DestructiveRole);
    m_restart->setObjectName(QStringLiteral("restartButton"));
    auto* cancel = buttons->addButton(QDialogButtonBox::Cancel);
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_restart, &QPushButton::clicked, this, &RestartDialog::schedule);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(form);
    layout->addWidget(m_impactTitle);
    layout->addWidget(m_impact, 1);
    layout->addWidget(m_quorum);
    layout->addWidget(m_override);
    layout->addWidget(m_reason);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(680, 560);

    for (QLineEdit* edit : {m_override, m_stopCommand, m_startCommand})
        connect(edit, &QLineEdit::textChanged, this, &RestartDialog::updateState);
    connect(m_confirmShutdown, &QCheckBox::toggled, this, &RestartDialog::updateState);
    connect(m_allowShorter, &QCheckBox::toggled, this, &RestartDialog::updateState);
    connect(m_delay, &QDoubleSpinBox::valueChanged, this, &RestartDialog::updateState);
    connect(m_method, &QComboBox::currentIndexChanged, this, &RestartDialog::updateState);
    walkSlice(); // a table of one slice or less is counted before the dialog shows
}

namespace {
qsizetype g_locksPerSlice = 20000; // 5-20 ms of CPU a slice at 1M locks
} // namespace

qsizetype RestartDialog::locksPerSlice()
{
    return g_locksPerSlice;
}

void RestartDialog::setLocksPerSlice(qsizetype count)
{
    g_locksPerSlice = std::max<qsizetype>(1, count);
}

void RestartDialog::walkSlice()
{
    if (!m_walk)
        return;
    if (!m_walk->step(g_locksPerSlice)) {
        showLocks();
        QTimer::singleShot(0, this, &RestartDialog::walkSlice); // after the events waiting meanwhile
        return;
    }
    m_plan =
        RestartPlanner::plan(m_node, m_actions->nodeCount(), m_walk->result(), m_actions->settings().configuredMaxTtlMs,
                             m_actions->settings().cluster.driftFactor, m_unavailable, m_runIds);
    m_walk.reset(); // lets the table go
    showLocks();
    emit counted();
}

// The delay and the impact as far as the walk has gone: "counting…" until it is done.
void RestartDialog::showLocks()
{
    if (m_walk) {
        const QString counting = tr("Counting the locks… (%1 of %2)").arg(m_walk->walked()).arg(m_walk->total());
        m_delayNote->setText(counting);
        m_impactTitle->setText(counting);
        if (m_shownDelayS == 0) {
            m_shownDelayS = std::ceil(double(m_plan.defaultDelayMs) / 100.0) / 10.0;
            m_delay->setValue(m_shownDelayS);
        }
        updateState();
        return;
    }
    // Rounded up to the box's tenths: never below the default. A delay the operator typed meanwhile stays.
    const double delayS = std::ceil(double(m_plan.defaultDelayMs) / 100.0) / 10.0;
    if (m_shownDelayS == 0 || m_delay->value() == m_shownDelayS) {
        m_shownDelayS = delayS;
        m_delay->setValue(delayS);
    }
    m_delayNote->setText(tr("Default %1 = max(configured max TTL %2, largest PTTL seen on the node %3) + "
                            "drift %4")
                             .arg(HumanUnits::duration(m_plan.defaultDelayMs),
                                  HumanUnits::duration(m_plan.configuredMaxTtlMs),
                                  m_plan.largestPttlMs < 0 ? tr("none") : HumanUnits::duration(m_plan.largestPttlMs),
                                  HumanUnits::duration(m_plan.driftMs)));
    m_impact->setRowCount(int(m_plan.affected.size()));
    for (int row = 0; row < m_plan.affected.size(); ++row) {
        const AffectedLock& a = m_plan.affected[row];
        m_impact->setItem(row, 0, new QTableWidgetItem(printableBytes(a.key)));
        m_impact->setItem(row, 1, new QTableWidgetItem(a.holderSummary));
        m_impact->setItem(row, 2, new QTableWidgetItem(tr("%1 → %2").arg(a.holdersNow).arg(a.holdersWhileDown)));
    }
    m_impact->resizeColumnToContents(0);
    QString impactText =
        m_plan.affectedCount == 0
            ? tr("No lock held now falls below quorum while the node is out.")
            : tr("%n lock(s) fall below quorum (quorum %1) while the node is out:", nullptr, m_plan.affectedCount)
                  .arg(m_plan.quorum);
    if (m_plan.affectedCount > m_plan.affected.size())
        impactText += u' ' + tr("(the first %1 by key are listed)").arg(m_plan.affected.size());
    m_impactTitle->setText(impactText);

    updateState();
}

QString RestartDialog::overrideWord() const
{
    return m_actions->settings().cluster.nodes.value(m_node).displayName();
}

RestartRequest RestartDialog::request() const
{
    RestartRequest r;
    r.node = m_node;
    r.delayMs = qint64(m_delay->value() * 1000.0 + 0.5);
    r.method.kind = RestartMethod::Kind(m_method->currentData().toInt());
    r.method.localIndex = m_actions->localIndexOf(m_node);
    const QStringList stop = QProcess::splitCommand(m_stopCommand->text());
    const QStringList start = QProcess::splitCommand(m_startCommand->text());
    if (!stop.isEmpty()) {
        r.method.stopProgram = stop.first();
        r.method.stopArguments = stop.mid(1);
    }
    if (!start.isEmpty()) {
        r.method.startProgram = start.first();
        r.method.startArguments = start.mid(1);
    }
    r.locks = LockSurvey{m_plan.largestPttlMs, m_plan.affected, m_plan.affectedCount}; // what the operator was shown
    r.nodesDown = m_nodesDown;
    r.runIds = m_runIds;
    r.overrideQuorum = m_plan.breaksQuorum && m_override->text() == overrideWord();
    r.allowShorterDelay = m_allowShorter->isChecked();
    r.confirmShutdown = m_confirmShutdown->isChecked();
    r.reason = m_reason->text();
    return r;
}

void RestartDialog::updateState()
{
    const auto kind = RestartMethod::Kind(m_method->currentData().toInt());
    const QString name = m_actions->settings().cluster.nodes.value(m_node).displayName();
    if (restartMethodEnforcesDelay(kind))
        m_intro->setText(tr("Node #%1 %2 is stopped and kept down until the delay has passed, counted from the "
                            "confirmed stop; then it is started again. Meanwhile the console does not count it "
                            "for quorum. A node that may have lost its data must stay out longer than the largest "
                            "TTL of any lock it voted for.")
                             .arg(m_node + 1)
                             .arg(name));
    else
        m_intro->setText(tr("Node #%1 %2 is sent SHUTDOWN NOSAVE. Nothing here keeps it down: a supervisor "
                            "(systemd Restart=always, Kubernetes) usually starts it again at once, empty, and "
                            "clients count it as soon as it answers. The delay is only watched: if the node answers "
                            "before it has passed, it is flagged in the event log, the nodes table and the audit "
                            "log. To enforce the delay, use stop and start commands instead.")
                             .arg(m_node + 1)
                             .arg(name));
    m_commands->setVisible(kind == RestartMethod::Kind::Commands);
    m_confirmShutdown->setVisible(kind == RestartMethod::Kind::ShutdownNoSave);
    const RestartRequest r = request();
    bool ok = !m_actions->readOnly() && !m_running && !m_haveResult && !m_walk; // not before the locks are counted
    if (m_plan.breaksQuorum && !r.overrideQuorum)
        ok = false;
    if (kind == RestartMethod::Kind::ShutdownNoSave && !r.confirmShutdown)
        ok = false;
    if (kind == RestartMethod::Kind::Commands && (r.method.stopProgram.isEmpty() || r.method.startProgram.isEmpty()))
        ok = false;
    if (r.delayMs < m_plan.defaultDelayMs && !r.allowShorterDelay)
        ok = false;
    m_restart->setEnabled(ok);
}

void RestartDialog::schedule()
{
    if (!m_restart->isEnabled())
        return;
    m_running = true;
    updateState();
    m_status->setText(tr("Stopping the node…"));
    whenFinished(this, m_actions->scheduleRestart(request()), [this](const ScheduleResult& result) {
        m_running = false;
        m_result = result;
        m_haveResult = result.accepted;
        const QString due = QDateTime::fromMSecsSinceEpoch(result.restart.dueAtMs).toString(u"HH:mm:ss");
        if (result.accepted && restartMethodEnforcesDelay(result.restart.method.kind))
            m_status->setText(tr("Node #%1 is stopped and kept down until %2.").arg(m_node + 1).arg(due));
        else if (result.accepted)
            m_status->setText(tr("SHUTDOWN NOSAVE sent to node #%1. Watched until %2: if it answers earlier, it is "
                                 "flagged.")
                                  .arg(m_node + 1)
                                  .arg(due));
        else
            m_status->setText(tr("Refused: %1").arg(result.error.isEmpty() ? result.restart.error : result.error));
        updateState();
        emit scheduled(result);
        if (result.accepted)
            accept();
    });
}

} // namespace redlock
