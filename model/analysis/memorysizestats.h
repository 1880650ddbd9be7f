// SPDX-License-Identifier: MIT
#pragma once

// The sizes of GPU memory operations per operation, as Nsight Systems' cuda_gpu_mem_size_sum
// reports them (docs/CLI.md, `memory-size-summary`).

#include "model/analysis/statistics.h"
#include "model/trace.h"

#include <QString>
#include <vector>

namespace strobe {

// nsys's name of a memory operation: "[CUDA memcpy " + the ENUM_CUDA_MEMCPY_OPER label + "]"
// ("[CUDA memcpy Host-to-Device]", "[CUDA memcpy Unified Device-to-Host]"...); memsets are
// "[CUDA memset]" (memsetOperationName).
QString memcpyOperationName(MemcpyKind kind);
QString memsetOperationName();

// All memory operations of one name. The statistics are over sizes in bytes (DurationStats'
// summary of any integer values; its "ns" fields read as bytes here).
struct MemorySizeRow {
    QString operation;
    DurationStats bytes;
};

// One row per operation name that occurs; sorted by total bytes descending, ties by name.
std::vector<MemorySizeRow> summarizeMemorySizes(const Trace& trace);

} // namespace strobe
