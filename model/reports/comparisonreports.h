// SPDX-License-Identifier: MIT
#pragma once

// The machine-readable tables of `strobe-cli diff` (a contract: docs/CLI.md). Counts and ns
// totals are exact integers, delta_ns = B - A; medians and per-instance means in ns with one
// decimal. With a range (Comparison::hasRange) each table adds per_instance_ns_a,
// per_instance_ns_b: the row's total per instance of the range (for GPUs: idle time per
// instance; the GPU table ends in device_id_b after them).

#include "model/analysis/comparison.h"
#include "model/reports/reporttable.h"

namespace strobe {

// name,count_a,count_b,total_ns_a,total_ns_b,delta_ns,median_ns_a,median_ns_b
ReportTable kernelDiffReport(const Comparison& c);
// range,count_a,count_b,total_ns_a,total_ns_b,delta_ns
ReportTable rangeDiffReport(const Comparison& c);
// device_id,kernel_ns_a,kernel_ns_b,copy_ns_a,copy_ns_b,idle_ns_a,idle_ns_b,gaps_a,gaps_b
// [,per_instance_ns_a,per_instance_ns_b],device_id_b: device_id is A's GPU (B's when only B has
// it), device_id_b the GPU of B in the same row (empty when B has none): they differ when GPUs
// are paired by position or by the caller (Comparison::gpuPairing).
ReportTable gpuDiffReport(const Comparison& c);

// Sentences for a comparison's header, each ending in a full stop, in this order: what differs
// between the traces (GPU model, rank, world size), how GPUs of different ids were paired, and,
// without a range, what the colours compare (per-launch medians and rates per second of wall
// time, not totals) and the range to align on (Comparison::suggestedRange). Empty when none
// applies. `rangeFlag` is how the reader names a range ("--range" for the CLI; empty: in words).
QStringList comparisonNotes(const Comparison& c, const QString& rangeFlag = {});

} // namespace strobe
