// SPDX-License-Identifier: MIT
#pragma once

// Small hand-made traces for the timeline tests (exact control over edge cases).
#include "model/tracebuilder.h"

#include <memory>

namespace strobe::synth_traces {

// Process 100 "train": main thread 100 (CUDA API + NVTX), thread 101 with only OS runtime calls.
// GPU 0 "Test GPU": stream 7 with kernels (two overlap), stream 8 with a memcpy and a memset.
// Times in ns from 0 to 10,000.
// `gpuSampleStride` > 1 makes it a partial picture of sampled GPU rows (TraceMetadata).
inline std::unique_ptr<Trace> smallTrace(std::uint32_t gpuSampleStride = 1) {
    TraceBuilder b(QStringLiteral("small"));
    b.metadata().gpuSampleStride = gpuSampleStride;
    b.setProcessName(100, b.intern("train"));
    b.setThreadName(100, 100, b.intern("main"));
    b.setThreadName(100, 101, b.intern("poller"));
    GpuInfo gpu;
    gpu.id = 0;
    gpu.name = b.intern("Test GPU");
    b.addGpu(gpu);
    auto api = [&](TimeNs s, TimeNs e, std::uint32_t corr) {
        ApiCallRecord r;
        r.correlationId = corr;
        b.addApiCall(100, 100, s, e, b.intern("cudaLaunchKernel_v7000"), r);
    };
    KernelConfig gemm;
    gemm.shortName = b.intern("ampere_sgemm_128x64_nn");
    gemm.grid = {80, 1, 1};
    gemm.block = {256, 1, 1};
    gemm.registersPerThread = 96;
    KernelConfig relu;
    relu.shortName = b.intern("vectorized_elementwise_kernel");
    api(100, 200, 1);
    api(300, 400, 2);
    api(500, 600, 3);
    b.addKernel(100, 0, 1, 7, 1000, 3000, gemm, 1u, std::nullopt);
    b.addKernel(100, 0, 1, 7, 2000, 2500, relu, 2u, std::nullopt); // overlaps: second row
    b.addKernel(100, 0, 1, 7, 6000, 6100, relu, 3u, std::nullopt);
    MemcpyRecord mc;
    mc.copyKind = MemcpyKind::HtoD;
    mc.bytes = 4'000'000;
    b.addMemcpy(100, 0, 1, 8, 3500, 5500, b.intern("[CUDA memcpy Host-to-Device]"), mc);
    MemsetRecord ms;
    ms.bytes = 1024;
    b.addMemset(100, 0, 1, 8, 9000, 10000, b.intern("[CUDA memset]"), ms);
    NvtxRecord outer;
    b.addNvtx(100, 100, 0, 0, 700, b.intern("step"), outer, std::nullopt);
    b.addNvtx(100, 100, 0, 50, 650, b.intern("forward"), outer, std::nullopt);
    b.addOsrtCall(100, 101, 0, 10000, b.intern("poll"), OsrtRecord{});
    return b.finish();
}

} // namespace strobe::synth_traces
