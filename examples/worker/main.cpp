// An order worker that embeds the Redlock core: it takes orders:<id> with a fencing token, keeps the lock with
// LockKeeper while it works, and stops working the moment the lock is lost.
//
//   redlock-example-worker --nodes 127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003 --order 42
//
// Exit codes: 0 done and released, 1 not acquired, 2 usage, 3 lost the lock and stopped, 4 stopped by a signal.
// Everything lives on the main thread: the client's calls return futures that complete there, so nothing blocks.

#include <redlock/LockKeeper.h>
#include <redlock/RedlockClient.h>
#include <runtime/StopSignals.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

namespace {

QTextStream& out()
{
    static QTextStream stream(stdout);
    return stream;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Processes one order under a Redlock lock."));
    parser.addHelpOption();
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), QStringLiteral("The Redis masters, host:port,..."),
                                         QStringLiteral("list"));
    const QCommandLineOption orderOption(QStringLiteral("order"), QStringLiteral("The order id."),
                                         QStringLiteral("id"));
    const QCommandLineOption stepsOption(QStringLiteral("steps"), QStringLiteral("Work steps (default 5)."),
                                         QStringLiteral("n"), QStringLiteral("5"));
    const QCommandLineOption stepOption(QStringLiteral("step-ms"), QStringLiteral("Time per step (default 200)."),
                                        QStringLiteral("ms"), QStringLiteral("200"));
    const QCommandLineOption ttlOption(QStringLiteral("ttl"), QStringLiteral("Lock TTL (default 3000)."),
                                       QStringLiteral("ms"), QStringLiteral("3000"));
    parser.addOptions({nodesOption, orderOption, stepsOption, stepOption, ttlOption});
    parser.process(app);

    QString error;
    const auto nodes = redlock::NodeEndpoint::parseList(parser.value(nodesOption), &error);
    if (!nodes || !parser.isSet(orderOption)) {
        std::fprintf(stderr, "usage: --nodes host:port,... --order <id> (%s)\n", qPrintable(error));
        return 2;
    }
    const int steps = parser.value(stepsOption).toInt();
    const int stepMs = parser.value(stepOption).toInt();

    redlock::RedlockOptions options;
    options.nodes = *nodes;
    options.clientName = QStringLiteral("order-worker");
    redlock::RedlockClient client(options);
    if (!client.configCheck().ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(client.configCheck().errors.join(QLatin1Char('\n'))));
        return 2;
    }

    const QByteArray resource = "orders:" + parser.value(orderOption).toUtf8();
    redlock::LockKeeper* keeper = nullptr;
    QTimer work;
    int done = 0;
    bool finishing = false;

    // Releases (when still held), waits until every node had its answer, then exits.
    auto finish = [&](int code) {
        if (finishing)
            return;
        finishing = true;
        work.stop();
        if (keeper && keeper->isRunning()) {
            QObject::connect(keeper, &redlock::LockKeeper::released, &app, [&, code](const redlock::ReleaseResult& r) {
                out() << "released " << resource << " on " << r.succeededCount << " nodes" << Qt::endl;
                client.whenIdle().then(&app, [code](bool) { QCoreApplication::exit(code); });
            });
            keeper->release();
            return;
        }
        client.whenIdle().then(&app, [code](bool) { QCoreApplication::exit(code); });
    };

    redlock::StopSignals stop;
    QObject::connect(&stop, &redlock::StopSignals::received, &app, [&](int) { finish(4); });

    redlock::AcquireOptions acquire;
    acquire.ttlMs = parser.value(ttlOption).toLongLong();
    acquire.fencing = true;
    client.acquire(resource, acquire).then(&app, [&](const redlock::AcquireResult& result) {
        if (!result.ok) {
            out() << "not acquired " << resource << ": " << result.error << Qt::endl;
            finish(1);
            return;
        }
        // Every write this work makes carries the fencing token; the store refuses one lower than it has seen,
        // so a holder that lost the lock without knowing it cannot overwrite its successor (docs/fencing.md).
        const qint64 fence = result.lock.fencingToken;
        out() << "acquired " << resource << " fencing token " << fence << Qt::endl;
        keeper = new redlock::LockKeeper(&client, result.lock, &app);
        QObject::connect(keeper, &redlock::LockKeeper::lost, &app, [&](const QString& reason) {
            out() << "lost " << resource << ": " << reason << "; stopping work" << Qt::endl;
            finish(3);
        });
        keeper->start();

        QObject::connect(&work, &QTimer::timeout, &app, [&, fence] {
            // Checked right before each step: the clock says whether the lock is still ours, even when the
            // lost() signal has not been delivered yet.
            if (!keeper->isHeld()) {
                out() << "lock no longer held; stopping work" << Qt::endl;
                finish(3);
                return;
            }
            ++done;
            out() << "step " << done << "/" << steps << " of " << resource << " with fencing token " << fence
                  << Qt::endl;
            if (done == steps)
                finish(0);
        });
        work.start(stepMs);
    });
    return app.exec();
}
