// redlock-console's command line: --read-only as the real command line gives it (ConsoleCommandLine, what
// main.cpp parses with) disables the operator's actions and is refused in the core, against real nodes; and the
// real binary prints --help and --version without a display.

#include "bench/BenchPanel.h"
#include "controller/ClusterController.h"
#include "launch/ConsoleCommandLine.h"
#include "launch/ConsoleLauncher.h"
#include "localcluster/LocalCluster.h"
#include "models/LocksModel.h"
#include "operate/OperatorFeature.h"
#include "redlock/RedlockRules.h"
#include "support/NodeActivity.h"
#include "views/MainWindow.h"
#include "views/NodesPanel.h"

#include <QAction>
#include <QDockWidget>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

// The real binary with no display of any kind.
Run runHeadless(const QStringList& args)
{
    QProcess console;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    console.setProcessEnvironment(env);
    console.start(QStringLiteral(REDLOCK_CONSOLE_BINARY), args);
    Run run;
    if (!console.waitForFinished(30000)) {
        console.kill();
        console.waitForFinished();
        run.err = QStringLiteral("did not finish in 30 s");
        return run;
    }
    // A crash (the Qt platform plugin aborting) is not an exit code.
    run.exitCode = console.exitStatus() == QProcess::NormalExit ? console.exitCode() : -1;
    run.out = QString::fromUtf8(console.readAllStandardOutput());
    run.err = QString::fromUtf8(console.readAllStandardError());
    return run;
}

bool hasChinese(const QString& text)
{
    return std::any_of(text.cbegin(), text.cend(),
                       [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
}

// What the console's observers and a force release preview may run on a node: no command that writes.
const QSet<QByteArray>& readCommands()
{
    static const QSet<QByteArray> commands{"ping", "hello", "auth", "client|setname", "select", "info", "time", "get",
                                           "mget", "pttl", "type", "hgetall", "exists", "scan", "config|get",
                                           "psubscribe", "subscribe", "punsubscribe", "unsubscribe", "command",
                                           // a value and its PTTL read in one transaction (MULTI/EXEC writes nothing)
                                           "multi", "exec",
                                           // one read-only script per page of keys (a write in it is refused)
                                           "evalsha_ro", "eval_ro"};
    return commands;
}

} // namespace

class TestConsoleCommandLine : public QObject
{
    Q_OBJECT

private slots:
    void helpAndVersionWithoutADisplay()
    {
        const Run help = runHeadless({QStringLiteral("--help")});
        QVERIFY2(help.exitCode == 0, qPrintable(help.err));
        QVERIFY2(help.out.startsWith(QStringLiteral("Usage: ")), qPrintable(help.out));
        for (const char* option : {"--nodes", "--read-only", "--demo", "--screenshot", "--lang", "--version"})
            QVERIFY2(help.out.contains(QLatin1String(option)), option);
        QCOMPARE(runHeadless({QStringLiteral("-h")}).exitCode, 0);

        const Run version = runHeadless({QStringLiteral("--version")});
        QVERIFY2(version.exitCode == 0, qPrintable(version.err));
        QVERIFY2(
            QRegularExpression(QStringLiteral("^redlock-console \\d+\\.\\d+\\.\\d+\\n$")).match(version.out).hasMatch(),
            qPrintable(version.out));

        // In Chinese, too: the translation is loaded before the help is made.
        const Run chinese = runHeadless({QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("--help")});
        QVERIFY2(chinese.exitCode == 0, qPrintable(chinese.err));
        QVERIFY2(chinese.out.contains(QStringLiteral("--read-only")) && hasChinese(chinese.out),
                 qPrintable(chinese.out));

        // A wrong option is reported as such, not by a crash of the display plugin.
        const Run wrong = runHeadless({QStringLiteral("--help"), QStringLiteral("--frobnicate")});
        QVERIFY2(wrong.exitCode == 1 && wrong.err.contains(QStringLiteral("frobnicate")), qPrintable(wrong.err));
    }

    void commandLineOptions()
    {
        ConsoleCommandLine commandLine;
        QVERIFY(commandLine.parser().parse(
            {QStringLiteral("redlock-console"), QStringLiteral("--nodes"), QStringLiteral("127.0.0.1:7001"),
             QStringLiteral("--pattern"), QStringLiteral("locks:*"), QStringLiteral("--read-only"),
             QStringLiteral("--drift-factor"), QStringLiteral("0.02"), QStringLiteral("--dark"),
             QStringLiteral("--metrics-listen"), QStringLiteral("[::1]:9721")}));
        LaunchOptions options;
        QString error;
        QVERIFY2(commandLine.launchOptions(&options, &error), qPrintable(error));
        QCOMPARE(options.nodes, QStringLiteral("127.0.0.1:7001"));
        QCOMPARE(options.pattern, QStringLiteral("locks:*"));
        QVERIFY(options.readOnly);
        QCOMPARE(options.driftFactor, 0.02);
        QVERIFY(options.dark);
        QVERIFY(options.metricsListen);
        QCOMPARE(options.metricsListen->toString(), QStringLiteral("[::1]:9721"));

        ConsoleCommandLine writable;
        QVERIFY(writable.parser().parse({QStringLiteral("redlock-console"), QStringLiteral("--demo")}));
        QVERIFY(writable.launchOptions(&options, &error));
        QVERIFY(!options.readOnly);
        QVERIFY(options.demo);
        QVERIFY(!options.dark);
        QVERIFY(!options.metricsListen);

        ConsoleCommandLine badDrift;
        QVERIFY(badDrift.parser().parse(
            {QStringLiteral("redlock-console"), QStringLiteral("--drift-factor"), QStringLiteral("0.7")}));
        QVERIFY(!badDrift.launchOptions(&options, &error));
        QVERIFY(error.contains(QStringLiteral("--drift-factor")));

        // --metrics-listen: an IP address and a port, refused otherwise (exit code 2) before anything starts.
        for (const QString& bad :
             {QStringLiteral("9721"), QStringLiteral("metrics.example.com:9721"), QStringLiteral("127.0.0.1:70000")}) {
            ConsoleCommandLine badListen;
            QVERIFY(
                badListen.parser().parse({QStringLiteral("redlock-console"), QStringLiteral("--metrics-listen"), bad}));
            QVERIFY2(!badListen.launchOptions(&options, &error), qPrintable(bad));
            QVERIFY2(error.contains(QStringLiteral("--metrics-listen")), qPrintable(error));
        }

        QVERIFY(ConsoleCommandLine::isTextOnly({QStringLiteral("redlock-console"), QStringLiteral("--version")}));
        QVERIFY(ConsoleCommandLine::isTextOnly(
            {QStringLiteral("redlock-console"), QStringLiteral("--demo"), QStringLiteral("--help")}));
        QVERIFY(!ConsoleCommandLine::isTextOnly({QStringLiteral("redlock-console"), QStringLiteral("--demo")}));
        // "--help" as the value of an option is not a request for help.
        QVERIFY(!ConsoleCommandLine::isTextOnly(
            {QStringLiteral("redlock-console"), QStringLiteral("--pattern"), QStringLiteral("--help")}));
    }

    // Hostile N11: `redlock-console --profile huge` with nodes\size=100000000 in the settings spun to 1 GB with no
    // window and no message. It exits 2 at once, naming the file and the limit.
    void aProfileWithTooManyNodesIsAnErrorNamingTheFile()
    {
        QTemporaryDir config;
        QVERIFY(config.isValid());
        const QString file = config.filePath(QStringLiteral("RedlockConsole/redlock-console.conf"));
        {
            QSettings settings(file, QSettings::IniFormat);
            settings.setValue(QStringLiteral("profiles/huge/pattern"), QStringLiteral("*"));
            settings.setValue(QStringLiteral("profiles/huge/nodes/size"), 100000000);
        }
        QProcess console;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        console.setProcessEnvironment(env);
        console.start(QStringLiteral(REDLOCK_CONSOLE_BINARY),
                      {QStringLiteral("--profile"), QStringLiteral("huge"), QStringLiteral("--no-journal"),
                       QStringLiteral("--screenshot"), config.filePath(QStringLiteral("shot.png"))});
        const bool finished = console.waitForFinished(20000);
        if (!finished) {
            console.kill();
            console.waitForFinished();
        }
        const QString err = QString::fromUtf8(console.readAllStandardError());
        QVERIFY2(finished && console.exitStatus() == QProcess::NormalExit && console.exitCode() == 2, qPrintable(err));
        QVERIFY2(err.contains(file) && err.contains(QStringLiteral("at most %1").arg(rules::kMaxNodes)),
                 qPrintable(err));
    }

    // --open-dock: every dock the console has opens by the name the help gives it, and the help names them all.
    void openDockHelpNamesEveryDock()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(1, {}, &error), qPrintable(error));
        QStringList args{QStringLiteral("redlock-console"), QStringLiteral("--nodes"),
                         cluster.endpoints().first().displayName(), QStringLiteral("--no-journal")};
        for (const char* name : {"history", "alerts", "testBench"})
            args << QStringLiteral("--open-dock") << QLatin1String(name);
        ConsoleCommandLine commandLine;
        QVERIFY(commandLine.parser().parse(args));
        LaunchOptions options;
        QVERIFY2(commandLine.launchOptions(&options, &error), qPrintable(error));
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("console.ini")), QSettings::IniFormat);
        ConsoleLauncher launcher(&settings);
        QVERIFY2(launcher.start(options, &error), qPrintable(error));

        QString help = commandLine.parser().helpText();
        help = help.mid(help.indexOf(QLatin1String("--open-dock")));
        if (const qsizetype next = help.indexOf(QLatin1String("\n  -")); next >= 0)
            help.truncate(next); // the option's description, up to the next option
        help.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
        const QList<QDockWidget*> docks = launcher.window()->findChildren<QDockWidget*>();
        QCOMPARE(docks.size(), 3);
        for (QDockWidget* dock : docks) {
            QVERIFY(dock->objectName().endsWith(QLatin1String("Dock")));
            const QString name = dock->objectName().chopped(4);
            QVERIFY2(dock->isVisible(), qPrintable(name));
            QVERIFY2(help.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))),
                     qPrintable(name + QStringLiteral(" is not named in: ") + help));
        }
        launcher.controller()->stop();
    }

    void readOnlyDisablesAndRefusesActions_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("--read-only") << true;
        QTest::newRow("writable") << false; // the same checks can see an enabled action and a deletion
    }

    void readOnlyDisablesAndRefusesActions()
    {
        QFETCH(bool, readOnly);
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        QStringList names;
        for (const NodeEndpoint& e : cluster.endpoints())
            names << e.displayName();
        const QByteArray token = "rl1:0123456789abcdef0123456789abcdef:42:host:worker";
        for (int i = 0; i < 3; ++i)
            DirectRedis(cluster.port(i)).set("locks:ro", token, 600000);
        QList<NodeActivity> before;
        for (int i = 0; i < 3; ++i)
            before << NodeActivity::of(cluster.port(i));

        QStringList args{QStringLiteral("redlock-console"), QStringLiteral("--nodes"), names.join(u',')};
        if (readOnly)
            args << QStringLiteral("--read-only");
        ConsoleCommandLine commandLine;
        QVERIFY(commandLine.parser().parse(args));
        LaunchOptions options;
        QVERIFY2(commandLine.launchOptions(&options, &error), qPrintable(error));

        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("console.ini")), QSettings::IniFormat);
        ConsoleLauncher launcher(&settings);
        OperatorSettings defaults;
        defaults.auditLogPath = dir.filePath(QStringLiteral("audit.jsonl"));
        defaults.restartStateFile = dir.filePath(QStringLiteral("restarts.json"));
        launcher.operatorFeature()->setDefaults(defaults);
        QVERIFY2(launcher.start(options, &error), qPrintable(error));
        OperatorFeature* console = launcher.operatorFeature();
        QTRY_VERIFY_WITH_TIMEOUT(console->actions()->isConfigured(), 10000);
        QCOMPARE(console->actions()->readOnly(), readOnly);

        // Select the lock and a node, as an operator would.
        QTableView* locks = launcher.window()->locksView();
        QModelIndex lockIndex;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int row = 0; row < locks->model()->rowCount(); ++row) {
                    const QModelIndex index = locks->model()->index(row, 0);
                    if (index.data(LocksModel::KeyRole).toByteArray() == "locks:ro")
                        lockIndex = index;
                }
                return lockIndex.isValid();
            }(),
            10000);
        locks->selectionModel()->setCurrentIndex(lockIndex, QItemSelectionModel::ClearAndSelect);
        QTableView* nodes = launcher.window()->nodesPanel()->view();
        QTRY_VERIFY_WITH_TIMEOUT(nodes->model()->rowCount() == 3, 10000);
        nodes->selectionModel()->setCurrentIndex(nodes->model()->index(0, 0), QItemSelectionModel::ClearAndSelect);
        QCOMPARE(console->selectedKey(), QByteArray("locks:ro"));
        QCOMPARE(console->selectedNode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(console->forceReleaseAction()->isEnabled(), !readOnly, 10000);
        QCOMPARE(console->restartAction()->isEnabled(), !readOnly);
        QCOMPARE(console->testBench()->acquireButton()->isEnabled(), !readOnly);
        QCOMPARE(console->testBench()->runButton()->isEnabled(), !readOnly);

        // Around the disabled action, straight to the core: refused there, nothing deleted.
        QFuture<ForceReleaseReport> future =
            console->actions()->executeForceRelease("locks:ro", token, QStringLiteral("test"));
        QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 10000);
        QCOMPARE(future.result().refused, readOnly);
        // Writable: released (the console's default lock-delay leaves a tombstone in place of the token).
        for (int i = 0; i < 3; ++i)
            QCOMPARE(DirectRedis(cluster.port(i)).get("locks:ro") == std::optional<QByteArray>(token), readOnly);
        if (!readOnly)
            return;
        for (int i = 0; i < 3; ++i) {
            const NodeActivity after = NodeActivity::of(cluster.port(i));
            QCOMPARE(after.changes, before[i].changes);
            const auto calls = after.since(before[i]);
            for (auto it = calls.cbegin(); it != calls.cend(); ++it)
                QVERIFY2(readCommands().contains(it.key()), it.key().constData());
        }
    }

    // The rescan budget the operator set in the nodes panel is the next run's; a value in the settings file
    // that is no count keeps the default (read as 0 it would mean "unlimited").
    void rescanBudgetIsKeptBetweenRuns()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(3, {}, &error), qPrintable(error));
        QStringList names;
        for (const NodeEndpoint& e : cluster.endpoints())
            names << e.displayName();
        ConsoleCommandLine commandLine;
        QVERIFY(commandLine.parser().parse(
            {QStringLiteral("redlock-console"), QStringLiteral("--nodes"), names.join(u',')}));
        LaunchOptions options;
        QVERIFY2(commandLine.launchOptions(&options, &error), qPrintable(error));
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("console.ini"));
        options.noJournal = true;

        auto budgetBox = [](ConsoleLauncher& launcher) {
            return launcher.window()->findChild<QSpinBox*>(QStringLiteral("rescanBudget"));
        };
        OperatorSettings defaults; // nothing of the user's own files
        defaults.auditLogPath = dir.filePath(QStringLiteral("audit.jsonl"));
        defaults.restartStateFile = dir.filePath(QStringLiteral("restarts.json"));
        {
            QSettings settings(file, QSettings::IniFormat);
            ConsoleLauncher launcher(&settings);
            launcher.operatorFeature()->setDefaults(defaults);
            QVERIFY2(launcher.start(options, &error), qPrintable(error));
            QSpinBox* box = budgetBox(launcher);
            QVERIFY(box);
            QCOMPARE(box->value(), kDefaultBudgetPerNode);
            box->setValue(123);
            QCOMPARE(launcher.controller()->rescanBudget(), 123);
        }
        {
            QSettings settings(file, QSettings::IniFormat);
            ConsoleLauncher launcher(&settings);
            launcher.operatorFeature()->setDefaults(defaults);
            QVERIFY2(launcher.start(options, &error), qPrintable(error));
            QCOMPARE(launcher.controller()->rescanBudget(), 123);
            QCOMPARE(budgetBox(launcher)->value(), 123);
        }
        for (const QString& bad : {QStringLiteral("abc"), QStringLiteral("-5")}) {
            {
                QSettings settings(file, QSettings::IniFormat);
                settings.setValue(QStringLiteral("observer/rescanBudget"), bad);
            }
            QSettings settings(file, QSettings::IniFormat);
            ConsoleLauncher launcher(&settings);
            launcher.operatorFeature()->setDefaults(defaults);
            QVERIFY2(launcher.start(options, &error), qPrintable(error));
            QCOMPARE(launcher.controller()->rescanBudget(), kDefaultBudgetPerNode);
            QCOMPARE(budgetBox(launcher)->value(), kDefaultBudgetPerNode);
        }
    }
};

QTEST_MAIN(TestConsoleCommandLine)
#include "TestConsoleCommandLine.moc"
