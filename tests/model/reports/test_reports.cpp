// SPDX-License-Identifier: MIT
// The machine-readable tables of strobe-cli (model/reports/reports.h): their columns and how
// each cell is written.
#include "model/reports/reports.h"

#include "tests/model/analysis/analysistestdata.h"
#include "tests/model/analysis/nvtxtestdata.h"

#include <QTextStream>

#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::test;

namespace {

TEST(KernelReports, EmptySummaryHasOnlyTheHeader) {
    const ReportTable t = kernelSummaryReport({});
    EXPECT_EQ(toCsv(t), QStringLiteral("name,time_percent,total_ns,instances,avg_ns,median_ns,"
                                       "min_ns,max_ns,stddev_ns\r\n"));
}

TEST(KernelReports, SummaryFormatsDecimalsAndQuotes) {
    const auto trace =
        kernelTrace({{"k", "void k<int, 2>(int)", 0, 3}, {"k", "void k<int, 2>(int)", 10, 4}});
    const QString csv =
        toCsv(kernelSummaryReport(summarizeKernels(*trace, KernelGrouping::DemangledName)));
    // Name with a comma is quoted; 2 decimals for the percentage, 1 for avg/median/stddev.
    EXPECT_EQ(csv.split(QStringLiteral("\r\n"))[1],
              QStringLiteral("\"void k<int, 2>(int)\",100.00,7,2,3.5,3.5,3,4,0.7"));
}

TEST(KernelReports, KernelListHasApiCallWithoutVersionSuffix) {
    const auto trace = kernelTrace({{"k", "k", 5000, 10}});
    const ReportTable t = kernelListReport(*trace);
    EXPECT_TRUE(t.rows.empty()) << "streamed, never materialised";
    ASSERT_EQ(t.rowCount(), 1u);
    std::vector<ReportCell> row;
    t.fillRow(0, row);
    ASSERT_EQ(row.size(), std::size_t(t.columns.size()));
    EXPECT_EQ(row[17].text, QStringLiteral("cudaLaunchKernel"));
    EXPECT_EQ(row[18].text, QStringLiteral("101"));
    EXPECT_EQ(row[3].text, QStringLiteral("10"));
}

TEST(MemoryReports, Columns) {
    const auto trace = memoryTrace();
    const QStringList lines = toCsv(memorySummaryReport(summarizeMemory(*trace))).split(u'\n');
    EXPECT_EQ(lines[0], QStringLiteral("direction,count,total_bytes,total_ns,avg_bandwidth_gbps,"
                                       "peak_bandwidth_gbps\r"));
    EXPECT_EQ(lines[1], QStringLiteral("host-to-device,2,40000,2000,20.000,30.000\r"));
    EXPECT_EQ(lines[5], QStringLiteral("memset,1,800,100,8.000,8.000\r"));
}

TEST(NvtxReports, ReportUsesStyleKeys) {
    const auto trace = nvtxTrace();
    const QStringList lines = toCsv(nvtxSummaryReport(summarizeNvtx(*trace))).split(u'\n');
    EXPECT_EQ(lines[1], QStringLiteral("step,pushpop,2,400,200.0,200.0,100,300,141.4\r"));
    EXPECT_EQ(lines[2], QStringLiteral("step,startend,1,50,50.0,50.0,50,50,0.0\r"));
    EXPECT_EQ(lines[3], QStringLiteral("MPI:MPI_Send,pushpop,1,10,10.0,10.0,10,10,0.0\r"));
}

TEST(NvtxReports, JsonIsAnArrayOfObjects) {
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
