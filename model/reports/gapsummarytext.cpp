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

QString gpuWorkLine(const DeviceIdleSummary& d, BusyWork busy) {
    const QString gpu = QStringLiteral("GPU ") % QString::number(d.deviceId) % QStringLiteral(": ");
    if (!d.hasWork())
        return gpu % QStringLiteral("no GPU work recorded");
    const QString kernels = QStringLiteral("kernels ") % formatDuration(d.kernelNs);
    const QString copies = QStringLiteral("copies ") % formatDuration(d.copyNs);
    if (!d.busySpan)
        return gpu % (busy == BusyWork::Kernels ? QStringLiteral("no kernels recorded, ") % copies
                                                : QStringLiteral("no copies recorded, ") % kernels);
    return gpu % kernels % QStringLiteral(", ") % copies % QStringLiteral(", idle ") %
           formatDuration(d.idleNs) % QStringLiteral(" in ") % QString::number(d.gapCount) %
           (d.gapCount == 1 ? QStringLiteral(" gap (") : QStringLiteral(" gaps (")) %
           QString::number(d.tracePercent, 'f', 1) % QStringLiteral(" % of the trace)");
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
