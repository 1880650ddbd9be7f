// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QByteArray>
#include <QString>
#include <array>
#include <optional>
#include <vector>

// Bookmarks of a trace and the files that keep them: Qt Core only, so that the GUI (which makes
// and shows them, widgets/bookmarks.h) and strobe-cli render --bookmarks (which draws them) read
// one store.

namespace strobe {

// A stored view: the visible range and the timeline's vertical scroll (content pixels).
struct ViewBookmark {
    TimeRange range;
    int scrollY = 0;
    friend bool operator==(const ViewBookmark&, const ViewBookmark&) = default;
};

// A marked range (a measured range, or an event's extent) with the user's note.
struct BookmarkNote {
    TimeRange range;
    QString text;
    friend bool operator==(const BookmarkNote&, const BookmarkNote&) = default;
};

inline constexpr int kBookmarkSlots = 9; // slots 1 to 9 (Ctrl+1..9, 1..9)
// Bounds of what a bookmarks file may hold; a file beyond them is refused whole.
inline constexpr int kMaxBookmarkNotes = 1000;
inline constexpr int kMaxBookmarkNoteChars = 2000;
inline constexpr qint64 kMaxBookmarkFileBytes = 1 << 20;

// One trace's bookmarks: the view slots and the notes (in the order they were made).
struct BookmarkSet {
    std::array<std::optional<ViewBookmark>, kBookmarkSlots> views;
    std::vector<BookmarkNote> notes;
    bool isEmpty() const;
    friend bool operator==(const BookmarkSet&, const BookmarkSet&) = default;
};

// What loading a trace's bookmarks gave: the set, and one sentence when the file was refused
// (damaged, too big, out of bounds), in which case the set is empty.
struct BookmarkLoad {
    BookmarkSet set;
    QString warning;
};

// Keeps bookmark sets in files of one folder (the configuration folder, never beside the trace
// and never in it), one file per trace keyed by its canonical path, size and modification time:
// a trace rewritten in place starts with no bookmarks. Reads the files as untrusted input.
class BookmarkStore {
public:
    // `directory` is created on the first save.
    explicit BookmarkStore(QString directory);
    QString directory() const { return m_directory; }
    // QStandardPaths::AppConfigLocation + "/bookmarks": the running program's folder (the GUI's,
    // when the GUI asks; AppSettings::bookmarksDirectory).
    static QString defaultDirectory();
    // The GUI's default folder (organisation and application "strobe") whichever program asks:
    // strobe-cli, named otherwise, reads the GUI's bookmarks there.
    static QString guiDirectory();

    // The file that holds the bookmarks of `tracePath`; empty when the trace cannot be read.
    QString fileFor(const QString& tracePath) const;
    // The bookmarks of `tracePath`: empty without a file, empty with a warning for a bad one.
    BookmarkLoad load(const QString& tracePath) const;
    // Writes `set` (removes the file when it is empty). Returns the error sentence, or empty.
    QString save(const QString& tracePath, const BookmarkSet& set) const;

private:
    QString m_directory;
};

// Parses a bookmarks file's bytes; a warning sentence (and an empty set) for anything damaged,
// too big or out of bounds. Exposed for tests.
BookmarkLoad parseBookmarks(const QByteArray& bytes);
QByteArray serializeBookmarks(const BookmarkSet& set, const QString& tracePath);

} // namespace strobe
