// SPDX-License-Identifier: MIT
#pragma once
// What the reopen-cache suites share: their fixtures, a load through a cache folder, and reading
// and writing an entry's bytes.
#include "formats/cache/tracecache.h"
#include "formats/open.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace strobe {

inline const QString kFixtures = QStringLiteral(STROBE_FIXTURES_DIR);
inline const QString kSmallKineto =
    kFixtures + QStringLiteral("/kineto/small-before-fix.trace.json");
inline const QString kSmallNsys = kFixtures + QStringLiteral("/nsys/nsys2025.5-cuda-graphs.sqlite");

inline LoadResult loadCached(const QString& path, const QString& folder,
                             std::optional<std::uint64_t> cap = TraceCache::kMinDefaultCapBytes) {
    LoadOptions o;
    o.cacheFolder = folder;
    o.cacheCapBytes = cap;
    return loadTrace(path, o);
}

// The same with previews of traces of any size (an entry written by it holds one) collected in
// `previews`, in the order they came.
inline LoadResult loadCachedWithPreviews(const QString& path, const QString& folder,
                                         std::vector<std::unique_ptr<Trace>>& previews) {
    LoadOptions o;
    o.cacheFolder = folder;
    o.cacheCapBytes = TraceCache::kMinDefaultCapBytes;
    o.previewMinRows = 0;
    o.preview = [&previews](std::unique_ptr<Trace> t) { previews.push_back(std::move(t)); };
    return loadTrace(path, o);
}

// The entry's layout as tracecache.cpp documents it: a 96-byte header (the sizes of the
// payload's two parts at offsets 48 and 56, their CRC-32s at 64 and 68, the preview's size at
// 72 and CRC-32 at 80, its stage at 84), the canonical path in UTF-16, then the two parts, then
// the preview.
inline constexpr qsizetype kHeaderBytes = 96;
inline qsizetype payloadOffset(const QString& trace) {
    return kHeaderBytes + QFileInfo(trace).canonicalFilePath().size() * 2;
}
template <typename T> T headerField(const QByteArray& entry, qsizetype at) {
    T v{};
    std::memcpy(&v, entry.constData() + at, sizeof v);
    return v;
}
// Where the preview section starts, and its size.
inline qsizetype previewOffset(const QByteArray& entry, const QString& trace) {
    return payloadOffset(trace) + qsizetype(headerField<std::uint64_t>(entry, 48)) +
           qsizetype(headerField<std::uint64_t>(entry, 56));
}
inline qsizetype previewBytes(const QByteArray& entry) {
    return qsizetype(headerField<std::uint64_t>(entry, 72));
}

inline QString entryOf(const QString& folder, const QString& trace) {
    return TraceCache(folder).entryPath(QFileInfo(trace).canonicalFilePath());
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
    return f.readAll();
}

inline void writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    ASSERT_EQ(f.write(bytes), bytes.size());
}

} // namespace strobe
