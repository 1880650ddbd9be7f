// SPDX-License-Identifier: MIT
#pragma once

// What the bookmark store's tests and the GUI bookmarks' tests share: a file written in a
// temporary folder and a set with every kind of field.

#include "model/bookmarks.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace strobe::test {

inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    QString path = dir.filePath(name); // (not const: returned by move)
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    return path;
}

// Two view slots (one at the epoch's scale, one before zero) and two notes (one empty range,
// one with quotes, a line feed and non-ASCII letters).
inline BookmarkSet sampleBookmarks() {
    BookmarkSet s;
    s.views[0] = ViewBookmark{TimeRange{1'700'000'000'123'456'789, 1'700'000'000'223'456'789}, 40};
    s.views[8] = ViewBookmark{TimeRange{-5, 10}, 0};
    s.notes.push_back(BookmarkNote{TimeRange{100, 250}, QStringLiteral("the slow all-reduce")});
    s.notes.push_back(BookmarkNote{TimeRange{7, 7}, QStringLiteral("Ünïcode \"quoted\"\nline")});
    return s;
}

} // namespace strobe::test
