// SPDX-License-Identifier: MIT
// CUPTI synchronisation records (the gap causes depend on them) against independent SQL: every
// row is kept, and each is linked to the API call of its process with the same correlation id.
#include "formats/open.h"
#include "model/trace.h"
#include "tests/support/sqlitequery.h"

#include <gtest/gtest.h>

#include <QString>
#include <map>
#include <tuple>

using namespace strobe;
using strobe::test::fixturePath;
using strobe::test::hasColumn;
using strobe::test::hasTable;
using strobe::test::query;

namespace {

std::unique_ptr<Trace> load(const std::string& path) {
    LoadResult r = loadTrace(QString::fromStdString(path));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::move(r.trace);
}

struct SqlSync {
    std::string apiName; // empty: no API call carries its correlation id
    std::int64_t apiStart = 0, apiEnd = 0;
    std::uint32_t apiTid = 0;
};

// (start, end, device, correlation id) -> the API call NVIDIA's join finds: same correlation id,
// same process (the globalPid mask), a CUDA API row (eventClass 0 or 1, not a backtrace).
std::multimap<std::tuple<std::int64_t, std::int64_t, std::uint32_t, std::int64_t>, SqlSync>
sqlSyncs(const std::string& p) {
    const std::string cls = hasColumn(p, "CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass")
                                ? " AND r.eventClass IN (0,1)"
                                : "";
    const auto rows =
        query(p, "SELECT s.start, s.end, s.deviceId, coalesce(s.correlationId, -1), n.value, "
                 "r.start, r.end, r.globalTid & 0xFFFFFF "
                 "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s "
                 "LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = s.correlationId "
                 "  AND (r.globalTid & 0xFFFFFFFFFF000000) = s.globalPid" +
                     cls + " LEFT JOIN StringIds n ON n.id = r.nameId");
    std::multimap<std::tuple<std::int64_t, std::int64_t, std::uint32_t, std::int64_t>, SqlSync> out;
    for (const auto& r : rows) {
        SqlSync s;
        s.apiName = r[4];
        if (!s.apiName.empty()) {
            s.apiStart = std::stoll(r[5]);
            s.apiEnd = std::stoll(r[6]);
            s.apiTid = std::uint32_t(std::stoul(r[7]));
        }
        out.emplace(std::tuple{std::stoll(r[0]), std::stoll(r[1]), std::uint32_t(std::stoul(r[2])),
                               std::stoll(r[3])},
                    s);
    }
    return out;
}

// Checks every sync of `file` against SQL; returns how many were linked to an API call.
std::size_t checkSyncs(const std::string& file, std::size_t expectedRows) {
    const std::string p = fixturePath(file);
    auto t = load(p);
    EXPECT_TRUE(t);
    if (!t)
        return 0;
    const auto sql = sqlSyncs(p);
    EXPECT_EQ(sql.size(), expectedRows) << "the fixture's table";
    EXPECT_EQ(t->syncs().size(), sql.size());
    EXPECT_EQ(t->counts().syncs, sql.size());
    std::size_t linked = 0;
    for (const SyncRecord& s : t->syncs()) {
        const auto it = sql.find(
            {s.start, s.end, s.deviceId, s.correlationId ? std::int64_t(*s.correlationId) : -1});
        EXPECT_NE(it, sql.end()) << "sync at " << s.start << " is not in the table";
        if (it == sql.end())
            continue;
        const SqlSync& want = it->second;
        if (want.apiName.empty()) {
            EXPECT_FALSE(s.api.isValid()) << "sync at " << s.start;
            continue;
        }
        EXPECT_TRUE(s.api.isValid()) << "sync at " << s.start << " lost its " << want.apiName;
        if (!s.api.isValid())
            continue;
        ++linked;
        const Lane& lane = t->lane(s.api.lane);
        EXPECT_EQ(lane.kind(), LaneKind::CudaApi);
        EXPECT_EQ(t->string(lane.nameId(s.api.index)).toStdString(), want.apiName);
        EXPECT_EQ(lane.start(s.api.index), want.apiStart);
        EXPECT_EQ(lane.end(s.api.index), want.apiEnd);
        EXPECT_EQ(t->threads()[lane.owner()].tid, want.apiTid);
    }
    // Ordered by start, as Trace::syncs() promises.
    for (std::size_t i = 1; i < t->syncs().size(); ++i)
        EXPECT_LE(t->syncs()[i - 1].start, t->syncs()[i].start);
    return linked;
}

} // namespace

TEST(SyncRecords, CloverleafKeepsAll1312AndLinksEachToItsCall) {
    ASSERT_TRUE(hasTable(fixturePath("nsys2024.5-cloverleaf.sqlite"),
                         "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
    // Every one of CloverLeaf's syncs has its API call (a cudaDeviceSynchronize or a copy).
    EXPECT_EQ(checkSyncs("nsys2024.5-cloverleaf.sqlite", 1312), 1312u);
}

TEST(SyncRecords, H100KeepsAll244AndLinksEachToItsCall) {
    EXPECT_EQ(checkSyncs("nsys2026.2-h100-2gpu-nvtx.sqlite", 244), 244u);
}

TEST(SyncRecords, EveryOtherFixtureMatchesSql) {
    std::size_t checked = 0;
    for (const std::string& f : strobe::test::nsysFixtures()) {
        const std::string p = fixturePath(f);
        if (!hasTable(p, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"))
            continue;
        const std::size_t rows = std::size_t(
            strobe::test::queryInt(p, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
        checkSyncs(f, rows);
        ++checked;
    }
    EXPECT_EQ(checked, strobe::test::nsysFixtures().size()); // all seven carry the table
}
