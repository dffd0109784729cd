#include "launch/ProfilesDialog.h"

#include "controller/PasswordKeyring.h"

#include "protocol/SshTunnel.h"
#include "redlock/RedlockRules.h"
#include "theme/Icons.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace redlock {

namespace {
enum NodeColumn { AddressCol, DbCol, UserCol, PasswordCol, TlsCol, NodeColumnCount };
enum PasswordSource { NoPassword, AskAtConnect, FromEnvironment, InKeyring };
} // namespace

ProfilesDialog::ProfilesDialog(QSettings* settings, QWidget* parent)
    : QDialog(parent), m_settings(settings), m_list(new QListWidget(this)), m_name(new QLineEdit(this)),
      m_nodes(new QTableWidget(this)), m_address(new QLineEdit(this)), m_db(new QSpinBox(this)),
      m_user(new QLineEdit(this)), m_passwordSource(new QComboBox(this)), m_passwordEnv(new QLineEdit(this)),
      m_password(new QLineEdit(this)), m_tls(new QCheckBox(tr("TLS"), this)), m_caFile(new QLineEdit(this)),
      m_certFile(new QLineEdit(this)), m_keyFile(new QLineEdit(this)), m_serverName(new QLineEdit(this)),
      m_pattern(new QLineEdit(this)), m_drift(new QDoubleSpinBox(this)), m_refresh(new QSpinBox(this)),
      m_readOnly(new QCheckBox(tr("Read-only: no action may write to the nodes"), this)),
      m_production(new QCheckBox(tr("Production: force release and restarts need the key or node typed in"), this)),
      m_sshRoute(new QLineEdit(this)), m_sshConfig(new QLineEdit(this)), m_report(new QPlainTextEdit(this))
{
    m_checker = new ConnectionChecker(this);
    connect(m_checker, &ConnectionChecker::finished, this, &ProfilesDialog::onCheckFinished);
    setWindowTitle(tr("Connection profiles"));
    resize(1000, 680);

    // Left: saved profiles.
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Saved profiles"), left));
    leftLayout->addWidget(m_list, 1);
    auto* newButton = new QPushButton(tr("New"), left);
    auto* renameButton = new QPushButton(tr("Rename…"), left);
    auto* deleteButton = new QPushButton(tr("Delete"), left);
    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(newButton);
    listButtons->addWidget(renameButton);
    listButtons->addWidget(deleteButton);
    leftLayout->addLayout(listButtons);
    m_list->addItems(ProfileStore::names(*m_settings));

    // Right: the profile.
    m_name->setObjectName(QStringLiteral("profileName"));
    m_passwordSource->setObjectName(QStringLiteral("passwordSource"));
    m_password->setObjectName(QStringLiteral("checkPassword"));
    m_nodes->setObjectName(QStringLiteral("profileNodes"));
    m_nodes->setColumnCount(NodeColumnCount);
    m_nodes->setHorizontalHeaderLabels({tr("Address"), tr("DB"), tr("ACL user"), tr("Password"), tr("TLS")});
    m_nodes->horizontalHeader()->setSectionResizeMode(AddressCol, QHeaderView::Stretch);
    m_nodes->verticalHeader()->hide();
    m_nodes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_nodes->setSelectionMode(QAbstractItemView::SingleSelection);
    m_nodes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* addButton = new QPushButton(tr("Add node"), this);
    auto* removeButton = new QPushButton(tr("Remove node"), this);
    auto* checkButton = new QPushButton(tr("Check connection"), this);
    checkButton->setObjectName(QStringLiteral("checkConnection"));
    auto* nodeButtons = new QHBoxLayout;
    nodeButtons->addWidget(addButton);
    nodeButtons->addWidget(removeButton);
    nodeButtons->addStretch(1);
    nodeButtons->addWidget(checkButton);

    m_address->setPlaceholderText(tr("host:port, [v6]:port, unix:/path/redis.sock"));
    m_db->setRange(0, 1000);
    m_user->setPlaceholderText(tr("default"));
    m_passwordSource->addItems(
        {tr("No password"), tr("Ask at connect"), tr("From environment variable"), tr("Remember in the keyring")});
    m_passwordEnv->setPlaceholderText(tr("e.g. REDIS_PASSWORD_1"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("for the check; saved only in the keyring, when chosen above"));
    m_caFile->setPlaceholderText(tr("CA bundle (PEM); empty = system store"));
    m_certFile->setPlaceholderText(tr("client certificate (PEM)"));
    m_keyFile->setPlaceholderText(tr("client key (PEM)"));
    m_serverName->setPlaceholderText(tr("name to verify; empty = host"));
    auto* nodeBox = new QGroupBox(tr("Selected node"), this);
    auto* nodeForm = new QFormLayout(nodeBox);
    nodeForm->addRow(tr("Address"), m_address);
    nodeForm->addRow(tr("Database"), m_db);
    nodeForm->addRow(tr("ACL user"), m_user);
    auto* passwordRow = new QHBoxLayout;
    passwordRow->addWidget(m_passwordSource);
    passwordRow->addWidget(m_passwordEnv, 1);
    nodeForm->addRow(tr("Password"), passwordRow);
    nodeForm->addRow(tr("Password for the check"), m_password);
    nodeForm->addRow(QString(), m_tls);
    nodeForm->addRow(tr("CA file"), m_caFile);
    nodeForm->addRow(tr("Client certificate"), m_certFile);
    nodeForm->addRow(tr("Client key"), m_keyFile);
    nodeForm->addRow(tr("TLS server name"), m_serverName);

    m_pattern->setPlaceholderText(tr("*"));
    m_drift->setDecimals(3);
    m_drift->setRange(0, rules::kMaxDriftFactor - 0.001); // the rule's maximum is excluded
    m_drift->setSingleStep(0.005);
    m_refresh->setRange(200, 3'600'000);
    m_refresh->setSingleStep(500);
    m_refresh->setSuffix(tr(" ms"));
    auto* settingsBox = new QGroupBox(tr("Watching"), this);
    auto* settingsForm = new QFormLayout(settingsBox);
    settingsForm->addRow(tr("Key pattern"), m_pattern);
    settingsForm->addRow(tr("Clock drift factor"), m_drift);
    settingsForm->addRow(tr("Full refresh every"), m_refresh);
    settingsForm->addRow(QString(), m_readOnly);
    settingsForm->addRow(QString(), m_production);
    m_history = new QLineEdit(this);
    m_history->setObjectName(QStringLiteral("profileHistory"));
    m_history->setPlaceholderText(tr("this console's own journal"));
    m_history->setToolTip(tr("The deployment's lock history: the journal `redlock exporter --journal` writes. The "
                             "history view shows it, including what happened while this console was closed; the "
                             "console reads it only."));
    settingsForm->addRow(tr("Lock history"), m_history);
    // The CLI's --ssh and --ssh-config, for every TCP node of the profile. ssh keeps the keys (agent, ~/.ssh).
    m_sshRoute->setObjectName(QStringLiteral("sshRoute"));
    m_sshRoute->setPlaceholderText(tr("direct; or user@bastion, or jump1,jump2"));
    m_sshRoute->setToolTip(tr("Reach every TCP node through this SSH jump host (ProxyJump chain: hops separated by "
                              "commas), with the system's ssh client: your ~/.ssh/config, ssh-agent and known_hosts; "
                              "an unknown or changed host key is refused."));
    m_sshConfig->setObjectName(QStringLiteral("sshConfig"));
    m_sshConfig->setPlaceholderText(tr("~/.ssh/config"));
    auto* sshBox = new QGroupBox(tr("SSH jump host"), this);
    auto* sshForm = new QFormLayout(sshBox);
    sshForm->addRow(tr("SSH route"), m_sshRoute);
    sshForm->addRow(tr("ssh config file"), m_sshConfig);

    m_report->setObjectName(QStringLiteral("checkReport"));
    m_report->setReadOnly(true);
    m_report->setPlaceholderText(tr("\"Check connection\" reports every node here, step by step."));

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* nameForm = new QFormLayout;
    nameForm->addRow(tr("Profile name"), m_name);
    rightLayout->addLayout(nameForm);
    rightLayout->addWidget(m_nodes, 2);
    rightLayout->addLayout(nodeButtons);
    auto* middle = new QHBoxLayout;
    middle->addWidget(nodeBox, 3);
    auto* profileColumn = new QVBoxLayout;
    profileColumn->addWidget(settingsBox);
    profileColumn->addWidget(sshBox);
    profileColumn->addStretch(1);
    middle->addLayout(profileColumn, 2);
    rightLayout->addLayout(middle);
    rightLayout->addWidget(m_report, 1);

    auto* split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({200, 800});

    auto* buttons = new QDialogButtonBox(this);
    auto* saveButton = buttons->addButton(tr("Save"), QDialogButtonBox::ApplyRole);
    auto* connectButton = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Close);
    connectButton->setDefault(true);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, &ProfilesDialog::loadSelected);
    connect(newButton, &QPushButton::clicked, this, [this] {
        m_list->clearSelection();
        setProfile({});
        m_name->setFocus();
    });
    connect(deleteButton, &QPushButton::clicked, this, [this] {
        QListWidgetItem* item = m_list->currentItem();
        if (!item)
            return;
        if (QMessageBox::question(this, tr("Delete profile"), tr("Delete the profile \"%1\"?").arg(item->text())) !=
            QMessageBox::Yes)
            return;
        deleteProfile(item->text());
    });
    connect(renameButton, &QPushButton::clicked, this, [this] {
        QListWidgetItem* item = m_list->currentItem();
        if (!item)
            return;
        bool ok = false;
        const QString to =
            QInputDialog::getText(this, tr("Rename profile"), tr("New name:"), QLineEdit::Normal, item->text(), &ok)
                .trimmed();
        if (ok && !to.isEmpty() && to != item->text())
            renameProfile(item->text(), to);
    });
    connect(addButton, &QPushButton::clicked, this, [this] { addNode(); });
    connect(removeButton, &QPushButton::clicked, this, &ProfilesDialog::removeNode);
    connect(checkButton, &QPushButton::clicked, this, &ProfilesDialog::checkConnection);
    connect(m_nodes, &QTableWidget::currentCellChanged, this, [this](int row) { showNode(row); });
    for (QLineEdit* edit :
         {m_address, m_user, m_passwordEnv, m_password, m_caFile, m_certFile, m_keyFile, m_serverName})
        connect(edit, &QLineEdit::textEdited, this, [this] { storeNode(m_currentNode); });
    connect(m_db, &QSpinBox::valueChanged, this, [this] { storeNode(m_currentNode); });
    connect(m_tls, &QCheckBox::toggled, this, [this] { storeNode(m_currentNode); });
    connect(m_passwordSource, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_passwordEnv->setEnabled(index == FromEnvironment);
        storeNode(m_currentNode);
    });
    connect(saveButton, &QPushButton::clicked, this, &ProfilesDialog::saveProfile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(connectButton, &QPushButton::clicked, this, [this] {
        const QStringList errors = profile().errors();
        if (!errors.isEmpty()) {
            QMessageBox::warning(this, tr("Cannot connect"), errors.join(QLatin1Char('\n')));
            return;
        }
        accept();
    });

    setProfile({});
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
}

ProfilesDialog::~ProfilesDialog()
{
    // The check's connections go (with their thread) before the tunnels they go through.
    delete std::exchange(m_checker, nullptr);
    qDeleteAll(std::exchange(m_checkTunnels, {}));
}

void ProfilesDialog::selectProfile(const QString& name)
{
    const auto items = m_list->findItems(name, Qt::MatchExactly);
    if (!items.isEmpty())
        m_list->setCurrentItem(items.first());
}

void ProfilesDialog::loadSelected()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    QString error;
    if (const auto p = ProfileStore::load(*m_settings, item->text(), &error))
        setProfile(*p);
    else if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot open the profile"), error);
}

void ProfilesDialog::setProfile(const ConnectionProfile& p)
{
    m_updating = true;
    m_name->setText(p.name);
    m_pattern->setText(p.pattern);
    m_drift->setValue(p.driftFactor);
    m_refresh->setValue(p.refreshIntervalMs);
    m_readOnly->setChecked(p.readOnly);
    m_production->setChecked(p.production);
    m_history->setText(p.history);
    m_sshRoute->setText(p.sshRoute);
    m_sshConfig->setText(p.sshConfigFile);
    m_nodeData.clear();
    m_passwords.clear();
    m_nodes->setRowCount(0);
    m_currentNode = -1;
    m_updating = false;
    for (const NodeProfile& node : p.nodes)
        addNode(node);
    if (p.nodes.isEmpty())
        showNode(-1);
    else
        m_nodes->setCurrentCell(0, 0);
    m_report->clear();
}

ConnectionProfile ProfilesDialog::profile() const
{
    ConnectionProfile p;
    p.name = m_name->text().trimmed();
    p.nodes = m_nodeData;
    p.pattern = m_pattern->text().isEmpty() ? QStringLiteral("*") : m_pattern->text();
    p.driftFactor = m_drift->value();
    p.refreshIntervalMs = m_refresh->value();
    p.readOnly = m_readOnly->isChecked();
    p.production = m_production->isChecked();
    p.history = m_history->text().trimmed();
    p.sshRoute = m_sshRoute->text().trimmed();
    p.sshConfigFile = m_sshConfig->text().trimmed();
    return p;
}

QString ProfilesDialog::typedPassword(int node) const
{
    return m_passwords.value(node);
}

void ProfilesDialog::addNode(const NodeProfile& node)
{
    m_nodeData.append(node);
    m_passwords.append(QString());
    const int row = m_nodes->rowCount();
    m_nodes->insertRow(row);
    setNodeAt(row, node);
    m_nodes->setCurrentCell(row, 0);
}

void ProfilesDialog::removeNode()
{
    const int row = m_nodes->currentRow();
    if (row < 0)
        return;
    m_updating = true;
    m_nodeData.removeAt(row);
    m_passwords.removeAt(row);
    m_nodes->removeRow(row);
    m_updating = false;
    m_currentNode = -1;
    showNode(m_nodes->currentRow());
}

void ProfilesDialog::setNodeAt(int row, const NodeProfile& node)
{
    auto set = [&](int column, const QString& text) {
        auto* item = m_nodes->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            m_nodes->setItem(row, column, item);
        }
        item->setText(text);
    };
    set(AddressCol, node.address);
    set(DbCol, QString::number(node.db));
    set(UserCol, node.user.isEmpty() ? tr("default") : node.user);
    set(PasswordCol, !node.passwordEnv.isEmpty() ? tr("$%1").arg(node.passwordEnv)
                     : node.askPassword          ? tr("ask at connect")
                     : node.keyringPassword      ? tr("keyring")
                                                 : tr("none"));
    set(TlsCol, node.tls ? tr("yes") : tr("no"));
}

void ProfilesDialog::showNode(int row)
{
    m_currentNode = row;
    const bool valid = row >= 0 && row < m_nodeData.size();
    for (QWidget* w : std::initializer_list<QWidget*>{m_address, m_db, m_user, m_passwordSource, m_passwordEnv,
                                                      m_password, m_tls, m_caFile, m_certFile, m_keyFile, m_serverName})
        w->setEnabled(valid);
    const NodeProfile node = valid ? m_nodeData[row] : NodeProfile{};
    m_updating = true;
    m_address->setText(node.address);
    m_db->setValue(node.db);
    m_user->setText(node.user);
    m_passwordSource->setCurrentIndex(!node.passwordEnv.isEmpty() ? FromEnvironment
                                      : node.askPassword          ? AskAtConnect
                                      : node.keyringPassword      ? InKeyring
                                                                  : NoPassword);
    m_passwordEnv->setText(node.passwordEnv);
    m_passwordEnv->setEnabled(valid && m_passwordSource->currentIndex() == FromEnvironment);
    m_password->setText(valid ? m_passwords[row] : QString());
    m_tls->setChecked(node.tls);
    m_caFile->setText(node.caFile);
    m_certFile->setText(node.certFile);
    m_keyFile->setText(node.keyFile);
    m_serverName->setText(node.serverName);
    m_updating = false;
}

void ProfilesDialog::storeNode(int row)
{
    if (m_updating || row < 0 || row >= m_nodeData.size())
        return;
    NodeProfile& node = m_nodeData[row];
    node.address = m_address->text().trimmed();
    node.db = m_db->value();
    node.user = m_user->text().trimmed();
    const int source = m_passwordSource->currentIndex();
    node.askPassword = source == AskAtConnect;
    node.keyringPassword = source == InKeyring;
    node.passwordEnv = source == FromEnvironment ? m_passwordEnv->text().trimmed() : QString();
    node.tls = m_tls->isChecked();
    node.caFile = m_caFile->text().trimmed();
    node.certFile = m_certFile->text().trimmed();
    node.keyFile = m_keyFile->text().trimmed();
    node.serverName = m_serverName->text().trimmed();
    m_passwords[row] = m_password->text();
    setNodeAt(row, node);
}

bool ProfilesDialog::saveProfile()
{
    const ConnectionProfile p = profile();
    const QStringList errors = p.errors();
    if (!errors.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot save the profile"), errors.join(QLatin1Char('\n')));
        return false;
    }
    // "Remember in the keyring": the password typed for the check goes to the desktop keyring, never into the
    // profile. Where no keyring runs the profile is not saved, so that it does not promise a password nobody kept.
    const PasswordKeyring keyring = m_keyringService.isEmpty() ? PasswordKeyring() : PasswordKeyring(m_keyringService);
    for (qsizetype i = 0; i < p.nodes.size(); ++i) {
        if (!p.nodes[i].keyringPassword || m_passwords.value(i).isEmpty())
            continue;
        const PasswordKeyring::Result stored =
            keyring.store(PasswordKeyring::nodeKey(p.name, p.nodes[i].address, p.nodes[i].user), m_passwords.value(i));
        if (!stored.ok) {
            const QString message =
                tr("Node %1: the password could not be kept in the keyring: %2").arg(i + 1).arg(stored.error);
            m_report->appendPlainText(message);
            QMessageBox::warning(this, tr("Cannot save the profile"), message);
            return false;
        }
    }
    ProfileStore::save(*m_settings, p);
    if (m_list->findItems(p.name, Qt::MatchExactly).isEmpty())
        m_list->addItem(p.name);
    const bool anyKeyring =
        std::any_of(p.nodes.cbegin(), p.nodes.cend(), [](const NodeProfile& n) { return n.keyringPassword; });
    m_report->appendPlainText(anyKeyring
                                  ? tr("Saved \"%1\" (passwords only in the keyring, not in the profile).").arg(p.name)
                                  : tr("Saved \"%1\" (passwords are not saved).").arg(p.name));
    return true;
}

bool ProfilesDialog::deleteProfile(const QString& name)
{
    const auto p = ProfileStore::load(*m_settings, name);
    if (!p)
        return false;
    // Entries left in the keyring would outlive the profile, and a new profile of that name would inherit them.
    const QStringList problems = forgetKeyringPasswords(*p, m_keyringService);
    ProfileStore::remove(*m_settings, name);
    m_settings->sync();
    for (QListWidgetItem* item : m_list->findItems(name, Qt::MatchExactly))
        delete item;
    m_report->appendPlainText(problems.isEmpty()
                                  ? tr("Deleted \"%1\".").arg(name)
                                  : tr("Deleted \"%1\"; these passwords could not be removed from the keyring: %2")
                                        .arg(name, problems.join(QStringLiteral("; "))));
    return true;
}

bool ProfilesDialog::renameProfile(const QString& from, const QString& to)
{
    auto p = ProfileStore::load(*m_settings, from);
    if (!p)
        return false;
    if (ProfileStore::names(*m_settings).contains(to)) {
        QMessageBox::warning(this, tr("Rename profile"), tr("A profile named \"%1\" exists already.").arg(to));
        return false;
    }
    // Passwords move first: the keyring entries are named after the profile.
    const QStringList problems = moveKeyringPasswords(*p, to, m_keyringService);
    p->name = to;
    ProfileStore::save(*m_settings, *p);
    ProfileStore::remove(*m_settings, from);
    m_settings->sync();
    for (QListWidgetItem* item : m_list->findItems(from, Qt::MatchExactly))
        item->setText(to);
    if (m_name->text().trimmed() == from)
        m_name->setText(to);
    if (!problems.isEmpty())
        m_report->appendPlainText(tr("Renamed \"%1\" to \"%2\"; these passwords could not be moved in the keyring: %3")
                                      .arg(from, to, problems.join(QStringLiteral("; "))));
    return true;
}

void ProfilesDialog::checkConnection()
{
    const ConnectionProfile p = profile();
    m_report->clear();
    for (const QString& w : p.warnings())
        m_report->appendPlainText(Icons::severityGlyph(AuditFinding::Severity::Warning) + QLatin1Char(' ') + w);
    if (p.nodes.isEmpty()) {
        m_report->appendPlainText(Icons::severityGlyph(AuditFinding::Severity::Severe) + QLatin1Char(' ') +
                                  tr("add at least one node"));
        emit checkFinished(false);
        return;
    }
    m_checker->newRound();
    qDeleteAll(std::exchange(m_checkTunnels, {}));
    m_checksPending = int(p.nodes.size());
    m_checksOk = true;
    m_checkLines = QList<QString>(p.nodes.size());
    m_report->appendPlainText(tr("Checking %n node(s)…", nullptr, int(p.nodes.size())));
    QList<NodeEndpoint> endpoints;
    QList<int> rows;
    for (int i = 0; i < p.nodes.size(); ++i) {
        QString why;
        auto endpoint = p.nodes[i].endpoint(&why);
        if (!endpoint) {
            onCheckFinished(i, false, {{tr("address"), false, why}});
            continue;
        }
        if (!p.nodes[i].passwordEnv.isEmpty())
            endpoint->password = qEnvironmentVariable(p.nodes[i].passwordEnv.toLocal8Bit().constData());
        else
            endpoint->password = m_passwords.value(i);
        if (!endpoint->isUnix())
            endpoint->sshRoute = p.sshRoute;
        endpoints << *endpoint;
        rows << i;
    }
    if (p.sshRoute.isEmpty() || endpoints.isEmpty()) {
        runChecks(endpoints, rows);
        return;
    }
    // Through the profile's bastion, as the console will connect: the check waits for the tunnel (the same
    // SshTunnel as the CLI's --ssh), and a tunnel that cannot come up fails every node with its reason (ssh's, or
    // why the ssh config's route for it is refused: that lookup runs in the tunnel's start, not here).
    SshTunnel::Options sshOptions;
    sshOptions.configFile = p.sshConfigFile;
    QString why;
    m_checkTunnels = SshTunnel::forNodes(&endpoints, sshOptions, this, &why);
    if (m_checkTunnels.isEmpty()) {
        for (const int row : std::as_const(rows))
            onCheckFinished(row, false, {{tr("SSH tunnel"), false, why}});
        return;
    }
    m_report->appendPlainText(tr("Starting the SSH tunnel via %1…").arg(p.sshRoute));
    auto pending = std::make_shared<qsizetype>(m_checkTunnels.size());
    for (SshTunnel* tunnel : std::as_const(m_checkTunnels)) {
        connect(tunnel, &SshTunnel::up, this, [this, tunnel, pending, endpoints, rows] {
            tunnel->disconnect(this);
            if (--*pending == 0)
                runChecks(endpoints, rows);
        });
        connect(tunnel, &SshTunnel::down, this, [this, rows](const QString& reason) {
            for (SshTunnel* t : std::as_const(m_checkTunnels)) {
                t->disconnect(this);
                t->stop(); // a check is one attempt: no restarts behind the dialog
            }
            for (const int row : rows)
                onCheckFinished(row, false, {{tr("SSH tunnel"), false, reason}});
        });
        tunnel->start();
    }
}

void ProfilesDialog::runChecks(const QList<NodeEndpoint>& endpoints, const QList<int>& rows)
{
    for (qsizetype k = 0; k < endpoints.size(); ++k) {
        m_checker->check(rows[k], endpoints[k]);
    }
}

void ProfilesDialog::onCheckFinished(int node, bool ok, const QList<ConnectionCheck::Step>& steps)
{
    const NodeProfile np = m_nodeData.value(node);
    QStringList lines;
    const auto mark = [](bool good) {
        return Icons::severityGlyph(good ? std::nullopt : std::optional(AuditFinding::Severity::Severe));
    };
    lines
        << mark(ok) + QLatin1Char(' ') +
               (ok ? tr("node %1 (%2): ready for Redlock") : tr("node %1 (%2): failed")).arg(node + 1).arg(np.address);
    for (const ConnectionCheck::Step& s : steps)
        lines << tr("    %1 %2: %3").arg(mark(s.ok), s.name, s.detail);
    const auto failed =
        std::find_if(steps.cbegin(), steps.cend(), [](const ConnectionCheck::Step& s) { return !s.ok; });
    if (!ok && failed != steps.cend())
        lines << tr("    failing step: %1").arg(failed->name);
    m_checkLines[node] = lines.join(QLatin1Char('\n'));
    m_checksOk = m_checksOk && ok;
    if (--m_checksPending > 0)
        return;
    for (const QString& text : std::as_const(m_checkLines))
        m_report->appendPlainText(text);
    emit checkFinished(m_checksOk);
}

} // namespace redlock
