#pragma once

// What the observation commands (inspect, watch, audit in ObserveCommands.cpp; exporter in ExporterCommand.cpp)
// share: the options that say which nodes and keys to watch and how hard.

#include "observe/LockInspector.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace redlock::cli {

// The translation context of ObserveCommands.cpp's messages, the shared options' among them.
class ObserveCommands
{
    Q_DECLARE_TR_FUNCTIONS(redlock::cli::ObserveCommands)
};

struct InspectCommand
{
    InspectorOptions options;
    bool json = false;
};

// The node options, --pattern, --scan-count, --drift-factor, --expiring, and --json when the command has it.
void addInspectOptions(QCommandLineParser& parser, bool withJson = true);
// Prints the error and returns false on a bad value.
bool readInspectOptions(const QCommandLineParser& parser, InspectCommand* command);
// --reconcile and --budget: the pace of the background rescan (watch, exporter).
void addRescanOptions(QCommandLineParser& parser);
bool readRescanOptions(const QCommandLineParser& parser, InspectorOptions* options);

} // namespace redlock::cli
