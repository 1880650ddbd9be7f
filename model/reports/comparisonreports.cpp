// SPDX-License-Identifier: MIT
#include "model/reports/comparisonreports.h"

#include "model/valueformat.h"

#include <QStringBuilder>

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

// "<what> 3 in A, 1 in B" when the sides differ, "none recorded" for a side without one.
void addDifference(QStringList& parts, const char* what, std::optional<std::uint32_t> a,
                   std::optional<std::uint32_t> b) {
    if (a == b)
        return;
    auto text = [](std::optional<std::uint32_t> v) {
        return v ? QString::number(*v) : QStringLiteral("none recorded");
    };
    parts << QString::fromLatin1(what) % u' ' % text(a) % QStringLiteral(" in A, ") % text(b) %
                 QStringLiteral(" in B");
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
    t.columns << QStringLiteral("device_id_b");
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
        row.push_back(r.b.present ? C::number(std::uint64_t(r.deviceIdB)) : C::null());
        t.rows.push_back(std::move(row));
    }
    return t;
}

QStringList comparisonNotes(const Comparison& c, const QString& rangeFlag) {
    QStringList notes;
    QStringList differ;
    if (!c.a.gpuModels.isEmpty() && !c.b.gpuModels.isEmpty() && c.a.gpuModels != c.b.gpuModels)
        differ << QStringLiteral("GPU ") % c.a.gpuModels.join(QStringLiteral(", ")) %
                      QStringLiteral(" in A, ") % c.b.gpuModels.join(QStringLiteral(", ")) %
                      QStringLiteral(" in B");
    addDifference(differ, "rank", c.a.rank, c.b.rank);
    addDifference(differ, "world size", c.a.worldSize, c.b.worldSize);
    if (!differ.isEmpty())
        notes << QStringLiteral("A and B differ: ") % differ.join(QStringLiteral("; ")) % u'.';
    if (c.pairsAcrossIds()) {
        QStringList pairs;
        for (const GpuDiffRow& r : c.gpus)
            if (r.a.present && r.b.present && r.deviceId != r.deviceIdB)
                pairs << QStringLiteral("GPU %1 of A with GPU %2 of B")
                             .arg(r.deviceId)
                             .arg(r.deviceIdB);
        notes << (c.gpusByPosition
                      ? QStringLiteral("The GPUs that ran work have different ids, so they are "
                                       "paired by position: ")
                      : QStringLiteral("GPUs paired as asked: ")) %
                     pairs.join(QStringLiteral(", ")) % u'.';
    }
    if (!c.hasRange()) {
        notes << QStringLiteral("Without a range the totals follow how long each trace ran (%1 in "
                                "A, %2 in B), so the verdict compares per-launch medians and rates "
                                "per second of wall time, not totals.")
                     .arg(formatDuration(c.a.window), formatDuration(c.b.window));
        if (!c.suggestedRange.isEmpty())
            notes << QStringLiteral("To compare like with like, align on a range that repeats in "
                                    "both: ") %
                         (rangeFlag.isEmpty() ? QStringLiteral("per instance of") : rangeFlag) %
                         QStringLiteral(" '%1' (%2 in A, %3 in B).")
                             .arg(c.suggestedRange)
                             .arg(c.suggestedCounts.first)
                             .arg(c.suggestedCounts.second);
    }
    return notes;
}

} // namespace strobe
