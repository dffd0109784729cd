#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "runtime/MemoryTuning.h"
#include "translations/Translator.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>
#include <csignal>
#include <iterator>

using namespace redlock;
using namespace redlock::cli;

namespace {

struct Subcommand
{
    const char* name;
    int (*run)(const QStringList& args);
    const char* summary; // translated when shown
};

// One line per subcommand.
const Subcommand kSubcommands[] = {
    {"acquire", runAcquire,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "acquire a lock on one or several resources")},
    {"extend", runExtend, QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "extend a lock you hold (by its token)")},
    {"release", runRelease,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "release a lock (compare-and-delete by its token)")},
    {"run", runRun,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "run a command while holding a lock (flock for Redlock)")},
    {"cluster", runCluster,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "run a local redis-server cluster until Ctrl+C")},
    {"bench", runBench,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "measure acquire/release latency and throughput")},
    {"inspect", runInspect,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "show every lock merged over the nodes, with its verdict")},
    {"watch", runWatch, QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "print lock events live until Ctrl+C")},
    {"history", runHistory,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "who held a lock when, from the lock history journal")},
    {"audit", runAudit, QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "check the nodes for what breaks Redlock")},
    {"exporter", runExporter,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "serve the cluster's state to Prometheus (/metrics) until Ctrl+C")},
    {"force-release", runForceRelease,
     QT_TRANSLATE_NOOP("redlock::cli::CommandLine", "delete a stuck lock where it still holds TOKEN")},
};

QString generalUsage()
{
    QString text = CommandLine::tr("Usage: redlock <command> [options] ...\n\n"
                                   "Redlock distributed locks over N independent Redis masters.\n\n"
                                   "Commands:\n");
    QList<QStringList> rows;
    for (const Subcommand& command : kSubcommands)
        rows.append({QString::fromLatin1(command.name), CommandLine::tr(command.summary)});
    text += formatTable(rows);
    text += CommandLine::tr("\n'redlock <command> --help' describes a command's options.\n\n");
    text += exitCodeHelp();
    return text;
}

} // namespace

int main(int argc, char* argv[])
{
    holdClosedStandardDescriptors();
    redlock::keepLargeBuffersReturnable();
    // A reader that has gone is an error each command handles (EPIPE from the write), not a signal that kills
    // the process wherever it stands: acquire must decide whether the token got out, watch must flush its
    // journal. The disposition inherited from the parent (ignored by some, default in a shell) no longer
    // decides which of the two happens.
    std::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("redlock"));
    QCoreApplication::setApplicationVersion(QStringLiteral(REDLOCK_VERSION));
    // Messages follow the locale (LC_ALL / LANG), as other command line tools do. What scripts rely on does not
    // change with it: exit codes, option names, and the keys and ids of the JSON output (only its "error"
    // texts are messages).
    installTranslations();

    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 2) {
        printErr(generalUsage());
        return ExitUsage;
    }
    const QString name = arguments.at(1);
    if (name == u"--help" || name == u"-h" || name == u"help") {
        printOut(generalUsage());
        return ExitOk;
    }
    if (name == u"--version") {
        printOut(QStringLiteral("redlock ") + QCoreApplication::applicationVersion());
        return ExitOk;
    }
    const auto found = std::find_if(std::begin(kSubcommands), std::end(kSubcommands),
                                    [&name](const Subcommand& c) { return name == QLatin1String(c.name); });
    if (found == std::end(kSubcommands)) {
        return fail(ExitUsage, CommandLine::tr("unknown command \"%1\"\n").arg(name) + generalUsage());
    }
    QStringList commandArguments = arguments.mid(2);
    commandArguments.prepend(QStringLiteral("redlock ") + name);
    const int exitCode = found->run(commandArguments);
    // A script that asked for JSON parses stdout whatever happened: a usage error is a JSON object too (its
    // text is on stderr as well). Commands that got as far as writing their own JSON have done so.
    const qsizetype endOfOptions = commandArguments.indexOf(QStringLiteral("--"));
    const bool jsonAsked = commandArguments.mid(0, endOfOptions).contains(QStringLiteral("--json"));
    if (exitCode == ExitUsage && jsonAsked && !outputWritten()) {
        QStringList messages;
        for (const QString& line : errorLines()) {
            const QString message = line.startsWith(kDiagnosticPrefix) ? line.mid(kDiagnosticPrefix.size()) : line;
            if (!message.trimmed().isEmpty())
                messages << message.trimmed();
        }
        printJson({{QStringLiteral("command"), name},
                   {QStringLiteral("ok"), false},
                   {QStringLiteral("exitCode"), exitCode},
                   {QStringLiteral("error"), messages.join(u'\n')}});
    }
    // Success is only success if someone got to read it (`redlock inspect > /dev/full` exited 0).
    if (outputFailed() && !outputFailureExcused()) {
        printDiagnostic(CommandLine::tr("cannot write the output: %1").arg(outputError()));
        return exitCode == ExitOk ? int(ExitOutputFailed) : exitCode;
    }
    return exitCode;
}
