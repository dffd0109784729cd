// The console reads a deployment's lock history (ConnectionProfile::history, HistoryFeature::setDeploymentHistory):
// the journal an always-on writer (`redlock exporter --journal`) keeps. Journals written through LockJournal (no
// mock): the span between two writers' sessions shows as "not watched", in the list and as a band on the timeline,
// never as a release; each interval says which writer saw it; a journal whose writer lock another process holds is
// read all the same, and the panel says it only reads it.
#include "controller/ClusterController.h"
#include "controller/ConnectionProfile.h"
#include "history/HistoryFeature.h"
#include "history/HistoryModel.h"
#include "history/HistoryPanel.h"
#include "history/HistoryTimeline.h"
#include "history/JournalStore.h"
#include "history/LockJournal.h"
#include "models/EventLogModel.h"
#include "support/ObservationTestSupport.h"
#include "support/TestSupport.h"
#include "views/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace redlock;

namespace {

// The instants the writers journal: set by the test, read on the journal's writer thread.
class ManualWallClock final : public WallClock
{
public:
    explicit ManualWallClock(qint64 ms) : m_ms(ms) {}
    qint64 nowMs() const override { return m_ms.load(); }
    void set(qint64 ms) { m_ms.store(ms); }

private:
    std::atomic<qint64> m_ms;
};

JournalEvent lockEvent(qint64 atMs, const QByteArray& key, const QString& kind, const QByteArray& token,
                       const QString& holder)
{
    JournalEvent e;
    e.atMs = atMs;
    e.key = key;
    e.kind = kind;
    e.token = token;
    e.holder = holder;
    return e;
}

} // namespace

class TestHistoryDeployment : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A deployment's history: `watch` saw client-a take orders:12 and stopped; two minutes nobody watched; then the
    // exporter started and found client-b holding it. Written through LockJournal, as the writers write it.
    QString writeJournalWithAGap(const QString& name, qint64 baseMs)
    {
        const QString path = m_dir.filePath(name);
        auto clock = std::make_shared<ManualWallClock>(baseMs);
        const auto writer = [&](const QString& source, const JournalEvent& event, qint64 stopMs) {
            JournalOptions o;
            o.path = path;
            o.source = source;
            o.clock = clock;
            o.flushIntervalMs = 50;
            LockJournal journal(o);
            journal.start();
            journal.record(QList<JournalEvent>{event});
            QFuture<bool> flushed = journal.flush();
            flushed.waitForFinished();
            QVERIFY(flushed.result());
            clock->set(stopMs); // the session ends here (the destructor)
        };
        writer(QStringLiteral("watch"),
               lockEvent(baseMs + 1000, "orders:12", QStringLiteral("acquired"), "tok-a", QStringLiteral("client-a")),
               baseMs + 60'000);
        clock->set(baseMs + 180'000);
        writer(
            QStringLiteral("exporter"),
            lockEvent(baseMs + 181'000, "orders:12", QStringLiteral("seen-held"), "tok-b", QStringLiteral("client-b")),
            baseMs + 240'000);
        return path;
    }

    static int rowWhere(const QAbstractItemModel* m, int column, const QString& text)
    {
        for (int row = 0; row < m->rowCount(); ++row) {
            if (m->index(row, column).data().toString() == text)
                return row;
        }
        return -1;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A profile names the deployment's history; it is saved and loaded with the profile.
    void profileNamesTheHistory()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("profiles.ini")), QSettings::IniFormat);
        ConnectionProfile p;
        p.name = QStringLiteral("prod");
        p.nodes = {NodeProfile{}};
        p.history = QStringLiteral("/var/lib/redlock/history.sqlite");
        ProfileStore::save(settings, p);
        const auto loaded = ProfileStore::load(settings, QStringLiteral("prod"));
        QVERIFY(loaded);
        QCOMPARE(loaded->history, p.history);
    }

    // Two writers' sessions with a gap between: the view lists the gap as "not watched" (a row of its own), the
    // timeline draws it as a band, the tenure that ended in it ends "while not watched" (never "released"), and
    // every interval names the writer that saw it.
    void gapShowsAsNotWatchedWithTheWriters()
    {
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3600'000;
        const QString path = writeJournalWithAGap(QStringLiteral("gap.sqlite"), base);
        if (QTest::currentTestFailed())
            return;

        ClusterController controller;
        MainWindow window(&controller);
        HistoryFeature history(&controller, &window, nullptr, std::nullopt); // --no-journal: reads the profile's only
        QAbstractItemModelTester tester(history.panel()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QSignalSpy finished(history.panel(), &HistoryPanel::searchFinished);
        history.setDeploymentHistory(path);
        history.dock()->show();
        QVERIFY(waitForCount(finished, 1, 10000));

        const auto* table = history.panel()->findChild<QTableView*>(QStringLiteral("historyTable"));
        QVERIFY(table);
        const QAbstractItemModel* m = table->model();
        const HistoryResult& r = history.panel()->model()->result();
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.intervals.size(), 2);
        QVERIFY(r.unwatched.size() >= 1);
        const UnwatchedSpan gap = r.unwatched.first();
        QCOMPARE(gap.fromMs, base + 60'000);
        QCOMPARE(gap.toMs, base + 180'000);

        // The gap: a row of its own, said as such, after the writer that stopped.
        const QString gapText = HistoryModel::unwatchedText(gap);
        QVERIFY2(gapText.startsWith(QLatin1String("not watched ")), qPrintable(gapText));
        const int gapRow = rowWhere(m, HistoryModel::KeyColumn, gapText);
        QVERIFY2(gapRow >= 0, qPrintable(gapText));
        QVERIFY(m->index(gapRow, 0).data(HistoryModel::UnwatchedRole).toBool());
        QCOMPARE(m->index(gapRow, HistoryModel::EndedColumn).data().toString(), QStringLiteral("not watched"));
        QCOMPARE(m->index(gapRow, HistoryModel::WriterColumn).data().toString(), QStringLiteral("after watch stopped"));

        // The tenures: client-a's ended in the gap, unseen; each names its writer, with its pid.
        const QString pid = QString::number(QCoreApplication::applicationPid());
        const int a = rowWhere(m, HistoryModel::HolderColumn, QStringLiteral("client-a"));
        const int b = rowWhere(m, HistoryModel::HolderColumn, QStringLiteral("client-b"));
        QVERIFY(a >= 0 && b >= 0);
        QVERIFY(!m->index(a, 0).data(HistoryModel::UnwatchedRole).toBool());
        QCOMPARE(m->index(a, HistoryModel::EndedColumn).data().toString(),
                 intervalEndName(QStringLiteral("ended-unwatched")));
        QVERIFY(m->index(a, HistoryModel::EndedColumn).data().toString() !=
                intervalEndName(QStringLiteral("released")));
        QCOMPARE(m->index(a, HistoryModel::WriterColumn).data().toString(), QStringLiteral("watch (pid %1)").arg(pid));
        QCOMPARE(m->index(b, HistoryModel::WriterColumn).data().toString(),
                 QStringLiteral("exporter (pid %1)").arg(pid));

        // The timeline of orders:12 (selected: the first row of a key): the gap as a band between the two bars,
        // labelled as in the list; each bar says who saw it.
        HistoryTimeline* timeline = history.panel()->timeline();
        QCOMPARE(timeline->key(), QByteArray("orders:12"));
        QCOMPARE(timeline->intervalCount(), 2);
        QVERIFY(timeline->unwatchedCount() >= 1);
        QCOMPARE(timeline->unwatchedLabel(0), gapText);
        timeline->resize(800, 220);
        timeline->grab();
        const QRect band = timeline->unwatchedRect(0);
        QVERIFY(band.isValid());
        QVERIFY(timeline->rect().contains(band));
        QStringList barLabels;
        for (int i = 0; i < timeline->intervalCount(); ++i) {
            barLabels << timeline->barLabel(i);
            QVERIFY(timeline->barRect(i).isValid());
        }
        QVERIFY2(barLabels.filter(QStringLiteral("seen by watch (pid %1)").arg(pid)).size() == 1,
                 qPrintable(barLabels.join(u'|')));
        QVERIFY2(barLabels.filter(QStringLiteral("seen by exporter (pid %1)").arg(pid)).size() == 1,
                 qPrintable(barLabels.join(u'|')));
        // The band lies between client-a's last sight and client-b's first.
        const QRect barA =
            timeline->barRect(int(barLabels.indexOf(barLabels.filter(QStringLiteral("seen by watch")).first())));
        const QRect barB =
            timeline->barRect(int(barLabels.indexOf(barLabels.filter(QStringLiteral("seen by exporter")).first())));
        QVERIFY(band.left() >= barA.right() - 1);
        QVERIFY(band.right() <= barB.left() + 1);

        // Selecting the gap's row keeps the key's timeline.
        auto* view = const_cast<QTableView*>(table);
        view->setCurrentIndex(m->index(gapRow, 0));
        QCOMPARE(timeline->key(), QByteArray("orders:12"));
    }

    // The exporter, another process, holds the journal's writer lock while the console shows it: the console reads
    // it (no failure, no "not being written"), and says it only reads it.
    void readsAJournalAnotherProcessWrites()
    {
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3600'000;
        const QString path = writeJournalWithAGap(QStringLiteral("held.sqlite"), base);
        if (QTest::currentTestFailed())
            return;

        // A port nothing listens on: the exporter keeps trying its node, and journals all along.
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 deadPort = closed.serverPort();
        closed.close();
        QProcess exporter;
        exporter.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        exporter.start(QStringLiteral(REDLOCK_CLI_PATH),
                       {QStringLiteral("exporter"), QStringLiteral("--nodes"),
                        QStringLiteral("127.0.0.1:%1").arg(deadPort), QStringLiteral("--listen"),
                        QStringLiteral("127.0.0.1:0"), QStringLiteral("--journal"), path});
        QVERIFY(exporter.waitForStarted(10000));
        const auto stop = qScopeGuard([&] {
            exporter.terminate();
            if (!exporter.waitForFinished(10000)) {
                exporter.kill();
                exporter.waitForFinished();
            }
        });
        // Its writer lock names it once it holds it.
        const QByteArray exporterPid = QByteArray::number(exporter.processId());
        const auto lockHolder = [&] {
            QFile lock(path + QStringLiteral("-writer.lock"));
            return lock.open(QIODevice::ReadOnly) ? lock.readLine().trimmed() : QByteArray();
        };
        QTRY_COMPARE_WITH_TIMEOUT(lockHolder(), exporterPid, 20000);
        {
            JournalStore store(path, 100);
            JournalStore::Error error;
            QVERIFY(!store.open(false, &error)); // held: no second writer
            QCOMPARE(error.failure, JournalStore::Failure::Busy);
        }

        // The console: its own journal elsewhere, the profile's history the exporter writes.
        JournalOptions own;
        own.path = m_dir.filePath(QStringLiteral("own.sqlite"));
        own.flushIntervalMs = 50;
        ClusterController controller;
        MainWindow window(&controller);
        HistoryFeature history(&controller, &window, nullptr, own);
        window.show();
        QSignalSpy finished(history.panel(), &HistoryPanel::searchFinished);
        history.setDeploymentHistory(path);
        history.dock()->show();
        QVERIFY(waitForCount(finished, 1, 10000));
        const HistoryResult& r = history.panel()->model()->result();
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.intervals.size(), 2);
        QFuture<bool> flushed = history.journal()->flush();
        flushed.waitForFinished();
        QVERIFY(flushed.result()); // the console's own journal is written as before
        QVERIFY(history.journal()->status().error.isEmpty());
        auto* status = history.panel()->findChild<QLabel*>(QStringLiteral("historyStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QLatin1String("reading only")), qPrintable(status->text()));
        QVERIFY2(!status->text().contains(QLatin1String("not being written")), qPrintable(status->text()));
        for (int row = 0; row < window.eventLog()->rowCount(); ++row)
            QVERIFY(window.eventLog()->entry(row).kindId != u"history-failed");
        QCOMPARE(exporter.state(), QProcess::Running); // it kept its lock all along
        QCOMPARE(lockHolder(), exporterPid);
    }
};

QTEST_MAIN(TestHistoryDeployment)
#include "TestHistoryDeployment.moc"
