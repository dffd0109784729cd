#include "controller/ConnectionProfile.h"

#include "controller/PasswordKeyring.h"

#include "observe/ObservationTypes.h"
#include "protocol/SshTunnel.h"
#include "redlock/RedlockRules.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>

namespace redlock {

std::optional<NodeEndpoint> NodeProfile::endpoint(QString* error) const
{
    auto parsed = NodeEndpoint::parse(address.trimmed(), error);
    if (!parsed)
        return std::nullopt;
    if (!parsed->password.isEmpty()) {
        if (error)
            *error = QCoreApplication::translate(
                         "ConnectionProfile",
                         "\"%1\": put no password in the address; name an environment variable or ask at connect")
                         .arg(parsed->displayName());
        return std::nullopt;
    }
    parsed->db = db != 0 ? db : parsed->db;
    if (!user.isEmpty())
        parsed->user = user;
    parsed->tls = parsed->tls || tls;
    parsed->caFile = caFile;
    parsed->certFile = certFile;
    parsed->keyFile = keyFile;
    parsed->serverName = serverName;
    return parsed;
}

QStringList ConnectionProfile::errors() const
{
    QStringList out;
    if (name.trimmed().isEmpty())
        out << QCoreApplication::translate("ConnectionProfile", "the profile needs a name");
    if (nodes.isEmpty())
        out << QCoreApplication::translate("ConnectionProfile", "add at least one node");
    if (nodes.size() > rules::kMaxNodes)
        return out << rules::tooManyNodesError(nodes.size());
    QList<NodeEndpoint> endpoints;
    QList<int> rows; // the messages name the rows of the list, also when some could not be read
    for (int i = 0; i < nodes.size(); ++i) {
        QString why;
        const auto ep = nodes[i].endpoint(&why);
        if (ep) {
            endpoints << *ep;
            rows << i + 1;
        } else {
            out << QCoreApplication::translate("ConnectionProfile", "node %1: %2").arg(i + 1).arg(why);
        }
    }
    out << NodeEndpoint::duplicateErrors(endpoints, rows);
    if (!rules::driftFactorValid(driftFactor))
        out << rules::driftFactorError(driftFactor);
    if (refreshIntervalMs < 200)
        out << QCoreApplication::translate("ConnectionProfile", "the refresh interval must be at least 200 ms");
    if (pattern.isEmpty())
        out << QCoreApplication::translate("ConnectionProfile", "the key pattern is empty (use * for every key)");
    if (!sshRoute.isEmpty()) {
        // The same checks as the CLI's --ssh (SshTunnel's), said before a connect rather than at it.
        QString why;
        if (!SshTunnel::validRoute(sshRoute, &why))
            out << QCoreApplication::translate("ConnectionProfile", "SSH route: %1").arg(why);
        for (qsizetype i = 0; i < endpoints.size(); ++i)
            if (endpoints[i].isUnix())
                out << QCoreApplication::translate("ConnectionProfile",
                                                   "node %1 is a unix socket: it cannot be reached over SSH")
                           .arg(rows[i]);
    } else if (!sshConfigFile.isEmpty()) {
        out << QCoreApplication::translate("ConnectionProfile", "an ssh config file needs an SSH route");
    }
    return out;
}

QStringList ConnectionProfile::warnings() const
{
    QStringList out;
    if (!nodes.isEmpty() && rules::nodeCountProblem(static_cast<int>(nodes.size())) != rules::NodeCountProblem::None)
        out << rules::nodeCountWarning(static_cast<int>(nodes.size()));
    return out;
}

namespace ProfileStore {

QStringList names(QSettings& settings)
{
    settings.beginGroup(QStringLiteral("profiles"));
    QStringList out = settings.childGroups();
    settings.endGroup();
    out.sort(Qt::CaseInsensitive);
    return out;
}

std::optional<ConnectionProfile> load(QSettings& settings, const QString& name, QString* error)
{
    if (!names(settings).contains(name))
        return std::nullopt;
    ConnectionProfile p;
    p.name = name;
    settings.beginGroup(QStringLiteral("profiles/") + name);
    p.pattern = settings.value(QStringLiteral("pattern"), p.pattern).toString();
    p.driftFactor = settings.value(QStringLiteral("driftFactor"), p.driftFactor).toDouble();
    p.refreshIntervalMs = settings.value(QStringLiteral("refreshIntervalMs"), p.refreshIntervalMs).toInt();
    p.readOnly = settings.value(QStringLiteral("readOnly"), false).toBool();
    p.production = settings.value(QStringLiteral("production"), false).toBool();
    p.history = settings.value(QStringLiteral("history")).toString();
    p.sshRoute = settings.value(QStringLiteral("sshRoute")).toString();
    p.sshConfigFile = settings.value(QStringLiteral("sshConfigFile")).toString();
    const int n = settings.beginReadArray(QStringLiteral("nodes"));
    if (n > rules::kMaxNodes) {
        settings.endArray();
        settings.endGroup();
        if (error)
            *error = QCoreApplication::translate("ConnectionProfile", "profile \"%1\" in %2: %3")
                         .arg(printableText(name, 80), QDir::toNativeSeparators(settings.fileName()),
                              rules::tooManyNodesError(n));
        return std::nullopt;
    }
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        NodeProfile node;
        node.address = settings.value(QStringLiteral("address")).toString();
        node.db = settings.value(QStringLiteral("db"), 0).toInt();
        node.user = settings.value(QStringLiteral("user")).toString();
        node.passwordEnv = settings.value(QStringLiteral("passwordEnv")).toString();
        node.askPassword = settings.value(QStringLiteral("askPassword"), false).toBool();
        node.keyringPassword = settings.value(QStringLiteral("keyringPassword"), false).toBool();
        node.tls = settings.value(QStringLiteral("tls"), false).toBool();
        node.caFile = settings.value(QStringLiteral("caFile")).toString();
        node.certFile = settings.value(QStringLiteral("certFile")).toString();
        node.keyFile = settings.value(QStringLiteral("keyFile")).toString();
        node.serverName = settings.value(QStringLiteral("serverName")).toString();
        p.nodes.append(node);
    }
    settings.endArray();
    settings.endGroup();
    return p;
}

void save(QSettings& settings, const ConnectionProfile& p)
{
    remove(settings, p.name);
    settings.beginGroup(QStringLiteral("profiles/") + p.name);
    settings.setValue(QStringLiteral("pattern"), p.pattern);
    settings.setValue(QStringLiteral("driftFactor"), p.driftFactor);
    settings.setValue(QStringLiteral("refreshIntervalMs"), p.refreshIntervalMs);
    settings.setValue(QStringLiteral("readOnly"), p.readOnly);
    settings.setValue(QStringLiteral("production"), p.production);
    if (p.history.isEmpty())
        settings.remove(QStringLiteral("history"));
    else
        settings.setValue(QStringLiteral("history"), p.history);
    if (!p.sshRoute.isEmpty()) // where the nodes are reached through; the keys stay with ssh
        settings.setValue(QStringLiteral("sshRoute"), p.sshRoute);
    if (!p.sshConfigFile.isEmpty())
        settings.setValue(QStringLiteral("sshConfigFile"), p.sshConfigFile);
    settings.beginWriteArray(QStringLiteral("nodes"), int(p.nodes.size()));
    for (int i = 0; i < p.nodes.size(); ++i) {
        settings.setArrayIndex(i);
        const NodeProfile& node = p.nodes[i];
        settings.setValue(QStringLiteral("address"), node.address);
        settings.setValue(QStringLiteral("db"), node.db);
        settings.setValue(QStringLiteral("user"), node.user);
        settings.setValue(QStringLiteral("passwordEnv"), node.passwordEnv);
        settings.setValue(QStringLiteral("askPassword"), node.askPassword);
        settings.setValue(QStringLiteral("keyringPassword"), node.keyringPassword); // where it is, never what
        settings.setValue(QStringLiteral("tls"), node.tls);
        settings.setValue(QStringLiteral("caFile"), node.caFile);
        settings.setValue(QStringLiteral("certFile"), node.certFile);
        settings.setValue(QStringLiteral("keyFile"), node.keyFile);
        settings.setValue(QStringLiteral("serverName"), node.serverName);
    }
    settings.endArray();
    settings.endGroup();
    settings.sync();
}

void remove(QSettings& settings, const QString& name)
{
    settings.remove(QStringLiteral("profiles/") + name);
}

} // namespace ProfileStore

std::optional<ClusterSettings> resolveProfile(const ConnectionProfile& profile, const PasswordPrompt& askPassword,
                                              QString* error, const QString& keyringService)
{
    const QStringList problems = profile.errors();
    if (!problems.isEmpty()) {
        if (error)
            *error = problems.join(QLatin1Char('\n'));
        return std::nullopt;
    }
    ClusterSettings s;
    s.profileName = profile.name;
    s.pattern = profile.pattern.toUtf8();
    s.driftFactor = profile.driftFactor;
    s.refreshIntervalMs = profile.refreshIntervalMs;
    s.readOnly = profile.readOnly;
    s.production = profile.production;
    s.sshConfigFile = profile.sshConfigFile;
    const PasswordKeyring keyring = keyringService.isEmpty() ? PasswordKeyring() : PasswordKeyring(keyringService);
    for (int i = 0; i < profile.nodes.size(); ++i) {
        const NodeProfile& node = profile.nodes[i];
        NodeEndpoint ep = *node.endpoint();
        if (!node.passwordEnv.isEmpty()) {
            if (!qEnvironmentVariableIsSet(node.passwordEnv.toLocal8Bit().constData())) {
                if (error)
                    *error = QCoreApplication::translate("ConnectionProfile",
                                                         "node %1: the environment variable %2 is not set")
                                 .arg(i + 1)
                                 .arg(node.passwordEnv);
                return std::nullopt;
            }
            ep.password = qEnvironmentVariable(node.passwordEnv.toLocal8Bit().constData());
        } else if (node.keyringPassword) {
            const PasswordKeyring::Result read =
                keyring.read(PasswordKeyring::nodeKey(profile.name, node.address, node.user));
            if (read.ok) {
                ep.password = read.password;
            } else {
                // No keyring daemon, a locked keyring, no entry: ask the operator, saying why, rather than
                // connect without the password (the node would refuse, or worse, accept and mislead).
                const QString why = QCoreApplication::translate("ConnectionProfile",
                                                                "The password could not be read from the keyring: %1")
                                        .arg(read.error);
                const auto password = askPassword ? askPassword(i, ep.displayName(), why) : std::nullopt;
                if (!password) {
                    if (error)
                        *error =
                            QCoreApplication::translate("ConnectionProfile",
                                                        "node %1: the password could not be read from the keyring: %2")
                                .arg(i + 1)
                                .arg(read.error);
                    return std::nullopt;
                }
                ep.password = *password;
            }
        } else if (node.askPassword) {
            const auto password = askPassword ? askPassword(i, ep.displayName(), QString()) : std::nullopt;
            if (!password) {
                if (error)
                    *error = QCoreApplication::translate("ConnectionProfile", "node %1: no password given").arg(i + 1);
                return std::nullopt;
            }
            ep.password = *password;
        }
        if (!ep.isUnix())
            ep.sshRoute = profile.sshRoute;
        s.nodes.append(ep);
    }
    return s;
}

QStringList forgetKeyringPasswords(const ConnectionProfile& profile, const QString& keyringService)
{
    const PasswordKeyring keyring = keyringService.isEmpty() ? PasswordKeyring() : PasswordKeyring(keyringService);
    QStringList problems;
    for (const NodeProfile& node : profile.nodes) {
        if (!node.keyringPassword)
            continue;
        const PasswordKeyring::Result removed =
            keyring.remove(PasswordKeyring::nodeKey(profile.name, node.address, node.user));
        if (!removed.ok && !removed.notFound)
            problems << QCoreApplication::translate("ConnectionProfile", "%1: %2").arg(node.address, removed.error);
    }
    return problems;
}

QStringList moveKeyringPasswords(const ConnectionProfile& profile, const QString& newName,
                                 const QString& keyringService)
{
    const PasswordKeyring keyring = keyringService.isEmpty() ? PasswordKeyring() : PasswordKeyring(keyringService);
    QStringList problems;
    for (const NodeProfile& node : profile.nodes) {
        if (!node.keyringPassword || newName == profile.name)
            continue;
        const QString from = PasswordKeyring::nodeKey(profile.name, node.address, node.user);
        const PasswordKeyring::Result read = keyring.read(from);
        if (!read.ok) {
            if (!read.notFound)
                problems << QCoreApplication::translate("ConnectionProfile", "%1: %2").arg(node.address, read.error);
            continue;
        }
        // Stored under the new name first: a failure leaves the old entry, never none.
        const PasswordKeyring::Result stored =
            keyring.store(PasswordKeyring::nodeKey(newName, node.address, node.user), read.password);
        const PasswordKeyring::Result removed = stored.ok ? keyring.remove(from) : stored;
        if (!removed.ok && !removed.notFound)
            problems << QCoreApplication::translate("ConnectionProfile", "%1: %2").arg(node.address, removed.error);
    }
    return problems;
}

} // namespace redlock
