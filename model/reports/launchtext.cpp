// SPDX-License-Identifier: MIT
// The words of launch_overhead and small_grid (docs/FINDINGS.md, "Launch rules").
#include "model/reports/findingtext_rules.h"

#include "model/timeformat.h"

#include <QStringBuilder>
#include <algorithm>

namespace strobe::findingtext {

namespace {

// "1 kernel launch", "12 kernel launches".
QString counted(std::uint64_t n, const QString& one, const QString& many) {
    return QString::number(n) % u' ' % (n == 1 ? one : many);
}

// "30.2 %".
QString percent(double p) {
    return QString::number(p, 'f', 1) % QStringLiteral(" %");
}

// A threshold without formatDuration's trailing zeros: "50 µs", "12.5 µs".
QString thresholdText(TimeNs ns) {
    QString s = formatDuration(ns);
    const qsizetype space = s.indexOf(u' ');
    const qsizetype dot = s.indexOf(u'.');
    if (space < 0 || dot < 0 || dot > space)
        return s;
    qsizetype end = space;
    while (end > dot + 1 && s[end - 1] == u'0')
        --end;
    if (end == dot + 1)
        --end; // no digit left after the point
    return s.left(end) % s.mid(space);
}

// Whether the trace has work on more than one GPU (its streams': a handful, not its kernels):
// then small_grid names its GPU.
bool severalGpus(const Trace& t) {
    const auto& streams = t.streams();
    return std::any_of(streams.begin(), streams.end(),
                       [&](const StreamInfo& s) { return s.deviceId != streams.front().deviceId; });
}

FindingWords launchOverheadWords(const Finding& f) {
    const Finding::LaunchCounts& c = f.launch;
    return {QStringLiteral("GPU %1: %2 of %3 ran shorter than their launch call, %4 of launch "
                           "time beyond the kernels (%5 of the trace's span); %6 took over %7, %8 "
                           "started over %9 after %12 call, and kernels under %10 take %11 of "
                           "GPU time.")
                .arg(QString::number(f.deviceId.value_or(0)), QString::number(c.shortKernels),
                     counted(c.launches, QStringLiteral("kernel launch"),
                             QStringLiteral("kernel launches")),
                     formatDuration(f.timeNs), percent(f.sharePercent),
                     counted(c.slowCalls, QStringLiteral("launch call"),
                             QStringLiteral("launch calls")),
                     thresholdText(c.callCutoffNs),
                     counted(c.delayed, QStringLiteral("kernel"), QStringLiteral("kernels")),
                     thresholdText(c.delayCutoffNs))
                .arg(thresholdText(TimeNs(f.threshold)), percent(f.measured),
                     c.delayed == 1 ? QStringLiteral("its") : QStringLiteral("their")),
            QStringLiteral("Try CUDA graphs (torch.compile with mode=\"reduce-overhead\", or "
                           "torch.cuda.graphs) so that one launch runs many short kernels, or "
                           "fuse them (torch.compile) so that each launch does more work.")};
}

FindingWords smallGridWords(const Trace& t, const Finding& f) {
    // The grid when it leaves SMs empty (the occupancy then matters less), else the occupancy.
    const bool fewBlocks = f.blocks > 0 && f.blocks < std::int64_t(f.smCount);
    QString what;
    if (fewBlocks || !f.occupancyPercent)
        what = counted(std::uint64_t(std::max<std::int64_t>(f.blocks, 0)), QStringLiteral("block"),
                       QStringLiteral("blocks")) %
               QStringLiteral(" on ") % QString::number(f.smCount) % QStringLiteral(" SMs");
    else
        what = percent(*f.occupancyPercent) % QStringLiteral(" theoretical occupancy");
    const QString ofWhat =
        severalGpus(t)
            ? QStringLiteral("GPU %1's kernel time").arg(QString::number(f.deviceId.value_or(0)))
            : QStringLiteral("GPU time");
    const QString finding = f.subject % QStringLiteral(": ") % what % QStringLiteral(", ") %
                            percent(f.measured) % QStringLiteral(" of ") % ofWhat % u'.';
    const QString nextStep =
        fewBlocks
            ? QStringLiteral("Try larger batches, or fusing it with the kernels around it "
                             "(torch.compile), so that each launch fills the GPU's %1 SMs; or "
                             "a launch configuration with more, smaller blocks.")
                  .arg(f.smCount)
            : QStringLiteral("Try a launch configuration with fewer registers or less shared "
                             "memory per block, so that more warps fit on each SM.");
    return {finding, nextStep};
}

} // namespace

QString launchTitle(FindingRule rule) {
    return rule == FindingRule::SmallGrid ? QStringLiteral("Kernels that do not fill the GPU")
                                          : QStringLiteral("Kernel launch overhead");
}

FindingWords launchWords(const Trace& trace, const Finding& finding) {
    return finding.rule == FindingRule::SmallGrid ? smallGridWords(trace, finding)
                                                  : launchOverheadWords(finding);
}

QStringList launchEvidenceColumns(FindingRule rule) {
    if (rule == FindingRule::SmallGrid)
        return {
            QStringLiteral("device_id"),   QStringLiteral("name"),    QStringLiteral("start_ns"),
            QStringLiteral("duration_ns"), QStringLiteral("grid_x"),  QStringLiteral("grid_y"),
            QStringLiteral("grid_z"),      QStringLiteral("block_x"), QStringLiteral("block_y"),
            QStringLiteral("block_z"),     QStringLiteral("blocks")};
    // HTA's get_cuda_kernel_launch_stats columns (correlation, cpu_duration, gpu_duration,
    // launch_delay), in ns, with the kernel and its call named.
    return {QStringLiteral("device_id"),       QStringLiteral("name"),
            QStringLiteral("api_name"),        QStringLiteral("correlation_id"),
            QStringLiteral("start_ns"),        QStringLiteral("cpu_duration_ns"),
            QStringLiteral("gpu_duration_ns"), QStringLiteral("launch_delay_ns")};
}

std::vector<ReportCell> launchEvidenceRow(const Trace& trace, const Finding& finding,
                                          const FindingEvidence& row) {
    using C = ReportCell;
    const std::optional<std::uint32_t> index = trace.kernelIndexOf(row.event);
    if (!index) // not a kernel: a damaged finding, its columns empty
        return std::vector<C>(std::size_t(launchEvidenceColumns(finding.rule).size()), C::null());
    const KernelLaunch k = trace.kernelAt(*index);
    const KernelConfig& c = *k.config;
    std::vector<C> cells{C::number(std::int64_t(k.stream->deviceId)),
                         C::string(trace.string(c.shortName))};
    if (finding.rule == FindingRule::SmallGrid) {
        cells.push_back(C::number(std::int64_t(k.start)));
        cells.push_back(C::number(std::int64_t(k.duration())));
        for (std::int32_t v : {c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2]})
            cells.push_back(C::number(std::int64_t(v)));
        cells.push_back(C::number(std::int64_t(c.grid[0]) * c.grid[1] * c.grid[2]));
        return cells;
    }
    const EventRef api = k.record.api;
    if (!api.isValid()) {
        cells.resize(std::size_t(launchEvidenceColumns(finding.rule).size()), C::null());
        return cells;
    }
    const Lane& al = trace.lane(api.lane);
    const TimeNs as = al.start(api.index), ae = al.end(api.index);
    cells.push_back(C::string(trace.string(al.nameId(api.index))));
    cells.push_back(k.record.correlationId ? C::number(std::int64_t(*k.record.correlationId))
                                           : C::null());
    cells.push_back(C::number(std::int64_t(k.start)));
    cells.push_back(C::number(std::int64_t(saturatingSub(ae, as))));
    cells.push_back(C::number(std::int64_t(k.duration())));
    cells.push_back(C::number(std::int64_t(saturatingSub(k.start, ae))));
    return cells;
}

} // namespace strobe::findingtext
