// SPDX-License-Identifier: MIT
#include "tests/formats/cache/traceequal.h"

#include "model/trace.h"

#include <gtest/gtest.h>

namespace strobe::test {

namespace {

void expectLanesEqual(const Lane& a, const Lane& b) {
    EXPECT_EQ(a.kind(), b.kind());
    EXPECT_EQ(a.owner(), b.owner());
    EXPECT_EQ(a.domain(), b.domain());
    ASSERT_EQ(a.size(), b.size());
    ASSERT_EQ(a.rowCount(), b.rowCount());
    EXPECT_EQ(a.overflowEvents(), b.overflowEvents());
    EXPECT_EQ(a.timeRange(), b.timeRange());
    EXPECT_EQ(a.hasCompactStarts(), b.hasCompactStarts());
    std::uint32_t mismatches = 0;
    for (std::uint32_t i = 0; i < a.size(); ++i) {
        mismatches += a.start(i) != b.start(i) || a.end(i) != b.end(i) ||
                      a.nameId(i) != b.nameId(i) || a.payload(i) != b.payload(i);
    }
    EXPECT_EQ(mismatches, 0u) << "events that differ";
    for (std::uint16_t r = 0; r < a.rowCount(); ++r) {
        const RowView ra = a.rowView(r), rb = b.rowView(r);
        ASSERT_EQ(ra.size(), rb.size());
        EXPECT_EQ(ra.mayOverlap(), rb.mayOverlap());
        std::uint32_t rowMismatches = 0;
        for (std::uint32_t k = 0; k < ra.size(); ++k)
            rowMismatches += ra.laneIndex(k) != rb.laneIndex(k);
        EXPECT_EQ(rowMismatches, 0u) << "row " << r;
    }
    // The interval index is rebuilt on reading: the same queries give the same answers.
    const TimeRange range = a.timeRange();
    for (int q = 0; q < 8 && !range.isEmpty(); ++q) {
        const TimeNs from = range.start + range.duration() / 8 * q;
        EXPECT_EQ(a.overlapping(from, from + range.duration() / 5 + 1),
                  b.overlapping(from, from + range.duration() / 5 + 1));
    }
}

} // namespace

void expectTracesEqual(const Trace& a, const Trace& b) {
    EXPECT_EQ(a.filePath(), b.filePath());
    const TraceMetadata &ma = a.metadata(), &mb = b.metadata();
    EXPECT_EQ(ma.format, mb.format);
    EXPECT_EQ(ma.productName, mb.productName);
    EXPECT_EQ(ma.nsysVersion, mb.nsysVersion);
    EXPECT_EQ(ma.schemaVersion, mb.schemaVersion);
    EXPECT_EQ(ma.sessionStartUtcNs, mb.sessionStartUtcNs);
    EXPECT_EQ(ma.commandLine, mb.commandLine);
    EXPECT_EQ(ma.rank, mb.rank);
    EXPECT_EQ(ma.worldSize, mb.worldSize);
    EXPECT_EQ(ma.distributedBackend, mb.distributedBackend);
    const TraceCounts &ca = a.counts(), &cb = b.counts();
    EXPECT_EQ(ca.kernels, cb.kernels);
    EXPECT_EQ(ca.memcpys, cb.memcpys);
    EXPECT_EQ(ca.memsets, cb.memsets);
    EXPECT_EQ(ca.cudaApiCalls, cb.cudaApiCalls);
    EXPECT_EQ(ca.nvtxRanges, cb.nvtxRanges);
    EXPECT_EQ(ca.nvtxMarks, cb.nvtxMarks);
    EXPECT_EQ(ca.osrtCalls, cb.osrtCalls);
    EXPECT_EQ(ca.syncs, cb.syncs);
    EXPECT_EQ(ca.cpuOps, cb.cpuOps);
    EXPECT_EQ(ca.pythonFunctions, cb.pythonFunctions);
    ASSERT_EQ(a.warnings().size(), b.warnings().size());
    for (std::size_t i = 0; i < a.warnings().size(); ++i) {
        EXPECT_EQ(a.warnings()[i].kind, b.warnings()[i].kind);
        EXPECT_EQ(a.warnings()[i].count, b.warnings()[i].count);
        EXPECT_EQ(a.warnings()[i].message, b.warnings()[i].message);
    }
    EXPECT_EQ(a.timeRange(), b.timeRange());
    ASSERT_EQ(a.strings().size(), b.strings().size());
    for (StringId id = 0; id < a.strings().size(); ++id)
        EXPECT_EQ(a.strings().view(id), b.strings().view(id));

    ASSERT_EQ(a.processes().size(), b.processes().size());
    for (std::size_t i = 0; i < a.processes().size(); ++i) {
        EXPECT_EQ(a.processes()[i].pid, b.processes()[i].pid);
        EXPECT_EQ(a.processes()[i].name, b.processes()[i].name);
    }
    ASSERT_EQ(a.threads().size(), b.threads().size());
    for (std::size_t i = 0; i < a.threads().size(); ++i) {
        const ThreadInfo &x = a.threads()[i], &y = b.threads()[i];
        EXPECT_EQ(std::tie(x.pid, x.tid, x.name, x.process),
                  std::tie(y.pid, y.tid, y.name, y.process));
    }
    ASSERT_EQ(a.gpus().size(), b.gpus().size());
    for (std::size_t i = 0; i < a.gpus().size(); ++i) {
        const GpuInfo &x = a.gpus()[i], &y = b.gpus()[i];
        EXPECT_EQ(std::tie(x.id, x.name, x.smCount, x.computeMajor, x.computeMinor,
                           x.maxThreadsPerBlock, x.maxRegistersPerBlock, x.maxRegistersPerSm,
                           x.maxShmemPerBlock, x.maxShmemPerBlockOptin, x.maxShmemPerSm,
                           x.threadsPerWarp, x.maxWarpsPerSm, x.maxBlocksPerSm, x.totalMemory,
                           x.memoryBandwidth, x.clockRate, x.busLocation, x.chipName),
                  std::tie(y.id, y.name, y.smCount, y.computeMajor, y.computeMinor,
                           y.maxThreadsPerBlock, y.maxRegistersPerBlock, y.maxRegistersPerSm,
                           y.maxShmemPerBlock, y.maxShmemPerBlockOptin, y.maxShmemPerSm,
                           y.threadsPerWarp, y.maxWarpsPerSm, y.maxBlocksPerSm, y.totalMemory,
                           y.memoryBandwidth, y.clockRate, y.busLocation, y.chipName));
    }
    ASSERT_EQ(a.streams().size(), b.streams().size());
    for (std::size_t i = 0; i < a.streams().size(); ++i) {
        const StreamInfo &x = a.streams()[i], &y = b.streams()[i];
        EXPECT_EQ(std::tie(x.deviceId, x.contextId, x.streamId, x.pid, x.priority, x.flag),
                  std::tie(y.deviceId, y.contextId, y.streamId, y.pid, y.priority, y.flag));
    }

    ASSERT_EQ(a.lanes().size(), b.lanes().size());
    for (std::uint32_t li = 0; li < a.lanes().size(); ++li) {
        SCOPED_TRACE(testing::Message() << "lane " << li);
        expectLanesEqual(a.lane(li), b.lane(li));
    }

    ASSERT_EQ(a.kernelCount(), b.kernelCount());
    for (std::size_t i = 0; i < a.kernelCount(); ++i) {
        const KernelRecord &x = a.kernels()[i], &y = b.kernels()[i];
        EXPECT_EQ(std::tie(x.self, x.config, x.stream, x.correlationId, x.graphNodeId, x.api,
                           x.processGroup, x.messageBytes),
                  std::tie(y.self, y.config, y.stream, y.correlationId, y.graphNodeId, y.api,
                           y.processGroup, y.messageBytes));
    }
    EXPECT_EQ(a.kernelConfigs(), b.kernelConfigs());
    ASSERT_EQ(a.memcpys().size(), b.memcpys().size());
    for (std::size_t i = 0; i < a.memcpys().size(); ++i) {
        const MemcpyRecord &x = a.memcpys()[i], &y = b.memcpys()[i];
        EXPECT_EQ(std::tie(x.self, x.stream, x.bytes, x.copyKind, x.srcKind, x.dstKind,
                           x.srcDeviceId, x.dstDeviceId, x.migrationCause, x.correlationId, x.api),
                  std::tie(y.self, y.stream, y.bytes, y.copyKind, y.srcKind, y.dstKind,
                           y.srcDeviceId, y.dstDeviceId, y.migrationCause, y.correlationId, y.api));
    }
    ASSERT_EQ(a.memsets().size(), b.memsets().size());
    for (std::size_t i = 0; i < a.memsets().size(); ++i) {
        const MemsetRecord &x = a.memsets()[i], &y = b.memsets()[i];
        EXPECT_EQ(std::tie(x.self, x.stream, x.bytes, x.value, x.memKind, x.correlationId, x.api),
                  std::tie(y.self, y.stream, y.bytes, y.value, y.memKind, y.correlationId, y.api));
    }
    ASSERT_EQ(a.apiCalls().size(), b.apiCalls().size());
    for (std::size_t i = 0; i < a.apiCalls().size(); ++i) {
        const ApiCallRecord &x = a.apiCalls()[i], &y = b.apiCalls()[i];
        EXPECT_EQ(std::tie(x.correlationId, x.eventClass, x.gpuOp, x.returnValue),
                  std::tie(y.correlationId, y.eventClass, y.gpuOp, y.returnValue));
    }
    ASSERT_EQ(a.osrtCalls().size(), b.osrtCalls().size());
    for (std::size_t i = 0; i < a.osrtCalls().size(); ++i) {
        EXPECT_EQ(a.osrtCalls()[i].returnValue, b.osrtCalls()[i].returnValue);
        EXPECT_EQ(a.osrtCalls()[i].nestingLevel, b.osrtCalls()[i].nestingLevel);
    }
    ASSERT_EQ(a.cpuOps().size(), b.cpuOps().size());
    for (std::size_t i = 0; i < a.cpuOps().size(); ++i) {
        const CpuOpRecord &x = a.cpuOps()[i], &y = b.cpuOps()[i];
        EXPECT_EQ(x.externalId, y.externalId);
        EXPECT_EQ(x.inputShapes, y.inputShapes);
        EXPECT_EQ(a.strings().view(x.inputShapes), b.strings().view(y.inputShapes));
    }
    ASSERT_EQ(a.nvtx().size(), b.nvtx().size());
    for (std::size_t i = 0; i < a.nvtx().size(); ++i) {
        const NvtxRecord &x = a.nvtx()[i], &y = b.nvtx()[i];
        EXPECT_EQ(std::tie(x.style, x.hasEnd, x.depth, x.color, x.category, x.thread, x.endThread),
                  std::tie(y.style, y.hasEnd, y.depth, y.color, y.category, y.thread, y.endThread));
    }
    ASSERT_EQ(a.syncs().size(), b.syncs().size());
    for (std::size_t i = 0; i < a.syncs().size(); ++i) {
        const SyncRecord &x = a.syncs()[i], &y = b.syncs()[i];
        EXPECT_EQ(std::tie(x.start, x.end, x.deviceId, x.contextId, x.streamId, x.syncType,
                           x.correlationId, x.pid, x.api),
                  std::tie(y.start, y.end, y.deviceId, y.contextId, y.streamId, y.syncType,
                           y.correlationId, y.pid, y.api));
    }
    ASSERT_EQ(a.gpuMemory().size(), b.gpuMemory().size());
    for (std::size_t i = 0; i < a.gpuMemory().size(); ++i) {
        const GpuMemoryTrack &x = a.gpuMemory()[i], &y = b.gpuMemory()[i];
        EXPECT_EQ(x.deviceId, y.deviceId);
        ASSERT_EQ(x.samples.size(), y.samples.size());
        for (std::size_t k = 0; k < x.samples.size(); ++k) {
            EXPECT_EQ(std::tie(x.samples[k].time, x.samples[k].allocated, x.samples[k].reserved),
                      std::tie(y.samples[k].time, y.samples[k].allocated, y.samples[k].reserved));
        }
    }
}

void exerciseTrace(const Trace& t) {
    std::uint64_t sink = 0;
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        sink += std::uint64_t(t.laneLabel(li).size());
        for (std::uint16_t r = 0; r < l.rowCount(); ++r) {
            const RowView row = l.rowView(r);
            for (std::uint32_t k = 0; k < row.size(); ++k)
                sink += std::uint64_t(row.end(k) - row.start(k));
            sink += row.firstEndingAfter(l.timeRange().start + 1);
        }
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            sink += t.strings().view(l.nameId(i)).size();
            const EventRef partner = t.partnerOf({li, i});
            if (partner.isValid())
                sink += t.lane(partner.lane).start(partner.index) != 0;
            if (auto k = t.kernelIndexOf({li, i}))
                sink += t.kernelAt(*k).config->grid[0] != 0;
        }
        sink += l.overlapping(l.timeRange().start, l.timeRange().end).size();
    }
    for (std::size_t i = 0; i < t.kernelCount(); ++i) {
        const KernelLaunch k = t.kernelAt(i);
        sink += t.strings().view(k.config->demangledName).size() + k.stream->streamId;
    }
    for (const NvtxRecord& n : t.nvtx())
        sink += t.threads()[n.thread].tid + (n.endThread ? t.threads()[*n.endThread].tid : 0);
    for (const ThreadInfo& th : t.threads())
        sink += t.processes()[th.process].pid;
    EXPECT_GE(sink, 0u); // keeps the reads
}

} // namespace strobe::test
