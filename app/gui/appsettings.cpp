// SPDX-License-Identifier: MIT
#include "app/gui/appsettings.h"

#include "model/analysis/gaps.h"

#include <QCryptographicHash>
#include <QEvent>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStringBuilder>

namespace strobe {

namespace {
const QString kRecent = QStringLiteral("recentFiles");
const QString kTheme = QStringLiteral("theme");
const QString kIdle = QStringLiteral("idleThresholdNs");
const QString kCacheOn = QStringLiteral("cache/enabled");
const QString kCacheCap = QStringLiteral("cache/capBytes");
constexpr std::uint64_t kDefaultCacheCap = std::uint64_t(2) << 30; // TraceCache's default

QString viewKey(const QString& path) {
    const QByteArray abs = QFileInfo(path).absoluteFilePath().toUtf8();
    return QStringLiteral("views/") %
           QString::fromLatin1(QCryptographicHash::hash(abs, QCryptographicHash::Sha1).toHex());
}
} // namespace

bool AppSettings::Store::event(QEvent* e) {
    if (e->type() == QEvent::UpdateRequest)
        return true; // AppSettings::set writes on its thread instead
    return QSettings::event(e);
}

AppSettings::AppSettings() {
    startWriter();
}

AppSettings::AppSettings(const QString& iniPath)
    : m_settings(iniPath, QSettings::IniFormat) {
    startWriter();
}

void AppSettings::startWriter() {
    m_writer.setMaxThreadCount(1);
    m_writeSoon.setSingleShot(true);
    m_writeSoon.setInterval(0);
    m_writeSoon.callOnTimeout([this] { writeInBackground(); });
}

AppSettings::~AppSettings() {
    m_writer.waitForDone();
    m_settings.sync(); // what changed since the last write (none, usually)
}

void AppSettings::sync() {
    m_writer.waitForDone();
    m_settings.sync();
}

void AppSettings::set(const QString& key, const QVariant& value) {
    m_settings.setValue(key, value);
    if (!m_writeSoon.isActive())
        m_writeSoon.start();
}

void AppSettings::writeInBackground() {
    // A QSettings of the same file shares its contents with m_settings (Qt keeps one copy per
    // file in the process, behind a lock), so this one's sync writes m_settings's changes.
    m_writer.start([file = m_settings.fileName(), format = m_settings.format()] {
        QSettings(file, format).sync();
    });
}

QStringList AppSettings::recentFiles() const {
    return m_settings.value(kRecent).toStringList();
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
    const QString t = m_settings.value(kTheme).toString();
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
    const qint64 v = m_settings.value(kIdle).toLongLong(&ok);
    return ok && v > 0 ? v : kDefaultIdleThresholdNs;
}

void AppSettings::setIdleThresholdNs(TimeNs t) {
    set(kIdle, qint64(t));
}

QByteArray AppSettings::windowGeometry() const {
    return m_settings.value(QStringLiteral("window/geometry")).toByteArray();
}

QByteArray AppSettings::windowState() const {
    return m_settings.value(QStringLiteral("window/state")).toByteArray();
}

void AppSettings::setWindowLayout(const QByteArray& geometry, const QByteArray& state) {
    set(QStringLiteral("window/geometry"), geometry);
    set(QStringLiteral("window/state"), state);
}

std::optional<TimeRange> AppSettings::lastView(const QString& path) const {
    const QList<QVariant> v = m_settings.value(viewKey(path)).toList();
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
    return m_settings.value(kCacheOn, true).toBool();
}

void AppSettings::setTraceCacheEnabled(bool on) {
    set(kCacheOn, on);
}

std::uint64_t AppSettings::traceCacheCapBytes() const {
    bool ok = false;
    const qulonglong v = m_settings.value(kCacheCap).toULongLong(&ok);
    return ok && v > 0 ? std::uint64_t(v) : kDefaultCacheCap;
}

QString AppSettings::traceCacheFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) %
           QStringLiteral("/traces");
}

} // namespace strobe
