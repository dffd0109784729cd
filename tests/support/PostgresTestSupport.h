#pragma once

// A real PostgreSQL server of the test's own (Debian's postgresql: initdb and pg_ctl), in a temporary folder, on a
// free loopback port, with its unix socket in that folder. It runs as an unprivileged user: as root (initdb refuses
// root), its processes run as nobody (65534) and the folder is given to nobody. The server is stopped and its folder
// removed when the object goes, whether the test passed or not. TCP connections need a password (scram-sha-256):
// the one the test gives libpq (PGPASSWORD) must be password(); the unix socket trusts (the test's own setup).

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QTcpServer>
#include <QTemporaryDir>

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redlock::test {

class LocalPostgres
{
public:
    static QString binDir() { return QStringLiteral("/usr/lib/postgresql/15/bin"); }
    static QString user() { return QStringLiteral("redlock"); }
    static QString password() { return QStringLiteral("s3cret-journal"); }

    LocalPostgres() = default;
    ~LocalPostgres() { stop(); }
    Q_DISABLE_COPY_MOVE(LocalPostgres)

    // initdb and start; false with *error (the tool's output) when it cannot.
    bool start(QString* error)
    {
        if (!m_dir.isValid()) {
            *error = QStringLiteral("no temporary folder");
            return false;
        }
        if (::geteuid() == 0 && ::chown(QFile::encodeName(m_dir.path()).constData(), 65534, 65534) != 0) {
            *error = QStringLiteral("cannot give the temporary folder to nobody");
            return false;
        }
        QFile pw(m_dir.filePath(QStringLiteral("pw")));
        if (!pw.open(QIODevice::WriteOnly) || pw.write(password().toUtf8() + '\n') < 0)
            return fail(error, QStringLiteral("cannot write the password file"));
        pw.close();
        if (::geteuid() == 0 && ::chown(QFile::encodeName(pw.fileName()).constData(), 65534, 65534) != 0)
            return fail(error, QStringLiteral("cannot give the password file to nobody"));
        if (!run(QStringLiteral("initdb"),
                 {QStringLiteral("-D"), dataDir(), QStringLiteral("-U"), user(),
                  QStringLiteral("--pwfile=") + pw.fileName(), QStringLiteral("--auth-local=trust"),
                  QStringLiteral("--auth-host=scram-sha-256"), QStringLiteral("-E"), QStringLiteral("UTF8"),
                  QStringLiteral("--no-sync")},
                 error))
            return false;
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return fail(error, QStringLiteral("no free port"));
        m_port = probe.serverPort();
        probe.close();
        return startServer(error);
    }

    // pg_ctl start on the same folder and port (after stopServer()).
    bool startServer(QString* error)
    {
        if (m_running)
            return true;
        const QString options =
            QStringLiteral("-p %1 -k %2 -c listen_addresses=127.0.0.1 -c fsync=off").arg(m_port).arg(m_dir.path());
        m_running = run(QStringLiteral("pg_ctl"),
                        {QStringLiteral("-D"), dataDir(), QStringLiteral("-o"), options, QStringLiteral("-l"),
                         m_dir.filePath(QStringLiteral("server.log")), QStringLiteral("-w"), QStringLiteral("-t"),
                         QStringLiteral("60"), QStringLiteral("start")},
                        error);
        return m_running;
    }

    // pg_ctl stop (fast: connections are cut, as when the server goes down under its clients).
    bool stopServer(QString* error = nullptr)
    {
        if (!m_running)
            return true;
        QString ignored;
        const bool ok = run(QStringLiteral("pg_ctl"),
                            {QStringLiteral("-D"), dataDir(), QStringLiteral("-m"), QStringLiteral("fast"),
                             QStringLiteral("-w"), QStringLiteral("stop")},
                            error ? error : &ignored);
        if (ok)
            m_running = false;
        return ok;
    }

    void stop()
    {
        if (m_running) {
            QString ignored;
            run(QStringLiteral("pg_ctl"),
                {QStringLiteral("-D"), dataDir(), QStringLiteral("-m"), QStringLiteral("immediate"),
                 QStringLiteral("-w"), QStringLiteral("stop")},
                &ignored);
            m_running = false;
        }
    }

    quint16 port() const { return m_port; }
    // postgresql://redlock@127.0.0.1:PORT/postgres (TCP: the password is asked).
    QString url() const { return QStringLiteral("postgresql://%1@127.0.0.1:%2/postgres").arg(user()).arg(m_port); }
    QString log() const
    {
        QFile f(m_dir.filePath(QStringLiteral("server.log")));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

private:
    QString dataDir() const { return m_dir.filePath(QStringLiteral("data")); }

    static bool fail(QString* error, const QString& message)
    {
        *error = message;
        return false;
    }

    bool run(const QString& tool, const QStringList& args, QString* error) const
    {
        QProcess p;
        p.setWorkingDirectory(m_dir.path());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("HOME"), m_dir.path());
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        if (::geteuid() == 0) {
            p.setChildProcessModifier([] {
                if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
                    ::_exit(127);
            });
        }
        p.start(binDir() + u'/' + tool, args);
        if (!p.waitForFinished(120'000)) {
            p.kill();
            p.waitForFinished();
            *error = tool + QStringLiteral(" did not finish: ") + QString::fromUtf8(p.readAll());
            return false;
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            *error = tool + QStringLiteral(" failed: ") + QString::fromUtf8(p.readAll());
            return false;
        }
        return true;
    }

    QTemporaryDir m_dir;
    quint16 m_port = 0;
    bool m_running = false;
};

} // namespace redlock::test
