// SPDX-License-Identifier: MIT
// Writing what describes the target, at commit: processes, thread names, GPUs, streams, the
// per-context table, the session start, and the export and capture metadata.
#include "formats/nsys/writer/nsyswriterimpl.h"

#include <ctime>

#ifndef STROBE_VERSION
#define STROBE_VERSION "0"
#endif

namespace strobe::nsys {

using writer::Table;

std::string writer::utcString(std::int64_t epochNs) {
    const std::time_t secs = std::time_t(epochNs / 1000000000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

void Writer::Impl::writeSmallTables() {
    if (!processes.empty()) {
        using S = schema::Processes;
        Table t{S{}};
        if (!begin(t))
            return;
        for (const ProcessRow& p : processes) {
            t.i64(S::globalPid, globalPid(p.pid));
            t.i64(S::pid, p.pid);
            t.text(S::name, p.name);
            finish(t);
        }
    }
    if (!threads.empty()) {
        using S = schema::ThreadNames;
        Table t{S{}};
        if (!begin(t))
            return;
        for (const ThreadRow& th : threads) {
            t.i64(S::nameId, intern(th.name));
            t.i64(S::priority, 20); // the default nice-level priority nsys reports
            t.i64(S::globalTid, globalTid(th.pid, th.tid));
            finish(t);
        }
    }
    if (!gpus.empty()) {
        using S = schema::Gpu;
        Table t{S{}};
        if (!begin(t))
            return;
        for (const GpuRow& g : gpus) {
            t.i64(S::vmId, 0);
            t.i64(S::id, g.id);
            t.text(S::name, g.name);
            t.text(S::busLocation, g.busLocation);
            t.i64(S::isDiscrete, 1);
            t.i64(S::totalMemory, std::int64_t(g.totalMemory));
            t.i64(S::memoryBandwidth, std::int64_t(g.memoryBandwidth));
            t.i64(S::clockRate, std::int64_t(g.clockRate));
            t.i64(S::smCount, g.smCount);
            t.i64(S::pwGpuId, g.id);
            t.i64(S::luid, 0);
            t.i64(S::cuDevice, g.id);
            t.i64(S::nodeMask, 0);
            t.i64(S::constantMemory, 65536);
            t.i64(S::maxRegistersPerBlock, g.maxRegistersPerBlock);
            t.i64(S::maxShmemPerBlock, g.maxShmemPerBlock);
            t.i64(S::maxShmemPerBlockOptin, g.maxShmemPerBlockOptin);
            t.i64(S::maxShmemPerSm, g.maxShmemPerSm);
            t.i64(S::maxRegistersPerSm, g.maxRegistersPerSm);
            t.i64(S::threadsPerWarp, g.threadsPerWarp);
            t.i64(S::maxWarpsPerSm, g.maxWarpsPerSm);
            t.i64(S::maxBlocksPerSm, g.maxBlocksPerSm);
            t.i64(S::maxThreadsPerBlock, g.maxThreadsPerBlock);
            t.i64(S::maxBlockDimX, 1024);
            t.i64(S::maxBlockDimY, 1024);
            t.i64(S::maxBlockDimZ, 64);
            t.i64(S::maxGridDimX, 2147483647);
            t.i64(S::maxGridDimY, 65535);
            t.i64(S::maxGridDimZ, 65535);
            t.i64(S::computeMajor, g.computeMajor);
            t.i64(S::computeMinor, g.computeMinor);
            t.i64(S::smMajor, g.computeMajor);
            t.i64(S::smMinor, g.computeMinor);
            finish(t);
        }
    }
    if (!streams.empty()) {
        using S = schema::Stream;
        Table t{S{}};
        if (!begin(t))
            return;
        for (const StreamRow& s : streams) {
            t.i64(S::streamId, s.streamId);
            t.i64(S::hwId, 0);
            t.i64(S::vmId, 0);
            t.i64(S::processId, s.pid);
            t.i64(S::contextId, s.contextId);
            t.i64(S::priority, std::int64_t(std::uint32_t(s.priority))); // nsys stores it unsigned
            t.i64(S::flag, s.flag);
            finish(t);
            noteContext(s.pid, s.contextId, ~0u);
        }
    }
    writeContexts();
    if (meta.sessionStartUtcNs) {
        using S = schema::SessionStart;
        Table t{S{}};
        if (!begin(t))
            return;
        const std::string utc = writer::utcString(*meta.sessionStartUtcNs);
        t.i64(S::utcEpochNs, *meta.sessionStartUtcNs);
        t.text(S::utcTime, utc);
        t.text(S::localTime, utc);
        finish(t);
    }
}

void Writer::Impl::writeContexts() {
    // One row per context. The null stream is the one flagged as such, else the legacy
    // default stream id 7 that CUDA assigns.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> nullStreams;
    for (const StreamRow& s : streams)
        if (s.flag == 3)
            nullStreams.try_emplace({s.pid, s.contextId}, s.streamId);
    bool any = false;
    for (const auto& [key, device] : contexts)
        any = any || device != ~0u;
    if (!any)
        return;
    // 2.x's null-stream table and 3.x's context table share their leading columns, in order.
    using N = schema::NullStream;
    using C = schema::ContextInfo;
    static_assert(int(N::streamId) == int(C::nullStreamId) && int(N::hwId) == int(C::hwId) &&
                  int(N::vmId) == int(C::vmId) && int(N::processId) == int(C::processId) &&
                  int(N::deviceId) == int(C::deviceId) && int(N::contextId) == int(C::contextId));
    const bool v29 = flavor == SchemaFlavor::V2_9;
    Table t(v29 ? N::table : C::table, v29 ? std::span<const schema::Column>(N::columns)
                                           : std::span<const schema::Column>(C::columns));
    if (!begin(t))
        return;
    for (const auto& [key, device] : contexts) {
        if (device == ~0u)
            continue; // a stream with no GPU activity: its device is unknown
        const auto ns = nullStreams.find(key);
        t.i64(C::nullStreamId, ns != nullStreams.end() ? ns->second : 7);
        t.i64(C::hwId, 0);
        t.i64(C::vmId, 0);
        t.i64(C::processId, key.first);
        t.i64(C::deviceId, device);
        t.i64(C::contextId, key.second);
        finish(t);
    }
}

void Writer::Impl::writeMetadata() {
    namespace key = schema::metakey;
    const bool v29 = flavor == SchemaFlavor::V2_9;
    const char* version = v29 ? "2.9.1" : flavor == SchemaFlavor::V3_13 ? "3.13.2" : "3.25.0";
    const std::string productVersion =
        meta.productVersion.empty() ? std::string(STROBE_VERSION) : meta.productVersion;
    std::vector<std::pair<std::string, std::string>> rows = {
        {std::string(key::kProductName), meta.productName},
        {std::string(key::kProductVersion), productVersion},
        {std::string(key::kSchemaVersion), version},
    };
    {
        std::string v = version;
        const auto dot1 = v.find('.'), dot2 = v.rfind('.');
        rows.emplace_back(key::kSchemaVersionMajor, v.substr(0, dot1));
        rows.emplace_back(key::kSchemaVersionMinor, v.substr(dot1 + 1, dot2 - dot1 - 1));
        rows.emplace_back(key::kSchemaVersionMicro, v.substr(dot2 + 1));
    }
    rows.emplace_back(v29 ? key::kLazyV2_9 : key::kLazy, "true");

    using E = schema::ExportMeta;
    Table exportTable(v29 ? E::tableV2_9 : E::table, E::columns);
    if (!begin(exportTable))
        return;
    for (const auto& [name, value] : rows) {
        exportTable.text(E::name, name);
        exportTable.text(E::value, value);
        finish(exportTable);
    }
    if (v29)
        return; // 2.x exports have no capture table
    using C = schema::CaptureMeta;
    Table capture{C{}};
    if (!begin(capture))
        return;
    std::vector<std::pair<std::string, std::string>> caps;
    for (std::size_t i = 0; i < meta.command.size(); ++i)
        caps.emplace_back(i == 0 ? std::string(key::kCommand)
                                 : std::string(key::kArgumentPrefix) + std::to_string(i - 1),
                          meta.command[i]);
    caps.insert(caps.end(), meta.captureInfo.begin(), meta.captureInfo.end());
    for (const auto& [name, value] : caps) {
        capture.text(C::name, name);
        capture.text(C::value, value);
        finish(capture);
    }
}

} // namespace strobe::nsys
