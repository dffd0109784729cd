#pragma once

// A client that contends for one resource with the core's Redlock client and records its critical
// sections, for the mutual-exclusion checker. Runs in a thread of the test or as a separate process
// (redlock-contender), so that contention crosses process boundaries too. Times are CLOCK_MONOTONIC
// nanoseconds (steady_clock), comparable between processes on one machine.

#include "protocol/NodeEndpoint.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

struct Section
{
    QString client;
    QByteArray resource;
    qint64 acquiredNs = 0;   // acquire returned: the client believes it holds the lock from here
    qint64 validUntilNs = 0; // the lock's validity end, on the same clock
    qint64 writeNs = 0;      // the fenced write to the protected resource
    qint64 exitNs = 0;       // work done
    qint64 fence = -1;
    bool accepted = false; // the resource took the write (its fencing token was the newest)
    QString nodes;         // per node, what the successful attempt saw: A acquired, H held by other,
                           // T timeout, C connection error, E Redis error, ? no answer yet, - not sent

    QJsonObject toJson() const;
    static Section fromJson(const QJsonObject& o);
};

struct ContenderConfig
{
    QString name;
    QList<redlock::NodeEndpoint> nodes;
    quint16 resourcePort = 0; // redis-server holding the fenced resource
    QByteArray resource = "contended";
    qint64 ttlMs = 400;
    int durationMs = 2000;
    int nodeTimeoutMs = 50;
    int pauseAfterAcquireMs = 0; // once, after the first acquisition: a client "GC pause"
    // Each critical section lasts a random share, in [workMin, workMax], of the validity left after the
    // write: a large part of it, so that a lock granted twice is used twice at once, and validity, drift and
    // restart bugs show up as overlaps.
    double workMin = 0.3;
    double workMax = 0.9;
    // Called on the contender's thread right after each acquisition, before the write (a fault injector that
    // must hit a fresh holder). Returning true makes this section last to the end of the validity (minus the
    // margin for the release).
    std::function<bool(const Section&)> onAcquired;
};

// Blocking; returns the sections in order. Failed acquisitions are counted in *failures.
QList<Section> runContender(const ContenderConfig& config, int* failures = nullptr);

struct CheckReport
{
    int sections = 0;
    int overlaps = 0;         // two clients inside their validity at once
    int fenceOrderErrors = 0; // fencing tokens not strictly increasing in order of acquisition
    int lateWrites = 0;       // writes after the writer's own validity ended
    int lateWritesAccepted = 0;
    // Of those, the ones written after a holder with a newer fencing token had done its section (its write included):
    // the resource has seen the newer fence and must refuse them. (A late write with no newer holder before it is
    // accepted, rightly: nobody else used the resource since.)
    int lateWritesAfterNewer = 0;
    int lateWritesAfterNewerAccepted = 0;
    int resources = 0; // distinct resources among the sections: a check of one resource expects 1
    QStringList details;
};

CheckReport checkMutualExclusion(QList<Section> sections);
