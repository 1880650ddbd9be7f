// SPDX-License-Identifier: MIT
// Every real nsys export loads, and what Strobe makes of it matches independent SQL.
#include "formats/open.h"
#include "model/trace.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QString>
#include <map>
#include <set>

using namespace strobe;
using strobe::test::fixturePath;
using strobe::test::hasColumn;
using strobe::test::hasTable;
using strobe::test::query;
using strobe::test::queryInt;

namespace {

std::unique_ptr<Trace> load(const std::string& path) {
    LoadResult r = loadTrace(QString::fromStdString(path));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

std::int64_t countRows(const std::string& path, const std::string& table,
                       const std::string& where = {}) {
    if (!hasTable(path, table))
        return 0;
    return queryInt(path,
                    "SELECT count(*) FROM " + table + (where.empty() ? "" : " WHERE " + where));
}

std::string classFilter(const std::string& path, const std::string& table,
                        const std::string& values) {
    return hasTable(path, table) && hasColumn(path, table, "eventClass")
               ? "eventClass IN (" + values + ")"
               : "";
}

class EveryFixture : public ::testing::TestWithParam<std::string> {
protected:
    std::string path() const { return fixturePath(GetParam()); }
};

} // namespace

TEST_P(EveryFixture, CountsEqualIndependentSql) {
    const std::string p = path();
    auto t = load(p);
    ASSERT_TRUE(t);
    const TraceCounts& c = t->counts();
    EXPECT_EQ(std::int64_t(c.kernels), countRows(p, "CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(std::int64_t(c.memcpys), countRows(p, "CUPTI_ACTIVITY_KIND_MEMCPY"));
    EXPECT_EQ(std::int64_t(c.memsets), countRows(p, "CUPTI_ACTIVITY_KIND_MEMSET"));
    EXPECT_EQ(std::int64_t(c.cudaApiCalls),
              countRows(p, "CUPTI_ACTIVITY_KIND_RUNTIME",
                        classFilter(p, "CUPTI_ACTIVITY_KIND_RUNTIME", "0,1")));
    EXPECT_EQ(std::int64_t(c.nvtxRanges),
              countRows(p, "NVTX_EVENTS", "eventType IN (59,60,70,71)"));
    EXPECT_EQ(std::int64_t(c.nvtxMarks), countRows(p, "NVTX_EVENTS", "eventType = 34"));
    EXPECT_EQ(std::int64_t(c.osrtCalls),
              countRows(p, "OSRT_API", classFilter(p, "OSRT_API", "27")));

    // Every counted event is drawn in exactly one lane: nothing dropped, nothing doubled.
    std::uint64_t laneEvents = 0;
    for (const Lane& l : t->lanes())
        laneEvents += l.size();
    EXPECT_EQ(laneEvents, c.kernels + c.memcpys + c.memsets + c.cudaApiCalls + c.nvtxRanges +
                              c.nvtxMarks + c.osrtCalls);
    EXPECT_EQ(t->kernelCount(), c.kernels);
}

TEST_P(EveryFixture, KeepsOnlyThreadsThatOwnEvents) {
    const std::string p = path();
    auto t = load(p);
    ASSERT_TRUE(t);
    std::set<std::int64_t> tids; // globalTid: (pid << 24) | tid
    auto collect = [&](const std::string& table, const std::string& where) {
        if (!hasTable(p, table))
            return;
        for (const auto& row : query(p, "SELECT DISTINCT globalTid FROM " + table +
                                            (where.empty() ? "" : " WHERE " + where)))
            tids.insert(std::stoll(row[0]));
    };
    collect("CUPTI_ACTIVITY_KIND_RUNTIME", classFilter(p, "CUPTI_ACTIVITY_KIND_RUNTIME", "0,1"));
    collect("OSRT_API", classFilter(p, "OSRT_API", "27"));
    collect("NVTX_EVENTS", "eventType IN (34,59,60,70,71)");
    EXPECT_EQ(t->threads().size(), tids.size());
    // The same threads, not just as many.
    std::set<std::int64_t> kept;
    for (const ThreadInfo& th : t->threads())
        kept.insert((std::int64_t(th.pid) << 24) | th.tid);
    std::set<std::int64_t> want;
    for (std::int64_t g : tids)
        want.insert(g & 0xFFFFFFFFFFFF);
    EXPECT_EQ(kept, want);
}

TEST_P(EveryFixture, LongestKernelNameAndDuration) {
    const std::string p = path();
    auto t = load(p);
    ASSERT_TRUE(t);
    if (countRows(p, "CUPTI_ACTIVITY_KIND_KERNEL") == 0) // a fact of the file, not the loader
        GTEST_SKIP() << "no kernels";
    const auto rows =
        query(p, "SELECT s.value, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                 "JOIN StringIds s ON s.id = k.shortName ORDER BY k.end - k.start DESC");
    TimeNs longest = -1;
    std::set<std::string> names;
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelLaunch k = t->kernelAt(i);
        if (k.duration() > longest) {
            longest = k.duration();
            names.clear();
        }
        if (k.duration() == longest)
            names.insert(t->strings().view(k.config->shortName).data());
    }
    EXPECT_EQ(longest, std::stoll(rows[0][1]));
    EXPECT_TRUE(names.count(rows[0][0])) << rows[0][0];
}

TEST_P(EveryFixture, KernelLaunchParametersAndLaunchingCall) {
    const std::string p = path();
    auto t = load(p);
    ASSERT_TRUE(t);
    if (countRows(p, "CUPTI_ACTIVITY_KIND_KERNEL") == 0) // a fact of the file, not the loader
        GTEST_SKIP() << "no kernels";
    // Independent join, NVIDIA's way: correlation id plus the globalPid mask, no backtrace rows.
    const std::string cls = hasColumn(p, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass")
                                ? " AND r.eventClass IN (0,1)"
                                : "";
    const auto rows = query(
        p, "SELECT k.start, k.end, k.deviceId, k.streamId, k.gridX, k.gridY, k.gridZ, k.blockX, "
           "k.blockY, k.blockZ, "
           "k.registersPerThread, k.staticSharedMemory, k.dynamicSharedMemory, "
           "(SELECT n.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds n ON n.id = r.nameId "
           "  WHERE r.correlationId = k.correlationId AND k.globalPid = (r.globalTid & "
           "0xFFFFFFFFFF000000)" +
               cls +
               "), "
               "(SELECT r.globalTid & 0xFFFFFF FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
               "  WHERE r.correlationId = k.correlationId AND k.globalPid = (r.globalTid & "
               "0xFFFFFFFFFF000000)" +
               cls +
               ") "
               "FROM CUPTI_ACTIVITY_KIND_KERNEL k");
    // Key by (start, end, device, stream): unique for kernels in these files.
    std::map<std::tuple<TimeNs, TimeNs, std::uint32_t, std::uint32_t>,
             const std::vector<std::string>*>
        byKey;
    for (const auto& r : rows)
        byKey[{std::stoll(r[0]), std::stoll(r[1]), std::uint32_t(std::stoul(r[2])),
               std::uint32_t(std::stoul(r[3]))}] = &r;
    std::size_t withApi = 0;
    for (std::size_t i = 0; i < t->kernelCount(); ++i) {
        const KernelLaunch k = t->kernelAt(i);
        const auto it = byKey.find({k.start, k.end, k.stream->deviceId, k.stream->streamId});
        ASSERT_NE(it, byKey.end());
        const auto& r = *it->second;
        EXPECT_EQ(k.config->grid,
                  (std::array<std::int32_t, 3>{std::stoi(r[4]), std::stoi(r[5]), std::stoi(r[6])}));
        EXPECT_EQ(k.config->block,
                  (std::array<std::int32_t, 3>{std::stoi(r[7]), std::stoi(r[8]), std::stoi(r[9])}));
        EXPECT_EQ(k.config->registersPerThread, std::stoul(r[10]));
        EXPECT_EQ(k.config->staticSharedBytes, std::stoul(r[11]));
        EXPECT_EQ(k.config->dynamicSharedBytes, std::stoul(r[12]));
        if (r[13].empty()) {
            EXPECT_FALSE(k.record.api.isValid());
            continue;
        }
        ++withApi;
        ASSERT_TRUE(k.record.api.isValid());
        const Lane& apiLane = t->lane(k.record.api.lane);
        EXPECT_EQ(apiLane.kind(), LaneKind::CudaApi);
        EXPECT_EQ(t->string(apiLane.nameId(k.record.api.index)).toStdString(), r[13]);
        EXPECT_EQ(t->threads()[apiLane.owner()].tid, std::stoul(r[14]));
        // The link is two-way.
        EXPECT_EQ(t->partnerOf(k.record.api), k.record.self);
    }
    EXPECT_GT(withApi, 0u);
}

TEST_P(EveryFixture, KernelsAreOrderedByStartAndLanesHoldRowsWithoutOverlap) {
    auto t = load(path());
    ASSERT_TRUE(t);
    for (std::size_t i = 1; i < t->kernelCount(); ++i)
        ASSERT_LE(t->kernelAt(i - 1).start, t->kernelAt(i).start);
    for (const Lane& l : t->lanes()) {
        for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
            const RowView row = l.rowView(r);
            for (std::uint32_t k = 1; k < row.size(); ++k)
                ASSERT_LE(effectiveEnd(row.start(k - 1), row.end(k - 1)), row.start(k));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Nsys, EveryFixture, ::testing::ValuesIn(strobe::test::nsysFixtures()),
                         [](const auto& info) {
                             std::string n = info.param.substr(0, info.param.find(".sqlite"));
                             for (char& ch : n)
                                 if (!std::isalnum(static_cast<unsigned char>(ch)))
                                     ch = '_';
                             return n;
                         });

TEST(NsysFixtures, AllSixVersionsArePresent) {
    EXPECT_EQ(strobe::test::nsysFixtures().size(), 7u);
}

// A metadata value of an export: META_DATA_EXPORT (schema 3) or EXPORT_META_DATA (2.x).
static std::string exportMeta(const std::string& path, const std::string& name) {
    const std::string table =
        hasTable(path, "META_DATA_EXPORT") ? "META_DATA_EXPORT" : "EXPORT_META_DATA";
    const auto rows = query(path, "SELECT value FROM " + table + " WHERE name = '" + name + "'");
    return rows.empty() ? std::string() : rows[0][0];
}

TEST(NsysLoader, VersionsAndMetadata) {
    // Every value from the export's own metadata tables; the literals are what those hold.
    const std::string p = fixturePath("nsys2024.5-cloverleaf.sqlite");
    auto t = load(p);
    ASSERT_TRUE(t);
    const std::string version = exportMeta(p, "EXPORT_PRODUCT_VERSION");
    const std::string schemaVersion = exportMeta(p, "EXPORT_SCHEMA_VERSION");
    ASSERT_EQ(version, "2024.5.1.113");
    ASSERT_EQ(schemaVersion, "3.13.2");
    EXPECT_EQ(t->metadata().nsysVersion.value_or(QString()).toStdString(), version);
    EXPECT_EQ(t->metadata().schemaVersion.value_or(QString()).toStdString(), schemaVersion);
    EXPECT_EQ(t->metadata().sessionStartUtcNs.value_or(0),
              strobe::test::queryInt(p, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
    const auto gpus = query(p, "SELECT id, name, smCount FROM TARGET_INFO_GPU ORDER BY id");
    ASSERT_EQ(gpus.size(), 4u);
    ASSERT_EQ(t->gpus().size(), gpus.size());
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        EXPECT_EQ(t->gpus()[i].id, std::stoul(gpus[i][0]));
        EXPECT_EQ(t->string(t->gpus()[i].name).toStdString(), gpus[i][1]);
        EXPECT_EQ(t->gpus()[i].smCount, std::stoul(gpus[i][2]));
        EXPECT_TRUE(t->gpus()[i].hasLimits());
    }

    const std::string oldPath = fixturePath("nsys2022.2-vectoradd-a.sqlite");
    auto old = load(oldPath);
    ASSERT_TRUE(old);
    ASSERT_FALSE(hasTable(oldPath, "META_DATA_EXPORT")); // 2.x keeps it in EXPORT_META_DATA
    EXPECT_EQ(old->metadata().schemaVersion.value_or(QString()).toStdString(),
              exportMeta(oldPath, "EXPORT_SCHEMA_VERSION"));
    EXPECT_EQ(old->metadata().nsysVersion.value_or(QString()).toStdString(),
              exportMeta(oldPath, "EXPORT_PRODUCT_VERSION"));
    EXPECT_EQ(exportMeta(oldPath, "EXPORT_SCHEMA_VERSION"), "2.9.1");
}

TEST(NsysLoader, UnifiedMemoryMigrationsGetTheirOwnLane) {
    const std::string p = fixturePath("nsys2022.2-vectoradd-a.sqlite");
    auto t = load(p);
    ASSERT_TRUE(t);
    std::uint32_t uvm = 0;
    for (const Lane& l : t->lanes())
        if (l.kind() == LaneKind::Uvm)
            uvm += l.size();
    EXPECT_EQ(std::int64_t(uvm), countRows(p, "CUPTI_ACTIVITY_KIND_MEMCPY", "copyKind >= 11"));
    EXPECT_GT(uvm, 0u);
}

TEST(NsysLoader, BacktraceDuplicatesAreNotDrawn) {
    // The 2022.2 saxpy export records every API call twice (eventClass 0 and 67).
    const std::string p = fixturePath("nsys2022.2-saxpy-mpi-nvtx.sqlite");
    auto t = load(p);
    ASSERT_TRUE(t);
    const std::int64_t all = countRows(p, "CUPTI_ACTIVITY_KIND_RUNTIME");
    EXPECT_GT(all, std::int64_t(t->counts().cudaApiCalls));
    EXPECT_EQ(std::int64_t(t->counts().cudaApiCalls),
              countRows(p, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass IN (0,1)"));
}

TEST(NsysLoader, NvtxDomainsAndThreadNaming) {
    auto t = load(fixturePath("nsys2022.2-saxpy-mpi-nvtx.sqlite"));
    ASSERT_TRUE(t);
    ASSERT_EQ(t->threads().size(), 1u);
    EXPECT_EQ(t->string(t->threads()[0].name),
              QStringLiteral("MPI Rank 0")); // nvtxNameOsThread wins
    QStringList domains;
    for (const Lane& l : t->lanes())
        if (l.kind() == LaneKind::Nvtx)
            domains << t->string(l.domain());
    EXPECT_EQ(domains, (QStringList{QString(), QStringLiteral("MPI")}));
}

TEST(NsysLoader, NvtxNestingDepthMatchesContainment) {
    // Depth of every push/pop range = the number of ranges of its thread that contain it.
    const std::string p = fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite");
    auto t = load(p);
    ASSERT_TRUE(t);
    std::size_t checked = 0, deep = 0;
    for (const Lane& l : t->lanes()) {
        if (l.kind() != LaneKind::Nvtx)
            continue;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            int containing = 0;
            for (std::uint32_t j = 0; j < l.size() && l.start(j) <= l.start(i); ++j) {
                const bool contains = j != i && l.start(j) <= l.start(i) && l.end(j) >= l.end(i) &&
                                      (l.start(j) < l.start(i) || l.end(j) > l.end(i) || j < i);
                containing += contains;
            }
            ASSERT_EQ(t->nvtx()[l.payload(i)].depth, containing) << "event " << i;
            ++checked;
            deep += containing >= 3;
        }
    }
    EXPECT_EQ(checked, 16782u);
    EXPECT_GT(deep, 0u);
}
