#pragma once

#include "protocol/NodeEndpoint.h"

#include <QList>
#include <QObject>

#include <memory>

namespace redlock {

class IoThread;
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

// Owns the I/O thread of the connection checks of a dialog: the dialog asks, the answers come back on the GUI
// thread. A new round drops the checks of the previous one with their thread (a check still waiting on a dead
// node goes with it), and their answers still queued are not reported.
class ConnectionChecker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionChecker)

public:
    explicit ConnectionChecker(QObject* parent = nullptr);
    ~ConnectionChecker() override;

    void newRound();
    void check(int node, const NodeEndpoint& endpoint);

signals:
    void finished(int node, bool ok, const QList<redlock::ConnectionCheck::Step>& steps);

private:
    std::unique_ptr<IoThread> m_io;
    quint64 m_round = 0;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::ConnectionCheck::Step)
