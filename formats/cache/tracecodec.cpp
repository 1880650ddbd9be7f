// SPDX-License-Identifier: MIT
#include "formats/cache/tracecodec.h"

#include "formats/cache/cachestream.h"
#include "model/trace.h"

#include <initializer_list>

namespace strobe {

namespace {

void writeMeta(const TraceMetadata& m, CacheWriter& out) {
    auto optionalString = [&](const std::optional<QString>& s) {
        out.writePod(s.has_value());
        if (s)
            out.writeQString(*s);
    };
    out.writeQString(m.format);
    out.writeQString(m.productName);
    optionalString(m.nsysVersion);
    optionalString(m.schemaVersion);
    out.writePod(m.sessionStartUtcNs);
    out.writeQString(m.commandLine);
    out.writePod(m.rank);
    out.writePod(m.worldSize);
    out.writeQString(m.distributedBackend);
}

bool readBool(CacheReader& in, bool& b) {
    std::uint8_t v = 0;
    if (!in.readPod(v) || v > 1)
        return in.fail();
    b = v != 0;
    return true;
}

bool readMeta(CacheReader& in, TraceMetadata& m) {
    auto optionalString = [&](std::optional<QString>& s) {
        bool has = false;
        if (!readBool(in, has))
            return false;
        if (has)
            return in.readQString(s.emplace());
        return true;
    };
    return in.readQString(m.format) && in.readQString(m.productName) &&
           optionalString(m.nsysVersion) && optionalString(m.schemaVersion) &&
           in.readPod(m.sessionStartUtcNs) && in.readQString(m.commandLine) && in.readPod(m.rank) &&
           in.readPod(m.worldSize) && in.readQString(m.distributedBackend);
}

} // namespace

std::uint64_t TraceCodec::layoutFingerprint() {
    std::uint64_t h = 14695981039346656037ull; // FNV-1a over the sizes
    for (std::size_t v : {std::size_t(kLayoutVersion),
                          sizeof(TraceCounts),
                          sizeof(TimeRange),
                          sizeof(ProcessInfo),
                          sizeof(ThreadInfo),
                          sizeof(GpuInfo),
                          sizeof(StreamInfo),
                          sizeof(KernelRecord),
                          sizeof(KernelConfig),
                          sizeof(MemcpyRecord),
                          sizeof(MemsetRecord),
                          sizeof(ApiCallRecord),
                          sizeof(OsrtRecord),
                          sizeof(CpuOpRecord),
                          sizeof(NvtxRecord),
                          sizeof(SyncRecord),
                          sizeof(GpuMemorySample),
                          sizeof(EventRef),
                          sizeof(TimeNs),
                          sizeof(StringId),
                          sizeof(QChar),
                          std::size_t(Lane::kStartBlock),
                          sizeof(std::optional<std::uint32_t>)}) {
        h = (h ^ v) * 1099511628211ull;
    }
    return h;
}

void TraceCodec::writeLane(const Lane& l, CacheWriter& out) {
    out.writePod(l.m_kind);
    out.writePod(l.m_owner);
    out.writePod(l.m_domain);
    out.writePod(l.m_rowCount);
    out.writePod(l.m_overflowEvents);
    out.writePod(l.m_range);
    out.writeVector(l.m_wideStart);
    out.writeVector(l.m_startBase);
    out.writeVector(l.m_startOffset);
    out.writeVector(l.m_duration);
    out.writePod(std::uint64_t(l.m_longEnds.size()));
    for (const auto& [index, end] : l.m_longEnds) {
        out.writePod(index);
        out.writePod(end);
    }
    out.writeVector(l.m_name);
    out.writeVector(l.m_payload);
    out.writePod(std::uint64_t(l.m_rowIdx.size()));
    for (const auto& row : l.m_rowIdx)
        out.writeVector(row);
    out.writeVector(l.m_lastRowMaxEnd);
}

bool TraceCodec::readLane(CacheReader& in, Lane& l) {
    in.readPod(l.m_kind);
    in.readPod(l.m_owner);
    in.readPod(l.m_domain);
    in.readPod(l.m_rowCount);
    in.readPod(l.m_overflowEvents);
    in.readPod(l.m_range);
    in.readVector(l.m_wideStart);
    in.readVector(l.m_startBase);
    in.readVector(l.m_startOffset);
    in.readVector(l.m_duration);
    const std::uint64_t longEnds = in.readCount(sizeof(std::uint32_t) + sizeof(TimeNs));
    l.m_longEnds.resize(longEnds);
    for (auto& [index, end] : l.m_longEnds) {
        in.readPod(index);
        in.readPod(end);
    }
    in.readVector(l.m_name);
    in.readVector(l.m_payload);
    l.m_rowIdx.resize(in.readCount(sizeof(std::uint64_t)));
    for (auto& row : l.m_rowIdx)
        in.readVector(row);
    in.readVector(l.m_lastRowMaxEnd);
    l.m_frozen = true;
    return in.ok();
}

std::uint32_t TraceCodec::splitLane(const Trace& t) {
    // Bytes each part holds besides its lanes, then lanes moved from part 1 to part 0 while
    // part 0 is the smaller.
    CacheWriter p0(nullptr), p1(nullptr);
    writeFixed(t, 0, p0);
    writeFixed(t, 1, p1);
    std::vector<std::uint64_t> laneBytes;
    std::uint64_t lanes1 = 0;
    for (const Lane& l : t.m_lanes) {
        CacheWriter c(nullptr);
        writeLane(l, c);
        laneBytes.push_back(c.bytesWritten());
        lanes1 += c.bytesWritten();
    }
    std::uint64_t b0 = p0.bytesWritten(), b1 = p1.bytesWritten() + lanes1;
    std::uint32_t k = 0;
    while (k < laneBytes.size() && b0 + laneBytes[k] / 2 < b1 - laneBytes[k] / 2) {
        b0 += laneBytes[k];
        b1 -= laneBytes[k];
        ++k;
    }
    return k;
}

void TraceCodec::writeFixed(const Trace& t, int part, CacheWriter& out) {
    if (part == 0) {
        writeMeta(t.m_meta, out);
        out.writePod(t.m_counts);
        out.writePod(std::uint64_t(t.m_warnings.size()));
        for (const TraceWarning& w : t.m_warnings) {
            out.writeQString(w.kind);
            out.writePod(w.count);
            out.writeQString(w.message);
        }
        out.writePod(t.m_range);
        out.writePod(std::uint64_t(t.m_strings.m_strings.size()));
        for (const std::string& s : t.m_strings.m_strings)
            out.writeString(s);
        out.writeVector(t.m_processes);
        out.writeVector(t.m_threads);
        out.writeVector(t.m_gpus);
        out.writeVector(t.m_streams);
        out.writeVector(t.m_kernels);
        out.writeVector(t.m_kernelConfigs);
        out.writeVector(t.m_memcpys);
        out.writeVector(t.m_memsets);
    } else {
        out.writeVector(t.m_apiCalls);
        out.writeVector(t.m_osrt);
        out.writeVector(t.m_cpuOps);
        out.writeVector(t.m_nvtx);
        out.writeVector(t.m_syncs);
        out.writePod(std::uint64_t(t.m_gpuMemory.size()));
        for (const GpuMemoryTrack& track : t.m_gpuMemory) {
            out.writePod(track.deviceId);
            out.writeVector(track.samples);
        }
    }
}

void TraceCodec::write(const Trace& t, int part, std::uint32_t split, CacheWriter& out) {
    writeFixed(t, part, out);
    const std::uint32_t first = part == 0 ? 0 : split;
    const auto last = part == 0 ? split : std::uint32_t(t.m_lanes.size());
    out.writePod(std::uint64_t(last - first));
    for (std::uint32_t i = first; i < last; ++i)
        writeLane(t.m_lanes[i], out);
}

bool TraceCodec::read(CacheReader& in, int part, Trace& t, std::vector<Lane>& lanes) {
    if (part == 0) {
        readMeta(in, t.m_meta);
        in.readPod(t.m_counts);
        t.m_warnings.resize(in.readCount(3 * sizeof(std::uint64_t)));
        for (TraceWarning& w : t.m_warnings)
            in.readQString(w.kind) && in.readPod(w.count) && in.readQString(w.message);
        in.readPod(t.m_range);
        // Interning in order gives every string its old id; a repeated string would not, and
        // fails by the size it leaves.
        const std::uint64_t strings = in.readCount(sizeof(std::uint64_t));
        if (strings == 0)
            in.fail();
        std::string s;
        for (std::uint64_t i = 0; i < strings && in.readString(s); ++i) {
            if (i > 0)
                t.m_strings.intern(s);
            else if (!s.empty())
                in.fail();
        }
        if (in.ok() && t.m_strings.size() != strings)
            in.fail();
        in.readVector(t.m_processes);
        in.readVector(t.m_threads);
        in.readVector(t.m_gpus);
        in.readVector(t.m_streams);
        in.readVector(t.m_kernels);
        in.readVector(t.m_kernelConfigs);
        in.readVector(t.m_memcpys);
        in.readVector(t.m_memsets);
    } else {
        in.readVector(t.m_apiCalls);
        in.readVector(t.m_osrt);
        in.readVector(t.m_cpuOps);
        in.readVector(t.m_nvtx);
        in.readVector(t.m_syncs);
        t.m_gpuMemory.resize(in.readCount(sizeof(std::uint32_t) + sizeof(std::uint64_t)));
        for (GpuMemoryTrack& track : t.m_gpuMemory)
            in.readPod(track.deviceId) && in.readVector(track.samples);
    }
    const std::uint64_t n = in.readCount(64); // a lane takes more than 64 bytes
    lanes.reserve(n);
    for (std::uint64_t i = 0; i < n && in.ok(); ++i)
        readLane(in, lanes.emplace_back(LaneKind::CudaApi, 0));
    return in.ok();
}

std::unique_ptr<Trace> TraceCodec::makeTrace(const QString& filePath) {
    auto t = std::make_unique<Trace>();
    t->m_filePath = filePath;
    return t;
}

void TraceCodec::setLanes(Trace& t, std::vector<Lane> first, std::vector<Lane> second) {
    t.m_lanes = std::move(first);
    t.m_lanes.reserve(t.m_lanes.size() + second.size());
    for (Lane& l : second)
        t.m_lanes.push_back(std::move(l));
}

} // namespace strobe
