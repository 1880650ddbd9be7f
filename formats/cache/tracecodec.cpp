// SPDX-License-Identifier: MIT
#include "formats/cache/tracecodec.h"

#include "formats/cache/cachestream.h"
#include "model/trace.h"

#include <algorithm>
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
    out.writePod(std::uint32_t(m.loadedParts.toInt()));
    out.writePod(m.gpuSampleStride);
}

bool readBool(CacheReader& in, bool& b) {
    std::uint8_t v = 0;
    if (!in.readPod(v) || v > 1)
        return in.fail();
    b = v != 0;
    return true;
}

bool readParts(CacheReader& in, TraceMetadata& m) {
    std::uint32_t parts = 0;
    if (!in.readPod(parts) || (parts & ~std::uint32_t(kAllTraceParts.toInt())) != 0)
        return in.fail();
    m.loadedParts = TraceParts::fromInt(int(parts));
    return true;
}

// A power of two (1: not a sample).
bool readStride(CacheReader& in, std::uint32_t& stride) {
    if (!in.readPod(stride) || stride == 0 || (stride & (stride - 1)) != 0)
        return in.fail();
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
           in.readPod(m.worldSize) && in.readQString(m.distributedBackend) && readParts(in, m) &&
           readStride(in, m.gpuSampleStride);
}

} // namespace

template <typename T> void TraceCodec::writeSparse(const SparseColumn<T>& c, CacheWriter& out) {
    out.writeVector(c.m_index);
    out.writeVector(c.m_value);
}

template <typename T> bool TraceCodec::readSparse(CacheReader& in, SparseColumn<T>& c) {
    return in.readVector(c.m_index) && in.readVector(c.m_value);
}

std::uint64_t TraceCodec::layoutFingerprint() {
    std::uint64_t h = 14695981039346656037ull; // FNV-1a over the sizes
    for (std::size_t v : {std::size_t(kLayoutVersion),
                          sizeof(TraceCounts),
                          sizeof(TimeRange),
                          sizeof(ProcessInfo),
                          sizeof(ThreadInfo),
                          sizeof(GpuInfo),
                          sizeof(StreamInfo),
                          sizeof(Trace::KernelSlot),
                          sizeof(KernelConfig),
                          sizeof(MemcpyRecord),
                          sizeof(MemsetRecord),
                          sizeof(Trace::ApiSlot),
                          sizeof(OsrtRecord),
                          kLaneFamilies,
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
    out.writePod(l.m_size);
    out.writeVector(l.m_name);
    out.writeVector(l.m_nameIndex);
    out.writeVector(l.m_nameDict);
    out.writeVector(l.m_payload);
    out.writePod(l.m_recordBase);
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
    // 16 bytes in memory for 12 stored: sized at once (at most 4/3 of what is left).
    const std::uint64_t longEnds = in.readCount(sizeof(std::uint32_t) + sizeof(TimeNs));
    l.m_longEnds.resize(longEnds);
    for (auto& [index, end] : l.m_longEnds) {
        in.readPod(index);
        in.readPod(end);
    }
    in.readPod(l.m_size);
    in.readVector(l.m_name);
    in.readVector(l.m_nameIndex);
    in.readVector(l.m_nameDict);
    in.readVector(l.m_payload);
    in.readPod(l.m_recordBase);
    const std::uint64_t rows = in.readCount(sizeof(std::uint64_t));
    for (std::uint64_t i = 0; i < rows && in.ok(); ++i)
        in.readVector(l.m_rowIdx.emplace_back());
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
        for (const auto& lanes : t.m_familyLanes)
            out.writeVector(lanes);
        out.writeVector(t.m_kernels);
        writeSparse(t.m_kernelCorrelation, out);
        writeSparse(t.m_kernelGraphNode, out);
        writeSparse(t.m_kernelProcessGroup, out);
        writeSparse(t.m_kernelMessageBytes, out);
        out.writeVector(t.m_kernelConfigs);
        out.writeVector(t.m_memcpys);
        out.writeVector(t.m_memsets);
    } else {
        out.writeVector(t.m_apiCalls);
        out.writeVector(t.m_apiDriver.m_words);
        writeSparse(t.m_apiReturn, out);
        out.writeVector(t.m_osrt);
        out.writeVector(t.m_cpuOpExternal);
        out.writeVector(t.m_cpuOpHasExternal.m_words);
        writeSparse(t.m_cpuOpShapes, out);
        out.writeVector(t.m_nvtx);
        writeSparse(t.m_nvtxColor, out);
        writeSparse(t.m_nvtxCategory, out);
        writeSparse(t.m_nvtxThread, out);
        writeSparse(t.m_nvtxEndThread, out);
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

// Counts are bounded by the bytes left (CacheReader::readCount), but an element in memory can be
// bigger than its least stored size (a Lane, a warning's two strings, a row list): those grow
// one element read at a time, so that a forged count allocates no more than the entry holds.
bool TraceCodec::read(CacheReader& in, int part, Trace& t, std::vector<Lane>& lanes) {
    if (part == 0) {
        readMeta(in, t.m_meta);
        in.readPod(t.m_counts);
        const std::uint64_t warnings = in.readCount(3 * sizeof(std::uint64_t));
        for (std::uint64_t i = 0; i < warnings && in.ok(); ++i) {
            TraceWarning& w = t.m_warnings.emplace_back();
            in.readQString(w.kind) && in.readPod(w.count) && in.readQString(w.message);
        }
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
        for (auto& lanes : t.m_familyLanes)
            in.readVector(lanes);
        in.readVector(t.m_kernels);
        readSparse(in, t.m_kernelCorrelation);
        readSparse(in, t.m_kernelGraphNode);
        readSparse(in, t.m_kernelProcessGroup);
        readSparse(in, t.m_kernelMessageBytes);
        in.readVector(t.m_kernelConfigs);
        in.readVector(t.m_memcpys);
        in.readVector(t.m_memsets);
    } else {
        in.readVector(t.m_apiCalls);
        in.readVector(t.m_apiDriver.m_words);
        readSparse(in, t.m_apiReturn);
        in.readVector(t.m_osrt);
        in.readVector(t.m_cpuOpExternal);
        in.readVector(t.m_cpuOpHasExternal.m_words);
        readSparse(in, t.m_cpuOpShapes);
        in.readVector(t.m_nvtx);
        readSparse(in, t.m_nvtxColor);
        readSparse(in, t.m_nvtxCategory);
        readSparse(in, t.m_nvtxThread);
        readSparse(in, t.m_nvtxEndThread);
        in.readVector(t.m_syncs);
        const std::uint64_t tracks = in.readCount(sizeof(std::uint32_t) + sizeof(std::uint64_t));
        for (std::uint64_t i = 0; i < tracks && in.ok(); ++i) {
            GpuMemoryTrack& track = t.m_gpuMemory.emplace_back();
            in.readPod(track.deviceId) && in.readVector(track.samples);
        }
    }
    const std::uint64_t n = in.readCount(64); // a lane takes more than 64 bytes
    lanes.reserve(std::min<std::uint64_t>(n, 1024));
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
