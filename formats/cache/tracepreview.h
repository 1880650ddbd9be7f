// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>

namespace strobe {

class Trace;

// The reopen cache's preview of a big trace (docs/CACHE.md): what a viewer paints first while
// the whole entry is read. It holds a sample of the GPU side spread over the whole trace, as the
// nsys reader's sampled passes do: of each GPU lane (kernels, memcpys, memsets, migrations), one
// block of `blockEvents` consecutive events in every `stride`, `stride` the smallest power of two
// that keeps at most `maxEvents` in all, with their records, GPUs, streams and processes, over
// the whole trace's time range. metadata().stage is GpuSideBegun with gpuSampleStride the stride,
// or GpuSide (stride 1) when every GPU event fits. It is rebuilt through TraceBuilder, so it is a
// frozen Trace like any other and is stored and validated as one. Null when the trace has no GPU
// events or one block of each lane is more than `maxEvents`.
std::unique_ptr<Trace> cachePreviewOf(const Trace& trace, std::uint64_t maxEvents,
                                      std::uint32_t blockEvents = 256);

// The events in `trace`'s lanes.
std::uint64_t laneEventCount(const Trace& trace);

} // namespace strobe
