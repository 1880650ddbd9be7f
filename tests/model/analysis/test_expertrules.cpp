// SPDX-License-Identifier: MIT
// Nsight Systems' expert rules and pageable_copies (model/analysis/expertrules.cpp). The oracle is
// SQL written here from nsys's definitions (docs/FINDINGS.md: the rule scripts' queries, read
// over the export's CUPTI_ACTIVITY_KIND_* tables and StringIds), none of Strobe's model: on every
// nsys fixture and on a synthetic export built to trip each rule, the evidence rows must be the
// rows that SQL gives. Then the exact time at stake on the synthetic export, a clean export that
// trips nothing, the thresholds as options, and the words.

#include "formats/nsys/writer/nsyswriter.h"
#include "formats/open.h"
#include "model/analysis/findingrules.h"
#include "model/analysis/findings.h"
#include "model/analysis/gaps.h"
#include "model/reports/findingtext.h"
#include "model/timeformat.h"
#include "model/tracebuilder.h"
#include "tests/support/sqlitequery.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace strobe {
namespace {

const std::vector<FindingRule> kExpertRules = {
    FindingRule::CudaMemcpyAsync, FindingRule::CudaMemcpySync, FindingRule::CudaMemsetSync,
    FindingRule::CudaApiSync,     FindingRule::GpuGaps,        FindingRule::GpuTimeUtil,
    FindingRule::PageableCopies};

// One row as the SQL gives it; -1 where the rule has no such column.
struct Row {
    std::int64_t duration = 0, start = 0, bytes = -1, pid = -1, device = -1;
    double average = 0; // gpu_time_util's In-Use
};

std::vector<Row> rowsOf(const std::vector<std::vector<std::string>>& rows, bool average) {
    std::vector<Row> out;
    for (const auto& r : rows) {
        Row x;
        x.duration = std::stoll(r[0]);
        x.start = std::stoll(r[1]);
        x.bytes = r[2].empty() ? -1 : std::stoll(r[2]);
        x.pid = std::stoll(r[3]);
        x.device = r[4].empty() ? -1 : std::stoll(r[4]);
        if (average)
            x.average = std::stod(r[5]);
        out.push_back(x);
    }
    return out;
}

// A launching runtime call of the copy or memset `m` (same correlation id and process) whose
// name matches `names`, as nsys's rules join CUPTI_ACTIVITY_KIND_RUNTIME. eventClass 67 (the
// backtrace copies of 2022.2's calls) left out: nsys would list such a copy twice.
std::string launchedBy(const std::string& names) {
    return " AND EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = "
           "r.nameId WHERE r.correlationId = m.correlationId AND (r.globalTid >> 24) = "
           "(m.globalPid >> 24) AND r.eventClass IN (0, 1) AND (" +
           names + "))";
}

// cuda_memcpy_async, cuda_memcpy_sync and pageable_copies: the copies `where` keeps, longest
// first (nsys: ORDER BY 1 DESC).
std::vector<Row> copiesSql(const std::string& path, const std::string& where) {
    if (!test::hasTable(path, "CUPTI_ACTIVITY_KIND_MEMCPY"))
        return {};
    return rowsOf(test::query(path, "SELECT m.end - m.start, m.start, m.bytes, (m.globalPid >> "
                                    "24) & 16777215, m.deviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                                    "m WHERE " +
                                        where + " ORDER BY 1 DESC, 2"),
                  false);
}

std::vector<Row> memcpyAsyncSql(const std::string& path) {
    return copiesSql(path, "(m.srcKind = 0 OR m.dstKind = 0)" +
                               launchedBy("s.value LIKE 'cudaMemcpy%Async%'"));
}

std::vector<Row> memcpySyncSql(const std::string& path) {
    return copiesSql(path, "NOT (m.copyKind = 1 AND m.bytes <= 65536)" +
                               launchedBy("s.value LIKE 'cudaMemcpy%' AND s.value NOT LIKE "
                                          "'%async%'"));
}

std::vector<Row> pageableSql(const std::string& path) {
    return copiesSql(path, "m.copyKind = 1 AND m.srcKind = 0");
}

std::vector<Row> memsetSyncSql(const std::string& path) {
    if (!test::hasTable(path, "CUPTI_ACTIVITY_KIND_MEMSET"))
        return {};
    return rowsOf(
        test::query(path, "SELECT m.end - m.start, m.start, m.bytes, (m.globalPid >> 24) & "
                          "16777215, m.deviceId FROM CUPTI_ACTIVITY_KIND_MEMSET m WHERE "
                          "m.memKind IN (1, 4)" +
                              launchedBy("s.value LIKE 'cudaMemset%' AND s.value NOT LIKE "
                                         "'%async%'") +
                              " ORDER BY 1 DESC, 2"),
        false);
}

std::vector<Row> apiSyncSql(const std::string& path) {
    if (!test::hasTable(path, "CUPTI_ACTIVITY_KIND_RUNTIME"))
        return {};
    return rowsOf(test::query(path, "SELECT r.end - r.start, r.start, '', (r.globalTid >> 24) & "
                                    "16777215, '' FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                                    "StringIds s ON s.id = r.nameId WHERE r.eventClass IN (0, 1) "
                                    "AND (s.value LIKE 'cudaDeviceSynchronize%' OR s.value LIKE "
                                    "'cudaStreamSynchronize%') ORDER BY 1 DESC, 2"),
                  false);
}

// nsys's GPU operations: kernels, memcpys and memsets starting after 0, with process and GPU.
std::string gpuOpsSql(const std::string& path) {
    std::string sql;
    for (const char* t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                          "CUPTI_ACTIVITY_KIND_MEMSET"}) {
        if (!test::hasTable(path, t))
            continue;
        sql += (sql.empty() ? "" : " UNION ALL ") +
               std::string("SELECT start, end, (globalPid >> 24) & 16777215 AS pid, deviceId "
                           "FROM ") +
               t + " WHERE start > 0";
    }
    return sql.empty() ? "SELECT 0 AS start, 0 AS end, 0 AS pid, 0 AS deviceId WHERE 0" : sql;
}

// gpu_gaps as nsys computes it: per process and GPU, the i-th end (by end) paired with the
// (i+1)-th start (by start); a gap where the end comes first and it lasts over `gapNs`.
std::vector<Row> gapsSql(const std::string& path, std::int64_t gapNs) {
    return rowsOf(
        test::query(path,
                    "WITH ops AS (" + gpuOpsSql(path) +
                        "), starts AS (SELECT ROW_NUMBER() OVER (ORDER BY pid, deviceId, start) "
                        "AS n, start, pid, deviceId FROM ops), ends AS (SELECT ROW_NUMBER() OVER "
                        "(ORDER BY pid, deviceId, end) AS n, end, pid, deviceId FROM ops) SELECT "
                        "s.start - e.end, e.end, '', e.pid, e.deviceId FROM starts s JOIN ends e "
                        "ON s.n - 1 = e.n AND s.pid = e.pid AND s.deviceId = e.deviceId WHERE "
                        "s.start - e.end > " +
                        std::to_string(gapNs) + " AND e.end < s.start ORDER BY 1 DESC, 2"),
        false);
}

// gpu_time_util as nsys computes it: per process and GPU, its span cut into `chunks` chunks of
// the length rounded up (integer ceiling: the same as nsys's ceil of a float quotient for these
// magnitudes), each chunk's busy time the sum of its operations' clipped lengths, the chunks
// under `threshold` percent merged with their neighbours into rows of their length-weighted
// mean (rounded to 0.1), ordered by that mean and then duration. `idle` gets, per GPU, the low
// chunks' length less their busy time.
std::vector<Row> utilSql(const std::string& path, int chunks, double threshold,
                         std::map<std::int64_t, std::int64_t>* idle = nullptr) {
    const std::string n = std::to_string(chunks);
    const std::string util =
        "WITH RECURSIVE ids(rangeId) AS (SELECT 0 UNION ALL SELECT rangeId + 1 FROM ids WHERE "
        "rangeId + 1 < " +
        n + "), ops AS (" + gpuOpsSql(path) +
        "), span AS (SELECT min(start) AS start, max(end) AS end, (max(end) - min(start) + " + n +
        " - 1) / " + n +
        " AS size, pid, deviceId FROM ops GROUP BY deviceId, pid), chunk AS (SELECT ids.rangeId, "
        "ids.rangeId * span.size + span.start AS cstart, min(ids.rangeId * span.size + "
        "span.start + span.size, span.end) AS cend, span.pid, span.deviceId FROM ids JOIN span "
        "WHERE cstart < cend), util AS (SELECT chunk.rangeId, chunk.cstart AS start, chunk.cend "
        "AS end, chunk.cend - chunk.cstart AS size, sum(coalesce(min(ops.end, chunk.cend) - "
        "max(ops.start, chunk.cstart), 0)) AS busy, sum(CAST(coalesce(min(ops.end, chunk.cend) - "
        "max(ops.start, chunk.cstart), 0) AS FLOAT)) / (chunk.cend - chunk.cstart) * 100 AS pct, "
        "chunk.pid, chunk.deviceId FROM chunk LEFT JOIN ops ON ops.deviceId = chunk.deviceId AND "
        "ops.pid = chunk.pid AND ops.start < chunk.cend AND ops.end > chunk.cstart GROUP BY "
        "chunk.rangeId, chunk.deviceId, chunk.pid HAVING pct < " +
        std::to_string(threshold) + ")";
    if (idle) {
        for (const auto& r : test::query(path, util + " SELECT deviceId, sum(max(size - busy, 0)) "
                                                      "FROM util GROUP BY deviceId"))
            (*idle)[std::stoll(r[0])] = std::stoll(r[1]);
    }
    return rowsOf(test::query(path, util +
                                        ", grouped AS (SELECT *, rangeId - ROW_NUMBER() OVER "
                                        "(PARTITION BY pid, deviceId ORDER BY rangeId) AS g FROM "
                                        "util) SELECT max(end) - min(start) AS duration, "
                                        "min(start), '', pid, deviceId, round(sum(size * pct) / "
                                        "sum(size), 1) AS average FROM grouped GROUP BY g, "
                                        "deviceId, pid ORDER BY average, duration, 2"),
                  true);
}

std::vector<const Finding*> findingsOf(const Findings& all, FindingRule rule) {
    std::vector<const Finding*> out;
    for (const Finding& f : all.findings)
        if (f.rule == rule)
            out.push_back(&f);
    return out;
}

int column(const ReportTable& t, const char* name) {
    return int(t.columns.indexOf(QString::fromLatin1(name)));
}

// The idle time of the gaps (at the gaps panel's default threshold) whose cause is a
// synchronisation call.
TimeNs syncGapTime(const Trace& trace) {
    TimeNs t = 0;
    for (const GpuGap& g : findGaps(trace, kDefaultIdleThresholdNs).gaps)
        if (g.cause == GapCause::Sync)
            t += g.duration();
    return t;
}

// The rows of one finding (or of none) against the SQL's, in order; the time at stake is the
// rows' summed duration, except gpu_time_util's (checked on its own).
void expectRows(const Trace& trace, const Finding* f, const std::vector<Row>& want,
                const std::string& what) {
    SCOPED_TRACE(what);
    if (want.empty()) {
        EXPECT_EQ(f, nullptr);
        return;
    }
    ASSERT_NE(f, nullptr);
    // The first 100 rows in nsys's order are kept; the count and time cover all.
    const std::size_t kept = std::min<std::size_t>(want.size(), 100);
    ASSERT_EQ(f->evidence.size(), kept);
    const ReportTable table = evidenceTable(trace, *f);
    ASSERT_EQ(table.rows.size(), kept);
    const int cBytes = column(table, "Bytes"), cPid = column(table, "PID"),
              cDevice = column(table, "Device ID"), cUse = column(table, "In-Use (%)");
    ASSERT_GE(cPid, 0);
    // The time at stake: the time the rows cover, overlaps once (for the gaps, their sum).
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    ranges.reserve(want.size());
    for (const Row& row : want)
        ranges.emplace_back(row.start, row.start + row.duration);
    std::sort(ranges.begin(), ranges.end());
    std::int64_t total = 0, coveredTo = std::numeric_limits<std::int64_t>::min();
    for (const auto& [from, to] : ranges) {
        const std::int64_t begin = std::max(from, coveredTo);
        if (to > begin)
            total += to - begin;
        coveredTo = std::max(coveredTo, to);
    }
    for (std::size_t i = 0; i < kept; ++i) {
        const FindingEvidence& e = f->evidence[i];
        const auto& cells = table.rows[i];
        EXPECT_EQ(e.range.duration(), want[i].duration) << i;
        EXPECT_EQ(e.range.start, want[i].start) << i;
        EXPECT_EQ(cells[std::size_t(cPid)].text.toLongLong(), want[i].pid) << i;
        if (cBytes >= 0) {
            EXPECT_EQ(cells[std::size_t(cBytes)].text.toLongLong(), want[i].bytes) << i;
        }
        if (cDevice >= 0) {
            EXPECT_EQ(cells[std::size_t(cDevice)].text.toLongLong(), want[i].device) << i;
        }
        if (cUse >= 0) {
            EXPECT_NEAR(e.value, want[i].average, 0.05 + 1e-9) << i;
        }
    }
    if (f->rule == FindingRule::CudaApiSync) {
        // The calls' time is what they measured; at stake is the GPU idle time the gap
        // analysis puts down to synchronisation.
        EXPECT_EQ(f->count, want.size());
        EXPECT_EQ(f->measured, double(total));
        EXPECT_EQ(f->timeNs, syncGapTime(trace));
    } else if (f->rule != FindingRule::GpuTimeUtil) { // its count is of chunks, before merging
        EXPECT_EQ(f->count, want.size());
        EXPECT_EQ(f->timeNs, total);
    }
}

Findings expertFindings(const Trace& trace, FindingOptions options = {}) {
    options.only = kExpertRules;
    return computeFindings(trace, options);
}

// Every rule's rows on `path` against the SQL; returns the rows compared per rule.
std::map<FindingRule, std::size_t> compareWithSql(const std::string& path,
                                                  const FindingOptions& options = {}) {
    SCOPED_TRACE(path);
    std::map<FindingRule, std::size_t> compared;
    const LoadResult r = loadTrace(QString::fromStdString(path));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    if (!r.ok())
        return compared;
    const Trace& trace = *r.trace;
    const Findings all = expertFindings(trace, options);
    const auto one = [&](FindingRule rule, const std::vector<Row>& want) {
        const auto found = findingsOf(all, rule);
        EXPECT_LE(found.size(), 1u);
        expectRows(trace, found.empty() ? nullptr : found.front(), want,
                   findingRuleId(rule).toStdString());
        compared[rule] += want.size();
    };
    one(FindingRule::CudaMemcpyAsync, memcpyAsyncSql(path));
    one(FindingRule::CudaMemcpySync, memcpySyncSql(path));
    one(FindingRule::CudaMemsetSync, memsetSyncSql(path));
    one(FindingRule::CudaApiSync, apiSyncSql(path));
    one(FindingRule::PageableCopies, pageableSql(path));

    // The per-GPU rules: one finding per GPU with rows.
    std::map<std::int64_t, std::int64_t> idle;
    const std::vector<Row> gaps = gapsSql(path, options.gpuGapMinNs);
    const std::vector<Row> util =
        utilSql(path, options.gpuTimeUtilChunks, options.gpuTimeUtilThresholdPercent, &idle);
    for (const auto& [rule, rows] :
         {std::pair(FindingRule::GpuGaps, gaps), std::pair(FindingRule::GpuTimeUtil, util)}) {
        std::map<std::int64_t, std::vector<Row>> byDevice;
        for (const Row& row : rows)
            byDevice[row.device].push_back(row);
        const auto found = findingsOf(all, rule);
        EXPECT_EQ(found.size(), byDevice.size()) << findingRuleId(rule).toStdString();
        for (const Finding* f : found) {
            EXPECT_TRUE(f->deviceId.has_value());
            if (!f->deviceId)
                continue;
            expectRows(trace, f, byDevice[*f->deviceId],
                       findingRuleId(rule).toStdString() + " GPU " + std::to_string(*f->deviceId));
            if (rule == FindingRule::GpuTimeUtil) {
                EXPECT_EQ(f->timeNs, idle[*f->deviceId]);
            }
        }
        compared[rule] += rows.size();
    }
    return compared;
}

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kBase = 1'000'000; // nsys's GPU rules ignore operations at or before 0

// An export built to trip every rule once, with times chosen so that the time at stake of each
// is known by hand (docs/FINDINGS.md's definitions):
// GPU 0 runs kernels only, relative to kBase in ms: [0,100) [700,1000) [1500,1530) [1600,2300)
// [2900,3000). Its gaps: 600 ms, 500 ms (not over 500), 70 ms, 600 ms. In 30 chunks of 100 ms:
// 1-6 and 23-28 idle, 10-14 idle, 15 30 % busy, the rest busy.
// GPU 1 gets the copies and memsets, thread 101 the synchronisation calls; the trace spans
// exactly 3000 ms.
bool writeTripTrace(const std::string& path, bool clean, std::string* error) {
    auto w = nsys::Writer::create(path, nsys::SchemaFlavor::V3_25, error);
    if (!w)
        return false;
    w->addProcess({100, "train"});
    w->addThread({100, 101, "main"});
    for (std::uint32_t id : {0u, 1u}) {
        nsys::GpuRow g;
        g.id = id;
        g.name = "NVIDIA H100 80GB HBM3";
        g.smCount = 132;
        g.computeMajor = 9;
        w->addGpu(g);
    }
    w->addStream({100, 1, 7, 0, 2});
    w->addStream({100, 2, 13, 0, 2});
    std::uint32_t corr = 1;
    const auto call = [&](std::int64_t start, std::int64_t end, const std::string& name,
                          std::uint8_t eventClass = 0) {
        nsys::ApiCallRow a;
        a.start = start;
        a.end = end;
        a.pid = 100;
        a.tid = 101;
        a.correlationId = corr;
        a.name = name;
        a.eventClass = eventClass;
        w->addApiCall(a);
        return corr++;
    };
    const auto kernel = [&](std::int64_t fromMs, std::int64_t toMs) {
        nsys::KernelRow k;
        k.start = kBase + fromMs * kMs;
        k.end = kBase + toMs * kMs;
        k.pid = 100;
        k.contextId = 1;
        k.streamId = 7;
        k.shortName = "compute";
        if (clean) { // a grid that fills the 132 SMs: no small_grid either
            k.grid = {528, 1, 1};
            k.block = {256, 1, 1};
            k.registersPerThread = 32;
        }
        w->addKernel(k);
    };
    if (clean) { // busy throughout: no gap, no idle chunk
        for (std::int64_t ms = 0; ms < 3000; ms += 100)
            kernel(ms, ms + 100);
    } else {
        for (const auto& [from, to] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {0, 100}, {700, 1000}, {1500, 1530}, {1600, 2300}, {2900, 3000}})
            kernel(from, to);
    }
    std::int64_t at = kBase + 10 * kMs;
    const auto copy = [&](const std::string& api, std::uint8_t eventClass, std::uint8_t copyKind,
                          std::uint8_t src, std::uint8_t dst, std::uint64_t bytes,
                          std::int64_t durationNs) {
        nsys::MemcpyRow m;
        m.start = at;
        m.end = at + durationNs;
        m.pid = 100;
        m.deviceId = clean ? 0 : 1; // a clean GPU 1 would be mostly idle
        m.contextId = clean ? 1 : 2;
        m.streamId = clean ? 7 : 13;
        m.correlationId = call(at - 20'000, m.end + 20'000, api, eventClass);
        m.bytes = bytes;
        m.copyKind = copyKind;
        m.srcKind = src;
        m.dstKind = dst;
        w->addMemcpy(m);
        at += kMs;
    };
    const auto memset = [&](const std::string& api, std::uint8_t memKind, std::int64_t durationNs) {
        nsys::MemsetRow m;
        m.start = at;
        m.end = at + durationNs;
        m.pid = 100;
        m.deviceId = clean ? 0 : 1; // a clean GPU 1 would be mostly idle
        m.contextId = clean ? 1 : 2;
        m.streamId = clean ? 7 : 13;
        m.correlationId = call(at - 20'000, m.end + 20'000, api);
        m.bytes = 4096;
        m.memKind = memKind;
        w->addMemset(m);
        at += kMs;
    };
    // copyKind 1 HtoD, 2 DtoH, 8 DtoD; kinds 0 pageable, 1 pinned, 2 device, 4 managed.
    copy("cudaMemcpyAsync_v3020", 0, 1, 1, 2, 1 << 20, 80'000); // pinned: nothing
    memset("cudaMemsetAsync_v3020", 2, 7'000);                  // asynchronous: nothing
    copy("cudaMemcpy_v3020", 0, 1, 1, 2, 4096, 3'000);          // small and pinned: nothing
    call(at, at + 300'000, "cudaEventSynchronize_v3020");       // not one of nsys's calls
    call(at, at + 200'000, "cuStreamSynchronize", 1);
    at += kMs;
    if (!clean) {
        copy("cudaMemcpyAsync_v3020", 0, 1, 0, 2, 1 << 20, 100'000); // async, pageable copies
        copy("cudaMemcpyAsync_v3020", 0, 2, 2, 0, 1 << 20, 50'000);  // async
        copy("cudaMemcpy_v3020", 0, 1, 0, 2, 1 << 20, 200'000);      // sync, pageable copies
        copy("cudaMemcpy_v3020", 0, 1, 0, 2, 4096, 5'000);           // pageable copies only
        copy("cudaMemcpy_v3020", 0, 1, 1, 2, 65536, 6'000);          // 64 KiB: nothing
        copy("cudaMemcpy_v3020", 0, 1, 1, 2, 65537, 30'000);         // sync
        copy("cuMemcpyHtoDAsync_v2", 1, 1, 0, 2, 1 << 20, 40'000);   // pageable copies only
        copy("cudaMemcpy2DAsync_v3020", 0, 8, 2, 2, 1 << 20, 9'000); // device to device: nothing
        memset("cudaMemset_v3020", 2, 8'000);                        // device memory: nothing
        memset("cudaMemset_v3020", 1, 10'000);                       // sync memset
        memset("cudaMemsetAsync_v3020", 4, 11'000);                  // asynchronous: nothing
        memset("cudaMemset2D_v3020", 4, 20'000);                     // sync memset
        call(at, at + 2 * kMs, "cudaDeviceSynchronize_v3020");
        call(at + 3 * kMs, at + 4 * kMs, "cudaStreamSynchronize_v3020");
        call(at + 5 * kMs, at + 5 * kMs + 500'000, "cudaStreamSynchronize_ptsz_v7000");
    }
    return w->commit(error);
}

class ExpertRulesSynthetic : public ::testing::Test {
protected:
    void SetUp() override {
        std::string error;
        path = dir.filePath(QStringLiteral("trip.sqlite")).toStdString();
        cleanPath = dir.filePath(QStringLiteral("clean.sqlite")).toStdString();
        ASSERT_TRUE(writeTripTrace(path, false, &error)) << error;
        ASSERT_TRUE(writeTripTrace(cleanPath, true, &error)) << error;
        loaded = loadTrace(QString::fromStdString(path));
        ASSERT_TRUE(loaded.ok()) << loaded.error.toStdString();
    }
    const Finding& only(const Findings& all, FindingRule rule,
                        std::optional<std::uint32_t> device = std::nullopt) {
        const Finding* hit = nullptr;
        for (const Finding* f : findingsOf(all, rule))
            if (!device || f->deviceId == device)
                hit = f;
        EXPECT_NE(hit, nullptr) << findingRuleId(rule).toStdString();
        static const Finding none;
        return hit ? *hit : none;
    }
    QTemporaryDir dir;
    std::string path, cleanPath;
    LoadResult loaded;
};

TEST(ExpertRules, EveryNsysFixtureGivesTheRowsOfNsysDefinitions) {
    std::map<FindingRule, std::size_t> total;
    const auto fixtures = test::nsysFixtures();
    ASSERT_GE(fixtures.size(), 7u);
    for (const std::string& name : fixtures)
        for (const auto& [rule, n] : compareWithSql(test::fixturePath(name)))
            total[rule] += n;
    // The fixtures do trip these (the synthetic export below covers the rest).
    // saxpy's 15 cudaMemcpy, and cloverleaf's 279 less its ten host-to-device ones of 64 KB or
    // less.
    EXPECT_EQ(total[FindingRule::CudaMemcpySync], 15u + 269u);
    EXPECT_GT(total[FindingRule::CudaMemcpyAsync], 0u);
    EXPECT_GT(total[FindingRule::CudaApiSync], 1000u);
    EXPECT_GT(total[FindingRule::PageableCopies], 100u);
    EXPECT_GT(total[FindingRule::GpuTimeUtil], 0u);
}

// With a 1 ms gap and other chunking, so that the fixtures' gaps are compared too.
TEST(ExpertRules, EveryNsysFixtureWithOtherThresholds) {
    FindingOptions o;
    o.gpuGapMinNs = kMs;
    o.gpuTimeUtilChunks = 45;
    o.gpuTimeUtilThresholdPercent = 80;
    std::size_t gaps = 0;
    for (const std::string& name : test::nsysFixtures())
        gaps += compareWithSql(test::fixturePath(name), o)[FindingRule::GpuGaps];
    EXPECT_GT(gaps, 10u);
}

TEST_F(ExpertRulesSynthetic, RowsAreNsysDefinitions) {
    const auto compared = compareWithSql(path);
    for (const FindingRule rule : kExpertRules)
        EXPECT_GT(compared.at(rule), 0u) << findingRuleId(rule).toStdString();
    compareWithSql(cleanPath);
}

TEST_F(ExpertRulesSynthetic, EachRuleTripsWithItsExactTimeAtStake) {
    const Findings all = expertFindings(*loaded.trace);
    EXPECT_TRUE(all.skipped.empty());
    const TimeNs span = 3000 * kMs;
    EXPECT_EQ(all.span.duration(), span);
    const struct {
        FindingRule rule;
        TimeNs timeNs;
        std::uint64_t count;
    } want[] = {
        {FindingRule::CudaMemcpyAsync, 150'000, 2},
        {FindingRule::CudaMemcpySync, 230'000, 2},
        {FindingRule::CudaMemsetSync, 30'000, 2},
        {FindingRule::CudaApiSync, syncGapTime(*loaded.trace), 3},
        {FindingRule::PageableCopies, 345'000, 4},
    };
    for (const auto& w : want) {
        SCOPED_TRACE(findingRuleId(w.rule).toStdString());
        const Finding& f = only(all, w.rule);
        EXPECT_EQ(f.timeNs, w.timeNs);
        EXPECT_EQ(f.count, w.count);
        EXPECT_EQ(f.base, ShareBase::Span);
        EXPECT_EQ(f.baseNs, span);
        EXPECT_DOUBLE_EQ(f.sharePercent, 100.0 * double(w.timeNs) / double(span));
    }
    EXPECT_EQ(only(all, FindingRule::CudaApiSync).subject,
              QStringLiteral("cudaDeviceSynchronize_v3020"));
    // The calls block the host 3.5 ms; the GPU idles after their drains, which the gap analysis
    // explains by them.
    EXPECT_EQ(only(all, FindingRule::CudaApiSync).measured, 3'500'000.0);
    EXPECT_GT(only(all, FindingRule::CudaApiSync).timeNs, 0);
    // Longest first, as nsys sorts: the 200 us pageable cudaMemcpy, then the 100 us async one.
    const Finding& pageable = only(all, FindingRule::PageableCopies);
    ASSERT_EQ(pageable.evidence.size(), 4u);
    EXPECT_EQ(pageable.evidence[0].range.duration(), 200'000);
    EXPECT_EQ(pageable.evidence[3].range.duration(), 5'000);
    EXPECT_DOUBLE_EQ(pageable.measured, 3.0 * (1 << 20) + 4096);

    const Finding& gaps = only(all, FindingRule::GpuGaps, 0);
    EXPECT_EQ(gaps.timeNs, 1200 * kMs);
    EXPECT_EQ(gaps.count, 2u);
    EXPECT_EQ(gaps.baseNs, span);
    EXPECT_DOUBLE_EQ(gaps.sharePercent, 40.0);
    ASSERT_EQ(gaps.evidence.size(), 2u);
    EXPECT_EQ(gaps.evidence[0].range, (TimeRange{kBase + 100 * kMs, kBase + 700 * kMs}));
    EXPECT_EQ(gaps.evidence[1].range, (TimeRange{kBase + 2300 * kMs, kBase + 2900 * kMs}));
    EXPECT_FALSE(gaps.evidence[0].event.isValid());
    EXPECT_EQ(gaps.evidence[0].pid, 100u);

    const Finding& util = only(all, FindingRule::GpuTimeUtil, 0);
    EXPECT_EQ(util.timeNs, 1770 * kMs); // 600 + 500 + 70 + 600 ms idle in the low chunks
    EXPECT_EQ(util.count, 18u);
    ASSERT_EQ(util.evidence.size(), 3u);
    EXPECT_EQ(util.evidence[0].range, (TimeRange{kBase + 100 * kMs, kBase + 700 * kMs}));
    EXPECT_EQ(util.evidence[1].range, (TimeRange{kBase + 2300 * kMs, kBase + 2900 * kMs}));
    EXPECT_EQ(util.evidence[2].range, (TimeRange{kBase + 1000 * kMs, kBase + 1600 * kMs}));
    EXPECT_DOUBLE_EQ(util.evidence[2].value, 5.0); // five idle chunks and one 30 % busy
    EXPECT_DOUBLE_EQ(util.measured, 30.0 / 18.0);
}

TEST_F(ExpertRulesSynthetic, CleanTraceTripsNone) {
    const LoadResult clean = loadTrace(QString::fromStdString(cleanPath));
    ASSERT_TRUE(clean.ok());
    const Findings all = expertFindings(*clean.trace);
    EXPECT_TRUE(all.findings.empty()) << findingRuleId(all.findings.front().rule).toStdString();
    EXPECT_TRUE(all.skipped.empty());
    // Nor does any other rule: the GPU is busy throughout, no data loader, no communication,
    // no small grid (the kernels record none), no short kernel behind a long launch.
    const Findings every = computeFindings(*clean.trace);
    for (const Finding& f : every.findings)
        ADD_FAILURE() << "tripped " << findingRuleId(f.rule).toStdString();
}

TEST_F(ExpertRulesSynthetic, ThresholdsChangeTheOutcome) {
    FindingOptions o;
    o.gpuGapMinNs = kMs; // every gap over 1 ms: 600 + 500 + 70 + 600
    Finding gaps = only(expertFindings(*loaded.trace, o), FindingRule::GpuGaps, 0);
    EXPECT_EQ(gaps.timeNs, 1770 * kMs);
    EXPECT_EQ(gaps.count, 4u);
    o.gpuGapMinNs = 500 * kMs - 1; // the 500 ms gap is over it now
    gaps = only(expertFindings(*loaded.trace, o), FindingRule::GpuGaps, 0);
    EXPECT_EQ(gaps.timeNs, 1700 * kMs);
    o.gpuGapMinNs = 600 * kMs; // none over 600 ms
    EXPECT_TRUE(findingsOf(expertFindings(*loaded.trace, o), FindingRule::GpuGaps).empty());

    o = {};
    o.gpuTimeUtilThresholdPercent = 25; // the 30 % chunk is no longer low
    Finding util = only(expertFindings(*loaded.trace, o), FindingRule::GpuTimeUtil, 0);
    EXPECT_EQ(util.timeNs, 1700 * kMs);
    EXPECT_EQ(util.count, 17u);
    o.gpuTimeUtilThresholdPercent = 30; // low means under: the 30 % chunk is not
    EXPECT_EQ(only(expertFindings(*loaded.trace, o), FindingRule::GpuTimeUtil, 0).timeNs,
              1700 * kMs);
    o = {};
    o.gpuTimeUtilChunks = 10; // 300 ms chunks: 0, 1, 3, 4, 8 and 9 low
    util = only(expertFindings(*loaded.trace, o), FindingRule::GpuTimeUtil, 0);
    EXPECT_EQ(util.timeNs, 1500 * kMs);
    EXPECT_EQ(util.count, 6u);
    ASSERT_EQ(util.evidence.size(), 3u);
    EXPECT_EQ(util.evidence[0].range, (TimeRange{kBase, kBase + 600 * kMs}));
    EXPECT_EQ(util.evidence[2].range, (TimeRange{kBase + 2400 * kMs, kBase + 3000 * kMs}));
    EXPECT_NEAR(util.evidence[0].value, 100.0 / 6, 1e-9);
    compareWithSql(path, o);
}

TEST_F(ExpertRulesSynthetic, WordsNameTheNumbers) {
    const Trace& trace = *loaded.trace;
    const Findings all = expertFindings(trace);
    EXPECT_EQ(findingWords(trace, only(all, FindingRule::CudaApiSync)).finding,
              QStringLiteral("3 synchronisation calls (mostly cudaDeviceSynchronize) block the "
                             "host until the GPU is done, for 3.500 ms (0.1 % of the trace); the "
                             "GPU sat idle 5.756 ms in the gaps they explain, 0.2 % of the "
                             "trace."));
    EXPECT_EQ(findingWords(trace, only(all, FindingRule::GpuGaps, 0)).finding,
              QStringLiteral("GPU 0 (NVIDIA H100 80GB HBM3) is idle for over 500.0 ms 2 times "
                             "(the longest 600.0 ms): 1.200 s in all, 40.0 % of its span."));
    for (const Finding& f : all.findings) {
        const FindingWords w = findingWords(trace, f);
        EXPECT_TRUE(w.finding.contains(formatDuration(f.timeNs))) << w.finding.toStdString();
        EXPECT_TRUE(w.finding.contains(QString::number(f.sharePercent, 'f', 1)));
        EXPECT_FALSE(w.nextStep.isEmpty());
        EXPECT_EQ(evidenceColumns(f.rule).size(), evidenceTable(trace, f).rows.front().size());
    }
    EXPECT_TRUE(findingWords(trace, only(all, FindingRule::PageableCopies))
                    .nextStep.contains(QStringLiteral("pin_memory=True")));
    EXPECT_EQ(evidenceColumns(FindingRule::CudaMemcpyAsync).join(QLatin1Char(',')),
              QStringLiteral("Duration (ns),Start (ns),Src Kind,Dst Kind,Bytes,PID,Device ID,"
                             "Context ID,Green Context ID,Stream ID,API Name"));
    const ReportTable gaps = evidenceTable(trace, only(all, FindingRule::GpuGaps, 0));
    ASSERT_EQ(gaps.rows.size(), 2u);
    EXPECT_EQ(gaps.rows[1][0].text, QStringLiteral("2")); // Row#
    EXPECT_EQ(gaps.rows[1][5].text, QStringLiteral("1")); // Context ID
    const ReportTable async = evidenceTable(trace, only(all, FindingRule::CudaMemcpyAsync));
    EXPECT_EQ(async.rows[0][2].text, QStringLiteral("Pageable")); // Src Kind
    EXPECT_EQ(async.rows[0][10].text, QStringLiteral("cudaMemcpyAsync_v3020"));
}

// A Kineto-like trace: copies whose memory kinds were not recorded, and no API calls.
TEST(ExpertRules, MissingDataIsSaidOnce) {
    TraceBuilder b(QStringLiteral("synthetic"));
    MemcpyRecord r;
    r.copyKind = MemcpyKind::HtoD;
    r.bytes = 100;
    b.addMemcpy(1, 0, 1, 7, 1000, 2000, b.intern("Memcpy HtoD"), r);
    const auto trace = b.finish();
    const Findings all = expertFindings(*trace);
    std::map<FindingRule, MissingData> skipped;
    for (const SkippedRule& s : all.skipped)
        skipped[s.rule] = s.missing;
    EXPECT_EQ(skipped.size(), 4u);
    EXPECT_EQ(skipped[FindingRule::CudaMemcpyAsync], MissingData::ApiCalls);
    EXPECT_EQ(skipped[FindingRule::CudaMemcpySync], MissingData::ApiCalls);
    EXPECT_EQ(skipped[FindingRule::CudaApiSync], MissingData::ApiCalls);
    EXPECT_EQ(skipped[FindingRule::PageableCopies], MissingData::MemoryKinds);

    TraceBuilder empty(QStringLiteral("synthetic"));
    const Findings none = expertFindings(*empty.finish());
    EXPECT_TRUE(none.findings.empty());
    skipped.clear();
    for (const SkippedRule& s : none.skipped)
        skipped[s.rule] = s.missing;
    EXPECT_EQ(skipped[FindingRule::GpuGaps], MissingData::GpuWork);
    EXPECT_EQ(skipped[FindingRule::GpuTimeUtil], MissingData::GpuWork);
}

// The time runExpertRules takes on the biggest nsys fixture (printed; median of 5 runs).
TEST(ExpertRules, TimeOnTheBiggestFixture) {
    std::string biggest;
    std::uintmax_t size = 0;
    for (const std::string& name : test::nsysFixtures()) {
        const auto s = std::filesystem::file_size(test::fixturePath(name));
        if (s > size)
            std::tie(biggest, size) = std::tuple(name, s);
    }
    const LoadResult r = loadTrace(QString::fromStdString(test::fixturePath(biggest)));
    ASSERT_TRUE(r.ok());
    const FindingOptions options;
    const StepBreakdown steps;
    const std::vector<GpuStepMetrics> gpus;
    const OperatorForest forest;
    const AnalysisCancel cancel;
    const findingrules::Context ctx{*r.trace, options, steps, gpus, forest, cancel};
    std::vector<double> ms;
    std::size_t findings = 0;
    for (int i = 0; i < 5; ++i) {
        findingrules::Sink sink;
        const auto t0 = std::chrono::steady_clock::now();
        findingrules::runExpertRules(ctx, sink);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
        findings = sink.findings.size();
    }
    std::sort(ms.begin(), ms.end());
    std::printf("runExpertRules on %s: %.3f ms (median of 5), %zu findings\n", biggest.c_str(),
                ms[2], findings);
    EXPECT_GT(findings, 0u);
}

} // namespace
} // namespace strobe
