// redlock-console: the Widgets console. Everything but the command line lives in ui/ (redlock_ui).
#include "launch/ConsoleCommandLine.h"
#include "launch/ConsoleLauncher.h"
#include "runtime/MemoryTuning.h"
#include "theme/Icons.h"
#include "theme/StatePalette.h"
#include "translations/Translator.h"

#include <QApplication>
#include <QSettings>

#include <cstdio>
#include <memory>

int main(int argc, char* argv[])
{
    redlock::keepLargeBuffersReturnable();
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    // --help and --version only print: a QCoreApplication, which needs no display, does that. QApplication
    // connects to the display (and takes Qt's own options such as -platform out of the arguments).
    const bool textOnly = redlock::ConsoleCommandLine::isTextOnly(args);
    const std::unique_ptr<QCoreApplication> app =
        textOnly ? std::make_unique<QCoreApplication>(argc, argv) : std::make_unique<QApplication>(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("RedlockConsole"));
    QCoreApplication::setApplicationName(QStringLiteral("redlock-console"));
    QCoreApplication::setApplicationVersion(QStringLiteral(REDLOCK_VERSION));
    if (!textOnly) {
        QGuiApplication::setDesktopFileName(QStringLiteral("org.redlockconsole.RedlockConsole"));
        QGuiApplication::setWindowIcon(redlock::Icons::application());
    }

    // --lang must be known before any translated text is made, the parser's own help included.
    const QString lang = redlock::ConsoleCommandLine::language(args);
    if (!redlock::installTranslations(lang) && !lang.isEmpty())
        std::fprintf(stderr, "redlock-console: no translation for %s, using English\n", qPrintable(lang));

    redlock::ConsoleCommandLine commandLine;
    commandLine.parser().process(*app); // prints and exits for --help, --version and unknown options
    redlock::LaunchOptions options;
    QString error;
    if (!commandLine.launchOptions(&options, &error)) {
        std::fprintf(stderr, "redlock-console: %s\n", qPrintable(error));
        return 2;
    }
    if (textOnly)
        return 1; // not reached: process() has printed the help or the version and exited
    if (options.dark) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(redlock::StatePalette::darkApplicationPalette());
    }

    QSettings settings;
    redlock::ConsoleLauncher launcher(&settings);
    QObject::connect(&launcher, &redlock::ConsoleLauncher::finished, app.get(), [](int code, const QString& message) {
        std::fprintf(code == 0 ? stdout : stderr, "redlock-console: %s\n", qPrintable(message));
        QCoreApplication::exit(code);
    });
    if (!launcher.start(options, &error)) {
        std::fprintf(stderr, "redlock-console: %s\n", qPrintable(error));
        return 2;
    }
    return QCoreApplication::exec();
}
