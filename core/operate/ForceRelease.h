#pragma once

#include "protocol/NodeEndpoint.h"
#include "protocol/RedisConnection.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace redlock {

struct ForceReleaseOptions
{
    QList<NodeEndpoint> nodes;
    int nodeTimeoutMs = 2000; // per node; an operator action, not a Redlock round
    bool readOnly = false;    // execute() is refused (and nothing is logged); preview() still works
    QString profileName;      // written to the audit log
    QString auditLogPath;     // empty = AuditLog::defaultPath()
    ConnectionOptions connection;
};

// What force release does (preview) or did (execute) on one node.
struct ForceReleaseNode
{
    enum class Kind {
        NotAttempted, // refused before anything was sent
        WillDelete,   // preview: the node still holds the expected token
        Deleted,      // execute: compare-and-delete removed the expected token
        TokenChanged, // another token holds the key: skipped / untouched (foundToken names it)
        Gone,         // the node has no such key: nothing to do
        OtherType,    // the key is not a string lock (foundType; e.g. a Redisson hash): refused, untouched
        Unreachable,  // connection error or timeout (execute: the delete may or may not have run)
        RedisError,   // the node answered with an error (NOPERM, READONLY, ...): untouched
    };

    int node = -1;
    Kind kind = Kind::NotAttempted;
    QByteArray foundToken; // the value found on the node (TokenChanged, WillDelete)
    QString foundType;     // TYPE of the key when it was looked at ("string", "hash", "none", ...)
    qint64 pttlMs = -3;    // PTTL of the key when looked at; -3 = not read
    RedisErrorKind errorKind = RedisErrorKind::None;
    QString error;
    qint64 latencyUs = -1;

    bool isUntouchedByChoice() const
    {
        return kind == Kind::TokenChanged || kind == Kind::Gone || kind == Kind::OtherType;
    }
};

QString forceReleaseKindName(ForceReleaseNode::Kind kind); // translated, for display
QString forceReleaseKindId(ForceReleaseNode::Kind kind);   // stable, for JSON and the audit log

struct ForceReleaseReport
{
    enum class Stage { Preview, Execute };
    Stage stage = Stage::Preview;
    QByteArray key;
    QByteArray expectedToken;
    QString reason;                // execute: the operator's note, as logged
    QList<ForceReleaseNode> nodes; // one per configured node, in configuration order
    bool refused = false;          // nothing was sent (read-only, bad input, the intent line not written)
    QString error;                 // why it was refused
    QString operationId;           // execute: ties the intent line to the result line in the audit log
    bool audited = false;          // execute: the result line was written (the intent line always is)
    QString auditError;            // execute: why the result line was not written (the deletes did run)
    qint64 elapsedUs = 0;

    int count(ForceReleaseNode::Kind kind) const;
    // Preview: nodes that would delete; execute: nodes that deleted.
    int matched() const
    {
        return count(stage == Stage::Preview ? ForceReleaseNode::Kind::WillDelete : ForceReleaseNode::Kind::Deleted);
    }
    int unreachable() const { return count(ForceReleaseNode::Kind::Unreachable); }
};

// Operator's force release of a stuck lock: never a bare DEL. The operator names the token they saw;
// every node runs the same compare-and-delete RedlockClient's release uses (scripts::compareAndDelete), so a
// lock that changed hands since the preview is left to its new holder and the result says so per node.
//
// Only plain string locks (node-redlock, Redsync, pottery, RedLock.net, redlock-rb, this project) are
// handled. A Redisson hash lock (or any other type) is reported as OtherType and left alone: deleting a
// Redisson lock safely needs its own compare-on-field script and its unlock channel message, and a lock
// released behind Redisson's watchdog would simply be re-extended by it.
//
// Thread model as RedlockClient: lives on one thread with an event loop (an IoThread); calls may come from
// any thread and return futures that complete on the object's thread. Nothing throws.
class ForceRelease final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ForceRelease)

public:
    explicit ForceRelease(ForceReleaseOptions options, QObject* parent = nullptr);
    ~ForceRelease() override;

    const ForceReleaseOptions& options() const { return m_options; }
    int nodeCount() const { return static_cast<int>(m_options.nodes.size()); }
    // Errors in the options (no nodes, duplicate endpoints): every call is refused with them.
    QStringList configErrors() const { return m_configErrors; }

    // Reads the key on every node (TYPE, GET, PTTL) and says what execute() would do there. Writes nothing.
    QFuture<ForceReleaseReport> preview(const QByteArray& key, const QByteArray& expectedToken);
    // Write-ahead audit: first an intent line ("force-release-intent": key, token, nodes, reason), fsynced;
    // only then the compare-and-delete with expectedToken on every node; then the result line
    // ("force-release", the per-node result), tied to the intent by operationId. If the intent line cannot be
    // written (open, write or fsync fails), nothing is deleted and the report is refused with that error;
    // if the result line fails, audited is false and auditError says why. Refused in read-only mode.
    QFuture<ForceReleaseReport> execute(const QByteArray& key, const QByteArray& expectedToken,
                                        const QString& reason = {});

signals:
    void previewFinished(const redlock::ForceReleaseReport& report);
    void executeFinished(const redlock::ForceReleaseReport& report);

private:
    using Deliver = std::function<void(const ForceReleaseReport&)>;
    void run(ForceReleaseReport::Stage stage, const QByteArray& key, const QByteArray& token, const QString& reason,
             Deliver deliver);
    QString refusal(ForceReleaseReport::Stage stage, const QByteArray& key, const QByteArray& token) const;
    // TYPE, GET, PTTL in one pipeline; `done` gets the node's state as a preview would describe it.
    void describe(int node, const QByteArray& key, const QByteArray& token, qint64 startNs,
                  std::function<void(ForceReleaseNode)> done);
    void deleteOnNode(int node, const QByteArray& key, const QByteArray& token, qint64 startNs,
                      std::function<void(ForceReleaseNode)> done);
    bool writeIntent(ForceReleaseReport& report) const;
    void writeAudit(ForceReleaseReport& report) const;
    qint64 nowNs() const;

    ForceReleaseOptions m_options;
    QStringList m_configErrors;
    std::vector<RedisConnection*> m_connections;
    bool m_shuttingDown = false;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::ForceReleaseReport)
