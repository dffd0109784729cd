// core/observe/KeySet: the set of key names a pass has seen, against QSet<QByteArray> on the same keys.
#include "observe/KeySet.h"

#include <QRandomGenerator>
#include <QSet>
#include <QtTest>

using namespace redlock;

class TestKeySet : public QObject
{
    Q_OBJECT

private slots:
    void emptySetHoldsNothing()
    {
        const KeySet set;
        QVERIFY(set.isEmpty());
        QVERIFY(!set.contains(QByteArray()));
        QVERIFY(!set.contains("lock:a"));
    }

    void insertTellsWhetherTheKeyIsNew()
    {
        KeySet set;
        QVERIFY(set.insert("lock:a"));
        QVERIFY(!set.insert("lock:a"));
        QVERIFY(set.insert(QByteArray())); // the empty name is a name
        QVERIFY(!set.insert(QByteArray()));
        QVERIFY(set.insert(QByteArray("lock:\0a", 7))); // binary: NUL inside, not the end
        QVERIFY(set.contains(QByteArray("lock:\0a", 7)));
        QVERIFY(!set.contains(QByteArray("lock:\0b", 7)));
        QVERIFY(!set.contains("lock:")); // a prefix of a key is another key
        QVERIFY(!set.contains("lock:ab"));
        QCOMPARE(set.size(), 3);
    }

    // Half a million lookups as a pass makes them (every key named by several nodes, new keys meanwhile),
    // through every growth, with and without reserve(): the same answers as QSet, key for key.
    void agreesWithQSet_data()
    {
        QTest::addColumn<int>("reserved");
        QTest::newRow("growing from empty") << 0;
        QTest::newRow("reserved") << 100000;
    }

    void agreesWithQSet()
    {
        QFETCH(int, reserved);
        KeySet set;
        set.reserve(reserved);
        QSet<QByteArray> reference;
        QRandomGenerator random(12345);
        for (int i = 0; i < 500000; ++i) {
            // Same length and prefix, as the lock keys of one deployment; now and then a long or short one.
            const quint32 n = random.bounded(100000u);
            QByteArray key = "lock:bench:" + QByteArray::number(n);
            if (n % 97 == 0)
                key = key.repeated(20);
            else if (n % 89 == 0)
                key = QByteArray::number(n % 7);
            QCOMPARE(set.contains(key), reference.contains(key));
            const bool added = !reference.contains(key);
            reference.insert(key);
            QCOMPARE(set.insert(key), added);
            QCOMPARE(set.size(), reference.size());
        }
        for (const QByteArray& key : std::as_const(reference))
            QVERIFY(set.contains(key));
        for (int i = 0; i < 10000; ++i)
            QVERIFY(!set.contains("other:" + QByteArray::number(i)));
    }
};

QTEST_GUILESS_MAIN(TestKeySet)
#include "TestKeySet.moc"
