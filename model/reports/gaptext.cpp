// SPDX-License-Identifier: MIT
#include "model/reports/gaptext.h"

#include "model/analysis/nvtxstats.h"
#include "model/cudaapi.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QStringBuilder>
#include <algorithm>

namespace strobe {

QString gapCauseLabel(GapCause cause) {
    switch (cause) {
    case GapCause::LaunchOverhead:
        return QStringLiteral("Launch overhead");
    case GapCause::Sync:
        return QStringLiteral("Synchronisation");
    case GapCause::CpuBusy:
        return QStringLiteral("CPU busy");
    case GapCause::CpuWait:
        return QStringLiteral("CPU waiting");
    case GapCause::NoCpuActivity:
        return QStringLiteral("No CPU activity");
    case GapCause::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

namespace {

// "96%": whole percent of the gap, at most 100.
QString percentOf(TimeNs part, TimeRange g) {
    const double p = g.duration() > 0 ? 100.0 * double(part) / double(g.duration()) : 0.0;
    return QString::number(std::min(100.0, p), 'f', 0) % u'%';
}

QString eventName(const Trace& t, EventRef ref) {
    return cudaapi::displayName(t.string(t.lane(ref.lane).nameId(ref.index)));
}

QString nvtxName(const Trace& t, EventRef ref) {
    const Lane& l = t.lane(ref.lane);
    return nvtxRangeName(t, l.domain(), l.nameId(ref.index));
}

QString ruleText(const Trace& t, const GpuGap& gap) {
    const GapEvidence& ev = gap.evidence;
    const TimeRange g = gap.range;
    const QString thread = gap.thread ? t.threadLabel(*gap.thread) : QString();
    const QString dur = formatDuration(g.duration());
    switch (ev.rule) {
    case GapRule::None:
        break;
    case GapRule::LaunchOverhead:
        return thread % QStringLiteral(" was in ") % eventName(t, ev.call) %
               QStringLiteral(" for ") % percentOf(ev.callCoveredNs, g) %
               QStringLiteral(" of the gap: ") % formatDuration(g.end - ev.callStart) %
               QStringLiteral(" from the call to the start of the work it launched.");
    case GapRule::SyncWait:
        return thread % QStringLiteral(" waited in ") % eventName(t, ev.call) %
               QStringLiteral(" for ") % percentOf(ev.callCoveredNs, g) %
               QStringLiteral(" of the gap (") % dur % QStringLiteral(") while the GPU idled.");
    case GapRule::CpuWait: {
        QString s = QStringLiteral("CPU waiting in ") % eventName(t, ev.call) %
                    QStringLiteral(": ") % thread % QStringLiteral(" was in it for ") %
                    percentOf(ev.callCoveredNs, g) % QStringLiteral(" of the gap");
        if (ev.nvtxRange.isValid())
            s = s % QStringLiteral(", in NVTX range \"") % nvtxName(t, ev.nvtxRange) %
                QStringLiteral("\" for ") % percentOf(ev.rangeCoveredNs, g);
        return s % QStringLiteral(", launching no GPU work for ") % dur % u'.';
    }
    case GapRule::CpuBusy: {
        QString s = thread % QStringLiteral(" was ");
        if (ev.nvtxRange.isValid()) {
            s = s % QStringLiteral("in NVTX range \"") % nvtxName(t, ev.nvtxRange) %
                QStringLiteral("\" for ") % percentOf(ev.rangeCoveredNs, g) %
                QStringLiteral(" of the gap");
            if (ev.call.isValid())
                s = s % QStringLiteral(", in ") % eventName(t, ev.call) % QStringLiteral(" for ") %
                    percentOf(ev.callCoveredNs, g);
        } else {
            s = s % QStringLiteral("in ") % eventName(t, ev.call) % QStringLiteral(" for ") %
                percentOf(ev.callCoveredNs, g) % QStringLiteral(" of the gap");
        }
        return s % QStringLiteral(", launching no GPU work for ") % dur % u'.';
    }
    case GapRule::SyncDrain:
        return thread % QStringLiteral(" waited in ") % eventName(t, ev.call) %
               QStringLiteral(" until the GPU drained; it returned ") %
               formatDuration(ev.returnedAt - g.start) %
               QStringLiteral(" into the gap and the next work started ") %
               formatDuration(g.end - ev.returnedAt) % QStringLiteral(" later.");
    case GapRule::NoCpuActivity:
    case GapRule::OtherCalls: {
        const QString next = ev.call.isValid()
                                 ? thread % QStringLiteral(" launched the next work with ") %
                                       eventName(t, ev.call) % u'.'
                                 : QStringLiteral("No launch call of the next work was recorded.");
        if (ev.rule == GapRule::NoCpuActivity)
            return QStringLiteral("No CUDA API call on the CPU side for ") % dur %
                   QStringLiteral(". ") % next;
        return QString::number(ev.otherCalls) %
               (ev.otherCalls == 1 ? QStringLiteral(" CUDA API call")
                                   : QStringLiteral(" CUDA API calls")) %
               QStringLiteral(" during the gap, none of which explains it. ") % next;
    }
    }
    return {};
}

} // namespace

QString gapCauseText(const Trace& trace, const GpuGap& gap) {
    if (gap.cause == GapCause::CpuWait && gap.event.isValid())
        return gapCauseLabel(gap.cause) % QStringLiteral(" in ") % eventName(trace, gap.event);
    return gapCauseLabel(gap.cause);
}

QString gapDetailText(const Trace& trace, const GpuGap& gap) {
    if (gap.evidence.rule == GapRule::None)
        return {};
    QString s = ruleText(trace, gap); // (not const: returned by move)
    if (!gap.evidence.copyNs)
        return s;
    return s % QStringLiteral(" Copies ran for ") % percentOf(*gap.evidence.copyNs, gap.range) %
           QStringLiteral(" of the gap.");
}

} // namespace strobe
