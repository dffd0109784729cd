#include "runtime/PrivateFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redlock {

namespace {

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// Takes away from `path` the permission bits `allowed` lacks; a warning when they stay.
QString restrict(const QString& path, mode_t allowed)
{
    const QByteArray name = QFile::encodeName(path);
    struct stat info = {};
    if (::stat(name.constData(), &info) != 0 || !S_ISREG(info.st_mode))
        return {};
    const mode_t mode = info.st_mode & 07777;
    if ((mode & ~allowed & 0777) == 0)
        return {};
    if (::chmod(name.constData(), mode & allowed) == 0)
        return {};
    const int error = errno;
    return PrivateFile::tr("%1 holds lock tokens and others may read it (mode %2), and it cannot be made private "
                           "(%3): make it readable by its owner only (chmod 600)")
        .arg(QDir::toNativeSeparators(path), QString::number(mode & 0777, 8).rightJustified(4, u'0'), errnoText(error));
}

} // namespace

bool PrivateFile::makeFolder(const QString& dir, QString* error)
{
    const QString absolute = QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
    QStringList missing;
    for (QString d = absolute; !QFileInfo::exists(d); d = QFileInfo(d).path()) {
        missing.prepend(d);
        if (QFileInfo(d).path() == d)
            break;
    }
    for (const QString& d : std::as_const(missing)) {
        if (::mkdir(QFile::encodeName(d).constData(), 0700) != 0 && errno != EEXIST) {
            if (error)
                *error = tr("cannot create the folder %1: %2").arg(QDir::toNativeSeparators(d), errnoText(errno));
            return false;
        }
    }
    if (!QFileInfo(absolute).isDir()) {
        if (error)
            *error = tr("%1 is not a folder").arg(QDir::toNativeSeparators(absolute));
        return false;
    }
    return true;
}

bool PrivateFile::createIfMissing(const QString& path, bool* created, QString* error)
{
    if (created)
        *created = false;
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
        if (created)
            *created = true;
        return true;
    }
    if (errno == EEXIST)
        return true;
    if (error)
        *error = tr("cannot create %1: %2").arg(QDir::toNativeSeparators(path), errnoText(errno));
    return false;
}

QStringList PrivateFile::restrictToOwner(const QString& path, const QStringList& sideFiles)
{
    QStringList warnings;
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0 || !S_ISREG(info.st_mode))
        return warnings;
    const mode_t mode = info.st_mode & 0777;
    const mode_t allowed = (mode & S_IRWXO) != 0 ? mode_t(07700) : mode_t(07770);
    if (QString w = restrict(path, allowed); !w.isEmpty())
        warnings << w;
    ::stat(QFile::encodeName(path).constData(), &info);
    // A side file holds the same rows: never more open than the file itself.
    for (const QString& side : sideFiles) {
        if (QString w = restrict(side, (info.st_mode & 0777) | 07000); !w.isEmpty())
            warnings << w;
    }
    return warnings;
}

} // namespace redlock
