#include "IoThread.h"
#include "LocalCluster.h"
#include "RedlockClient.h"

#include <QtTest>

using namespace redlock;

class TestRedlockClient : public QObject
{
    Q_OBJECT

private slots:
    void smoke()
    {
        LocalCluster cluster;
        QString error;
        QVERIFY2(cluster.start(5, {}, &error), qPrintable(error));
        IoThread io;
        RedlockOptions o;
        o.nodes = cluster.endpoints();
        auto* client = io.create<RedlockClient>(o);
        const AcquireResult r = client->acquireAndWait({"smoke"}, {});
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.attempts.size(), 1);
        qDebug() << r.attempts[0].acquiredCount << r.lock.token << r.attempts[0].elapsedUs;
        const AcquireResult r2 = client->acquireAndWait({"smoke"}, {.ttlMs = 5000, .retryCount = 0});
        QVERIFY(!r2.ok);
        qDebug() << r2.error << outcomeKindName(r2.attempts[0].nodes[0].kind) << r2.attempts[0].nodes[0].holderPttlMs;
        const ReleaseResult rel = client->releaseAndWait(r.lock);
        QVERIFY2(rel.ok, qPrintable(rel.error));
        const AcquireResult r3 = client->acquireAndWait({"a", "b"}, {.ttlMs = 5000, .fencing = true});
        QVERIFY2(r3.ok, qPrintable(r3.error));
        qDebug() << r3.lock.fencingToken;
        const ExtendResult ext = client->extendAndWait(r3.lock, 8000);
        QVERIFY2(ext.ok, qPrintable(ext.error));
    }
};

QTEST_GUILESS_MAIN(TestRedlockClient)
#include "TestRedlockClient.moc"
