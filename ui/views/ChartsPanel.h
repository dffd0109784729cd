#pragma once

#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace redlock {

class ClusterController;
class MetricSeries;

// Live charts over ClusterMetrics' rolling window: per-node latency, per-node clock offset, and lock
// activity (acquisitions, releases and expiries per second, contention, failed acquires of the console's own
// clients). Redrawn once per metrics tick: each series gets one replace() with its whole window.
class ChartsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChartsPanel)

public:
    explicit ChartsPanel(ClusterController* controller, QWidget* parent = nullptr);

    // For tests: the series of each chart.
    QList<QLineSeries*> latencySeries() const { return m_latency; }
    QList<QLineSeries*> offsetSeries() const { return m_offset; }
    QList<QLineSeries*> activitySeries() const { return m_activity; }

public slots:
    void rebuild(int nodeCount);
    void updateCharts(qint64 atMs);

private:
    struct Chart
    {
        QChart* chart = nullptr;
        QChartView* view = nullptr;
        QDateTimeAxis* x = nullptr;
        QValueAxis* y = nullptr;
    };
    Chart makeChart(const QString& title, const QString& unit);
    QLineSeries* addSeries(Chart& chart, const QString& name);
    static void replace(QLineSeries* series, const MetricSeries& data, double* minY, double* maxY);
    void fitAxes(Chart& chart, qint64 atMs, double minY, double maxY, bool symmetric);

    ClusterController* m_controller;
    Chart m_latencyChart;
    Chart m_offsetChart;
    Chart m_activityChart;
    QList<QLineSeries*> m_latency;
    QList<QLineSeries*> m_offset;
    QList<QLineSeries*> m_activity;
};

} // namespace redlock
