#include "launch/ConsoleLauncher.h"

#include "alerts/AlertsFeature.h"
#include "controller/DemoWorkload.h"
#include "controller/MetricsEndpoint.h"
#include "history/HistoryFeature.h"
#include "launch/ProfilesDialog.h"
#include "observe/ObservationTypes.h"
#include "operate/OperatorFeature.h"
#include "redlock/RedlockRules.h"
#include "views/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>

namespace redlock {

ConsoleLauncher::ConsoleLauncher(QSettings* settings, QObject* parent)
    : QObject(parent), m_settings(settings), m_controller(std::make_unique<ClusterController>())
{
    m_window = std::make_unique<MainWindow>(m_controller.get());
    m_operator = std::make_unique<OperatorFeature>(m_controller.get(), m_window.get());
    m_alerts = std::make_unique<AlertsFeature>(m_controller.get(), m_window.get(), m_settings);
    connect(m_window.get(), &MainWindow::connectRequested, this, &ConsoleLauncher::openProfiles);
}

ConsoleLauncher::~ConsoleLauncher()
{
    if (m_window && m_options.screenshot.isEmpty()) {
        m_window->saveLayout(*m_settings);
        m_settings->setValue(QStringLiteral("observer/rescanBudget"), m_controller->rescanBudget());
    }
    // Observers first, then the demo clients and servers (deleted on their own thread), then the window.
    m_controller->stop();
    m_operator.reset(); // its restart scheduler may live on the demo thread
    m_alerts.reset();
    m_demo.reset();
    m_window.reset();
    m_history.reset(); // after the window: its panel uses the journal until it goes
}

void ConsoleLauncher::restoreRescanBudget()
{
    // The operator's last choice in the nodes panel. A value that is no count (a hand-edited file) keeps the
    // default: read as 0 it would mean "unlimited", the heaviest load on production nodes.
    const QVariant saved = m_settings->value(QStringLiteral("observer/rescanBudget"));
    if (!saved.isValid())
        return;
    bool ok = false;
    const int budget = saved.toString().trimmed().toInt(&ok);
    if (ok && budget >= 0)
        m_controller->setRescanBudget(budget);
    else
        qWarning(
            "redlock-console: ignoring observer/rescanBudget=%s in the settings: not a count of commands per second",
            qPrintable(printableText(saved.toString(), 40)));
}

bool ConsoleLauncher::start(const LaunchOptions& options, QString* error)
{
    m_options = options;
    // Bound before the window opens or a node is contacted: a bad or busy address is a usage error.
    if (options.metricsListen) {
        QString why;
        m_metricsEndpoint = std::make_unique<MetricsEndpoint>(m_controller.get());
        if (!m_metricsEndpoint->listen(*options.metricsListen, &why)) {
            m_metricsEndpoint.reset();
            if (error)
                *error = tr("--metrics-listen: %1").arg(why);
            return false;
        }
    }
    std::optional<JournalOptions> journal;
    if (!options.noJournal) {
        journal.emplace();
        journal->path = options.journal;
        if (journal->path.isEmpty() && options.demo) {
            m_demoJournalDir = std::make_unique<QTemporaryDir>();
            journal->path = m_demoJournalDir->filePath(QStringLiteral("history.sqlite"));
        }
    }
    // Before restoreLayout(): the history dock is shown again if it was.
    m_history = std::make_unique<HistoryFeature>(m_controller.get(), m_window.get(), m_operator->actions(), journal);
    if (!options.screenshot.isEmpty()) {
        connect(m_controller.get(), &ClusterController::firstFullRefresh, this, [this] {
            m_refreshed = true;
            takeScreenshot();
        });
        // The charts need one metrics tick after the first refresh to have something to draw.
        connect(m_controller.get(), &ClusterController::metricsUpdated, this, [this] {
            if (m_refreshed)
                m_metricsTicked = true;
            takeScreenshot();
        });
    } else {
        m_window->restoreLayout(*m_settings);
        restoreRescanBudget();
    }
    m_window->show();
    for (const QString& name : options.openDocks) {
        if (auto* dock = m_window->findChild<QDockWidget*>(name + QStringLiteral("Dock"))) {
            dock->show();
            dock->raise(); // tabbed with the other docks: the last one named is in front
        }
    }

    if (options.demo) {
        m_window->setModeText(tr("Demo: local 5-node cluster with contending clients"));
        m_demo = std::make_unique<DemoController>();
        connect(m_demo.get(), &DemoController::clusterReady, this, [this](const QList<NodeEndpoint>& endpoints) {
            m_operator->setLocalCluster(m_demo->ioThread(), m_demo->cluster());
            ClusterSettings s;
            s.nodes = endpoints;
            s.pattern = m_options.pattern.isEmpty() ? QByteArrayLiteral("*") : m_options.pattern.toUtf8();
            s.refreshIntervalMs = 3000;
            s.readOnly = m_options.readOnly;
            s.driftFactor = m_options.driftFactor;
            QString why;
            if (!connectTo(s, &why))
                fail(why);
        });
        connect(m_demo.get(), &DemoController::failed, this, &ConsoleLauncher::fail);
        connect(m_demo.get(), &DemoController::clientActivity, m_controller.get(),
                &ClusterController::noteClientAcquires);
        m_demo->start(5);
        return true;
    }

    if (!options.nodes.isEmpty()) {
        QString why;
        const auto endpoints = NodeEndpoint::parseList(options.nodes, &why);
        if (!endpoints || endpoints->size() > rules::kMaxNodes) {
            if (error)
                *error = tr("--nodes: %1").arg(endpoints ? rules::tooManyNodesError(endpoints->size()) : why);
            return false;
        }
        ClusterSettings s;
        s.nodes = *endpoints;
        s.pattern = options.pattern.isEmpty() ? QByteArrayLiteral("*") : options.pattern.toUtf8();
        s.readOnly = options.readOnly;
        s.driftFactor = options.driftFactor;
        return connectTo(s, error);
    }

    if (options.screenshotProfiles) {
        // The dialog as an operator sees it, over the window; nothing is connected.
        auto* dialog = new ProfilesDialog(m_settings, m_window.get());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        if (!options.profile.isEmpty())
            dialog->selectProfile(options.profile);
        dialog->show();
        QTimer::singleShot(std::max(500, options.screenshotDelayMs), this, [this, dialog] {
            const QPixmap pixmap = dialog->grab();
            const QString path = QFileInfo(m_options.screenshot).absoluteFilePath();
            dialog->close();
            if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
                emit finished(1, tr("cannot write the screenshot to %1").arg(path));
                return;
            }
            emit finished(0, tr("screenshot saved to %1").arg(path));
        });
        return true;
    }

    if (!options.profile.isEmpty()) {
        QString unreadable;
        const auto profile = ProfileStore::load(*m_settings, options.profile, &unreadable);
        if (!profile) {
            if (error)
                *error = !unreadable.isEmpty()
                             ? unreadable
                             : tr("no profile named \"%1\" (saved profiles: %2)")
                                   .arg(options.profile, ProfileStore::names(*m_settings).join(QStringLiteral(", ")));
            return false;
        }
        const bool interactive = options.screenshot.isEmpty();
        auto s = resolveProfile(
            *profile,
            [this, interactive](int node, const QString& name, const QString& why) -> std::optional<QString> {
                if (!interactive)
                    return std::nullopt;
                return askPassword(node, name, why);
            },
            error);
        if (!s)
            return false;
        if (!options.pattern.isEmpty())
            s->pattern = options.pattern.toUtf8();
        s->readOnly = s->readOnly || options.readOnly;
        m_history->setDeploymentHistory(profile->history);
        return connectTo(*s, error);
    }

    if (!options.screenshot.isEmpty()) {
        if (error)
            *error = tr("--screenshot needs something to show: --demo, --nodes or --profile");
        return false;
    }
    QTimer::singleShot(0, this, &ConsoleLauncher::openProfiles);
    return true;
}

bool ConsoleLauncher::connectTo(const ClusterSettings& settings, QString* error)
{
    return m_controller->start(settings, error);
}

std::optional<QString> ConsoleLauncher::askPassword(int node, const QString& name, const QString& why)
{
    // why: the keyring could not give the password; said first, so that the operator knows why they are asked.
    const QString question = tr("Password for node %1 (%2):").arg(node + 1).arg(name);
    bool ok = false;
    const QString password = QInputDialog::getText(m_window.get(), tr("Password"),
                                                   why.isEmpty() ? question : why + QStringLiteral("\n\n") + question,
                                                   QLineEdit::Password, QString(), &ok);
    return ok ? std::optional<QString>(password) : std::nullopt;
}

void ConsoleLauncher::openProfiles()
{
    ProfilesDialog dialog(m_settings, m_window.get());
    if (!m_controller->settings().profileName.isEmpty())
        dialog.selectProfile(m_controller->settings().profileName);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ConnectionProfile profile = dialog.profile();
    QString error;
    auto s = resolveProfile(
        profile,
        [&](int node, const QString& name, const QString& why) -> std::optional<QString> {
            if (!dialog.typedPassword(node).isEmpty())
                return dialog.typedPassword(node);
            return askPassword(node, name, why);
        },
        &error);
    if (s && m_options.readOnly)
        s->readOnly = true;
    if (!s || !connectTo(*s, &error)) {
        QMessageBox::warning(m_window.get(), tr("Cannot connect"), error);
        return;
    }
    m_history->setDeploymentHistory(profile.history);
}

void ConsoleLauncher::takeScreenshot()
{
    if (m_screenshotTaken || !m_refreshed || !m_metricsTicked)
        return;
    m_screenshotTaken = true;
    // Let the batches that arrived with the refresh lay out and paint first; with a delay, the charts also
    // gather a history of that many metrics ticks.
    QTimer::singleShot(m_options.screenshotDelayMs, this, [this] {
        const QPixmap pixmap = m_window->grab();
        const QString path = QFileInfo(m_options.screenshot).absoluteFilePath();
        if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
            emit finished(1, tr("cannot write the screenshot to %1").arg(path));
            return;
        }
        emit finished(0, tr("screenshot saved to %1").arg(path));
    });
}

void ConsoleLauncher::fail(const QString& message)
{
    if (!m_options.screenshot.isEmpty()) {
        emit finished(1, message);
        return;
    }
    QMessageBox::critical(m_window.get(), tr("Redlock Console"), message);
}

} // namespace redlock
