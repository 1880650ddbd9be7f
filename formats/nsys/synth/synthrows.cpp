// SPDX-License-Identifier: MIT
#include "formats/nsys/synth/synthrows.h"

#include <utility>

namespace strobe::synth {

nsys::GpuRow h100Gpu(std::uint32_t id) {
    nsys::GpuRow g;
    g.id = id;
    g.name = "NVIDIA H100 80GB HBM3";
    g.smCount = 132;
    g.computeMajor = 9;
    g.computeMinor = 0;
    g.maxThreadsPerBlock = 1024;
    g.maxRegistersPerBlock = 65536;
    g.maxRegistersPerSm = 65536;
    g.maxShmemPerBlock = 49152;
    g.maxShmemPerBlockOptin = 227 * 1024;
    g.maxShmemPerSm = 228 * 1024;
    g.threadsPerWarp = 32;
    g.maxWarpsPerSm = 64;
    g.maxBlocksPerSm = 32;
    g.totalMemory = 85031714816;
    g.memoryBandwidth = 3352320000000;
    g.clockRate = 1980000000;
    g.busLocation = id == 0 ? "0000:18:00.0" : "0000:2a:00.0";
    return g;
}

void writeApiCall(nsys::Writer& w, Rng& rng, const ApiCallPace& pace, nsys::ApiCallRow call,
                  std::int64_t& now, std::int64_t medianNs) {
    call.start = now;
    call.end = now + rng.heavyTailNs(double(medianNs), pace.sigma);
    w.addApiCall(call);
    now = call.end + rng.range(pace.pauseMin, pace.pauseMax);
}

} // namespace strobe::synth
