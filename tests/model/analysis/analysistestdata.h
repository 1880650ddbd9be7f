// SPDX-License-Identifier: MIT
#pragma once

// Small synthetic traces for the analysis tests, built with TraceBuilder.

#include "model/tracebuilder.h"

#include <memory>

namespace strobe::test {

struct KernelSpec {
    const char* shortName;
    const char* demangled;
    TimeNs start;
    TimeNs duration;
    std::int32_t gridX = 1;
    std::uint32_t stream = 7;
    std::uint32_t registers = 32;
};

inline KernelConfig makeConfig(TraceBuilder& b, const KernelSpec& k) {
    KernelConfig c;
    c.shortName = b.intern(k.shortName);
    c.demangledName = b.intern(k.demangled);
    c.grid = {k.gridX, 1, 1};
    c.block = {128, 1, 1};
    c.registersPerThread = k.registers;
    return c;
}

// Kernels on device 0, context 1; each launched by a cudaLaunchKernel_v7000 call on thread
// 101 that starts 1000 ns earlier and lasts 500 ns.
inline std::unique_ptr<Trace> kernelTrace(const std::vector<KernelSpec>& kernels) {
    TraceBuilder b(QStringLiteral("synthetic"));
    GpuInfo g;
    g.id = 0;
    g.name = b.intern("Test GPU");
    g.smCount = 4;
    g.computeMajor = 8;
    g.maxThreadsPerBlock = 1024;
    g.maxRegistersPerBlock = 65536;
    g.maxRegistersPerSm = 65536;
    g.maxShmemPerBlock = 49152;
    g.maxShmemPerSm = 167936;
    g.threadsPerWarp = 32;
    g.maxWarpsPerSm = 64;
    g.maxBlocksPerSm = 32;
    b.addGpu(g);
    const StringId launch = b.intern("cudaLaunchKernel_v7000");
    std::uint32_t corr = 1;
    for (const KernelSpec& k : kernels) {
        ApiCallRecord a;
        a.correlationId = corr;
        b.addApiCall(100, 101, k.start - 1000, k.start - 500, launch, a);
        b.addKernel(100, 0, 1, k.stream, k.start, k.start + k.duration, makeConfig(b, k), corr,
                    std::nullopt);
        ++corr;
    }
    return b.finish();
}

// Memcpys of each direction and one memset on device 0, stream 7, with their bytes.
inline std::unique_ptr<Trace> memoryTrace() {
    TraceBuilder b(QStringLiteral("synthetic"));
    const StringId name = b.intern("[CUDA memcpy]");
    auto copy = [&](MemcpyKind kind, TimeNs start, TimeNs duration, std::uint64_t bytes) {
        MemcpyRecord r;
        r.copyKind = kind;
        r.bytes = bytes;
        b.addMemcpy(1, 0, 1, 7, start, start + duration, name, r);
    };
    copy(MemcpyKind::HtoD, 0, 1000, 10'000);    // 10 GB/s
    copy(MemcpyKind::HtoD, 2000, 1000, 30'000); // 30 GB/s
    copy(MemcpyKind::DtoH, 4000, 500, 1000);    // 2 GB/s
    copy(MemcpyKind::PtoP, 5000, 100, 5000);    // 50 GB/s
    copy(MemcpyKind::UnifiedHtoD, 6000, 10, 4096);
    copy(MemcpyKind::UnifiedDtoH, 7000, 0, 4096); // zero duration: no bandwidth
    MemsetRecord m;
    m.bytes = 800;
    b.addMemset(1, 0, 1, 7, 8000, 8100, b.intern("[CUDA memset]"), m);
    return b.finish();
}

} // namespace strobe::test
