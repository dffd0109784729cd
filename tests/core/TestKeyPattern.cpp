// core/observe/KeyPattern: Redis glob matching, as SCAN MATCH and keyspace channels apply it (no nodes).
#include "observe/KeyPattern.h"

#include <QtTest>

using namespace redlock;

class TestKeyPattern : public QObject
{
    Q_OBJECT

private slots:
    void globMatching()
    {
        QVERIFY(globMatches("*", "anything"));
        QVERIFY(globMatches("lock:*", "lock:a"));
        QVERIFY(!globMatches("lock:*", "other:a"));
        QVERIFY(globMatches("l?ck:[abc]", "lock:b"));
        QVERIFY(!globMatches("lock:[^abc]", "lock:b"));
        QVERIFY(globMatches("lock:[a-c]x", "lock:bx"));
        QVERIFY(globMatches("a\\*b", "a*b"));
        QVERIFY(!globMatches("a\\*b", "axb"));
        QVERIFY(globMatches(QByteArray("k\0*", 3), QByteArray("k\0zz", 4)));
    }
};

QTEST_GUILESS_MAIN(TestKeyPattern)
#include "TestKeyPattern.moc"
