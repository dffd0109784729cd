#include "support/Contender.h"

#include "redlock/RedlockClient.h"
#include "runtime/IoThread.h"
#include "support/DirectRedis.h"

#include <QRandomGenerator>
#include <QSet>
#include <QThread>

#include <algorithm>

using namespace redlock;

namespace {

// The protected resource: takes a write only with a fencing token newer than every token it has seen.
const QByteArray kFencedWrite = R"lua(
local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) > current then
    redis.call('SET', KEYS[1], ARGV[1])
    return 1
end
return 0
)lua";

char nodeLetter(NodeOutcome::Kind kind)
{
    switch (kind) {
    case NodeOutcome::Kind::Acquired:
        return 'A';
    case NodeOutcome::Kind::HeldByOther:
        return 'H';
    case NodeOutcome::Kind::Timeout:
        return 'T';
    case NodeOutcome::Kind::ConnectionError:
        return 'C';
    case NodeOutcome::Kind::RedisError:
        return 'E';
    case NodeOutcome::Kind::NoAnswerYet:
        return '?';
    default:
        return '-';
    }
}

} // namespace

QJsonObject Section::toJson() const
{
    return {{QStringLiteral("client"), client},
            {QStringLiteral("resource"), QString::fromLatin1(resource.toBase64())},
            {QStringLiteral("acquired"), QString::number(acquiredNs)},
            {QStringLiteral("validUntil"), QString::number(validUntilNs)},
            {QStringLiteral("write"), QString::number(writeNs)},
            {QStringLiteral("exit"), QString::number(exitNs)},
            {QStringLiteral("fence"), QString::number(fence)},
            {QStringLiteral("accepted"), accepted},
            {QStringLiteral("nodes"), nodes}};
}

Section Section::fromJson(const QJsonObject& o)
{
    Section s;
    s.client = o.value(QStringLiteral("client")).toString();
    s.resource = QByteArray::fromBase64(o.value(QStringLiteral("resource")).toString().toLatin1());
    s.acquiredNs = o.value(QStringLiteral("acquired")).toString().toLongLong();
    s.validUntilNs = o.value(QStringLiteral("validUntil")).toString().toLongLong();
    s.writeNs = o.value(QStringLiteral("write")).toString().toLongLong();
    s.exitNs = o.value(QStringLiteral("exit")).toString().toLongLong();
    s.fence = o.value(QStringLiteral("fence")).toString().toLongLong();
    s.accepted = o.value(QStringLiteral("accepted")).toBool();
    s.nodes = o.value(QStringLiteral("nodes")).toString();
    return s;
}

QList<Section> runContender(const ContenderConfig& config, int* failures)
{
    QList<Section> sections;
    int failed = 0;
    IoThread io(QStringLiteral("contender-io"));
    RedlockOptions o;
    o.nodes = config.nodes;
    o.clientName = config.name;
    o.nodeTimeoutMs = config.nodeTimeoutMs;
    o.retryCount = 0; // this loop retries itself, so it can stop on time
    // Reconnect within a few attempts of a node coming back, however long it was away: a contender that
    // stays away for seconds of exponential backoff after a restart tests nothing.
    o.connection.backoffInitialMs = 20;
    o.connection.backoffMaxMs = 100;
    auto* client = io.create<RedlockClient>(o);
    DirectRedis resource(config.resourcePort);
    const qint64 endNs = SteadyClock::system()->nowNs() + qint64(config.durationMs) * 1'000'000;
    bool paused = false;
    while (SteadyClock::system()->nowNs() < endNs) {
        const AcquireResult r = client->acquireAndWait({config.resource}, {.ttlMs = config.ttlMs, .fencing = true});
        if (!r.ok) {
            ++failed;
            // As the seeds advise: wait longer than an attempt takes, at random, so that contenders fall out
            // of step. Retrying after a few milliseconds keeps them splitting the votes (a livelock).
            QThread::usleep(5000 + QRandomGenerator::global()->bounded(20000));
            continue;
        }
        Section s;
        s.client = config.name;
        s.resource = config.resource;
        s.acquiredNs = SteadyClock::system()->nowNs(); // from here on the client believes it holds the lock
        s.validUntilNs = r.lock.validUntilNs;
        s.fence = r.lock.fencingToken;
        for (const NodeOutcome& n : r.attempts.last().nodes)
            s.nodes += QLatin1Char(nodeLetter(n.kind));
        const bool holdToTheEnd = config.onAcquired && config.onAcquired(s);
        if (config.pauseAfterAcquireMs > 0 && !paused) {
            paused = true; // the client is stopped right after acquiring, and does not know it
            QThread::msleep(static_cast<unsigned long>(config.pauseAfterAcquireMs));
        }
        s.writeNs = SteadyClock::system()->nowNs();
        s.accepted =
            resource.command({"EVAL", kFencedWrite, "1", config.resource + ":written", QByteArray::number(s.fence)})
                .integer == 1;
        // Work for a large part of the validity left, never past it (minus a margin for the release to go out).
        const qint64 leftNs = s.validUntilNs - 5'000'000 - s.writeNs;
        const double share = holdToTheEnd ? 1.0
                                          : config.workMin + (config.workMax - config.workMin) *
                                                                 QRandomGenerator::global()->generateDouble();
        const qint64 until = s.writeNs + std::max<qint64>(0, qint64(share * double(leftNs)));
        while (SteadyClock::system()->nowNs() < until)
            QThread::usleep(200);
        s.exitNs = std::max(s.writeNs, SteadyClock::system()->nowNs());
        sections.append(s);
        client->releaseAndWait(r.lock);
        // Other work between critical sections; without it the last holder wins every race (Redlock makes
        // no fairness promise) and the others never get in.
        QThread::usleep(2000 + QRandomGenerator::global()->bounded(4000));
    }
    if (failures)
        *failures = failed;
    return sections;
}

CheckReport checkMutualExclusion(QList<Section> sections)
{
    CheckReport report;
    report.sections = static_cast<int>(sections.size());
    QSet<QByteArray> resources;
    for (const Section& s : sections)
        resources.insert(s.resource);
    report.resources = static_cast<int>(resources.size());
    std::sort(sections.begin(), sections.end(),
              [](const Section& a, const Section& b) { return a.acquiredNs < b.acquiredNs; });
    // Mutual exclusion: the windows in which each client may believe it holds the lock never overlap.
    // A client's window runs from its acquisition to the end of its work or of its validity.
    for (int i = 0; i < sections.size(); ++i) {
        const Section& a = sections[i];
        const qint64 aEnd = std::min(a.exitNs, a.validUntilNs);
        for (int j = i + 1; j < sections.size() && sections[j].acquiredNs < aEnd; ++j) {
            const Section& b = sections[j];
            if (b.client == a.client)
                continue;
            ++report.overlaps;
            report.details << QStringLiteral("%1 [fence %2, nodes %3, at %4 ms] and %5 [fence %6, nodes %7, at %8 ms] "
                                             "overlap by %9 us")
                                  .arg(a.client)
                                  .arg(a.fence)
                                  .arg(a.nodes)
                                  .arg((a.acquiredNs - sections.first().acquiredNs) / 1'000'000)
                                  .arg(b.client)
                                  .arg(b.fence)
                                  .arg(b.nodes)
                                  .arg((b.acquiredNs - sections.first().acquiredNs) / 1'000'000)
                                  .arg((aEnd - b.acquiredNs) / 1000);
        }
        if (i > 0 && a.fence <= sections[i - 1].fence) {
            ++report.fenceOrderErrors;
            report.details << QStringLiteral("fence %1 (%2) after %3 (%4)")
                                  .arg(a.fence)
                                  .arg(a.client)
                                  .arg(sections[i - 1].fence)
                                  .arg(sections[i - 1].client);
        }
        if (a.writeNs > a.validUntilNs) {
            ++report.lateWrites;
            if (a.accepted)
                ++report.lateWritesAccepted;
            const bool afterNewer = std::any_of(sections.cbegin(), sections.cend(), [&a](const Section& b) {
                return b.fence > a.fence && b.exitNs <= a.writeNs;
            });
            if (afterNewer) {
                ++report.lateWritesAfterNewer;
                if (a.accepted)
                    ++report.lateWritesAfterNewerAccepted;
            }
        }
    }
    return report;
}
