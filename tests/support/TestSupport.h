#pragma once

#include "localcluster/LocalCluster.h"
#include "protocol/NodeEndpoint.h"
#include "runtime/IoThread.h"

#include <QTcpServer>

#include <memory>

// A loopback port nobody listens on: connecting to it is refused at once, like a node that is down.
inline quint16 closedPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

inline redlock::NodeEndpoint downEndpoint()
{
    redlock::NodeEndpoint ep;
    ep.host = QStringLiteral("127.0.0.1");
    ep.port = closedPort();
    return ep;
}

// Shares an object that lives on an IoThread; the last owner deletes it there.
template <typename T> std::shared_ptr<T> ownedOnIoThread(redlock::IoThread& io, T* object)
{
    return std::shared_ptr<T>(object, [&io](T* o) { io.runAndWait([o] { delete o; }); });
}

// Starts `count` local nodes, each also listening on a unix socket, and returns their endpoints followed by node 0's
// socket as one more node name: two names of one redis-server (one run_id), as an operator may list them. Empty,
// with `error` set, when the cluster does not start.
inline QList<redlock::NodeEndpoint> startWithSocketAlias(redlock::LocalCluster& cluster, int count, QString* error)
{
    redlock::LocalNodeOptions withSocket;
    withSocket.unixSocket = true;
    if (!cluster.start(count, withSocket, error))
        return {};
    redlock::NodeEndpoint alias;
    alias.unixSocket = cluster.unixSocketPath(0);
    return cluster.endpoints() + QList<redlock::NodeEndpoint>{alias};
}
