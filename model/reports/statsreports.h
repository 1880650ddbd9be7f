// SPDX-License-Identifier: MIT
#pragma once

// The tables of Nsight Systems' `nsys stats` reports Strobe also gives (strobe-cli api-summary,
// osrt-summary, memory-size-summary, launch-summary, nvtx-summary --gpu, and the Statistics
// tabs): a contract, docs/CLI.md. Formatting as reports.h: integers plain, time_percent with 2
// decimals, averages, medians and standard deviations with 1; a statistic over no values null.

#include "model/analysis/apistats.h"
#include "model/analysis/launchstats.h"
#include "model/analysis/memorysizestats.h"
#include "model/analysis/nvtxgpustats.h"
#include "model/reports/reporttable.h"

namespace strobe {

// name,time_percent,total_ns,instances,avg_ns,median_ns,min_ns,max_ns,stddev_ns
ReportTable callSummaryReport(const std::vector<CallSummaryRow>& rows);
// name,total_bytes,instances,avg_bytes,median_bytes,min_bytes,max_bytes,stddev_bytes
ReportTable memorySizeSummaryReport(const std::vector<MemorySizeRow>& rows);
// name,instances,api_avg_ns,queue_avg_ns,queue_median_ns,queue_max_ns,kernel_avg_ns
ReportTable launchSummaryReport(const std::vector<LaunchSummaryRow>& rows);
// range,style,total_proj_time_ns,total_range_time_ns,range_instances,proj_avg_ns,proj_med_ns,
// proj_min_ns,proj_max_ns,proj_stddev_ns,total_gpu_ops,avg_gpu_ops
ReportTable nvtxGpuSummaryReport(const std::vector<NvtxGpuSummaryRow>& rows);

} // namespace strobe
