// SPDX-License-Identifier: MIT
// Reading the GPU side of an nsys export: kernels, memcpys, memsets, synchronisation.
#include "formats/nsys/reader/nsysloaderimpl.h"
#include "model/cudaenums.h"

namespace strobe {

using namespace nsysload;

void NsysSqliteLoader::Impl::readKernels() {
    if (!db.hasTable(kKernelTable))
        return;
    SqliteRowStream st(scanDb(), threaded(), options.cancel,
                       selectSql(kKernelTable,
                                 {QStringLiteral("start"), QStringLiteral("end"),
                                  QStringLiteral("deviceId"), QStringLiteral("contextId"),
                                  QStringLiteral("streamId"), QStringLiteral("shortName")},
                                 {QStringLiteral("correlationId"),
                                  QStringLiteral("globalPid"),
                                  QStringLiteral("demangledName"),
                                  QStringLiteral("mangledName"),
                                  QStringLiteral("launchType"),
                                  QStringLiteral("cacheConfig"),
                                  QStringLiteral("registersPerThread"),
                                  QStringLiteral("gridX"),
                                  QStringLiteral("gridY"),
                                  QStringLiteral("gridZ"),
                                  QStringLiteral("blockX"),
                                  QStringLiteral("blockY"),
                                  QStringLiteral("blockZ"),
                                  QStringLiteral("staticSharedMemory"),
                                  QStringLiteral("dynamicSharedMemory"),
                                  QStringLiteral("localMemoryPerThread"),
                                  QStringLiteral("localMemoryTotal"),
                                  QStringLiteral("sharedMemoryExecuted"),
                                  QStringLiteral("graphNodeId"),
                                  QStringLiteral("sharedMemoryLimitConfig")}));
    const int corr = st.column("correlationId"), gpid = st.column("globalPid"),
              dem = st.column("demangledName"), mang = st.column("mangledName"),
              launch = st.column("launchType"), cache = st.column("cacheConfig"),
              regs = st.column("registersPerThread"), gx = st.column("gridX"),
              gy = st.column("gridY"), gz = st.column("gridZ"), bx = st.column("blockX"),
              by = st.column("blockY"), bz = st.column("blockZ"),
              sshm = st.column("staticSharedMemory"), dshm = st.column("dynamicSharedMemory"),
              lpt = st.column("localMemoryPerThread"), ltot = st.column("localMemoryTotal"),
              shex = st.column("sharedMemoryExecuted"), graph = st.column("graphNodeId"),
              slim = st.column("sharedMemoryLimitConfig");
    while (st.step()) {
        const TimeNs start = st.int64(0);
        const TimeNs end = checkedEnd(start, st.int64(1));
        KernelConfig c;
        c.shortName = str(st.optInt64(5));
        c.demangledName = dem >= 0 ? str(st.optInt64(dem)) : c.shortName;
        c.mangledName = mang >= 0 && !st.isNull(mang) ? str(st.optInt64(mang)) : kNoString;
        c.grid = {std::int32_t(st.int64(gx)), std::int32_t(st.int64(gy)),
                  std::int32_t(st.int64(gz))};
        c.block = {std::int32_t(st.int64(bx)), std::int32_t(st.int64(by)),
                   std::int32_t(st.int64(bz))};
        c.registersPerThread = std::uint32_t(st.int64(regs));
        c.staticSharedBytes = std::uint32_t(st.int64(sshm));
        c.dynamicSharedBytes = std::uint32_t(st.int64(dshm));
        c.localBytesPerThread = std::uint32_t(st.int64(lpt));
        c.localBytesTotal = std::uint64_t(st.int64(ltot));
        c.sharedMemoryExecuted = std::uint32_t(st.int64(shex));
        c.launchType = std::uint8_t(st.int64(launch));
        c.cacheConfig = std::uint8_t(st.int64(cache));
        c.sharedMemLimitConfig = std::uint8_t(st.int64(slim));
        std::optional<std::uint32_t> correlation;
        if (auto v = st.optInt64(corr))
            correlation = std::uint32_t(*v);
        std::optional<std::uint64_t> graphNode;
        if (auto v = st.optInt64(graph))
            graphNode = std::uint64_t(*v);
        builder.addKernel(pidOf(st.int64(gpid)), std::uint32_t(st.int64(2)),
                          std::uint32_t(st.int64(3)), std::uint32_t(st.int64(4)), start, end, c,
                          correlation, graphNode);
        ++builder.counts().kernels;
        rowDone();
    }
    checkStatement(st, kKernelTable);
}

void NsysSqliteLoader::Impl::readMemcpys() {
    if (!db.hasTable(kMemcpyTable))
        return;
    SqliteRowStream st(
        scanDb(), threaded(), options.cancel,
        selectSql(kMemcpyTable,
                  {QStringLiteral("start"), QStringLiteral("end"), QStringLiteral("deviceId"),
                   QStringLiteral("contextId"), QStringLiteral("streamId"), QStringLiteral("bytes"),
                   QStringLiteral("copyKind")},
                  {QStringLiteral("correlationId"), QStringLiteral("globalPid"),
                   QStringLiteral("srcKind"), QStringLiteral("dstKind"),
                   QStringLiteral("srcDeviceId"), QStringLiteral("dstDeviceId"),
                   QStringLiteral("migrationCause")}));
    const int corr = st.column("correlationId"), gpid = st.column("globalPid"),
              src = st.column("srcKind"), dst = st.column("dstKind"),
              srcDev = st.column("srcDeviceId"), dstDev = st.column("dstDeviceId"),
              cause = st.column("migrationCause");
    std::array<StringId, 14> names{};
    for (std::size_t k = 0; k < names.size(); ++k)
        names[k] =
            builder.intern((QStringLiteral("[CUDA memcpy ") % memcpyKindLabel(MemcpyKind(k)) % u']')
                               .toUtf8()
                               .toStdString());
    while (st.step()) {
        const TimeNs start = st.int64(0);
        const TimeNs end = checkedEnd(start, st.int64(1));
        MemcpyRecord r;
        r.bytes = std::uint64_t(st.int64(5));
        const std::int64_t kind = st.int64(6);
        r.copyKind = kind >= 0 && kind <= 13 ? MemcpyKind(kind) : MemcpyKind::Unknown;
        r.srcKind = st.isNull(src) ? 7 : std::uint8_t(st.int64(src));
        r.dstKind = st.isNull(dst) ? 7 : std::uint8_t(st.int64(dst));
        if (auto v = st.optInt64(srcDev))
            r.srcDeviceId = std::uint32_t(*v);
        if (auto v = st.optInt64(dstDev))
            r.dstDeviceId = std::uint32_t(*v);
        if (auto v = st.optInt64(cause))
            r.migrationCause = std::uint8_t(*v);
        if (auto v = st.optInt64(corr))
            r.correlationId = std::uint32_t(*v);
        builder.addMemcpy(pidOf(st.int64(gpid)), std::uint32_t(st.int64(2)),
                          std::uint32_t(st.int64(3)), std::uint32_t(st.int64(4)), start, end,
                          names[std::size_t(r.copyKind)], r);
        ++builder.counts().memcpys;
        rowDone();
    }
    checkStatement(st, kMemcpyTable);
}

void NsysSqliteLoader::Impl::readMemsets() {
    if (!db.hasTable(kMemsetTable))
        return;
    SqliteRowStream st(scanDb(), threaded(), options.cancel,
                       selectSql(kMemsetTable,
                                 {QStringLiteral("start"), QStringLiteral("end"),
                                  QStringLiteral("deviceId"), QStringLiteral("contextId"),
                                  QStringLiteral("streamId"), QStringLiteral("bytes")},
                                 {QStringLiteral("correlationId"), QStringLiteral("globalPid"),
                                  QStringLiteral("value"), QStringLiteral("memKind")}));
    const int corr = st.column("correlationId"), gpid = st.column("globalPid"),
              value = st.column("value"), memKind = st.column("memKind");
    const StringId name = builder.intern("[CUDA memset]");
    while (st.step()) {
        const TimeNs start = st.int64(0);
        const TimeNs end = checkedEnd(start, st.int64(1));
        MemsetRecord r;
        r.bytes = std::uint64_t(st.int64(5));
        r.value = std::uint32_t(st.int64(value));
        r.memKind = st.isNull(memKind) ? 7 : std::uint8_t(st.int64(memKind));
        if (auto v = st.optInt64(corr))
            r.correlationId = std::uint32_t(*v);
        builder.addMemset(pidOf(st.int64(gpid)), std::uint32_t(st.int64(2)),
                          std::uint32_t(st.int64(3)), std::uint32_t(st.int64(4)), start, end, name,
                          r);
        ++builder.counts().memsets;
        rowDone();
    }
    checkStatement(st, kMemsetTable);
}

void NsysSqliteLoader::Impl::readSyncs() {
    if (!db.hasTable(kSyncTable))
        return;
    SqliteRowStream st(scanDb(), threaded(), options.cancel,
                       selectSql(kSyncTable, {QStringLiteral("start"), QStringLiteral("end")},
                                 {QStringLiteral("deviceId"), QStringLiteral("contextId"),
                                  QStringLiteral("streamId"), QStringLiteral("correlationId"),
                                  QStringLiteral("globalPid"), QStringLiteral("syncType")}));
    const int dev = st.column("deviceId"), ctx = st.column("contextId"),
              stream = st.column("streamId"), corr = st.column("correlationId"),
              gpid = st.column("globalPid"), type = st.column("syncType");
    while (st.step()) {
        SyncRecord r;
        r.start = st.int64(0);
        r.end = checkedEnd(r.start, st.int64(1));
        r.deviceId = std::uint32_t(st.int64(dev));
        r.contextId = std::uint32_t(st.int64(ctx));
        if (auto v = st.optInt64(stream); v && *v != 0xFFFFFFFF)
            r.streamId = std::uint32_t(*v);
        if (auto v = st.optInt64(corr))
            r.correlationId = std::uint32_t(*v);
        r.pid = pidOf(st.int64(gpid));
        r.syncType = std::uint8_t(st.int64(type));
        builder.addSync(r);
        ++builder.counts().syncs;
        rowDone();
    }
    checkStatement(st, kSyncTable);
}

} // namespace strobe
