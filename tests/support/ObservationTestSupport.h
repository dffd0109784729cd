#pragma once

// Helpers for the observation tests: write to a node the way client libraries do, with a plain connection
// on the test's thread (not through the code under test).

#include "protocol/RedisConnection.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTimer>

// Waits until the spy has recorded `count` emissions. Unlike QSignalSpy::wait() alone, it does not miss an
// emission that happened on another thread before the wait began.
inline bool waitForCount(QSignalSpy& spy, int count, int timeoutMs = 10000)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (spy.size() < count && !deadline.hasExpired())
        spy.wait(static_cast<int>(std::min<qint64>(50, std::max<qint64>(1, deadline.remainingTime()))));
    return spy.size() >= count;
}

inline QList<redlock::RedisReply> runCommands(const redlock::NodeEndpoint& endpoint,
                                              const QList<QList<QByteArray>>& commands, int timeoutMs = 5000)
{
    using redlock::RedisConnection;
    using redlock::RedisReply;
    RedisConnection connection(endpoint);
    QList<RedisReply> replies(commands.size());
    qsizetype remaining = commands.size();
    QEventLoop loop;
    QList<RedisConnection::Command> pipeline;
    for (qsizetype i = 0; i < commands.size(); ++i) {
        pipeline.append({commands[i], [&, i](const RedisReply& reply) {
                             replies[i] = reply;
                             if (--remaining == 0)
                                 loop.quit();
                         }});
    }
    connection.sendPipeline(std::move(pipeline), timeoutMs);
    if (remaining > 0)
        loop.exec();
    return replies;
}

inline redlock::RedisReply runCommand(const redlock::NodeEndpoint& endpoint, const QList<QByteArray>& command)
{
    return runCommands(endpoint, {command}).first();
}
