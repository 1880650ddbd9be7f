// SPDX-License-Identifier: MIT
#include "model/reports/gapsummarytext.h"

#include "model/timeformat.h"

#include <QStringBuilder>

namespace strobe {

QString gapsHeadline(const GapAnalysis& analysis) {
    const QString busy = analysis.busy == BusyWork::Kernels  ? QStringLiteral("kernels")
                         : analysis.busy == BusyWork::Copies ? QStringLiteral("memcpys and memsets")
                                                             : QStringLiteral("kernels, memcpys "
                                                                              "and memsets");
    return QStringLiteral("Gaps of at least ") % formatDuration(analysis.threshold) %
           QStringLiteral(", busy = ") % busy % u'.';
}

QString gapFiguresText(TimeNs gapNs, std::uint64_t gapCount, TimeNs threshold, double percent,
                       GapShareBase base) {
    return formatDuration(gapNs) % QStringLiteral(" in ") % QString::number(gapCount) %
           (gapCount == 1 ? QStringLiteral(" gap of at least ")
                          : QStringLiteral(" gaps of at least ")) %
           formatDuration(threshold) % QStringLiteral(" (") % QString::number(percent, 'f', 1) %
           (base == GapShareBase::Trace ? QStringLiteral(" % of the trace)")
                                        : QStringLiteral(" % of the selection)"));
}

QString gpuWorkLine(const DeviceIdleSummary& d, BusyWork busy, TimeNs threshold) {
    const QString gpu = QStringLiteral("GPU ") % QString::number(d.deviceId) % QStringLiteral(": ");
    if (!d.hasWork())
        return gpu % QStringLiteral("no GPU work recorded");
    const QString kernels = QStringLiteral("kernels ") % formatDuration(d.kernelNs);
    const QString copies = QStringLiteral("copies ") % formatDuration(d.copyNs);
    if (!d.busySpan)
        return gpu % (busy == BusyWork::Kernels ? QStringLiteral("no kernels recorded, ") % copies
                                                : QStringLiteral("no copies recorded, ") % kernels);
    return gpu % kernels % QStringLiteral(", ") % copies % QStringLiteral(", idle ") %
           gapFiguresText(d.idleNs, d.gapCount, threshold, d.tracePercent, GapShareBase::Trace);
}

QString idleBeforeLine(const DeviceIdleSummary& d) {
    if (!d.busySpan)
        return {};
    return QStringLiteral("idle before first work ") % formatDuration(d.idleBeforeNs);
}

QString idleAfterLine(const DeviceIdleSummary& d) {
    if (!d.busySpan)
        return {};
    return QStringLiteral("idle after last work ") % formatDuration(d.idleAfterNs);
}

} // namespace strobe
