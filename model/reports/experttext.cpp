// SPDX-License-Identifier: MIT
// The words of nsys's expert rules and pageable_copies: titles as `nsys analyze` names the rules,
// one sentence of what the data shows, one of what to try (nsys's own advice, made concrete), and
// the evidence columns `nsys analyze` prints for each rule (docs/FINDINGS.md).
#include "model/cudaapi.h"
#include "model/cudaenums.h"
#include "model/reports/findingtext_rules.h"
#include "model/timeformat.h"

#include <set>

namespace strobe::findingtext {

namespace {

QString percent(double v) {
    return QString::number(v, 'f', 1) + QStringLiteral(" %");
}

// "1 copy", "12 copies".
QString counted(std::uint64_t n, const QString& one, const QString& many) {
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

QString share(const Finding& f) {
    return percent(f.sharePercent) +
           (f.deviceId ? QStringLiteral(" of its span") : QStringLiteral(" of the trace"));
}

// " (mostly cudaMemcpyAsync)" when the finding names a call ("(cudaMemcpyAsync)" for one row).
QString mostly(const Finding& f) {
    if (f.subject.isEmpty())
        return {};
    return (f.count == 1 ? QStringLiteral(" (%1)") : QStringLiteral(" (mostly %1)"))
        .arg(cudaapi::displayName(f.subject));
}

// The verb agreeing with the finding's count: "blocks" for one, "block" for more.
QString verb(const Finding& f, const char* one, const char* many) {
    return QString::fromLatin1(f.count == 1 ? one : many);
}

const QString kLookAtTheCpu = QStringLiteral(
    "See what the CPU does meanwhile (its threads, OS runtime calls and NVTX ranges on the "
    "timeline); NVTX ranges around the CPU code name what keeps the GPU waiting.");

enum class Columns : std::uint8_t { Copies, Memsets, Calls, Gaps, Chunks };

Columns columnsOf(FindingRule rule) {
    switch (rule) {
    case FindingRule::CudaMemsetSync:
        return Columns::Memsets;
    case FindingRule::CudaApiSync:
        return Columns::Calls;
    case FindingRule::GpuGaps:
        return Columns::Gaps;
    case FindingRule::GpuTimeUtil:
        return Columns::Chunks;
    default:
        return Columns::Copies;
    }
}

ReportCell optionalNumber(std::optional<std::uint32_t> v) {
    return v ? ReportCell::number(std::uint64_t(*v)) : ReportCell::null();
}

// The name of the API call `call`, as recorded ("cudaMemcpyAsync_v3020"), or null.
ReportCell callName(const Trace& trace, EventRef call) {
    if (!call.isValid() || call.lane >= trace.lanes().size() ||
        call.index >= trace.lane(call.lane).size())
        return ReportCell::null();
    return ReportCell::string(trace.string(trace.lane(call.lane).nameId(call.index)));
}

const StreamInfo* streamOf(const Trace& trace, std::uint32_t stream) {
    return stream < trace.streams().size() ? &trace.streams()[stream] : nullptr;
}

// The context of `pid` on `device` when it has one only (a gap or chunk names no event).
std::optional<std::uint32_t> onlyContext(const Trace& trace, std::uint32_t device,
                                         std::uint32_t pid) {
    std::set<std::uint32_t> contexts;
    for (const StreamInfo& s : trace.streams())
        if (s.deviceId == device && s.pid == pid)
            contexts.insert(s.contextId);
    return contexts.size() == 1 ? std::optional(*contexts.begin()) : std::nullopt;
}

// The row's position in the finding's evidence, 1 first (nsys's Row#).
std::uint64_t rowNumber(const Finding& f, const FindingEvidence& row) {
    const auto at = reinterpret_cast<std::uintptr_t>(&row);
    const auto first = reinterpret_cast<std::uintptr_t>(f.evidence.data());
    if (at >= first && at < first + f.evidence.size() * sizeof(FindingEvidence))
        return (at - first) / sizeof(FindingEvidence) + 1;
    for (std::size_t i = 0; i < f.evidence.size(); ++i)
        if (f.evidence[i].range == row.range && f.evidence[i].pid == row.pid &&
            f.evidence[i].deviceId == row.deviceId)
            return i + 1;
    return 0;
}

} // namespace

QString expertTitle(FindingRule rule) {
    switch (rule) {
    case FindingRule::CudaMemcpyAsync:
        return QStringLiteral("CUDA Async Memcpy with Pageable Memory");
    case FindingRule::CudaMemcpySync:
        return QStringLiteral("CUDA Synchronous Memcpy");
    case FindingRule::CudaMemsetSync:
        return QStringLiteral("CUDA Synchronous Memset");
    case FindingRule::CudaApiSync:
        return QStringLiteral("CUDA Synchronization APIs");
    case FindingRule::GpuGaps:
        return QStringLiteral("GPU Gaps");
    case FindingRule::GpuTimeUtil:
        return QStringLiteral("GPU Time Utilization");
    case FindingRule::PageableCopies:
        return QStringLiteral("Host-to-device copies from pageable memory");
    default:
        break;
    }
    return findingRuleId(rule);
}

FindingWords expertWords(const Trace& trace, const Finding& f) {
    const QString time = formatDuration(f.timeNs);
    switch (f.rule) {
    case FindingRule::CudaMemcpyAsync:
        return {QStringLiteral("%1%2 %3 pageable host memory, so %4 synchronously: %5 on the "
                               "GPU, %6.")
                    .arg(counted(f.count, QStringLiteral("asynchronous copy"),
                                 QStringLiteral("asynchronous copies")),
                         mostly(f), verb(f, "uses", "use"), verb(f, "it runs", "they run"), time,
                         share(f)),
                QStringLiteral("Allocate the host buffers pinned (cudaMallocHost, "
                               "cudaHostRegister) so that the copies run asynchronously.")};
    case FindingRule::CudaMemcpySync:
        return {QStringLiteral("%1%2 %3 the host: %4 on the GPU, %5.")
                    .arg(counted(f.count, QStringLiteral("synchronous copy"),
                                 QStringLiteral("synchronous copies")),
                         mostly(f), verb(f, "blocks", "block"), time, share(f)),
                QStringLiteral("Copy with cudaMemcpyAsync on a stream, from pinned host memory, "
                               "so that the host goes on while the copy runs.")};
    case FindingRule::CudaMemsetSync:
        return {QStringLiteral("%1%2 of pinned or managed memory %3 the host: %4 on the GPU, "
                               "%5.")
                    .arg(counted(f.count, QStringLiteral("synchronous memset"),
                                 QStringLiteral("synchronous memsets")),
                         mostly(f), verb(f, "blocks", "block"), time, share(f)),
                QStringLiteral("Use cudaMemsetAsync on a stream instead.")};
    case FindingRule::CudaApiSync:
        return {QStringLiteral("%1%2 %3 the host until the GPU is done, for %4 (%5 % of the "
                               "trace); the GPU sat idle %6 in the gaps they explain, %7.")
                    .arg(counted(f.count, QStringLiteral("synchronisation call"),
                                 QStringLiteral("synchronisation calls")),
                         mostly(f), verb(f, "blocks", "block"), formatDuration(TimeNs(f.measured)),
                         QString::number(f.baseNs > 0 ? 100.0 * f.measured / double(f.baseNs) : 0.0,
                                         'f', 1),
                         time, share(f)),
                QStringLiteral("Synchronise less often, and wait on events "
                               "(cudaStreamWaitEvent, cudaEventSynchronize) rather than on the "
                               "whole device or stream.")};
    case FindingRule::GpuGaps:
        return {QStringLiteral("%1 is idle for over %2 %3 (the longest %4): %5 in all, %6.")
                    .arg(trace.gpuLabel(f.deviceId.value_or(0)),
                         formatDuration(TimeNs(f.threshold)),
                         f.count == 1 ? QStringLiteral("once")
                                      : QStringLiteral("%1 times").arg(f.count),
                         formatDuration(TimeNs(f.measured)), time, share(f)),
                kLookAtTheCpu};
    case FindingRule::GpuTimeUtil:
        return {QStringLiteral("%1 is in use under %2 of the time in %3 of its span (%4 in use "
                               "on average there): %5 idle, %6.")
                    .arg(trace.gpuLabel(f.deviceId.value_or(0)), percent(f.threshold),
                         counted(f.count, QStringLiteral("chunk"), QStringLiteral("chunks")),
                         percent(f.measured), time, share(f)),
                kLookAtTheCpu};
    case FindingRule::PageableCopies:
        return {QStringLiteral("%1 %2 pageable memory: %3 on the GPU, %4.")
                    .arg(counted(f.count, QStringLiteral("host-to-device copy"),
                                 QStringLiteral("host-to-device copies")),
                         verb(f, "reads", "read"), time, share(f)),
                QStringLiteral("In PyTorch, pass pin_memory=True to the DataLoader and copy with "
                               ".to(device, non_blocking=True); elsewhere allocate the host "
                               "buffers pinned (cudaMallocHost).")};
    default:
        break;
    }
    return {};
}

QStringList expertEvidenceColumns(FindingRule rule) {
    const QString duration = QStringLiteral("Duration (ns)"), start = QStringLiteral("Start (ns)");
    const QStringList gpuOp = {QStringLiteral("Bytes"),
                               QStringLiteral("PID"),
                               QStringLiteral("Device ID"),
                               QStringLiteral("Context ID"),
                               QStringLiteral("Green Context ID"),
                               QStringLiteral("Stream ID"),
                               QStringLiteral("API Name")};
    switch (columnsOf(rule)) {
    case Columns::Copies:
        return QStringList{duration, start, QStringLiteral("Src Kind"),
                           QStringLiteral("Dst Kind")} +
               gpuOp;
    case Columns::Memsets:
        return QStringList{duration, start, QStringLiteral("Memory Kind")} + gpuOp;
    case Columns::Calls:
        return {duration, start, QStringLiteral("PID"), QStringLiteral("TID"),
                QStringLiteral("API Name")};
    case Columns::Gaps:
        return {QStringLiteral("Row#"),
                duration,
                start,
                QStringLiteral("PID"),
                QStringLiteral("Device ID"),
                QStringLiteral("Context ID")};
    case Columns::Chunks:
        break;
    }
    return {QStringLiteral("Row#"),
            QStringLiteral("In-Use (%)"),
            duration,
            start,
            QStringLiteral("PID"),
            QStringLiteral("Device ID"),
            QStringLiteral("Context ID")};
}

std::vector<ReportCell> expertEvidenceRow(const Trace& trace, const Finding& finding,
                                          const FindingEvidence& row) {
    const ReportCell duration = ReportCell::number(std::int64_t(row.range.duration()));
    const ReportCell start = ReportCell::number(std::int64_t(row.range.start));
    const Columns columns = columnsOf(finding.rule);
    if (columns == Columns::Gaps || columns == Columns::Chunks) {
        const std::optional<std::uint32_t> context =
            row.deviceId && row.pid ? onlyContext(trace, *row.deviceId, *row.pid) : std::nullopt;
        std::vector<ReportCell> cells{ReportCell::number(rowNumber(finding, row))};
        if (columns == Columns::Chunks)
            cells.push_back(ReportCell::number(row.value, 1));
        cells.insert(cells.end(), {duration, start, optionalNumber(row.pid),
                                   optionalNumber(row.deviceId), optionalNumber(context)});
        return cells;
    }
    const EventRef e = row.event;
    const bool valid =
        e.isValid() && e.lane < trace.lanes().size() && e.index < trace.lane(e.lane).size();
    if (columns == Columns::Calls) {
        std::optional<std::uint32_t> pid, tid;
        if (valid && trace.lane(e.lane).owner() < trace.threads().size()) {
            const ThreadInfo& t = trace.threads()[trace.lane(e.lane).owner()];
            pid = t.pid;
            tid = t.tid;
        }
        return {duration, start, optionalNumber(pid), optionalNumber(tid),
                valid ? callName(trace, e) : ReportCell::null()};
    }
    // A copy or a memset: its record, found from the event.
    const Lane* lane = valid ? &trace.lane(e.lane) : nullptr;
    const std::uint32_t record = lane ? lane->payload(e.index) : 0;
    std::vector<ReportCell> cells{duration, start};
    std::uint32_t stream = 0;
    EventRef call;
    std::uint64_t bytes = 0;
    if (columns == Columns::Copies && lane && record < trace.memcpys().size()) {
        const MemcpyRecord& m = trace.memcpys()[record];
        cells.push_back(ReportCell::string(memoryKindLabel(m.srcKind)));
        cells.push_back(ReportCell::string(memoryKindLabel(m.dstKind)));
        std::tie(stream, call, bytes) = std::tuple(m.stream, m.api, m.bytes);
    } else if (columns == Columns::Memsets && lane && record < trace.memsets().size()) {
        const MemsetRecord& m = trace.memsets()[record];
        cells.push_back(ReportCell::string(memoryKindLabel(m.memKind)));
        std::tie(stream, call, bytes) = std::tuple(m.stream, m.api, m.bytes);
    } else {
        cells.resize(columns == Columns::Copies ? 4 : 3, ReportCell::null());
        stream = std::uint32_t(trace.streams().size());
    }
    const StreamInfo* s = streamOf(trace, stream);
    cells.push_back(s ? ReportCell::number(bytes) : ReportCell::null());
    cells.push_back(s ? ReportCell::number(std::uint64_t(s->pid)) : ReportCell::null());
    cells.push_back(s ? ReportCell::number(std::uint64_t(s->deviceId)) : ReportCell::null());
    cells.push_back(s ? ReportCell::number(std::uint64_t(s->contextId)) : ReportCell::null());
    cells.push_back(ReportCell::null()); // green contexts are not in Strobe's model
    cells.push_back(s ? ReportCell::number(std::uint64_t(s->streamId)) : ReportCell::null());
    cells.push_back(callName(trace, call));
    return cells;
}

} // namespace strobe::findingtext
