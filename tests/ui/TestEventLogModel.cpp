#include "models/EventLogModel.h"
#include "views/EventLogPanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTranslator>
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

    static QString shown(const EventLogModel& model, int row, int column, int role = Qt::DisplayRole)
    {
        return model.index(row, column).data(role).toString();
    }

    // Counts the translations asked for: a lock event's texts are made when read, not when added.
    class CountingTranslator final : public QTranslator
    {
    public:
        bool isEmpty() const override { return false; }
        QString translate(const char* context, const char*, const char*, int) const override
        {
            // (Qt itself asks for its layout direction when a translator is installed.)
            if (QByteArrayView(context).startsWith("redlock::"))
                ++calls;
            return {};
        }
        mutable int calls = 0;
    };

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
        op.texts.kind = QStringLiteral("force release");
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

    void showsTheTextsOfEachKindOfLockEvent()
    {
        EventLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const LockEvent seen = event(LockEvent::Kind::SeenHeld, "orders:1", 1);
        LockEvent changed = event(LockEvent::Kind::TokenChanged, "orders:2", 2);
        changed.token = "new-token";
        changed.previousToken = "old-token";
        changed.holderSummary.clear(); // the holder column shows the token then
        LockEvent lost = event(LockEvent::Kind::Lost, "orders:3", 3);
        lost.nodes = {0, 2};
        const LockEvent released = event(LockEvent::Kind::Released, "orders:4", 4);
        const LockEvent expired = event(LockEvent::Kind::Expired, "orders:5", 5);
        const LockEvent extended = event(LockEvent::Kind::Extended, "orders:6", 6);
        LockEvent contested = event(LockEvent::Kind::Contested, "orders:7", 7);
        contested.token.clear();
        contested.holderSummary.clear();
        model.addLockEvents({seen, changed, lost, released, expired, extended, contested});

        struct Expected
        {
            QString kind, kindId, holder, detail;
        };
        const QString holder = QStringLiteral("host pid 1 (worker)");
        const QList<Expected> expected = {
            {QStringLiteral("seen held"), QStringLiteral("seen-held"), holder,
             QStringLiteral("token tok-orders:1; already held when first seen: acquired earlier, when is not known")},
            {QStringLiteral("token changed"), QStringLiteral("token-changed"), QStringLiteral("new-token"),
             QStringLiteral("previous token old-token")},
            {QStringLiteral("lost on node restart"), QStringLiteral("lost-on-restart"), holder,
             QStringLiteral(
                 "token tok-orders:3; nodes #1, #3 restarted without it: its holder may still think it holds it")},
            {QStringLiteral("released"), QStringLiteral("released"), holder, QStringLiteral("token tok-orders:4")},
            {QStringLiteral("expired"), QStringLiteral("expired"), holder, QStringLiteral("token tok-orders:5")},
            {QStringLiteral("extended"), QStringLiteral("extended"), holder, QStringLiteral("token tok-orders:6")},
            {QStringLiteral("contested"), QStringLiteral("contested"), QString(), QString()},
        };
        QCOMPARE(model.rowCount(), expected.size());
        for (int row = 0; row < expected.size(); ++row) {
            const Expected& x = expected[row];
            QCOMPARE(shown(model, row, EventLogModel::KindColumn), x.kind);
            QCOMPARE(shown(model, row, EventLogModel::HolderColumn), x.holder);
            QCOMPARE(shown(model, row, EventLogModel::DetailColumn), x.detail);
            QCOMPARE(shown(model, row, EventLogModel::DetailColumn, Qt::ToolTipRole), x.detail);
            QCOMPARE(shown(model, row, EventLogModel::KindColumn, EventLogModel::RawValueRole), x.kindId);
            QCOMPARE(shown(model, row, EventLogModel::HolderColumn, EventLogModel::RawValueRole), x.holder);
            QCOMPARE(shown(model, row, EventLogModel::DetailColumn, EventLogModel::RawValueRole), x.detail);
            const EventLogModel::Entry& e = model.entry(row);
            QCOMPARE(e.kindId, x.kindId);
            QCOMPARE(e.kind(), x.kind);
            QCOMPARE(e.holder(), x.holder);
            QCOMPARE(e.detail(), x.detail);
        }
        // The entries about a key carry the same texts (the lock detail panel shows them).
        const auto about = model.entriesForKey("orders:2", 5);
        QCOMPARE(about.size(), 1);
        QCOMPARE(about[0].kind(), QStringLiteral("token changed"));
        QCOMPARE(about[0].holder(), QStringLiteral("new-token"));

        // An end nobody saw (keyspace events off): released or expired, between the two reads; never a time of its
        // own.
        LockEvent untold = event(LockEvent::Kind::ReleasedOrExpired, "orders:8", 8);
        untold.lastSeenHeldMs = QDateTime(QDate(2026, 11, 25), QTime(12, 0, 1, 250)).toMSecsSinceEpoch();
        untold.atMs = QDateTime(QDate(2026, 11, 25), QTime(12, 0, 6, 500)).toMSecsSinceEpoch();
        model.addLockEvents({untold});
        const int last = model.rowCount() - 1;
        QCOMPARE(shown(model, last, EventLogModel::KindColumn), QStringLiteral("released or expired"));
        QCOMPARE(shown(model, last, EventLogModel::DetailColumn),
                 QStringLiteral("token tok-orders:8; ended between 12:00:01.250 and 12:00:06.500, not observed"));
    }

    void escapesAndCutsTokens()
    {
        EventLogModel model;
        LockEvent changed = event(LockEvent::Kind::TokenChanged, "k1", 1);
        changed.holderSummary.clear();
        changed.token = QByteArray("new\x01tok\n", 8);
        changed.previousToken = QByteArray(100, 'x');
        LockEvent seen = event(LockEvent::Kind::SeenHeld, "k2", 2);
        seen.token = QByteArray("a\x1b[31mred\xff", 10);
        model.addLockEvents({changed, seen});
        QCOMPARE(shown(model, 0, EventLogModel::HolderColumn), QStringLiteral("new\\x01tok\\x0a"));
        QCOMPARE(shown(model, 0, EventLogModel::DetailColumn),
                 QStringLiteral("previous token ") + QString(60, u'x') + QStringLiteral("…"));
        QCOMPARE(shown(model, 1, EventLogModel::DetailColumn),
                 QStringLiteral(
                     "token a\\x1b[31mred\\xff; already held when first seen: acquired earlier, when is not known"));
    }

    void keepsTheLastEventsOfABatchLargerThanTheLog()
    {
        EventLogModel model; // holds 10,000
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QList<LockEvent> batch;
        for (int i = 0; i < 100000; ++i)
            batch.append(event(LockEvent::Kind::SeenHeld, "k" + QByteArray::number(i), i));
        model.addLockEvents(batch);
        QCOMPARE(model.capacity(), 10000);
        QCOMPARE(model.rowCount(), 10000);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(removed.size(), 0);
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.entry(row).key, "k" + QByteArray::number(90000 + row));
            QCOMPARE(model.entry(row).atMs, 90000 + row);
        }
        QCOMPARE(shown(model, 9999, EventLogModel::DetailColumn),
                 QStringLiteral("token tok-k99999; already held when first seen: acquired earlier, when is not known"));

        // The controller's slices of 2000 into the full log: one removal at the top and one insertion at the end
        // each.
        for (int slice = 0; slice < 5; ++slice) {
            model.addLockEvents(batch.mid(slice * 2000, 2000));
            QCOMPARE(removed.size(), slice + 1);
            QCOMPARE(inserted.size(), slice + 2);
            QCOMPARE(removed.last().at(1).toInt(), 0);
            QCOMPARE(removed.last().at(2).toInt(), 1999);
            QCOMPARE(inserted.last().at(1).toInt(), 8000);
            QCOMPARE(inserted.last().at(2).toInt(), 9999);
        }
        QCOMPARE(model.rowCount(), 10000);
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.entry(row).key, "k" + QByteArray::number(row));
    }

    void makesTheTextsWhenReadNotWhenAdded()
    {
        CountingTranslator translator;
        QVERIFY(QCoreApplication::installTranslator(&translator));
        EventLogModel model;
        for (int slice = 0; slice < 50; ++slice) {
            QList<LockEvent> events;
            for (int i = slice * 2000; i < (slice + 1) * 2000; ++i)
                events.append(event(LockEvent::Kind::SeenHeld, "k" + QByteArray::number(i), i));
            model.addLockEvents(events);
        }
        QCOMPARE(model.rowCount(), 10000);
        QCOMPARE(translator.calls, 0);
        QCOMPARE(shown(model, 0, EventLogModel::DetailColumn),
                 QStringLiteral("token tok-k90000; already held when first seen: acquired earlier, when is not known"));
        QVERIFY(translator.calls > 0);
        // Made once, then kept.
        const int calls = translator.calls;
        QCOMPARE(shown(model, 0, EventLogModel::KindColumn), QStringLiteral("seen held"));
        QCOMPARE(shown(model, 0, EventLogModel::DetailColumn, EventLogModel::RawValueRole),
                 QStringLiteral("token tok-k90000; already held when first seen: acquired earlier, when is not known"));
        QCOMPARE(translator.calls, calls);
        QVERIFY(QCoreApplication::removeTranslator(&translator));
    }

    void panelFindsLockEventsByTheirTexts()
    {
        EventLogModel model;
        EventLogPanel panel(&model);
        QAbstractItemModelTester tester(panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        LockEvent changed = event(LockEvent::Kind::TokenChanged, "orders:1", 1);
        changed.previousToken = "ancient-token";
        LockEvent lost = event(LockEvent::Kind::Lost, "orders:2", 2);
        lost.nodes = {4};
        LockEvent other = event(LockEvent::Kind::Acquired, "cache:1", 3);
        other.holderSummary = QStringLiteral("other host pid 2");
        model.addLockEvents({changed, lost, other});
        panel.show();
        QCOMPARE(panel.proxy()->rowCount(), 3);
        const QList<std::pair<QString, QString>> searches = {
            {QStringLiteral("ANCIENT-tok"), QStringLiteral("orders:1")},        // in the detail only
            {QStringLiteral("nodes #5 restarted"), QStringLiteral("orders:2")}, // in the detail only
            {QStringLiteral("other host"), QStringLiteral("cache:1")},          // the holder
            {QStringLiteral("token changed"), QStringLiteral("orders:1")},      // the kind's name
        };
        for (const auto& [text, key] : searches) {
            panel.filterEdit()->setText(text);
            QCOMPARE(panel.proxy()->rowCount(), 1);
            QCOMPARE(panel.proxy()->index(0, EventLogModel::KeyColumn).data().toString(), key);
        }
        panel.filterEdit()->clear();
        QCOMPARE(panel.proxy()->rowCount(), 3);
    }
};

QTEST_MAIN(TestEventLogModel)
#include "TestEventLogModel.moc"
