// SPDX-License-Identifier: MIT
#include "formats/cache/cachefolder.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace strobe {

QString cacheFolderProblem(const CacheFolderStat& st, std::uint32_t user) {
    if (st.isSymLink)
        return QStringLiteral("it is a symbolic link");
    if (!st.isDirectory)
        return QStringLiteral("it is not a folder");
    if (st.owner != user)
        return QStringLiteral("it belongs to another user");
    if ((st.mode & (S_IWGRP | S_IWOTH)) != 0)
        return QStringLiteral("users other than its owner can write to it");
    return {};
}

namespace {

CacheFolderStat folderStat(const struct stat& st) {
    CacheFolderStat s;
    s.isSymLink = S_ISLNK(st.st_mode);
    s.isDirectory = S_ISDIR(st.st_mode);
    s.owner = std::uint32_t(st.st_uid);
    s.mode = std::uint32_t(st.st_mode & 07777);
    return s;
}

// Creates the missing folders of `path`, each with mode 0700 (the umask can only take bits
// away); what exists already is left as it is and judged when opened.
bool makeFolders(const QByteArray& path) {
    struct stat st {};
    if (::lstat(path.constData(), &st) == 0)
        return true;
    if (errno != ENOENT)
        return false;
    const qsizetype slash = path.lastIndexOf('/');
    if (slash > 0 && !makeFolders(path.left(slash)))
        return false;
    return ::mkdir(path.constData(), 0700) == 0 || errno == EEXIST;
}

} // namespace

CacheFolder::CacheFolder(const QString& path, bool create) {
    const QByteArray p = QFile::encodeName(QDir::cleanPath(path)); // no trailing slash to follow
    if (create && !makeFolders(p)) {
        m_problem = QStringLiteral("it cannot be created");
        return;
    }
    m_fd = ::open(p.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (m_fd < 0) {
        const int error = errno;
        struct stat st {};
        if (error == ENOENT) {
            m_state = State::Missing;
            m_problem = QStringLiteral("it does not exist");
            return;
        }
        // A link or a file in its place is untrusted; any other failure only unusable.
        if (::lstat(p.constData(), &st) == 0)
            m_problem = cacheFolderProblem(folderStat(st), ::geteuid());
        if (!m_problem.isEmpty())
            m_state = State::Untrusted;
        else
            m_problem = QString::fromLocal8Bit(std::strerror(error));
        return;
    }
    struct stat st {};
    if (::fstat(m_fd, &st) != 0) {
        m_problem = QString::fromLocal8Bit(std::strerror(errno));
        return;
    }
    m_problem = cacheFolderProblem(folderStat(st), ::geteuid());
    m_state = m_problem.isEmpty() ? State::Usable : State::Untrusted;
}

CacheFolder::~CacheFolder() {
    if (m_fd >= 0)
        ::close(m_fd);
}

OpenedCacheEntry CacheFolder::openEntry(const QByteArray& name) const {
    using Status = OpenedCacheEntry::Status;
    OpenedCacheEntry e;
    struct stat st {};
    // lstat first, so that a FIFO or device is never opened (opening one can block or act).
    if (::fstatat(m_fd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        e.status = errno == ENOENT ? Status::Missing : Status::Failed;
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        e.status = Status::NotRegular;
        return e;
    }
    // Swapped for something else since: O_NOFOLLOW refuses a link, O_NONBLOCK a FIFO's wait,
    // and fstat tells what was opened.
    const int fd = ::openat(m_fd, name.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        e.status = errno == ELOOP    ? Status::NotRegular
                   : errno == ENOENT ? Status::Missing
                                     : Status::Failed;
        return e;
    }
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        e.status = Status::NotRegular;
        return e;
    }
    e.status = Status::Opened;
    e.fd = fd;
    e.bytes = std::uint64_t(st.st_size);
    e.device = std::uint64_t(st.st_dev);
    e.inode = std::uint64_t(st.st_ino);
    return e;
}

int CacheFolder::createTemporary(const QByteArray& name, QByteArray& tempName) const {
    for (int attempt = 0; attempt < 100; ++attempt) {
        tempName = name + '.' + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
        const int fd = ::openat(m_fd, tempName.constData(),
                                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

bool CacheFolder::rename(const QByteArray& from, const QByteArray& to) const {
    return ::renameat(m_fd, from.constData(), m_fd, to.constData()) == 0;
}

bool CacheFolder::remove(const QByteArray& name) const {
    return ::unlinkat(m_fd, name.constData(), 0) == 0;
}

std::vector<CacheFolderEntry> CacheFolder::list() const {
    std::vector<CacheFolderEntry> entries;
    const int fd = ::openat(m_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return entries;
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return entries;
    }
    while (const dirent* d = ::readdir(dir)) {
        if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0)
            continue;
        struct stat st {};
        if (::fstatat(m_fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        CacheFolderEntry e;
        e.name = QByteArray(d->d_name);
        e.regular = S_ISREG(st.st_mode);
        e.bytes = std::uint64_t(st.st_size);
        e.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
        entries.push_back(std::move(e));
    }
    ::closedir(dir);
    return entries;
}

std::optional<DiskSpace> CacheFolder::diskSpace() const {
    struct statvfs st {};
    if (m_fd < 0 || ::fstatvfs(m_fd, &st) != 0)
        return std::nullopt;
    DiskSpace d;
    d.totalBytes = std::uint64_t(st.f_blocks) * st.f_frsize;
    d.availableBytes = std::uint64_t(st.f_bavail) * st.f_frsize;
    return d;
}

} // namespace strobe
