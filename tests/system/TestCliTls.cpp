// The CLI's TLS options, redis-cli's spelling (--tls, --cacert, --cacertdir, --cert, --key, --sni, --insecure,
// SSL_CERT_FILE / SSL_CERT_DIR), against redis-server's tls-port with a private CA made by openssl at test time.

#include "support/CliTestSupport.h"
#include "support/TestCa.h"
#include "support/TestSupport.h"

#include <QDir>
#include <QProcess>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace redlock;

class TestCliTls : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    LocalCluster m_cluster; // 0: TLS, client certificates optional; 1: TLS, client certificate required
    quint16 m_tlsPort[2] = {0, 0};

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // The private CA (support/TestCa.h).
    bool makeCa(const QString& name) { return test::TestCa(m_dir.path()).makeCa(name); }
    bool makeCert(const QString& name, const QString& ca, const QString& san)
    {
        return test::TestCa(m_dir.path()).makeCert(name, ca, san);
    }

    QString node(int i) const { return QStringLiteral("127.0.0.1:%1").arg(m_tlsPort[i]); }

    // `redlock acquire` on one TLS node with extra options and environment.
    CliRun acquire(int nodeIndex, const QStringList& options, const QMap<QString, QString>& environment = {})
    {
        CliRun run;
        QProcess process;
        QProcessEnvironment env = cliEnvironment();
        env.remove(QStringLiteral("SSL_CERT_FILE"));
        env.remove(QStringLiteral("SSL_CERT_DIR"));
        for (auto it = environment.cbegin(); it != environment.cend(); ++it)
            env.insert(it.key(), it.value());
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(REDLOCK_CLI_PATH),
                      QStringList{QStringLiteral("acquire"), QStringLiteral("--nodes"), node(nodeIndex),
                                  QStringLiteral("--node-timeout"), QStringLiteral("3000"), QStringLiteral("--ttl"),
                                  QStringLiteral("60000")}
                          << options << QStringLiteral("tls:lock:%1").arg(++m_key));
        process.waitForFinished(60000);
        run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
        run.out = process.readAllStandardOutput();
        run.err = process.readAllStandardError();
        return run;
    }
    int m_key = 0;

private slots:
    void initTestCase()
    {
        QVERIFY2(QSslSocket::supportsSsl(), "Qt has no TLS backend");
        QVERIFY(m_dir.isValid());
        QVERIFY(makeCa(QStringLiteral("ca")));
        QVERIFY(makeCa(QStringLiteral("other-ca")));
        QVERIFY(makeCert(QStringLiteral("server"), QStringLiteral("ca"), QStringLiteral("DNS:localhost,IP:127.0.0.1")));
        QVERIFY(makeCert(QStringLiteral("client"), QStringLiteral("ca"), QStringLiteral("DNS:console")));
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("cadir")));
        QVERIFY(QFile::copy(path(QStringLiteral("ca.crt")), path(QStringLiteral("cadir/company-ca.pem"))));
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

    void verifiedWithThePrivateCa_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("value");
        const QString ca = path(QStringLiteral("ca.crt"));
        QTest::newRow("--cacert") << QStringList{QStringLiteral("--tls"), QStringLiteral("--cacert"), ca} << QString()
                                  << QString();
        QTest::newRow("--cacertdir") << QStringList{QStringLiteral("--tls"), QStringLiteral("--cacertdir"),
                                                    path(QStringLiteral("cadir"))}
                                     << QString() << QString();
        QTest::newRow("SSL_CERT_FILE") << QStringList{QStringLiteral("--tls")} << QStringLiteral("SSL_CERT_FILE") << ca;
        QTest::newRow("SSL_CERT_DIR") << QStringList{QStringLiteral("--tls")} << QStringLiteral("SSL_CERT_DIR")
                                      << path(QStringLiteral("cadir"));
        QTest::newRow("--sni localhost") << QStringList{QStringLiteral("--tls"), QStringLiteral("--cacert"), ca,
                                                        QStringLiteral("--sni"), QStringLiteral("localhost")}
                                         << QString() << QString();
    }
    void verifiedWithThePrivateCa()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, variable);
        QFETCH(QString, value);
        QMap<QString, QString> environment;
        if (!variable.isEmpty())
            environment.insert(variable, value);
        const CliRun run = acquire(0, options, environment);
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(!run.err.contains("insecure"), qPrintable(run.describe()));
    }

    void refusedWithoutTheRightCaOrName_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("system store") << QStringList{QStringLiteral("--tls")} << QByteArray("TLS");
        QTest::newRow("other CA") << QStringList{QStringLiteral("--tls"), QStringLiteral("--cacert"),
                                                 path(QStringLiteral("other-ca.crt"))}
                                  << QByteArray("TLS");
        QTest::newRow("wrong --sni") << QStringList{QStringLiteral("--tls"), QStringLiteral("--cacert"),
                                                    path(QStringLiteral("ca.crt")), QStringLiteral("--sni"),
                                                    QStringLiteral("elsewhere.example")}
                                     << QByteArray("TLS");
        // Asking for a CA without TLS is refused, never a silent plain-text connection.
        QTest::newRow("--cacert without --tls")
            << QStringList{QStringLiteral("--cacert"), path(QStringLiteral("ca.crt"))} << QByteArray("needs TLS");
        QTest::newRow("missing file") << QStringList{QStringLiteral("--tls"), QStringLiteral("--cacert"),
                                                     path(QStringLiteral("nothing.crt"))}
                                      << QByteArray("cannot read");
    }
    void refusedWithoutTheRightCaOrName()
    {
        QFETCH(QStringList, options);
        QFETCH(QByteArray, expected);
        const CliRun run = acquire(0, options);
        QVERIFY2(run.exitCode != 0, qPrintable(run.describe()));
        QVERIFY2(run.out.contains(expected) || run.err.contains(expected), qPrintable(run.describe()));
    }

    // --insecure connects without any CA, and says on stderr what that means.
    void insecureWarns()
    {
        const CliRun run = acquire(0, {QStringLiteral("--tls"), QStringLiteral("--insecure")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("warning: --insecure"), qPrintable(run.describe()));
    }

    void clientCertificate()
    {
        const QString ca = path(QStringLiteral("ca.crt"));
        const CliRun without = acquire(1, {QStringLiteral("--tls"), QStringLiteral("--cacert"), ca});
        QVERIFY2(without.exitCode != 0, qPrintable(without.describe()));
        const CliRun with = acquire(1, {QStringLiteral("--tls"), QStringLiteral("--cacert"), ca,
                                        QStringLiteral("--cert"), path(QStringLiteral("client.crt")),
                                        QStringLiteral("--key"), path(QStringLiteral("client.key"))});
        QVERIFY2(with.exitCode == 0, qPrintable(with.describe()));
    }
};

QTEST_GUILESS_MAIN(TestCliTls)
#include "TestCliTls.moc"
