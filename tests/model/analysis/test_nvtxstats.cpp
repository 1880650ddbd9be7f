// SPDX-License-Identifier: MIT
#include "model/analysis/nvtxstats.h"
#include "model/analysis/reports.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

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

} // namespace
