#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace redlock {

// Files that hold lock tokens (the lock history journal, the operator audit log) are for their owner's eyes only:
// a token is the capability to release or extend its lock. This one place decides how such a file and its folder
// are created, and what becomes of one that already exists with looser permissions.
class PrivateFile final
{
    Q_DECLARE_TR_FUNCTIONS(redlock::PrivateFile)

public:
    // Creates `dir` and its missing parents; each folder it creates is 0700 (one that exists is left as it is: it
    // may be shared on purpose, /tmp for one). false: *error says why (translated).
    static bool makeFolder(const QString& dir, QString* error);

    // Creates `path` 0600 when it does not exist (O_EXCL with mode 0600: no umask and no file that appears meanwhile
    // makes it looser). *created: this call made it. An existing path, whatever it is, is left alone. false: it did
    // not exist and cannot be created, *error says why (translated).
    static bool createIfMissing(const QString& path, bool* created, QString* error);

    // An existing regular file that everyone may read or write (an "other" permission bit: what the usual umask 022
    // gives, not a choice) becomes readable by its owner only; group bits alone are left: sharing a file with a
    // group is a deliberate choice. Each existing file of sideFiles (SQLite's -wal, -shm, -journal) is then made no
    // more open than `path`. Returns a warning (translated) for each file that stays open to others (another user's
    // file: chmod is refused); empty when all is well. Not a regular file, or missing: nothing to do.
    static QStringList restrictToOwner(const QString& path, const QStringList& sideFiles = {});
};

} // namespace redlock
