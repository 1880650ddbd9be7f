// SPDX-License-Identifier: MIT
#pragma once

// The machine-readable tables of `strobe-cli diff` (a contract: docs/CLI.md). Counts and ns
// totals are exact integers, delta_ns = B - A; medians and per-instance means in ns with one
// decimal. With a range (Comparison::hasRange) each table ends in per_instance_ns_a,
// per_instance_ns_b: the row's total per instance of the range (for GPUs: idle time per
// instance).

#include "model/analysis/comparison.h"
#include "model/reports/reporttable.h"

namespace strobe {

// name,count_a,count_b,total_ns_a,total_ns_b,delta_ns,median_ns_a,median_ns_b
ReportTable kernelDiffReport(const Comparison& c);
// range,count_a,count_b,total_ns_a,total_ns_b,delta_ns
ReportTable rangeDiffReport(const Comparison& c);
// device_id,kernel_ns_a,kernel_ns_b,copy_ns_a,copy_ns_b,idle_ns_a,idle_ns_b,gaps_a,gaps_b
ReportTable gpuDiffReport(const Comparison& c);

} // namespace strobe
