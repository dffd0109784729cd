#pragma once

#include "launch/ConsoleLauncher.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>

namespace redlock {

// redlock-console's command line: its options, their help (translated by the translators installed when the
// object is made), and the LaunchOptions they give. app/console/main.cpp parses with it; so do the tests.
class ConsoleCommandLine
{
public:
    ConsoleCommandLine();

    QCommandLineParser& parser() { return m_parser; }

    // After parser().parse() or process(): what to launch, or false and *error (exit code 2) when a value is
    // wrong.
    bool launchOptions(LaunchOptions* options, QString* error) const;

    // True when the arguments (argv[0] first) ask for --help or --version: no window will open, and main.cpp
    // makes a QCoreApplication, which needs no display, instead of a QApplication. Needs no application object.
    static bool isTextOnly(const QStringList& arguments);
    // The value of --lang among the raw arguments, empty when not given. Needs no application object.
    static QString language(const QStringList& arguments);

private:
    QCommandLineParser m_parser;
    QCommandLineOption m_nodes;
    QCommandLineOption m_pattern;
    QCommandLineOption m_profile;
    QCommandLineOption m_demo;
    QCommandLineOption m_screenshot;
    QCommandLineOption m_screenshotDelay;
    QCommandLineOption m_lang;
    QCommandLineOption m_readOnly;
    QCommandLineOption m_drift;
    QCommandLineOption m_dark;
    QCommandLineOption m_metricsListen;
    QCommandLineOption m_journal;
    QCommandLineOption m_noJournal;
    QCommandLineOption m_openDock;
    QCommandLineOption m_screenshotProfiles;
};

} // namespace redlock
