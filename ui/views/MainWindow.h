#pragma once

#include "observe/ObservationTypes.h"

#include <QKeySequence>
#include <QMainWindow>

class QLabel;
class QLineEdit;
class QMenu;
class QSettings;
class QSplitter;
class QTabWidget;
class QTableView;

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

private:
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
    QLabel* m_quorumLabel;
    QLabel* m_countsLabel;
    QLabel* m_refreshLabel;
    QLabel* m_modeLabel;
    QMenu* m_helpMenu;
    bool m_autoSelected = false;
    QList<int> m_savedColumnWidths; // key, holder, verdict, validity, every TTL column
};

} // namespace redlock
