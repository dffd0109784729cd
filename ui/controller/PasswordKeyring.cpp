#include "controller/PasswordKeyring.h"

#include <QEventLoop>

#include <qt6keychain/keychain.h>

namespace redlock {

namespace {

// Runs one QtKeychain job to its end and turns its outcome into a Result.
PasswordKeyring::Result run(QKeychain::Job* job)
{
    // No plain-text file in place of a keyring: where none runs, the operator is told and chooses.
    job->setInsecureFallback(false);
    job->setAutoDelete(false);
    QEventLoop loop;
    QObject::connect(job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
    job->start();
    loop.exec();
    PasswordKeyring::Result result;
    switch (job->error()) {
    case QKeychain::NoError:
        result.ok = true;
        break;
    case QKeychain::EntryNotFound:
        result.notFound = true;
        result.error = PasswordKeyring::tr("the keyring holds no password for this node");
        break;
    case QKeychain::NoBackendAvailable:
        result.error = PasswordKeyring::tr("no keyring is running (Secret Service: gnome-keyring or KWallet); choose "
                                           "\"Ask at connect\" or an environment variable instead (%1)")
                           .arg(job->errorString());
        break;
    default:
        result.error = PasswordKeyring::tr("the keyring refused: %1").arg(job->errorString());
        break;
    }
    if (result.ok) {
        if (auto* read = qobject_cast<QKeychain::ReadPasswordJob*>(job))
            result.password = read->textData();
    }
    delete job;
    return result;
}

} // namespace

PasswordKeyring::PasswordKeyring(QString service) : m_service(std::move(service)) {}

PasswordKeyring::Result PasswordKeyring::store(const QString& key, const QString& password) const
{
    auto* job = new QKeychain::WritePasswordJob(m_service);
    job->setKey(key);
    job->setTextData(password);
    return run(job);
}

PasswordKeyring::Result PasswordKeyring::read(const QString& key) const
{
    auto* job = new QKeychain::ReadPasswordJob(m_service);
    job->setKey(key);
    return run(job);
}

PasswordKeyring::Result PasswordKeyring::remove(const QString& key) const
{
    auto* job = new QKeychain::DeletePasswordJob(m_service);
    job->setKey(key);
    return run(job);
}

QString PasswordKeyring::nodeKey(const QString& profile, const QString& address, const QString& user)
{
    return QStringLiteral("%1/%2/%3").arg(profile, address, user.isEmpty() ? QStringLiteral("default") : user);
}

} // namespace redlock
