// SPDX-License-Identifier: MIT
#pragma once

#include "model/lod/foldruns.h"
#include "model/types.h"

#include <QString>

namespace strobe {

class Trace;
struct NvtxSummary;

// Tooltip of one event: name, start (relative to the trace start), duration, and what its kind
// adds (kernel: grid, block, registers; memcpy: bytes, direction, GB/s; API call: return value;
// NVTX: domain, depth, GPU work, and with `nvtxNames` (summarizeNvtx of the trace) how many
// ranges share its grouped name and their summed duration). Plain text, one fact per line.
QString eventTooltip(const Trace& trace, EventRef ref, const NvtxSummary* nvtxNames = nullptr);

// Tooltip of a folded item of `lane`'s row `row`: how many events it stands for and their span.
QString foldedTooltip(const Trace& trace, std::uint32_t lane, std::uint16_t row,
                      const DrawItem& item);

// "kernels", "memcpys", "API calls"... for `count` events of a lane of `kind`.
QString eventNoun(LaneKind kind, std::uint64_t count);

} // namespace strobe
