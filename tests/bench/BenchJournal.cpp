// bench-journal: what the lock history journal's writer costs (issue 29, item 3). Prints figures; not a test.
//
// The console's first pass over N held locks journals N "seen held" events; the journal's own thread writes them
// in batches (LockJournal, one transaction per batch). This records N such events into a fresh journal, flushes,
// and prints the writer's wall time, the process's CPU time spent meanwhile (the producer only appends to a list)
// and events per second of CPU. Then N/2 releases and N/2 acquires of the same keys (a churn's worth).
//
// Usage: bench-journal [--events N=100000] [--rounds R=3]

#include "history/LockJournal.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <sys/resource.h>

using namespace redlock;

namespace {

double cpuSeconds()
{
    rusage usage = {};
    ::getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

QList<JournalEvent> events(int n, const QString& kind, int tokenGeneration, qint64 atMs)
{
    QList<JournalEvent> list;
    list.reserve(n);
    for (int i = 0; i < n; ++i) {
        JournalEvent e;
        e.atMs = atMs;
        e.key = "lk:" + QByteArray::number(i);
        e.kind = kind;
        e.token = QByteArray::number(i * 7919 + tokenGeneration).toHex().leftJustified(22, 'a');
        e.holder = QString::fromLatin1(e.token);
        list.append(std::move(e));
    }
    return list;
}

struct Figure
{
    double wallS = 0, cpuS = 0;
};

Figure timed(LockJournal& journal, const QList<JournalEvent>& batch)
{
    const double cpu0 = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    journal.record(batch);
    journal.flush().waitForFinished();
    return {double(wall.nsecsElapsed()) / 1e9, cpuSeconds() - cpu0};
}

void print(const char* what, int n, const std::vector<Figure>& runs)
{
    std::vector<double> cpu, wall;
    for (const Figure& f : runs) {
        cpu.push_back(f.cpuS);
        wall.push_back(f.wallS);
    }
    std::sort(cpu.begin(), cpu.end());
    std::sort(wall.begin(), wall.end());
    const double medianCpu = cpu[cpu.size() / 2];
    std::printf("%-34s %7d events: CPU %.2f s (%.2f-%.2f), wall %.2f s, %.0f events/s of CPU\n", what, n, medianCpu,
                cpu.front(), cpu.back(), wall[wall.size() / 2], double(n) / std::max(1e-9, medianCpu));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("events"), QStringLiteral("Events per pass (default 100000)."),
                      QStringLiteral("N"), QStringLiteral("100000")});
    parser.addOption({QStringLiteral("rounds"), QStringLiteral("Rounds, each on a fresh journal (default 3)."),
                      QStringLiteral("R"), QStringLiteral("3")});
    parser.process(app);
    const int n = std::max(1, parser.value(QStringLiteral("events")).toInt());
    const int rounds = std::max(1, parser.value(QStringLiteral("rounds")).toInt());
    std::vector<Figure> firstPass, churn;
    for (int round = 0; round < rounds; ++round) {
        QTemporaryDir dir;
        JournalOptions options;
        options.path = dir.filePath(QStringLiteral("history.sqlite"));
        options.flushIntervalMs = 60'000; // only the flushes below write
        LockJournal journal(options);
        journal.start();
        journal.flush().waitForFinished(); // opened, session begun
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        firstPass.push_back(timed(journal, events(n, QStringLiteral("seen-held"), 0, now)));
        QList<JournalEvent> turnover = events(n / 2, QStringLiteral("released"), 0, now + 1000);
        turnover += events(n / 2, QStringLiteral("acquired"), 1, now + 2000);
        churn.push_back(timed(journal, turnover));
        if (journal.status().written != n + 2 * (n / 2))
            std::fprintf(stderr, "bench-journal: only %lld events written: %s\n", journal.status().written,
                         qPrintable(journal.status().error));
    }
    print("first pass (seen held)", n, firstPass);
    print("churn (released + acquired)", 2 * (n / 2), churn);
    return 0;
}
