// SPDX-License-Identifier: MIT
// Reading the GPU side of an nsys export: kernels, memcpys, memsets, synchronisation.
#include "formats/nsys/reader/nsysloaderimpl.h"
#include "model/cudaenums.h"

#include <algorithm>
#include <array>
#include <map>

namespace strobe {

using namespace nsysload;

namespace {

// A memory kind column as nsys numbers it (the low byte kept); NULL: not recorded.
MemoryKind memoryKind(const SqliteRowStream& st, int column) {
    return st.isNull(column) ? MemoryKind::Unknown : MemoryKind(std::uint8_t(st.int64(column)));
}

} // namespace

void NsysSqliteLoader::Impl::readKernels() {
    if (!db.hasTable(kKernelTable))
        return;
    using K = schema::Kernel;
    const QStringList names = columnNames<K>({K::shortName, K::demangledName, K::mangledName});
    const QStringList absentNames = missingColumns(kKernelTable, names);
    if (absentNames.size() == names.size())
        throw LoadFailure{u'\'' % fileName() % QStringLiteral("': table ") % kKernelTable %
                          QStringLiteral(" lacks a kernel name column (one of ") %
                          names.join(QStringLiteral(", ")) % QStringLiteral(").")};
    // Names and times only, unless the launch details are wanted: a third of the columns. The
    // mangled name then only where it is the one name the table has (the details pane alone
    // shows it; 8% of the scan's SQLite time).
    const bool detail = wants(TracePart::KernelDetail);
    const bool mangledOnly =
        absentNames.size() == names.size() - 1 && !absentNames.contains(qs(K::col(K::mangledName)));
    QStringList optional =
        detail ? columnNames<K>(K::readOptional)
               : columnNames<K>({K::contextId, K::shortName, K::globalPid, K::demangledName});
    if (!detail && mangledOnly)
        optional << qs(K::col(K::mangledName));
    const QStringList absent = missingColumns(kKernelTable, optional);
    // What the table lacks that a launch configuration is made of: unknown, never 0.
    auto lacks = [&](std::initializer_list<K::Col> cols) {
        return std::any_of(cols.begin(), cols.end(),
                           [&](K::Col c) { return absent.contains(qs(K::col(c))); });
    };
    const bool noGeometry =
        !detail || lacks({K::gridX, K::gridY, K::gridZ, K::blockX, K::blockY, K::blockZ});
    std::uint8_t unrecorded = 0;
    if (!detail || lacks({K::registersPerThread}))
        unrecorded |= std::uint8_t(KernelField::Registers);
    if (!detail || lacks({K::staticSharedMemory, K::dynamicSharedMemory}))
        unrecorded |= std::uint8_t(KernelField::SharedMemory);
    if (!detail || lacks({K::localMemoryPerThread, K::localMemoryTotal}))
        unrecorded |= std::uint8_t(KernelField::LocalMemory);
    const auto stream = gpuTableStream(
        selectSql(kKernelTable, columnNames<K>(K::readRequired), optional), kKernelTable);
    if (!stream)
        return;
    SqliteRowStream& st = *stream;
    auto col = [&](K::Col c) { return st.column(K::col(c)); };
    const int cStart = col(K::start), cEnd = col(K::end), cDevice = col(K::deviceId),
              cContext = col(K::contextId), cStream = col(K::streamId), cShort = col(K::shortName);
    const int corr = col(K::correlationId), gpid = col(K::globalPid), dem = col(K::demangledName),
              mang = col(K::mangledName), launch = col(K::launchType), cache = col(K::cacheConfig),
              regs = col(K::registersPerThread), gx = col(K::gridX), gy = col(K::gridY),
              gz = col(K::gridZ), bx = col(K::blockX), by = col(K::blockY), bz = col(K::blockZ),
              sshm = col(K::staticSharedMemory), dshm = col(K::dynamicSharedMemory),
              lpt = col(K::localMemoryPerThread), ltot = col(K::localMemoryTotal),
              shex = col(K::sharedMemoryExecuted), graph = col(K::graphNodeId),
              slim = col(K::sharedMemoryLimitConfig);
    // Without the details a configuration is its three names: found by them in a memo (a wrong
    // guess costs one comparison) instead of hashing the whole configuration per kernel.
    struct NamesHit {
        std::array<StringId, 3> names{kNoString, kNoString, kNoString};
        std::uint32_t config = ~0u;
    };
    std::array<NamesHit, 1024> byNames{};
    while (st.step()) {
        keyRow(st);
        const TimeNs start = st.int64(cStart);
        const TimeNs end = checkedEnd(start, st.int64(cEnd));
        KernelConfig c;
        c.mangledName = mang >= 0 && !st.isNull(mang) ? str(st.optInt64(mang)) : kNoString;
        // A reduced export may keep only one of the names: the others stand in for it.
        c.shortName = cShort >= 0 ? str(st.optInt64(cShort)) : kNoString;
        c.demangledName = dem >= 0 ? str(st.optInt64(dem)) : kNoString;
        if (cShort < 0)
            c.shortName = c.demangledName != kNoString ? c.demangledName : c.mangledName;
        if (dem < 0)
            c.demangledName = c.shortName;
        c.detail = noGeometry ? LaunchDetail::None : LaunchDetail::Complete;
        c.unrecorded = unrecorded;
        std::uint32_t config = 0;
        if (detail) {
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
            config = builder.kernelConfig(c);
        } else {
            const std::array<StringId, 3> names{c.shortName, c.demangledName, c.mangledName};
            NamesHit& hit = byNames[(c.shortName * 0x9E3779B1u ^ c.demangledName * 0x85EBCA77u ^
                                     c.mangledName * 0xC2B2AE3Du) >>
                                    22];
            if (hit.config == ~0u || hit.names != names)
                hit = {names, builder.kernelConfig(c)};
            config = hit.config;
        }
        std::optional<std::uint32_t> correlation;
        if (auto v = st.optInt64(corr))
            correlation = std::uint32_t(*v);
        std::optional<std::uint64_t> graphNode;
        if (auto v = st.optInt64(graph))
            graphNode = std::uint64_t(*v);
        builder.addKernel(pidOf(st.int64(gpid)), std::uint32_t(st.int64(cDevice)),
                          std::uint32_t(st.int64(cContext)), std::uint32_t(st.int64(cStream)),
                          start, end, config, correlation, graphNode);
        ++builder.counts().kernels;
        rowDone();
    }
    checkStatement(st, kKernelTable);
    if (finalPass())
        warnAbsentColumns(kKernelTable, absent, builder.counts().kernels);
}

void NsysSqliteLoader::Impl::readMemcpys() {
    if (!db.hasTable(kMemcpyTable))
        return;
    using C = schema::Memcpy;
    const QStringList absent = absentOptional<C>();
    const auto stream = gpuTableStream(selectSql<C>(), kMemcpyTable);
    if (!stream)
        return;
    SqliteRowStream& st = *stream;
    auto col = [&](C::Col c) { return st.column(C::col(c)); };
    const int cStart = col(C::start), cEnd = col(C::end), cDevice = col(C::deviceId),
              cContext = col(C::contextId), cStream = col(C::streamId), cBytes = col(C::bytes),
              cKind = col(C::copyKind);
    const int corr = col(C::correlationId), gpid = col(C::globalPid), src = col(C::srcKind),
              dst = col(C::dstKind), srcDev = col(C::srcDeviceId), dstDev = col(C::dstDeviceId),
              cause = col(C::migrationCause);
    std::array<StringId, 14> names{};
    for (std::size_t k = 0; k < names.size(); ++k)
        names[k] =
            builder.intern((QStringLiteral("[CUDA memcpy ") % memcpyKindLabel(MemcpyKind(k)) % u']')
                               .toUtf8()
                               .toStdString());
    while (st.step()) {
        keyRow(st);
        const TimeNs start = st.int64(cStart);
        const TimeNs end = checkedEnd(start, st.int64(cEnd));
        MemcpyRecord r;
        r.bytes = std::uint64_t(st.int64(cBytes));
        const std::int64_t kind = cKind >= 0 ? st.int64(cKind) : 0; // no copyKind: unknown
        r.copyKind = kind >= 0 && kind <= 13 ? MemcpyKind(kind) : MemcpyKind::Unknown;
        r.srcKind = memoryKind(st, src);
        r.dstKind = memoryKind(st, dst);
        if (auto v = st.optInt64(srcDev))
            r.srcDeviceId = std::uint32_t(*v);
        if (auto v = st.optInt64(dstDev))
            r.dstDeviceId = std::uint32_t(*v);
        if (auto v = st.optInt64(cause))
            r.migrationCause = std::uint8_t(*v);
        if (auto v = st.optInt64(corr))
            r.correlationId = std::uint32_t(*v);
        builder.addMemcpy(pidOf(st.int64(gpid)), std::uint32_t(st.int64(cDevice)),
                          std::uint32_t(st.int64(cContext)), std::uint32_t(st.int64(cStream)),
                          start, end, names[std::size_t(r.copyKind)], r);
        ++builder.counts().memcpys;
        rowDone();
    }
    checkStatement(st, kMemcpyTable);
    if (finalPass())
        warnAbsentColumns(kMemcpyTable, absent, builder.counts().memcpys);
}

void NsysSqliteLoader::Impl::readMemsets() {
    if (!db.hasTable(kMemsetTable))
        return;
    using M = schema::Memset;
    const QStringList absent = absentOptional<M>();
    const auto stream = gpuTableStream(selectSql<M>(), kMemsetTable);
    if (!stream)
        return;
    SqliteRowStream& st = *stream;
    auto col = [&](M::Col c) { return st.column(M::col(c)); };
    const int cStart = col(M::start), cEnd = col(M::end), cDevice = col(M::deviceId),
              cContext = col(M::contextId), cStream = col(M::streamId), cBytes = col(M::bytes);
    const int corr = col(M::correlationId), gpid = col(M::globalPid), value = col(M::value),
              memKind = col(M::memKind);
    const StringId name = builder.intern("[CUDA memset]");
    while (st.step()) {
        keyRow(st);
        const TimeNs start = st.int64(cStart);
        const TimeNs end = checkedEnd(start, st.int64(cEnd));
        MemsetRecord r;
        r.bytes = std::uint64_t(st.int64(cBytes));
        r.value = std::uint32_t(st.int64(value));
        r.memKind = memoryKind(st, memKind);
        if (auto v = st.optInt64(corr))
            r.correlationId = std::uint32_t(*v);
        builder.addMemset(pidOf(st.int64(gpid)), std::uint32_t(st.int64(cDevice)),
                          std::uint32_t(st.int64(cContext)), std::uint32_t(st.int64(cStream)),
                          start, end, name, r);
        ++builder.counts().memsets;
        rowDone();
    }
    checkStatement(st, kMemsetTable);
    if (finalPass())
        warnAbsentColumns(kMemsetTable, absent, builder.counts().memsets);
}

void NsysSqliteLoader::Impl::readSyncs() {
    if (!db.hasTable(kSyncTable))
        return;
    using Y = schema::Sync;
    const QStringList absent = absentOptional<Y>();
    SqliteRowStream st(scanners(), options.cancel, selectSql<Y>(), qs(Y::table));
    auto col = [&](Y::Col c) { return st.column(Y::col(c)); };
    const int cStart = col(Y::start), cEnd = col(Y::end);
    const int dev = col(Y::deviceId), ctx = col(Y::contextId), stream = col(Y::streamId),
              corr = col(Y::correlationId), gpid = col(Y::globalPid), type = col(Y::syncType);
    while (st.step()) {
        SyncRecord r;
        r.start = st.int64(cStart);
        r.end = checkedEnd(r.start, st.int64(cEnd));
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
    warnAbsentColumns(kSyncTable, absent, builder.counts().syncs);
}

// Allocations and frees of device memory become a running total per GPU: bytes allocated
// during the capture (memory allocated before it and freed during it would go below zero: the
// total saturates at 0). Host kinds (pageable, pinned), managed and unknown memory are left out.
void NsysSqliteLoader::Impl::readGpuMemory() {
    if (!db.hasTable(kGpuMemoryTable))
        return;
    using Y = schema::GpuMemoryUsage;
    SqliteRowStream st(scanners(), options.cancel, selectSql<Y>(), qs(Y::table));
    auto col = [&](Y::Col c) { return st.column(Y::col(c)); };
    const int cStart = col(Y::start), dev = col(Y::deviceId), cBytes = col(Y::bytes),
              kind = col(Y::memKind), op = col(Y::memoryOperationType);
    struct Change {
        TimeNs time;
        std::int64_t delta;
    };
    std::map<std::uint32_t, std::vector<Change>> changes;
    while (st.step()) {
        const std::int64_t k = st.int64(kind);
        if (k != 3 && k != 4 && k != 6) // device, array, device static
            continue;
        const std::int64_t bytes = std::max<std::int64_t>(0, st.int64(cBytes));
        changes[std::uint32_t(st.int64(dev))].push_back(
            {st.int64(cStart), st.int64(op) == 0 ? bytes : -bytes});
    }
    checkStatement(st, kGpuMemoryTable);
    for (auto& [device, list] : changes) {
        std::stable_sort(list.begin(), list.end(),
                         [](const Change& a, const Change& b) { return a.time < b.time; });
        std::uint64_t total = 0;
        for (const Change& c : list) {
            total = c.delta >= 0 ? total + std::uint64_t(c.delta)
                                 : total - std::min(total, std::uint64_t(-c.delta));
            builder.addGpuMemorySample(device, {c.time, total, std::nullopt});
        }
    }
}

} // namespace strobe
