#pragma once

#include "controller/ConnectionCheck.h"
#include "controller/ConnectionProfile.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QSettings;
class QSpinBox;
class QTableWidget;

namespace redlock {

class SshTunnel;

// Add, edit, check and pick connection profiles. Saved with QSettings, without passwords: a node's password
// is asked for at connect time, read from an environment variable the profile names, or kept in the desktop
// keyring ("Remember in the keyring": the password typed for the check is stored there on save). "Check connection"
// runs on an I/O thread and names the step that failed on each node.
class ProfilesDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProfilesDialog)

public:
    explicit ProfilesDialog(QSettings* settings, QWidget* parent = nullptr);
    ~ProfilesDialog() override;

    void selectProfile(const QString& name);
    // The profile as edited (valid after "Connect").
    ConnectionProfile profile() const;
    void setProfile(const ConnectionProfile& profile);
    // Passwords typed for the check, by node (never saved in the profile; reused for this connect).
    QString typedPassword(int node) const;
    // The keyring's service name ("redlock-console" when empty); tests use their own.
    void setKeyringService(const QString& service) { m_keyringService = service; }

    // Widgets, for tests.
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* sshRouteEdit() const { return m_sshRoute; }
    QLineEdit* sshConfigEdit() const { return m_sshConfig; }
    QTableWidget* nodesTable() const { return m_nodes; }
    QPlainTextEdit* checkReport() const { return m_report; }

public slots:
    void checkConnection();
    bool saveProfile();
    // A saved profile goes with the keyring entries of its nodes (no question asked here: the buttons ask).
    bool deleteProfile(const QString& name);
    // Renames a saved profile; the keyring entries of its nodes move with it. Refuses a name already taken.
    bool renameProfile(const QString& from, const QString& to);

signals:
    void checkFinished(bool ok);

private:
    void loadSelected();
    void addNode(const NodeProfile& node = {});
    void removeNode();
    void showNode(int row);
    void storeNode(int row);
    NodeProfile nodeAt(int row) const;
    void setNodeAt(int row, const NodeProfile& node);
    void onCheckFinished(int node, bool ok, const QList<ConnectionCheck::Step>& steps);
    void runChecks(const QList<NodeEndpoint>& endpoints, const QList<int>& rows);

    QSettings* m_settings;
    QListWidget* m_list;
    QLineEdit* m_name;
    QTableWidget* m_nodes;
    // Editor of the current node
    QLineEdit* m_address;
    QSpinBox* m_db;
    QLineEdit* m_user;
    QComboBox* m_passwordSource;
    QLineEdit* m_passwordEnv;
    QLineEdit* m_password;
    QCheckBox* m_tls;
    QLineEdit* m_caFile;
    QLineEdit* m_certFile;
    QLineEdit* m_keyFile;
    QLineEdit* m_serverName;
    // Profile settings
    QLineEdit* m_pattern;
    QDoubleSpinBox* m_drift;
    QSpinBox* m_refresh;
    QCheckBox* m_readOnly;
    QCheckBox* m_production;
    QLineEdit* m_history = nullptr; // the deployment's lock history (ConnectionProfile::history)
    QLineEdit* m_sshRoute;
    QLineEdit* m_sshConfig;
    QPlainTextEdit* m_report;

    QList<NodeProfile> m_nodeData;
    QList<QString> m_passwords;
    QString m_keyringService;
    int m_currentNode = -1;
    bool m_updating = false;
    ConnectionChecker* m_checker = nullptr; // the checks' thread
    int m_checksPending = 0;
    bool m_checksOk = true;
    QList<QString> m_checkLines;
    QList<SshTunnel*> m_checkTunnels; // the last check's, through the profile's SSH route (children)
};

} // namespace redlock
