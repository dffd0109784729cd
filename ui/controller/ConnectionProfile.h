#pragma once

#include "controller/ClusterController.h"
#include "protocol/NodeEndpoint.h"
#include "redlock/RedlockRules.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QSettings;

namespace redlock {

// How to reach one node, as saved in a profile. Never holds a password: it is asked for at connect time
// or read from the environment variable the profile names.
struct NodeProfile
{
    QString address; // host:port, [v6]:port, unix:/path or /path (no credentials)
    int db = 0;
    QString user;        // ACL user; empty = default
    QString passwordEnv; // name of an environment variable holding the password
    bool askPassword = false;
    // The password is in the desktop keyring (PasswordKeyring::nodeKey), never in the profile file.
    bool keyringPassword = false;
    bool tls = false;
    QString caFile;
    QString certFile;
    QString keyFile;
    QString serverName;

    // The endpoint without a password (nullopt with *error for a bad address).
    std::optional<NodeEndpoint> endpoint(QString* error = nullptr) const;
    bool needsPassword() const { return askPassword || keyringPassword || !passwordEnv.isEmpty(); }

    friend bool operator==(const NodeProfile&, const NodeProfile&) = default;
};

struct ConnectionProfile
{
    QString name;
    QList<NodeProfile> nodes;
    QString pattern = QStringLiteral("*");
    double driftFactor = rules::kDefaultDriftFactor;
    int refreshIntervalMs = 5000;
    bool readOnly = false;
    bool production = false; // force release and restarts need the key or node typed in
    // The deployment's lock history, as `--journal` takes it (a journal file; the journal reads the value): the one
    // its always-on writer (`redlock exporter --journal`) keeps. Empty: the console shows its own journal.
    QString history;
    // SSH jump host(s) every TCP node is reached through, as the CLI's --ssh: "[user@]host[:port]" or a ProxyJump
    // chain "a,b"; empty = direct. Keys and passwords stay with ssh (agent, ~/.ssh): nothing secret here.
    QString sshRoute;
    QString sshConfigFile; // ssh -F, as --ssh-config; empty = ~/.ssh/config

    // Problems that stop a connect: bad addresses, duplicates (double votes), a bad drift factor.
    QStringList errors() const;
    // Worth saying but not fatal: even N, N < 3.
    QStringList warnings() const;

    friend bool operator==(const ConnectionProfile&, const ConnectionProfile&) = default;
};

// Profiles in QSettings under "profiles/<name>". Passwords are never written.
namespace ProfileStore {
QStringList names(QSettings& settings);
// nullopt when there is no such profile, or (with *error) when it cannot be one: more than rules::kMaxNodes nodes
// (a corrupted file), refused before any node is read.
std::optional<ConnectionProfile> load(QSettings& settings, const QString& name, QString* error = nullptr);
void save(QSettings& settings, const ConnectionProfile& profile);
void remove(QSettings& settings, const QString& name);
} // namespace ProfileStore

// Turns a profile into what the controller watches: endpoints with passwords taken from the environment, the
// desktop keyring (PasswordKeyring, service "redlock-console" unless keyringService names another), or from
// askPassword(node index, endpoint display name, why) (returns nullopt when the operator cancels). `why` is empty
// for a node that asks at connect; for a keyring node whose password could not be read (no keyring daemon, locked,
// no entry) it says so: the operator is asked instead, never connected without a password.
using PasswordPrompt = std::function<std::optional<QString>(int node, const QString& displayName, const QString& why)>;
std::optional<ClusterSettings> resolveProfile(const ConnectionProfile& profile, const PasswordPrompt& askPassword,
                                              QString* error, const QString& keyringService = {});

// The keyring entries of a profile's "remember in the keyring" nodes follow the profile: removed with it, moved
// when it is renamed (otherwise they stay behind, and a profile saved again under the old name would find them).
// Returns one message per entry that could not be removed or moved (an entry that is not there is no error).
QStringList forgetKeyringPasswords(const ConnectionProfile& profile, const QString& keyringService = {});
QStringList moveKeyringPasswords(const ConnectionProfile& profile, const QString& newName,
                                 const QString& keyringService = {});

} // namespace redlock
