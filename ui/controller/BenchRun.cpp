#include "controller/BenchRun.h"

#include "redlock/RedlockClient.h"
#include "runtime/OwnThreadFuture.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace redlock {

RedlockOptions BenchConfig::redlockOptions(const QString& clientName) const
{
    RedlockOptions o;
    o.nodes = nodes;
    o.driftFactor = driftFactor;
    o.nodeTimeoutMs = nodeTimeoutMs;
    o.retryCount = retryCount;
    o.retryDelayMs = retryDelayMs;
    o.retryJitterMs = retryJitterMs;
    o.clientName = clientName;
    o.readOnly = readOnly;
    return o;
}

AcquireOptions BenchConfig::acquireOptions() const
{
    AcquireOptions o;
    o.ttlMs = ttlMs;
    o.retryCount = retryCount;
    o.retryDelayMs = retryDelayMs;
    o.retryJitterMs = retryJitterMs;
    o.fencing = fencing;
    return o;
}

int BenchStats::succeeded() const
{
    return int(std::count_if(samples.cbegin(), samples.cend(), [](const BenchSample& s) { return s.ok; }));
}

int BenchStats::contended() const
{
    return int(std::count_if(samples.cbegin(), samples.cend(), [](const BenchSample& s) { return s.contended; }));
}

double BenchStats::successRate() const
{
    return samples.isEmpty() ? 0.0 : double(succeeded()) / double(samples.size());
}

qint64 BenchStats::percentileUs(double p) const
{
    if (samples.isEmpty())
        return -1;
    QList<qint64> latencies;
    latencies.reserve(samples.size());
    for (const BenchSample& s : samples)
        latencies << s.latencyUs;
    std::sort(latencies.begin(), latencies.end());
    const auto rank = qsizetype(std::ceil(p / 100.0 * double(latencies.size())));
    return latencies[std::clamp<qsizetype>(rank - 1, 0, latencies.size() - 1)];
}

QList<int> BenchStats::histogram(int bins, qint64* binWidthUs) const
{
    QList<int> counts(std::max(1, bins), 0);
    qint64 largest = 0;
    for (const BenchSample& s : samples)
        largest = std::max(largest, s.latencyUs);
    const qint64 width = std::max<qint64>(1, (largest + counts.size()) / counts.size());
    for (const BenchSample& s : samples)
        ++counts[std::min<qsizetype>(s.latencyUs / width, counts.size() - 1)];
    if (binWidthUs)
        *binWidthUs = width;
    return counts;
}

QByteArray BenchStats::toCsv() const
{
    QByteArray out = "client,iteration,ok,latency_us,attempts,contended,validity_ms,fencing_token,error\n";
    for (const BenchSample& s : samples) {
        QString error = s.error;
        error.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,\"%9\"\n")
                   .arg(s.client)
                   .arg(s.iteration)
                   .arg(s.ok ? 1 : 0)
                   .arg(s.latencyUs)
                   .arg(s.attempts)
                   .arg(s.contended ? 1 : 0)
                   .arg(s.validityMs)
                   .arg(s.fencingToken)
                   .arg(error)
                   .toUtf8();
    }
    return out;
}

QJsonObject BenchStats::toJson() const
{
    QJsonArray list;
    for (const BenchSample& s : samples)
        list.append(QJsonObject{{QStringLiteral("client"), s.client},
                                {QStringLiteral("iteration"), s.iteration},
                                {QStringLiteral("ok"), s.ok},
                                {QStringLiteral("latencyUs"), s.latencyUs},
                                {QStringLiteral("attempts"), s.attempts},
                                {QStringLiteral("contended"), s.contended},
                                {QStringLiteral("validityMs"), s.validityMs},
                                {QStringLiteral("fencingToken"), s.fencingToken},
                                {QStringLiteral("error"), s.error}});
    QJsonArray errors;
    for (int e : nodeErrors)
        errors.append(e);
    QJsonObject cfg{{QStringLiteral("resource"), QString::fromUtf8(config.resource)},
                    {QStringLiteral("ttlMs"), config.ttlMs},
                    {QStringLiteral("retryCount"), config.retryCount},
                    {QStringLiteral("retryDelayMs"), config.retryDelayMs},
                    {QStringLiteral("retryJitterMs"), config.retryJitterMs},
                    {QStringLiteral("driftFactor"), config.driftFactor},
                    {QStringLiteral("fencing"), config.fencing},
                    {QStringLiteral("clients"), config.clients},
                    {QStringLiteral("iterations"), config.iterations},
                    {QStringLiteral("nodes"), int(config.nodes.size())}};
    return QJsonObject{{QStringLiteral("config"), cfg},
                       {QStringLiteral("acquires"), int(samples.size())},
                       {QStringLiteral("succeeded"), succeeded()},
                       {QStringLiteral("successRate"), successRate()},
                       {QStringLiteral("latencyP50Us"), percentileUs(50)},
                       {QStringLiteral("latencyP99Us"), percentileUs(99)},
                       {QStringLiteral("contended"), contended()},
                       {QStringLiteral("nodeErrors"), errors},
                       {QStringLiteral("elapsedMs"), elapsedMs},
                       {QStringLiteral("samples"), list}};
}

namespace {
bool writeFile(const QString& path, const QByteArray& data, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}
} // namespace

bool BenchStats::exportCsv(const QString& path, QString* error) const
{
    return writeFile(path, toCsv(), error);
}

bool BenchStats::exportJson(const QString& path, QString* error) const
{
    return writeFile(path, QJsonDocument(toJson()).toJson(QJsonDocument::Indented), error);
}

BenchRun::BenchRun(BenchConfig config, QObject* parent) : QObject(parent), m_config(std::move(config))
{
    qRegisterMetaType<BenchStats>();
}

BenchRun::~BenchRun() = default;

void BenchRun::start()
{
    m_stats = {};
    m_stats.config = m_config;
    m_stats.nodeErrors = QList<int>(m_config.nodes.size(), 0);
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    const int k = std::max(1, m_config.clients);
    for (int i = 0; i < k; ++i) {
        auto* client = new RedlockClient(m_config.redlockOptions(QStringLiteral("bench-%1").arg(i + 1)), this);
        m_clients << client;
        m_iteration << 0;
    }
    m_running = k;
    for (int i = 0; i < k; ++i)
        next(i);
}

void BenchRun::next(int client)
{
    const int iteration = m_iteration[client];
    if (iteration >= m_config.iterations) {
        clientDone();
        return;
    }
    ++m_iteration[client];
    RedlockClient* c = m_clients[client];
    whenFinished(this, c->acquire(m_config.resource, m_config.acquireOptions()),
                 [this, client, iteration, c](const AcquireResult& result) {
                     record(client, iteration, result);
                     if (result.ok)
                         whenFinished(this, c->release(result.lock),
                                      [this, client](const ReleaseResult&) { next(client); });
                     else
                         next(client);
                 });
}

void BenchRun::record(int client, int iteration, const AcquireResult& result)
{
    BenchSample s;
    s.client = client;
    s.iteration = iteration;
    s.ok = result.ok;
    s.latencyUs = result.totalElapsedUs;
    s.attempts = int(result.attempts.size());
    s.error = result.error;
    if (result.ok) {
        s.validityMs = result.attempts.isEmpty() ? -1 : result.attempts.last().validityMs;
        s.fencingToken = result.lock.fencingToken;
    }
    for (const AcquireAttempt& a : result.attempts) {
        for (const NodeOutcome& n : a.nodes) {
            if (n.kind == NodeOutcome::Kind::HeldByOther)
                s.contended = true;
            if ((n.kind == NodeOutcome::Kind::Timeout || n.kind == NodeOutcome::Kind::ConnectionError ||
                 n.kind == NodeOutcome::Kind::RedisError) &&
                n.node >= 0 && n.node < m_stats.nodeErrors.size())
                ++m_stats.nodeErrors[n.node];
        }
    }
    m_stats.samples << s;
    emit progress(int(m_stats.samples.size()), std::max(1, m_config.clients) * m_config.iterations);
}

void BenchRun::clientDone()
{
    if (--m_running > 0)
        return;
    m_stats.elapsedMs = QDateTime::currentMSecsSinceEpoch() - m_startedMs;
    emit finished(m_stats);
}

} // namespace redlock
