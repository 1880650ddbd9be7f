// SPDX-License-Identifier: MIT
// BookmarkStore: the files that keep each trace's bookmarks (round trip, keyed by the trace's
// identity, untrusted input), with Qt Core only: the GUI and strobe-cli render read one store.
#include "model/bookmarks.h"
#include "tests/model/bookmarktestdata.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;
using test::writeFile;

TEST(BookmarkStore, RoundTripsEveryFieldExactly) {
    QTemporaryDir dir;
    const QString trace = writeFile(dir, QStringLiteral("t.sqlite"), "trace bytes");
    const BookmarkStore store(dir.filePath(QStringLiteral("config/bookmarks")));
    ASSERT_EQ(store.save(trace, test::sampleBookmarks()), QString());
    const BookmarkLoad back = store.load(trace);
    EXPECT_EQ(back.warning, QString());
    EXPECT_TRUE(back.set == test::sampleBookmarks());
    EXPECT_EQ(back.set.views[0]->range.start, 1'700'000'000'123'456'789); // past 2^53: exact
    // Kept in the configuration folder, never beside the trace.
    EXPECT_TRUE(store.fileFor(trace).startsWith(dir.filePath(QStringLiteral("config/bookmarks/"))));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("t.sqlite")});
    // An empty set removes the file.
    ASSERT_EQ(store.save(trace, BookmarkSet{}), QString());
    EXPECT_FALSE(QFileInfo::exists(store.fileFor(trace)));
}

TEST(BookmarkStore, KeyedByPathAndSizeSoARewrittenTraceStartsEmpty) {
    QTemporaryDir dir;
    const QString a = writeFile(dir, QStringLiteral("a.json"), "{}");
    const QString b = writeFile(dir, QStringLiteral("b.json"), "{}");
    const BookmarkStore store(dir.filePath(QStringLiteral("cfg")));
    ASSERT_EQ(store.save(a, test::sampleBookmarks()), QString());
    EXPECT_NE(store.fileFor(a), store.fileFor(b));
    EXPECT_TRUE(store.load(b).set.isEmpty());
    writeFile(dir, QStringLiteral("a.json"), "{ \"longer\": 1 }"); // another size
    EXPECT_TRUE(store.load(a).set.isEmpty());
    EXPECT_EQ(store.fileFor(dir.filePath(QStringLiteral("missing"))), QString());
}

TEST(BookmarkStore, ADamagedOrHugeFileGivesOneWarningAndAnEmptySet) {
    QTemporaryDir dir;
    const QString trace = writeFile(dir, QStringLiteral("t.sqlite"), "x");
    const BookmarkStore store(dir.filePath(QStringLiteral("cfg")));
    ASSERT_EQ(store.save(trace, test::sampleBookmarks()), QString());
    const QString file = store.fileFor(trace);
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray good = f.readAll();
    f.close();

    const QList<QByteArray> bad{
        good.left(good.size() / 2),                  // truncated
        QByteArray(kMaxBookmarkFileBytes + 10, ' '), // huge
        QByteArray("[1, 2]"),                        // not an object
        QByteArray(R"({"version":1,"slots":[{"slot":12,"start":"0","end":"5","scrollY":0}]})"),
        QByteArray(R"({"version":1,"slots":[{"slot":1,"start":"9","end":"5","scrollY":0}]})"),
        QByteArray(R"({"version":1,"notes":[{"start":"1","end":"2","text":7}]})"),
        QByteArray(R"({"version":1,"notes":[{"start":"1","end":"2","text":")") +
            QByteArray(kMaxBookmarkNoteChars + 1, 'a') + "\"}]}",
        QByteArray(R"({"version":2})"),
        QByteArray(
            R"({"version":1,"notes":[{"start":"-9223372036854775807","end":"2","text":""}]})"),
    };
    for (const QByteArray& bytes : bad) {
        writeFile(dir, QStringLiteral("cfg/") + QFileInfo(file).fileName(), bytes);
        const BookmarkLoad l = store.load(trace);
        EXPECT_TRUE(l.set.isEmpty()) << bytes.left(80).toStdString();
        EXPECT_TRUE(l.warning.startsWith(QStringLiteral("The bookmarks file was ignored: ")))
            << l.warning.toStdString() << " for " << bytes.left(60).toStdString();
        EXPECT_TRUE(l.warning.endsWith(u'.')); // one sentence
    }
    // A note count beyond the bound is refused without reading the notes one by one.
    QByteArray many = R"({"version":1,"notes":[)";
    for (int i = 0; i <= kMaxBookmarkNotes; ++i)
        many += QByteArray(i ? "," : "") + R"({"start":"1","end":"2","text":""})";
    many += "]}";
    EXPECT_NE(parseBookmarks(many).warning, QString());
    EXPECT_TRUE(parseBookmarks(many).set.isEmpty());
}

// strobe-cli, whose application name is not the GUI's, finds the GUI's folder: the same path as
// the GUI's AppConfigLocation (organisation and application "strobe"), under any config home.
TEST(BookmarkStore, TheGuisFolderIsTheSameFromAnyProgram) {
    QTemporaryDir home;
    const QByteArray previous = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.path()));
    int argc = 1;
    char name[] = "strobe-cli";
    char* argv[] = {name, nullptr};
    {
        QCoreApplication app(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("strobe"));
        QCoreApplication::setApplicationName(QStringLiteral("strobe"));
        EXPECT_EQ(BookmarkStore::defaultDirectory(), BookmarkStore::guiDirectory());
        EXPECT_EQ(BookmarkStore::guiDirectory(),
                  home.path() + QStringLiteral("/strobe/strobe/bookmarks"));
        QCoreApplication::setOrganizationName(QStringLiteral("other"));
        QCoreApplication::setApplicationName(QStringLiteral("strobe-cli"));
        EXPECT_NE(BookmarkStore::defaultDirectory(), BookmarkStore::guiDirectory());
        EXPECT_EQ(BookmarkStore::guiDirectory(),
                  home.path() + QStringLiteral("/strobe/strobe/bookmarks"));
    }
    if (previous.isNull())
        qunsetenv("XDG_CONFIG_HOME");
    else
        qputenv("XDG_CONFIG_HOME", previous);
}
