// SPDX-License-Identifier: MIT
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "model/analysis/gaps.h"
#include "model/analysis/gpuarchitecture.h"
#include "model/reports/gapsummarytext.h"
#include "model/reports/labels.h"
#include "model/reports/reporttable.h"
#include "model/timeformat.h"
#include "model/trace.h"

#include <QFileInfo>
#include <map>

namespace strobe::cli {

namespace {

QString laneKindKey(LaneKind k) {
    switch (k) {
    case LaneKind::CudaApi:
        return QStringLiteral("cuda-api");
    case LaneKind::Osrt:
        return QStringLiteral("osrt");
    case LaneKind::Nvtx:
    case LaneKind::NvtxStartEnd:
        return QStringLiteral("nvtx");
    case LaneKind::CpuOps:
        return QStringLiteral("cpu-ops");
    case LaneKind::Python:
        return QStringLiteral("python");
    case LaneKind::Kernels:
        return QStringLiteral("kernels");
    case LaneKind::Memcpy:
        return QStringLiteral("memcpy");
    case LaneKind::Memset:
        return QStringLiteral("memset");
    case LaneKind::Uvm:
        return QStringLiteral("uvm");
    }
    return {};
}

void optionalString(JsonWriter& j, const QString& key, const std::optional<QString>& v) {
    j.key(key);
    if (v)
        j.value(*v);
    else
        j.null();
}

// A count of the trace, or nullopt when the reader left its part out: "not read", never 0.
std::optional<std::uint64_t> countOf(const Trace& t, TracePart part, std::uint64_t count) {
    if (!t.metadata().loadedParts.testFlag(part))
        return std::nullopt;
    return count;
}

// The trace's counts in info's order: JSON key, readable noun, value.
struct Count {
    const char* key;
    const char* noun;
    std::optional<std::uint64_t> value;
};
std::vector<Count> countsOf(const Trace& t) {
    const TraceCounts& c = t.counts();
    return {{"kernels", "kernels", countOf(t, TracePart::Kernels, c.kernels)},
            {"memcpys", "memcpys", countOf(t, TracePart::Memcpys, c.memcpys)},
            {"memsets", "memsets", countOf(t, TracePart::Memsets, c.memsets)},
            {"cuda_api_calls", "CUDA API calls", countOf(t, TracePart::CudaApi, c.cudaApiCalls)},
            {"nvtx_ranges", "NVTX ranges", countOf(t, TracePart::Nvtx, c.nvtxRanges)},
            {"nvtx_marks", "NVTX marks", countOf(t, TracePart::Nvtx, c.nvtxMarks)},
            {"osrt_calls", "OS runtime calls", countOf(t, TracePart::Osrt, c.osrtCalls)}};
}

// Per GPU id: kernel, copy and idle time as `strobe-cli gaps` and the GUI give them; none for a
// trace read in part (its GPU work or its time range may be incomplete).
std::map<std::uint32_t, DeviceIdleSummary> gpuWork(const Trace& t) {
    std::map<std::uint32_t, DeviceIdleSummary> out;
    if (t.metadata().loadedParts != kAllTraceParts)
        return out;
    for (const DeviceIdleSummary& d : summarizeGpus(t, kDefaultIdleThresholdNs))
        out[d.deviceId] = d;
    return out;
}

void writeJson(const Trace& t, const QString& path, QTextStream& out) {
    JsonWriter j(out);
    j.beginObject();
    j.field(QStringLiteral("file"), path);
    j.field(QStringLiteral("format"), t.metadata().format);
    optionalString(j, QStringLiteral("nsys_version"), t.metadata().nsysVersion);
    optionalString(j, QStringLiteral("schema_version"), t.metadata().schemaVersion);
    j.key(QStringLiteral("time_range_ns"));
    if (t.lanes().empty()) { // no events, so no first start or last end
        j.null();
    } else {
        j.beginArray();
        j.value(std::int64_t(t.timeRange().start));
        j.value(std::int64_t(t.timeRange().end));
        j.endArray();
    }
    j.key(QStringLiteral("counts"));
    j.beginObject();
    auto count = [&](const QString& key, std::optional<std::uint64_t> v) {
        j.key(key);
        if (v)
            j.value(*v);
        else
            j.null();
    };
    for (const Count& c : countsOf(t))
        count(QLatin1String(c.key), c.value);
    count(QStringLiteral("cpu_ops"), countOf(t, TracePart::CpuOps, t.counts().cpuOps));
    j.endObject();
    j.key(QStringLiteral("processes"));
    j.beginArray();
    for (const ProcessInfo& p : t.processes()) {
        j.beginObject();
        j.field(QStringLiteral("pid"), p.pid);
        j.field(QStringLiteral("name"), t.string(p.name));
        j.endObject();
    }
    j.endArray();
    j.field(QStringLiteral("threads"), std::uint64_t(t.threads().size()));
    j.key(QStringLiteral("gpus"));
    j.beginArray();
    const auto work = gpuWork(t);
    for (const GpuInfo& g : t.gpus()) {
        j.beginObject();
        j.field(QStringLiteral("id"), g.id);
        j.field(QStringLiteral("name"), t.string(g.name));
        j.field(QStringLiteral("sm_count"), g.smCount);
        const GpuLimits limits = resolveGpuLimits(t, g);
        j.key(QStringLiteral("compute_capability"));
        if (limits.gpu.computeMajor > 0)
            j.value(ComputeCapability{limits.gpu.computeMajor, limits.gpu.computeMinor}.toString());
        else
            j.null();
        j.field(QStringLiteral("occupancy_limits"), gpuLimitsSourceKey(limits.source));
        j.field(QStringLiteral("occupancy_limits_note"), gpuLimitsNote(limits));
        const auto it = work.find(g.id);
        const DeviceIdleSummary d = it != work.end() ? it->second : DeviceIdleSummary{};
        if (t.metadata().loadedParts != kAllTraceParts) { // not computed (gpuWork)
            for (const char* key : {"work_recorded", "kernel_ns", "copy_ns", "idle_ns", "gaps",
                                    "idle_before_first_work_ns", "idle_after_last_work_ns"}) {
                j.key(QLatin1String(key));
                j.null();
            }
            j.endObject();
            continue;
        }
        j.field(QStringLiteral("work_recorded"), d.hasWork());
        j.field(QStringLiteral("kernel_ns"), std::int64_t(d.kernelNs));
        j.field(QStringLiteral("copy_ns"), std::int64_t(d.copyNs));
        j.field(QStringLiteral("idle_ns"), std::int64_t(d.idleNs));
        j.field(QStringLiteral("gaps"), d.gapCount);
        for (const auto& [key, ns] :
             {std::pair{QStringLiteral("idle_before_first_work_ns"), d.idleBeforeNs},
              std::pair{QStringLiteral("idle_after_last_work_ns"), d.idleAfterNs}}) {
            j.key(key);
            if (d.busySpan)
                j.value(std::int64_t(ns));
            else
                j.null();
        }
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("lanes"));
    j.beginArray();
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        const Lane& l = t.lane(i);
        j.beginObject();
        j.field(QStringLiteral("kind"), laneKindKey(l.kind()));
        j.field(QStringLiteral("label"), t.laneLabel(i));
        j.field(QStringLiteral("rows"), unsigned(l.rowCount()));
        j.field(QStringLiteral("events"), l.size());
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("warnings"));
    j.beginArray();
    for (const TraceWarning& w : t.warnings()) {
        j.beginObject();
        j.field(QStringLiteral("kind"), w.kind);
        j.field(QStringLiteral("count"), w.count);
        j.field(QStringLiteral("message"), w.message);
        j.endObject();
    }
    j.endArray();
    // Distributed training (Kineto's distributedInfo); null when the trace does not say.
    j.key(QStringLiteral("rank"));
    if (t.metadata().rank)
        j.value(std::uint64_t(*t.metadata().rank));
    else
        j.null();
    j.key(QStringLiteral("world_size"));
    if (t.metadata().worldSize)
        j.value(std::uint64_t(*t.metadata().worldSize));
    else
        j.null();
    j.endObject();
    out << '\n';
}

void writeText(const Trace& t, const QString& path, QTextStream& out) {
    // Every string from the file (or the command line) goes through escapeControls: names with
    // escape sequences must not drive the terminal.
    const auto e = [](const QString& s) { return escapeControls(s); };
    const TraceMetadata& m = t.metadata();
    out << "File:        " << e(path) << '\n';
    out << "Format:      " << e(m.format) << " (" << e(m.productName);
    if (m.nsysVersion || m.format == QLatin1String("nsys-sqlite"))
        out << ' ' << e(m.nsysVersion.value_or(QStringLiteral("version unknown")));
    out << ", schema " << e(m.schemaVersion.value_or(QStringLiteral("unknown")));
    if (m.rank) {
        out << ", rank " << *m.rank;
        if (m.worldSize)
            out << " of " << *m.worldSize;
    }
    if (!m.distributedBackend.isEmpty())
        out << ", " << e(m.distributedBackend);
    out << ")\n";
    if (t.lanes().empty())
        out << "Time range:  none (no events)\n";
    else
        out << "Time range:  " << t.timeRange().start << " .. " << t.timeRange().end << " ns ("
            << formatDurationFixed(t.timeRange().duration()) << ")\n";
    const TraceCounts& c = t.counts();
    out << "Events:      ";
    const char* separator = "";
    for (const Count& n : countsOf(t)) {
        out << separator;
        separator = ", ";
        if (n.value)
            out << *n.value << ' ' << n.noun;
        else
            out << n.noun << " not read";
    }
    if (c.cpuOps || c.pythonFunctions)
        out << ", " << c.cpuOps << " CPU ops, " << c.pythonFunctions << " Python functions";
    out << '\n';
    out << "Processes:   ";
    for (std::size_t i = 0; i < t.processes().size(); ++i)
        out << (i ? ", " : "") << e(t.string(t.processes()[i].name)) << " [" << t.processes()[i].pid
            << ']';
    out << "\nThreads:     " << t.threads().size() << '\n';
    const auto work = gpuWork(t);
    for (const GpuInfo& g : t.gpus()) {
        out << "GPU " << g.id << ":       "
            << (g.name ? e(t.string(g.name)) : QStringLiteral("(unnamed)"));
        if (g.smCount)
            out << ", " << g.smCount << " SMs";
        const GpuLimits limits = resolveGpuLimits(t, g);
        if (limits.gpu.computeMajor > 0)
            out << ", compute capability " << limits.gpu.computeMajor << '.'
                << limits.gpu.computeMinor;
        out << '\n';
        const auto it = work.find(g.id);
        DeviceIdleSummary d;
        d.deviceId = g.id;
        if (it != work.end())
            d = it->second;
        if (t.metadata().loadedParts != kAllTraceParts) {
            out << "  work and idle time not computed: only part of the trace was read\n";
        } else {
            // The gaps line without its "GPU n: ", then the idle ends.
            const QString line = gpuWorkLine(d, BusyWork::All, kDefaultIdleThresholdNs);
            out << "  " << line.mid(line.indexOf(QLatin1String(": ")) + 2) << '\n';
            if (d.busySpan)
                out << "  " << idleBeforeLine(d) << ", " << idleAfterLine(d) << '\n';
        }
        out << "  occupancy limits "
            << (limits.source == GpuLimitsSource::Unknown ? QStringLiteral("unknown: ") : QString())
            << e(gpuLimitsNote(limits)) << '\n';
    }
    out << "Lanes (" << t.lanes().size() << "):\n";
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i)
        out << "  " << e(t.laneLabel(i)) << ": " << t.lane(i).size() << " events in "
            << t.lane(i).rowCount() << (t.lane(i).rowCount() == 1 ? " row\n" : " rows\n");
    if (!t.warnings().empty()) {
        out << "Warnings:\n";
        for (const TraceWarning& w : t.warnings())
            out << "  " << e(w.message) << '\n';
    }
}

} // namespace

int runInfo(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("info");
    CliArgs a(cmd, args, {QStringLiteral("json")}, {}, 1);
    if (!a.ok())
        return usageError(io, cmd, a.error());
    const QString path = a.positional().front();
    auto trace = loadForCli(path, io, kAllTraceParts);
    if (!trace)
        return 1;
    if (a.flag(QStringLiteral("json")))
        writeJson(*trace, path, io.out);
    else
        writeText(*trace, path, io.out);
    return 0;
}

} // namespace strobe::cli
