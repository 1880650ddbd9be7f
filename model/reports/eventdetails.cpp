// SPDX-License-Identifier: MIT
#include "model/reports/eventdetails.h"

#include "model/analysis/gpuarchitecture.h"
#include "model/analysis/nvtxprojection.h"
#include "model/analysis/nvtxstats.h"
#include "model/analysis/occupancy.h"
#include "model/analysis/operators.h"
#include "model/cudaapi.h"
#include "model/cudaenums.h"
#include "model/reports/labels.h"
#include "model/valueformat.h"

#include <QStringBuilder>

namespace strobe {

QString EventDetails::value(const QString& section, const QString& key) const {
    for (const DetailSection& s : sections) {
        if (s.title != section)
            continue;
        for (const DetailItem& i : s.items) {
            if (i.key == key)
                return i.value;
        }
    }
    return {};
}

QString EventDetails::toText() const {
    QString out = title % u'\n';
    for (const DetailSection& s : sections) {
        out += u'\n' % s.title % u'\n';
        for (const DetailItem& i : s.items)
            out += QStringLiteral("  ") % i.key % QStringLiteral(": ") % i.value % u'\n';
    }
    if (!warnings.isEmpty()) {
        out += QStringLiteral("\nWarnings\n");
        for (const QString& w : warnings)
            out += QStringLiteral("  - ") % w % u'\n';
    }
    return out;
}

namespace {

QString num(std::uint64_t v) {
    return QString::number(v);
}

QString threadLabel(const Trace& t, std::uint32_t threadIndex) {
    return t.threadLabel(threadIndex, Trace::ThreadLabelForm::WithPid);
}

QString bytesText(std::uint64_t b) {
    if (b < 1024)
        return num(b) % QStringLiteral(" B");
    return formatBytes(b) % QStringLiteral(" (") % num(b) % QStringLiteral(" B)");
}

// Start, end and duration of an event.
// Times are shown from the trace's start, as on the timeline's ruler.
DetailSection timing(const Trace& t, const Lane& lane, std::uint32_t i) {
    const TimeNs origin = t.timeRange().start;
    return {QStringLiteral("Timing"),
            {{QStringLiteral("Start"), formatTimestamp(lane.start(i), origin)},
             {QStringLiteral("End"), formatTimestamp(lane.end(i), origin)},
             {QStringLiteral("Duration"), formatDuration(lane.end(i) - lane.start(i))}}};
}

DetailSection streamSection(const Trace& t, const StreamInfo& s) {
    const GpuInfo* gpu = t.gpuById(s.deviceId);
    QString device = QStringLiteral("GPU ") % num(s.deviceId);
    if (gpu && gpu->name != kNoString)
        device = device % QStringLiteral(" (") % t.string(gpu->name) % u')';
    DetailSection d{QStringLiteral("Device"), {{QStringLiteral("Device"), device}}};
    if (gpu && gpu->smCount)
        d.items.push_back({QStringLiteral("SM count"), num(gpu->smCount)});
    if (const GpuLimits l = resolveGpuLimits(t, s.deviceId); l.gpu.computeMajor > 0)
        d.items.push_back(
            {QStringLiteral("Compute capability"),
             QString::number(l.gpu.computeMajor) % u'.' % QString::number(l.gpu.computeMinor) %
                 (gpu && gpu->computeMajor == 0 ? QStringLiteral(" (from the GPU's name)")
                                                : QString())});
    d.items.push_back({QStringLiteral("Process"), num(s.pid)});
    d.items.push_back({QStringLiteral("Context"), num(s.contextId)});
    d.items.push_back({QStringLiteral("Stream"), num(s.streamId)});
    return d;
}

// The launching API call of a GPU operation; returns its duration when there is one.
std::optional<TimeNs> apiSection(const Trace& t, EventRef api, std::optional<std::uint32_t> corr,
                                 TimeNs gpuStart, EventDetails& out) {
    DetailSection d{QStringLiteral("Launch API call"), {}};
    d.items.push_back(
        {QStringLiteral("Correlation id"), corr ? num(*corr) : QStringLiteral("none recorded")});
    std::optional<TimeNs> duration;
    if (api.isValid()) {
        const Lane& l = t.lane(api.lane);
        duration = l.end(api.index) - l.start(api.index);
        d.items.push_back(
            {QStringLiteral("API call"), cudaapi::displayName(t.string(l.nameId(api.index)))});
        d.items.push_back({QStringLiteral("Thread"), threadLabel(t, l.owner())});
        d.items.push_back(
            {QStringLiteral("Start"), formatTimestamp(l.start(api.index), t.timeRange().start)});
        d.items.push_back({QStringLiteral("Duration"), formatDuration(*duration)});
        d.items.push_back(
            {QStringLiteral("Launch latency"), formatDuration(gpuStart - l.start(api.index))});
    } else {
        d.items.push_back({QStringLiteral("API call"), QStringLiteral("none recorded")});
    }
    out.sections.push_back(std::move(d));
    return duration;
}

void describeKernel(const Trace& t, std::uint32_t k, EventDetails& out) {
    const KernelLaunch kl = t.kernelAt(k);
    const KernelConfig& c = *kl.config;
    const KernelRecord& rec = kl.record;
    // A GPU-side preview (or a load without them) has the names and times of kernels only.
    const bool detailsRead = t.metadata().loadedParts.testFlag(TracePart::KernelDetail);
    const QString notReadYet = QStringLiteral("not read yet (it comes with the whole trace)");
    out.title = QStringLiteral("Kernel ") % t.string(c.shortName);
    out.sections.push_back(
        {QStringLiteral("Kernel"),
         {{c.shortNameDerived ? QStringLiteral("Name (derived)") : QStringLiteral("Name"),
           t.string(c.shortName)},
          {QStringLiteral("Demangled name"), t.string(c.demangledName)}}});
    if (c.mangledName != kNoString && c.mangledName != c.demangledName)
        out.sections.back().items.push_back(
            {QStringLiteral("Mangled name"), t.string(c.mangledName)});
    out.sections.push_back(timing(t, t.lane(rec.self.lane), rec.self.index));

    const std::uint64_t threadsPerBlock =
        std::uint64_t(c.block[0]) * std::uint64_t(c.block[1]) * std::uint64_t(c.block[2]);
    const std::uint64_t blocks =
        std::uint64_t(c.grid[0]) * std::uint64_t(c.grid[1]) * std::uint64_t(c.grid[2]);
    DetailSection launch{QStringLiteral("Launch configuration"), {}};
    launch.items = {
        {QStringLiteral("Grid"), formatDim3(c.grid)},
        {QStringLiteral("Block"), formatDim3(c.block)},
        {QStringLiteral("Threads per block"), num(threadsPerBlock)},
        {QStringLiteral("Total blocks"), num(blocks)},
        {QStringLiteral("Total threads"), num(blocks * threadsPerBlock)},
        {QStringLiteral("Registers per thread"), num(c.registersPerThread)},
        {QStringLiteral("Static shared memory"), bytesText(c.staticSharedBytes)},
        {QStringLiteral("Dynamic shared memory"), bytesText(c.dynamicSharedBytes)},
        {QStringLiteral("Total shared memory"),
         bytesText(std::uint64_t(c.staticSharedBytes) + c.dynamicSharedBytes)},
        {QStringLiteral("Local memory per thread"), bytesText(c.localBytesPerThread)},
        {QStringLiteral("Local memory total"), bytesText(c.localBytesTotal)},
        {QStringLiteral("Cache configuration"), cacheConfigLabel(c.cacheConfig)},
        {QStringLiteral("Shared memory configuration"),
         sharedMemLimitLabel(c.sharedMemLimitConfig) %
             (c.sharedMemoryExecuted ? QStringLiteral(", ") % bytesText(c.sharedMemoryExecuted) %
                                           QStringLiteral(" executed")
                                     : QString())},
        {QStringLiteral("Launch type"), launchTypeLabel(c.launchType)},
    };
    if (c.detail == LaunchDetail::Basic) {
        // Only the total shared memory was recorded, and nothing past it.
        launch.items.resize(6);
        launch.items.push_back({QStringLiteral("Shared memory"), bytesText(c.staticSharedBytes)});
    } else if (c.detail == LaunchDetail::None) {
        launch.items = {
            {QStringLiteral("Launch configuration"),
             detailsRead ? QStringLiteral("unknown (the trace recorded none)") : notReadYet}};
    }
    if (rec.graphNodeId)
        launch.items.push_back({QStringLiteral("Graph node"), num(*rec.graphNodeId)});
    // A reduced export may lack some fields: they read 0, so say unknown instead.
    const QString notRecorded = QStringLiteral("unknown (not in the trace)");
    for (DetailItem& i : launch.items) {
        const bool registers = i.key == QStringLiteral("Registers per thread");
        const bool shared = i.key.endsWith(QStringLiteral("shared memory"));
        const bool local = i.key.startsWith(QStringLiteral("Local memory"));
        if ((registers && !c.recorded(KernelField::Registers)) ||
            (shared && !c.recorded(KernelField::SharedMemory)) ||
            (local && !c.recorded(KernelField::LocalMemory)))
            i.value = notRecorded;
    }
    out.sections.push_back(std::move(launch));
    out.sections.push_back(streamSection(t, *kl.stream));
    const std::optional<TimeNs> apiDuration =
        apiSection(t, rec.api, rec.correlationId, kl.start, out);

    const GpuInfo* gpu = t.gpuById(kl.stream->deviceId);
    const GpuLimits limits = resolveGpuLimits(t, kl.stream->deviceId);
    DetailSection occ{QStringLiteral("Theoretical occupancy"), {}};
    const bool launchKnown = c.detail != LaunchDetail::None && c.recorded(KernelField::Registers) &&
                             c.recorded(KernelField::SharedMemory);
    const OccupancyResult o = launchKnown && limits.source != GpuLimitsSource::Unknown
                                  ? computeOccupancy(limits.gpu, c)
                                  : OccupancyResult{};
    if (c.detail == LaunchDetail::None) {
        occ.items.push_back({QStringLiteral("Occupancy"),
                             detailsRead
                                 ? QStringLiteral("unknown (no launch configuration recorded)")
                                 : notReadYet});
    } else if (!launchKnown) {
        occ.items.push_back(
            {QStringLiteral("Occupancy"),
             QStringLiteral("unknown (the trace does not record the kernel's ") %
                 (c.recorded(KernelField::Registers) ? QStringLiteral("shared memory")
                                                     : QStringLiteral("registers per thread")) %
                 u')'});
    } else if (!o.valid) {
        occ.items.push_back({QStringLiteral("Occupancy"),
                             QStringLiteral("unknown (") % gpuLimitsNote(limits) % u')'});
    } else if (o.limit == OccupancyLimit::BlockSize) {
        occ.items.push_back({QStringLiteral("Occupancy"), QStringLiteral("0 %")});
        occ.items.push_back({QStringLiteral("Limited by"), occupancyLimitLabel(o.limit)});
        occ.items.push_back({QStringLiteral("GPU limits"), gpuLimitsNote(limits)});
    } else {
        auto blocks = [](std::uint32_t b) {
            return b == std::numeric_limits<std::uint32_t>::max() ? QStringLiteral("no limit")
                                                                  : QString::number(b);
        };
        occ.items = {
            {QStringLiteral("Occupancy"),
             QString::number(o.occupancy * 100.0, 'f', 1) % QStringLiteral(" % (") %
                 num(o.activeWarpsPerSm) % QStringLiteral(" of ") % num(limits.gpu.maxWarpsPerSm) %
                 QStringLiteral(" warps per SM)")},
            {QStringLiteral("Active blocks per SM"), num(o.activeBlocksPerSm)},
            {QStringLiteral("Limited by"), occupancyLimitLabel(o.limit)},
            {QStringLiteral("Blocks per SM by registers"), blocks(o.blocksByRegisters)},
            {QStringLiteral("Blocks per SM by shared memory"), blocks(o.blocksBySharedMemory)},
            {QStringLiteral("Blocks per SM by warps"), blocks(o.blocksByWarps)},
            {QStringLiteral("Blocks per SM limit"), blocks(o.blocksBySmLimit)},
            {QStringLiteral("GPU limits"), gpuLimitsNote(limits)},
        };
    }
    out.sections.push_back(std::move(occ));
    if (const RecordedOccupancy& r = c.recordedOccupancy; !r.isEmpty()) {
        auto figure = [](const std::optional<float>& v, const QString& unit) {
            return v ? QString::number(double(*v), 'g', 6) % unit : QStringLiteral("not recorded");
        };
        out.sections.push_back(
            {QStringLiteral("Occupancy recorded by the profiler"),
             {{QStringLiteral("Estimated achieved occupancy"),
               figure(r.achievedOccupancyPercent, QStringLiteral(" %"))},
              {QStringLiteral("Blocks per SM"), figure(r.blocksPerSm, QString())},
              {QStringLiteral("Warps per SM"), figure(r.warpsPerSm, QString())}}});
    }

    if (c.detail != LaunchDetail::None && gpu && gpu->smCount && blocks < gpu->smCount)
        out.warnings << QStringLiteral("The grid has %1 blocks but the GPU has %2 SMs: some SMs "
                                       "stay idle while this kernel runs.")
                            .arg(blocks)
                            .arg(gpu->smCount);
    if (apiDuration && kl.duration() < *apiDuration)
        out.warnings << QStringLiteral("The kernel ran for %1, less than its launch call took "
                                       "(%2): launch overhead dominates; consider fusing kernels "
                                       "or CUDA graphs.")
                            .arg(formatDuration(kl.duration()), formatDuration(*apiDuration));
}

void addBandwidth(DetailSection& s, std::uint64_t bytes, TimeNs ns) {
    s.items.push_back(
        {QStringLiteral("Achieved bandwidth"), ns > 0 ? formatBandwidth(double(bytes) / double(ns))
                                                      : QStringLiteral("n/a (zero duration)")});
}

void describeMemcpy(const Trace& t, const MemcpyRecord& m, EventDetails& out) {
    const Lane& lane = t.lane(m.self.lane);
    out.title = QStringLiteral("Memcpy ") % memcpyKindLabel(m.copyKind);
    out.sections.push_back(timing(t, lane, m.self.index));
    DetailSection d{QStringLiteral("Memory copy"),
                    {{QStringLiteral("Bytes"), bytesText(m.bytes)},
                     {QStringLiteral("Direction"), memcpyKindLabel(m.copyKind)},
                     {QStringLiteral("Source memory"), memoryKindLabel(m.srcKind)},
                     {QStringLiteral("Destination memory"), memoryKindLabel(m.dstKind)}}};
    if (m.srcDeviceId)
        d.items.push_back({QStringLiteral("Source device"), num(*m.srcDeviceId)});
    if (m.dstDeviceId)
        d.items.push_back({QStringLiteral("Destination device"), num(*m.dstDeviceId)});
    if (m.migrationCause)
        d.items.push_back(
            {QStringLiteral("Migration cause"), migrationCauseLabel(*m.migrationCause)});
    addBandwidth(d, m.bytes, lane.end(m.self.index) - lane.start(m.self.index));
    out.sections.push_back(std::move(d));
    if (lane.kind() != LaneKind::Uvm && m.stream < t.streams().size())
        out.sections.push_back(streamSection(t, t.streams()[m.stream]));
    apiSection(t, m.api, m.correlationId, lane.start(m.self.index), out);
}

void describeMemset(const Trace& t, const MemsetRecord& m, EventDetails& out) {
    const Lane& lane = t.lane(m.self.lane);
    out.title = QStringLiteral("Memset");
    out.sections.push_back(timing(t, lane, m.self.index));
    DetailSection d{QStringLiteral("Memory set"),
                    {{QStringLiteral("Bytes"), bytesText(m.bytes)},
                     {QStringLiteral("Value"), num(m.value)},
                     {QStringLiteral("Memory"), memoryKindLabel(m.memKind)}}};
    addBandwidth(d, m.bytes, lane.end(m.self.index) - lane.start(m.self.index));
    out.sections.push_back(std::move(d));
    if (m.stream < t.streams().size())
        out.sections.push_back(streamSection(t, t.streams()[m.stream]));
    apiSection(t, m.api, m.correlationId, lane.start(m.self.index), out);
}

QString gpuOpName(const Trace& t, EventRef op) {
    if (!op.isValid())
        return QStringLiteral("none");
    const Lane& l = t.lane(op.lane);
    if (l.kind() == LaneKind::Kernels)
        return t.string(t.kernelConfigs()[t.kernelConfigIndex(l.payload(op.index))].shortName);
    return t.string(l.nameId(op.index));
}

// What an NVTX range launched on the GPU (the kernels, memcpys and memsets whose launch call
// started inside it on its thread).
DetailSection projectedSection(const Trace& t, EventRef range) {
    const NvtxGpuWork w = projectNvtxRange(t, range);
    DetailSection d{QStringLiteral("GPU work (projected)"),
                    {{QStringLiteral("Operations"), num(w.count)}}};
    if (w.isEmpty())
        return d;
    d.items.push_back({QStringLiteral("GPU time"), formatDuration(w.gpuTime)});
    d.items.push_back({QStringLiteral("GPU span"), formatDuration(w.span.duration())});
    d.items.push_back(
        {QStringLiteral("First GPU start"), formatTimestamp(w.span.start, t.timeRange().start)});
    d.items.push_back(
        {QStringLiteral("Last GPU end"), formatTimestamp(w.span.end, t.timeRange().start)});
    return d;
}

// The operators that launched the GPU operation at `self` (innermost first, each a link to its
// range), second after what the operation is, and the Python frames around its launching call
// `api`, last.
void launcherSections(const Trace& t, const OperatorForest& f, EventRef self, EventRef api,
                      EventDetails& out) {
    if (!f.hasOperators())
        return;
    const std::uint32_t launcher = f.launcherOf(t, self);
    const std::vector<std::uint32_t> chain =
        launcher == kNoOpNode ? std::vector<std::uint32_t>{} : f.operatorChain(launcher);
    DetailItem item{QStringLiteral("Launched by"), {}};
    for (const std::uint32_t n : chain) {
        const OpNode& node = f.node(n);
        item.links.push_back({f.nameOf(n), node.event, TimeRange{node.start, node.end}});
        if (item.value.isEmpty())
            item.value = f.nameOf(n);
        else
            item.value += QStringView(kDetailLinkSeparator) % f.nameOf(n);
    }
    if (chain.empty())
        item.value = QStringLiteral("no operator (launched outside any)");
    out.sections.insert(out.sections.begin() +
                            std::min<std::ptrdiff_t>(1, std::ssize(out.sections)),
                        DetailSection{QStringLiteral("Operators"), {std::move(item)}});
    if (!api.isValid())
        return;
    const Lane& call = t.lane(api.lane);
    const std::vector<EventRef> frames = pythonFrames(t, call.owner(), call.start(api.index));
    if (frames.empty())
        return;
    DetailSection python{QStringLiteral("Python stack (innermost first)"), {}};
    for (std::size_t i = 0; i < frames.size(); ++i)
        python.items.push_back(
            {num(i + 1), t.string(t.lane(frames[i].lane).nameId(frames[i].index))});
    out.sections.push_back(std::move(python));
}

} // namespace

EventDetails describeEvent(const Trace& t, EventRef ref, const OperatorForest* operators) {
    EventDetails out;
    if (!ref.isValid() || ref.lane >= t.lanes().size() || ref.index >= t.lane(ref.lane).size())
        return out;
    const Lane& lane = t.lane(ref.lane);
    const std::uint32_t i = ref.index, p = lane.payload(i);
    const QString name = t.string(lane.nameId(i));
    switch (lane.kind()) {
    case LaneKind::Kernels:
        describeKernel(t, p, out);
        if (operators)
            launcherSections(t, *operators, ref, t.kernels()[p].api, out);
        break;
    case LaneKind::Memcpy:
    case LaneKind::Uvm:
        describeMemcpy(t, t.memcpys()[p], out);
        if (operators)
            launcherSections(t, *operators, ref, t.memcpys()[p].api, out);
        break;
    case LaneKind::Memset:
        describeMemset(t, t.memsets()[p], out);
        if (operators)
            launcherSections(t, *operators, ref, t.memsets()[p].api, out);
        break;
    case LaneKind::CudaApi: {
        const ApiCallRecord& a = t.apiCalls()[p];
        out.title = QStringLiteral("CUDA API ") % cudaapi::displayName(name);
        out.sections.push_back(
            {QStringLiteral("Call"),
             {{QStringLiteral("Name"), name},
              {QStringLiteral("Thread"), threadLabel(t, lane.owner())},
              {QStringLiteral("Kind"),
               a.eventClass == 1 ? QStringLiteral("driver API") : QStringLiteral("runtime API")},
              {QStringLiteral("Return value"), QString::number(a.returnValue)},
              {QStringLiteral("Correlation id"), num(a.correlationId)},
              {QStringLiteral("Launched GPU work"), gpuOpName(t, a.gpuOp)}}});
        out.sections.push_back(timing(t, lane, i));
        break;
    }
    case LaneKind::Osrt: {
        const OsrtRecord& o = t.osrtCalls()[p];
        out.title = QStringLiteral("OS runtime ") % name;
        out.sections.push_back({QStringLiteral("Call"),
                                {{QStringLiteral("Name"), name},
                                 {QStringLiteral("Thread"), threadLabel(t, lane.owner())},
                                 {QStringLiteral("Return value"), QString::number(o.returnValue)},
                                 {QStringLiteral("Nesting level"), num(o.nestingLevel)}}});
        out.sections.push_back(timing(t, lane, i));
        break;
    }
    case LaneKind::Nvtx:
    case LaneKind::NvtxStartEnd: {
        const NvtxRecord& n = t.nvtx()[p];
        const bool mark = n.style == NvtxStyle::Mark;
        out.title = (mark ? QStringLiteral("NVTX mark ") : QStringLiteral("NVTX range ")) %
                    nvtxRangeName(t, lane.domain(), lane.nameId(i));
        DetailSection d{
            QStringLiteral("NVTX"),
            {{QStringLiteral("Text"), name},
             {QStringLiteral("Domain"),
              lane.domain() != kNoString ? t.string(lane.domain()) : QStringLiteral("default")},
             {QStringLiteral("Style"), n.style == NvtxStyle::PushPop ? QStringLiteral("push/pop")
                                       : n.style == NvtxStyle::StartEnd
                                           ? QStringLiteral("start/end")
                                           : QStringLiteral("mark")},
             {QStringLiteral("Thread"), threadLabel(t, n.thread)},
             {QStringLiteral("Depth"), num(n.depth)}}};
        if (n.category)
            d.items.push_back({QStringLiteral("Category"), QString::number(*n.category)});
        if (n.color)
            d.items.push_back(
                {QStringLiteral("Color"),
                 QStringLiteral("#") %
                     QString::number(*n.color & 0xFFFFFF, 16).rightJustified(6, u'0')});
        if (!n.hasEnd)
            d.items.push_back(
                {QStringLiteral("End"), QStringLiteral("not recorded (drawn to the trace end)")});
        out.sections.push_back(std::move(d));
        out.sections.push_back(timing(t, lane, i));
        if (!mark)
            out.sections.push_back(projectedSection(t, ref));
        break;
    }
    case LaneKind::CpuOps:
    case LaneKind::Python: {
        const CpuOpRecord& op = t.cpuOps()[p];
        const bool python = lane.kind() == LaneKind::Python;
        out.title = (python ? QStringLiteral("Python ") : QStringLiteral("CPU op ")) % name;
        DetailSection d{python ? QStringLiteral("Python function") : QStringLiteral("CPU op"),
                        {{QStringLiteral("Name"), name},
                         {QStringLiteral("Thread"), threadLabel(t, lane.owner())},
                         {QStringLiteral("Depth"), num(lane.row(i))}}};
        if (op.externalId)
            d.items.push_back({QStringLiteral("External id"), num(*op.externalId)});
        out.sections.push_back(std::move(d));
        out.sections.push_back(timing(t, lane, i));
        break;
    }
    }
    return out;
}

} // namespace strobe
