// SPDX-License-Identifier: MIT
#include "model/bookmarks.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStringBuilder>

namespace strobe {

namespace {

constexpr int kFormatVersion = 1;
constexpr int kMaxScrollY = 100'000'000;

// Times are written as decimal strings: JSON numbers lose nanoseconds past 2^53.
std::optional<TimeNs> readTime(const QJsonValue& v) {
    if (!v.isString())
        return std::nullopt;
    bool ok = false;
    const qlonglong t = v.toString().toLongLong(&ok);
    // Within +-2^62 ns (146 years), as parseTime takes: margins around a range never overflow.
    constexpr qlonglong kLimit = qlonglong(1) << 62;
    return ok && t >= -kLimit && t <= kLimit ? std::optional<TimeNs>(t) : std::nullopt;
}

std::optional<TimeRange> readRange(const QJsonObject& o) {
    const auto s = readTime(o.value(QLatin1String("start")));
    const auto e = readTime(o.value(QLatin1String("end")));
    if (!s || !e || *e < *s)
        return std::nullopt;
    return TimeRange{*s, *e};
}

BookmarkLoad refused(const QString& why) {
    return BookmarkLoad{{}, QStringLiteral("The bookmarks file was ignored: ") % why % u'.'};
}

} // namespace

bool BookmarkSet::isEmpty() const {
    for (const auto& s : views)
        if (s)
            return false;
    return notes.empty();
}

BookmarkLoad parseBookmarks(const QByteArray& bytes) {
    if (bytes.size() > kMaxBookmarkFileBytes)
        return refused(QStringLiteral("it is larger than %1 bytes").arg(kMaxBookmarkFileBytes));
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return refused(QStringLiteral("it is not JSON (%1 at byte %2)")
                           .arg(error.errorString())
                           .arg(error.offset));
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value(QLatin1String("version")).toInt() != kFormatVersion)
        return refused(
            QStringLiteral("it is not a version %1 bookmarks object").arg(kFormatVersion));
    BookmarkLoad out;
    const QJsonArray views = root.value(QLatin1String("slots")).toArray();
    const QJsonArray notes = root.value(QLatin1String("notes")).toArray();
    if (views.size() > kBookmarkSlots || notes.size() > kMaxBookmarkNotes)
        return refused(QStringLiteral("it holds more than %1 view slots or %2 notes")
                           .arg(kBookmarkSlots)
                           .arg(kMaxBookmarkNotes));
    for (const auto& v : views) {
        const QJsonObject o = v.toObject();
        const int slot = o.value(QLatin1String("slot")).toInt(0);
        const int scroll = o.value(QLatin1String("scrollY")).toInt(-1);
        const auto range = readRange(o);
        if (slot < 1 || slot > kBookmarkSlots || scroll < 0 || scroll > kMaxScrollY || !range ||
            range->duration() <= 0 || out.set.views[size_t(slot - 1)])
            return refused(QStringLiteral("a view slot is damaged"));
        out.set.views[size_t(slot - 1)] = ViewBookmark{*range, scroll};
    }
    for (const auto& v : notes) {
        const QJsonObject o = v.toObject();
        const QJsonValue text = o.value(QLatin1String("text"));
        const auto range = readRange(o);
        if (!range || !text.isString() || text.toString().size() > kMaxBookmarkNoteChars)
            return refused(QStringLiteral("a note is damaged"));
        out.set.notes.push_back(BookmarkNote{*range, text.toString()});
    }
    return out;
}

QByteArray serializeBookmarks(const BookmarkSet& set, const QString& tracePath) {
    QJsonArray views, notes;
    const auto time = [](TimeNs t) { return QString::number(qlonglong(t)); };
    for (int i = 0; i < kBookmarkSlots; ++i)
        if (const auto& s = set.views[size_t(i)])
            views.append(QJsonObject{{QStringLiteral("slot"), i + 1},
                                     {QStringLiteral("start"), time(s->range.start)},
                                     {QStringLiteral("end"), time(s->range.end)},
                                     {QStringLiteral("scrollY"), s->scrollY}});
    for (const BookmarkNote& n : set.notes)
        notes.append(QJsonObject{{QStringLiteral("start"), time(n.range.start)},
                                 {QStringLiteral("end"), time(n.range.end)},
                                 {QStringLiteral("text"), n.text.left(kMaxBookmarkNoteChars)}});
    const QJsonObject root{{QStringLiteral("version"), kFormatVersion},
                           {QStringLiteral("trace"), tracePath},
                           {QStringLiteral("slots"), views},
                           {QStringLiteral("notes"), notes}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

BookmarkStore::BookmarkStore(QString directory)
    : m_directory(std::move(directory)) {}

QString BookmarkStore::defaultDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) %
           QStringLiteral("/bookmarks");
}

QString BookmarkStore::guiDirectory() {
    // What AppConfigLocation is for organisation and application "strobe" (main_gui.cpp).
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) %
           QStringLiteral("/strobe/strobe/bookmarks");
}

QString BookmarkStore::fileFor(const QString& tracePath) const {
    const QFileInfo info(tracePath);
    const QString canonical = info.canonicalFilePath();
    if (canonical.isEmpty() || !info.isFile())
        return {};
    const QString key = canonical % u'\n' % QString::number(info.size()) % u'\n' %
                        QString::number(info.lastModified().toMSecsSinceEpoch());
    const QByteArray hash =
        QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha256).toHex().left(32);
    return m_directory % u'/' % QString::fromLatin1(hash) % QStringLiteral(".json");
}

BookmarkLoad BookmarkStore::load(const QString& tracePath) const {
    const QString path = fileFor(tracePath);
    if (path.isEmpty() || !QFileInfo::exists(path))
        return {};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return refused(QStringLiteral("it cannot be read (") % f.errorString() % u')');
    if (f.size() > kMaxBookmarkFileBytes) // never read a huge file into memory
        return refused(QStringLiteral("it is larger than %1 bytes").arg(kMaxBookmarkFileBytes));
    return parseBookmarks(f.read(kMaxBookmarkFileBytes + 1));
}

QString BookmarkStore::save(const QString& tracePath, const BookmarkSet& set) const {
    const QString path = fileFor(tracePath);
    if (path.isEmpty())
        return QStringLiteral("The bookmarks cannot be kept: the trace file is gone.");
    if (set.isEmpty()) {
        QFile::remove(path);
        return {};
    }
    if (!QDir().mkpath(m_directory))
        return QStringLiteral("The bookmarks cannot be kept: cannot create ") % m_directory % u'.';
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(serializeBookmarks(set, tracePath)) < 0 ||
        !f.commit())
        return QStringLiteral("The bookmarks cannot be kept: ") % f.errorString() % u'.';
    return {};
}

} // namespace strobe
