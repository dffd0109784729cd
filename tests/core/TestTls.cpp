// TLS transport over QSslSocket against redis-server's TLS port, with a throwaway CA made at test time:
// verified connections work; a wrong CA, a wrong host name and a missing client certificate each fail
// with a clear error, never silently ignored.

#include "protocol/RedisConnection.h"
#include "redlock/RedlockClient.h"
#include "support/DirectRedis.h"
#include "support/TestCa.h"
#include "support/TestSupport.h"

#include <QProcess>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

class TestTls : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    LocalCluster m_cluster; // 0: TLS, client certs optional; 1: TLS, client certificate required
    quint16 m_tlsPort[2] = {0, 0};

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // The private CA (support/TestCa.h).
    bool makeCa(const QString& name) { return test::TestCa(m_dir.path()).makeCa(name); }
    bool makeCert(const QString& name, const QString& ca, const QString& san)
    {
        return test::TestCa(m_dir.path()).makeCert(name, ca, san);
    }

    NodeEndpoint tlsEndpoint(int node) const
    {
        NodeEndpoint ep;
        ep.host = QStringLiteral("127.0.0.1");
        ep.port = m_tlsPort[node];
        ep.tls = true;
        ep.caFile = path(QStringLiteral("ca.crt"));
        ep.serverName = QStringLiteral("localhost");
        return ep;
    }

    RedisReply roundTrip(const NodeEndpoint& ep, const QList<QByteArray>& args)
    {
        ConnectionOptions o;
        o.autoReconnect = false;
        RedisConnection c(ep, o);
        bool done = false;
        RedisReply reply;
        c.send(args, [&](const RedisReply& r) {
            reply = r;
            done = true;
        });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 15000); }();
        return reply;
    }

private slots:
    void initTestCase()
    {
        if (!QSslSocket::supportsSsl())
            QFAIL("Qt has no TLS backend (install libssl3 / the Qt OpenSSL plugin)");
        QVERIFY(m_dir.isValid());
        QVERIFY(makeCa(QStringLiteral("ca")));
        QVERIFY(makeCa(QStringLiteral("other-ca")));
        QVERIFY(makeCert(QStringLiteral("server"), QStringLiteral("ca"), QStringLiteral("DNS:localhost,IP:127.0.0.1")));
        QVERIFY(makeCert(QStringLiteral("client"), QStringLiteral("ca"), QStringLiteral("DNS:console")));
        for (int i = 0; i < 2; ++i) {
            m_tlsPort[i] = closedPort();
            LocalNodeOptions o;
            o.extraArgs = {
                QStringLiteral("--tls-port"),         QString::number(m_tlsPort[i]),
                QStringLiteral("--tls-cert-file"),    path(QStringLiteral("server.crt")),
                QStringLiteral("--tls-key-file"),     path(QStringLiteral("server.key")),
                QStringLiteral("--tls-ca-cert-file"), path(QStringLiteral("ca.crt")),
                QStringLiteral("--tls-auth-clients"), i == 0 ? QStringLiteral("optional") : QStringLiteral("yes")};
            QString error;
            QVERIFY2(m_cluster.addNode(o, &error) == i, qPrintable(error));
        }
    }

    void verifiedConnection()
    {
        const RedisReply r = roundTrip(tlsEndpoint(0), {"PING"});
        QVERIFY2(!r.isError(), qPrintable(r.errorText()));
        QCOMPARE(r.bytes(), QByteArray("PONG"));
    }

    void redlockOverTls()
    {
        IoThread io;
        RedlockOptions o;
        NodeEndpoint withCert = tlsEndpoint(1);
        withCert.certFile = path(QStringLiteral("client.crt"));
        withCert.keyFile = path(QStringLiteral("client.key"));
        o.nodes = {tlsEndpoint(0), withCert};
        o.nodeTimeoutMs = 2000;
        auto client = ownedOnIoThread(io, io.create<RedlockClient>(o));
        const AcquireResult r = client->acquireAndWait({"over-tls"}, {.ttlMs = 10000});
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.attempts.first().acquiredCount, 2);
        QCOMPARE(DirectRedis(m_cluster.port(0)).get("over-tls").value_or(QByteArray()), r.lock.token);
        QVERIFY(client->releaseAndWait(r.lock).ok);
    }

    void wrongCa()
    {
        NodeEndpoint ep = tlsEndpoint(0);
        ep.caFile = path(QStringLiteral("other-ca.crt"));
        const RedisReply r = roundTrip(ep, {"PING"});
        QCOMPARE(r.errorKind(), RedisErrorKind::Tls);
        QVERIFY2(r.errorText().contains(QStringLiteral("certificate"), Qt::CaseInsensitive), qPrintable(r.errorText()));
    }

    void wrongHostName()
    {
        NodeEndpoint ep = tlsEndpoint(0);
        ep.serverName = QStringLiteral("wrong.example");
        const RedisReply r = roundTrip(ep, {"PING"});
        QCOMPARE(r.errorKind(), RedisErrorKind::Tls);
        QVERIFY2(r.errorText().contains(QStringLiteral("host name"), Qt::CaseInsensitive), qPrintable(r.errorText()));
    }

    void missingClientCertificate()
    {
        const RedisReply r = roundTrip(tlsEndpoint(1), {"PING"});
        QVERIFY(r.isError());
        QVERIFY2(r.errorKind() == RedisErrorKind::Tls || r.errorKind() == RedisErrorKind::ConnectionLost,
                 qPrintable(errorKindName(r.errorKind())));
        QVERIFY(!r.errorText().isEmpty());

        NodeEndpoint withCert = tlsEndpoint(1);
        withCert.certFile = path(QStringLiteral("client.crt"));
        withCert.keyFile = path(QStringLiteral("client.key"));
        const RedisReply ok = roundTrip(withCert, {"PING"});
        QVERIFY2(!ok.isError(), qPrintable(ok.errorText()));
    }

    void unreadableFilesAreNamed()
    {
        NodeEndpoint ep = tlsEndpoint(0);
        ep.caFile = path(QStringLiteral("does-not-exist.crt"));
        const RedisReply r = roundTrip(ep, {"PING"});
        QCOMPARE(r.errorKind(), RedisErrorKind::Tls);
        QVERIFY2(r.errorText().contains(QStringLiteral("does-not-exist.crt")), qPrintable(r.errorText()));
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "TestTls.moc"
