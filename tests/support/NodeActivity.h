#pragma once

// What a node did, read with hiredis directly (not through the code under test): to check that nothing was
// written, or that something was.

#include "support/DirectRedis.h"

#include <QHash>

// What a node has executed so far: calls per command from INFO commandstats ("set", "client|setname", ...)
// and the number of changes to its data set (rdb_changes_since_last_save: every write counts, even with
// persistence off).
struct NodeActivity
{
    QHash<QByteArray, qint64> calls;
    qint64 changes = -1;

    static NodeActivity of(quint16 port)
    {
        NodeActivity a;
        DirectRedis node(port);
        for (const QByteArray& line : node.command({"INFO", "commandstats"}).str.split('\n')) {
            // cmdstat_set:calls=12,usec=...
            if (!line.startsWith("cmdstat_"))
                continue;
            const qsizetype colon = line.indexOf(':');
            const qsizetype comma = line.indexOf(',', colon);
            a.calls.insert(line.mid(8, colon - 8), line.mid(colon + 7, comma - colon - 7).toLongLong());
        }
        for (const QByteArray& line : node.command({"INFO", "persistence"}).str.split('\n')) {
            if (line.startsWith("rdb_changes_since_last_save:"))
                a.changes = line.mid(28).trimmed().toLongLong();
        }
        return a;
    }

    // Commands run since `before`, with how often.
    QHash<QByteArray, qint64> since(const NodeActivity& before) const
    {
        QHash<QByteArray, qint64> out;
        for (auto it = calls.cbegin(); it != calls.cend(); ++it) {
            const qint64 delta = it.value() - before.calls.value(it.key());
            if (delta > 0)
                out.insert(it.key(), delta);
        }
        return out;
    }
};
