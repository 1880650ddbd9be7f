// SPDX-License-Identifier: MIT
// Writing the GPU side: kernels, memcpys, memsets, synchronisation.
#include "formats/nsys/writer/nsyswriterimpl.h"

namespace strobe::nsys {

using writer::Table;

// By Kernel's ids: the schema checks that memcpy, memset and sync share them.
template <typename Row> void Writer::Impl::writeActivityHead(Table& t, const Row& r) {
    using K = schema::Kernel;
    noteContext(r.pid, r.contextId, r.deviceId);
    t.i64(K::start, r.start);
    t.i64(K::end, r.end);
    t.i64(K::deviceId, r.deviceId);
    t.i64(K::contextId, r.contextId);
    t.i64(K::streamId, r.streamId);
    t.opt(K::correlationId, r.correlationId);
    t.i64(K::globalPid, globalPid(r.pid));
}

void Writer::addKernel(const KernelRow& r) {
    using S = schema::Kernel;
    Table& t = d->kernels;
    if (!d->begin(t))
        return;
    const std::int64_t shortId = d->intern(r.shortName);
    const std::int64_t demangledId = r.demangledName.empty() ? shortId : d->intern(r.demangledName);
    const std::int64_t mangledId = r.mangledName.empty() ? shortId : d->intern(r.mangledName);
    d->writeActivityHead(t, r);
    t.i64(S::greenContextId, 0);
    t.i64(S::demangledName, demangledId);
    t.i64(S::shortName, shortId);
    t.i64(S::mangledName, mangledId);
    t.i64(S::launchType, r.launchType);
    t.i64(S::cacheConfig, r.cacheConfig);
    t.i64(S::registersPerThread, r.registersPerThread);
    t.i64(S::gridX, r.grid[0]);
    t.i64(S::gridY, r.grid[1]);
    t.i64(S::gridZ, r.grid[2]);
    t.i64(S::blockX, r.block[0]);
    t.i64(S::blockY, r.block[1]);
    t.i64(S::blockZ, r.block[2]);
    t.i64(S::staticSharedMemory, r.staticShared);
    t.i64(S::dynamicSharedMemory, r.dynamicShared);
    t.i64(S::localMemoryPerThread, r.localPerThread);
    t.i64(S::localMemoryTotal, std::int64_t(r.localTotal));
    t.i64(S::gridId, d->nextGridId++);
    t.i64(S::sharedMemoryExecuted, r.sharedMemoryExecuted);
    t.opt(S::graphNodeId, r.graphNodeId);
    t.i64(S::sharedMemoryLimitConfig, r.sharedMemLimitConfig);
    // 3.25 columns, as nsys 2026.2 writes them for a kernel without clusters or TMA.
    t.i64(S::clusterX, 0);
    t.i64(S::clusterY, 0);
    t.i64(S::clusterZ, 0);
    t.i64(S::clusterSchedulingPolicy, 1);
    t.i64(S::maxPotentialClusterSize, 0);
    t.i64(S::maxActiveClusters, 0);
    static const std::string emptyArray = "[]";
    t.text(S::tensorSizeMinusOneElements, emptyArray);
    d->finish(t);
}

void Writer::addMemcpy(const MemcpyRow& r) {
    using S = schema::Memcpy;
    Table& t = d->memcpys;
    if (!d->begin(t))
        return;
    d->writeActivityHead(t, r);
    t.i64(S::greenContextId, 0);
    t.i64(S::bytes, std::int64_t(r.bytes));
    t.i64(S::copyKind, r.copyKind);
    t.i64(S::srcKind, r.srcKind);
    t.i64(S::dstKind, r.dstKind);
    t.opt(S::srcDeviceId, r.srcDeviceId);
    t.opt(S::dstDeviceId, r.dstDeviceId);
    if (r.srcDeviceId)
        t.i64(S::srcContextId, r.contextId);
    else
        t.null(S::srcContextId);
    if (r.dstDeviceId)
        t.i64(S::dstContextId, r.contextId);
    else
        t.null(S::dstContextId);
    t.opt(S::migrationCause, r.migrationCause);
    t.opt(S::virtualAddress, r.virtualAddress);
    t.i64(S::copyCount, 1);
    d->finish(t);
}

void Writer::addMemset(const MemsetRow& r) {
    using S = schema::Memset;
    Table& t = d->memsets;
    if (!d->begin(t))
        return;
    d->writeActivityHead(t, r);
    t.i64(S::greenContextId, 0);
    t.i64(S::value, r.value);
    t.i64(S::bytes, std::int64_t(r.bytes));
    t.i64(S::memKind, r.memKind);
    d->finish(t);
}

void Writer::addSync(const SyncRow& r) {
    using S = schema::Sync;
    Table& t = d->syncs;
    if (!d->begin(t))
        return;
    d->writeActivityHead(t, r);
    t.i64(S::syncType, r.syncType);
    t.i64(S::eventId, r.eventId);
    d->finish(t);
}

} // namespace strobe::nsys
