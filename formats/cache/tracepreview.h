// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>

namespace strobe {

class Trace;

// The reopen cache's preview of a big trace (docs/CACHE.md): what a viewer paints first while
// the whole entry is read. It holds the GPU side's events (kernels, memcpys, memsets,
// migrations) that start before the moment where at most `maxEvents` of them do, with their
// records, GPUs, streams and processes, over the whole trace's time range, as the nsys reader's
// early preview does (metadata().stage GpuSideBegun; GpuSide when it holds every GPU event). It
// is rebuilt through TraceBuilder, so it is a frozen Trace like any other and is stored and
// validated as one. Null when the trace has no GPU events or the first moment alone holds more
// than `maxEvents`.
std::unique_ptr<Trace> cachePreviewOf(const Trace& trace, std::uint64_t maxEvents);

// The events in `trace`'s lanes.
std::uint64_t laneEventCount(const Trace& trace);

} // namespace strobe
