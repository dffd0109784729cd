#pragma once

// The floor bench-inspect compares a LockInspector pass to: the least a full inspection must do, written
// directly on hiredis 0.14 with no abstraction, no merging and no judging. One non-blocking redisContext per
// node, one thread, poll(). Every node is SCANned (MATCH, COUNT) at once; the names of a page that no
// earlier page named are read on every node in one pipeline per node and batch (MGET of the batch, then one
// PTTL per key: the inspector's reads), and at most `groupsInFlight` pages per scanning node are being read
// while its SCAN goes on, as the inspector does. Replies are parsed by hiredis and counted, then freed.

#include "protocol/NodeEndpoint.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace redlock {

struct RawScanFigures
{
    qint64 elapsedUs = 0;
    qint64 namesScanned = 0; // SCAN names over all nodes
    qint64 keysRead = 0;     // distinct keys read on every node
    qint64 holding = 0;      // (key, node) reads with a PTTL >= 0
    qint64 commands = 0;
};

// Runs one full pass; false with *error when a node fails.
bool rawScanPass(const QList<NodeEndpoint>& nodes, const QByteArray& pattern, int scanCount, int readBatchKeys,
                 int groupsInFlight, RawScanFigures* figures, QString* error);

} // namespace redlock
