#pragma once

#include <QByteArray>

namespace redlock {

// Where the fencing counters live: one hash on every node, field = resource, value = the last fencing token
// issued for that resource. Counters are permanent (no TTL) and have a key of their own that no lock can
// take (acquire refuses it as a resource), so a fenced acquire never overwrites a lock and a lock never
// overwrites a counter. The safety audit looks for this key to know that fencing is in use; the inspector
// skips it; the ACL presets grant it.
inline QByteArray fenceCountersKey()
{
    return QByteArrayLiteral("redlock:fence-counters");
}

// Where versions before 0.1.0's fencing hash kept a resource's counter: a plain key "<resource>:fence" in the
// lock namespace (where a lock of that name could overwrite it). Acquire still reads it, and the token it
// issues is above it, so a deployment that upgrades never sees its fencing tokens go back; the write-back
// then goes to the hash only.
inline QByteArray legacyFenceCounterKey(const QByteArray& resource)
{
    return QByteArray(resource).append(":fence");
}

} // namespace redlock
