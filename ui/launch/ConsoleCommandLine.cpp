#include "launch/ConsoleCommandLine.h"

#include "history/LockJournal.h"
#include "redlock/RedlockRules.h"

#include <QCoreApplication>

namespace redlock {

ConsoleCommandLine::ConsoleCommandLine()
    : m_nodes(QStringLiteral("nodes"),
              QCoreApplication::translate("main", "Comma-separated nodes: host:port, unix:/path, redis://…"),
              QCoreApplication::translate("main", "list")),
      m_pattern(QStringLiteral("pattern"),
                QCoreApplication::translate("main", "Key pattern of the locks to watch (SCAN MATCH glob)."),
                QCoreApplication::translate("main", "glob")),
      m_profile(QStringLiteral("profile"), QCoreApplication::translate("main", "Connect with a saved profile."),
                QCoreApplication::translate("main", "name")),
      m_demo(QStringLiteral("demo"),
             QCoreApplication::translate("main", "Start a local 5-node cluster with contending clients.")),
      m_screenshot(
          QStringLiteral("screenshot"),
          QCoreApplication::translate("main", "Render the window after the first full refresh to a PNG file and exit."),
          QCoreApplication::translate("main", "file")),
      m_screenshotDelay(QStringLiteral("screenshot-delay"),
                        QCoreApplication::translate("main",
                                                    "With --screenshot: wait this many seconds after the first "
                                                    "full refresh, so the live charts have a history (default 0)."),
                        QCoreApplication::translate("main", "seconds"), QStringLiteral("0")),
      m_lang(QStringLiteral("lang"), QCoreApplication::translate("main", "User interface language, e.g. zh_CN or en."),
             QCoreApplication::translate("main", "locale")),
      m_readOnly(QStringLiteral("read-only"),
                 QCoreApplication::translate("main", "Refuse every action that writes to the nodes.")),
      m_drift(QStringLiteral("drift-factor"), QCoreApplication::translate("main", "Clock drift factor (default 0.01)."),
              QCoreApplication::translate("main", "factor"), QStringLiteral("0.01")),
      m_dark(QStringLiteral("dark"),
             QCoreApplication::translate("main", "Dark colours (the Fusion style with a dark palette) whatever "
                                                 "the desktop's theme.")),
      m_metricsListen(QStringLiteral("metrics-listen"),
                      QCoreApplication::translate("main", "Also serve the watched cluster's state to Prometheus on "
                                                          "http://ADDRESS:PORT/metrics (as `redlock exporter` does), "
                                                          "e.g. 127.0.0.1:9721."),
                      QCoreApplication::translate("main", "address:port")),
      m_journal(QStringLiteral("journal"),
                QCoreApplication::translate("main", "The lock history journal to write and show (default: "
                                                    "history.sqlite in the application data folder; with --demo a "
                                                    "temporary one), or a team's shared history in PostgreSQL: "
                                                    "postgresql://user@host[:port]/database (the password from "
                                                    "PGPASSWORD or ~/.pgpass, else from the desktop keyring or "
                                                    "asked once; never in the URL or the profile)."),
                QCoreApplication::translate("main", "file|URL")),
      m_noJournal(QStringLiteral("no-journal"), QCoreApplication::translate("main", "Keep no lock history.")),
      m_openDock(QStringLiteral("open-dock"),
                 QCoreApplication::translate("main", "Show this dock at start: history, alerts or testBench (may "
                                                     "be given more than once)."),
                 QCoreApplication::translate("main", "name")),
      m_screenshotProfiles(QStringLiteral("screenshot-profiles"),
                           QCoreApplication::translate("main", "With --screenshot: render the connection profiles "
                                                               "dialog (with --profile selected) instead of the "
                                                               "window, connecting nowhere."))
{
    m_parser.setApplicationDescription(QCoreApplication::translate(
        "main", "Monitoring and admin console for Redlock distributed locks over N independent Redis masters."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOptions({m_nodes, m_pattern, m_profile, m_demo, m_screenshot, m_screenshotDelay, m_lang, m_readOnly,
                         m_drift, m_dark, m_metricsListen, m_journal, m_noJournal, m_openDock, m_screenshotProfiles});
}

bool ConsoleCommandLine::launchOptions(LaunchOptions* options, QString* error) const
{
    options->nodes = m_parser.value(m_nodes);
    options->pattern = m_parser.value(m_pattern);
    options->profile = m_parser.value(m_profile);
    options->demo = m_parser.isSet(m_demo);
    options->screenshot = m_parser.value(m_screenshot);
    options->readOnly = m_parser.isSet(m_readOnly);
    options->dark = m_parser.isSet(m_dark);
    options->journal = m_parser.value(m_journal);
    options->noJournal = m_parser.isSet(m_noJournal);
    options->openDocks = m_parser.values(m_openDock);
    options->screenshotProfiles = m_parser.isSet(m_screenshotProfiles);
    if (options->screenshotProfiles && options->screenshot.isEmpty()) {
        *error = QCoreApplication::translate("main", "--screenshot-profiles needs --screenshot");
        return false;
    }
    if (options->noJournal && m_parser.isSet(m_journal)) {
        *error = QCoreApplication::translate("main", "--journal and --no-journal exclude each other");
        return false;
    }
    if (const QString problem = LockJournal::locationProblem(options->journal); !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    bool driftOk = false;
    options->driftFactor = m_parser.value(m_drift).toDouble(&driftOk);
    if (!driftOk || !rules::driftFactorValid(options->driftFactor)) {
        *error = QStringLiteral("--drift-factor: ") +
                 (driftOk ? rules::driftFactorError(options->driftFactor)
                          : QCoreApplication::translate("main", "\"%1\" is not a number")
                                .arg(m_parser.value(m_drift).left(100)));
        return false;
    }
    bool delayOk = false;
    const double delaySeconds = m_parser.value(m_screenshotDelay).toDouble(&delayOk);
    if (!delayOk || delaySeconds < 0 || delaySeconds > 600) {
        *error = QCoreApplication::translate("main", "--screenshot-delay must be a number of seconds from 0 to 600");
        return false;
    }
    options->screenshotDelayMs = qRound(delaySeconds * 1000);
    options->metricsListen.reset();
    if (m_parser.isSet(m_metricsListen)) {
        QString why;
        options->metricsListen = ListenAddress::parse(m_parser.value(m_metricsListen), &why);
        if (!options->metricsListen) {
            *error = QCoreApplication::translate("main", "bad --metrics-listen: %1").arg(why);
            return false;
        }
    }
    return true;
}

bool ConsoleCommandLine::isTextOnly(const QStringList& arguments)
{
    // Unknown options (Qt's own, such as -platform, are removed from the arguments only by QApplication)
    // do not matter here: only whether help or the version is asked for.
    ConsoleCommandLine commandLine;
    QCommandLineParser& parser = commandLine.m_parser;
    parser.parse(arguments);
    return parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all")) ||
           parser.isSet(QStringLiteral("version"));
}

QString ConsoleCommandLine::language(const QStringList& arguments)
{
    QString lang;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == QLatin1String("--lang") && i + 1 < arguments.size())
            lang = arguments[i + 1];
        else if (arguments[i].startsWith(QLatin1String("--lang=")))
            lang = arguments[i].mid(7);
    }
    return lang;
}

} // namespace redlock
