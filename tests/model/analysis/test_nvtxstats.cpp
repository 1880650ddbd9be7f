// SPDX-License-Identifier: MIT
#include "model/analysis/nvtxstats.h"
#include "model/itemmodels/nvtxsummarymodel.h"
#include "model/reports/reports.h"
#include "model/tracebuilder.h"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>
#include <map>

using namespace strobe;

namespace {

std::unique_ptr<Trace> nvtxTrace() {
    TraceBuilder b(QStringLiteral("synthetic"));
    const StringId step = b.intern("step"), send = b.intern("MPI_Send"), mpi = b.intern("MPI");
    const StringId load = b.intern("load"), mark = b.intern("tick");
    NvtxRecord pushPop;
    NvtxRecord startEnd;
    startEnd.style = NvtxStyle::StartEnd;
    NvtxRecord markRec;
    markRec.style = NvtxStyle::Mark;
    // Default domain push/pop "step": 100, 300 (even count: median 200).
    b.addNvtx(1, 1, kNoString, 0, 100, step, pushPop, std::nullopt);
    b.addNvtx(1, 1, kNoString, 200, 500, step, pushPop, std::nullopt);
    // Same text, start/end style: its own row.
    b.addNvtx(1, 1, kNoString, 600, 650, step, startEnd, 2u);
    // "MPI" domain: qualified name.
    b.addNvtx(1, 2, mpi, 10, 20, send, pushPop, std::nullopt);
    // A mark and an open range: not in the rows.
    b.addNvtx(1, 1, kNoString, 700, 700, mark, markRec, std::nullopt);
    NvtxRecord open = pushPop;
    open.hasEnd = false;
    b.addNvtx(1, 1, kNoString, 800, 1000, load, open, std::nullopt);
    return b.finish();
}

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

TEST(NvtxStats, ReportUsesStyleKeys) {
    const auto trace = nvtxTrace();
    const QStringList lines = toCsv(nvtxSummaryReport(summarizeNvtx(*trace))).split(u'\n');
    EXPECT_EQ(lines[1], QStringLiteral("step,pushpop,2,400,200.0,200.0,100,300,141.4\r"));
    EXPECT_EQ(lines[2], QStringLiteral("step,startend,1,50,50.0,50.0,50,50,0.0\r"));
    EXPECT_EQ(lines[3], QStringLiteral("MPI:MPI_Send,pushpop,1,10,10.0,10.0,10,10,0.0\r"));
}

TEST(NvtxStats, JsonIsAnArrayOfObjects) {
    const auto trace = nvtxTrace();
    QString out;
    QTextStream s(&out);
    writeJson(s, nvtxSummaryReport(summarizeNvtx(*trace)));
    s.flush();
    EXPECT_TRUE(out.startsWith(QStringLiteral("[\n {\"range\": \"step\", \"style\": \"pushpop\", "
                                              "\"instances\": 2, \"total_ns\": 400, \"avg_ns\": "
                                              "200.0,")));
    EXPECT_TRUE(out.endsWith(QStringLiteral("}\n]\n")));
}

// PyTorch-style names: three calls of aten::mm (each with its own ids, one with every suffix),
// one aten::relu, an aten::mm in a named domain (its own row), a mark and an open range.
std::unique_ptr<Trace> pytorchTrace() {
    TraceBuilder b(QStringLiteral("pytorch"));
    NvtxRecord pp;
    b.addNvtx(1, 1, kNoString, 0, 100, b.intern("aten::mm, op_id = 1"), pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 200, 500, b.intern("aten::mm, op_id = 2"), pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 600, 650,
              b.intern("aten::mm, seq = 3, op_id = 4, sizes = [[2, 2], [2, 2]], input_op_ids = "
                       "[(1, 0), (2, 0)]"),
              pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 700, 710, b.intern("aten::relu, op_id = 5"), pp, std::nullopt);
    b.addNvtx(1, 2, b.intern("torch"), 0, 5, b.intern("aten::mm, op_id = 6"), pp, std::nullopt);
    NvtxRecord mark;
    mark.style = NvtxStyle::Mark;
    b.addNvtx(1, 1, kNoString, 800, 800, b.intern("aten::mm, op_id = 7"), mark, std::nullopt);
    NvtxRecord open = pp;
    open.hasEnd = false;
    b.addNvtx(1, 1, kNoString, 900, 1000, b.intern("aten::mm, op_id = 8"), open, std::nullopt);
    return b.finish();
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

TEST(NvtxStats, SummaryModelSaysWhatAGroupedRowMerges) {
    NvtxSummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTrace(pytorchTrace());
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.index(0, NvtxSummaryModel::Range).data().toString(),
              QStringLiteral("aten::mm"));
    EXPECT_TRUE(model.index(0, NvtxSummaryModel::Range)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("aten::mm: 3 recorded names")));
    EXPECT_FALSE(model.index(1, NvtxSummaryModel::Range).data(Qt::ToolTipRole).isValid());
    model.setTrace(pytorchTrace(), RangeNaming::Raw);
    EXPECT_EQ(model.rowCount(), 5);
}

} // namespace
