#include "history/HistoryFeature.h"

#include "controller/ClusterController.h"
#include "controller/OperatorActions.h"
#include "history/HistoryPanel.h"
#include "history/JournalWriterPassword.h"
#include "history/PostgresJournalPassword.h"
#include "models/EventLogModel.h"
#include "models/LocksModel.h"
#include "redlock/RedlockRules.h"
#include "theme/StatePalette.h"
#include "views/MainWindow.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QStatusBar>
#include <QTableView>

namespace redlock {

namespace {

// The force release ended its holder's tenure: the token is left on fewer than a quorum of nodes (it released the
// token on a quorum, or on enough nodes that the ones that may still hold it are too few). The nodes that may
// still hold it: those that did not answer or refused, those whose token has no expiry (left alone), and any
// not attempted. A release on a minority that leaves the token its quorum ends nothing: its holder still holds.
bool endsTenure(const ForceReleaseReport& report)
{
    int mayStillHold = 0;
    for (const ForceReleaseNode& node : report.nodes) {
        switch (node.kind) {
        case ForceReleaseNode::Kind::Deleted:
        case ForceReleaseNode::Kind::Tombstoned:
        case ForceReleaseNode::Kind::TokenChanged:
        case ForceReleaseNode::Kind::Gone:
        case ForceReleaseNode::Kind::OtherType:
            break;
        default:
            ++mayStillHold;
            break;
        }
    }
    return mayStillHold < rules::quorum(int(report.nodes.size()));
}

} // namespace

HistoryFeature::HistoryFeature(ClusterController* controller, MainWindow* window, OperatorActions* operatorActions,
                               std::optional<JournalOptions> options, QObject* parent)
    : QObject(parent), m_window(window)
{
    if (options)
        m_journal = std::make_unique<LockJournal>(*options);
    m_panel = new HistoryPanel(m_journal.get());
    m_notWritten = new QLabel(tr("History not written"));
    m_notWritten->setObjectName(QStringLiteral("historyNotWritten"));
    StatePalette::setTextRole(m_notWritten, StatePalette::Role::Danger);
    m_notWritten->hide();
    window->statusBar()->addPermanentWidget(m_notWritten);
    m_dock = window->addDockPanel(m_panel, tr("Lock history"), QStringLiteral("historyDock"));
    m_toggle = m_dock->toggleViewAction();
    m_toggle->setText(tr("Lock &history"));
    m_toggle->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_H);
    m_showLock = new QAction(tr("History of the selected &lock"), this);
    m_showLock->setObjectName(QStringLiteral("showLockHistoryAction"));
    m_showLock->setShortcut(Qt::CTRL | Qt::Key_H);
    QMenu* menu = window->insertMenu(tr("Hi&story"));
    menu->addAction(m_toggle);
    menu->addAction(m_showLock);
    window->addLocksContextAction(m_showLock);
    connect(m_showLock, &QAction::triggered, this, [this] {
        const QByteArray key = selectedKey();
        if (key.isEmpty())
            return;
        m_dock->show();
        m_dock->raise();
        m_panel->showKey(key);
    });
    if (!m_journal)
        return;

    // The GUI thread only hands the batch over (record() appends under a mutex); the journal's own thread writes.
    connect(controller, &ClusterController::lockEvents, this,
            [journal = m_journal.get()](const QList<LockEvent>& events) { journal->record(events); });
    // The watch stopped (a reconnect, another profile, the console closing): what it saw is one session. The next
    // watch starts from nothing (its first sight of a holder is "seen held"); its session continues or ends the
    // tenures this one leaves, as across a restart of the console. The old watch's events never come after this.
    connect(controller, &ClusterController::stopped, this, [journal = m_journal.get()] { journal->endSession(); });
    connect(m_journal.get(), &LockJournal::problem, this,
            [this](const QString& message) { logProblem(message, false); });
    connect(m_journal.get(), &LockJournal::recovered, this,
            [this](const QString& message) { logProblem(message, true); });
    connect(m_journal.get(), &LockJournal::warning, this, [this](const QString& message) { logWarning(message); });
    // A shared history in PostgreSQL whose server wants a password libpq's own sources do not give: the keyring's,
    // or asked once. Until then the journal says it is not written (problem()) and retries.
    if (isDatabaseJournal(m_journal->path())) {
        auto* password = new JournalWriterPassword(m_journal.get(), window);
        connect(password, &JournalWriterPassword::notRemembered, this,
                [this](const QString& message) { logWarning(message); });
    }
    if (operatorActions) {
        // Each configure() makes a new ForceRelease; its executions are journaled as force releases (one that
        // leaves the token its quorum as a force release on a minority, which ends no tenure).
        connect(operatorActions, &OperatorActions::configured, this, [this, operatorActions] {
            ForceRelease* release = operatorActions->forceRelease();
            if (!release)
                return;
            connect(release, &ForceRelease::executeFinished, this, [this](const ForceReleaseReport& report) {
                if (report.refused || report.matched() == 0)
                    return;
                QString detail = tr("by the operator");
                if (!report.reason.isEmpty())
                    detail += QStringLiteral(": ") + report.reason;
                m_journal->recordForceRelease(report.key, report.expectedToken, detail,
                                              QDateTime::currentMSecsSinceEpoch(), endsTenure(report));
            });
        });
    }
    m_journal->start();
}

HistoryFeature::~HistoryFeature() = default;

void HistoryFeature::setDeploymentHistory(const QString& journal)
{
    m_panel->setReadOnlySource(journal);
}

QByteArray HistoryFeature::selectedKey() const
{
    const QModelIndex current = m_window->locksView()->selectionModel()->currentIndex();
    return current.isValid() ? current.data(LocksModel::KeyRole).toByteArray() : QByteArray();
}

void HistoryFeature::logWarning(const QString& message)
{
    EventLogModel::Entry e;
    e.atMs = QDateTime::currentMSecsSinceEpoch();
    e.source = EventLogModel::Source::Console;
    e.texts.kind = tr("history warning");
    e.kindId = QStringLiteral("history-warning");
    e.texts.detail = message;
    m_window->eventLog()->addEntries({e});
}

void HistoryFeature::logProblem(const QString& message, bool recovered)
{
    EventLogModel::Entry e;
    e.atMs = QDateTime::currentMSecsSinceEpoch();
    e.source = EventLogModel::Source::Console;
    e.texts.kind = recovered ? tr("history recovered") : tr("history not written");
    e.kindId = recovered ? QStringLiteral("history-recovered") : QStringLiteral("history-failed");
    e.texts.detail = message;
    m_window->eventLog()->addEntries({e});
    m_panel->setJournalProblem(recovered ? QString() : message);
    m_notWritten->setToolTip(recovered ? QString() : message);
    m_notWritten->setVisible(!recovered);
}

} // namespace redlock
