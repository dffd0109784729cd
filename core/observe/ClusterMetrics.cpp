#include "observe/ClusterMetrics.h"

#include <QDateTime>

#include <algorithm>

namespace redlock {

MetricSeries::MetricSeries(int capacity) : m_points(static_cast<size_t>(std::max(1, capacity))) {}

void MetricSeries::append(qint64 atMs, double value)
{
    m_points[static_cast<size_t>(m_head)] = {atMs, value};
    m_head = (m_head + 1) % capacity();
    m_count = std::min(m_count + 1, capacity());
}

QList<MetricSeries::Point> MetricSeries::points() const
{
    QList<Point> out;
    out.reserve(m_count);
    const int start = (m_head - m_count + capacity()) % capacity();
    for (int i = 0; i < m_count; ++i)
        out.append(m_points[static_cast<size_t>((start + i) % capacity())]);
    return out;
}

MetricSeries::Point MetricSeries::last() const
{
    if (m_count == 0)
        return {};
    return m_points[static_cast<size_t>((m_head - 1 + capacity()) % capacity())];
}

void MetricSeries::clear()
{
    m_head = 0;
    m_count = 0;
}

ClusterMetrics::ClusterMetrics(int nodeCount, int windowSeconds, int intervalMs, QObject* parent)
    : QObject(parent), m_intervalMs(std::max(1, intervalMs))
{
    // Samples come about once per interval; a window of W seconds keeps W*1000/interval points.
    const int capacity = std::max(1, windowSeconds * 1000 / m_intervalMs);
    for (int i = 0; i < nodeCount; ++i) {
        m_latencyMs.emplace_back(capacity);
        m_offsetMs.emplace_back(capacity);
        m_lockCount.emplace_back(capacity);
    }
    m_acquired = MetricSeries(capacity);
    m_released = MetricSeries(capacity);
    m_contention = MetricSeries(capacity);
    m_currentLocksPerNode = QList<int>(nodeCount, 0);
    m_timer.setInterval(m_intervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] { tick(QDateTime::currentMSecsSinceEpoch()); });
}

void ClusterMetrics::start()
{
    m_intervalStartMs = QDateTime::currentMSecsSinceEpoch();
    m_timer.start();
}

void ClusterMetrics::stop()
{
    m_timer.stop();
}

void ClusterMetrics::addSample(const NodeSample& sample)
{
    if (sample.node < 0 || sample.node >= nodeCount())
        return;
    const auto node = static_cast<size_t>(sample.node);
    // A failed PING is a gap in the chart (NaN), not a zero latency.
    m_latencyMs[node].append(sample.atMs, sample.latencyUs < 0 ? qQNaN() : double(sample.latencyUs) / 1000.0);
    if (sample.clockOffsetUs)
        m_offsetMs[node].append(sample.atMs, double(*sample.clockOffsetUs) / 1000.0);
}

void ClusterMetrics::addChanges(const LockChangeSet& changes)
{
    if (changes.locksPerNode.size() == nodeCount())
        m_currentLocksPerNode = changes.locksPerNode;
    auto note = [this](const LockView& view) {
        if (view.verdict == LockVerdict::Contested)
            m_contestedKeys.insert(view.key);
        else if (!m_contestedKeys.isEmpty())
            m_contestedKeys.remove(view.key);
    };
    for (const LockView& view : changes.appeared)
        note(view);
    for (const LockView& view : changes.changed)
        note(view);
    for (const QByteArray& key : changes.disappeared)
        m_contestedKeys.remove(key);
    m_contestedNow = static_cast<int>(m_contestedKeys.size());
}

void ClusterMetrics::addEvents(const QList<LockEvent>& events)
{
    for (const LockEvent& e : events) {
        switch (e.kind) {
        case LockEvent::Kind::Acquired:
            ++m_acquiredInInterval;
            break;
        case LockEvent::Kind::Released:
        case LockEvent::Kind::Expired:
        case LockEvent::Kind::ReleasedOrExpired:
        case LockEvent::Kind::Evicted:
        case LockEvent::Kind::Lost: // the lock ended, if not by its holder's will
            ++m_releasedInInterval;
            break;
        case LockEvent::Kind::TokenChanged:
            // The old holder lost it and a new one acquired it.
            ++m_tokenChangesInInterval;
            ++m_acquiredInInterval;
            ++m_releasedInInterval;
            break;
        case LockEvent::Kind::Contested:
            break; // counted from the verdicts in view
        case LockEvent::Kind::Extended:
            break; // the same holder: no acquire, no release
        case LockEvent::Kind::SeenHeld:
            break; // found held, not seen acquired: no acquire
        }
    }
}

void ClusterMetrics::tick(qint64 atMs)
{
    const qint64 lengthMs = m_intervalStartMs > 0 ? std::max<qint64>(1, atMs - m_intervalStartMs) : m_intervalMs;
    const double seconds = double(lengthMs) / 1000.0;
    m_acquired.append(atMs, m_acquiredInInterval / seconds);
    m_released.append(atMs, m_releasedInInterval / seconds);
    m_contention.append(atMs, m_tokenChangesInInterval + m_contestedNow);
    for (int i = 0; i < nodeCount(); ++i)
        m_lockCount[static_cast<size_t>(i)].append(atMs, m_currentLocksPerNode.value(i));
    m_acquiredInInterval = 0;
    m_releasedInInterval = 0;
    m_tokenChangesInInterval = 0;
    m_intervalStartMs = atMs;
    emit updated(atMs);
}

} // namespace redlock
