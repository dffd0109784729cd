// redlock-console: the Widgets console. Everything but the command line lives in ui/ (redlock_ui).
#include "ConsoleLauncher.h"
#include "ContextAliasTranslator.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include <cstdio>
#include <memory>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RedlockConsole"));
    QApplication::setApplicationName(QStringLiteral("redlock-console"));
    QApplication::setApplicationVersion(QStringLiteral(REDLOCK_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.redlockconsole.RedlockConsole"));
    QIcon icon;
    for (const QFileInfo& png : QDir(QStringLiteral(":/icons")).entryInfoList({QStringLiteral("*.png")}))
        icon.addFile(png.filePath());
    QApplication::setWindowIcon(icon);

    // --lang must be known before any translated text is made, the parser's own help included.
    QString lang;
    const QStringList args = QApplication::arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--lang") && i + 1 < args.size())
            lang = args[i + 1];
        else if (args[i].startsWith(QLatin1String("--lang=")))
            lang = args[i].mid(7);
    }
    if (lang.isEmpty())
        lang = QLocale::system().name();
    QTranslator qtTranslator;
    if (lang != QLatin1String("C") && !lang.startsWith(QLatin1String("en"))) {
        if (qtTranslator.load(QStringLiteral("qtbase_") + lang, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QApplication::installTranslator(&qtTranslator);
        auto translator = std::make_unique<QTranslator>();
        if (translator->load(QStringLiteral(":/i18n/redlock_") + lang))
            QApplication::installTranslator(new redlock::ContextAliasTranslator(std::move(translator), &app));
        else if (args.contains(QStringLiteral("--lang")))
            std::fprintf(stderr, "redlock-console: no translation for %s, using English\n", qPrintable(lang));
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Monitoring and admin console for Redlock distributed locks over N independent Redis masters."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption nodes(
        QStringLiteral("nodes"),
        QApplication::translate("main", "Comma-separated nodes: host:port, unix:/path, redis://…"),
        QApplication::translate("main", "list"));
    const QCommandLineOption pattern(
        QStringLiteral("pattern"),
        QApplication::translate("main", "Key pattern of the locks to watch (SCAN MATCH glob)."),
        QApplication::translate("main", "glob"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QApplication::translate("main", "Connect with a saved profile."),
                                     QApplication::translate("main", "name"));
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QApplication::translate("main", "Start a local 5-node cluster with contending clients."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("main", "Render the window after the first full refresh to a PNG file and exit."),
        QApplication::translate("main", "file"));
    const QCommandLineOption screenshotDelay(
        QStringLiteral("screenshot-delay"),
        QApplication::translate("main", "With --screenshot: wait this many seconds after the first full refresh, so "
                                        "the live charts have a history (default 0)."),
        QApplication::translate("main", "seconds"), QStringLiteral("0"));
    const QCommandLineOption langOption(QStringLiteral("lang"),
                                        QApplication::translate("main", "User interface language, e.g. zh_CN or en."),
                                        QApplication::translate("main", "locale"));
    const QCommandLineOption readOnly(QStringLiteral("read-only"),
                                      QApplication::translate("main", "Refuse every action that writes to the nodes."));
    const QCommandLineOption drift(QStringLiteral("drift-factor"),
                                   QApplication::translate("main", "Clock drift factor (default 0.01)."),
                                   QApplication::translate("main", "factor"), QStringLiteral("0.01"));
    parser.addOptions({nodes, pattern, profile, demo, screenshot, screenshotDelay, langOption, readOnly, drift});
    parser.process(app);

    redlock::LaunchOptions options;
    options.nodes = parser.value(nodes);
    options.pattern = parser.value(pattern);
    options.profile = parser.value(profile);
    options.demo = parser.isSet(demo);
    options.screenshot = parser.value(screenshot);
    options.readOnly = parser.isSet(readOnly);
    bool driftOk = false;
    options.driftFactor = parser.value(drift).toDouble(&driftOk);
    if (!driftOk || options.driftFactor < 0 || options.driftFactor >= 0.5) {
        std::fprintf(stderr, "redlock-console: %s\n",
                     qPrintable(QApplication::translate("main", "--drift-factor must be a number from 0 to 0.5")));
        return 2;
    }

    bool delayOk = false;
    const double delaySeconds = parser.value(screenshotDelay).toDouble(&delayOk);
    if (!delayOk || delaySeconds < 0 || delaySeconds > 600) {
        std::fprintf(stderr, "redlock-console: %s\n",
                     qPrintable(QApplication::translate("main", "--screenshot-delay must be a number of seconds "
                                                                "from 0 to 600")));
        return 2;
    }
    options.screenshotDelayMs = qRound(delaySeconds * 1000);

    QSettings settings;
    redlock::ConsoleLauncher launcher(&settings);
    QObject::connect(&launcher, &redlock::ConsoleLauncher::finished, &app, [](int code, const QString& message) {
        std::fprintf(code == 0 ? stdout : stderr, "redlock-console: %s\n", qPrintable(message));
        QApplication::exit(code);
    });
    QString error;
    if (!launcher.start(options, &error)) {
        std::fprintf(stderr, "redlock-console: %s\n", qPrintable(error));
        return 2;
    }
    return QApplication::exec();
}
