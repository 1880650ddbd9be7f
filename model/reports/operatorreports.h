// SPDX-License-Identifier: MIT
#pragma once

// The machine-readable tables of `strobe-cli ops` and `strobe-cli steps` (a contract:
// docs/CLI.md; the definitions of each number: docs/OPERATORS.md). Times are exact integers in
// ns; device_percent has 2 decimals; the steps' average row is rounded to whole ns.

#include "model/analysis/gpumetrics.h"
#include "model/analysis/operators.h"
#include "model/analysis/steps.h"
#include "model/reports/reporttable.h"

#include <vector>

namespace strobe {

// The operator statistics of several disjoint windows as one table: the rows of one name (and
// shapes) added up, device_percent recomputed over the summed GPU time, rows re-sorted as
// operatorTable sorts them, and each row's longest call the longest of its windows' (durations
// from `forest`). All tables must share one grouping; an empty list gives an empty table.
OperatorTable addOperatorTables(const OperatorForest& forest,
                                const std::vector<OperatorTable>& tables);

// name,calls,host_self_ns,host_total_ns,device_self_ns,device_total_ns,device_percent; with
// OperatorGrouping::NameAndShapes, input_shapes after name (empty when none were recorded).
// One row per OperatorRow, in the table's order.
ReportTable operatorReport(const OperatorTable& table);

// "profiler_steps", "iterations", "whole_trace": the steps' JSON "source".
QString stepSourceKey(StepSource source);

// step,start_ns,end_ns,kernel_ns,memcpy_ns,memset_ns,communication_ns,runtime_ns,dataloader_ns,
// cpu_exec_ns,other_ns,total_ns: one row per step (its own number, its device-side range), then
// "average" with empty start and end and the per-step averages rounded to whole ns. No average
// row when there is no step.
ReportTable stepReport(const StepBreakdown& breakdown);

// "recorded", "estimated", "mixed": where a GPU metric's per-kernel values came from.
QString kernelMetricBasisKey(KernelMetricBasis basis);

// The GPU metrics beside the steps (computeGpuStepMetrics), one row per GPU: device,
// span_start_ns, span_end_ns, busy_ns, utilization_percent, sm_efficiency_percent,
// sm_efficiency_basis, achieved_occupancy_percent, achieved_occupancy_basis, kernel_ns,
// tensor_core_kernel_ns, tensor_core_percent (percentages with 2 decimals; null when the trace
// has no value for any kernel).
ReportTable gpuMetricsReport(const std::vector<GpuStepMetrics>& gpus);

} // namespace strobe
