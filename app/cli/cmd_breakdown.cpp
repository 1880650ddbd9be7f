// SPDX-License-Identifier: MIT
// strobe-cli breakdown: where each GPU's time went, over its span or per instance of a range
// (docs/BREAKDOWN.md for the definitions, docs/CLI.md for the format).
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/output.h"
#include "model/analysis/breakdown.h"
#include "model/analysis/iterations.h"
#include "model/gpumemory.h"
#include "model/reports/reporttable.h"
#include "model/trace.h"

#include <QStringBuilder>

namespace strobe::cli {

namespace {

struct Block {
    std::optional<std::size_t> instance;
    std::optional<TimeRange> range;
    std::vector<GpuBreakdown> gpus;
};

// (category, value) pairs in the documented order.
std::vector<std::pair<QString, TimeNs>> categories(const GpuBreakdown& b, bool classes) {
    std::vector<std::pair<QString, TimeNs>> out{
        {QStringLiteral("compute"), b.compute},
        {QStringLiteral("communication"), b.communication},
        {QStringLiteral("exposed_communication"), b.exposedCommunication},
        {QStringLiteral("memory"), b.memory},
        {QStringLiteral("idle"), b.idle},
        {QStringLiteral("span"), b.span.duration()},
    };
    if (classes) {
        for (int c = 0; c < kKernelClassCount; ++c)
            out.push_back({QStringLiteral("class:") % kernelClassKey(KernelClass(c)),
                           b.classes[std::size_t(c)]});
    }
    return out;
}

void writeCsvBlocks(QTextStream& out, const std::vector<Block>& blocks, bool perInstance,
                    bool classes) {
    ReportTable t;
    if (perInstance)
        t.columns << QStringLiteral("instance");
    t.columns << QStringLiteral("device_id") << QStringLiteral("category")
              << QStringLiteral("time_ns");
    for (const Block& block : blocks) {
        for (const GpuBreakdown& g : block.gpus) {
            for (const auto& [name, ns] : categories(g, classes)) {
                std::vector<ReportCell> row;
                if (perInstance)
                    row.push_back(ReportCell::number(std::uint64_t(*block.instance)));
                row.push_back(ReportCell::number(std::uint64_t(g.deviceId)));
                row.push_back(ReportCell::string(name));
                row.push_back(ReportCell::number(std::int64_t(ns)));
                t.rows.push_back(std::move(row));
            }
        }
    }
    writeCsv(out, t);
}

// The most bytes allocated on the GPU (within the block's range), when the trace recorded it.
void writeMemoryPeak(JsonWriter& w, const Trace& trace, const GpuBreakdown& g,
                     std::optional<TimeRange> range) {
    w.key(QStringLiteral("memory_peak"));
    const GpuMemoryTrack* track = trace.gpuMemoryOf(g.deviceId);
    const GpuMemorySample* peak = track ? track->peak(range) : nullptr;
    if (!peak) {
        w.null();
        return;
    }
    w.beginObject();
    w.field(QStringLiteral("allocated_bytes"), std::uint64_t(peak->allocated));
    w.field(QStringLiteral("time_ns"), std::int64_t(peak->time));
    w.key(QStringLiteral("reserved_bytes"));
    if (peak->reserved)
        w.value(std::uint64_t(*peak->reserved));
    else
        w.null();
    w.key(QStringLiteral("total_bytes"));
    const GpuInfo* gpu = trace.gpuById(g.deviceId);
    if (gpu && gpu->totalMemory > 0)
        w.value(std::uint64_t(gpu->totalMemory));
    else
        w.null();
    w.endObject();
}

void writeJsonBlocks(QTextStream& out, const Trace& trace, const std::vector<Block>& blocks,
                     bool classes) {
    JsonWriter w(out);
    w.beginArray();
    for (const Block& block : blocks) {
        for (const GpuBreakdown& g : block.gpus) {
            w.beginObject();
            if (block.instance) {
                w.field(QStringLiteral("instance"), std::uint64_t(*block.instance));
            }
            w.field(QStringLiteral("device_id"), std::uint64_t(g.deviceId));
            w.field(QStringLiteral("start_ns"), std::int64_t(g.span.start));
            w.field(QStringLiteral("end_ns"), std::int64_t(g.span.end));
            for (const auto& [name, ns] : categories(g, false))
                w.field(name, std::int64_t(ns));
            w.field(QStringLiteral("overlap_percent"), g.overlapPercent());
            if (classes) {
                w.key(QStringLiteral("classes"));
                w.beginObject();
                for (int c = 0; c < kKernelClassCount; ++c)
                    w.field(kernelClassKey(KernelClass(c)), std::int64_t(g.classes[c]));
                w.endObject();
            }
            w.key(QStringLiteral("copies"));
            w.beginObject();
            for (int c = 0; c < kCopyDirectionCount; ++c)
                w.field(copyDirectionKey(CopyDirection(c)), std::int64_t(g.copies[c]));
            w.endObject();
            w.field(QStringLiteral("memset"), std::int64_t(g.memset));
            writeMemoryPeak(w, trace, g, block.range);
            w.endObject();
        }
    }
    w.endArray();
    out << '\n';
}

} // namespace

int runBreakdown(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("breakdown");
    CliArgs a(cmd, args, {QStringLiteral("classes")},
              {QStringLiteral("format"), QStringLiteral("range"), QStringLiteral("classes-file")},
              1);
    const bool json = a.jsonFormat();
    if (!a.ok())
        return usageError(io, cmd, a.error());
    KernelClassTable table = KernelClassTable::defaults();
    if (const auto file = a.option(QStringLiteral("classes-file"))) {
        QString error;
        auto loaded = KernelClassTable::fromFile(*file, &error);
        if (!loaded) {
            io.err << "strobe-cli breakdown: " << escapeControls(error) << '\n';
            return 1;
        }
        table = std::move(*loaded);
    }
    const auto rangeName = a.option(QStringLiteral("range"));
    // GPU work by name and time; the memory peak (JSON only) and the range instances need their
    // own parts.
    TraceParts parts = TracePart::Kernels | TracePart::Memcpys | TracePart::Memsets;
    if (json)
        parts |= TracePart::GpuMemory;
    if (rangeName)
        parts |= TracePart::Nvtx | TracePart::CpuOps;
    auto trace = loadForCli(a.positional().front(), io, parts);
    if (!trace)
        return 1;
    const BreakdownSource source(*trace, table);
    std::vector<Block> blocks;
    RangeInstances ranges;
    if (rangeName) {
        ranges = findRangeInstances(*trace, *rangeName);
        if (ranges.instances.empty()) {
            io.err << "strobe-cli breakdown: " << a.positional().front()
                   << " has no NVTX range named '" << *rangeName << "'.\n";
            return 1;
        }
        for (std::size_t i = 0; i < ranges.instances.size(); ++i)
            blocks.push_back({i, ranges.instances[i], source.breakdown(ranges.instances[i])});
    } else {
        blocks.push_back({std::nullopt, std::nullopt, source.breakdown()});
    }
    const bool classes = a.flag(QStringLiteral("classes"));
    if (json)
        writeJsonBlocks(io.out, *trace, blocks, classes);
    else
        writeCsvBlocks(io.out, blocks, rangeName.has_value(), classes);
    return 0;
}

} // namespace strobe::cli
