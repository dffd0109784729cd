#include "views/MainWindow.h"

#include "controller/ClusterController.h"
#include "models/EventLogModel.h"
#include "models/LocksModel.h"
#include "models/LocksProxyModel.h"
#include "models/NodesModel.h"
#include "runtime/HumanUnits.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"
#include "views/ChartsPanel.h"
#include "views/EventLogPanel.h"
#include "views/LockDetailPanel.h"
#include "views/NodesPanel.h"
#include "views/TtlBarDelegate.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace redlock {

MainWindow::MainWindow(ClusterController* controller, QWidget* parent)
    : QMainWindow(parent), m_controller(controller), m_nodes(new NodesModel(this)), m_locks(new LocksModel(this)),
      m_locksProxy(new LocksProxyModel(this)), m_events(new EventLogModel(10000, this))
{
    setWindowTitle(tr("Redlock Console"));
    setObjectName(QStringLiteral("mainWindow"));

    // Toolbar and menu.
    auto* connectAction = new QAction(tr("&Connect…"), this);
    connectAction->setShortcut(QKeySequence::Open);
    connectAction->setToolTip(tr("Choose, edit and check connection profiles"));
    auto* refreshAction = new QAction(tr("&Refresh now"), this);
    refreshAction->setShortcut(QKeySequence::Refresh);
    refreshAction->setToolTip(tr("Scan every node for locks now instead of at the next interval"));
    auto* quitAction = new QAction(tr("&Quit"), this);
    quitAction->setShortcut(Qt::CTRL | Qt::Key_Q); // QKeySequence::Quit is empty under the generic Unix theme
    connect(connectAction, &QAction::triggered, this, &MainWindow::connectRequested);
    connect(refreshAction, &QAction::triggered, m_controller, &ClusterController::refreshNow);
    connect(quitAction, &QAction::triggered, this, &QWidget::close);
    auto* filterAction = new QAction(tr("&Filter locks"), this);
    filterAction->setObjectName(QStringLiteral("filterLocksAction"));
    filterAction->setShortcut(QKeySequence::Find);
    Icons::setIcon(connectAction, Icons::Action::Connect);
    Icons::setIcon(refreshAction, Icons::Action::Refresh);
    Icons::setIcon(filterAction, Icons::Action::Filter);
    Icons::setIcon(quitAction, Icons::Action::Quit);
    QMenu* fileMenu = menuBar()->addMenu(tr("&Cluster"));
    fileMenu->addAction(connectAction);
    fileMenu->addAction(refreshAction);
    fileMenu->addAction(filterAction);
    fileMenu->addSeparator();
    fileMenu->addAction(quitAction);
    m_helpMenu = menuBar()->addMenu(tr("&Help"));
    auto* shortcutsAction = m_helpMenu->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts);
    shortcutsAction->setObjectName(QStringLiteral("shortcutsAction"));
    shortcutsAction->setShortcut(QKeySequence::HelpContents);
    auto* aboutAction = m_helpMenu->addAction(tr("&About Redlock Console"), this, &MainWindow::showAbout);
    aboutAction->setObjectName(QStringLiteral("aboutAction"));
    aboutAction->setMenuRole(QAction::AboutRole);
    Icons::setIcon(shortcutsAction, Icons::Action::Shortcuts);
    Icons::setIcon(aboutAction, Icons::Action::About);
    m_toolbar = addToolBar(tr("Cluster"));
    m_toolbar->setObjectName(QStringLiteral("clusterToolbar"));
    m_toolbar->setMovable(false);
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    // Small icons beside the text: the toolbar stays as tall as the text, leaving the height to the tables.
    const int smallIcon = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_toolbar->setIconSize(QSize(smallIcon, smallIcon));
    m_toolbar->addAction(connectAction);
    m_toolbar->addAction(refreshAction);
    m_modeLabel = new QLabel(this);
    m_modeLabel->setContentsMargins(12, 0, 0, 0);
    m_modeLabelAction = m_toolbar->addWidget(m_modeLabel);

    // Nodes.
    m_nodesPanel = new NodesPanel(m_controller, m_nodes, this);

    // Locks.
    m_locksProxy->setSourceModel(m_locks);
    m_locksView = new QTableView(this);
    m_locksView->setObjectName(QStringLiteral("locksTable"));
    // The selected lock leaving the table (released, filtered out) leaves nothing selected: left alone, the selection
    // model would make a neighbouring row current without selecting it, and the detail panel and Force release
    // would follow a lock the operator did not pick. Connected before the view's own handlers, so it runs first.
    connect(m_locksProxy, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            [this](const QModelIndex& removedFrom, int first, int last) {
                const QModelIndex current = m_locksView->selectionModel()->currentIndex();
                if (!removedFrom.isValid() && current.isValid() && current.row() >= first && current.row() <= last)
                    m_locksView->selectionModel()->clear();
            });
    m_locksView->setModel(m_locksProxy);
    m_locksView->setSortingEnabled(true);
    // Unsorted by default: the model is in key order already, and a first table of 100,000 locks then needs
    // no sort on the GUI thread. A header click sorts (on raw values) from then on.
    m_locksView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_locksProxy->sort(-1);
    m_locksView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_locksView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_locksView->setAlternatingRowColors(true);
    m_locksView->setWordWrap(false);
    m_locksView->setItemDelegate(new TtlBarDelegate(m_locksView));
    m_locksView->verticalHeader()->hide();
    m_locksView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_locksView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_locksView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_locksView->horizontalHeader()->setHighlightSections(false);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("locksFilter"));
    m_filter->setPlaceholderText(tr("Filter locks by key, holder or verdict"));
    m_filter->setClearButtonEnabled(true);
    connect(filterAction, &QAction::triggered, this, [this] {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    connect(m_filter, &QLineEdit::textChanged, m_locksProxy, &LocksProxyModel::setFilterText);
    m_locksCount = new QLabel(this);
    auto* locksBox = new QWidget(this);
    auto* locksTop = new QHBoxLayout;
    auto* locksTitle = new QLabel(tr("Locks"), locksBox);
    QFont bold = locksTitle->font();
    bold.setBold(true);
    locksTitle->setFont(bold);
    locksTop->addWidget(locksTitle);
    locksTop->addWidget(m_filter, 1);
    locksTop->addWidget(m_locksCount);
    auto* locksLayout = new QVBoxLayout(locksBox);
    locksLayout->setContentsMargins(4, 4, 4, 4);
    locksLayout->addLayout(locksTop);
    locksLayout->addWidget(m_locksView, 1);

    m_detail = new LockDetailPanel(m_controller, m_locks, m_events, this);
    m_charts = new ChartsPanel(m_controller, this);
    m_eventPanel = new EventLogPanel(m_events, this);

    m_middleSplit = new QSplitter(Qt::Horizontal, this);
    m_middleSplit->setObjectName(QStringLiteral("middleSplit"));
    m_middleSplit->addWidget(locksBox);
    // The detail panel's tables and timeline have minimum heights: in a scroll area they scroll when room is short
    // (a dock opened below) instead of holding the whole window to their sum.
    auto* detailScroll = new QScrollArea(this);
    detailScroll->setObjectName(QStringLiteral("lockDetailScroll"));
    detailScroll->setWidget(m_detail);
    detailScroll->setWidgetResizable(true);
    detailScroll->setFrameShape(QFrame::NoFrame);
    detailScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_middleSplit->addWidget(detailScroll);
    m_middleSplit->setStretchFactor(0, 3);
    m_middleSplit->setStretchFactor(1, 2);
    m_middleSplit->setSizes({920, 470});

    m_bottomTabs = new QTabWidget(this);
    m_bottomTabs->addTab(m_charts, tr("Charts"));
    m_bottomTabs->addTab(m_eventPanel, tr("Event log"));

    m_mainSplit = new QSplitter(Qt::Vertical, this);
    m_mainSplit->setObjectName(QStringLiteral("mainSplit"));
    m_mainSplit->addWidget(m_nodesPanel);
    m_mainSplit->addWidget(m_middleSplit);
    m_mainSplit->addWidget(m_bottomTabs);
    m_mainSplit->setStretchFactor(0, 0);
    m_mainSplit->setStretchFactor(1, 3);
    m_mainSplit->setStretchFactor(2, 2);
    const int rowHeight = fontMetrics().height() + 8;
    m_mainSplit->setSizes({rowHeight * 6 + 8, 430, 250});
    setCentralWidget(m_mainSplit);

    // Status bar.
    m_quorumIcon = new QLabel(this);
    m_quorumIcon->setObjectName(QStringLiteral("quorumIcon"));
    m_quorumLabel = new QLabel(this);
    m_quorumLabel->setObjectName(QStringLiteral("quorumState"));
    m_countsLabel = new QLabel(this);
    m_refreshLabel = new QLabel(this);
    statusBar()->addWidget(m_quorumIcon);
    statusBar()->addWidget(m_quorumLabel);
    statusBar()->addWidget(m_countsLabel, 1);
    statusBar()->addPermanentWidget(m_refreshLabel);

    connect(m_controller, &ClusterController::started, this, &MainWindow::onStarted);
    connect(m_controller, &ClusterController::nodeFactsChanged, this, [this](int node) {
        m_nodes->setFacts(m_controller->nodeFacts().value(node));
        updateQuorum();
    });
    connect(m_controller, &ClusterController::nodeSampled, m_nodes, &NodesModel::setSample);
    connect(m_controller, &ClusterController::tunnelProblemChanged, m_nodes, &NodesModel::setTunnelProblem);
    connect(m_controller, &ClusterController::observerLoad, m_nodes, &NodesModel::setLoad);
    connect(m_controller, &ClusterController::auditChanged, this,
            [this] { m_nodes->setFindings(m_controller->findings()); });
    connect(m_controller, &ClusterController::locksChanged, m_locks, &LocksModel::applyChanges);
    connect(m_controller, &ClusterController::lockEvents, m_events, &EventLogModel::addLockEvents);
    connect(m_controller, &ClusterController::inspectionFinished, this, &MainWindow::onInspection);
    connect(m_controller, &ClusterController::nodeRestarted, this, [this](const NodeFacts& facts) {
        EventLogModel::Entry e;
        e.atMs = QDateTime::currentMSecsSinceEpoch();
        e.source = EventLogModel::Source::Console;
        e.texts.kind = tr("node restarted");
        e.kindId = QStringLiteral("node-restarted");
        e.texts.detail = tr("node #%1 %2 restarted (downtime %3)")
                             .arg(facts.node + 1)
                             .arg(facts.endpoint.displayName(),
                                  facts.downtimeMs < 0 ? tr("unknown") : HumanUnits::duration(facts.downtimeMs));
        m_events->addEntries({e});
    });
    connect(m_locks, &LocksModel::locksApplied, this, &MainWindow::updateLockCounts);
    connect(m_locksProxy, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateLockCounts);
    connect(m_locksProxy, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateLockCounts);
    connect(m_locksProxy, &QAbstractItemModel::modelReset, this, &MainWindow::updateLockCounts);
    connect(m_locksView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onSelectionChanged);
    // A sort other than key order, or a filter, puts a sorting model under the table (and takes it away again): the
    // view is reset then, and the lock the operator had selected stays selected if it is still shown.
    connect(m_locksProxy, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const QModelIndex current = m_locksView->selectionModel()->currentIndex();
        m_keyAcrossReset = current.isValid() ? current.data(LocksModel::KeyRole).toByteArray() : QByteArray();
        // Told to every listener (the detail panel, the operator actions): a reset clears it without a signal.
        m_locksView->selectionModel()->clear();
    });
    connect(m_locksProxy, &QAbstractItemModel::modelReset, this, [this] {
        const QByteArray key = std::exchange(m_keyAcrossReset, {});
        const int row = key.isEmpty() ? -1 : m_locksProxy->rowOfLocksRow(m_locks->rowOf(key));
        if (row < 0)
            return;
        const QModelIndex index = m_locksProxy->index(row, 0);
        m_locksView->selectionModel()->setCurrentIndex(index,
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_locksView->scrollTo(index);
    });
    connect(m_controller, &ClusterController::firstFullRefresh, this, &MainWindow::selectFirstInterestingLock);

    if (m_controller->isRunning())
        onStarted(m_controller->nodeCount());
    updateQuorum();
    updateLockCounts();
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

QMenu* MainWindow::insertMenu(const QString& title)
{
    auto* menu = new QMenu(title, menuBar());
    menuBar()->insertMenu(m_helpMenu->menuAction(), menu);
    return menu;
}

void MainWindow::addToolBarSection(const QList<QAction*>& actions)
{
    m_toolbar->insertSeparator(m_modeLabelAction);
    m_toolbar->insertActions(m_modeLabelAction, actions);
}

QDockWidget* MainWindow::addDockPanel(QWidget* panel, const QString& title, const QString& objectName,
                                      Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    addDockWidget(area, dock);
    for (QDockWidget* other : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
        if (other != dock && dockWidgetArea(other) == area) {
            tabifyDockWidget(other, dock);
            break;
        }
    }
    // The first time a dock opens in a run it takes at most a third of the window: the locks table stays the
    // larger part (a history's size hint alone left it two rows). What the operator resizes afterwards stays.
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
        if (!visible || dock->isFloating() || dock->property("sizedOnce").toBool())
            return;
        dock->setProperty("sizedOnce", true);
        const bool leftOrRight = dockWidgetArea(dock) & (Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
        const Qt::Orientation along = leftOrRight ? Qt::Horizontal : Qt::Vertical;
        const int cap = (leftOrRight ? width() : height()) / 3;
        const QSize hint = dock->sizeHint();
        if ((leftOrRight ? hint.width() : hint.height()) > cap)
            resizeDocks({dock}, {cap}, along);
    });
    dock->hide();
    return dock;
}

void MainWindow::addLockDetailWidget(QWidget* widget)
{
    m_detail->addActionWidget(widget);
}

void MainWindow::addLocksContextAction(QAction* action)
{
    if (m_locksContextActions.isEmpty()) {
        m_locksView->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(m_locksView, &QWidget::customContextMenuRequested, this,
                [this](const QPoint& pos) { showContextMenu(m_locksView, m_locksContextActions, pos); });
    }
    m_locksContextActions.append(action);
}

void MainWindow::addNodesContextAction(QAction* action)
{
    if (m_nodesContextActions.isEmpty()) {
        QTableView* view = m_nodesPanel->view();
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this,
                [this, view](const QPoint& pos) { showContextMenu(view, m_nodesContextActions, pos); });
    }
    m_nodesContextActions.append(action);
}

void MainWindow::showContextMenu(QAbstractItemView* view, const QList<QAction*>& actions, const QPoint& pos)
{
    const QModelIndex index = view->indexAt(pos);
    if (!index.isValid())
        return;
    view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QMenu menu(this);
    menu.addActions(actions);
    menu.exec(view->viewport()->mapToGlobal(pos));
}

void MainWindow::changeEvent(QEvent* event)
{
    // A new palette (the desktop switched to dark, say): icons drawn in the old text colour are drawn again.
    if (event->type() == QEvent::PaletteChange)
        refreshIcons();
    QMainWindow::changeEvent(event);
}

void MainWindow::refreshIcons()
{
    if (!m_toolbar)
        return; // still being built
    const auto refreshMenu = [](const QMenu* menu, const auto& self) -> void {
        for (QAction* action : menu->actions()) {
            Icons::refresh(action);
            if (action->menu())
                self(action->menu(), self);
        }
    };
    for (QAction* top : menuBar()->actions()) {
        if (top->menu())
            refreshMenu(top->menu(), refreshMenu);
    }
    for (QAction* action : m_toolbar->actions())
        Icons::refresh(action);
    for (QAbstractButton* button : findChildren<QAbstractButton*>())
        Icons::refresh(button);
    updateQuorum();
}

QList<MainWindow::Shortcut> MainWindow::shortcuts() const
{
    QList<Shortcut> list;
    const auto collect = [&list](const QMenu* menu, const QString& path, const auto& self) -> void {
        for (QAction* action : menu->actions()) {
            const QString text = QString(action->text()).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
            if (action->menu())
                self(action->menu(), path + QStringLiteral(" › ") + text, self);
            else if (!action->shortcut().isEmpty())
                list.append({path + QStringLiteral(" › ") + text, action->shortcut()});
        }
    };
    for (QAction* top : menuBar()->actions()) {
        if (top->menu())
            collect(top->menu(), QString(top->text()).remove(QLatin1Char('&')), collect);
    }
    return list;
}

void MainWindow::showShortcuts()
{
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("shortcutsDialog"));
    dialog.setWindowTitle(tr("Keyboard shortcuts"));
    const QList<Shortcut> list = shortcuts();
    auto* table = new QTableWidget(int(list.size()), 2, &dialog);
    table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    for (int row = 0; row < list.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(list[row].action));
        table->setItem(row, 1, new QTableWidgetItem(list[row].keys.toString(QKeySequence::NativeText)));
    }
    table->setFocusPolicy(Qt::NoFocus);
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    // Every row visible without scrolling.
    const int frame = 2 * table->frameWidth();
    table->setMinimumSize(table->horizontalHeader()->length() + frame + fontMetrics().averageCharWidth() * 4,
                          table->verticalHeader()->length() + table->horizontalHeader()->sizeHint().height() + frame);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.exec();
}

QString MainWindow::aboutText()
{
    return tr("<h3>Redlock Console %1</h3>"
              "<p>Monitoring and admin console for Redlock distributed locks over N independent Redis masters.</p>"
              "<p>Built with Qt %2, running on Qt %3.</p>"
              "<p>The source code is under the MIT licence. The console links Qt Charts, which Debian ships "
              "under the GNU GPL version 3, so the console in binary form is distributed under the terms of "
              "the GPL-3 as well.</p>")
        .arg(QApplication::applicationVersion(), QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Redlock Console"), aboutText());
}

void MainWindow::setModeText(const QString& text)
{
    m_modeLabel->setText(text);
}

void MainWindow::restoreLayout(QSettings& settings)
{
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_mainSplit->restoreState(settings.value(QStringLiteral("window/mainSplit")).toByteArray());
    m_middleSplit->restoreState(settings.value(QStringLiteral("window/middleSplit")).toByteArray());
    m_savedColumnWidths.clear();
    for (const QVariant& width : settings.value(QStringLiteral("window/locksColumnWidths")).toList())
        m_savedColumnWidths.append(width.toInt());
    if (m_locks->nodeCount() > 0)
        applySavedColumnWidths();
}

void MainWindow::saveLayout(QSettings& settings) const
{
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/mainSplit"), m_mainSplit->saveState());
    settings.setValue(QStringLiteral("window/middleSplit"), m_middleSplit->saveState());
    // The fixed columns and the TTL columns' common width; before any connect, what was restored.
    QVariantList widths;
    if (m_locks->nodeCount() > 0) {
        for (int column = 0; column <= LocksModel::ColumnCount; ++column)
            widths.append(m_locksView->columnWidth(column));
    } else {
        for (int width : m_savedColumnWidths)
            widths.append(width);
    }
    if (!widths.isEmpty())
        settings.setValue(QStringLiteral("window/locksColumnWidths"), widths);
}

void MainWindow::applySavedColumnWidths()
{
    const int columns = m_locks->columnCount();
    for (int column = 0; column < columns; ++column) {
        const int width = m_savedColumnWidths.value(std::min<int>(column, LocksModel::ColumnCount));
        if (width > 0)
            m_locksView->setColumnWidth(column, width);
    }
}

void MainWindow::onStarted(int nodeCount)
{
    m_nodes->setNodes(m_controller->nodeFacts());
    for (int i = 0; i < nodeCount; ++i) // the tunnels started before the rows were made
        m_nodes->setTunnelProblem(i, m_controller->tunnelProblem(i));
    m_locks->reset(nodeCount);
    m_detail->showKey({});
    m_autoSelected = false;
    const QFontMetrics fm = fontMetrics();
    // Sized so that key, holder, verdict, validity and five TTL bars fit the default 1400-pixel window.
    m_locksView->setColumnWidth(LocksModel::KeyColumn,
                                fm.horizontalAdvance(QStringLiteral("jobs:nightly-report")) + 12);
    m_locksView->setColumnWidth(LocksModel::HolderColumn,
                                fm.horizontalAdvance(QStringLiteral("host pid 12345 (billing-worker)")));
    m_locksView->setColumnWidth(
        LocksModel::VerdictColumn,
        fm.horizontalAdvance(m_locks->headerData(LocksModel::VerdictColumn, Qt::Horizontal).toString() +
                             QStringLiteral("minority leftover 2/5")) /
                2 +
            90); // and the verdict's icon
    m_locksView->setColumnWidth(
        LocksModel::ValidityColumn,
        std::max(fm.horizontalAdvance(HumanUnits::remaining(58'800)),
                 fm.horizontalAdvance(m_locks->headerData(LocksModel::ValidityColumn, Qt::Horizontal).toString())) +
            20);
    for (int i = 0; i < nodeCount; ++i)
        m_locksView->setColumnWidth(LocksModel::ColumnCount + i,
                                    fm.horizontalAdvance(Icons::presenceGlyph(NodeLockState::Presence::Holding, false) +
                                                         QLatin1Char(' ') + HumanUnits::remaining(58'800)) +
                                        12);
    applySavedColumnWidths();
    updateQuorum();
    const ClusterSettings& s = m_controller->settings();
    if (m_modeLabel->text().isEmpty() || !s.profileName.isEmpty())
        m_modeLabel->setText(s.profileName.isEmpty() ? tr("%n node(s)", nullptr, nodeCount)
                                                     : tr("Profile: %1").arg(s.profileName));
    if (s.readOnly)
        m_modeLabel->setText(m_modeLabel->text() + tr(" — read-only"));
}

void MainWindow::updateQuorum()
{
    const int total = m_controller->nodeCount();
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    if (total == 0) {
        m_quorumIcon->setPixmap(Icons::health(NodeHealth::Connecting).pixmap(iconSize, iconSize));
        m_quorumLabel->setText(tr("Not connected"));
        return;
    }
    const int up = m_controller->nodesUp();
    const bool quorum = m_controller->hasQuorum();
    m_quorumIcon->setPixmap(Icons::health(quorum ? NodeHealth::Up : NodeHealth::Down).pixmap(iconSize, iconSize));
    m_quorumLabel->setText(
        quorum ? tr("Quorum: yes — %1 of %2 nodes up (quorum %3)").arg(up).arg(total).arg(m_controller->quorum())
               : tr("Quorum: NO — %1 of %2 nodes up (quorum %3)").arg(up).arg(total).arg(m_controller->quorum()));
    StatePalette::setTextRole(m_quorumLabel, quorum ? std::nullopt : std::optional(StatePalette::Role::Danger));
    QFont font = m_quorumLabel->font();
    font.setBold(!quorum);
    m_quorumLabel->setFont(font);
}

void MainWindow::updateLockCounts()
{
    const int total = m_locks->rowCount();
    const int shown = m_locksProxy->rowCount();
    m_locksCount->setText(shown == total ? tr("%n lock(s)", nullptr, total)
                                         : tr("%1 of %2 shown").arg(shown).arg(total));
    QString counts = tr("held %1 · expiring %2 · contested %3 · minority leftover %4 · unknown %5 · stuck %6")
                         .arg(m_locks->countWithVerdict(LockVerdict::Held))
                         .arg(m_locks->countWithVerdict(LockVerdict::Expiring))
                         .arg(m_locks->countWithVerdict(LockVerdict::Contested))
                         .arg(m_locks->countWithVerdict(LockVerdict::MinorityLeftover))
                         .arg(m_locks->countWithVerdict(LockVerdict::Unknown))
                         .arg(m_locks->countWithVerdict(LockVerdict::Stuck));
    // Only while there are any: lock-delays are short-lived and rare.
    if (const int released = m_locks->countWithVerdict(LockVerdict::ReleasedByOperator); released > 0)
        counts += tr(" · released by operator %1").arg(released);
    m_countsLabel->setText(counts);
}

void MainWindow::onInspection(const InspectionSummary& summary)
{
    QString text = tr("Scanned %1 keys in %2 ms at %3")
                       .arg(summary.keysScanned)
                       .arg(summary.elapsedUs / 1000)
                       .arg(QDateTime::fromMSecsSinceEpoch(summary.startedAtMs).toString(u"HH:mm:ss"));
    // Keys with a TTL in no recognised lock format (the default pattern *) are said apart: they are data this
    // console could take for locks, and --pattern / the profile's pattern is how the operator names them.
    const qint64 notLockFormat = summary.skipped.notALockFormat;
    if (summary.skipped.total() > notLockFormat)
        text += tr(" · %n non-lock key(s) skipped", nullptr, int(summary.skipped.total() - notLockFormat));
    if (notLockFormat > 0)
        text += tr(" · %n key(s) not in a lock format passed over", nullptr, int(notLockFormat));
    if (!summary.errors.isEmpty())
        text += tr(" · %n node error(s)", nullptr, int(summary.errors.size()));
    m_refreshLabel->setText(text);
    QStringList tip = summary.errors;
    if (notLockFormat > 0)
        tip << tr("Under the pattern * only values in a lock format the console recognises (its own tokens, "
                  "node-redlock, Redsync, uuids, Redisson) count as locks; keys with other values are passed over. "
                  "A profile pattern other than * names the lock keys: then every value with a TTL under it counts.");
    m_refreshLabel->setToolTip(tip.join(QLatin1Char('\n')));
}

void MainWindow::onSelectionChanged()
{
    const QModelIndex current = m_locksView->selectionModel()->currentIndex();
    m_detail->showKey(current.isValid() ? current.data(LocksModel::KeyRole).toByteArray() : QByteArray());
}

void MainWindow::selectFirstInterestingLock()
{
    // A new user should see a lock's detail at once: pick a held lock with the most to show.
    if (m_autoSelected || m_locksView->selectionModel()->hasSelection())
        return;
    m_autoSelected = true;
    int best = -1;
    int bestScore = -1;
    for (int row = 0; row < m_locksProxy->rowCount(); ++row) {
        const auto verdict = LockVerdict(m_locksProxy->index(row, 0).data(LocksModel::VerdictRole).toInt());
        const int score = verdict == LockVerdict::Held ? 3 : verdict == LockVerdict::Expiring ? 2 : 1;
        if (score > bestScore) {
            bestScore = score;
            best = row;
        }
        if (score == 3)
            break;
    }
    if (best >= 0)
        m_locksView->selectRow(best);
}

} // namespace redlock
