#pragma once

#include "controller/BenchRun.h"
#include "redlock/RedlockTypes.h"
#include "theme/StatePalette.h"

#include <QWidget>

class QCheckBox;
class QChartView;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace redlock {

class BenchController;

// Acquire / extend / release test bench over the core RedlockClient, through a BenchController (its thread and
// clients): a single
// lock (per-node outcome and latency, validity, fencing token, extend, release, auto-extension with a clear
// "lost"), and runs of K clients x iterations with statistics, a latency histogram and CSV / JSON export.
class BenchPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchPanel)

public:
    explicit BenchPanel(QWidget* parent = nullptr);
    ~BenchPanel() override;

    void setCluster(const QList<NodeEndpoint>& nodes, bool readOnly);
    void stop(); // drops the clients (a held lock is left to expire)
    BenchConfig config() const;

    void acquire();
    void extend();
    void release();
    void startRun();
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportJson(const QString& path, QString* error = nullptr) const;

    bool isHolding() const { return !m_lock.isNull(); }
    const Lock& lock() const { return m_lock; }
    const BenchStats& lastRun() const { return m_stats; }
    bool hasRun() const { return m_haveRun; }

    QLineEdit* resourceEdit() const { return m_resource; }
    QSpinBox* ttlBox() const { return m_ttl; }
    QSpinBox* clientsBox() const { return m_clients; }
    QSpinBox* iterationsBox() const { return m_iterations; }
    QCheckBox* fencingBox() const { return m_fencing; }
    QCheckBox* autoExtendBox() const { return m_autoExtend; }
    QTableWidget* nodesTable() const { return m_nodesTable; }
    QListWidget* extensionsList() const { return m_extensions; }
    QLabel* lockStateLabel() const { return m_lockState; }
    QLabel* statsLabel() const { return m_statsLabel; }
    QTableWidget* nodeErrorsTable() const { return m_nodeErrors; }
    QPushButton* acquireButton() const { return m_acquireButton; }
    QPushButton* extendButton() const { return m_extendButton; }
    QPushButton* releaseButton() const { return m_releaseButton; }
    QPushButton* runButton() const { return m_runButton; }
    QChartView* chartView() const { return m_chart; }

signals:
    void acquireFinished(bool ok);
    void extendFinished(bool ok);
    void releaseFinished(bool ok);
    void lockLost(const QString& reason);
    void runFinished();

private:
    void onAcquired(const AcquireResult& result);
    void onExtended(const ExtendResult& result);
    void onReleased(const ReleaseResult& result);
    void showOutcomes(const QList<NodeOutcome>& nodes);
    void showLockState();
    void showLockStateAs(std::optional<StatePalette::Role> role, bool bold = false, double scale = 1.0);
    void addExtension(const ExtendResult& result);
    void onLost(const QString& reason);
    void showRun(const BenchStats& stats);
    void updateButtons();
    void exportWithDialog(bool json);

    BenchController* m_bench;
    QList<NodeEndpoint> m_nodes;
    bool m_readOnly = false;
    Lock m_lock;
    QString m_lostReason;
    bool m_busy = false;
    BenchStats m_stats;
    bool m_haveRun = false;

    QLineEdit* m_resource;
    QSpinBox* m_ttl;
    QSpinBox* m_retryCount;
    QSpinBox* m_retryDelay;
    QSpinBox* m_retryJitter;
    QDoubleSpinBox* m_drift;
    QCheckBox* m_fencing;
    QCheckBox* m_autoExtend;
    QSpinBox* m_clients;
    QSpinBox* m_iterations;
    QPushButton* m_acquireButton;
    QPushButton* m_extendButton;
    QPushButton* m_releaseButton;
    QPushButton* m_runButton;
    QPushButton* m_csvButton;
    QPushButton* m_jsonButton;
    QLabel* m_lockState;
    QTableWidget* m_nodesTable;
    QListWidget* m_extensions;
    QLabel* m_statsLabel;
    QProgressBar* m_progress;
    QTableWidget* m_nodeErrors;
    QChartView* m_chart;
};

} // namespace redlock
