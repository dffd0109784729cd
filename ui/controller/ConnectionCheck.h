#pragma once

#include "protocol/NodeEndpoint.h"

#include <QList>
#include <QObject>

namespace redlock {

class RedisConnection;

// Checks one node step by step and names the step that failed: connect (TCP or unix socket), TLS, AUTH,
// SELECT, PING, INFO (role), and whether the node sends keyspace events. Lives on an I/O thread.
class ConnectionCheck final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionCheck)

public:
    struct Step
    {
        QString name; // translated: "connect", "TLS handshake", "AUTH", ...
        bool ok = false;
        QString detail;
    };

    explicit ConnectionCheck(int node, const NodeEndpoint& endpoint, QObject* parent = nullptr);
    ~ConnectionCheck() override;

    void run();

signals:
    void finished(int node, bool ok, const QList<redlock::ConnectionCheck::Step>& steps);

private:
    void fail(const QString& step, const QString& detail);
    void succeed();

    int m_node;
    NodeEndpoint m_endpoint;
    RedisConnection* m_connection = nullptr;
    QList<Step> m_steps;
    bool m_done = false;
    bool m_reachedHandshake = false;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::ConnectionCheck::Step)
