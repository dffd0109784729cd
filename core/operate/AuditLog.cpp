#include "operate/AuditLog.h"

#include "observe/ObservationTypes.h"
#include "runtime/PrivateFile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMutex>
#include <QMutexLocker>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

namespace redlock {

namespace {

QMutex& writeMutex()
{
    static QMutex mutex;
    return mutex;
}

} // namespace

AuditLog::AuditLog(QString path) : m_path(path.isEmpty() ? defaultPath() : std::move(path)) {}

QString AuditLog::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/audit.jsonl");
}

QString AuditLog::osUser()
{
    // The uid is what the kernel vouches for; USER/LOGNAME only say who the session claims to be.
    if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_name)
        return QString::fromLocal8Bit(pw->pw_name);
    const QString fromEnv = qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME"));
    return fromEnv.isEmpty() ? QStringLiteral("uid:%1").arg(::geteuid()) : fromEnv;
}

QJsonObject AuditLog::bytesJson(const QByteArray& bytes)
{
    return {{QStringLiteral("base64"), QString::fromLatin1(bytes.toBase64())},
            {QStringLiteral("printable"), printableBytes(bytes, 1000)}};
}

bool AuditLog::append(const QString& action, const QString& profile, const QByteArray& key, const QByteArray& token,
                      const QJsonObject& details, QString* error) const
{
    QJsonObject line{
        {QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("user"), osUser()},
        {QStringLiteral("profile"), profile},
        {QStringLiteral("action"), action},
    };
    if (!key.isNull())
        line.insert(QStringLiteral("key"), bytesJson(key));
    if (!token.isNull())
        line.insert(QStringLiteral("token"), bytesJson(token));
    for (auto it = details.begin(); it != details.end(); ++it)
        line.insert(it.key(), it.value());
    const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';

    QMutexLocker lock(&writeMutex());
    const QString dir = QFileInfo(m_path).absolutePath();
    // Readable by its owner only: it names keys, tokens and who forced what.
    QString folderError;
    if (!PrivateFile::makeFolder(dir, &folderError)) {
        if (error)
            *error = tr("cannot create the audit log folder %1 (%2)").arg(dir, folderError);
        return false;
    }
    bool created = false;
    QString createError;
    if (!PrivateFile::createIfMissing(m_path, &created, &createError)) {
        if (error)
            *error = tr("cannot open the audit log %1: %2").arg(m_path, createError);
        return false;
    }
    // A log another user owns cannot be tightened here; the line is written all the same (the operator's action
    // must stay audited), as it always was to such a file.
    PrivateFile::restrictToOwner(m_path);
    QFile file(m_path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered)) {
        if (error)
            *error = tr("cannot open the audit log %1: %2").arg(m_path, file.errorString());
        return false;
    }
    if (file.write(bytes) != bytes.size()) {
        if (error)
            *error = tr("cannot write the audit log %1: %2").arg(m_path, file.errorString());
        return false;
    }
    // An audit line that a crash can lose is not much of an audit line: the data must reach the disk, and
    // for a new file so must its directory entry.
    if (::fsync(file.handle()) != 0) {
        const int savedErrno = errno;
        if (error)
            *error = tr("cannot sync the audit log %1 to disk: %2")
                         .arg(m_path, QString::fromLocal8Bit(std::strerror(savedErrno)));
        return false;
    }
    if (created) {
        const int dirFd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        const bool synced = dirFd >= 0 && ::fsync(dirFd) == 0;
        const int savedErrno = errno;
        if (dirFd >= 0)
            ::close(dirFd);
        if (!synced) {
            if (error)
                *error = tr("cannot sync the audit log folder %1 to disk: %2")
                             .arg(dir, QString::fromLocal8Bit(std::strerror(savedErrno)));
            return false;
        }
    }
    return true;
}

QList<QJsonObject> AuditLog::read(const QString& path, QString* error, int* badLines)
{
    QList<QJsonObject> out;
    if (badLines)
        *badLines = 0;
    QFile file(path);
    if (!file.exists())
        return out;
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("cannot open the audit log %1: %2").arg(path, file.errorString());
        return out;
    }
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray& l : lines) {
        if (l.trimmed().isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(l);
        if (doc.isObject())
            out.append(doc.object());
        else if (badLines)
            ++*badLines;
    }
    return out;
}

} // namespace redlock
