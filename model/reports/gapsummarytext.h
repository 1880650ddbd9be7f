// SPDX-License-Identifier: MIT
#pragma once

// The per-GPU sentences of the GPU Gaps panel's header and of `strobe-cli gaps --format text`,
// written once so that both say the same thing.

#include "model/analysis/gaps.h"

#include <QString>
#include <QStringList>

namespace strobe {

// "Gaps of at least 100.0 µs, busy = kernels, memcpys and memsets." (or "busy = kernels").
QString gapsHeadline(const GapAnalysis& analysis);

// What a share of gap time is of: the trace's duration, or a selected range.
enum class GapShareBase : std::uint8_t { Trace, Selection };
// "1.903 ms in 7 gaps of at least 100.0 µs (0.2 % of the trace)": a GPU's gap figures, in the
// one shape the GPU Gaps panel, strobe-cli gaps and info and the Overview all use, so that the
// same threshold gives the same words. `percent` is of `base`, 0..100.
QString gapFiguresText(TimeNs gapNs, std::uint64_t gapCount, TimeNs threshold, double percent,
                       GapShareBase base);
// "GPU 0: kernels 22.14 ms, copies 946.2 ms, idle " then gapFiguresText at `threshold`, of the
// trace; "GPU 1: no GPU work recorded" for a GPU without any kernel, memcpy or memset; "GPU 0:
// no kernels recorded, copies 946.2 ms" when none of its work counts as busy.
QString gpuWorkLine(const DeviceIdleSummary& device, BusyWork busy, TimeNs threshold);
// "idle before first work 455.3 ms" and "idle after last work 1.2 ms": the stretches at the
// trace's ends, which are not gaps. Empty for a GPU with nothing busy.
QString idleBeforeLine(const DeviceIdleSummary& device);
QString idleAfterLine(const DeviceIdleSummary& device);

} // namespace strobe
