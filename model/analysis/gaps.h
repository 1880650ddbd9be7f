// SPDX-License-Identifier: MIT
#pragma once

// GPU idle gaps and why they happened. The definition and the cause rules are documented in
// docs/GAPS.md; the GUI's gaps panel and `strobe-cli gaps` both print what findGaps returns.

#include "model/trace.h"

#include <QString>
#include <QStringView>
#include <optional>
#include <vector>

namespace strobe {

// Why a GPU sat idle, in the precedence order findGaps applies (first match wins).
enum class GapCause : std::uint8_t {
    LaunchOverhead, // the call launching the next work ran through at least half of the gap
    Sync,           // a synchronisation call waited through the gap or drained the GPU before it
    CpuBusy,        // the launching thread was in an NVTX range, OS runtime or other CUDA call
    NoCpuActivity,  // no CUDA API call of the device's processes during the gap
    Unknown,
};

// Stable lowercase key for machine-readable output: "launch-overhead", "sync", "cpu-busy",
// "no-cpu-activity", "unknown".
QString gapCauseKey(GapCause cause);
// Short label for people: "Launch overhead", "Synchronisation", ...
QString gapCauseLabel(GapCause cause);

// The idle threshold the GUI and strobe-cli use until the user picks another: GPU idle stretches
// shorter than 100 us are launch jitter rather than something to explain.
inline constexpr TimeNs kDefaultIdleThresholdNs = 100'000;

// One maximal idle interval of a GPU, at least the threshold long, between its first and last
// busy moment.
struct GpuGap {
    std::uint32_t deviceId = 0;
    TimeRange range;
    GapCause cause = GapCause::Unknown;
    std::optional<std::uint32_t> thread; // responsible thread (index into Trace::threads())
    EventRef event;         // responsible event: the call, range or GPU operation to go to
    EventRef enclosingNvtx; // innermost NVTX range of the launching thread at the gap's middle
    EventRef before;        // a GPU operation ending where the gap starts
    EventRef after;         // a GPU operation starting where the gap ends
    QString detail;         // one sentence naming thread and event
    TimeNs duration() const { return range.duration(); }
};

// Idle time of one GPU: the sum of its gaps (at least the threshold long).
struct DeviceIdleSummary {
    std::uint32_t deviceId = 0;
    std::uint64_t gapCount = 0;
    TimeNs idleNs = 0;
    double tracePercent = 0; // idleNs / trace duration, 0..100
};

struct GapAnalysis {
    TimeNs threshold = 0;
    std::vector<GpuGap> gaps;               // by device id, then start
    std::vector<DeviceIdleSummary> devices; // by device id; every GPU with work or a GpuInfo
};

// Finds every gap of every GPU at least `minDuration` long (clamped to >= 1 ns) and explains it.
GapAnalysis findGaps(const Trace& trace, TimeNs minDuration);

} // namespace strobe
