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
#include <gtest/gtest.h>

namespace strobe {

inline const QString kFixtures = QStringLiteral(STROBE_FIXTURES_DIR);
inline const QString kSmallKineto =
    kFixtures + QStringLiteral("/kineto/small-before-fix.trace.json");
inline const QString kSmallNsys = kFixtures + QStringLiteral("/nsys/nsys2025.5-cuda-graphs.sqlite");

inline LoadResult loadCached(const QString& path, const QString& folder,
                             std::uint64_t cap = TraceCache::kDefaultCapBytes) {
    LoadOptions o;
    o.cacheFolder = folder;
    o.cacheCapBytes = cap;
    return loadTrace(path, o);
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
