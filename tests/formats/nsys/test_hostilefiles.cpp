// SPDX-License-Identifier: MIT
// Every hostile database of issue 16: each ends quickly with one sentence or with counted
// warnings, and nothing is written beside it.
#include "formats/open.h"
#include "tests/fixtures/hostilefixtures.h"

#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <sqlite3.h>

using namespace strobe;
using strobe::fixtures::HostileCase;

namespace {

// The folder's names, sizes and content hashes: what must not change when a file is read.
QStringList snapshot(const QString& dir) {
    QStringList out;
    for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Files | QDir::Hidden, QDir::Name)) {
        QFile file(f.filePath());
        EXPECT_TRUE(file.open(QIODevice::ReadOnly));
        out << f.fileName() + u' ' +
                   QString::fromLatin1(
                       QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256)
                           .toHex());
    }
    return out;
}

const TraceWarning* findWarning(const Trace& t, const QString& kind) {
    for (const TraceWarning& w : t.warnings()) {
        if (w.kind == kind)
            return &w;
    }
    return nullptr;
}

class HostileFiles : public ::testing::TestWithParam<HostileCase> {};

// The hostile case `name`, written to a temporary folder and loaded.
LoadResult loadHostileCase(const std::string& name) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QString::fromStdString(name) + QStringLiteral(".sqlite"));
    if (!fixtures::writeHostileCase(name, path.toStdString())) {
        ADD_FAILURE() << "cannot write the hostile case " << name;
        return {};
    }
    return loadTrace(path);
}

} // namespace

TEST_P(HostileFiles, EndWithinFiveSecondsWithOneSentenceOrWarnings) {
    const HostileCase& c = GetParam();
    QTemporaryDir dir;
    const QString path = dir.filePath(QString::fromStdString(c.name) + QStringLiteral(".sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase(c.name, path.toStdString()));
    if (!c.leavesFile.empty()) {
        ASSERT_TRUE(QFile::exists(path + QString::fromStdString(c.leavesFile)));
    }
    const QStringList before = snapshot(dir.path());
    QElapsedTimer timer;
    timer.start();
    const LoadResult r = loadTrace(path);
    EXPECT_LT(timer.elapsed(), fixtures::kHostileTimeLimitMs) << c.name;
    EXPECT_EQ(snapshot(dir.path()), before) << "nothing written beside " << c.name;
    const QString expect = QString::fromStdString(c.expect);
    if (c.loads) {
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        if (!expect.isEmpty()) {
            EXPECT_NE(findWarning(*r.trace, expect), nullptr) << c.name;
        }
        for (const TraceWarning& w : r.trace->warnings())
            EXPECT_FALSE(w.message.contains(u'\n')) << w.message.toStdString();
    } else {
        ASSERT_FALSE(r.ok());
        EXPECT_FALSE(r.cancelled);
        EXPECT_FALSE(r.error.contains(u'\n')) << r.error.toStdString();
        EXPECT_TRUE(r.error.contains(QFileInfo(path).fileName())) << r.error.toStdString();
        EXPECT_TRUE(r.error.contains(expect)) << r.error.toStdString();
        EXPECT_TRUE(r.error.endsWith(u'.')) << r.error.toStdString();
    }
}

// With previews (whose extent is guessed from each table's first and last rows) a hostile file
// ends as it does without them, and each preview's extent is a representable range.
TEST_P(HostileFiles, EndTheSameWithPreviews) {
    const HostileCase& c = GetParam();
    QTemporaryDir dir;
    const QString path = dir.filePath(QString::fromStdString(c.name) + QStringLiteral(".sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase(c.name, path.toStdString()));
    const LoadResult plain = loadTrace(path);
    std::vector<std::unique_ptr<Trace>> previews;
    LoadOptions o;
    o.previewMinRows = 0;
    o.earlyPreviewAfter = std::chrono::milliseconds(0);
    o.preview = [&](std::unique_ptr<Trace> t) { previews.push_back(std::move(t)); };
    const LoadResult r = loadTrace(path, o);
    EXPECT_EQ(r.ok(), plain.ok()) << c.name;
    EXPECT_EQ(r.error, plain.error) << c.name;
    if (r.ok()) {
        EXPECT_EQ(r.trace->timeRange(), plain.trace->timeRange()) << c.name;
    }
    for (const auto& p : previews) {
        EXPECT_LE(p->timeRange().start, p->timeRange().end) << c.name;
        EXPECT_GE(p->timeRange().start, kMinTime) << c.name;
        EXPECT_LE(p->timeRange().end, kMaxTime) << c.name;
    }
}

INSTANTIATE_TEST_SUITE_P(Issue16, HostileFiles, ::testing::ValuesIn(fixtures::hostileCases()),
                         [](const auto& info) {
                             std::string n = info.param.name;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

TEST(HostileFileDetails, ExtremeTimesAreClampedNotWrapped) {
    const LoadResult r = loadHostileCase("extreme-times");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(findWarning(*r.trace, QStringLiteral("time-out-of-range"))->count, 2u);
    EXPECT_EQ(r.trace->timeRange(), (TimeRange{kMinTime, kMaxTime}));
    for (std::size_t i = 0; i < r.trace->kernelCount(); ++i)
        EXPECT_GT(r.trace->kernelAt(i).duration(), 0);
}

TEST(HostileFileDetails, AHugeNameIsCutTo64KiB) {
    // StringIds holds an 8 MB name: kept whole, every report row naming it would repeat it.
    const LoadResult r = loadHostileCase("long-name");
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(findWarning(*r.trace, QStringLiteral("long-name"))->count, 1u);
    std::size_t longest = 0;
    for (StringId s = 0; s < r.trace->strings().size(); ++s)
        longest = std::max(longest, r.trace->strings().view(s).size());
    EXPECT_EQ(longest, kMaxNameBytes);
}

TEST(HostileFileDetails, RenamedOptionalColumnsAreNamedInWarnings) {
    const LoadResult r = loadHostileCase("renamed-optional-columns");
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->counts().kernels, 3u);
    EXPECT_EQ(r.trace->counts().cudaApiCalls, 7u);
    const TraceWarning* threads =
        findWarning(*r.trace, QStringLiteral("skipped-table:ThreadNames"));
    ASSERT_NE(threads, nullptr);
    EXPECT_EQ(
        threads->message,
        QStringLiteral("Table ThreadNames lacks the columns nameId; it was skipped (1 table)."));
    EXPECT_NE(findWarning(*r.trace, QStringLiteral("skipped-table:META_DATA_EXPORT")), nullptr);
    const TraceWarning* streams =
        findWarning(*r.trace, QStringLiteral("skipped-table:TARGET_INFO_CUDA_STREAM"));
    ASSERT_NE(streams, nullptr);
    EXPECT_TRUE(streams->message.contains(QStringLiteral("streamId")));
    EXPECT_NE(findWarning(*r.trace, QStringLiteral("skipped-table:TARGET_INFO_GPU")), nullptr);
}

TEST(HostileFileDetails, ViewsNamedLikeTablesAreNotRun) {
    const LoadResult r = loadHostileCase("view-endless-kernels");
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->counts().kernels, 0u);
    EXPECT_EQ(r.trace->counts().cudaApiCalls, 7u);
    EXPECT_EQ(findWarning(*r.trace, QStringLiteral("not-a-table"))->message,
              QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL (1) are views or virtual tables, not "
                             "ordinary tables; Strobe never runs a file's own SQL, so they were "
                             "not read."));
}

TEST(HostileFileDetails, StalePageCountThatSqliteAcceptsIsNotTruncation) {
    const LoadResult r = loadHostileCase("stale-page-count");
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->counts().kernels, 3u);
}

TEST(HostileFileDetails, HotJournalIsRefusedNotReadPast) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hot.sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase("hot-journal", path.toStdString()));
    const LoadResult r = loadTrace(path);
    ASSERT_FALSE(r.ok()) << "the audit read 0 CUDA API calls instead of 7 here";
    EXPECT_EQ(r.error, QStringLiteral("Cannot read 'hot.sqlite': it holds an unfinished write (a "
                                      "hot journal beside it) that a reader may not roll back; "
                                      "open it once with the sqlite3 tool to recover it."));
}

TEST(HostileFileDetails, ColdJournalBesideTheFileGivesAWarning) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cold.sqlite"));
    ASSERT_TRUE(fixtures::writeBaseExport(path.toStdString()));
    QFile journal(path + QStringLiteral("-journal"));
    ASSERT_TRUE(journal.open(QIODevice::WriteOnly)); // empty: not hot
    journal.close();
    const LoadResult r = loadTrace(path);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->counts().cudaApiCalls, 7u);
    EXPECT_NE(findWarning(*r.trace, QStringLiteral("journal-present")), nullptr);
}

TEST(HostileFileDetails, FileUnderAWritersLockIsNotRead) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("busy.sqlite"));
    ASSERT_TRUE(fixtures::writeBaseExport(path.toStdString()));
    sqlite3* writer = nullptr;
    ASSERT_EQ(sqlite3_open(path.toUtf8().constData(), &writer), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(writer, "BEGIN EXCLUSIVE; DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME;",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    const LoadResult r = loadTrace(path);
    sqlite3_exec(writer, "ROLLBACK;", nullptr, nullptr, nullptr);
    sqlite3_close(writer);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error, QStringLiteral("Cannot read 'busy.sqlite': another program is writing it "
                                      "(the database is locked)."));
}

TEST(HostileFileDetails, TimeBudgetStopsALongRead) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("slow.sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase("row-overflow", path.toStdString()));
    LoadOptions o;
    o.timeBudget = std::chrono::milliseconds(1);
    const LoadResult r = loadTrace(path, o);
    ASSERT_FALSE(r.ok());
    EXPECT_FALSE(r.cancelled);
    EXPECT_TRUE(r.error.startsWith(QStringLiteral("Cannot read 'slow.sqlite': reading it took "
                                                  "longer than 0.001 s")))
        << r.error.toStdString();
}

// Issue 14, item 5: the sentence is ours, names the table, says the file is damaged and what to
// do; SQLite's own text ("database disk image is malformed", "not an error") never leaks in.
TEST(HostileFileDetails, DamagedEventTableNamesTheTableAndTheRemedy) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dmg.sqlite"));
    ASSERT_TRUE(fixtures::writeHostileCase("damaged-event-table", path.toStdString()));
    for (int threads : {1, 2}) {
        LoadOptions o;
        o.threads = threads;
        const LoadResult r = loadTrace(path, o);
        ASSERT_FALSE(r.ok()) << threads;
        EXPECT_EQ(r.error,
                  QStringLiteral("Cannot read 'dmg.sqlite': the file is damaged (table "
                                 "NVTX_EVENTS holds a malformed page); export it again from its "
                                 "report with nsys export --type sqlite, or copy it again if it "
                                 "was copied."))
            << threads;
        EXPECT_FALSE(r.error.contains(QStringLiteral("error"))) << r.error.toStdString();
        EXPECT_FALSE(r.error.contains(QStringLiteral("disk image"))) << r.error.toStdString();
    }
}

TEST(HostileFileDetails, DamagedOptionalTableIsSkippedWithOurSentence) {
    const LoadResult r = loadHostileCase("damaged-optional-table");
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    EXPECT_EQ(r.trace->counts().kernels, 3u);
    const TraceWarning* w = findWarning(*r.trace, QStringLiteral("skipped-table:TARGET_INFO_GPU"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->message, QStringLiteral("Table TARGET_INFO_GPU is damaged (it holds a malformed "
                                         "page) and was skipped (1 table); export the file again "
                                         "from its report with nsys export --type sqlite."));
}
