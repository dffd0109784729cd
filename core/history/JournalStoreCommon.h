#pragma once

// What the two journal stores (JournalStore: a SQLite file; PostgresJournalStore: a deployment's PostgreSQL) do
// alike, written once: only their SQL differs.

#include "history/HistoryTypes.h"

namespace redlock::journal {

// This process as a writer of the journal (its sessions row): the source given, its pid, and the machine's host name.
HistoryWriter thisWriter(const QString& source);

} // namespace redlock::journal
