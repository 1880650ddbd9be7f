// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>
#include <QVariant>
#include <functional>
#include <optional>

namespace strobe {

enum class Theme { System, Light, Dark };

// Typed access to what Strobe remembers between runs: window layout, theme, recent files,
// the idle-gap threshold and the last view of each trace.
//
// The values are read once, at construction, and kept here: reads and writes never touch
// QSettings on the GUI thread. Changes reach the disk on a thread of its own, on the next pass of
// the event loop, through a QSettings object that lives only there: a QSettings on the GUI thread
// would write (with an fdatasync of milliseconds) there at the end of every load, and Qt's lock on
// a settings file would make it wait for another thread's write.
class AppSettings {
public:
    AppSettings(); // the application's settings (QSettings' default, per organization and app)
    explicit AppSettings(const QString& iniPath);
    ~AppSettings(); // waits for a write under way, then writes what is still pending

    // Where the traces' bookmarks are kept (BookmarkStore): "bookmarks" beside the ini file, or
    // the configuration folder's for the application's settings.
    QString bookmarksDirectory() const;

    static constexpr int kMaxRecentFiles = 10;
    QStringList recentFiles() const;
    void addRecentFile(const QString& path); // moves it to the front
    void removeRecentFile(const QString& path);

    Theme theme() const;
    void setTheme(Theme t);

    TimeNs idleThresholdNs() const;
    void setIdleThresholdNs(TimeNs t);

    QByteArray windowGeometry() const;
    QByteArray windowState() const;
    void setWindowLayout(const QByteArray& geometry, const QByteArray& state);

    // The last visible range of a trace file, keyed by its absolute path.
    std::optional<TimeRange> lastView(const QString& path) const;
    void setLastView(const QString& path, TimeRange range);

    // The reopen cache (docs/CACHE.md): on unless turned off, at most traceCacheCapBytes(), in
    // traceCacheFolder() (under QStandardPaths::CacheLocation). The cap is the cache/capBytes
    // setting when it holds a positive number, else nullopt: sized from the folder's disk
    // (TraceCache::capForDisk).
    bool traceCacheEnabled() const;
    void setTraceCacheEnabled(bool on);
    std::optional<std::uint64_t> traceCacheCapBytes() const;
    static QString traceCacheFolder();

    // Writes every change now: waits for a write under way, then writes the rest here.
    void sync();

private:
    QVariant value(const QString& key, const QVariant& fallback = {}) const;
    void set(const QString& key, const QVariant& value);
    // The writes pending so far, to the settings this object was made for.
    std::function<void()> takePendingWrite();

    QString m_iniPath; // empty: QSettings' default
    QHash<QString, QVariant> m_values;
    QHash<QString, QVariant> m_pending; // set since the last write was handed over
    QTimer m_writeSoon;   // a write on the next event-loop pass: changes made together, one write
    QThreadPool m_writer; // one thread; declared last, so that it finishes first
};

} // namespace strobe
