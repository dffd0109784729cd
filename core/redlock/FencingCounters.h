#pragma once

#include <QByteArray>

namespace redlock {

/// Where the fencing counters live: one hash on every node, field = resource, value = the last fencing token
/// issued for that resource. Counters are permanent (no TTL) and have a key of their own that no lock can
/// take (acquire refuses it as a resource), so a fenced acquire never overwrites a lock and a lock never
/// overwrites a counter. The safety audit looks for this key to know that fencing is in use; the inspector
/// skips it; the ACL presets grant it.
inline QByteArray fenceCountersKey()
{
    return QByteArrayLiteral("redlock:fence-counters");
}

} // namespace redlock
