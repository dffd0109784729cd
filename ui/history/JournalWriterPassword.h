#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QWidget;

namespace redlock {

class DatabasePasswordDialog;
class LockJournal;

// The password of the console's own journal when it writes to PostgreSQL (--journal postgresql://...) and the
// server wants one that neither PGPASSWORD nor ~/.pgpass gives: the keyring's (PasswordKeyring, the entry the
// history panel uses for the same database), read once; else the operator is asked (DatabasePasswordDialog), one
// dialog at a time and never again after Cancel. In memory and, if the operator says so, in the keyring; never in a
// profile file. Until a password works the journal keeps retrying and says it is not written (LockJournal::problem);
// monitoring goes on.
class JournalWriterPassword final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JournalWriterPassword)

public:
    // dialogParent: the window the dialog belongs to. keyringService: PasswordKeyring's (tests pass their own).
    JournalWriterPassword(LockJournal* journal, QWidget* dialogParent,
                          QString keyringService = QStringLiteral("redlock-console"));

signals:
    // The password could not be kept in the keyring (translated): used for this run only.
    void notRemembered(const QString& message);

private:
    void onPasswordNeeded(const QString& problem);

    LockJournal* m_journal;
    QWidget* m_dialogParent;
    QString m_keyringService;
    QString m_given; // the last password given to the journal
    bool m_keyringRead = false;
    bool m_declined = false;
    QPointer<DatabasePasswordDialog> m_dialog;
};

} // namespace redlock
