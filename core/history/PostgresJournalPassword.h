#pragma once

#include "history/HistoryTypes.h"

namespace redlock {

// The deployment's shared history in PostgreSQL read with the password the caller has (the console's keyring), for
// code that does not link Qt SQL's headers (the console's history panel).

// A postgresql:// location, not a journal file.
bool isDatabaseJournal(const QString& location);

// The server at `url` asked for a password that none of libpq's sources or the caller gave, or refused the one
// given (`message`: the store's error): a password to ask the operator for.
bool isPasswordRefusal(const QString& url, const QString& message);

// A read-only query of the history at `url` (LockJournal::queryFile's) with `password` when libpq's own sources
// (PGPASSWORD, ~/.pgpass) give none (empty: those only). *passwordRefused: the server asked for a password that none
// of them gave, or refused the one given: the caller may ask the operator.
HistoryResult queryDatabaseJournal(const QString& url, const QString& password, const HistoryQuery& query, qint64 nowMs,
                                   bool* passwordRefused, int busyTimeoutMs = 5000);

} // namespace redlock
