#include "controller/ClusterController.h"
#include "controller/DemoWorkload.h"
#include "controller/MetricsEndpoint.h"
#include "launch/ConsoleLauncher.h"
#include "models/LocksModel.h"
#include "support/ObservationTestSupport.h"
#include "theme/StatePalette.h"
#include "views/ChartsPanel.h"
#include "views/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QPalette>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

// The demo end to end on real redis-server processes: held locks with per-node TTLs and live chart series
// appear; and the real binary's --screenshot writes a PNG of the window.
class TestConsoleDemo : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void demoShowsHeldLocksTtlsAndCharts()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("demo.ini")), QSettings::IniFormat);
        ConsoleLauncher launcher(&settings);
        LaunchOptions options;
        options.demo = true;
        options.screenshot = m_dir.filePath(QStringLiteral("unused.png")); // no saved layout, no dialogs
        QSignalSpy refreshed(launcher.controller(), &ClusterController::firstFullRefresh);
        QString error;
        QVERIFY2(launcher.start(options, &error), qPrintable(error));
        QVERIFY(waitForCount(refreshed, 1, 15000));

        LocksModel* locks = launcher.window()->locksModel();
        QCOMPARE(locks->nodeCount(), 5);
        QTRY_VERIFY_WITH_TIMEOUT(
            locks->countWithVerdict(LockVerdict::Held) + locks->countWithVerdict(LockVerdict::Expiring) >= 3, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(locks->countWithVerdict(LockVerdict::Contested) >= 1, 12000);
        QTRY_VERIFY_WITH_TIMEOUT(locks->countWithVerdict(LockVerdict::MinorityLeftover) >= 1, 12000);

        // A held lock has a majority-token TTL bar on every node.
        const int row = locks->rowOf("leader:scheduler");
        QVERIFY(row >= 0);
        for (int node = 0; node < 5; ++node) {
            const TtlCell cell =
                locks->index(row, LocksModel::ColumnCount + node).data(LocksModel::TtlCellRole).value<TtlCell>();
            QCOMPARE(cell.kind, TtlCell::Kind::Majority);
            QVERIFY(cell.remainingMs > 0 && cell.remainingMs <= 4000);
        }
        QVERIFY(locks->rowOf("{invoice-lock}") >= 0);
        QCOMPARE(locks->viewFor("{invoice-lock}")->holder->format, HolderFormat::Redisson);

        // Charts: every node's latency series and the activity series fill up, one point per tick.
        ChartsPanel* charts = launcher.window()->charts();
        QCOMPARE(charts->latencySeries().size(), 5);
        QTRY_VERIFY_WITH_TIMEOUT(charts->latencySeries().first()->count() >= 2, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(charts->activitySeries().first()->count() >= 2, 5000);
        for (QLineSeries* s : charts->offsetSeries())
            QVERIFY(s->count() >= 1);
        // Lock events flow: something was acquired while we watched.
        QTRY_VERIFY_WITH_TIMEOUT(launcher.controller()->metrics()->acquisitionsPerSecond().size() > 0, 5000);
    }

    // --metrics-listen: the console serves what it watches to Prometheus, the exposition `redlock exporter`
    // serves, from the GUI thread's state.
    void demoServesMetrics()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("metrics.ini")), QSettings::IniFormat);
        ConsoleLauncher launcher(&settings);
        LaunchOptions options;
        options.demo = true;
        options.screenshot = m_dir.filePath(QStringLiteral("unused-metrics.png")); // no saved layout, no dialogs
        options.metricsListen = ListenAddress::parse(QStringLiteral("127.0.0.1:0"), nullptr);
        QSignalSpy refreshed(launcher.controller(), &ClusterController::firstFullRefresh);
        QString error;
        QVERIFY2(launcher.start(options, &error), qPrintable(error));
        QVERIFY(launcher.metricsEndpoint());
        const quint16 port = launcher.metricsEndpoint()->address().port;
        QVERIFY(port != 0);
        QVERIFY(waitForCount(refreshed, 1, 15000));

        // The scrape is answered on this (the GUI) thread: the socket is read with the event loop running.
        auto scrape = [port] {
            QTcpSocket socket;
            QByteArray answer;
            connect(&socket, &QTcpSocket::connected, [&] { socket.write("GET /metrics HTTP/1.1\r\n\r\n"); });
            connect(&socket, &QTcpSocket::readyRead, [&] { answer += socket.readAll(); });
            socket.connectToHost(QHostAddress::LocalHost, port);
            const QDeadlineTimer deadline(10000);
            while (socket.state() != QAbstractSocket::UnconnectedState && !deadline.hasExpired())
                QTest::qWait(10);
            return answer;
        };
        auto value = [](const QByteArray& exposition, const QByteArray& series) {
            for (const QByteArray& line : exposition.split('\n'))
                if (line.startsWith(QByteArray(series + ' ')))
                    return line.mid(series.size() + 1).toDouble();
            return -1.0;
        };
        QByteArray answer;
        QTRY_VERIFY2_WITH_TIMEOUT((answer = scrape(), value(answer, "redlock_locks{verdict=\"held\"}") +
                                                              value(answer, "redlock_locks{verdict=\"expiring\"}") >=
                                                          1),
                                  answer.constData(), 15000);
        QVERIFY2(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.left(200).constData());
        QCOMPARE(value(answer, "redlock_nodes"), 5.0);
        const QList<NodeEndpoint> nodes = launcher.controller()->settings().nodes;
        QCOMPARE(nodes.size(), 5);
        for (const NodeEndpoint& node : nodes)
            QTRY_COMPARE_WITH_TIMEOUT(value(scrape(), "redlock_node_up{node=\"" + node.displayName().toUtf8() + "\"}"),
                                      1.0, 10000);
    }

    // Issue 14: --screenshot-delay waits after the first full refresh, so the charts have a history.
    void screenshotDelayLetsTheChartsFill()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("delay.ini")), QSettings::IniFormat);
        ConsoleLauncher launcher(&settings);
        LaunchOptions options;
        options.demo = true;
        options.screenshot = m_dir.filePath(QStringLiteral("delayed.png"));
        options.screenshotDelayMs = 4000;
        // The newest point of the first latency chart (a sample's wall-clock instant), -1 when none.
        const auto newestPointMs = [&launcher] {
            const auto series = launcher.window()->charts()->latencySeries();
            return series.isEmpty() || series.first()->count() == 0
                       ? qint64(-1)
                       : qint64(series.first()->at(series.first()->count() - 1).x());
        };
        QElapsedTimer sinceRefresh;
        connect(launcher.controller(), &ClusterController::firstFullRefresh, this, [&] { sinceRefresh.start(); });
        // Without the delay the picture is taken at the first metrics tick after the refresh: the charts then hold
        // only samples taken before that tick's instant.
        qint64 firstTickAtMs = -1;
        connect(launcher.controller(), &ClusterController::metricsUpdated, this, [&](qint64 atMs) {
            if (sinceRefresh.isValid() && firstTickAtMs < 0)
                firstTickAtMs = atMs;
        });
        qint64 waitedMs = -1;
        qint64 newestAtPictureMs = -1;
        connect(&launcher, &ConsoleLauncher::finished, this, [&](int code, const QString& message) {
            QVERIFY2(code == 0, qPrintable(message));
            waitedMs = sinceRefresh.elapsed();
            newestAtPictureMs = newestPointMs();
        });
        QString error;
        QVERIFY2(launcher.start(options, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(waitedMs >= 0, 30000);
        QVERIFY2(waitedMs >= 4000, qPrintable(QString::number(waitedMs)));
        // The picture shows samples taken during the delay, after that first tick: one of the four or so the
        // delay gives is enough, however late a loaded machine delivers them.
        QVERIFY(firstTickAtMs > 0);
        QVERIFY2(newestAtPictureMs > firstTickAtMs,
                 qPrintable(
                     QStringLiteral("newest point %1 ms after the first tick").arg(newestAtPictureMs - firstTickAtMs)));
        QVERIFY(!QImage(options.screenshot).isNull());
    }

    void screenshotOfTheRealWindow_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("desktop palette") << false;
        QTest::newRow("--dark") << true;
    }

    void screenshotOfTheRealWindow()
    {
        QFETCH(bool, dark);
        const QString png = m_dir.filePath(dark ? QStringLiteral("console-dark.png") : QStringLiteral("console.png"));
        QProcess console;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.path());
        console.setProcessEnvironment(env);
        QStringList args{QStringLiteral("--demo"), QStringLiteral("--screenshot"), png};
        if (dark)
            args << QStringLiteral("--dark");
        console.start(QStringLiteral(REDLOCK_CONSOLE_BINARY), args);
        QVERIFY(console.waitForStarted());
        QVERIFY(console.waitForFinished(30000));
        QVERIFY2(console.exitStatus() == QProcess::NormalExit && console.exitCode() == 0,
                 console.readAllStandardError().constData());
        const QImage image = QImage(png).convertToFormat(QImage::Format_RGB32);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 1000 && image.height() >= 700);

        // What is in it: a real window (text, tables and charts: many colours, no colour covering almost
        // everything) with lock rows in the table: the TtlBarDelegate's majority fill (the palette's held colour
        // at alpha 110) over a row's background, in the dark palette's colours with --dark. Measured: a console
        // watching one empty node shows none of it; the demo about 22 000 pixels (a full bar is about 800, less
        // its text).
        const QPalette palette = dark ? StatePalette::darkApplicationPalette() : QApplication::palette();
        QColor held = StatePalette::forPalette(palette).color(StatePalette::Role::Held);
        held.setAlpha(110);
        QList<QRgb> barFill;
        for (const QPalette::ColorRole role : {QPalette::Base, QPalette::AlternateBase}) {
            QImage blend(1, 1, QImage::Format_RGB32);
            blend.fill(palette.color(QPalette::Active, role));
            QPainter painter(&blend);
            painter.fillRect(blend.rect(), held);
            painter.end();
            barFill.append(blend.pixel(0, 0));
        }
        const auto near = [](QRgb a, QRgb b) {
            return qAbs(qRed(a) - qRed(b)) <= 2 && qAbs(qGreen(a) - qGreen(b)) <= 2 && qAbs(qBlue(a) - qBlue(b)) <= 2;
        };
        QHash<QRgb, int> histogram;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                ++histogram[image.pixel(x, y)];
        }
        int mostCommon = 0;
        QRgb background = 0;
        int barPixels = 0;
        for (auto it = histogram.cbegin(); it != histogram.cend(); ++it) {
            if (it.value() > mostCommon) {
                mostCommon = it.value();
                background = it.key();
            }
            if (near(it.key(), barFill[0]) || near(it.key(), barFill[1]))
                barPixels += it.value();
        }
        const QString measured = QStringLiteral("%1 colours, the most common on %2% of the pixels, %3 TTL bar pixels")
                                     .arg(histogram.size())
                                     .arg(100.0 * mostCommon / (image.width() * image.height()), 0, 'f', 1)
                                     .arg(barPixels);
        QVERIFY2(histogram.size() >= 200, qPrintable(measured));
        QVERIFY2(mostCommon < image.width() * image.height() * 9 / 10, qPrintable(measured));
        QVERIFY2(barPixels >= 2000, qPrintable(measured));
        // The window's own colour, the most common one, is dark exactly with --dark.
        QCOMPARE(QColor::fromRgb(background).lightness() < 128, dark);
    }

    void screenshotFailsClearly()
    {
        QProcess console;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        console.setProcessEnvironment(env);
        console.start(QStringLiteral(REDLOCK_CONSOLE_BINARY),
                      {QStringLiteral("--screenshot"), m_dir.filePath(QStringLiteral("x.png"))});
        QVERIFY(console.waitForFinished(10000));
        QVERIFY(console.exitCode() != 0);
        QVERIFY(console.readAllStandardError().contains("--screenshot"));
    }
};

QTEST_MAIN(TestConsoleDemo)
#include "TestConsoleDemo.moc"
