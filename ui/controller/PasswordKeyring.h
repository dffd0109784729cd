#pragma once

#include <QCoreApplication>
#include <QString>

namespace redlock {

// Node passwords in the desktop keyring (Secret Service on Linux: gnome-keyring, KWallet) through QtKeychain,
// for profiles whose nodes "remember the password". Never a file of ours: the profile only says that the keyring
// holds it. QtCore and D-Bus only, so it lives beside the profiles in controller/, not in core (the CLI, the
// exporter and programs embedding Redlock::Core have no desktop session and must not need D-Bus).
//
// Each call waits for its D-Bus job in a local event loop (a keyring may show an unlock prompt of its own); it is
// never Redis I/O, and the wait is bounded by D-Bus's own timeout.
class PasswordKeyring
{
    Q_DECLARE_TR_FUNCTIONS(redlock::PasswordKeyring)

public:
    struct Result
    {
        bool ok = false;
        bool notFound = false; // the keyring works but holds no password under this key
        QString password;      // read(): the password
        QString error;         // why not, for a person: says what to choose instead when no keyring runs
    };

    // service: the namespace of the entries ("redlock-console"; tests pass their own).
    explicit PasswordKeyring(QString service = QStringLiteral("redlock-console"));

    Result store(const QString& key, const QString& password) const;
    Result read(const QString& key) const;
    Result remove(const QString& key) const;

    // The entry of one node of a profile: the profile, the node's address and ACL user (not its position, which
    // changes when nodes are reordered).
    static QString nodeKey(const QString& profile, const QString& address, const QString& user);

private:
    QString m_service;
};

} // namespace redlock
