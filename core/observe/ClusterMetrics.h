#pragma once

#include "observe/ObservationTypes.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <vector>

namespace redlock {

// A fixed-capacity series of (time, value) points: the oldest point falls out when a new one comes in.
class MetricSeries
{
public:
    struct Point
    {
        qint64 atMs = 0; // wall clock
        double value = 0;
    };

    explicit MetricSeries(int capacity = 300);
    void append(qint64 atMs, double value);
    int size() const { return m_count; }
    int capacity() const { return static_cast<int>(m_points.size()); }
    // Oldest first.
    QList<Point> points() const;
    Point last() const;
    void clear();

private:
    std::vector<Point> m_points;
    int m_head = 0; // next write position
    int m_count = 0;
};

// Rolling series for the live charts: per node latency, clock offset and lock count; cluster-wide
// acquisitions, releases (and expiries) per second and contention per interval. No I/O: it is fed by
// NodeSession::sampled and LockInspector::locksChanged / lockEvents (connect them queued to the thread
// this object lives on) and closes one interval per tick().
class ClusterMetrics final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterMetrics)

public:
    explicit ClusterMetrics(int nodeCount, int windowSeconds = 300, int intervalMs = 1000, QObject* parent = nullptr);

    int nodeCount() const { return static_cast<int>(m_latencyMs.size()); }
    int intervalMs() const { return m_intervalMs; }

    // Ticks on a timer every intervalMs; tests call tick() themselves instead.
    void start();
    void stop();

    void addSample(const redlock::NodeSample& sample);
    void addChanges(const redlock::LockChangeSet& changes);
    void addEvents(const QList<redlock::LockEvent>& events);
    // Closes the current interval at atMs: rates and contention get one point each.
    void tick(qint64 atMs);

    const MetricSeries& latencyMs(int node) const { return m_latencyMs[static_cast<size_t>(node)]; }
    const MetricSeries& clockOffsetMs(int node) const { return m_offsetMs[static_cast<size_t>(node)]; }
    const MetricSeries& lockCount(int node) const { return m_lockCount[static_cast<size_t>(node)]; }
    const MetricSeries& acquisitionsPerSecond() const { return m_acquired; }
    const MetricSeries& releasesPerSecond() const { return m_released; } // releases + expiries
    const MetricSeries& contention() const { return m_contention; }      // token changes + contested locks

signals:
    // After every tick(): the charts redraw once per interval.
    void updated(qint64 atMs);

private:
    int m_intervalMs;
    std::vector<MetricSeries> m_latencyMs;
    std::vector<MetricSeries> m_offsetMs;
    std::vector<MetricSeries> m_lockCount;
    MetricSeries m_acquired;
    MetricSeries m_released;
    MetricSeries m_contention;
    QList<int> m_currentLocksPerNode;
    qint64 m_intervalStartMs = 0;
    int m_acquiredInInterval = 0;
    int m_releasedInInterval = 0;
    int m_tokenChangesInInterval = 0;
    int m_contestedNow = 0;           // contested locks currently in view
    QSet<QByteArray> m_contestedKeys; // only the contested ones: a batch costs what it changes
    QTimer m_timer;
};

} // namespace redlock
