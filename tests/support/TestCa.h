#pragma once

// A throwaway private CA made with openssl at test time, in a folder of the test's: a CA certificate and
// certificates it signs for given subjectAltNames (TestTls, TestCliTls). Files are <name>.crt and <name>.key.

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace redlock::test {

class TestCa
{
public:
    explicit TestCa(QString dir) : m_dir(std::move(dir)) {}

    QString path(const QString& name) const { return m_dir + u'/' + name; }

    bool openssl(const QStringList& args) const
    {
        QProcess p;
        p.setWorkingDirectory(m_dir);
        p.start(QStringLiteral("openssl"), args);
        return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    // A self-signed CA: <name>.crt and <name>.key.
    bool makeCa(const QString& name) const
    {
        return openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                        QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                        name + QStringLiteral(".key"), QStringLiteral("-out"), name + QStringLiteral(".crt"),
                        QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                        QStringLiteral("/CN=") + name});
    }

    // A certificate for `san` (e.g. "DNS:localhost,IP:127.0.0.1") signed by the CA `ca`.
    bool makeCert(const QString& name, const QString& ca, const QString& san) const
    {
        QFile ext(path(name + QStringLiteral(".ext")));
        if (!ext.open(QIODevice::WriteOnly))
            return false;
        ext.write("subjectAltName=" + san.toUtf8() + "\n");
        ext.close();
        return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                        QStringLiteral("-nodes"), QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                        QStringLiteral("-out"), name + QStringLiteral(".csr"), QStringLiteral("-subj"),
                        QStringLiteral("/CN=") + name}) &&
               openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                        name + QStringLiteral(".csr"), QStringLiteral("-CA"), ca + QStringLiteral(".crt"),
                        QStringLiteral("-CAkey"), ca + QStringLiteral(".key"), QStringLiteral("-CAcreateserial"),
                        QStringLiteral("-out"), name + QStringLiteral(".crt"), QStringLiteral("-days"),
                        QStringLiteral("2"), QStringLiteral("-extfile"), name + QStringLiteral(".ext")});
    }

private:
    QString m_dir;
};

} // namespace redlock::test
