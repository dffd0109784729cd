#pragma once

// Running the real `redlock` binary as scripts do (QProcess, stdin not a terminal), and reading what the
// nodes did with hiredis directly, not through the code under test.

#include "localcluster/LocalCluster.h"
#include "support/NodeActivity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

#include <algorithm>
#include <csignal>
#include <unistd.h>

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json; // empty unless stdout was a JSON object

    QString describe() const
    {
        return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
            .arg(exitCode)
            .arg(QString::fromUtf8(out), QString::fromUtf8(err));
    }
};

// The CLI's messages follow the locale: the tests read them in English whatever the machine's locale is, unless
// they ask for another one.
inline QProcessEnvironment cliEnvironment(const QString& locale = QStringLiteral("C.UTF-8"))
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), locale);
    return env;
}

// acquire, extend, release and bench wait 50 ms per node by default (node-redlock's default). On a loaded machine
// (2 cores, load 10 and more) a healthy node can take longer to answer, and a test that expects success flakes.
// Unless the test chose a --node-timeout itself, they get a generous one: 2000 ms, or TTL/10 for a TTL under
// 20 s (the CLI warns when the timeout is not small against the TTL, and a test must not run into that warning
// just because of this), never less than the 50 ms default. force-release already waits 2000 ms by default;
// inspect, watch and audit have no --node-timeout. Nodes that are stopped are refused at once: that does not
// wait for the timeout, so the tests with nodes down are unchanged by it.
inline QStringList withGenerousNodeTimeout(QStringList args)
{
    static const QStringList commands{QStringLiteral("acquire"), QStringLiteral("extend"), QStringLiteral("release"),
                                      QStringLiteral("bench")};
    if (args.isEmpty() || !commands.contains(args.first()))
        return args;
    const qsizetype end = args.contains(QStringLiteral("--")) ? args.indexOf(QStringLiteral("--")) : args.size();
    qint64 ttlMs = 10000; // the default of all four
    for (qsizetype i = 1; i < end; ++i) {
        const QString& arg = args[i];
        if (arg == u"--node-timeout" || arg.startsWith(QLatin1String("--node-timeout=")))
            return args;
        bool ok = false;
        qint64 value = 0;
        if (arg == u"--ttl" && i + 1 < end)
            value = args[i + 1].toLongLong(&ok);
        else if (arg.startsWith(QLatin1String("--ttl=")))
            value = arg.mid(6).toLongLong(&ok);
        if (ok)
            ttlMs = value;
    }
    const qint64 nodeTimeoutMs = std::min<qint64>(2000, ttlMs / 10);
    if (nodeTimeoutMs > 50) {
        args.insert(end, QString::number(nodeTimeoutMs));
        args.insert(end, QStringLiteral("--node-timeout"));
    }
    return args;
}

inline CliRun runCli(const QStringList& args, int timeoutMs = 30000, const QString& locale = QStringLiteral("C.UTF-8"))
{
    CliRun run;
    QProcess process;
    process.setProcessEnvironment(cliEnvironment(locale));
    process.start(QStringLiteral(REDLOCK_CLI_PATH), withGenerousNodeTimeout(args));
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        run.err = "did not finish in time";
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    run.json = QJsonDocument::fromJson(run.out).object();
    return run;
}

// A shell pipeline as a script writes it: `bash -c script`, with $1 the redlock binary and $2... `args`
// (quoted in the script, so no value is split or globbed). stdout and stderr are the shell's.
inline CliRun runShell(const QString& script, const QStringList& args = {}, int timeoutMs = 60000)
{
    CliRun run;
    QProcess process;
    process.setProcessEnvironment(cliEnvironment());
    // Its own process group: a pipeline that does not end is killed whole, not only its shell.
    process.setChildProcessModifier([] { ::setpgid(0, 0); });
    process.start(QStringLiteral("bash"),
                  QStringList{QStringLiteral("-c"), script, QStringLiteral("bash"), QStringLiteral(REDLOCK_CLI_PATH)}
                      << args);
    if (!process.waitForFinished(timeoutMs)) {
        if (process.processId() > 0)
            ::kill(-static_cast<pid_t>(process.processId()), SIGKILL);
        process.waitForFinished();
        run.out = process.readAllStandardOutput();
        run.err = process.readAllStandardError() + "\n(did not finish in time)";
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    run.json = QJsonDocument::fromJson(run.out).object();
    return run;
}

inline QString nodeList(const redlock::LocalCluster& cluster, int first = 0, int count = -1)
{
    QStringList names;
    const int end = count < 0 ? cluster.size() : first + count;
    for (int i = first; i < end; ++i)
        names << cluster.endpoint(i).displayName();
    return names.join(u',');
}

// `redlock inspect --json` output (JSON Lines): every line must be one JSON object; lock lines, then the
// summary line last. `error` says what was wrong, if anything.
struct InspectLines
{
    QJsonArray locks;
    QJsonObject summary;
    QString error;
};

inline InspectLines parseInspectLines(const QByteArray& out)
{
    InspectLines lines;
    QList<QByteArray> raw = out.split('\n');
    if (raw.isEmpty() || !raw.last().isEmpty())
        lines.error = QStringLiteral("the output does not end with a newline");
    raw.removeLast();
    for (qsizetype i = 0; i < raw.size() && lines.error.isEmpty(); ++i) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(raw[i], &parseError);
        const QString type = doc.object().value(QStringLiteral("type")).toString();
        if (!doc.isObject())
            lines.error = QStringLiteral("line %1 is no JSON object: %2").arg(i + 1).arg(parseError.errorString());
        else if (type == u"lock" && lines.summary.isEmpty())
            lines.locks.append(doc.object());
        else if (type == u"summary" && i + 1 == raw.size())
            lines.summary = doc.object();
        else
            lines.error = QStringLiteral("line %1 is unexpected: %2").arg(i + 1).arg(QString::fromUtf8(raw[i]));
    }
    if (lines.error.isEmpty() && lines.summary.isEmpty())
        lines.error = QStringLiteral("no summary line");
    return lines;
}
