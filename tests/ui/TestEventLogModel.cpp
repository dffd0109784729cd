#include "models/EventLogModel.h"
#include "views/EventLogPanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

using namespace redlock;

class TestEventLogModel : public QObject
{
    Q_OBJECT

    static LockEvent event(LockEvent::Kind kind, const QByteArray& key, qint64 atMs)
    {
        LockEvent e;
        e.kind = kind;
        e.key = key;
        e.token = "tok-" + key;
        e.atMs = atMs;
        e.holderSummary = QStringLiteral("host pid 1 (worker)");
        return e;
    }

private slots:
    void appendsInBatchesAndDropsTheOldest()
    {
        EventLogModel model(10);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QList<LockEvent> batch;
        for (int i = 0; i < 8; ++i)
            batch.append(event(LockEvent::Kind::Acquired, "k" + QByteArray::number(i), 1000 + i));
        model.addLockEvents(batch);
        QCOMPARE(inserted.size(), 1);
        model.addLockEvents(batch.mid(0, 5));
        QCOMPARE(removed.size(), 1);
        QCOMPARE(model.rowCount(), 10);
        QCOMPARE(model.entry(0).key, QByteArray("k3"));
        QCOMPARE(model.entriesForKey("k1", 5).size(), 1);
    }

    void panelFiltersByTextAndKind()
    {
        EventLogModel model;
        EventLogPanel panel(&model);
        QAbstractItemModelTester tester(panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addLockEvents({event(LockEvent::Kind::Acquired, "orders:1", 1),
                             event(LockEvent::Kind::Expired, "orders:2", 2),
                             event(LockEvent::Kind::Acquired, "cache:1", 3)});
        EventLogModel::Entry op;
        op.atMs = 4;
        op.source = EventLogModel::Source::OperatorAction;
        op.kind = QStringLiteral("force release");
        op.kindId = QStringLiteral("force-release");
        op.key = "orders:1";
        model.addEntries({op});
        panel.show();
        QCOMPARE(panel.proxy()->rowCount(), 4);
        // Newest first.
        QCOMPARE(panel.proxy()->index(0, EventLogModel::KeyColumn).data().toString(), QStringLiteral("orders:1"));
        QTest::keyClicks(panel.filterEdit(), QStringLiteral("orders"));
        QCOMPARE(panel.proxy()->rowCount(), 3);
        panel.kindBox()->setCurrentIndex(panel.kindBox()->findData(QStringLiteral("operator")));
        QCOMPARE(panel.proxy()->rowCount(), 1);
        panel.kindBox()->setCurrentIndex(panel.kindBox()->findData(QStringLiteral("expired")));
        QCOMPARE(panel.proxy()->rowCount(), 1);
        panel.filterEdit()->clear();
        panel.kindBox()->setCurrentIndex(0);
        QCOMPARE(panel.proxy()->rowCount(), 4);
    }
};

QTEST_MAIN(TestEventLogModel)
#include "TestEventLogModel.moc"
