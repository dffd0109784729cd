#pragma once

#include "protocol/NodeEndpoint.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QObject>

namespace redlock {

class RedisConnection;

// One node's answer when a single key is read on every node (the console's lock detail, "last read").
struct KeyReadResult
{
    int node = -1;
    bool ok = false;
    qint64 latencyUs = -1;
    qint64 pttlMs = -2;
    QString error;
};

// Reads one key on every node over its own connections, timing each node: what a client would see right now,
// next to what the last inspection saw. Lives on an I/O thread; read() there.
class KeyProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeyProbe)

public:
    // clientName: the CLIENT SETNAME of the probe's connections (the application chooses it).
    KeyProbe(const QList<NodeEndpoint>& nodes, const QByteArray& clientName, QObject* parent = nullptr);
    ~KeyProbe() override;

    void read(const QByteArray& key);

signals:
    void done(const QByteArray& key, const QList<redlock::KeyReadResult>& results);

private:
    QList<RedisConnection*> m_connections;
    bool m_closing = false;
};

} // namespace redlock

Q_DECLARE_METATYPE(redlock::KeyReadResult)
