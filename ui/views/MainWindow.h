#pragma once

#include "observe/ObservationTypes.h"

#include <QKeySequence>
#include <QMainWindow>

class QAbstractItemView;
class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QSettings;
class QSplitter;
class QTabWidget;
class QTableView;
class QToolBar;

namespace redlock {

class ChartsPanel;
class ClusterController;
class EventLogModel;
class EventLogPanel;
class LockDetailPanel;
class LocksModel;
class LocksProxyModel;
class NodesModel;
class NodesPanel;

// The console's main window: nodes and audit on top, the locks table with the selected lock's detail in
// the middle, charts and the event log below; the cluster's quorum state in the status bar. Everything it
// shows comes from ClusterController signals through the models; it never talks to Redis.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(ClusterController* controller, QWidget* parent = nullptr);
    ~MainWindow() override;

    // A keyboard shortcut as Help lists it: "Menu › Action" and its keys.
    struct Shortcut
    {
        QString action;
        QKeySequence keys;
    };

    void setModeText(const QString& text); // e.g. "demo: local cluster" or the profile name
    // Adds a menu to the menu bar before Help (the operator actions' menu, for one).
    QMenu* insertMenu(const QString& title);
    // Extension points for what the window does not know about (the operator's actions, OperatorFeature): they
    // say where things go, so no caller depends on the toolbar's order or a panel's layout.
    // Adds actions to the toolbar as one section after the cluster actions, before the mode label.
    void addToolBarSection(const QList<QAction*>& actions);
    // Puts `panel` in a dock (hidden; its toggleViewAction() shows it) and returns the dock. Docks of one area
    // are tabbed together: each open one gets the area's whole width (side by side, a history's filters and
    // timeline had half the window), and a dock that is shown and raised comes to the front.
    QDockWidget* addDockPanel(QWidget* panel, const QString& title, const QString& objectName,
                              Qt::DockWidgetArea area = Qt::BottomDockWidgetArea);
    // Adds a widget to the lock detail's action row (below the detail, right-aligned).
    void addLockDetailWidget(QWidget* widget);
    // Actions of the locks and nodes tables' context menus; a right click selects the row under it first.
    void addLocksContextAction(QAction* action);
    void addNodesContextAction(QAction* action);
    // Every menu action with a shortcut, in menu order: what Help → Keyboard shortcuts shows.
    QList<Shortcut> shortcuts() const;
    // Help → About: version, Qt version, licence.
    static QString aboutText();
    // Window geometry, splitters and the locks table's column widths, between runs.
    void restoreLayout(QSettings& settings);
    void saveLayout(QSettings& settings) const;

    LocksModel* locksModel() const { return m_locks; }
    LocksProxyModel* locksProxy() const { return m_locksProxy; }
    NodesModel* nodesModel() const { return m_nodes; }
    EventLogModel* eventLog() const { return m_events; }
    QTableView* locksView() const { return m_locksView; }
    QLineEdit* locksFilter() const { return m_filter; }
    LockDetailPanel* detail() const { return m_detail; }
    ChartsPanel* charts() const { return m_charts; }
    NodesPanel* nodesPanel() const { return m_nodesPanel; }
    EventLogPanel* eventLogPanel() const { return m_eventPanel; }
    QLabel* quorumLabel() const { return m_quorumLabel; }

signals:
    void connectRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void showContextMenu(QAbstractItemView* view, const QList<QAction*>& actions, const QPoint& pos);
    void refreshIcons();
    void showShortcuts();
    void showAbout();
    void onStarted(int nodeCount);
    void applySavedColumnWidths();
    void updateQuorum();
    void updateLockCounts();
    void onInspection(const InspectionSummary& summary);
    void onSelectionChanged();
    void selectFirstInterestingLock();

    ClusterController* m_controller;
    NodesModel* m_nodes;
    LocksModel* m_locks;
    LocksProxyModel* m_locksProxy;
    EventLogModel* m_events;
    NodesPanel* m_nodesPanel;
    QTableView* m_locksView;
    QLineEdit* m_filter;
    QLabel* m_locksCount;
    LockDetailPanel* m_detail;
    ChartsPanel* m_charts;
    EventLogPanel* m_eventPanel;
    QTabWidget* m_bottomTabs;
    QSplitter* m_mainSplit;
    QSplitter* m_middleSplit;
    QLabel* m_quorumIcon;
    QLabel* m_quorumLabel;
    QLabel* m_countsLabel;
    QLabel* m_refreshLabel;
    QLabel* m_modeLabel;
    QMenu* m_helpMenu;
    QToolBar* m_toolbar = nullptr;
    QAction* m_modeLabelAction = nullptr;
    QList<QAction*> m_locksContextActions;
    QList<QAction*> m_nodesContextActions;
    bool m_autoSelected = false;
    QByteArray m_keyAcrossReset;    // the selected lock while the table switches between its own order and a sort
    QList<int> m_savedColumnWidths; // key, holder, verdict, validity, every TTL column
};

} // namespace redlock
