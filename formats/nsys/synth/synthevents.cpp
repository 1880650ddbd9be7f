// SPDX-License-Identifier: MIT
// The synthetic generator's primitive events: API calls with their kernels, copies and
// memsets; unified-memory migrations; syncs; OS runtime calls; NVTX ranges.
#include "formats/nsys/synth/synthgenerator.h"
#include "formats/nsys/synth/synthrows.h"

#include <algorithm>
#include <cmath>

namespace strobe::synth::detail {

std::uint32_t Generator::api(Thread& t, const char* name, std::int64_t medianNs,
                             std::uint8_t eventClass) {
    const std::uint32_t correlationId = ++m_correlation;
    writeApiCall(m_w, m_rng, {.sigma = 0.25, .pauseMin = 800, .pauseMax = 4000},
                 {.pid = m_pid,
                  .tid = t.tid,
                  .correlationId = correlationId,
                  .name = name,
                  .eventClass = eventClass},
                 t.now, medianNs);
    count(m_stats.apiCalls);
    return correlationId;
}

// The API call ends after the GPU work is queued; GPU start waits for the stream.
std::int64_t Generator::gpuStart(const Thread& t, std::uint32_t stream) {
    return std::max(t.now + m_rng.range(2500, 6000), m_streamFree[stream] + m_rng.range(800, 3000));
}

void Generator::launch(Thread& t, Kind kind, std::uint32_t stream) {
    KernelRow& k = m_kernelTemplates[kind];
    k.start = gpuStart(t, stream);
    k.end = k.start + m_rng.heavyTailNs(kKinds[kind].medianUs * 1000.0, kKinds[kind].sigma);
    launchAt(t, k, stream);
    m_streamFree[stream] = k.end;
}

void Generator::launchAt(Thread& t, KernelRow& k, std::uint32_t stream) {
    k.pid = m_pid;
    k.deviceId = m_device;
    k.contextId = m_context;
    k.streamId = stream;
    k.correlationId = api(t, "cudaLaunchKernel_v7000", 4500);
    m_w.addKernel(k);
    count(m_stats.kernels);
}

void Generator::copy(Thread& t, std::uint32_t stream, std::uint8_t copyKind, std::uint8_t srcKind,
                     std::uint8_t dstKind, std::uint64_t bytes,
                     std::optional<std::uint32_t> srcDevice,
                     std::optional<std::uint32_t> dstDevice) {
    MemcpyRow m;
    m.start = gpuStart(t, stream);
    double bytesPerNs = 24.0; // pinned PCIe 5
    if (srcKind == 0 || dstKind == 0)
        bytesPerNs = 9.0; // pageable: staged through a bounce buffer
    if (copyKind == 8)
        bytesPerNs = 1400.0;
    if (copyKind == 10)
        bytesPerNs = 280.0; // NVLink
    m.end =
        m.start + 1200 + std::int64_t(double(bytes) / bytesPerNs * std::exp(0.08 * m_rng.normal()));
    m.pid = m_pid;
    m.deviceId = m_device;
    m.contextId = m_context;
    m.streamId = stream;
    m.bytes = bytes;
    m.copyKind = copyKind;
    m.srcKind = srcKind;
    m.dstKind = dstKind;
    m.srcDeviceId = srcDevice;
    m.dstDeviceId = dstDevice;
    m.correlationId = api(t, "cudaMemcpyAsync_v3020", 5500);
    m_w.addMemcpy(m);
    count(m_stats.memcpys);
    m_streamFree[stream] = m.end;
}

void Generator::memset(Thread& t, std::uint32_t stream, std::uint64_t bytes) {
    MemsetRow m;
    m.start = gpuStart(t, stream);
    m.end = m.start + 1500 + std::int64_t(double(bytes) / 2000.0);
    m.pid = m_pid;
    m.deviceId = m_device;
    m.contextId = m_context;
    m.streamId = stream;
    m.bytes = bytes;
    m.correlationId = api(t, "cudaMemsetAsync_v3020", 4000);
    m_w.addMemset(m);
    count(m_stats.memsets);
    m_streamFree[stream] = m.end;
}

// Unified-memory migrations: no API call, no stream, correlation id 0.
void Generator::uvmMigrations(std::int64_t at, std::uint8_t copyKind, int n) {
    for (int i = 0; i < n && budgetLeft(kStepReserve + 1); ++i) {
        MemcpyRow m;
        m.start = at + std::int64_t{i} * 9000;
        const std::uint64_t bytes = i % 2 ? 61440 : 4096;
        m.end = m.start + 1800 + std::int64_t(bytes / 10);
        m.pid = m_pid;
        m.deviceId = m_device;
        m.contextId = m_context;
        m.streamId = 0;
        m.correlationId = 0;
        m.bytes = bytes;
        m.copyKind = copyKind;
        m.srcKind = nsys::kUnknownMemoryKind;
        m.dstKind = nsys::kUnknownMemoryKind;
        m.migrationCause = copyKind == 11 ? 2 : 4; // page fault / eviction
        m.virtualAddress = 0x7f6a00000000ull + (m_step * 64 + std::uint64_t(i)) * 65536;
        m_w.addMemcpy(m);
        count(m_stats.memcpys);
    }
}

void Generator::streamSync(Thread& t, std::uint32_t stream) {
    const std::int64_t begin = t.now;
    const std::uint32_t corr = ++m_correlation;
    const std::int64_t end = std::max(begin + 3000, m_streamFree[stream] + 2500);
    syncApi(t, "cudaStreamSynchronize_v3020", corr, begin, end);
    nsys::SyncRow s;
    s.start = begin + 1500;
    s.end = end - 1000;
    s.pid = m_pid;
    s.deviceId = m_device;
    s.contextId = m_context;
    s.streamId = stream;
    s.syncType = 3;
    s.correlationId = corr;
    m_w.addSync(s);
    count(m_stats.syncs);
}

void Generator::deviceSync(Thread& t) {
    const std::int64_t begin = t.now;
    const std::uint32_t corr = ++m_correlation;
    std::int64_t gpuEnd = 0;
    for (std::int64_t f : m_streamFree)
        gpuEnd = std::max(gpuEnd, f);
    const std::int64_t end = std::max(begin + 3000, gpuEnd + 2500);
    syncApi(t, "cudaDeviceSynchronize_v3020", corr, begin, end);
    nsys::SyncRow s;
    s.start = begin + 1500;
    s.end = end - 1000;
    s.pid = m_pid;
    s.deviceId = m_device;
    s.contextId = m_context;
    s.syncType = 1; // what nsys 2022.2-2024.5 write for cudaDeviceSynchronize
    s.correlationId = corr;
    m_w.addSync(s);
    count(m_stats.syncs);
}

void Generator::syncApi(Thread& t, const char* name, std::uint32_t corr, std::int64_t begin,
                        std::int64_t end) {
    nsys::ApiCallRow r;
    r.start = begin;
    r.end = end;
    r.pid = m_pid;
    r.tid = t.tid;
    r.correlationId = corr;
    r.name = name;
    m_w.addApiCall(r);
    count(m_stats.apiCalls);
    t.now = end + m_rng.range(1000, 5000);
}

void Generator::osrt(Thread& t, const char* name, std::int64_t duration, std::int64_t returnValue) {
    nsys::OsrtRow r;
    r.start = t.now;
    r.end = t.now + duration;
    r.pid = m_pid;
    r.tid = t.tid;
    r.name = name;
    r.returnValue = returnValue;
    m_w.addOsrt(r);
    count(m_stats.osrt);
    t.now = r.end + m_rng.range(500, 3000);
}

void Generator::push(Thread& t, std::string text, std::optional<std::uint32_t> color,
                     std::optional<std::uint64_t> domain, bool registered) {
    if (domain && !m_domainCreated[m_rank]) {
        m_domainCreated[m_rank] = true;
        nsys::NvtxRow d;
        d.start = t.now;
        d.eventType = 75;
        d.pid = m_pid;
        d.tid = t.tid;
        d.text = "DataLoader";
        d.domainId = *domain;
        m_w.addNvtx(d);
        count(m_stats.nvtx);
    }
    t.stack.push_back({t.now, std::move(text), color, domain, registered});
    t.now += m_rng.range(300, 900);
}

void Generator::pop(Thread& t) {
    Thread::Open& open = t.stack.back();
    t.now += m_rng.range(200, 600);
    nsys::NvtxRow r;
    r.start = open.start;
    r.end = t.now;
    r.eventType = 59;
    r.pid = m_pid;
    r.tid = t.tid;
    r.text = std::move(open.text);
    r.registered = open.registered;
    r.color = open.color;
    r.domainId = open.domain;
    m_w.addNvtx(r);
    count(m_stats.nvtx);
    t.stack.pop_back();
}

void Generator::count(std::uint64_t& field) {
    ++field;
    if ((++m_stats.events & 0x3FFF) == 0 && m_progress && m_total > 0)
        m_progress(std::min(1.0, double(m_stats.events) / double(m_total)));
}

} // namespace strobe::synth::detail
