// SPDX-License-Identifier: MIT
#include "model/analysis/nvtxstats.h"
#include "model/tracebuilder.h"
#include "tests/model/analysis/nvtxtestdata.h"

#include <gtest/gtest.h>
#include <map>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(NvtxStats, GroupsByQualifiedNameAndStyle) {
    const auto trace = nvtxTrace();
    const NvtxSummary s = summarizeNvtx(*trace);
    ASSERT_EQ(s.rows.size(), 3u);
    EXPECT_EQ(s.openRanges, 1u);
    EXPECT_EQ(s.rows[0].range, QStringLiteral("step"));
    EXPECT_EQ(s.rows[0].style, NvtxStyle::PushPop);
    EXPECT_EQ(s.rows[0].stats.count, 2u);
    EXPECT_EQ(s.rows[0].stats.total, 400);
    EXPECT_DOUBLE_EQ(s.rows[0].stats.median, 200.0);
    EXPECT_EQ(s.rows[1].range, QStringLiteral("step"));
    EXPECT_EQ(s.rows[1].style, NvtxStyle::StartEnd);
    EXPECT_EQ(s.rows[1].stats.stddev, 0.0);
    EXPECT_EQ(s.rows[2].range, QStringLiteral("MPI:MPI_Send"));
    // Share of the trace's wall time [0, 1000).
    EXPECT_NEAR(s.rows[0].wallPercent, 40.0, 1e-9);
}

// Issue 44, item 6: "Wall time %" summed every instance, nested ones and those on other threads
// included (121 % for aten::to on a real trace). It is the share of the trace covered by at
// least one instance: here [0, 600) and [100, 300) nested on thread 1 and [500, 900) on thread 2
// cover [0, 900) of the trace's [0, 1000): 90 %, not (600 + 200 + 400) / 1000 = 120 %.
TEST(NvtxStats, WallPercentIsTheShareOfTheUnionOfInstances) {
    TraceBuilder b(QStringLiteral("overlapping"));
    NvtxRecord pp;
    const StringId to = b.intern("aten::to"), step = b.intern("step");
    b.addNvtx(1, 1, kNoString, 0, 600, to, pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 100, 300, to, pp, std::nullopt);
    b.addNvtx(1, 2, kNoString, 500, 900, to, pp, std::nullopt);
    b.addNvtx(1, 3, kNoString, 0, 1000, step, pp, std::nullopt);
    b.addNvtx(1, 3, kNoString, 400, 450, b.intern("tiny"), pp, std::nullopt);
    const auto trace = b.finish();
    const NvtxSummary s = summarizeNvtx(*trace);
    ASSERT_EQ(s.rows.size(), 3u);
    EXPECT_EQ(s.rows[0].range, QStringLiteral("aten::to"));
    EXPECT_EQ(s.rows[0].stats.total, 1200); // the total still sums every instance
    EXPECT_DOUBLE_EQ(s.rows[0].wallPercent, 90.0);
    EXPECT_EQ(s.rows[1].range, QStringLiteral("step"));
    EXPECT_DOUBLE_EQ(s.rows[1].wallPercent, 100.0);
    EXPECT_DOUBLE_EQ(s.rows[2].wallPercent, 5.0);
    for (const NvtxSummaryRow& r : s.rows)
        EXPECT_LE(r.wallPercent, 100.0) << r.range.toStdString();
}

// The NVTX lane events of `trace` by their recorded text.
std::map<QString, EventRef> rangesByText(const Trace& t) {
    std::map<QString, EventRef> out;
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        for (std::uint32_t i = 0; l.kind() == LaneKind::Nvtx && i < l.size(); ++i)
            out[t.string(l.nameId(i))] = {li, i};
    }
    return out;
}

TEST(NvtxStats, GroupsPyTorchPerCallIdsByDefault) {
    const auto trace = pytorchTrace();
    const NvtxSummary s = summarizeNvtx(*trace);
    EXPECT_EQ(s.naming, RangeNaming::Grouped);
    ASSERT_EQ(s.rows.size(), 3u);
    EXPECT_EQ(s.openRanges, 1u);
    EXPECT_EQ(s.rows[0].range, QStringLiteral("aten::mm"));
    EXPECT_EQ(s.rows[0].stats.count, 3u);
    EXPECT_EQ(s.rows[0].stats.total, 100 + 300 + 50);
    EXPECT_EQ(s.rows[0].stats.min, 50);
    EXPECT_EQ(s.rows[0].rawNames, 3u);
    EXPECT_EQ(s.rows[0].instances.size(), 3u);
    EXPECT_EQ(s.rows[1].range, QStringLiteral("aten::relu"));
    EXPECT_EQ(s.rows[1].rawNames, 1u);
    EXPECT_EQ(s.rows[2].range, QStringLiteral("torch:aten::mm")); // the domain keeps it apart
}

TEST(NvtxStats, ProfilerStepsAreOneRowWithTheirInstances) {
    TraceBuilder b(QStringLiteral("steps"));
    for (int k = 0; k < 3; ++k)
        b.addNvtx(1, 1, kNoString, 100 * k, 100 * k + 90 - k,
                  b.intern("ProfilerStep#" + std::to_string(550 + k)), NvtxRecord{}, std::nullopt);
    const auto trace = b.finish();
    const NvtxSummary grouped = summarizeNvtx(*trace);
    ASSERT_EQ(grouped.rows.size(), 1u);
    EXPECT_EQ(grouped.rows[0].range, QStringLiteral("ProfilerStep"));
    EXPECT_EQ(grouped.rows[0].stats.count, 3u);
    EXPECT_EQ(grouped.rows[0].stats.total, 90 + 89 + 88);
    EXPECT_EQ(grouped.rows[0].rawNames, 3u);
    EXPECT_EQ(summarizeNvtx(*trace, RangeNaming::Raw).rows.size(), 3u);
}

TEST(NvtxStats, RawNamingKeepsOneRowPerRecordedName) {
    const auto trace = pytorchTrace();
    const NvtxSummary s = summarizeNvtx(*trace, RangeNaming::Raw);
    ASSERT_EQ(s.rows.size(), 5u);
    EXPECT_EQ(s.rows[0].range, QStringLiteral("aten::mm, op_id = 2"));
    EXPECT_EQ(s.rows[0].stats.total, 300);
    for (const NvtxSummaryRow& r : s.rows) {
        EXPECT_EQ(r.rawNames, 1u);
        EXPECT_EQ(r.stats.count, 1u);
    }
}

TEST(NvtxStats, RowOfFindsEachRangesRowAfterSorting) {
    const auto trace = pytorchTrace();
    const std::map<QString, EventRef> byText = rangesByText(*trace);
    for (RangeNaming naming : {RangeNaming::Grouped, RangeNaming::Raw}) {
        const NvtxSummary s = summarizeNvtx(*trace, naming);
        for (std::size_t row = 0; row < s.rows.size(); ++row) {
            for (EventRef ref : s.rows[row].instances)
                EXPECT_EQ(s.rowOf(*trace, ref), std::optional<std::size_t>(row));
        }
        EXPECT_EQ(s.rowOf(*trace, byText.at(QStringLiteral("aten::mm, op_id = 7"))),
                  std::nullopt); // a mark
        EXPECT_EQ(s.rowOf(*trace, byText.at(QStringLiteral("aten::mm, op_id = 8"))),
                  std::nullopt); // no end
        EXPECT_EQ(s.rowOf(*trace, EventRef{}), std::nullopt);
        EXPECT_EQ(s.rowOf(*trace, EventRef{999, 0}), std::nullopt);
    }
    const NvtxSummary grouped = summarizeNvtx(*trace);
    EXPECT_EQ(grouped.rowOf(*trace, byText.at(QStringLiteral("aten::mm, op_id = 2"))),
              std::optional<std::size_t>(0));
}

} // namespace
