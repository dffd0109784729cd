#include "operate/ForceRelease.h"

#include "runtime/OwnThreadFuture.h"

#include "observe/ObservationTypes.h"
#include "operate/AuditLog.h"
#include "protocol/LockScripts.h"
#include "redlock/RedlockRules.h"
#include "runtime/ClientName.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QPromise>
#include <QSysInfo>
#include <QThread>
#include <QUuid>

#include <algorithm>

namespace redlock {

namespace {

using Kind = ForceReleaseNode::Kind;

qint64 steadyNs()
{
    static QElapsedTimer timer = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return timer.nsecsElapsed();
}

ForceReleaseNode failureNode(int node, const RedisReply& reply)
{
    ForceReleaseNode n;
    n.node = node;
    n.errorKind = reply.errorKind();
    n.error = reply.errorText();
    if (reply.type() == RedisReply::Type::Failure) {
        n.kind = Kind::Unreachable;
    } else if (reply.isError()) {
        n.kind = Kind::RedisError;
    } else {
        n.kind = Kind::RedisError;
        n.errorKind = RedisErrorKind::Protocol;
        n.error = ForceRelease::tr("unexpected reply from the node");
    }
    return n;
}

} // namespace

std::optional<LockDelay> LockDelay::parse(const QString& text)
{
    const QString t = text.trimmed();
    if (t == QLatin1String("auto"))
        return automatic();
    bool ok = false;
    const qint64 ms = t.toLongLong(&ok);
    if (!ok || ms < 0 || ms > kMaxFixedMs)
        return std::nullopt;
    return fixed(ms);
}

QString LockDelay::id() const
{
    switch (mode) {
    case Mode::Auto:
        return QStringLiteral("auto");
    case Mode::Delete:
        return QStringLiteral("0");
    case Mode::Fixed:
        return QString::number(fixedMs);
    }
    return {};
}

qint64 LockDelay::pxFor(qint64 pttlMs, double driftFactor) const
{
    switch (mode) {
    case Mode::Auto:
        return pttlMs < 0 ? -1 : pttlMs + rules::clockDriftMs(pttlMs, driftFactor);
    case Mode::Fixed:
        return pttlMs < 0 ? fixedMs : std::max(fixedMs, pttlMs + rules::clockDriftMs(pttlMs, driftFactor));
    case Mode::Delete:
        return 0;
    }
    return -1;
}

qint64 ForceReleaseNode::blockedForMs() const
{
    switch (kind) {
    case Kind::WillDelete:
    case Kind::Deleted:
    case Kind::Gone:
        return 0;
    case Kind::WillTombstone:
    case Kind::Tombstoned:
        return lockDelayMs;
    case Kind::TokenChanged:
    case Kind::OtherType:
        return pttlMs >= 0 ? pttlMs : -1; // -1 no expiry, -2 gone meanwhile, -3 not read: indefinite / unknown
    case Kind::NoExpiry:
    case Kind::NotAttempted:
    case Kind::Unreachable:
    case Kind::RedisError:
        return -1;
    }
    return -1;
}

qint64 ForceReleaseReport::longestLockDelayMs() const
{
    qint64 longest = -1;
    for (const ForceReleaseNode& n : nodes) {
        if (n.kind == ForceReleaseNode::Kind::WillTombstone || n.kind == ForceReleaseNode::Kind::Tombstoned)
            longest = std::max(longest, n.lockDelayMs);
    }
    return longest;
}

int ForceReleaseReport::lockDelayRaisedCount() const
{
    return int(std::count_if(nodes.cbegin(), nodes.cend(), [](const ForceReleaseNode& n) {
        return n.lockDelayRaised &&
               (n.kind == ForceReleaseNode::Kind::WillTombstone || n.kind == ForceReleaseNode::Kind::Tombstoned);
    }));
}

QString forceReleaseKindName(ForceReleaseNode::Kind kind)
{
    switch (kind) {
    case Kind::NotAttempted:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "not attempted");
    case Kind::WillDelete:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "delete: the token still matches");
    case Kind::Deleted:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "deleted");
    case Kind::WillTombstone:
        return QCoreApplication::translate("redlock::ForceReleaseNode",
                                           "lock-delay: the token still matches, a tombstone replaces it");
    case Kind::Tombstoned:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "released with lock-delay (tombstone)");
    case Kind::NoExpiry:
        return QCoreApplication::translate(
            "redlock::ForceReleaseNode",
            "skipped: the lock has no expiry, an automatic lock-delay cannot be measured (untouched)");
    case Kind::TokenChanged:
        return QCoreApplication::translate("redlock::ForceReleaseNode",
                                           "skipped: another token holds the key (untouched)");
    case Kind::Gone:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "skipped: no such key");
    case Kind::OtherType:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "skipped: not a string lock (untouched)");
    case Kind::Unreachable:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "unreachable");
    case Kind::RedisError:
        return QCoreApplication::translate("redlock::ForceReleaseNode", "Redis error (untouched)");
    }
    return {};
}

QString forceReleaseKindId(ForceReleaseNode::Kind kind)
{
    switch (kind) {
    case Kind::NotAttempted:
        return QStringLiteral("not-attempted");
    case Kind::WillDelete:
        return QStringLiteral("will-delete");
    case Kind::Deleted:
        return QStringLiteral("deleted");
    case Kind::WillTombstone:
        return QStringLiteral("will-tombstone");
    case Kind::Tombstoned:
        return QStringLiteral("tombstoned");
    case Kind::NoExpiry:
        return QStringLiteral("no-expiry");
    case Kind::TokenChanged:
        return QStringLiteral("token-changed");
    case Kind::Gone:
        return QStringLiteral("gone");
    case Kind::OtherType:
        return QStringLiteral("other-type");
    case Kind::Unreachable:
        return QStringLiteral("unreachable");
    case Kind::RedisError:
        return QStringLiteral("redis-error");
    }
    return {};
}

qint64 ForceReleaseReport::liveQuorumValidityMs(double driftFactor) const
{
    QList<qint64> pttls;
    for (const ForceReleaseNode& n : nodes) {
        const bool replaced =
            n.kind == ForceReleaseNode::Kind::WillDelete || n.kind == ForceReleaseNode::Kind::WillTombstone;
        if (replaced && n.pttlMs > 0)
            pttls.append(n.pttlMs);
    }
    const int quorum = rules::quorum(int(nodes.size()));
    if (quorum <= 0 || pttls.size() < quorum)
        return -1;
    std::sort(pttls.begin(), pttls.end(), std::greater<>());
    const qint64 validity = pttls[quorum - 1] - rules::clockDriftMs(pttls[quorum - 1], driftFactor);
    return validity > 0 ? validity : -1;
}

int ForceReleaseReport::count(ForceReleaseNode::Kind kind) const
{
    return static_cast<int>(
        std::count_if(nodes.begin(), nodes.end(), [kind](const ForceReleaseNode& n) { return n.kind == kind; }));
}

ForceRelease::ForceRelease(ForceReleaseOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options))
{
    if (m_options.nodes.isEmpty())
        m_configErrors << tr("no nodes configured");
    m_configErrors << NodeEndpoint::duplicateErrors(m_options.nodes);
    if (m_options.nodeTimeoutMs <= 0)
        m_configErrors << tr("per-node timeout must be positive");
    if (!m_configErrors.isEmpty())
        return;
    if (!rules::driftFactorValid(m_options.driftFactor))
        m_configErrors << rules::driftFactorError(m_options.driftFactor);
    if (!m_configErrors.isEmpty())
        return;
    ConnectionOptions connection = m_options.connection;
    if (connection.clientName.isEmpty())
        connection.clientName = applicationClientName("force-release");
    for (const NodeEndpoint& endpoint : std::as_const(m_options.nodes))
        m_connections.push_back(new RedisConnection(endpoint, connection, this));
}

ForceRelease::~ForceRelease()
{
    m_shuttingDown = true;
    for (RedisConnection* c : m_connections)
        delete c;
    m_connections.clear();
}

qint64 ForceRelease::nowNs() const
{
    return steadyNs();
}

LockTombstone ForceRelease::newTombstone()
{
    LockTombstone tombstone;
    tombstone.releasedBy = AuditLog::osUser() + QLatin1Char('@') + QSysInfo::machineHostName();
    tombstone.releasedAtMs = QDateTime::currentMSecsSinceEpoch();
    return tombstone;
}

QFuture<ForceReleaseReport> ForceRelease::preview(const QByteArray& key, const QByteArray& expectedToken,
                                                  LockDelay lockDelay)
{
    return runOnOwnThread<ForceReleaseReport>(
        this, [this, key, expectedToken, lockDelay](std::function<void(const ForceReleaseReport&)> deliver) {
            run(ForceReleaseReport::Stage::Preview, key, expectedToken, {}, lockDelay,
                [this, deliver](const ForceReleaseReport& r) {
                    emit previewFinished(r);
                    deliver(r);
                });
        });
}

QFuture<ForceReleaseReport> ForceRelease::execute(const QByteArray& key, const QByteArray& expectedToken,
                                                  const QString& reason, LockDelay lockDelay)
{
    return runOnOwnThread<ForceReleaseReport>(
        this, [this, key, expectedToken, reason, lockDelay](std::function<void(const ForceReleaseReport&)> deliver) {
            run(ForceReleaseReport::Stage::Execute, key, expectedToken, reason, lockDelay,
                [this, deliver](const ForceReleaseReport& r) {
                    emit executeFinished(r);
                    deliver(r);
                });
        });
}

QString ForceRelease::refusal(ForceReleaseReport::Stage stage, const QByteArray& key, const QByteArray& token,
                              LockDelay lockDelay) const
{
    if (m_shuttingDown)
        return tr("shutting down");
    if (!m_configErrors.isEmpty())
        return m_configErrors.join(QStringLiteral("; "));
    if (stage == ForceReleaseReport::Stage::Execute && m_options.readOnly)
        return tr("read-only mode: force release refused");
    if (key.isEmpty())
        return tr("no lock key given");
    if (token.isEmpty())
        return tr("the expected token is required: force release deletes only the token you saw");
    if (lockDelay.mode == LockDelay::Mode::Fixed &&
        (lockDelay.fixedMs <= 0 || lockDelay.fixedMs > LockDelay::kMaxFixedMs))
        return tr("the lock-delay must be between 1 ms and %1 ms (0 deletes)").arg(LockDelay::kMaxFixedMs);
    return {};
}

void ForceRelease::run(ForceReleaseReport::Stage stage, const QByteArray& key, const QByteArray& token,
                       const QString& reason, LockDelay lockDelay, Deliver deliver)
{
    auto report = std::make_shared<ForceReleaseReport>();
    report->stage = stage;
    report->key = key;
    report->expectedToken = token;
    report->lockDelay = lockDelay;
    report->reason = reason;
    for (int i = 0; i < nodeCount(); ++i) {
        ForceReleaseNode n;
        n.node = i;
        report->nodes.append(n);
    }
    const QString why = refusal(stage, key, token, lockDelay);
    if (!why.isEmpty()) {
        report->refused = true;
        report->error = why;
        deliver(*report);
        return;
    }
    // Nothing is deleted unless the intent is on disk first: a crash or kill during the deletes still leaves
    // a record of what was about to happen.
    if (stage == ForceReleaseReport::Stage::Execute && lockDelay.mode != LockDelay::Mode::Delete)
        report->tombstone = newTombstone().encode();
    if (stage == ForceReleaseReport::Stage::Execute && !writeIntent(*report)) {
        deliver(*report);
        return;
    }
    const qint64 start = nowNs();
    auto remaining = std::make_shared<int>(nodeCount());
    for (int i = 0; i < nodeCount(); ++i) {
        auto nodeDone = [this, report, remaining, start, deliver, i](ForceReleaseNode n) {
            n.node = i;
            report->nodes[i] = n;
            if (--*remaining > 0)
                return;
            report->elapsedUs = (nowNs() - start) / 1000;
            report->finishedAtMs = QDateTime::currentMSecsSinceEpoch();
            QList<qint64> blocked;
            QList<QByteArray> runIds; // one server under two names counts once
            for (int node = 0; node < report->nodes.size(); ++node) {
                blocked.append(report->nodes[node].blockedForMs());
                runIds.append(m_connections[size_t(node)]->serverRunId());
            }
            report->freeInMs = rules::quorumFreeInMs(blocked, runIds);
            if (report->stage == ForceReleaseReport::Stage::Execute)
                writeAudit(*report);
            deliver(*report);
        };
        const qint64 nodeStart = nowNs();
        if (stage == ForceReleaseReport::Stage::Preview) {
            describe(i, key, token, lockDelay, nodeStart, nodeDone);
        } else if (lockDelay.mode == LockDelay::Mode::Delete) {
            deleteOnNode(i, key, token, nodeStart, nodeDone);
        } else {
            // Auto and Fixed: the script reads the PTTL and takes the drift on it (rules::clockDriftMs, the
            // drift factor passed in) in one atomic step, so an extension made after this read counts in full
            // (Fixed: the tombstone gets the larger of fixedMs and that).
            describe(i, key, token, lockDelay, nodeStart,
                     [this, i, key, token, tombstone = report->tombstone, lockDelay, nodeStart,
                      nodeDone](ForceReleaseNode n) {
                         if (n.kind != Kind::WillTombstone) {
                             nodeDone(n);
                             return;
                         }
                         const qint64 px = lockDelay.mode == LockDelay::Mode::Fixed ? lockDelay.fixedMs : 0;
                         tombstoneOnNode(i, key, token, tombstone, lockDelay, px, nodeStart, nodeDone);
                     });
        }
    }
}

void ForceRelease::describe(int node, const QByteArray& key, const QByteArray& token, LockDelay lockDelay,
                            qint64 startNs, std::function<void(ForceReleaseNode)> done)
{
    struct Replies
    {
        RedisReply type, get;
    };
    auto replies = std::make_shared<Replies>();
    QList<RedisConnection::Command> pipeline;
    pipeline.append({{"TYPE", key}, [replies](const RedisReply& r) { replies->type = r; }});
    pipeline.append({{"GET", key}, [replies](const RedisReply& r) { replies->get = r; }});
    pipeline.append({{"PTTL", key}, [this, replies, node, token, lockDelay, startNs, done](const RedisReply& pttl) {
                         const RedisReply& type = replies->type;
                         ForceReleaseNode n;
                         if (!type.isString()) {
                             n = failureNode(node, type);
                         } else {
                             n.node = node;
                             n.foundType = QString::fromLatin1(type.bytes());
                             n.pttlMs = pttl.isInteger() ? pttl.integer() : -3;
                             if (type.bytes() == "none") {
                                 n.kind = Kind::Gone;
                             } else if (type.bytes() != "string") {
                                 n.kind = Kind::OtherType;
                                 n.error = type.bytes() == "hash"
                                               ? tr("a hash (Redisson-style lock): force release handles string "
                                                    "locks only")
                                               : tr("a %1, not a lock value").arg(n.foundType);
                             } else if (replies->get.isError()) {
                                 n = failureNode(node, replies->get);
                             } else {
                                 n.foundToken = replies->get.bytes();
                                 if (n.foundToken != token) {
                                     n.kind = Kind::TokenChanged;
                                 } else if (lockDelay.mode == LockDelay::Mode::Delete) {
                                     n.kind = Kind::WillDelete;
                                 } else {
                                     n.lockDelayMs = lockDelay.pxFor(n.pttlMs, m_options.driftFactor);
                                     n.lockDelayRaised =
                                         lockDelay.mode == LockDelay::Mode::Fixed && n.lockDelayMs > lockDelay.fixedMs;
                                     n.kind = n.lockDelayMs > 0 ? Kind::WillTombstone : Kind::NoExpiry;
                                     if (n.kind == Kind::NoExpiry)
                                         n.error = tr("no expiry: give the lock-delay in milliseconds, or 0 to "
                                                      "delete");
                                 }
                             }
                         }
                         n.latencyUs = (nowNs() - startNs) / 1000;
                         done(n);
                     }});
    m_connections[static_cast<size_t>(node)]->sendPipeline(std::move(pipeline), m_options.nodeTimeoutMs);
}

void ForceRelease::deleteOnNode(int node, const QByteArray& key, const QByteArray& token, qint64 startNs,
                                std::function<void(ForceReleaseNode)> done)
{
    evalScript(m_connections[static_cast<size_t>(node)], scripts::compareAndDelete(), {key}, {token},
               m_options.nodeTimeoutMs, [this, node, key, token, startNs, done](const RedisReply& reply) {
                   if (reply.isInteger() && reply.integer() == 1) {
                       ForceReleaseNode n;
                       n.node = node;
                       n.kind = Kind::Deleted;
                       n.foundToken = token;
                       n.foundType = QStringLiteral("string");
                       n.latencyUs = (nowNs() - startNs) / 1000;
                       done(n);
                       return;
                   }
                   if ((reply.isInteger() && reply.integer() == 0) || reply.errorKind() == RedisErrorKind::WrongType ||
                       (reply.type() == RedisReply::Type::Error && reply.bytes().contains("WRONGTYPE"))) {
                       // Nothing was deleted: say what is there instead (the new holder, or that it is gone).
                       describeUntouched(node, key, token, LockDelay::deleteNow(), startNs, done);
                       return;
                   }
                   ForceReleaseNode n = failureNode(node, reply);
                   // A request that was sent and not answered may still have run on the node.
                   if (n.kind == Kind::Unreachable &&
                       (n.errorKind == RedisErrorKind::Timeout || n.errorKind == RedisErrorKind::ConnectionLost))
                       n.error = tr("%1 (the compare-and-delete may or may not have run)").arg(n.error);
                   n.latencyUs = (nowNs() - startNs) / 1000;
                   done(n);
               });
}

void ForceRelease::describeUntouched(int node, const QByteArray& key, const QByteArray& token, LockDelay lockDelay,
                                     qint64 startNs, std::function<void(ForceReleaseNode)> done)
{
    describe(node, key, token, lockDelay, startNs, [done](ForceReleaseNode n) {
        if (n.kind == Kind::WillDelete || n.kind == Kind::WillTombstone) {
            // Set again between the script and this read: still not changed by us.
            n.kind = Kind::TokenChanged;
            n.lockDelayMs = -1;
            n.error = tr("the expected token was set again after the compare-and-set ran");
        }
        done(n);
    });
}

void ForceRelease::tombstoneOnNode(int node, const QByteArray& key, const QByteArray& token,
                                   const QByteArray& tombstone, LockDelay lockDelay, qint64 pxMs, qint64 startNs,
                                   std::function<void(ForceReleaseNode)> done)
{
    // The drift factor exactly as a double (17 significant digits read back to the same value by Lua's tonumber).
    evalScript(m_connections[static_cast<size_t>(node)], scripts::compareAndTombstone(), {key},
               {token, tombstone, QByteArray::number(pxMs), QByteArray::number(m_options.driftFactor, 'g', 17),
                QByteArray::number(rules::kClockDriftExtraMs)},
               m_options.nodeTimeoutMs, [this, node, key, token, lockDelay, startNs, done](const RedisReply& reply) {
                   if (reply.isArray() && reply.elements().size() == 2 && reply.elements()[0].isInteger() &&
                       reply.elements()[0].integer() > 0) {
                       ForceReleaseNode n;
                       n.node = node;
                       n.kind = Kind::Tombstoned;
                       n.foundToken = token;
                       n.foundType = QStringLiteral("string");
                       n.lockDelayMs = reply.elements()[0].integer();
                       // What the lock-delay was measured on: the PTTL the script read (-1: no expiry, Fixed).
                       n.pttlMs = reply.elements()[1].integer();
                       n.lockDelayRaised =
                           lockDelay.mode == LockDelay::Mode::Fixed && n.lockDelayMs > lockDelay.fixedMs;
                       n.latencyUs = (nowNs() - startNs) / 1000;
                       done(n);
                       return;
                   }
                   if (reply.isInteger() && reply.integer() == -2) {
                       // Auto, and the key lost its expiry after it was read (PERSIST): untouched.
                       describe(node, key, token, lockDelay, startNs, [done](ForceReleaseNode n) {
                           if (n.kind == Kind::WillTombstone) {
                               n.kind = Kind::TokenChanged; // its expiry came back in between: still untouched
                               n.lockDelayMs = -1;
                           }
                           done(n);
                       });
                       return;
                   }
                   if ((reply.isInteger() && reply.integer() == -1) || reply.errorKind() == RedisErrorKind::WrongType ||
                       (reply.type() == RedisReply::Type::Error && reply.bytes().contains("WRONGTYPE"))) {
                       describeUntouched(node, key, token, lockDelay, startNs, done);
                       return;
                   }
                   ForceReleaseNode n = failureNode(node, reply);
                   if (n.kind == Kind::Unreachable &&
                       (n.errorKind == RedisErrorKind::Timeout || n.errorKind == RedisErrorKind::ConnectionLost))
                       n.error = tr("%1 (the compare-and-set may or may not have run)").arg(n.error);
                   n.latencyUs = (nowNs() - startNs) / 1000;
                   done(n);
               });
}

bool ForceRelease::writeIntent(ForceReleaseReport& report) const
{
    report.operationId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QJsonArray endpoints;
    for (const NodeEndpoint& n : m_options.nodes)
        endpoints.append(n.displayName());
    QJsonObject details{{QStringLiteral("operation"), report.operationId},
                        {QStringLiteral("endpoints"), endpoints},
                        {QStringLiteral("nodeCount"), nodeCount()},
                        {QStringLiteral("lockDelay"), report.lockDelay.id()}};
    if (!report.tombstone.isEmpty())
        details.insert(QStringLiteral("tombstone"), QString::fromLatin1(report.tombstone));
    if (!report.reason.isEmpty())
        details.insert(QStringLiteral("reason"), report.reason);
    QString error;
    if (AuditLog(m_options.auditLogPath)
            .append(QStringLiteral("force-release-intent"), m_options.profileName, report.key, report.expectedToken,
                    details, &error))
        return true;
    report.refused = true;
    report.error = tr("the audit log could not be written, so nothing was deleted: %1").arg(error);
    report.tombstone.clear();
    return false;
}

void ForceRelease::writeAudit(ForceReleaseReport& report) const
{
    QJsonArray nodes;
    for (const ForceReleaseNode& n : std::as_const(report.nodes)) {
        QJsonObject o{{QStringLiteral("node"), n.node},
                      {QStringLiteral("endpoint"), m_options.nodes[n.node].displayName()},
                      {QStringLiteral("result"), forceReleaseKindId(n.kind)}};
        if (n.kind == Kind::TokenChanged)
            o.insert(QStringLiteral("foundToken"), AuditLog::bytesJson(n.foundToken));
        if (!n.foundType.isEmpty())
            o.insert(QStringLiteral("type"), n.foundType);
        if (n.kind == Kind::Tombstoned)
            o.insert(QStringLiteral("lockDelayMs"), n.lockDelayMs);
        if (n.kind == Kind::Tombstoned && n.lockDelayRaised)
            o.insert(QStringLiteral("lockDelayRaised"), true);
        if (!n.error.isEmpty())
            o.insert(QStringLiteral("error"), n.error);
        nodes.append(o);
    }
    QJsonObject details{{QStringLiteral("operation"), report.operationId},
                        {QStringLiteral("nodes"), nodes},
                        {QStringLiteral("deleted"), report.count(Kind::Deleted)},
                        {QStringLiteral("tombstoned"), report.count(Kind::Tombstoned)},
                        {QStringLiteral("lockDelay"), report.lockDelay.id()},
                        {QStringLiteral("nodeCount"), report.nodes.size()}};
    if (report.longestLockDelayMs() >= 0)
        details.insert(QStringLiteral("lockDelayMs"), report.longestLockDelayMs());
    if (!report.tombstone.isEmpty())
        details.insert(QStringLiteral("tombstone"), QString::fromLatin1(report.tombstone));
    if (report.freeAtMs() >= 0)
        details.insert(QStringLiteral("freeAt"),
                       QDateTime::fromMSecsSinceEpoch(report.freeAtMs(), Qt::UTC).toString(Qt::ISODateWithMs));
    if (!report.reason.isEmpty())
        details.insert(QStringLiteral("reason"), report.reason);
    QString error;
    report.audited = AuditLog(m_options.auditLogPath)
                         .append(QStringLiteral("force-release"), m_options.profileName, report.key,
                                 report.expectedToken, details, &error);
    report.auditError = error;
}

} // namespace redlock
