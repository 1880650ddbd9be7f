// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

namespace strobe {

class CacheReader;
class CacheWriter;
class Lane;
class Trace;
template <typename T> class SparseColumn;

// Serialises a frozen Trace member by member (the reopen cache's payload) and reads it back.
// A friend of Trace, Lane and StringTable: when their private storage changes, adapt the
// per-member lists in tracecodec.cpp, the checks in tracevalidate.cpp, and bump
// kLayoutVersion.
class TraceCodec {
public:
    // Bump whenever what write() stores changes in a way sizeof does not show.
    // 3: the operators' input shapes (Trace::m_cpuOpShapes).
    // 4: collectives' process groups and message bytes (Trace::m_kernelProcessGroup, ...Bytes).
    // 5: TraceMetadata::gpuSampleStride (the stride of the reopen cache's sampled preview).
    static constexpr std::uint32_t kLayoutVersion = 5;
    // Tells builds apart whose stored types differ: kLayoutVersion and the size of every type
    // written as raw bytes.
    static std::uint64_t layoutFingerprint();

    // The payload is two parts that can be read in parallel (page faults of the new arrays,
    // reading and checksums on two cores): part 0 holds the metadata, strings, processes,
    // threads, GPUs, streams, GPU records and lanes [0, split); part 1 the CPU records and
    // lanes [split, end). splitLane balances their sizes.
    static std::uint32_t splitLane(const Trace& trace);
    static void write(const Trace& trace, int part, std::uint32_t split, CacheWriter& out);
    // Reads one part into `trace` (the parts fill disjoint members, so both may run at once)
    // and its lanes into `lanes`; false when the bytes end early or hold an impossible count.
    // The caller checks the checksums, calls setLanes, then validate().
    static bool read(CacheReader& in, int part, Trace& trace, std::vector<Lane>& lanes);
    static std::unique_ptr<Trace> makeTrace(const QString& filePath);
    static void setLanes(Trace& trace, std::vector<Lane> part0, std::vector<Lane> part1);
    // Empty when every cross-reference of `trace` is in range (lane, record, string, config,
    // stream, thread and process indices, event refs, row lists, sorted starts, enum values),
    // so that no later code can index out of bounds; else what is wrong, for the log. Checks
    // the lanes on two threads.
    static QString validate(const Trace& trace);
    // Builds the lanes' interval indexes (not stored), on two threads; only after validate().
    static void buildIndexes(Trace& trace);

private:
    static void writeFixed(const Trace& trace, int part, CacheWriter& out);
    static void writeLane(const Lane& lane, CacheWriter& out);
    template <typename T> static void writeSparse(const SparseColumn<T>& c, CacheWriter& out);
    template <typename T> static bool readSparse(CacheReader& in, SparseColumn<T>& c);
    static bool readLane(CacheReader& in, Lane& lane);
    static QString validateLane(const Trace& trace, std::uint32_t li);
    static QString validateLanes(const Trace& trace, std::uint32_t from, std::uint32_t to);
};

} // namespace strobe
