#pragma once

#include <QByteArray>

namespace redlock {

// Redis glob matching (*, ?, [a-z], [^x], \\ escapes) as the server's stringmatchlen does it, binary safe:
// the client-side check of the names SCAN MATCH and keyspace events return.
bool globMatches(const QByteArray& pattern, const QByteArray& name);

// What counts as a lock under a key pattern. A pattern that matches every key ("*", the default) names no lock in
// particular: under it only values in a lock format the inspector recognises are locks (decodeHolder: this
// project's tokens, node-redlock, Redsync, uuids, Redisson hashes, tombstones), and a cache entry or a session with
// a TTL is passed over (SkippedKeys::notALockFormat). Any other pattern is the operator saying "these keys are
// locks": every value with a TTL under it counts, whatever its format.
bool patternNamesLocks(const QByteArray& pattern);

} // namespace redlock
