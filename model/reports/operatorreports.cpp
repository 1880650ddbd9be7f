// SPDX-License-Identifier: MIT
#include "model/reports/operatorreports.h"

#include <QStringBuilder>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace strobe {

namespace {

using C = ReportCell;

C ns(TimeNs v) {
    return C::number(std::int64_t(v));
}

} // namespace

OperatorTable addOperatorTables(const OperatorForest& forest,
                                const std::vector<OperatorTable>& tables) {
    OperatorTable sum;
    if (tables.empty())
        return sum;
    sum.grouping = tables.front().grouping;
    // Keyed by (no-operator flag, name, shapes): the "(no operator)" row never merges with an
    // operator that happens to carry its name.
    std::map<std::tuple<bool, QString, QString>, OperatorRow> rows;
    for (const OperatorTable& t : tables) {
        Q_ASSERT(t.grouping == sum.grouping);
        sum.deviceTime = saturatingAdd(sum.deviceTime, t.deviceTime);
        for (const OperatorRow& r : t.rows) {
            auto [it, inserted] = rows.try_emplace({r.noOperator, r.name, r.shapes}, r);
            if (inserted)
                continue;
            OperatorRow& s = it->second;
            s.calls += r.calls;
            s.hostSelf = saturatingAdd(s.hostSelf, r.hostSelf);
            s.hostTotal = saturatingAdd(s.hostTotal, r.hostTotal);
            s.deviceSelf = saturatingAdd(s.deviceSelf, r.deviceSelf);
            s.deviceTotal = saturatingAdd(s.deviceTotal, r.deviceTotal);
            if (r.longest != kNoOpNode &&
                (s.longest == kNoOpNode ||
                 forest.node(r.longest).duration() > forest.node(s.longest).duration()))
                s.longest = r.longest;
        }
    }
    sum.rows.reserve(rows.size());
    for (auto& [key, row] : rows) {
        row.devicePercent =
            sum.deviceTime > 0 ? 100.0 * double(row.deviceSelf) / double(sum.deviceTime) : 0.0;
        sum.rows.push_back(std::move(row));
    }
    std::sort(sum.rows.begin(), sum.rows.end(), operatorRowBefore);
    return sum;
}

ReportTable operatorReport(const OperatorTable& table) {
    const bool shapes = table.grouping == OperatorGrouping::NameAndShapes;
    ReportTable t;
    t.columns << QStringLiteral("name");
    if (shapes)
        t.columns << QStringLiteral("input_shapes");
    t.columns << QStringLiteral("calls") << QStringLiteral("host_self_ns")
              << QStringLiteral("host_total_ns") << QStringLiteral("device_self_ns")
              << QStringLiteral("device_total_ns") << QStringLiteral("device_percent");
    t.rows.reserve(table.rows.size());
    for (const OperatorRow& r : table.rows) {
        std::vector<C> row{C::string(r.name)};
        if (shapes)
            row.push_back(C::string(r.shapes));
        row.push_back(C::number(std::uint64_t(r.calls)));
        row.push_back(ns(r.hostSelf));
        row.push_back(ns(r.hostTotal));
        row.push_back(ns(r.deviceSelf));
        row.push_back(ns(r.deviceTotal));
        row.push_back(C::number(r.devicePercent, 2));
        t.rows.push_back(std::move(row));
    }
    return t;
}

QString stepSourceKey(StepSource source) {
    switch (source) {
    case StepSource::ProfilerSteps:
        return QStringLiteral("profiler_steps");
    case StepSource::Iterations:
        return QStringLiteral("iterations");
    case StepSource::WholeTrace:
        return QStringLiteral("whole_trace");
    }
    return QStringLiteral("whole_trace");
}

ReportTable stepReport(const StepBreakdown& b) {
    ReportTable t;
    t.columns << QStringLiteral("step") << QStringLiteral("start_ns") << QStringLiteral("end_ns");
    for (std::size_t c = 0; c < kStepCategoryCount; ++c)
        t.columns << stepCategoryKey(StepCategory(c)) % QStringLiteral("_ns");
    t.columns << QStringLiteral("total_ns");
    t.rows.reserve(b.steps.size() + 1);
    for (const StepTimes& s : b.steps) {
        std::vector<C> row{C::string(s.name), ns(s.range.start), ns(s.range.end)};
        for (TimeNs v : s.time)
            row.push_back(ns(v));
        row.push_back(ns(s.total()));
        t.rows.push_back(std::move(row));
    }
    if (b.steps.empty())
        return t;
    // Whole ns, as every other time in these tables; the rounded categories may differ from the
    // rounded total by a few ns.
    const auto whole = [](double v) { return C::number(std::int64_t(std::llround(v))); };
    std::vector<C> average{C::string(QStringLiteral("average")), C::null(), C::null()};
    for (double v : b.average)
        average.push_back(whole(v));
    average.push_back(whole(b.averageTotal));
    t.rows.push_back(std::move(average));
    return t;
}

QString kernelMetricBasisKey(KernelMetricBasis basis) {
    switch (basis) {
    case KernelMetricBasis::Recorded:
        return QStringLiteral("recorded");
    case KernelMetricBasis::Estimated:
        return QStringLiteral("estimated");
    case KernelMetricBasis::Mixed:
        break;
    }
    return QStringLiteral("mixed");
}

ReportTable gpuMetricsReport(const std::vector<GpuStepMetrics>& gpus) {
    ReportTable t;
    t.columns << QStringLiteral("device") << QStringLiteral("span_start_ns")
              << QStringLiteral("span_end_ns") << QStringLiteral("busy_ns")
              << QStringLiteral("utilization_percent") << QStringLiteral("sm_efficiency_percent")
              << QStringLiteral("sm_efficiency_basis")
              << QStringLiteral("achieved_occupancy_percent")
              << QStringLiteral("achieved_occupancy_basis") << QStringLiteral("kernel_ns")
              << QStringLiteral("tensor_core_kernel_ns") << QStringLiteral("tensor_core_percent");
    const auto average = [](const std::optional<KernelMetricAverage>& a, double scale,
                            std::vector<C>& row) {
        row.push_back(a ? C::number(a->value * scale, 2) : C::null());
        row.push_back(a ? C::string(kernelMetricBasisKey(a->basis)) : C::null());
    };
    for (const GpuStepMetrics& g : gpus) {
        std::vector<C> row{C::number(std::uint64_t(g.deviceId)), ns(g.span.start), ns(g.span.end),
                           ns(g.busyTime), C::number(100.0 * g.utilization, 2)};
        average(g.smEfficiency, 100.0, row);
        average(g.achievedOccupancy, 1.0, row);
        row.push_back(ns(g.kernelTime));
        row.push_back(ns(g.tensorCoreKernelTime));
        row.push_back(C::number(100.0 * g.tensorCoreShare(), 2));
        t.rows.push_back(std::move(row));
    }
    return t;
}

} // namespace strobe
