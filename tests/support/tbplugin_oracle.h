// SPDX-License-Identifier: MIT
#pragma once

// An independent oracle for the operator statistics and the step breakdown: TensorBoard's PyTorch
// profiler plugin (pytorch/kineto, tb_plugin/torch_tb_profiler/profiler: trace.py, event_parser.py,
// op_tree.py, node.py, op_agg.py, overall_parser.py, range_utils.py) followed step by step on the
// events of a Kineto JSON scan (kinetoscan.h), none of Strobe's model. Times are integer
// nanoseconds, the JSON's decimal microseconds converted exactly (the plugin sums the same values
// in floating point). Where the plugin's result rests on Python details (dict order, None keys),
// the oracle does the same; tbplugin_oracle.cpp says where.

#include "tests/support/kinetoscan.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strobe::test {

// The plugin's ProfileRole, in its priority order (an instant goes to the first role active).
enum class TbRole : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Communication,
    Runtime,
    DataLoader,
    CpuOp,
    Other
};
inline constexpr std::size_t kTbRoles = 8;

struct TbOptions {
    // The plugin reads `gpu_user_annotation` ranges (Kineto's projection of user annotations onto
    // the GPU) as user annotations: CpuOp time, and their ProfilerStep#N as more steps. false
    // leaves them out, as Strobe does.
    bool gpuUserAnnotations = true;
    // The plugin ties a runtime call to the operator with its external id only: one whose id
    // matches no operator (traces that reuse the correlation id there, a call without the arg)
    // launched nothing any operator counts, and one with id 0 belongs to the thread's root.
    // true gives each such call to the innermost cpu_op of its thread's tree whose range holds
    // its start (what Kineto's External id names, through the annotations between them), else
    // the innermost node there, as Strobe does with every call.
    bool unmatchedRuntimesByContainment = false;
    // The plugin counts a kernel as communication only when its external id is that of a range
    // named nccl:all_reduce, gloo:broadcast, ... (NcclOpNameSet, GlooOpNameSet): current PyTorch
    // gives NCCL kernels the id of record_param_comms, around such a user annotation, so they
    // are compute there. true counts a kernel as communication when its runtime call starts
    // inside a range of those names on its thread, as Strobe does.
    bool collectiveKernelsByContainment = false;
};

// One row of the Operator view (OperatorAgg).
struct TbOperatorRow {
    std::string name;
    std::string shapes; // str(input_shape): "[[32, 3], []]"; "[]" when none was recorded
    std::uint64_t calls = 0;
    std::int64_t hostSelf = 0, hostTotal = 0, deviceSelf = 0, deviceTotal = 0;
};

// One step of the Overview's step time breakdown, after moving it to the device side.
struct TbStep {
    std::string name; // "550" for ProfilerStep#550; "0" for the whole-trace step
    std::int64_t start = 0, end = 0;
    std::array<std::int64_t, kTbRoles> cost{};
    std::int64_t of(TbRole r) const { return cost[std::size_t(r)]; }
};

// What the plugin met on the way (each a warning or a silent loss there).
struct TbCounts {
    std::uint64_t crossing = 0;       // ranges overlapping an earlier one without nesting: dropped
    std::uint64_t mergedRepeats = 0;  // remove_dup_nodes merges (a single same-name child)
    std::uint64_t orphanRuntimes = 0; // runtimes whose non-zero external id matched no operator
    std::uint64_t staledKernels = 0;  // kernels no runtime launched (put on the main thread's root)
    std::uint64_t lostRuntimes = 0;   // runtimes an operator dropped when merged with its child
};

struct TbResult {
    std::vector<TbOperatorRow> byName;          // by name, first-aggregated first
    std::vector<TbOperatorRow> byNameAndShapes; // by name and str(input_shape)
    std::int64_t deviceTime = 0;                // every kernel, memcpy and memset read
    std::int64_t operatorDevice = 0;            // the sum of every operator's self device time
    std::int64_t unattributedDevice() const { return deviceTime - operatorDevice; }
    std::vector<TbStep> steps;
    std::uint32_t removedTailSteps = 0;
    TbCounts counts;
    bool hasModuleFrames = false; // nn.Module frames: the plugin also rebuilds backward modules,
                                  // which the oracle does not follow
};

// The plugin's numbers for `trace`. Throws std::runtime_error on what the plugin itself cannot
// read (a duration event without `dur` or `tid`) and on times that are not exact decimals of at
// most three fractional digits.
TbResult tensorBoardOracle(const ScannedTrace& trace, const TbOptions& options = {});

// `ts` or `dur` of `e` in nanoseconds, exactly (nullopt when absent). Throws as above.
std::optional<std::int64_t> exactNs(const std::optional<std::int64_t>& whole,
                                    const std::optional<double>& value);

// The plugin's range helpers (range_utils.py), ported line by line.
using TbRanges = std::vector<std::pair<std::int64_t, std::int64_t>>;
TbRanges tbMergeRanges(TbRanges ranges);
TbRanges tbIntersection(const TbRanges& a, const TbRanges& b);
TbRanges tbSubtraction(const TbRanges& a, const TbRanges& b);

} // namespace strobe::test
