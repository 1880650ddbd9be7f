// SPDX-License-Identifier: MIT
#include "widgets/timeline/utilizationtooltip.h"

#include "model/analysis/gaps.h"
#include "model/reports/gaptext.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QStringBuilder>
#include <algorithm>

namespace strobe {

namespace {

QString percent(TimeNs part, TimeNs whole) {
    const double p = whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
    return QString::number(std::clamp(p, 0.0, 100.0), 'f', 1) % QStringLiteral(" %");
}

// The gap overlapping `span` that holds its middle, else the first overlapping one.
const TimeRange* gapUnder(const std::vector<TimeRange>& gaps, TimeRange span) {
    auto it = std::lower_bound(gaps.begin(), gaps.end(), span.start,
                               [](const TimeRange& g, TimeNs t) { return g.end <= t; });
    const TimeNs mid = span.start + span.duration() / 2;
    const TimeRange* first = nullptr;
    for (; it != gaps.end() && it->start < span.end; ++it) {
        if (!first)
            first = &*it;
        if (it->start <= mid && mid < it->end)
            return &*it;
    }
    return first;
}

} // namespace

QString utilizationTooltip(const Trace& trace, const GpuUtilization& u,
                           const std::vector<TimeRange>& gaps, TimeRange span, TimeNs threshold) {
    span.end = std::max(span.end, span.start + 1);
    const TimeNs origin = trace.timeRange().start;
    QString s = QStringLiteral("GPU ") % QString::number(u.deviceId) %
                QStringLiteral(" utilisation at ") % formatTimestamp(span.start, origin) %
                QStringLiteral(" (") % formatDuration(span.duration()) %
                QStringLiteral(" per pixel)\n");
    const std::vector<TimeRange>& busy = u.all.busy();
    if (busy.empty())
        return s % QStringLiteral("No GPU work recorded.");
    const TimeNs d = span.duration();
    s = s % QStringLiteral("Busy ") % percent(u.all.busyTime(span.start, span.end), d) %
        QStringLiteral(": kernels ") % percent(u.kernels.busyTime(span.start, span.end), d) %
        QStringLiteral(", copies ") % percent(u.copies.busyTime(span.start, span.end), d);
    if (span.end <= busy.front().start)
        return s % QStringLiteral("\nIdle before first work: ") %
               formatDuration(busy.front().start - origin) % QStringLiteral(" (not a gap).");
    if (span.start >= busy.back().end)
        return s % QStringLiteral("\nIdle after last work: ") %
               formatDuration(trace.timeRange().end - busy.back().end) %
               QStringLiteral(" (not a gap).");
    const TimeRange* gap = gapUnder(gaps, span);
    if (!gap)
        return s;
    const GpuGap g = explainGap(trace, u.deviceId, *gap);
    s = s % QStringLiteral("\nIdle ") % formatDuration(gap->duration()) % QStringLiteral(" from ") %
        formatTimestamp(gap->start, origin) % QStringLiteral(" (a gap: at least ") %
        formatDuration(threshold) % QStringLiteral(")\nCause: ") % gapCauseLabel(g.cause);
    if (const QString detail = gapDetailText(trace, g); !detail.isEmpty())
        s = s % u'\n' % detail;
    return s;
}

} // namespace strobe
