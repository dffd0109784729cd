
#include "history/PostgresJournalPassword.h"
#include "history/PostgresJournalStore.h"

namespace redlock {

bool isDatabaseJournal(const QString& location)
{
    return PostgresJournalStore::isUrl(location);
}

bool isPasswordRefusal(const QString& url, const QString& message)
{
    // libpq says "fe_sendauth: no password supplied" or "password authentication failed for user ...": those
    // phrases, not the word alone, which the URL itself may hold (a user "password_ro", a database "passwords")
    // in front of any other failure. A libpq that speaks another language is not recognised: the error is shown
    // as it is. A URL holding a password is refused before any server is asked: no prompt for that.
    return PostgresJournalStore::isUrl(url) && PostgresJournalStore::urlProblem(url).isEmpty() &&
           (message.contains(QLatin1String("no password supplied"), Qt::CaseInsensitive) ||
            message.contains(QLatin1String("password authentication failed"), Qt::CaseInsensitive));
}

HistoryResult queryDatabaseJournal(const QString& url, const QString& password, const HistoryQuery& query, qint64 nowMs,
                                   bool* passwordRefused, int busyTimeoutMs)
{
    *passwordRefused = false;
    PostgresJournalStore store(url, busyTimeoutMs);
    store.setPassword(password);
    PostgresJournalStore::Error error;
    if (!store.open(true, &error)) {
        HistoryResult result;
        result.queriedAtMs = nowMs;
        result.error = error.message;
        *passwordRefused = isPasswordRefusal(url, error.message);
        return result;
    }
    return store.query(query, nowMs);
}

} // namespace redlock
