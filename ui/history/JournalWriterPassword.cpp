#include "history/JournalWriterPassword.h"

#include "controller/PasswordKeyring.h"
#include "history/DatabasePasswordDialog.h"
#include "history/LockJournal.h"

namespace redlock {

JournalWriterPassword::JournalWriterPassword(LockJournal* journal, QWidget* dialogParent, QString keyringService)
    : QObject(dialogParent), m_journal(journal), m_dialogParent(dialogParent),
      m_keyringService(std::move(keyringService))
{
    // Emitted on the journal's writer thread: the keyring and the dialog are the GUI thread's.
    connect(journal, &LockJournal::passwordNeeded, this, &JournalWriterPassword::onPasswordNeeded,
            Qt::QueuedConnection);
}

void JournalWriterPassword::onPasswordNeeded(const QString& problem)
{
    if (m_dialog || m_declined)
        return;
    const QString url = m_journal->path();
    // The keyring first, once, and only now: a locked keyring may prompt to be unlocked, which a server that takes
    // PGPASSWORD or ~/.pgpass must never cause.
    if (!m_keyringRead) {
        m_keyringRead = true;
        const PasswordKeyring::Result stored =
            PasswordKeyring(m_keyringService).read(DatabasePasswordDialog::keyringKey(url));
        if (stored.ok && stored.password != m_given) {
            m_given = stored.password;
            m_journal->setDatabasePassword(m_given);
            return;
        }
    }
    m_dialog = new DatabasePasswordDialog(LockJournal::displayLocation(url), problem, m_dialogParent);
    m_dialog->setObjectName(QStringLiteral("journalPasswordDialog"));
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_dialog, &QDialog::finished, this, [this, dialog = m_dialog.data(), url](int code) {
        if (code != QDialog::Accepted) {
            m_declined = true; // the journal goes on saying it is not written; nobody is asked again
            return;
        }
        m_given = dialog->password();
        if (dialog->remember()) {
            const PasswordKeyring::Result stored =
                PasswordKeyring(m_keyringService).store(DatabasePasswordDialog::keyringKey(url), m_given);
            if (!stored.ok)
                emit notRemembered(tr("The password was not remembered: %1").arg(stored.error));
        }
        m_journal->setDatabasePassword(m_given);
    });
    m_dialog->open();
}

} // namespace redlock
