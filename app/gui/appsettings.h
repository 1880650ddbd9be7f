// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QByteArray>
#include <QSettings>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>
#include <optional>

namespace strobe {

enum class Theme { System, Light, Dark };

// Typed access to what Strobe remembers between runs: window layout, theme, recent files,
// the idle-gap threshold and the last view of each trace.
//
// A change is readable at once and reaches the disk on a thread of its own, shortly after (the
// next event-loop pass): QSettings would write it on the GUI thread, and its fdatasync takes
// milliseconds, at the end of every load.
class AppSettings {
public:
    AppSettings(); // the application's QSettings
    explicit AppSettings(const QString& iniPath);
    ~AppSettings(); // waits for a write under way, and writes what is still pending

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
    // traceCacheFolder() (under QStandardPaths::CacheLocation).
    bool traceCacheEnabled() const;
    void setTraceCacheEnabled(bool on);
    std::uint64_t traceCacheCapBytes() const;
    static QString traceCacheFolder();

    // Writes every change now, on the calling thread, and rereads what others wrote.
    void sync();

private:
    // QSettings that leaves the writing to its owner: a QSettings writes on its own thread
    // when the update request it posts itself arrives.
    class Store : public QSettings {
    public:
        using QSettings::QSettings;

    protected:
        bool event(QEvent* e) override;
    };

    void startWriter();
    void set(const QString& key, const QVariant& value);
    void writeInBackground();

    Store m_settings;
    QTimer m_writeSoon;   // a write on the next event-loop pass: changes made together, one write
    QThreadPool m_writer; // one thread; declared last, so that it finishes first
};

} // namespace strobe
