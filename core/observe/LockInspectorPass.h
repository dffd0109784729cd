#pragma once

// The inspector's private parts shared by its source files (LockInspector.cpp: the passes and the reads;
// LockInspectorChanges.cpp: verdicts, validity and the events derived from changes; LockInspectorLiveFeed.cpp:
// keyspace events, restarts and load). Not for use outside them.

#include "observe/KeySet.h"
#include "observe/LockInspector.h"

#include <QByteArrayView>
#include <QDateTime>

namespace redlock {

namespace inspector {

inline constexpr qint64 kNsPerMs = 1'000'000;
// Keys holding Redisson's helpers, not locks.
inline constexpr QByteArrayView kRedissonChannelPrefix("redisson_lock__channel");

inline qint64 wallNowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace inspector

struct LockInspector::Pass
{
    quint64 generation = 0;
    bool incremental = false; // a background rescan: each group is applied as it is read
    bool throttled = false;   // paced by the budget
    int scanCount = 0;        // SCAN COUNT of this pass
    QElapsedTimer timer;
    qint64 startedAtMs = 0;
    int nodesRemaining = 0; // nodes whose SCAN has neither completed nor failed
    int groupsInFlight = 0; // over all nodes
    struct NodeProgress
    {
        bool scanDone = false;
        bool counted = false; // taken off nodesRemaining
        int groupsInFlight = 0;
        QByteArray nextCursor; // a page waiting for read capacity; empty = none
    };
    std::vector<NodeProgress> progress;
    KeySet seen;                // keys this pass has read (or is reading) on every node
    qint64 keysRemembered = -1; // seen's size once finishPass() let it go before the changes; -1: kept
    PackedViews updated;        // merged as the groups come in (packed: a first pass over 100,000 locks keeps them all)
    SkippedKeys skipped;
    QList<bool> reachable; // per node: no SCAN or read of this pass failed on it
    QStringList unreachableWhy;
    QStringList errors;
    QSet<QByteArray> outsidePattern;
    QSet<QByteArray> helpers;
    QSet<QByteArray> touchedMeanwhile; // re-read by keyspace events during the pass: newer than ours
    qint64 keysScanned = 0;
    qint64 commandsSent = 0;
    int handedToSink = 0; // views given to m_viewSink instead of kept
};

} // namespace redlock
