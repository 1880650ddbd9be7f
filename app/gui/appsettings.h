// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QByteArray>
#include <QSettings>
#include <QStringList>
#include <optional>

namespace strobe {

enum class Theme { System, Light, Dark };

// Typed access to what Strobe remembers between runs: window layout, theme, recent files,
// the idle-gap threshold and the last view of each trace.
class AppSettings {
public:
    AppSettings(); // the application's QSettings
    explicit AppSettings(const QString& iniPath);

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

    void sync() { m_settings.sync(); }

private:
    QSettings m_settings;
};

} // namespace strobe
