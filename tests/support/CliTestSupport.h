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

inline CliRun runCli(const QStringList& args, int timeoutMs = 30000, const QString& locale = QStringLiteral("C.UTF-8"))
{
    CliRun run;
    QProcess process;
    process.setProcessEnvironment(cliEnvironment(locale));
    process.start(QStringLiteral(REDLOCK_CLI_PATH), args);
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
