#include "views/ChartsPanel.h"

#include "controller/ClusterController.h"
#include "theme/StatePalette.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHBoxLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <cmath>

namespace redlock {

namespace {
constexpr qint64 kWindowMs = 120'000;
}

ChartsPanel::ChartsPanel(ClusterController* controller, QWidget* parent) : QWidget(parent), m_controller(controller)
{
    m_latencyChart = makeChart(tr("Latency per node"), tr("ms"));
    m_offsetChart = makeChart(tr("Clock offset per node"), tr("ms"));
    m_activityChart = makeChart(tr("Lock activity"), tr("per s"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_latencyChart.view);
    layout->addWidget(m_offsetChart.view);
    layout->addWidget(m_activityChart.view);

    connect(m_controller, &ClusterController::started, this, &ChartsPanel::rebuild);
    connect(m_controller, &ClusterController::metricsUpdated, this, &ChartsPanel::updateCharts);
    if (m_controller->isRunning())
        rebuild(m_controller->nodeCount());
}

ChartsPanel::Chart ChartsPanel::makeChart(const QString& title, const QString& unit)
{
    Chart c;
    c.chart = new QChart;
    StatePalette::applyToChart(c.chart, palette());
    c.chart->setTitle(title);
    c.chart->setMargins(QMargins(2, 2, 2, 2));
    c.chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    c.chart->legend()->setFont(small);
    QFont titleFont = font();
    titleFont.setBold(true);
    c.chart->setTitleFont(titleFont);
    c.x = new QDateTimeAxis;
    c.x->setFormat(QStringLiteral("HH:mm:ss"));
    c.x->setTickCount(4);
    c.x->setLabelsFont(small);
    c.y = new QValueAxis;
    c.y->setTitleText(unit);
    c.y->setTitleFont(small);
    c.y->setLabelsFont(small);
    c.y->setLabelFormat(QStringLiteral("%.3g"));
    c.y->setTickCount(5);
    c.chart->addAxis(c.x, Qt::AlignBottom);
    c.chart->addAxis(c.y, Qt::AlignLeft);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    c.x->setRange(QDateTime::fromMSecsSinceEpoch(now - kWindowMs), QDateTime::fromMSecsSinceEpoch(now));
    c.y->setRange(0, 1);
    c.view = new QChartView(c.chart, this);
    c.view->setRenderHint(QPainter::Antialiasing);
    c.view->setMinimumSize(200, 160);
    return c;
}

QLineSeries* ChartsPanel::addSeries(Chart& chart, const QString& name)
{
    auto* series = new QLineSeries;
    series->setName(name);
    series->setPointsVisible(true); // a window that just opened has single points, not lines yet
    chart.chart->addSeries(series); // the theme gives the series its colour here
    QPen pen = series->pen();
    pen.setWidthF(1.5);
    series->setPen(pen);
    series->attachAxis(chart.x);
    series->attachAxis(chart.y);
    return series;
}

void ChartsPanel::rebuild(int nodeCount)
{
    for (Chart* c : {&m_latencyChart, &m_offsetChart, &m_activityChart})
        c->chart->removeAllSeries();
    m_latency.clear();
    m_offset.clear();
    m_activity.clear();
    for (int i = 0; i < nodeCount; ++i) {
        m_latency.append(addSeries(m_latencyChart, tr("#%1").arg(i + 1)));
        m_offset.append(addSeries(m_offsetChart, tr("#%1").arg(i + 1)));
    }
    m_activity.append(addSeries(m_activityChart, tr("acquired")));
    m_activity.append(addSeries(m_activityChart, tr("released/expired")));
    m_activity.append(addSeries(m_activityChart, tr("contention")));
    m_activity.append(addSeries(m_activityChart, tr("failed (own)")));
    // Distinguishable without colour: the activity lines differ in pen style too.
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    for (int i = 0; i < m_activity.size(); ++i) {
        QPen pen = m_activity[i]->pen();
        pen.setStyle(styles[i % 4]);
        pen.setWidthF(2);
        m_activity[i]->setPen(pen);
    }
}

void ChartsPanel::replace(QLineSeries* series, const MetricSeries& data, double* minY, double* maxY)
{
    const auto points = data.points();
    QList<QPointF> out;
    out.reserve(points.size());
    for (const auto& p : points) {
        // A failed sample is NaN: Qt Charts cannot draw it, so the line bridges the gap.
        if (std::isnan(p.value))
            continue;
        out.append(QPointF(double(p.atMs), p.value));
        *minY = std::min(*minY, p.value);
        *maxY = std::max(*maxY, p.value);
    }
    series->replace(out);
}

void ChartsPanel::fitAxes(Chart& chart, qint64 atMs, double minY, double maxY, bool symmetric)
{
    chart.x->setRange(QDateTime::fromMSecsSinceEpoch(atMs - kWindowMs), QDateTime::fromMSecsSinceEpoch(atMs));
    if (symmetric) {
        const double m = std::max({std::abs(minY), std::abs(maxY), 0.5}) * 1.2;
        chart.y->setRange(-m, m);
    } else {
        chart.y->setRange(0, std::max(maxY * 1.2, 1.0));
    }
}

void ChartsPanel::updateCharts(qint64 atMs)
{
    const ClusterMetrics* metrics = m_controller->metrics();
    if (!metrics)
        return;
    double minY = 0;
    double maxY = 0;
    for (int i = 0; i < m_latency.size() && i < metrics->nodeCount(); ++i)
        replace(m_latency[i], metrics->latencyMs(i), &minY, &maxY);
    fitAxes(m_latencyChart, atMs, minY, maxY, false);

    minY = maxY = 0;
    for (int i = 0; i < m_offset.size() && i < metrics->nodeCount(); ++i)
        replace(m_offset[i], metrics->clockOffsetMs(i), &minY, &maxY);
    fitAxes(m_offsetChart, atMs, minY, maxY, true);

    minY = maxY = 0;
    if (m_activity.size() == 4) {
        replace(m_activity[0], metrics->acquisitionsPerSecond(), &minY, &maxY);
        replace(m_activity[1], metrics->releasesPerSecond(), &minY, &maxY);
        replace(m_activity[2], metrics->contention(), &minY, &maxY);
        replace(m_activity[3], m_controller->clientFailuresPerSecond(), &minY, &maxY);
    }
    fitAxes(m_activityChart, atMs, minY, maxY, false);
}

} // namespace redlock
