// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace strobe {

// What the cache folder's own lstat says (a link is not followed), for the rule below.
struct CacheFolderStat {
    bool isSymLink = false;
    bool isDirectory = false;
    std::uint32_t owner = 0;
    std::uint32_t mode = 0; // the permission bits
};

// Empty when a folder described by `st` may hold the reopen cache of the user `user`: a folder
// of its own (not a symbolic link), owned by that user and writable by nobody else. Else why
// not, as the end of a sentence ("it is a symbolic link").
QString cacheFolderProblem(const CacheFolderStat& st, std::uint32_t user);

// One name in the cache folder, from lstat: a link is listed as itself, never as its target.
struct CacheFolderEntry {
    QByteArray name;
    bool regular = false;
    std::uint64_t bytes = 0;
    std::int64_t mtimeNs = 0;
};

// The file system that holds the cache folder, as statvfs says: its size and what an ordinary
// user may still write to it.
struct DiskSpace {
    std::uint64_t totalBytes = 0;
    std::uint64_t availableBytes = 0;
};

// An entry opened for reading. fd is the caller's to close (-1 unless status is Opened).
struct OpenedCacheEntry {
    enum class Status { Opened, Missing, NotRegular, Failed };
    Status status = Status::Failed;
    int fd = -1;
    std::uint64_t bytes = 0;
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
};

// The reopen cache's folder, held open while the cache works in it, so that every file is named
// relative to the folder that was checked (another folder or a link put in its place later is
// never used). Nothing here follows a symbolic link: entries are opened with O_NOFOLLOW, created
// with O_EXCL, replaced by rename (which replaces a link, not its target) and removed by unlink.
class CacheFolder {
public:
    enum class State {
        Usable,
        Missing,   // does not exist (and was not to be created)
        Unusable,  // cannot be created or opened (a file in the way, no permission)
        Untrusted, // a link, not a folder, another user's, or writable by others: problem()
    };

    // Opens the folder at `path`; with `create`, first creates its missing folders (mode 0700).
    CacheFolder(const QString& path, bool create);
    ~CacheFolder();
    CacheFolder(const CacheFolder&) = delete;
    CacheFolder& operator=(const CacheFolder&) = delete;

    State state() const { return m_state; }
    // Why the folder is not usable, as the end of a sentence; empty when it is.
    QString problem() const { return m_problem; }

    // Opens the regular file `name` to read without following a link and without blocking (a
    // FIFO or device is reported NotRegular, never opened).
    OpenedCacheEntry openEntry(const QByteArray& name) const;
    // Creates a new private file (mode 0600, O_EXCL | O_NOFOLLOW) named `name` plus a random
    // suffix, open for writing; its name in `tempName`. -1 on failure (errno says why).
    int createTemporary(const QByteArray& name, QByteArray& tempName) const;
    // Renames `from` to `to` in the folder, replacing whatever `to` names (a link itself).
    bool rename(const QByteArray& from, const QByteArray& to) const;
    // Unlinks `name`: a link is removed, never its target; a folder is left alone.
    bool remove(const QByteArray& name) const;
    // Every name in the folder but . and ..
    std::vector<CacheFolderEntry> list() const;
    // The folder's file system; nullopt when it cannot be asked.
    std::optional<DiskSpace> diskSpace() const;

private:
    int m_fd = -1;
    State m_state = State::Unusable;
    QString m_problem;
};

} // namespace strobe
