// SPDX-License-Identifier: MIT
#pragma once

// Internals of KinetoJsonLoader shared by its source files (kinetoreader.cpp: the document and
// its metadata; kinetoevents.cpp: one event at a time; kinetogpu.cpp: the GPU side, added once
// every process is known).

#include "formats/kineto/kinetoinput.h"
#include "formats/kineto/kinetoreader.h"
#include "model/tracebuilder.h"

#include <QFileInfo>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <simdjson.h>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strobe {

namespace kineto {

namespace od = simdjson::ondemand;

// A pid, tid or flow id: JSON numbers, or strings ("25738", "stream 7", "Spans").
struct JsonId {
    bool present = false;
    std::optional<std::int64_t> number; // set when the value is an integer or a string of digits
    std::string_view text;              // the string, when it was one
};

// The `args` members the mapping uses; everything else is skipped unread.
struct EventArgs {
    std::optional<std::int64_t> device, stream, context, correlation, externalId;
    std::optional<std::int64_t> registers, sharedMemory, bytes;
    std::optional<std::array<std::int32_t, 3>> grid, block;
    std::optional<float> blocksPerSm, warpsPerSm, occupancyPercent;
    std::string_view name;     // metadata events: args.name
    std::string_view syncKind; // cuda_sync: args.cuda_sync_kind
};

// One event's members as read, before interpretation.
struct RawEvent {
    std::string_view ph, cat, name, scope, bp;
    std::string_view ts, dur; // number text
    bool tsWrongType = false, durWrongType = false;
    JsonId pid, tid, id;
    EventArgs args;
};

enum class GpuOpKind : std::uint8_t { Kernel, Memcpy, Memset, Sync };

// A GPU operation read but not yet added: its process (the one that launched it) is known only
// once every CPU event has been seen.
struct PendingGpuOp {
    TimeNs start = 0, end = 0;
    StringId name = kNoString;
    std::uint32_t device = 0, context = 0, stream = 0;
    std::uint32_t jsonPid = 0, jsonTid = 0;
    std::optional<std::uint32_t> correlation;
    GpuOpKind kind = GpuOpKind::Kernel;
    std::uint32_t index = 0; // into configs, memcpys, memsets or syncs
};

// A runtime call without args.correlation, resolved through its ac2g flow later.
struct PendingApiCall {
    std::uint32_t pid = 0, tid = 0;
    TimeNs start = 0, end = 0;
    StringId name = kNoString;
    std::uint8_t eventClass = 0;
};

struct FlowPoint {
    std::uint64_t id = 0;
    std::uint32_t pid = 0, tid = 0;
    TimeNs ts = 0;
};

// The value of an on-demand result; parse errors become simdjson_error, caught at the top.
template <typename T> T take(simdjson::simdjson_result<T>&& r) {
    T v;
    if (const auto err = std::move(r).get(v))
        throw simdjson::simdjson_error(err);
    return v;
}

struct LoadFailure {
    QString message;
};
struct Cancelled {};

} // namespace kineto

struct KinetoJsonLoader::Impl {
    Impl(const QString& p, const LoadOptions& o)
        : path(p)
        , options(o)
        , builder(p) {}

    QString path;
    LoadOptions options;
    TraceBuilder builder;
    kineto::JsonText text;

    // Warnings, counted while reading.
    std::uint64_t malformed = 0, negativeDurations = 0, longNames = 0, missingDurations = 0;
    std::map<std::string, std::uint64_t> skippedCategories; // category or phase -> count
    std::uint64_t gpuUserAnnotations = 0;

    std::set<std::uint32_t> cpuPids;
    std::optional<std::uint32_t> lastCpuPid; // spares the set lookup for the usual single pid
    std::vector<std::pair<std::uint32_t, std::uint32_t>> apiCorrelationPid; // (correlation, pid)
    std::vector<kineto::PendingGpuOp> gpuOps;
    std::vector<KernelConfig> configs;
    std::unordered_map<KernelConfig, std::uint32_t, KernelConfigHash> configIndex;
    std::unordered_map<StringId, StringId> shortNames; // demangled -> derived short name
    std::vector<MemcpyRecord> memcpys;
    std::vector<MemsetRecord> memsets;
    std::vector<SyncRecord> syncs;
    std::vector<kineto::PendingApiCall> uncorrelatedApiCalls;
    std::vector<kineto::FlowPoint> flowStarts, flowEnds;
    std::uint64_t eventsRead = 0;

    QString fileName() const { return QFileInfo(path).fileName(); }
    [[noreturn]] void fail(const QString& problem) const;
    void checkCancel() const;
    void report(int perMille) const {
        if (options.progress)
            options.progress(perMille);
    }

    void readDocument(kineto::od::document& doc);                // kinetoreader.cpp
    void readDeviceProperties(kineto::od::value v);              // kinetoreader.cpp
    void readDistributedInfo(kineto::od::value v);               // kinetoreader.cpp
    void readEvents(kineto::od::array events);                   // kinetoevents.cpp
    void readEvent(kineto::od::object obj, kineto::RawEvent& e); // kinetoevents.cpp
    void handleEvent(const kineto::RawEvent& e);                 // kinetoevents.cpp
    void handleComplete(const kineto::RawEvent& e);              // kinetoevents.cpp
    void handleInstant(const kineto::RawEvent& e);               // kinetoevents.cpp
    void handleMetadata(const kineto::RawEvent& e);              // kinetoevents.cpp
    void handleFlow(const kineto::RawEvent& e);                  // kinetoevents.cpp
    void stageGpuOp(const kineto::RawEvent& e, kineto::GpuOpKind kind, TimeNs start,
                    TimeNs end);             // kinetogpu.cpp
    void addStagedEvents();                  // kinetogpu.cpp
    StringId internName(std::string_view s); // kinetoevents.cpp
    void addWarnings();                      // kinetoreader.cpp
};

} // namespace strobe
