#pragma once

#include <QByteArray>

namespace redlock {

// Redis glob matching (*, ?, [a-z], [^x], \\ escapes) as the server's stringmatchlen does it, binary safe:
// the client-side check of the names SCAN MATCH and keyspace events return.
bool globMatches(const QByteArray& pattern, const QByteArray& name);

} // namespace redlock
