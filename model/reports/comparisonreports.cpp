// SPDX-License-Identifier: MIT
#include "model/reports/comparisonreports.h"

namespace strobe {

namespace {

using C = ReportCell;

C n(std::int64_t v) {
    return C::number(v);
}

QStringList columns(std::initializer_list<const char*> names, const Comparison& c) {
    QStringList out;
    for (const char* name : names)
        out << QString::fromLatin1(name);
    if (c.hasRange())
        out << QStringLiteral("per_instance_ns_a") << QStringLiteral("per_instance_ns_b");
    return out;
}

void perInstance(std::vector<C>& row, const Comparison& c, TimeNs a, TimeNs b) {
    if (!c.hasRange())
        return;
    row.push_back(C::number(c.a.perInstance(double(a)), 1));
    row.push_back(C::number(c.b.perInstance(double(b)), 1));
}

} // namespace

ReportTable kernelDiffReport(const Comparison& c) {
    ReportTable t;
    t.columns = columns({"name", "count_a", "count_b", "total_ns_a", "total_ns_b", "delta_ns",
                         "median_ns_a", "median_ns_b"},
                        c);
    for (const KernelDiffRow& r : c.kernels) {
        std::vector<C> row{C::string(r.name),
                           C::number(r.a.count),
                           C::number(r.b.count),
                           n(r.a.total),
                           n(r.b.total),
                           n(r.delta()),
                           C::number(r.a.median, 1),
                           C::number(r.b.median, 1)};
        perInstance(row, c, r.a.total, r.b.total);
        t.rows.push_back(std::move(row));
    }
    return t;
}

ReportTable rangeDiffReport(const Comparison& c) {
    ReportTable t;
    t.columns = columns({"range", "count_a", "count_b", "total_ns_a", "total_ns_b", "delta_ns"}, c);
    for (const RangeDiffRow& r : c.ranges) {
        std::vector<C> row{C::string(r.range), C::number(r.a.count), C::number(r.b.count),
                           n(r.a.total),       n(r.b.total),         n(r.delta())};
        perInstance(row, c, r.a.total, r.b.total);
        t.rows.push_back(std::move(row));
    }
    return t;
}

ReportTable gpuDiffReport(const Comparison& c) {
    ReportTable t;
    t.columns = columns({"device_id", "kernel_ns_a", "kernel_ns_b", "copy_ns_a", "copy_ns_b",
                         "idle_ns_a", "idle_ns_b", "gaps_a", "gaps_b"},
                        c);
    for (const GpuDiffRow& r : c.gpus) {
        std::vector<C> row{C::number(std::uint64_t(r.deviceId)),
                           n(r.a.kernelBusy),
                           n(r.b.kernelBusy),
                           n(r.a.copyBusy),
                           n(r.b.copyBusy),
                           n(r.a.idle),
                           n(r.b.idle),
                           C::number(r.a.gaps),
                           C::number(r.b.gaps)};
        perInstance(row, c, r.a.idle, r.b.idle);
        t.rows.push_back(std::move(row));
    }
    return t;
}

} // namespace strobe
