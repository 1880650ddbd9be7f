// SPDX-License-Identifier: MIT
// ActivityParser on synthetic CUPTI record buffers (issue 20, items 4, 5, 9, 10 and 11): no GPU
// and no driver, the buffer walk goes through a fake cuptiActivityGetNextRecord.
#include "capture/activityparser.h"
#include "capture/cuptilayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace strobe::capture;
using namespace strobe;

namespace {

struct CollectingSink final : ActivitySink {
    std::vector<nsys::KernelRow> kernels;
    std::vector<nsys::MemcpyRow> memcpys;
    std::vector<nsys::MemsetRow> memsets;
    std::vector<nsys::ApiCallRow> apis;
    std::vector<nsys::SyncRow> syncs;
    std::vector<nsys::GpuRow> gpus;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> contexts;
    int zeroStart = 0, inverted = 0;
    std::uint64_t dropped = 0;

    void addKernel(nsys::KernelRow row) override { kernels.push_back(std::move(row)); }
    void addMemcpy(nsys::MemcpyRow row) override { memcpys.push_back(std::move(row)); }
    void addMemset(nsys::MemsetRow row) override { memsets.push_back(std::move(row)); }
    void addApiCall(nsys::ApiCallRow row) override { apis.push_back(std::move(row)); }
    void addSync(nsys::SyncRow row) override { syncs.push_back(std::move(row)); }
    void addGpu(const nsys::GpuRow& row) override { gpus.push_back(row); }
    void noteContext(std::uint32_t c, std::uint32_t d) override { contexts.emplace_back(c, d); }
    void noteSkipped(SkippedRecord why) override {
        ++(why == SkippedRecord::ZeroStart ? zeroStart : inverted);
    }
    void noteDropped(std::uint64_t n) override { dropped += n; }
};

// The fake buffer: the records to hand out, then `g_end` (after `g_endAt` records).
std::vector<CUpti_Activity*> g_records;
std::size_t g_endAt = SIZE_MAX;
CUptiResult g_end = CUPTI_ERROR_MAX_LIMIT_REACHED;
std::size_t g_droppedToReport = 0;

CUptiResult fakeNext(uint8_t*, size_t, CUpti_Activity** record) {
    std::size_t next = 0;
    if (*record) {
        next = std::size_t(std::find(g_records.begin(), g_records.end(), *record) -
                           g_records.begin()) +
               1;
    }
    if (next >= g_endAt)
        return g_end;
    if (next >= g_records.size())
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = g_records[next];
    return CUPTI_SUCCESS;
}
CUptiResult fakeDropped(CUcontext, uint32_t, size_t* dropped) {
    *dropped = g_droppedToReport;
    return CUPTI_SUCCESS;
}
CUptiResult fakeName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const char** name) {
    *name =
        domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == 211 ? "cudaLaunchKernel_v7000" : nullptr;
    return CUPTI_SUCCESS;
}

CuptiFunctions fakes() {
    CuptiFunctions f;
    f.nextRecord = fakeNext;
    f.droppedRecords = fakeDropped;
    f.callbackName = fakeName;
    return f;
}

KernelRecord kernel(std::uint64_t start, std::uint64_t end) {
    KernelRecord k{};
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = start;
    k.end = end;
    k.deviceId = 1;
    k.contextId = 7;
    k.streamId = 13;
    k.correlationId = 42;
    k.gridX = 4;
    k.gridY = 2;
    k.gridZ = 1;
    k.blockX = 128;
    k.blockY = 1;
    k.blockZ = 1;
    k.registersPerThread = 32;
    k.localMemoryTotal = 5;                // the truncated 32-bit field
    k.localMemoryTotal_v2 = 5'000'000'000; // the real value
    k.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
    k.name = "_Z17gemm_tiled_kernelPKfS0_Pfi";
    return k;
}

class Parser : public ::testing::Test {
protected:
    void SetUp() override {
        g_records.clear();
        g_endAt = SIZE_MAX;
        g_end = CUPTI_ERROR_MAX_LIMIT_REACHED;
        g_droppedToReport = 0;
    }
    CollectingSink sink;
    ActivityParser parser{sink, fakes()};
    std::uint8_t buffer[8] = {};
};

} // namespace

TEST_F(Parser, KernelFieldsLaunchTypeAndLocalMemory) {
    KernelRecord k = kernel(1000, 2000);
    parser.setTimestampOffset(10);
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&k));
    ASSERT_EQ(sink.kernels.size(), 1u);
    const auto& row = sink.kernels[0];
    EXPECT_EQ(row.start, 1010);
    EXPECT_EQ(row.end, 2010);
    EXPECT_EQ(row.deviceId, 1u);
    EXPECT_EQ(row.contextId, 7u);
    EXPECT_EQ(row.streamId, 13u);
    EXPECT_EQ(row.correlationId, 42u);
    EXPECT_EQ(row.launchType, 1); // nsys: 1 Regular (CUPTI numbers it 0)
    EXPECT_EQ(row.localTotal, 5'000'000'000u);
    EXPECT_EQ(row.grid, (std::array<std::int32_t, 3>{4, 2, 1}));
    EXPECT_EQ(row.registersPerThread, 32u);
    EXPECT_EQ(row.shortName, "gemm_tiled_kernel");
    EXPECT_EQ(row.demangledName, "gemm_tiled_kernel(float const*, float const*, float*, int)");
    EXPECT_EQ(sink.contexts, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{7, 1}}));
}

TEST(LaunchType, EveryCuptiValueMapsToTheNsysNumber) {
    EXPECT_EQ(nsysLaunchType(CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR), 1);
    EXPECT_EQ(nsysLaunchType(CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE), 2);
    EXPECT_EQ(nsysLaunchType(CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE), 3);
    EXPECT_EQ(nsysLaunchType(CUPTI_ACTIVITY_LAUNCH_TYPE_CBL_COMMANDLIST), 0);
    EXPECT_EQ(nsysLaunchType(200), 0);
}

TEST(MemoryKind, CuptiUnknownFirstBecomesNsysUnknownLast) {
    EXPECT_EQ(nsysMemoryKind(CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE), 0);
    EXPECT_EQ(nsysMemoryKind(CUPTI_ACTIVITY_MEMORY_KIND_PINNED), 1);
    EXPECT_EQ(nsysMemoryKind(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE), 2);
    EXPECT_EQ(nsysMemoryKind(CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN), 7);
    EXPECT_EQ(nsysMemoryKind(99), 7);
}

TEST_F(Parser, UntimedAndInvertedRecordsAreSkippedAndCounted) {
    KernelRecord zero = kernel(0, 0);
    KernelRecord zeroStart = kernel(0, 500);
    KernelRecord inverted = kernel(2000, 1000);
    KernelRecord endZero = kernel(2000, 0);  // an incomplete record from a forced flush
    KernelRecord equal = kernel(3000, 3000); // zero length is a real time
    for (auto* k : {&zero, &zeroStart, &inverted, &endZero, &equal})
        parser.handleRecord(reinterpret_cast<CUpti_Activity*>(k));
    MemcpyRecord m{};
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&m));
    ApiRecord a{};
    a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    a.start = 50;
    a.end = 40;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&a));
    EXPECT_EQ(sink.zeroStart, 3);
    EXPECT_EQ(sink.inverted, 3);
    ASSERT_EQ(sink.kernels.size(), 1u);
    EXPECT_EQ(sink.kernels[0].start, 3000);
    EXPECT_TRUE(sink.memcpys.empty());
    EXPECT_TRUE(sink.apis.empty());
}

TEST_F(Parser, InvalidKindEndsTheBufferQuietly) {
    KernelRecord a = kernel(100, 200), b = kernel(300, 400), c = kernel(500, 600);
    g_records = {reinterpret_cast<CUpti_Activity*>(&a), reinterpret_cast<CUpti_Activity*>(&b),
                 reinterpret_cast<CUpti_Activity*>(&c)};
    g_endAt = 2;
    g_end = CUPTI_ERROR_INVALID_KIND;
    g_droppedToReport = 7;
    testing::internal::CaptureStderr();
    EXPECT_EQ(parser.parseBuffer(nullptr, 0, buffer, sizeof buffer), 2u);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(sink.kernels.size(), 2u);
    EXPECT_EQ(sink.dropped, 7u);
}

TEST_F(Parser, OtherErrorsEndTheBufferWithOneLine) {
    KernelRecord a = kernel(100, 200), b = kernel(300, 400);
    g_records = {reinterpret_cast<CUpti_Activity*>(&a), reinterpret_cast<CUpti_Activity*>(&b)};
    g_endAt = 1;
    g_end = CUPTI_ERROR_INVALID_PARAMETER;
    testing::internal::CaptureStderr();
    EXPECT_EQ(parser.parseBuffer(nullptr, 0, buffer, sizeof buffer), 1u);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_EQ(err.rfind("strobe-inject: cuptiActivityGetNextRecord failed with 1 "
                        "(CUPTI_ERROR_INVALID_PARAMETER)",
                        0),
              0u)
        << err;
    EXPECT_EQ(sink.dropped, 0u);
}

TEST_F(Parser, WholeBufferUntilMaxLimit) {
    KernelRecord a = kernel(100, 200), b = kernel(300, 400);
    g_records = {reinterpret_cast<CUpti_Activity*>(&a), reinterpret_cast<CUpti_Activity*>(&b)};
    EXPECT_EQ(parser.parseBuffer(nullptr, 0, buffer, sizeof buffer), 2u);
    EXPECT_EQ(parser.parseBuffer(nullptr, 0, buffer, 0), 0u); // an empty buffer
    EXPECT_EQ(sink.kernels.size(), 2u);
}

TEST_F(Parser, MemcpyLinksToTheRuntimeCall) {
    MemcpyRecord m{};
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.start = 10;
    m.end = 20;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.bytes = 4096;
    m.deviceId = 2;
    m.contextId = 9;
    m.correlationId = 100;       // the driver call
    m.runtimeCorrelationId = 99; // the runtime call that made it
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&m));
    m.runtimeCorrelationId = 0; // driver API used directly
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&m));
    ASSERT_EQ(sink.memcpys.size(), 2u);
    EXPECT_EQ(sink.memcpys[0].correlationId, 99u);
    EXPECT_EQ(sink.memcpys[1].correlationId, 100u);
    EXPECT_EQ(sink.memcpys[0].copyKind, 1);
    EXPECT_EQ(sink.memcpys[0].srcKind, 1);
    EXPECT_EQ(sink.memcpys[0].dstKind, 2);
    EXPECT_EQ(sink.memcpys[0].bytes, 4096u);
    EXPECT_EQ(sink.contexts.front(), (std::pair<std::uint32_t, std::uint32_t>{9, 2}));
}

TEST_F(Parser, MemsetApiSyncContextAndDevice) {
    MemsetRecord s{};
    s.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    s.start = 5;
    s.end = 6;
    s.bytes = 64;
    s.value = 3;
    s.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    s.correlationId = 11;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&s));
    ApiRecord a{};
    a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    a.cbid = 211;
    a.start = 1;
    a.end = 2;
    a.threadId = 77;
    a.correlationId = 12;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&a));
    a.kind = CUPTI_ACTIVITY_KIND_DRIVER;
    a.cbid = 307;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&a));
    SyncRecord y{};
    y.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    y.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    y.start = 8;
    y.end = 9;
    y.contextId = 4;
    y.streamId = 0xFFFFFFFF;
    y.cudaEventId = 0xFFFFFFFF;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&y));
    ContextRecord c{};
    c.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    c.contextId = 4;
    c.deviceId = 3;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&c));
    DeviceRecord d{};
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.id = 3;
    d.name = "Test GPU";
    d.numMultiprocessors = 132;
    d.coreClockRate = 1980000;
    d.globalMemoryBandwidth = 4800000000;
    parser.handleRecord(reinterpret_cast<CUpti_Activity*>(&d));

    ASSERT_EQ(sink.memsets.size(), 1u);
    EXPECT_EQ(sink.memsets[0].memKind, 2);
    EXPECT_EQ(sink.memsets[0].value, 3u);
    EXPECT_EQ(sink.memsets[0].correlationId, 11u);
    ASSERT_EQ(sink.apis.size(), 2u);
    EXPECT_EQ(sink.apis[0].name, "cudaLaunchKernel_v7000");
    EXPECT_EQ(sink.apis[0].eventClass, 0);
    EXPECT_EQ(sink.apis[0].tid, 77u);
    EXPECT_EQ(sink.apis[1].name, "cbid 307"); // no name from CUPTI
    EXPECT_EQ(sink.apis[1].eventClass, 1);
    ASSERT_EQ(sink.syncs.size(), 1u);
    EXPECT_EQ(sink.syncs[0].syncType, 4); // context sync, in both numberings
    EXPECT_EQ(sink.syncs[0].contextId, 4u);
    EXPECT_EQ(sink.syncs[0].deviceId, 0u); // the recorder fills it from the context map
    EXPECT_EQ(sink.contexts.back(), (std::pair<std::uint32_t, std::uint32_t>{4, 3}));
    ASSERT_EQ(sink.gpus.size(), 1u);
    EXPECT_EQ(sink.gpus[0].name, "Test GPU");
    EXPECT_EQ(sink.gpus[0].smCount, 132u);
    EXPECT_EQ(sink.gpus[0].clockRate, 1980000000u);
    EXPECT_EQ(sink.gpus[0].memoryBandwidth, 4800000000000u);
    EXPECT_EQ(sink.gpus[0].busLocation, ""); // asked from the driver at finish, not here
}
