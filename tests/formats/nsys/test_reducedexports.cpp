// SPDX-License-Identifier: MIT
// Issue 14, item 6: reduced exports (trimmed by other tools for sharing) whose event tables lack
// columns that only add detail still load; what is missing reads as unknown, with one counted
// warning per table naming the columns. Built from a real fixture in the test, checked against
// SQL on that fixture.
#include "formats/nsys/writer/nsyswriter.h"
#include "formats/open.h"
#include "model/reports/eventdetails.h"
#include "model/reports/reports.h"
#include "model/trace.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <tuple>

using namespace strobe;

// What the writer (and strobe-capture) writes for an unknown memory kind reads back as unknown.
static_assert(nsys::kUnknownMemoryKind == std::uint8_t(MemoryKind::Unknown));

namespace {

const std::string kFixture = "nsys2024.5-cloverleaf.sqlite";

// A copy of the fixture in which `table` keeps only `keep` (CREATE TABLE ... AS SELECT).
class ReducedExport : public ::testing::Test {
protected:
    QString reduce(const std::vector<std::pair<std::string, std::string>>& tables) {
        const QString copy = dir.filePath(QStringLiteral("reduced.sqlite"));
        QFile::remove(copy);
        EXPECT_TRUE(QFile::copy(QString::fromStdString(test::fixturePath(kFixture)), copy));
        QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        for (const auto& [table, keep] : tables)
            test::exec(copy.toStdString(), "CREATE TABLE reduced AS SELECT " + keep + " FROM " +
                                               table + "; DROP TABLE " + table +
                                               "; ALTER TABLE reduced RENAME TO " + table + ";");
        return copy;
    }
    const TraceWarning* warning(const Trace& t, const QString& kind) {
        for (const TraceWarning& w : t.warnings()) {
            if (w.kind == kind)
                return &w;
        }
        return nullptr;
    }
    QTemporaryDir dir;
    const std::string fixture = test::fixturePath(kFixture);
};

const char* const kKernelKeep = "start, end, deviceId, streamId, correlationId, globalPid, "
                                "demangledName, gridX, gridY, gridZ, blockX, blockY, blockZ";

} // namespace

TEST_F(ReducedExport, KernelsWithoutContextRegistersOrShortNameLoad) {
    const QString path = reduce({{"CUPTI_ACTIVITY_KIND_KERNEL", kKernelKeep}});
    const LoadResult r = loadTrace(path);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const Trace& t = *r.trace;
    const auto rows =
        std::uint64_t(test::queryInt(fixture, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    ASSERT_EQ(rows, 1312u);
    ASSERT_EQ(t.kernelCount(), rows);

    const TraceWarning* w =
        warning(t, QStringLiteral("missing-columns:CUPTI_ACTIVITY_KIND_KERNEL"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->count, rows);
    EXPECT_EQ(w->message,
              QStringLiteral("Table CUPTI_ACTIVITY_KIND_KERNEL lacks the columns contextId, "
                             "shortName, mangledName, launchType, cacheConfig, "
                             "registersPerThread, staticSharedMemory, dynamicSharedMemory, "
                             "localMemoryPerThread, localMemoryTotal, sharedMemoryExecuted, "
                             "graphNodeId, sharedMemoryLimitConfig; 1312 events show them as "
                             "unknown."));

    // Every kernel keeps its times, device, stream and grid; its name is the demangled name.
    using Row = std::tuple<std::int64_t, std::int64_t, std::string, std::int64_t, std::int64_t>;
    std::vector<Row> expected, got;
    for (const auto& row :
         test::query(fixture, "SELECT k.start, k.end, s.value, k.streamId, k.gridX FROM "
                              "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                              "k.demangledName"))
        expected.emplace_back(std::stoll(row[0]), std::stoll(row[1]), row[2], std::stoll(row[3]),
                              std::stoll(row[4]));
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        const KernelLaunch k = t.kernelAt(i);
        got.emplace_back(k.start, k.end, t.string(k.config->shortName).toStdString(),
                         k.stream->streamId, k.config->grid[0]);
        EXPECT_EQ(k.config->shortName, k.config->demangledName);
        EXPECT_FALSE(k.config->recorded(KernelField::Registers));
        EXPECT_FALSE(k.config->recorded(KernelField::SharedMemory));
        EXPECT_EQ(k.stream->contextId, 0u) << "no contextId: one unknown context";
    }
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected);

    // The detail pane and the kernel list say unknown, never a made-up 0.
    const EventDetails d = describeEvent(t, t.kernels()[0].self);
    EXPECT_EQ(
        d.value(QStringLiteral("Launch configuration"), QStringLiteral("Registers per thread")),
        QStringLiteral("unknown (not in the trace)"));
    EXPECT_EQ(d.value(QStringLiteral("Theoretical occupancy"), QStringLiteral("Occupancy")),
              QStringLiteral("unknown (the trace does not record the kernel's registers per "
                             "thread)"));
    const ReportTable list = kernelListReport(t);
    std::vector<ReportCell> cells;
    list.fillRow(0, cells);
    const auto regs = list.columns.indexOf(QStringLiteral("registers_per_thread"));
    ASSERT_GE(regs, 0);
    EXPECT_EQ(cells[std::size_t(regs)].kind, ReportCell::Kind::Null);
}

TEST_F(ReducedExport, MemcpysWithoutCopyKindOrBytesHaveAnUnknownDirection) {
    const QString path = reduce({{"CUPTI_ACTIVITY_KIND_MEMCPY",
                                  "start, end, deviceId, streamId, correlationId, globalPid"}});
    const LoadResult r = loadTrace(path);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const auto rows =
        std::uint64_t(test::queryInt(fixture, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
    ASSERT_EQ(rows, 279u);
    ASSERT_EQ(r.trace->memcpys().size(), rows);
    for (const MemcpyRecord& m : r.trace->memcpys()) {
        EXPECT_EQ(m.copyKind, MemcpyKind::Unknown);
        EXPECT_EQ(m.bytes, 0u);
        EXPECT_EQ(m.srcKind, MemoryKind::Unknown);
        EXPECT_EQ(m.dstKind, MemoryKind::Unknown);
    }
    const TraceWarning* w =
        warning(*r.trace, QStringLiteral("missing-columns:CUPTI_ACTIVITY_KIND_MEMCPY"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->message, QStringLiteral("Table CUPTI_ACTIVITY_KIND_MEMCPY lacks the columns "
                                         "contextId, bytes, copyKind, srcKind, dstKind, "
                                         "srcDeviceId, dstDeviceId, migrationCause; 279 events "
                                         "show them as unknown."));
    // The kernels, untouched, give no warning.
    EXPECT_EQ(warning(*r.trace, QStringLiteral("missing-columns:CUPTI_ACTIVITY_KIND_KERNEL")),
              nullptr);
    EXPECT_EQ(r.trace->kernelCount(), 1312u);
}

TEST_F(ReducedExport, RuntimeCallsWithoutCorrelationIdsLoad) {
    const QString path =
        reduce({{"CUPTI_ACTIVITY_KIND_RUNTIME", "start, end, eventClass, globalTid, nameId"}});
    const LoadResult r = loadTrace(path);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const auto rows = std::uint64_t(test::queryInt(
        fixture, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)"));
    EXPECT_EQ(r.trace->counts().cudaApiCalls, rows);
    const TraceWarning* w =
        warning(*r.trace, QStringLiteral("missing-columns:CUPTI_ACTIVITY_KIND_RUNTIME"));
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->count, rows);
    EXPECT_TRUE(w->message.contains(QStringLiteral("lacks the columns correlationId, returnValue")))
        << w->message.toStdString();
}

TEST_F(ReducedExport, KernelsWithoutAnyNameOrStreamAreRefused) {
    const QString noName =
        reduce({{"CUPTI_ACTIVITY_KIND_KERNEL", "start, end, deviceId, streamId, gridX"}});
    EXPECT_EQ(loadTrace(noName).error,
              QStringLiteral("'reduced.sqlite': table CUPTI_ACTIVITY_KIND_KERNEL lacks a kernel "
                             "name column (one of shortName, demangledName, mangledName)."));
    const QString noStream =
        reduce({{"CUPTI_ACTIVITY_KIND_KERNEL", "start, end, deviceId, shortName"}});
    EXPECT_EQ(loadTrace(noStream).error,
              QStringLiteral("'reduced.sqlite': table CUPTI_ACTIVITY_KIND_KERNEL lacks the "
                             "required column 'streamId'."));
}
