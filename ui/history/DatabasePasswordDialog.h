#pragma once

#include <QDialog>

class QCheckBox;
class QLineEdit;

namespace redlock {

// The password of the deployment's shared history in PostgreSQL, asked when the server wants one that neither
// PGPASSWORD nor ~/.pgpass gives (HistoryPanel, JournalWriterPassword). "Remember in keyring" keeps it in the desktop
// keyring (PasswordKeyring), never in the profile file.
class DatabasePasswordDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatabasePasswordDialog)

public:
    // location: the URL as shown (no password); problem: what the server said.
    DatabasePasswordDialog(const QString& location, const QString& problem, QWidget* parent = nullptr);

    // The keyring entry of a history's password: its server, user and database (the URL as shown). One for the
    // history panel that reads it and the console's journal that writes it.
    static QString keyringKey(const QString& url);

    QString password() const;
    bool remember() const;

private:
    QLineEdit* m_password;
    QCheckBox* m_remember;
};

} // namespace redlock
