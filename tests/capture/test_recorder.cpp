// SPDX-License-Identifier: MIT
// A Recorder driven directly (no process hooks), fed through the ActivityParser with synthetic
// CUPTI records, writing a real trace that the tests read back with SQL (issue 20, items 4, 6,
// 7, 8, 10 and 11).
#include "capture/activityparser.h"
#include "capture/cuptilayout.h"
#include "capture/recorder.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

using namespace strobe::capture;
using namespace strobe;

namespace {

constexpr std::int64_t kStart = 1'000'000; // the session's t = 0 on the monotonic clock

std::vector<std::string> query(const std::string& file, const std::string& sql) {
    std::vector<std::string> rows;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << "cannot open " << file;
        sqlite3_close(db);
        return rows;
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
        sqlite3_close(db);
        return rows;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::string row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            if (c)
                row += '|';
            const auto* text = sqlite3_column_text(stmt, c);
            row += text ? reinterpret_cast<const char*>(text) : "NULL";
        }
        rows.push_back(row);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

std::string single(const std::string& file, const std::string& sql) {
    const auto rows = query(file, sql);
    return rows.size() == 1 ? rows[0] : "<" + std::to_string(rows.size()) + " rows>";
}

std::string info(const std::string& file, const std::string& name) {
    return single(file, "SELECT value FROM META_DATA_CAPTURE WHERE name = '" + name + "'");
}

CUptiResult noName(CUpti_CallbackDomain, CUpti_CallbackId cbid, const char** name) {
    static const std::string names[] = {"cudaMemsetAsync_v3020", "cuMemsetD8Async",
                                        "cuCtxSynchronize", "cuMemAlloc_v2"};
    *name = cbid < 4 ? names[cbid].c_str() : nullptr;
    return CUPTI_SUCCESS;
}

class RecorderTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir = std::string(STROBE_TEST_TMPDIR) + "/recorder-XXXXXX";
        ASSERT_NE(::mkdtemp(dir.data()), nullptr);
        out = dir + "/t.sqlite";
        CaptureConfig config;
        config.output = out;
        config.startMonotonicNs = kStart;
        config.startUtcNs = 1'700'000'000'000'000'000;
        recorder = std::make_unique<Recorder>(config);
        CuptiFunctions f;
        f.callbackName = noName;
        parser = std::make_unique<ActivityParser>(*recorder, f);
    }
    void feed(void* record) { parser->handleRecord(static_cast<CUpti_Activity*>(record)); }

    KernelRecord kernel(std::uint32_t device, std::uint32_t context, std::uint64_t start) {
        KernelRecord k{};
        k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k.start = std::uint64_t(kStart) + start;
        k.end = k.start + 100;
        k.deviceId = device;
        k.contextId = context;
        k.streamId = 7;
        k.correlationId = 1;
        k.name = "k";
        return k;
    }
    SyncRecord sync(std::uint32_t context, std::uint64_t start) {
        SyncRecord s{};
        s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
        s.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
        s.start = std::uint64_t(kStart) + start;
        s.end = s.start + 10;
        s.contextId = context;
        s.streamId = 0xFFFFFFFF;
        s.cudaEventId = 0xFFFFFFFF;
        return s;
    }
    ApiRecord api(CUpti_ActivityKind kind, std::uint32_t cbid, std::uint64_t start,
                  std::uint64_t end, std::uint32_t correlation) {
        ApiRecord a{};
        a.kind = kind;
        a.cbid = cbid;
        a.start = std::uint64_t(kStart) + start;
        a.end = std::uint64_t(kStart) + end;
        a.threadId = 500;
        a.correlationId = correlation;
        return a;
    }

    std::string dir, out;
    std::unique_ptr<Recorder> recorder;
    std::unique_ptr<ActivityParser> parser;
};

} // namespace

// Item 7: a sync row that arrives before any GPU work of its context waits for the context's
// device instead of claiming device 0, and the context map comes from the kernels.
TEST_F(RecorderTest, SyncRowsTakeTheirDeviceFromTheContextMap) {
    SyncRecord early = sync(20, 50);
    feed(&early); // context 20's device is not known yet
    KernelRecord k1 = kernel(1, 20, 100);
    feed(&k1);
    SyncRecord late = sync(20, 300);
    feed(&late);
    ContextRecord c{};
    c.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    c.contextId = 30;
    c.deviceId = 2;
    SyncRecord other = sync(30, 400);
    feed(&other);
    feed(&c);
    recorder->finish("exit");
    EXPECT_EQ(query(out, "SELECT start, deviceId, contextId FROM "
                         "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION ORDER BY start"),
              (std::vector<std::string>{"50|1|20", "300|1|20", "400|2|30"}));
    EXPECT_EQ(query(out, "SELECT contextId, deviceId FROM TARGET_INFO_CUDA_CONTEXT_INFO ORDER BY "
                         "contextId"),
              (std::vector<std::string>{"20|1", "30|2"}));
    EXPECT_EQ(info(out, "STROBE_SYNCS_WITHOUT_DEVICE"), "0");
}

TEST_F(RecorderTest, SyncOfAnUnknownContextIsCountedOnSeveralGpus) {
    DeviceRecord d0{}, d1{};
    d0.kind = d1.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d1.id = 1;
    feed(&d0);
    feed(&d1);
    SyncRecord s = sync(40, 10);
    feed(&s);
    recorder->finish("exit");
    EXPECT_EQ(single(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), "1");
    EXPECT_EQ(info(out, "STROBE_SYNCS_WITHOUT_DEVICE"), "1");
}

TEST_F(RecorderTest, SyncOfAnUnknownContextOnTheOnlyGpu) {
    DeviceRecord d{};
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.id = 3;
    feed(&d);
    SyncRecord s = sync(40, 10);
    feed(&s);
    recorder->finish("exit");
    EXPECT_EQ(single(out, "SELECT deviceId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), "3");
    EXPECT_EQ(info(out, "STROBE_SYNCS_WITHOUT_DEVICE"), "0");
}

// Items 6 and 10: nested driver calls are dropped as they arrive; a memset is linked to the
// runtime call that made its driver call; the peak of what was held is in the metadata.
TEST_F(RecorderTest, DriverCallsAreFilteredAndMemsetsLinkedToTheirRuntimeCall) {
    ApiRecord direct = api(CUPTI_ACTIVITY_KIND_DRIVER, 2, 10, 20, 1);     // cuCtxSynchronize
    ApiRecord nested = api(CUPTI_ACTIVITY_KIND_DRIVER, 1, 110, 120, 2);   // cuMemsetD8Async
    ApiRecord runtime = api(CUPTI_ACTIVITY_KIND_RUNTIME, 0, 100, 130, 3); // cudaMemsetAsync
    ApiRecord alone = api(CUPTI_ACTIVITY_KIND_DRIVER, 3, 200, 210, 4);    // cuMemAlloc_v2
    feed(&direct);
    feed(&nested);
    feed(&runtime);
    feed(&alone);
    MemsetRecord m{};
    m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    m.start = kStart + 150;
    m.end = kStart + 160;
    m.deviceId = 0;
    m.contextId = 1;
    m.correlationId = 2; // the driver call's id, as CUPTI documents
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    feed(&m);
    recorder->finish("exit");
    EXPECT_EQ(query(out, "SELECT r.correlationId, r.eventClass, s.value FROM "
                         "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                         "ORDER BY r.start"),
              (std::vector<std::string>{"1|1|cuCtxSynchronize", "3|0|cudaMemsetAsync_v3020",
                                        "4|1|cuMemAlloc_v2"}));
    EXPECT_EQ(single(out, "SELECT correlationId, memKind FROM CUPTI_ACTIVITY_KIND_MEMSET"), "3|2");
    EXPECT_GT(std::stoll(info(out, "STROBE_RECORDER_PEAK_BYTES")), 0);
    EXPECT_EQ(info(out, "STROBE_DRIVER_CALLS_PEAK_WAITING"), "2");
}

// Items 4 and 11: skipped and dropped records are counted in the metadata and on stderr.
TEST_F(RecorderTest, SkippedAndDroppedRecordsAreInTheMetadata) {
    KernelRecord good = kernel(0, 1, 10), zero = kernel(0, 1, 0), inverted = kernel(0, 1, 500);
    zero.start = zero.end = 0;
    inverted.end = inverted.start - 1;
    feed(&good);
    feed(&zero);
    feed(&inverted);
    recorder->noteDropped(12);
    recorder->setCaptureInfo("STROBE_CUPTI_VERSION", "130001");
    testing::internal::CaptureStderr();
    recorder->finish("duration");
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(single(out, "SELECT start, \"end\" FROM CUPTI_ACTIVITY_KIND_KERNEL"), "10|110");
    EXPECT_EQ(info(out, "STROBE_RECORDS_SKIPPED_ZERO_START"), "1");
    EXPECT_EQ(info(out, "STROBE_RECORDS_SKIPPED_INVERTED"), "1");
    EXPECT_EQ(info(out, "STROBE_CUPTI_DROPPED_RECORDS"), "12");
    EXPECT_EQ(info(out, "STROBE_CUPTI_VERSION"), "130001");
    EXPECT_EQ(info(out, "STROBE_CAPTURE_END"), "duration");
    EXPECT_EQ(info(out, "STROBE_TRACE_INCOMPLETE"), "0");
    EXPECT_EQ(info(out, "STROBE_CUDA_TRACE"), "not initialised (no CUDA call was made)");
    EXPECT_NE(err.find("strobe-inject: warning: skipped 2 CUPTI records without valid times (1 "
                       "with start 0, 1 ending before their start)"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("strobe-inject: warning: CUPTI dropped 12 activity records"),
              std::string::npos)
        << err;
}

// Item 8: the GPU limits are asked from the driver at finish, after the flush hook (which turns
// tracing off), never while records are parsed.
TEST_F(RecorderTest, GpusAreQueriedAfterTracingStops) {
    std::vector<std::string> order;
    recorder->setFlushHook([&] { order.push_back("flush"); });
    recorder->setGpuQueryHook([&](nsys::GpuRow& gpu) {
        order.push_back("query " + std::to_string(gpu.id));
        gpu.busLocation = "0000:17:00.0";
        gpu.maxShmemPerBlockOptin = 232448;
    });
    DeviceRecord d{};
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.id = 0;
    d.name = "Fake";
    feed(&d);
    KernelRecord k = kernel(0, 1, 10);
    feed(&k);
    EXPECT_TRUE(order.empty());
    recorder->finish("exit", true);
    EXPECT_EQ(order, (std::vector<std::string>{"flush", "query 0"}));
    EXPECT_EQ(single(out, "SELECT name, busLocation, maxShmemPerBlockOptin FROM TARGET_INFO_GPU"),
              "Fake|0000:17:00.0|232448");
    EXPECT_EQ(info(out, "STROBE_TRACE_INCOMPLETE"), "1");
    // Nothing after finish is recorded, and a second finish does nothing.
    KernelRecord after = kernel(0, 1, 900);
    feed(&after);
    recorder->finish("exit");
    EXPECT_EQ(single(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), "1");
}

TEST_F(RecorderTest, NothingRecordedWritesNothing) {
    testing::internal::CaptureStderr();
    recorder->finish("exit");
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "strobe-inject: nothing was recorded, no trace written\n");
    EXPECT_NE(::access(out.c_str(), F_OK), 0);
}

TEST_F(RecorderTest, UnwritableOutputIsOneSentence) {
    CaptureConfig config;
    config.output = dir + "/missing/t.sqlite";
    Recorder r(config);
    testing::internal::CaptureStderr();
    nsys::NvtxRow row;
    row.text = "x";
    r.addNvtx(row);
    r.addNvtx(row); // the failure is reported once
    r.finish("exit");
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.rfind("strobe-inject: Cannot create a temporary file beside " + dir +
                            "/missing/t.sqlite",
                        0),
              0u)
        << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}
