// core/observe/KeySet: the set of key names a pass has seen (their fingerprints), against QSet<QByteArray> on the
// same keys, and on names that differ only late or in length, binary names, millions of names, reserve().
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

    // The set keeps a fingerprint of all of a name's bytes: names that differ only at their end, after a long
    // shared prefix, or only in their length, are different names.
    void namesSharingLongPrefixesAreDistinct()
    {
        KeySet set;
        const QByteArray prefix = QByteArray("lock:tenant-0042:orders:").repeated(200); // 4,800 bytes
        for (int i = 0; i < 2000; ++i)
            QVERIFY(set.insert(prefix + QByteArray::number(i)));
        QVERIFY(set.insert(prefix));
        for (int i = 0; i < 2000; ++i) {
            QVERIFY(set.contains(prefix + QByteArray::number(i)));
            QVERIFY(!set.insert(prefix + QByteArray::number(i)));
            QVERIFY(!set.contains(prefix + QByteArray::number(i + 2000)));
        }
        QVERIFY(!set.contains(prefix.chopped(1)));
        QVERIFY(!set.contains(prefix + prefix));
        QCOMPARE(set.size(), 2001);
    }

    // Every byte value, NUL included, and names of NULs alone, which differ only in their length.
    void binaryNamesAndTheEmptyName()
    {
        KeySet set;
        QVERIFY(!set.contains(QByteArray()));
        QVERIFY(set.insert(QByteArray()));
        for (int byte = 0; byte < 256; ++byte) {
            QVERIFY(set.insert(QByteArray(1, char(byte))));
            QVERIFY(set.insert(QByteArray("lock:") + char(byte) + "x"));
        }
        for (int length = 2; length <= 64; ++length)
            QVERIFY(set.insert(QByteArray(length, '\0')));
        QCOMPARE(set.size(), 1 + 256 + 256 + 63);
        QVERIFY(set.contains(QByteArray()));
        QVERIFY(!set.insert(QByteArray()));
        for (int length = 1; length <= 64; ++length)
            QVERIFY(set.contains(QByteArray(length, '\0')));
        QVERIFY(!set.contains(QByteArray(65, '\0')));
        QVERIFY(set.contains(QByteArray("lock:\xffx")));
        QVERIFY(!set.contains(QByteArray("lock:\xffy")));
        // Names that differ only by trailing NULs (Qt 6.4's AES hash alone gives them one hash, whatever the seed).
        for (const QByteArray& name : {QByteArray("lock:a"), QByteArray("lock:a\0", 7), QByteArray("lock:a\0\0", 8)})
            QVERIFY(set.insert(name));
        QVERIFY(set.contains(QByteArray("lock:a\0", 7)));
        QVERIFY(!set.contains(QByteArray("lock:a\0\0\0", 9)));
        QCOMPARE(set.size(), 1 + 256 + 256 + 63 + 3);
    }

    // Two million distinct names, past many growths of every segment: each one is in the set once, and a
    // million others are not (a lost or misplaced fingerprint after a rehash would show here).
    void manyNames()
    {
        KeySet set;
        constexpr int count = 2000000;
        for (int i = 0; i < count; ++i)
            QVERIFY(set.insert("lock:bench:" + QByteArray::number(i)));
        QCOMPARE(set.size(), count);
        for (int i = 0; i < count; ++i)
            QVERIFY(!set.insert("lock:bench:" + QByteArray::number(i)));
        for (int i = count; i < count + 1000000; ++i)
            QVERIFY(!set.contains("lock:bench:" + QByteArray::number(i)));
        QCOMPARE(set.size(), count);
    }

    // insertNew() on pages of keys, as a pass inserts each SCAN page: it keeps, in order, exactly the keys that
    // were new (a key twice in one page once, its first time), as QSet says, through the segments' growths.
    void insertNewKeepsThePageKeysThatWereNew()
    {
        KeySet set;
        QSet<QByteArray> reference;
        QRandomGenerator random(4242);
        for (int page = 0; page < 600; ++page) {
            QList<QByteArray> keys;
            const int size = int(random.bounded(1, 1200));
            for (int k = 0; k < size; ++k)
                keys.append("lock:page:" + QByteArray::number(random.bounded(200000u)));
            QList<QByteArray> expected;
            for (const QByteArray& key : std::as_const(keys)) {
                if (!reference.contains(key)) {
                    reference.insert(key);
                    expected.append(key);
                }
            }
            set.insertNew(keys);
            QCOMPARE(keys, expected);
            QCOMPARE(set.size(), reference.size());
        }
        for (const QByteArray& key : std::as_const(reference))
            QVERIFY(!set.insert(key));
        QList<QByteArray> none;
        set.insertNew(none);
        QVERIFY(none.isEmpty());
    }

    // reserve() before, between and after inserts (smaller, equal, larger than the size) keeps what is in the set.
    void reserveKeepsTheNames()
    {
        KeySet set;
        set.reserve(0);
        set.reserve(-1);
        QVERIFY(set.isEmpty());
        QVERIFY(!set.contains("lock:0"));
        set.reserve(10);
        for (int i = 0; i < 5000; ++i)
            QVERIFY(set.insert("lock:" + QByteArray::number(i)));
        set.reserve(100);
        set.reserve(5000);
        set.reserve(300000);
        for (int i = 0; i < 5000; ++i)
            QVERIFY(set.contains("lock:" + QByteArray::number(i)));
        for (int i = 5000; i < 200000; ++i)
            QVERIFY(set.insert("lock:" + QByteArray::number(i)));
        for (int i = 0; i < 200000; ++i)
            QVERIFY(!set.insert("lock:" + QByteArray::number(i)));
        QCOMPARE(set.size(), 200000);

        set = KeySet(); // as the inspector lets a pass's set go
        QVERIFY(set.isEmpty());
        QVERIFY(!set.contains("lock:0"));
        QVERIFY(set.insert("lock:0"));
        QCOMPARE(set.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestKeySet)
#include "TestKeySet.moc"
