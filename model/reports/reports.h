// SPDX-License-Identifier: MIT
#pragma once

// The machine-readable tables of strobe-cli (a contract: docs/CLI.md). Formatting rules:
// integers plain; time_percent with 2 decimals; avg/median/stddev in ns with 1 decimal;
// bandwidths in GB/s (10^9 bytes per second) with 3 decimals.

#include "model/analysis/kernelstats.h"
#include "model/analysis/memorystats.h"
#include "model/analysis/nvtxstats.h"
#include "model/reports/reporttable.h"

namespace strobe {

// One row per kernel, by start: name,start_ns,end_ns,duration_ns,device_id,context_id,...
// Streamed (see ReportTable::fillRow): `trace` must outlive the table.
ReportTable kernelListReport(const Trace& trace);
// name,time_percent,total_ns,instances,avg_ns,median_ns,min_ns,max_ns,stddev_ns
ReportTable kernelSummaryReport(const std::vector<KernelSummaryRow>& rows);
// range,style,instances,total_ns,avg_ns,median_ns,min_ns,max_ns,stddev_ns
ReportTable nvtxSummaryReport(const NvtxSummary& summary);
// direction,count,total_bytes,total_ns,avg_bandwidth_gbps,peak_bandwidth_gbps
ReportTable memorySummaryReport(const std::vector<MemorySummaryRow>& rows);

} // namespace strobe
