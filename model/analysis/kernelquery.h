// SPDX-License-Identifier: MIT
#pragma once

// Which kernel launches the kernel table shows and in which order: filtering by configuration,
// name and time range, and sorting by any column through a permutation computed once per key.
// Typed and Qt Core only; model/itemmodels/kerneltablemodel.h adapts it to a table.

#include "model/analysis/namefilter.h"
#include "model/analysis/operators.h"
#include "model/trace.h"

#include <memory>
#include <optional>
#include <vector>

namespace strobe {

// What the rows can be sorted by, one per column of the kernel table (in its column order).
enum class KernelSortKey : std::uint8_t {
    Name,          // the short or demangled name, case-insensitively
    Operator,      // the innermost operator that launched it, case-insensitively; none first
    Duration,      // end - start
    Start,         // the order kernels are stored in
    End,           //
    Device,        // device id
    Stream,        // (device id, stream id)
    Grid,          // blocks per launch
    Block,         // threads per block
    Registers,     // registers per thread
    SharedMemory,  // static + dynamic shared bytes
    CorrelationId, // launches without one first
};
inline constexpr std::size_t kKernelSortKeys = std::size_t(KernelSortKey::CorrelationId) + 1;

// Per-kernel times the query sorts and filters by, gathered once per trace (O(kernels)).
// Immutable once built: worker threads share it.
struct KernelTableData {
    std::shared_ptr<const Trace> trace;
    std::vector<TimeNs> start, end; // per kernel
};

// Gathers `trace`'s kernel times; safe on any thread. Empty data for a null trace.
KernelTableData gatherKernelTableData(std::shared_ptr<const Trace> trace);

using KernelPermutation = std::shared_ptr<const std::vector<std::uint32_t>>;

// A snapshot of everything the rows depend on, by value, so that a worker thread can compute
// them (computeKernelRows) while a table keeps showing the previous rows.
struct KernelRowQuery {
    std::shared_ptr<const KernelTableData> data;
    KernelSortKey key = KernelSortKey::Start;
    bool descending = false;
    bool demangled = false;               // Name sorts by the demangled name
    std::vector<std::uint8_t> configPass; // per config: passes the name and config filters
    std::optional<TimeRange> range;       // keeps kernels overlapping it; nullopt: all
    KernelPermutation permutation;        // `key`'s cached ascending order; null: computed
    // The launching operators (Operator sorts by them); null: no kernel has one.
    std::shared_ptr<const OperatorForest> operators;
    std::uint64_t request = 0; // which request of the asker this answers
};

struct KernelRows {
    KernelRowQuery query;            // with the permutation filled in
    std::vector<std::uint32_t> rows; // visible kernels in display order
    std::vector<std::int32_t> rowOf; // per kernel: row, or -1
};

// The kernels in ascending order of `key` (ties by start); O(n log n), safe on any thread.
// Operator orders by the name of each kernel's innermost launching operator in `operators`
// (kernels without one first; all of them tie without a forest).
std::vector<std::uint32_t> kernelPermutation(const KernelTableData& data, KernelSortKey key,
                                             bool demangled,
                                             const OperatorForest* operators = nullptr);
// The innermost operator that launched kernel `k` (an OperatorForest node), or kNoOpNode.
std::uint32_t kernelOperator(const OperatorForest& operators, std::size_t k);
// Sorts (when the query carries no permutation) and filters; safe on any thread.
KernelRows computeKernelRows(KernelRowQuery query);

// Per configuration of `trace` (indices into kernelConfigs()): 1 when it is among `configs`
// (empty: every one) and its short or its demangled name matches `name` (the displayed one,
// per `demangled`, is tried first); O(configs).
std::vector<std::uint8_t> kernelConfigPass(const Trace* trace,
                                           const std::vector<std::uint32_t>& configs,
                                           const NameFilter& name, bool demangled);

} // namespace strobe
