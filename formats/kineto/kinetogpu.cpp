// SPDX-License-Identifier: MIT
// The GPU side of a Kineto trace: kernels, memcpys, memsets and syncs are staged while the file
// is read and added once every CPU process is known, under the process that launched them (the
// JSON puts them under a per-device pseudo-process).
#include "formats/kineto/kinetonumber.h"
#include "formats/kineto/kinetoreaderimpl.h"
#include "model/kernelname.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace strobe {

using namespace kineto;

namespace {

// The bytes of one element of a PyTorch dtype as the profiler writes it (c10::ScalarType's
// names); 0 for one it does not know.
std::uint64_t dtypeBytes(std::string_view dtype) {
    static constexpr std::pair<std::string_view, std::uint64_t> kSizes[] = {
        {"Float", 4},
        {"Double", 8},
        {"Half", 2},
        {"BFloat16", 2},
        {"Int", 4},
        {"Long", 8},
        {"Short", 2},
        {"Char", 1},
        {"Byte", 1},
        {"Bool", 1},
        {"ComplexHalf", 4},
        {"ComplexFloat", 8},
        {"ComplexDouble", 16},
        {"Float8_e4m3fn", 1},
        {"Float8_e5m2", 1},
        {"Float8_e4m3fnuz", 1},
        {"Float8_e5m2fnuz", 1},
        {"UInt16", 2},
        {"UInt32", 4},
        {"UInt64", 8},
        {"QInt8", 1},
        {"QUInt8", 1},
        {"QInt32", 4},
    };
    for (const auto& [name, size] : kSizes) {
        if (name == dtype)
            return size;
    }
    return 0;
}

std::uint32_t wrap32(std::int64_t v) {
    return std::uint32_t(std::uint64_t(v));
}

// "Memcpy HtoD (Pageable -> Device)" -> HtoD.
MemcpyKind copyKindOf(std::string_view name) {
    static const std::pair<std::string_view, MemcpyKind> kKinds[] = {
        {"HtoD", MemcpyKind::HtoD}, {"DtoH", MemcpyKind::DtoH}, {"DtoD", MemcpyKind::DtoD},
        {"HtoH", MemcpyKind::HtoH}, {"PtoP", MemcpyKind::PtoP}, {"HtoA", MemcpyKind::HtoA},
        {"AtoH", MemcpyKind::AtoH}, {"AtoA", MemcpyKind::AtoA}, {"AtoD", MemcpyKind::AtoD},
        {"DtoA", MemcpyKind::DtoA},
    };
    const std::size_t at = name.find(' ');
    if (at == std::string_view::npos)
        return MemcpyKind::Unknown;
    const std::string_view word = name.substr(at + 1, 4);
    for (const auto& [k, kind] : kKinds) {
        if (word == k && (name.size() == at + 5 || name[at + 5] == ' '))
            return kind;
    }
    return MemcpyKind::Unknown;
}

// The memory kind of the names Kineto writes; Unknown for anything else ("Host").
MemoryKind memoryKindOf(std::string_view s) {
    using enum MemoryKind;
    static const std::pair<std::string_view, MemoryKind> kKinds[] = {
        {"Pageable", Pageable},
        {"Pinned", Pinned},
        {"Device", Device},
        {"Array", Array},
        {"Managed", Managed},
        {"Device Static", DeviceStatic},
        {"Managed Static", ManagedStatic},
    };
    for (const auto& [k, v] : kKinds) {
        if (s == k)
            return v;
    }
    return Unknown;
}

// The memory kinds in "Memcpy HtoD (Pageable -> Device)" or "Memset (Device)".
std::pair<MemoryKind, MemoryKind> memoryKindsOf(std::string_view name) {
    const std::size_t open = name.find('('), close = name.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return {MemoryKind::Unknown, MemoryKind::Unknown};
    const std::string_view inner = name.substr(open + 1, close - open - 1);
    const std::size_t arrow = inner.find(" -> ");
    if (arrow == std::string_view::npos)
        return {memoryKindOf(inner), MemoryKind::Unknown};
    return {memoryKindOf(inner.substr(0, arrow)), memoryKindOf(inner.substr(arrow + 4))};
}

std::uint8_t syncTypeOf(std::string_view kind) {
    if (kind == "Event Sync")
        return 1;
    if (kind == "Stream Wait Event")
        return 2;
    if (kind == "Stream Sync")
        return 3;
    if (kind == "Context Sync")
        return 4;
    return 0;
}

quint64 flowKey(std::uint32_t pid, std::uint32_t tid) {
    return (quint64(pid) << 32) | tid;
}

} // namespace

namespace kineto {

std::size_t KernelKeyHash::operator()(const KernelKey& k) const noexcept {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    auto mix = [&h](std::uint64_t v) {
        h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xFF51AFD7ED558CCDull;
    };
    mix(std::uint64_t(k.name) << 16 | std::uint64_t(k.dims) << 8 | k.present);
    for (int d = 0; d < 3; ++d)
        mix(std::uint64_t(std::uint32_t(k.grid[d])) << 32 | std::uint32_t(k.block[d]));
    for (std::size_t i = 0; i < k.texts.size(); ++i) {
        // Eight bytes at a time: the texts are a few digits.
        const std::string_view t = k.texts[i];
        std::size_t at = 0;
        for (; at + 8 <= t.size(); at += 8) {
            std::uint64_t w = 0;
            std::memcpy(&w, t.data() + at, 8);
            mix(w);
        }
        std::uint64_t w = 0;
        if (t.size() > at)
            std::memcpy(&w, t.data() + at, t.size() - at);
        mix(w ^ (std::uint64_t(t.size()) << 56) ^ (std::uint64_t(k.kinds[i]) << 48));
    }
    return std::size_t(h);
}

} // namespace kineto

std::uint32_t KinetoJsonLoader::Impl::kernelConfig(const RawEvent& e, StringId name) {
    KernelConfig c;
    c.demangledName = name;
    auto [derived, isNew] = shortNames.try_emplace(c.demangledName, kNoString);
    if (isNew) { // once per distinct name
        const std::string_view full = builder.strings().view(c.demangledName);
        const std::string_view shortName = deriveShortKernelName(full);
        // (a copy: the view is into the table, which interning may reallocate)
        derived->second =
            shortName == full ? c.demangledName : builder.intern(std::string(shortName));
    }
    c.shortName = derived->second;
    c.shortNameDerived = c.shortName != c.demangledName;
    const auto registers = e.integer(Field::Registers);
    const bool hasLaunch = e.grid || e.block || registers;
    c.detail = hasLaunch ? LaunchDetail::Basic : LaunchDetail::None;
    if (hasLaunch) {
        const auto shared = e.integer(Field::SharedMemory);
        c.grid = e.grid.value_or(std::array<std::int32_t, 3>{0, 0, 0});
        c.block = e.block.value_or(std::array<std::int32_t, 3>{0, 0, 0});
        c.registersPerThread = wrap32(std::max<std::int64_t>(0, registers.value_or(0)));
        c.staticSharedBytes = wrap32(std::max<std::int64_t>(0, shared.value_or(0)));
    }
    c.recordedOccupancy = {e.real(Field::BlocksPerSm), e.real(Field::WarpsPerSm),
                           e.real(Field::OccupancyPercent)};
    auto [it, added] = configIndex.try_emplace(c, std::uint32_t(configs.size()));
    if (added)
        configs.push_back(c);
    return it->second;
}

void KinetoJsonLoader::Impl::stageGpuOp(const RawEvent& e, GpuOpKind kind, TimeNs start, TimeNs end,
                                        std::string_view name) {
    std::int64_t pidNumber = 0, stream = 0, device = 0, correlation = 0;
    const bool hasPid = e.integer(Field::Pid, pidNumber);
    const bool argStream = e.integer(Field::Stream, stream);
    bool hasStream = argStream || e.integer(Field::Tid, stream);
    if (!hasStream) {
        const std::string_view tid = e.string(Field::Tid);
        hasStream = tid.substr(0, 7) == "stream " && parseInteger(tid.substr(7), stream);
    }
    bool hasDevice = e.integer(Field::Device, device);
    if (!hasDevice && hasPid) {
        device = pidNumber;
        hasDevice = true;
    }
    if (!hasDevice || (!hasStream && kind != GpuOpKind::Sync)) {
        ++malformed;
        return;
    }
    const bool hasCorrelation = e.integer(Field::Correlation, correlation);
    std::int64_t context = 0;
    e.integer(Field::Context, context);
    PendingGpuOp op;
    op.start = start;
    op.end = end;
    op.device = wrap32(device);
    op.context = wrap32(context);
    op.stream = hasStream ? wrap32(stream) : 0;
    op.jsonPid = wrap32(hasPid ? pidNumber : device);
    op.jsonTid = op.stream;
    if (hasCorrelation)
        op.correlation = wrap32(correlation);
    op.kind = kind;
    switch (kind) {
    case GpuOpKind::Kernel: {
        const StringId nameId = internName(name);
        KernelKey key;
        key.name = nameId;
        if (e.grid) {
            key.grid = *e.grid;
            key.dims |= 1;
        }
        if (e.block) {
            key.block = *e.block;
            key.dims |= 2;
        }
        bool inDocument = true; // false for a string unescaped into a buffer the next event reuses
        for (std::size_t i = 0; i < KernelKey::kFields.size(); ++i) {
            if (const Field f = KernelKey::kFields[i]; e.has(f)) {
                key.present |= std::uint8_t(1u << i);
                key.kinds[i] = e.kind(f);
                key.texts[i] = e.text(f);
                inDocument = inDocument && e.inDocument(f);
            }
        }
        if (!inDocument) {
            op.index = kernelConfig(e, nameId);
        } else if (auto [it, added] = kernelKeys.try_emplace(key, 0); !added) {
            op.index = it->second;
        } else {
            op.index = it->second = kernelConfig(e, nameId);
        }
        op.name = configs[op.index].shortName;
        if (e.has(Field::ProcessGroupName) || e.has(Field::InMsgNelems)) {
            std::string_view group = e.string(Field::ProcessGroupName);
            std::string digits;
            if (std::int64_t n = 0; group.empty() && e.integer(Field::ProcessGroupName, n))
                group = digits = std::to_string(n);
            if (!group.empty())
                op.processGroup = builder.intern(group);
            std::int64_t nelems = 0;
            const std::uint64_t size = dtypeBytes(e.string(Field::Dtype));
            if (size > 0 && e.integer(Field::InMsgNelems, nelems) && nelems >= 0 &&
                std::uint64_t(nelems) <= (std::uint64_t(1) << 56))
                op.messageBytes = std::uint64_t(nelems) * size;
        }
        break;
    }
    case GpuOpKind::Memcpy: {
        MemcpyRecord r;
        r.bytes = std::uint64_t(std::max<std::int64_t>(0, e.integer(Field::Bytes).value_or(0)));
        r.copyKind = copyKindOf(name);
        std::tie(r.srcKind, r.dstKind) = memoryKindsOf(name);
        op.index = std::uint32_t(memcpys.size());
        memcpys.push_back(r);
        op.name = internName(name);
        break;
    }
    case GpuOpKind::Memset: {
        MemsetRecord r;
        r.bytes = std::uint64_t(std::max<std::int64_t>(0, e.integer(Field::Bytes).value_or(0)));
        r.memKind = memoryKindsOf(name).first;
        op.index = std::uint32_t(memsets.size());
        memsets.push_back(r);
        op.name = internName(name);
        break;
    }
    case GpuOpKind::Sync: {
        SyncRecord r;
        r.start = start;
        r.end = end;
        r.deviceId = op.device;
        r.contextId = op.context;
        if (argStream && stream >= 0)
            r.streamId = wrap32(stream);
        const std::string_view syncKind = e.string(Field::ArgSyncKind);
        r.syncType = syncTypeOf(syncKind.empty() ? name : syncKind);
        op.index = std::uint32_t(syncs.size());
        syncs.push_back(r);
        break;
    }
    }
    gpuOps.push_back(op);
    if (!op.correlation && kind != GpuOpKind::Sync)
        needFlows();
}

void KinetoJsonLoader::Impl::addStagedEvents() {
    // Operations and calls without args.correlation take the id of the ac2g flow that ends (or
    // starts) at them: Kineto numbers those flows by correlation id.
    // (flowsNeeded: there is such an operation or call, and every launch flow was read)
    std::map<std::pair<quint64, TimeNs>, std::uint64_t> startFlow, endFlow;
    const bool flowsRead = flowsNeeded.load(std::memory_order_relaxed);
    if (flowsRead) {
        for (const FlowPoint& f : flowStarts)
            startFlow.emplace(std::make_pair(flowKey(f.pid, f.tid), f.ts), f.id);
        for (const FlowPoint& f : flowEnds)
            endFlow.emplace(std::make_pair(flowKey(f.pid, f.tid), f.ts), f.id);
    }
    for (const PendingApiCall& c : uncorrelatedApiCalls) {
        ApiCallRecord rec;
        rec.eventClass = c.eventClass;
        if (auto it = startFlow.find({flowKey(c.pid, c.tid), c.start}); it != startFlow.end()) {
            rec.correlationId = std::uint32_t(it->second);
            apiCorrelationPid.emplace_back(rec.correlationId, c.pid);
        }
        builder.addApiCall(c.pid, c.tid, c.start, c.end, c.name, rec);
    }

    // The launching process of each GPU operation: the only CPU process (the usual case), else
    // the process of the runtime call with the same correlation id, else the lowest CPU pid.
    std::unordered_map<std::uint32_t, std::uint32_t> pidByCorrelation;
    if (cpuPids.size() > 1) {
        pidByCorrelation.reserve(apiCorrelationPid.size());
        for (const auto& [corr, pid] : apiCorrelationPid)
            pidByCorrelation.emplace(corr, pid);
    }
    auto launchingPid = [&](const PendingGpuOp& op) {
        if (cpuPids.empty())
            return op.jsonPid;
        if (cpuPids.size() > 1 && op.correlation) {
            if (auto it = pidByCorrelation.find(*op.correlation); it != pidByCorrelation.end())
                return it->second;
        }
        return *cpuPids.begin();
    };
    std::vector<std::uint32_t> configInTrace(configs.size());
    for (std::size_t i = 0; i < configs.size(); ++i)
        configInTrace[i] = builder.kernelConfig(configs[i]);
    for (PendingGpuOp& op : gpuOps) {
        if (!op.correlation && flowsRead) {
            if (auto it = endFlow.find({flowKey(op.jsonPid, op.jsonTid), op.start});
                it != endFlow.end())
                op.correlation = std::uint32_t(it->second);
        }
        const std::uint32_t pid = launchingPid(op);
        switch (op.kind) {
        case GpuOpKind::Kernel:
            builder.addKernel(pid, op.device, op.context, op.stream, op.start, op.end,
                              configInTrace[op.index], op.correlation, std::nullopt);
            if (op.processGroup != kNoString || op.messageBytes)
                builder.setLastKernelCollective(op.processGroup, op.messageBytes);
            ++builder.counts().kernels;
            break;
        case GpuOpKind::Memcpy: {
            MemcpyRecord r = memcpys[op.index];
            r.correlationId = op.correlation;
            builder.addMemcpy(pid, op.device, op.context, op.stream, op.start, op.end, op.name, r);
            ++builder.counts().memcpys;
            break;
        }
        case GpuOpKind::Memset: {
            MemsetRecord r = memsets[op.index];
            r.correlationId = op.correlation;
            builder.addMemset(pid, op.device, op.context, op.stream, op.start, op.end, op.name, r);
            ++builder.counts().memsets;
            break;
        }
        case GpuOpKind::Sync: {
            if (!options.parts.testFlag(TracePart::Syncs))
                break; // checked and staged as the others, so that the warnings are the same
            SyncRecord r = syncs[op.index];
            r.correlationId = op.correlation;
            r.pid = pid;
            builder.addSync(r);
            ++builder.counts().syncs;
            break;
        }
        }
    }
    gpuOps = {};
    memcpys = {};
    memsets = {};
    syncs = {};
}

} // namespace strobe
