// SPDX-License-Identifier: MIT
// The sampled passes' plan (formats/nsys/reader/gpupassplan.h): every rowid of a table in
// exactly one pass, the first pass spread over the whole table, the share read doubling pass by
// pass; and SqliteRowStream reading explicit rowid ranges with any number of workers.
#include "formats/nsys/reader/gpupassplan.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <limits>
#include <sqlite3.h>
#include <string>
#include <vector>

using namespace strobe;
using namespace strobe::nsysload;

namespace {

// Every pass's ranges of [first, last], in pass order.
std::vector<std::vector<RowidRange>> allPasses(std::int64_t first, std::int64_t last,
                                               std::uint64_t blockRows, std::uint32_t stride) {
    std::vector<std::vector<RowidRange>> out;
    out.reserve(std::size_t(passCount(stride)));
    for (int p = 0; p < passCount(stride); ++p)
        out.push_back(passRanges(first, last, blockRows, stride, p));
    return out;
}

// Checks that the passes cover [first, last] once: sorted together, the ranges abut.
void expectCoveredOnce(const std::vector<std::vector<RowidRange>>& passes, std::int64_t first,
                       std::int64_t last) {
    std::vector<RowidRange> all;
    for (const auto& p : passes) {
        for (std::size_t i = 1; i < p.size(); ++i)
            EXPECT_LT(p[i - 1].last, p[i].first) << "a pass's ranges rise";
        all.insert(all.end(), p.begin(), p.end());
    }
    std::sort(all.begin(), all.end(),
              [](const RowidRange& a, const RowidRange& b) { return a.first < b.first; });
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.front().first, first);
    EXPECT_EQ(all.back().last, last);
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_LE(all[i].first, all[i].last);
        if (i > 0) { // no gap, no overlap
            EXPECT_EQ(std::uint64_t(all[i].first), std::uint64_t(all[i - 1].last) + 1) << i;
        }
    }
}

} // namespace

TEST(GpuPassPlan, StridesGrowWithTheRows) {
    EXPECT_EQ(firstPassStride(0), 16u);
    EXPECT_EQ(firstPassStride(16 * kFirstPassRows), 16u);
    EXPECT_EQ(firstPassStride(16 * kFirstPassRows + 16), 32u);
    EXPECT_EQ(firstPassStride(100 * kFirstPassRows), 128u);
    EXPECT_EQ(firstPassStride(std::numeric_limits<std::uint64_t>::max()), kMaxPassStride);
    EXPECT_EQ(passCount(1), 1);
    EXPECT_EQ(passCount(16), 5);
    EXPECT_EQ(passCount(256), 9);
}

TEST(GpuPassPlan, EachBlockIsReadByOnePassAndTheShareDoubles) {
    // 100 blocks of 10 rowids (the last one short) under stride 16.
    const auto passes = allPasses(1, 995, 10, 16);
    ASSERT_EQ(passes.size(), 5u);
    expectCoveredOnce(passes, 1, 995);
    // Pass 0: blocks 0, 16, ..., 96; pass 1: 8, 24, ..., 88; then 4 mod 8, 2 mod 4, the odd ones.
    const std::vector<std::size_t> counts{7, 6, 12, 25, 50};
    std::size_t blocks = 0;
    for (std::size_t p = 0; p < passes.size(); ++p) {
        EXPECT_EQ(passes[p].size(), counts[p]) << p;
        blocks += passes[p].size();
        const std::uint64_t step = 16 >> p; // after pass p: every block that is a multiple
        for (std::uint64_t b = 0; b < 100; ++b) {
            const bool read = passOfBlock(b, 16) <= int(p);
            EXPECT_EQ(read, b % step == 0) << "block " << b << " after pass " << p;
        }
    }
    EXPECT_EQ(blocks, 100u);
    EXPECT_EQ(passes[0][1].first, 161); // spread: block 16 starts at 1 + 16 * 10
    EXPECT_EQ(passes[4].back().last, 995);
}

TEST(GpuPassPlan, TablesOfEveryShapeAreCoveredOnce) {
    constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    const std::pair<std::int64_t, std::int64_t> tables[] = {
        {1, 1}, {1, 1024}, {1, 1025}, {-5000, 5000}, {7, 3'000'000}, {lo, hi}, {hi - 3, hi}};
    for (const auto& [first, last] : tables) {
        SCOPED_TRACE(std::to_string(first) + ".." + std::to_string(last));
        for (const std::uint32_t stride : {16u, 256u}) {
            const std::uint64_t width = passBlockRows(first, last, stride);
            EXPECT_GE(width, kMinBlockRows);
            EXPECT_LE((std::uint64_t(last) - std::uint64_t(first)) / width + 1, kMaxPassBlocks);
            expectCoveredOnce(allPasses(first, last, width, stride), first, last);
        }
    }
    EXPECT_TRUE(passRanges(5, 4, 10, 16, 0).empty());
}

TEST(GpuPassPlan, ASmallTableGetsSmallerBlocksSoItsFirstPassIsSpreadToo) {
    // 3M kernel rows: 256-rowid blocks, 732 of them in the first pass under stride 16.
    EXPECT_EQ(passBlockRows(1, 3'000'000, 16), kPassBlockRows);
    EXPECT_EQ(passRanges(1, 3'000'000, kPassBlockRows, 16, 0).size(), 733u);
    // 160,000 memcpy rows: 157 rowids a block, 64 blocks in the first pass.
    EXPECT_EQ(passBlockRows(1, 160'000, 16), 157u);
    EXPECT_EQ(passRanges(1, 160'000, 157, 16, 0).size(), 64u);
    // A thousand rows: blocks of 16, four of them in the first pass; 250M rows under stride
    // 256: wider than 256 rowids, 16,384 blocks at most.
    EXPECT_EQ(passBlockRows(1, 1000, 16), kMinBlockRows);
    EXPECT_EQ(passBlockRows(1, 250'000'000, 256), 250'000'000u / kMaxPassBlocks + 1);
}

namespace {

// A table k of `rows` rows (rowid 1..rows, a = rowid * 3), written with SQLite's own API.
QString writeTable(const QTemporaryDir& dir, int rows) {
    QString path = dir.filePath(QStringLiteral("k.sqlite"));
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    std::string sql = "CREATE TABLE k (a INTEGER); BEGIN;";
    for (int i = 1; i <= rows; ++i)
        sql += "INSERT INTO k(rowid, a) VALUES (" + std::to_string(i) + ", " +
               std::to_string(i * 3) + ");";
    sql += "COMMIT;";
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    return path;
}

} // namespace

TEST(GpuPassPlan, AStreamOfRangesReadsThoseRowsInOrderWithAnyWorkers) {
    QTemporaryDir dir;
    const int rows = 30'000;
    const QString path = writeTable(dir, rows);
    const std::uint32_t stride = 16;
    const std::uint64_t width = 700; // blocks smaller than a chunk, and a short last one
    for (const int workers : {0, 1, 2}) {
        SCOPED_TRACE(std::to_string(workers) + " workers");
        SqliteDb db, scan[2];
        const SqliteGuard guard;
        QString error;
        ASSERT_TRUE(db.open(path, guard, &error));
        SqliteScanners by{&db, {}};
        for (int i = 0; i < workers; ++i) {
            ASSERT_TRUE(scan[i].open(path, guard, &error));
            by.workers.push_back(&scan[i]);
        }
        std::vector<int> timesRead(rows + 1, 0);
        for (int p = 0; p < passCount(stride); ++p) {
            const auto ranges = passRanges(1, rows, width, stride, p);
            SqliteRowStream st(by, nullptr, QStringLiteral("SELECT rowid, a FROM k"),
                               QStringLiteral("rowid"), ranges);
            ASSERT_TRUE(st.isValid());
            std::vector<std::int64_t> got, want;
            for (const RowidRange& r : ranges) {
                for (std::int64_t i = r.first; i <= r.last; ++i)
                    want.push_back(i);
            }
            while (st.step()) {
                const std::int64_t id = st.int64(0);
                ASSERT_EQ(st.int64(1), id * 3);
                // The range it came from, which the loader keys its rows by.
                ASSERT_LE(st.rowRange().first, id);
                ASSERT_GE(st.rowRange().last, id);
                got.push_back(id);
                ++timesRead[std::size_t(id)];
            }
            EXPECT_FALSE(st.hasError());
            EXPECT_EQ(got, want) << "pass " << p;
        }
        for (int i = 1; i <= rows; ++i)
            ASSERT_EQ(timesRead[std::size_t(i)], 1) << "rowid " << i;
    }
}
