#include "observe/KeyProbe.h"

#include "protocol/RedisConnection.h"

#include <QElapsedTimer>

#include <memory>
#include <utility>

namespace redlock {

KeyProbe::KeyProbe(const QList<NodeEndpoint>& nodes, const QByteArray& clientName, QObject* parent) : QObject(parent)
{
    ConnectionOptions options;
    options.commandTimeoutMs = 1000;
    options.clientName = clientName;
    for (const NodeEndpoint& endpoint : nodes)
        m_connections.append(new RedisConnection(endpoint, options, this));
}

KeyProbe::~KeyProbe()
{
    // The connections answer their pending reads with failures as they go: while this is still a KeyProbe, and
    // without reporting them (nobody waits for a read of a console that is closing).
    m_closing = true;
    qDeleteAll(std::exchange(m_connections, {}));
}

void KeyProbe::read(const QByteArray& key)
{
    auto results = std::make_shared<QList<KeyReadResult>>(m_connections.size());
    auto remaining = std::make_shared<int>(static_cast<int>(m_connections.size()));
    for (int i = 0; i < m_connections.size(); ++i) {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        m_connections[i]->send({"PTTL", key}, [this, i, key, timer, results, remaining](const RedisReply& reply) {
            if (m_closing)
                return;
            KeyReadResult& r = (*results)[i];
            r.node = i;
            r.latencyUs = timer->nsecsElapsed() / 1000;
            r.ok = reply.isInteger();
            if (r.ok)
                r.pttlMs = reply.integer();
            else
                r.error = reply.errorText();
            if (--*remaining == 0)
                emit done(key, *results);
        });
    }
}

} // namespace redlock
