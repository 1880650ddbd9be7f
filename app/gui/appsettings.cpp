// SPDX-License-Identifier: MIT
#include "app/gui/appsettings.h"

#include "model/analysis/gaps.h"
#include "widgets/bookmarks.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QStringBuilder>
#include <memory>
#include <utility>

namespace strobe {

namespace {
const QString kRecent = QStringLiteral("recentFiles");
const QString kTheme = QStringLiteral("theme");
const QString kIdle = QStringLiteral("idleThresholdNs");
const QString kCacheOn = QStringLiteral("cache/enabled");
const QString kCacheCap = QStringLiteral("cache/capBytes");

QString viewKey(const QString& path) {
    const QByteArray abs = QFileInfo(path).absoluteFilePath().toUtf8();
    return QStringLiteral("views/") %
           QString::fromLatin1(QCryptographicHash::hash(abs, QCryptographicHash::Sha1).toHex());
}
} // namespace

namespace {
// The settings an AppSettings was made for (`iniPath` empty: QSettings' default). Made on the
// thread that uses it: the GUI thread once, to read; the writer's thread for each write.
std::unique_ptr<QSettings> openSettings(const QString& iniPath) {
    return iniPath.isEmpty() ? std::make_unique<QSettings>()
                             : std::make_unique<QSettings>(iniPath, QSettings::IniFormat);
}
} // namespace

AppSettings::AppSettings()
    : AppSettings(QString()) {}

AppSettings::AppSettings(const QString& iniPath)
    : m_iniPath(iniPath) {
    {
        const std::unique_ptr<QSettings> s = openSettings(m_iniPath);
        for (const QString& key : s->allKeys())
            m_values.insert(key, s->value(key));
    }
    m_writer.setMaxThreadCount(1);
    m_writeSoon.setSingleShot(true);
    m_writeSoon.setInterval(0);
    m_writeSoon.callOnTimeout([this] { m_writer.start(takePendingWrite()); });
}

QString AppSettings::bookmarksDirectory() const {
    if (m_iniPath.isEmpty())
        return BookmarkStore::defaultDirectory();
    return QFileInfo(m_iniPath).absolutePath() % QStringLiteral("/bookmarks");
}

AppSettings::~AppSettings() {
    sync();
}

void AppSettings::sync() {
    m_writeSoon.stop();
    m_writer.waitForDone();
    if (!m_pending.isEmpty())
        takePendingWrite()();
}

QVariant AppSettings::value(const QString& key, const QVariant& fallback) const {
    return m_values.value(key, fallback);
}

void AppSettings::set(const QString& key, const QVariant& value) {
    m_values.insert(key, value);
    m_pending.insert(key, value);
    if (!m_writeSoon.isActive())
        m_writeSoon.start();
}

std::function<void()> AppSettings::takePendingWrite() {
    return [iniPath = m_iniPath, changes = std::exchange(m_pending, {})] {
        const std::unique_ptr<QSettings> s = openSettings(iniPath);
        for (auto it = changes.begin(); it != changes.end(); ++it)
            s->setValue(it.key(), it.value());
        s->sync();
    };
}

QStringList AppSettings::recentFiles() const {
    return value(kRecent).toStringList();
}

void AppSettings::addRecentFile(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    set(kRecent, files);
}

void AppSettings::removeRecentFile(const QString& path) {
    QStringList files = recentFiles();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    set(kRecent, files);
}

Theme AppSettings::theme() const {
    const QString t = value(kTheme).toString();
    if (t == QLatin1String("light"))
        return Theme::Light;
    if (t == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

void AppSettings::setTheme(Theme t) {
    set(kTheme, t == Theme::Light  ? QStringLiteral("light")
                : t == Theme::Dark ? QStringLiteral("dark")
                                   : QStringLiteral("system"));
}

TimeNs AppSettings::idleThresholdNs() const {
    bool ok = false;
    const qint64 v = value(kIdle).toLongLong(&ok);
    return ok && v > 0 ? v : kDefaultIdleThresholdNs;
}

void AppSettings::setIdleThresholdNs(TimeNs t) {
    set(kIdle, qint64(t));
}

QByteArray AppSettings::windowGeometry() const {
    return value(QStringLiteral("window/geometry")).toByteArray();
}

QByteArray AppSettings::windowState() const {
    return value(QStringLiteral("window/state")).toByteArray();
}

void AppSettings::setWindowLayout(const QByteArray& geometry, const QByteArray& state) {
    set(QStringLiteral("window/geometry"), geometry);
    set(QStringLiteral("window/state"), state);
}

std::optional<TimeRange> AppSettings::lastView(const QString& path) const {
    const QList<QVariant> v = value(viewKey(path)).toList();
    if (v.size() != 2)
        return std::nullopt;
    const TimeRange r{v[0].toLongLong(), v[1].toLongLong()};
    if (r.end <= r.start)
        return std::nullopt;
    return r;
}

void AppSettings::setLastView(const QString& path, TimeRange range) {
    set(viewKey(path), QList<QVariant>{qint64(range.start), qint64(range.end)});
}

bool AppSettings::traceCacheEnabled() const {
    return value(kCacheOn, true).toBool();
}

void AppSettings::setTraceCacheEnabled(bool on) {
    set(kCacheOn, on);
}

std::optional<std::uint64_t> AppSettings::traceCacheCapBytes() const {
    bool ok = false;
    const qulonglong v = value(kCacheCap).toULongLong(&ok);
    return ok && v > 0 ? std::optional(std::uint64_t(v)) : std::nullopt;
}

QString AppSettings::traceCacheFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) %
           QStringLiteral("/traces");
}

} // namespace strobe
