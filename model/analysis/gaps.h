// SPDX-License-Identifier: MIT
#pragma once

// GPU idle gaps and why they happened. The definition and the cause rules are documented in
// docs/GAPS.md; the GUI's gaps panel and `strobe-cli gaps` both print what findGaps returns,
// in the words of model/reports/gaptext.h.

#include "model/lod/utilization.h"
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
    CpuWait,        // rule 3: the blocking OS runtime call `call` covered half the gap
    NoCpuActivity,  // no CUDA API call of the device's processes during the gap
    Unknown,
};

// Stable lowercase key for machine-readable output: "launch-overhead", "sync", "cpu-busy",
// "cpu-wait", "no-cpu-activity", "unknown". The label for people is model/reports'
// gapCauseLabel.
QString gapCauseKey(GapCause cause);

// Which of findGaps' rules explained a gap (docs/GAPS.md): a cause can fire through more than
// one rule (Sync: a wait through the gap, or a drain before it), and each rule measures
// different things.
enum class GapRule : std::uint8_t {
    None,           // nothing explained: an empty range given to explainGap
    LaunchOverhead, // rule 1: `call` launched the next work and ran through half the gap
    SyncWait,       // rule 2: the sync call `call` covered half the gap
    CpuWait,        // rule 3: the blocking OS runtime call `call` covered half the gap
    CpuBusy,        // rule 3: `nvtxRange` and/or `call` (OS runtime or CUDA) covered half the gap
    SyncDrain,      // rule 4: the sync call `call` drained the GPU and returned at `returnedAt`
    NoCpuActivity,  // rule 5: no CUDA call of the device's processes; `call`: the next launch
    OtherCalls,     // none: `otherCalls` CUDA calls explain nothing; `call`: the next launch
};

// What the rule that fired measured: the numbers and events a sentence about the gap needs
// (model/reports' gapDetailText), typed. Covered times are the parts of the gap inside the event.
struct GapEvidence {
    GapRule rule = GapRule::None;
    // LaunchOverhead: the launch; SyncWait, SyncDrain: the sync call; CpuWait: the OS wait;
    // CpuBusy: the OS runtime or CUDA call, if any; NoCpuActivity, OtherCalls: the call that
    // launched the next work (invalid: none recorded).
    EventRef call;
    TimeNs callCoveredNs = 0;
    EventRef nvtxRange; // CpuBusy, CpuWait: the deepest NVTX range covering half the gap
    TimeNs rangeCoveredNs = 0;
    TimeNs callStart = 0;         // LaunchOverhead: when the launch call began
    TimeNs returnedAt = 0;        // SyncDrain: when the sync call returned (inside the gap)
    std::uint64_t otherCalls = 0; // OtherCalls: CUDA calls during the gap, the launch aside
    std::optional<TimeNs> copyNs; // kernels-only analyses: copy time inside the gap, when > 0
};

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
    GapEvidence evidence;   // what the rule measured; `thread` is the thread it names
    TimeNs duration() const { return range.duration(); }
};

// Stable key of what counts as busy ("all", "kernels", "copies"), and back (nullopt: none).
QString busyWorkKey(BusyWork work);
std::optional<BusyWork> busyWorkFromKey(QStringView key);

// Where one GPU's time went over the trace's time range, and its idle time: the sum of its gaps
// (at least the threshold long). Busy, gaps and the idle stretches at both ends follow the
// analysis's BusyWork; kernel and copy time are always both given.
struct DeviceIdleSummary {
    std::uint32_t deviceId = 0;
    std::uint64_t gapCount = 0;
    TimeNs idleNs = 0;
    double tracePercent = 0; // idleNs / trace duration, 0..100
    TimeNs kernelNs = 0;     // union of its kernels (concurrent kernels count once)
    TimeNs copyNs = 0;       // union of its memcpys and memsets (migrations excluded)
    TimeNs busyNs = 0;       // union of the work that counts as busy
    // First busy moment to last busy end; nullopt when nothing that counts as busy ran.
    std::optional<TimeRange> busySpan;
    TimeNs idleBeforeNs = 0; // trace start to the first busy moment (not a gap); 0 without work
    TimeNs idleAfterNs = 0;  // last busy end to the trace's end (not a gap); 0 without work
    // No kernel, memcpy or memset at all: "no GPU work recorded", not "0 ns idle".
    bool hasWork() const { return kernelNs > 0 || copyNs > 0; }
};

struct GapAnalysis {
    TimeNs threshold = 0;
    BusyWork busy = BusyWork::All;
    std::vector<GpuGap> gaps;               // by device id, then start
    std::vector<DeviceIdleSummary> devices; // by device id; every GPU with work or a GpuInfo
};

// Finds every gap of every GPU at least `minDuration` long (clamped to >= 1 ns), counting `busy`
// work as busy, and explains it.
GapAnalysis findGaps(const Trace& trace, TimeNs minDuration, BusyWork busy = BusyWork::All);

// The per-GPU summaries findGaps gives (same order and values), without finding gap causes:
// cheap enough for `strobe-cli info`.
std::vector<DeviceIdleSummary> summarizeGpus(const Trace& trace, TimeNs minDuration,
                                             BusyWork busy = BusyWork::All);

// Explains one idle stretch `range` of GPU `deviceId` as findGaps would (the timeline's idle-band
// tooltip). `range` should be a gap findGaps finds; any range is explained without a crash.
GpuGap explainGap(const Trace& trace, std::uint32_t deviceId, TimeRange range,
                  BusyWork busy = BusyWork::All);

} // namespace strobe
