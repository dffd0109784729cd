#pragma once

#include <QStringList>

// The subcommands of the `redlock` CLI. Each takes its own arguments with args[0] = "redlock <name>"
// (what QCommandLineParser expects as the program name) and returns the process exit code (ExitCode).
// main.cpp dispatches to them through one table: a new subcommand is a declaration here and one line there.
namespace redlock::cli {

// Lock operations against live nodes (LockCommands.cpp).
int runAcquire(const QStringList& args);
int runExtend(const QStringList& args);
int runRelease(const QStringList& args);
// A command run while holding a lock that is extended automatically, like flock(1) (RunCommand.cpp).
int runRun(const QStringList& args);

// A local N-node redis-server cluster that lives until SIGINT/SIGTERM (ClusterCommand.cpp).
int runCluster(const QStringList& args);

// Acquire+release latency and throughput, optionally against a raw hiredis baseline (BenchCommand.cpp).
int runBench(const QStringList& args);

// Cluster observation (commands/InspectCommand.cpp, WatchCommand.cpp, AuditCommand.cpp): merged lock view,
// live lock events, safety audit.
int runInspect(const QStringList& args);
int runWatch(const QStringList& args);
int runAudit(const QStringList& args);
// A Prometheus /metrics endpoint over the same observation (ExporterCommand.cpp).
int runExporter(const QStringList& args);

// The lock history journal (HistoryCommand.cpp): who held a key when, and how it ended.
int runHistory(const QStringList& args);

// Operator actions (OperatorCommands.cpp): force release by token, with preview and audit log.
int runForceRelease(const QStringList& args);

} // namespace redlock::cli
