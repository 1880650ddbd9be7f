// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <cstdint>
#include <memory>

namespace strobe {

class CacheReader;
class CacheWriter;
class Lane;
class Trace;

// Serialises a frozen Trace member by member (the reopen cache's payload) and reads it back.
// A friend of Trace, Lane and StringTable: when their private storage changes, adapt the
// per-member lists in tracecodec.cpp, the checks in tracevalidate.cpp, and bump
// kLayoutVersion.
class TraceCodec {
public:
    // Bump whenever what write() stores changes in a way sizeof does not show.
    static constexpr std::uint32_t kLayoutVersion = 1;
    // Tells builds apart whose stored types differ: kLayoutVersion and the size of every type
    // written as raw bytes.
    static std::uint64_t layoutFingerprint();

    static void write(const Trace& trace, CacheWriter& out);
    // The trace `out` wrote, or null when the bytes end early or hold an impossible count; the
    // caller checks the checksum, then validate(). `filePath` becomes Trace::filePath().
    static std::unique_ptr<Trace> read(CacheReader& in, const QString& filePath);
    // Empty when every cross-reference of `trace` is in range (lane, record, string, config,
    // stream, thread and process indices, event refs, row lists, sorted starts, enum values),
    // so that no later code can index out of bounds; else what is wrong, for the log.
    static QString validate(const Trace& trace);
    // Builds the lanes' interval indexes, which are not stored; only after validate() passed.
    static void buildIndexes(Trace& trace);

private:
    static void writeLane(const Lane& lane, CacheWriter& out);
    static bool readLane(CacheReader& in, Lane& lane);
    static QString validateLane(const Trace& trace, std::uint32_t li);
};

} // namespace strobe
