// SPDX-License-Identifier: MIT
#include "nsyssqliteloader.h"

#include "cudaenums.h"
#include "sqlitedb.h"
#include "tracebuilder.h"

#include <QFileInfo>
#include <QHash>
#include <QStringBuilder>
#include <QVersionNumber>

namespace strobe {

namespace {

constexpr std::uint32_t pidOf(std::int64_t globalId) {
    return std::uint32_t((globalId >> 24) & 0xFFFFFF);
}
constexpr std::uint32_t tidOf(std::int64_t globalId) {
    return std::uint32_t(globalId & 0xFFFFFF);
}

// The newest schema this loader was written against (nsys 2026.4).
const QVersionNumber kNewestKnownSchema(3, 28, 1);

const QString kKernelTable = QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL");
const QString kMemcpyTable = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY");
const QString kMemsetTable = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET");
const QString kRuntimeTable = QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME");
const QString kSyncTable = QStringLiteral("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
const QString kNvtxTable = QStringLiteral("NVTX_EVENTS");
const QString kOsrtTable = QStringLiteral("OSRT_API");

// Thrown inside the loader only; load() turns it into LoadResult::error.
struct LoadFailure {
    QString message;
};
struct Cancelled {};

} // namespace

bool looksLikeNsysExport(const SqliteDb& db) {
    if (!db.hasTable(QStringLiteral("StringIds")))
        return false;
    for (const QString& t : {QStringLiteral("META_DATA_EXPORT"), QStringLiteral("EXPORT_META_DATA"),
                             kKernelTable, kRuntimeTable, kNvtxTable, kOsrtTable, kMemcpyTable}) {
        if (db.hasTable(t))
            return true;
    }
    return false;
}

struct NsysSqliteLoader::Impl {
    QString path;
    LoadOptions options;
    SqliteDb db;
    TraceBuilder builder;
    std::vector<StringId> stringMap; // nsys StringIds.id -> our id
    QHash<std::int64_t, StringId> sparseStrings;
    std::uint64_t danglingStrings = 0;
    std::uint64_t invertedTimes = 0;
    std::uint64_t negativeTimes = 0;
    std::uint64_t rowsDone = 0;
    std::uint64_t rowsTotal = 1;
    int lastPermille = -1;

    Impl(const QString& p, const LoadOptions& o)
        : path(p)
        , options(o)
        , builder(p) {}

    QString fileName() const { return QFileInfo(path).fileName(); }

    void checkCancel() const {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            throw Cancelled{};
    }

    void rowDone() {
        if ((++rowsDone & 0x3FFF) == 0) {
            checkCancel();
            report(int(std::min<std::uint64_t>(900, rowsDone * 900 / rowsTotal)));
        }
    }

    void report(int permille) {
        if (options.progress && permille > lastPermille) {
            lastPermille = permille;
            options.progress(permille);
        }
    }

    // Builds "SELECT <existing wanted columns> FROM table"; throws when a required one is missing.
    QString selectSql(const QString& table, const QStringList& required,
                      const QStringList& optional) {
        const QStringList have = db.columns(table);
        QStringList cols;
        for (const QString& c : required) {
            if (!have.contains(c))
                throw LoadFailure{u'\'' % fileName() % QStringLiteral("': table ") % table %
                                  QStringLiteral(" lacks the required column '") % c %
                                  QStringLiteral("'.")};
            cols << u'"' % c % u'"';
        }
        for (const QString& c : optional) {
            if (have.contains(c))
                cols << u'"' % c % u'"';
        }
        return QStringLiteral("SELECT ") % cols.join(u',') % QStringLiteral(" FROM ") % table;
    }

    // The second connection, stepped by SqliteRowStream's worker, when loading with two threads.
    SqliteDb scanConnection;
    bool threaded() const { return options.threads >= 2 && scanConnection.handle(); }
    const SqliteDb& scanDb() const { return threaded() ? scanConnection : db; }

    template <typename Statement> void checkStatement(const Statement& st, const QString& table) {
        if (st.hasError() || !st.isValid())
            throw LoadFailure{
                QStringLiteral("Cannot read '") % fileName() % QStringLiteral("': table ") % table %
                QStringLiteral(" is damaged (") % db.lastError() % QStringLiteral(").")};
    }

    StringId str(std::optional<std::int64_t> nsysId) {
        if (!nsysId)
            return kNoString;
        const std::int64_t id = *nsysId;
        if (id >= 0 && std::uint64_t(id) < stringMap.size() &&
            stringMap[std::size_t(id)] != kNoString)
            return stringMap[std::size_t(id)];
        if (auto it = sparseStrings.constFind(id); it != sparseStrings.constEnd())
            return it.value();
        ++danglingStrings;
        return kNoString;
    }

    // Checks one interval: counts anomalies and repairs an end before its start.
    TimeNs checkedEnd(TimeNs start, TimeNs end) {
        if (start < 0)
            ++negativeTimes;
        if (end < start) {
            ++invertedTimes;
            return start;
        }
        return end;
    }

    std::uint64_t estimateRows(const QString& table) {
        if (!db.hasTable(table))
            return 0;
        SqliteStatement st(db, QStringLiteral("SELECT max(rowid) FROM ") % table);
        return st.step() ? std::uint64_t(std::max<std::int64_t>(0, st.int64(0))) : 0;
    }

    void readMetadata();
    void readStrings();
    void readProcessesAndThreads();
    void readGpus();
    void readStreams();
    void readKernels();
    void readMemcpys();
    void readMemsets();
    void readRuntime();
    void readSyncs();
    void readNvtx();
    void readOsrt();
};

void NsysSqliteLoader::Impl::readMetadata() {
    TraceMetadata& meta = builder.metadata();
    meta.format = QStringLiteral("nsys-sqlite");
    meta.productName = QStringLiteral("Nsight Systems");
    for (const QString& table :
         {QStringLiteral("META_DATA_EXPORT"), QStringLiteral("EXPORT_META_DATA")}) {
        if (!db.hasTable(table))
            continue;
        SqliteStatement st(db, QStringLiteral("SELECT name, value FROM ") % table);
        while (st.step()) {
            const auto name = st.text(0);
            const QString value = QString::fromUtf8(st.text(1));
            if (name == "EXPORT_PRODUCT_VERSION")
                meta.nsysVersion = value;
            else if (name == "EXPORT_SCHEMA_VERSION")
                meta.schemaVersion = value;
            else if (name == "EXPORT_PRODUCT_NAME" && !value.isEmpty())
                meta.productName = value;
        }
        checkStatement(st, table);
        break;
    }
    if (db.hasTable(QStringLiteral("META_DATA_CAPTURE"))) {
        SqliteStatement st(db, QStringLiteral("SELECT name, value FROM META_DATA_CAPTURE"));
        QString command;
        QMap<int, QString> args;
        while (st.step()) {
            const QString name = QString::fromUtf8(st.text(0));
            if (name == QLatin1String("PROCESS_0:COMMAND"))
                command = QString::fromUtf8(st.text(1));
            else if (name.startsWith(QLatin1String("PROCESS_0:ARGUMENT_")))
                args.insert(name.mid(19).toInt(), QString::fromUtf8(st.text(1)));
        }
        QStringList parts{command};
        parts << args.values();
        meta.commandLine = parts.join(u' ').trimmed();
    }
    if (db.hasTable(QStringLiteral("TARGET_INFO_SESSION_START_TIME"))) {
        SqliteStatement st(db, selectSql(QStringLiteral("TARGET_INFO_SESSION_START_TIME"), {},
                                         {QStringLiteral("utcEpochNs")}));
        if (st.step() && st.column("utcEpochNs") >= 0)
            meta.sessionStartUtcNs = st.optInt64(0);
    }
    if (meta.schemaVersion) {
        const QVersionNumber v = QVersionNumber::fromString(*meta.schemaVersion);
        if (v > kNewestKnownSchema)
            builder.warn(QStringLiteral("newer-schema"), 1,
                         QStringLiteral("The export's schema version ") % *meta.schemaVersion %
                             QStringLiteral(" is newer than any Strobe knows (") %
                             kNewestKnownSchema.toString() %
                             QStringLiteral("); some data may be missing (%1 file)."));
    }
}

void NsysSqliteLoader::Impl::readStrings() {
    const QString table = QStringLiteral("StringIds");
    SqliteStatement st(db, selectSql(table, {QStringLiteral("id"), QStringLiteral("value")}, {}));
    std::vector<std::pair<std::int64_t, StringId>> pairs;
    std::int64_t maxId = -1;
    while (st.step()) {
        const std::int64_t id = st.int64(0);
        pairs.emplace_back(id, builder.intern(st.text(1)));
        maxId = std::max(maxId, id);
        rowDone();
    }
    checkStatement(st, table);
    // Dense ids (the normal case) index a vector; anything sparse or negative goes to a hash.
    const bool dense = maxId >= 0 && std::uint64_t(maxId) < 4 * pairs.size() + 1024;
    if (dense)
        stringMap.assign(std::size_t(maxId) + 1, kNoString);
    for (const auto& [id, sid] : pairs) {
        if (dense && id >= 0)
            stringMap[std::size_t(id)] = sid;
        else
            sparseStrings.insert(id, sid);
    }
    // The empty string is our id 0 and nsys may store it too: keep it findable.
    for (const auto& [id, sid] : pairs) {
        if (sid == kNoString)
            sparseStrings.insert(id, sid);
    }
}

void NsysSqliteLoader::Impl::readProcessesAndThreads() {
    if (db.hasTable(QStringLiteral("PROCESSES"))) {
        SqliteStatement st(db, selectSql(QStringLiteral("PROCESSES"), {},
                                         {QStringLiteral("globalPid"), QStringLiteral("pid"),
                                          QStringLiteral("name")}));
        const int gpid = st.column("globalPid"), pid = st.column("pid"), name = st.column("name");
        while (st.step()) {
            const std::uint32_t p =
                !st.isNull(gpid) ? pidOf(st.int64(gpid)) : std::uint32_t(st.int64(pid));
            builder.setProcessName(p, builder.intern(st.text(name)));
        }
        checkStatement(st, QStringLiteral("PROCESSES"));
    }
    if (db.hasTable(QStringLiteral("ThreadNames"))) {
        SqliteStatement st(db,
                           selectSql(QStringLiteral("ThreadNames"),
                                     {QStringLiteral("nameId"), QStringLiteral("globalTid")}, {}));
        while (st.step()) {
            const std::int64_t g = st.int64(1);
            builder.setThreadName(pidOf(g), tidOf(g), str(st.optInt64(0)));
        }
        checkStatement(st, QStringLiteral("ThreadNames"));
    }
}

void NsysSqliteLoader::Impl::readGpus() {
    QString table = QStringLiteral("TARGET_INFO_GPU");
    QString idColumn = QStringLiteral("id");
    if (!db.hasTable(table)) {
        table = QStringLiteral("TARGET_INFO_CUDA_GPU"); // nsys before 2021.3
        idColumn = QStringLiteral("deviceId");
        if (!db.hasTable(table))
            return;
    }
    static const char* const kCols[] = {"name",
                                        "smCount",
                                        "computeMajor",
                                        "computeMinor",
                                        "maxThreadsPerBlock",
                                        "maxRegistersPerBlock",
                                        "maxRegistersPerSm",
                                        "maxShmemPerBlock",
                                        "maxShmemPerBlockOptin",
                                        "maxShmemPerSm",
                                        "threadsPerWarp",
                                        "maxWarpsPerSm",
                                        "maxBlocksPerSm",
                                        "totalMemory",
                                        "memoryBandwidth",
                                        "clockRate",
                                        "busLocation"};
    QStringList optional;
    for (const char* c : kCols)
        optional << QString::fromLatin1(c);
    SqliteStatement st(db, selectSql(table, {idColumn}, optional));
    auto u = [&](const char* c) {
        return std::uint32_t(std::max<std::int64_t>(0, st.int64(st.column(c))));
    };
    auto u64 = [&](const char* c) {
        return std::uint64_t(std::max<std::int64_t>(0, st.int64(st.column(c))));
    };
    while (st.step()) {
        GpuInfo g;
        g.id = std::uint32_t(st.int64(0));
        g.name = builder.intern(st.text(st.column("name")));
        g.smCount = u("smCount");
        g.computeMajor = u("computeMajor");
        g.computeMinor = u("computeMinor");
        g.maxThreadsPerBlock = u("maxThreadsPerBlock");
        g.maxRegistersPerBlock = u("maxRegistersPerBlock");
        g.maxRegistersPerSm = u("maxRegistersPerSm");
        g.maxShmemPerBlock = u("maxShmemPerBlock");
        g.maxShmemPerBlockOptin = u("maxShmemPerBlockOptin");
        g.maxShmemPerSm = u("maxShmemPerSm");
        g.threadsPerWarp = u("threadsPerWarp");
        g.maxWarpsPerSm = u("maxWarpsPerSm");
        g.maxBlocksPerSm = u("maxBlocksPerSm");
        g.totalMemory = u64("totalMemory");
        g.memoryBandwidth = u64("memoryBandwidth");
        g.clockRate = u64("clockRate");
        g.busLocation = builder.intern(st.text(st.column("busLocation")));
        builder.addGpu(g);
    }
    checkStatement(st, table);
}

void NsysSqliteLoader::Impl::readStreams() {
    const QString table = QStringLiteral("TARGET_INFO_CUDA_STREAM");
    if (!db.hasTable(table))
        return;
    SqliteStatement st(db, selectSql(table,
                                     {QStringLiteral("streamId"), QStringLiteral("processId"),
                                      QStringLiteral("contextId")},
                                     {QStringLiteral("priority"), QStringLiteral("flag")}));
    const int prio = st.column("priority"), flag = st.column("flag");
    while (st.step()) {
        std::optional<std::int32_t> priority;
        if (auto p = st.optInt64(prio))
            priority = std::int32_t(std::uint32_t(*p)); // stored as unsigned: 4294967291 is -5
        builder.setStreamInfo(std::uint32_t(st.int64(1)), std::uint32_t(st.int64(2)),
                              std::uint32_t(st.int64(0)), priority, std::uint8_t(st.int64(flag)));
    }
    checkStatement(st, table);
}

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

void NsysSqliteLoader::Impl::readRuntime() {
    if (!db.hasTable(kRuntimeTable))
        return;
    SqliteRowStream st(
        scanDb(), threaded(), options.cancel,
        selectSql(kRuntimeTable,
                  {QStringLiteral("start"), QStringLiteral("end"), QStringLiteral("globalTid"),
                   QStringLiteral("correlationId"), QStringLiteral("nameId")},
                  {QStringLiteral("eventClass"), QStringLiteral("returnValue")}));
    const int cls = st.column("eventClass"), ret = st.column("returnValue");
    while (st.step()) {
        rowDone();
        const std::int64_t eventClass = st.int64(cls);
        if (cls >= 0 && eventClass != 0 && eventClass != 1)
            continue; // 67: CUDA backtrace duplicates of calls already recorded
        const TimeNs start = st.int64(0);
        const TimeNs end = checkedEnd(start, st.int64(1));
        const std::int64_t g = st.int64(2);
        ApiCallRecord r;
        r.correlationId = std::uint32_t(st.int64(3));
        r.returnValue = st.int64(ret);
        r.eventClass = std::uint8_t(eventClass);
        builder.addApiCall(pidOf(g), tidOf(g), start, end, str(st.optInt64(4)), r);
        ++builder.counts().cudaApiCalls;
    }
    checkStatement(st, kRuntimeTable);
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

void NsysSqliteLoader::Impl::readNvtx() {
    if (!db.hasTable(kNvtxTable))
        return;
    SqliteRowStream st(scanDb(), threaded(), options.cancel,
                       selectSql(kNvtxTable, {QStringLiteral("start"), QStringLiteral("eventType")},
                                 {QStringLiteral("end"), QStringLiteral("globalTid"),
                                  QStringLiteral("endGlobalTid"), QStringLiteral("text"),
                                  QStringLiteral("textId"), QStringLiteral("domainId"),
                                  QStringLiteral("color"), QStringLiteral("category")}));
    const int endCol = st.column("end"), gtid = st.column("globalTid"),
              egtid = st.column("endGlobalTid"), text = st.column("text"),
              textId = st.column("textId"), domain = st.column("domainId"),
              color = st.column("color"), category = st.column("category");
    struct Row {
        TimeNs start;
        std::optional<TimeNs> end;
        std::int64_t globalTid;
        std::optional<std::int64_t> endGlobalTid;
        StringId name;
        std::uint64_t domainId;
        std::optional<std::int64_t> color, category;
        int type;
    };
    // Rows are added as they come; only those of a domain whose name row (75) has not been seen
    // yet wait until the end of the table (nsys writes domain creation first, so almost none).
    std::vector<Row> deferred;
    QHash<quint64, StringId> domains; // (pid, domainId) -> name
    auto domainKey = [](std::uint32_t pid, std::uint64_t id) { return (quint64(pid) << 40) ^ id; };
    std::uint64_t openRanges = 0;
    auto add = [&](const Row& r, StringId domainName) {
        NvtxRecord rec;
        rec.style = r.type == 34                     ? NvtxStyle::Mark
                    : (r.type == 60 || r.type == 71) ? NvtxStyle::StartEnd
                                                     : NvtxStyle::PushPop;
        if (r.color)
            rec.color = std::uint32_t(*r.color & 0xFFFFFFFF);
        if (r.category)
            rec.category = std::int32_t(*r.category);
        TimeNs end = r.start;
        if (rec.style == NvtxStyle::Mark) {
            ++builder.counts().nvtxMarks;
        } else {
            ++builder.counts().nvtxRanges;
            if (r.end) {
                end = checkedEnd(r.start, *r.end);
            } else {
                rec.hasEnd = false;
                ++openRanges;
            }
        }
        std::optional<std::uint32_t> endTid;
        if (r.endGlobalTid)
            endTid = tidOf(*r.endGlobalTid);
        builder.addNvtx(pidOf(r.globalTid), tidOf(r.globalTid), domainName, r.start, end, r.name,
                        rec, endTid);
    };
    // Inline texts repeat in runs: the previous one by content skips most hash lookups.
    std::string lastText;
    StringId lastTextId = kNoString;
    while (st.step()) {
        rowDone();
        const int type = int(st.int64(1));
        StringId name;
        if (!st.isNull(text)) {
            const std::string_view t = st.text(text);
            if (t != lastText) {
                lastText.assign(t);
                lastTextId = builder.intern(t);
            }
            name = lastTextId;
        } else {
            name = str(st.optInt64(textId));
        }
        const std::int64_t g = st.int64(gtid);
        const auto domainId = std::uint64_t(st.int64(domain));
        switch (type) {
        case 75: // domain create: the name of (process, domainId)
            domains.insert(domainKey(pidOf(g), domainId), name);
            continue;
        case 39: // nvtxNameOsThread: the user's name for the thread wins
            builder.setThreadName(pidOf(g), tidOf(g), name);
            continue;
        case 59:
        case 70:
        case 60:
        case 71:
        case 34:
            break;
        default:
            continue;
        }
        const Row r{
            st.int64(0),        st.optInt64(endCol),   g,   st.optInt64(egtid), name, domainId,
            st.optInt64(color), st.optInt64(category), type};
        if (domainId == 0) {
            add(r, kNoString);
        } else if (auto it = domains.constFind(domainKey(pidOf(g), domainId));
                   it != domains.constEnd()) {
            add(r, it.value());
        } else {
            deferred.push_back(r);
        }
    }
    checkStatement(st, kNvtxTable);
    for (const Row& r : deferred)
        add(r, domains.value(domainKey(pidOf(r.globalTid), r.domainId), kNoString));
    builder.warn(QStringLiteral("open-nvtx-range"), openRanges,
                 QStringLiteral("%1 NVTX ranges have no end (NULL); they are drawn to the end of "
                                "the trace and left out of NVTX statistics."));
}

void NsysSqliteLoader::Impl::readOsrt() {
    if (!db.hasTable(kOsrtTable))
        return;
    SqliteRowStream st(scanDb(), threaded(), options.cancel,
                       selectSql(kOsrtTable,
                                 {QStringLiteral("start"), QStringLiteral("end"),
                                  QStringLiteral("globalTid"), QStringLiteral("nameId")},
                                 {QStringLiteral("eventClass"), QStringLiteral("returnValue"),
                                  QStringLiteral("nestingLevel")}));
    const int cls = st.column("eventClass"), ret = st.column("returnValue"),
              nest = st.column("nestingLevel");
    while (st.step()) {
        rowDone();
        if (cls >= 0 && st.int64(cls) != 27)
            continue; // 31/32: profiler start/finish markers, not calls
        const TimeNs start = st.int64(0);
        const TimeNs end = checkedEnd(start, st.int64(1));
        const std::int64_t g = st.int64(2);
        OsrtRecord r;
        r.returnValue = st.int64(ret);
        r.nestingLevel = std::uint32_t(st.int64(nest));
        builder.addOsrtCall(pidOf(g), tidOf(g), start, end, str(st.optInt64(3)), r);
        ++builder.counts().osrtCalls;
    }
    checkStatement(st, kOsrtTable);
}

NsysSqliteLoader::NsysSqliteLoader(const QString& path, const LoadOptions& options)
    : d(std::make_unique<Impl>(path, options)) {}

NsysSqliteLoader::~NsysSqliteLoader() = default;

LoadResult NsysSqliteLoader::load() {
    LoadResult result;
    try {
        QString error;
        if (!d->db.open(d->path, &error))
            throw LoadFailure{QStringLiteral("Cannot open '") % d->fileName() %
                              QStringLiteral("': ") % error % u'.'};
        if (!looksLikeNsysExport(d->db)) {
            if (d->db.lastError().contains(QLatin1String("malformed")) ||
                d->db.lastError().contains(QLatin1String("not a database")))
                throw LoadFailure{QStringLiteral("Cannot read '") % d->fileName() %
                                  QStringLiteral("': ") % d->db.lastError() % u'.'};
            throw LoadFailure{
                u'\'' % d->fileName() %
                QStringLiteral("' is an SQLite database but not an Nsight Systems export: it has "
                               "no StringIds table or no trace tables.")};
        }
        d->report(0);
        if (d->options.threads >= 2 && !d->scanConnection.open(d->path, &error))
            throw LoadFailure{QStringLiteral("Cannot open '") % d->fileName() %
                              QStringLiteral("': ") % error % u'.'};
        const QString eventTables[] = {QStringLiteral("StringIds"),
                                       kKernelTable,
                                       kMemcpyTable,
                                       kMemsetTable,
                                       kRuntimeTable,
                                       kSyncTable,
                                       kNvtxTable,
                                       kOsrtTable};
        d->rowsTotal = 1;
        for (const QString& t : eventTables)
            d->rowsTotal += d->estimateRows(t);
        d->readMetadata();
        d->readStrings();
        d->readProcessesAndThreads();
        d->readGpus();
        d->readStreams();
        // The GPU side first, so that a preview can show it while the CPU side is read.
        d->readKernels();
        d->readMemcpys();
        d->readMemsets();
        if (d->options.preview && d->rowsTotal >= d->options.previewMinRows) {
            if (auto preview = d->builder.finishGpuPreview(d->options.cancel))
                d->options.preview(std::move(preview));
            d->checkCancel();
        }
        d->readRuntime();
        d->readSyncs();
        d->readNvtx();
        d->readOsrt();
        d->checkCancel();

        TraceBuilder& b = d->builder;
        const bool anyEventTable = std::any_of(std::begin(eventTables) + 1, std::end(eventTables),
                                               [&](const QString& t) { return d->db.hasTable(t); });
        if (!anyEventTable)
            b.warn(QStringLiteral("no-events"), 1,
                   QStringLiteral("The export recorded no CUDA, NVTX or OS runtime events (%1 "
                                  "file); the profiled program may not have used the GPU."));
        b.warn(
            QStringLiteral("inverted-interval"), d->invertedTimes,
            QStringLiteral("%1 events end before they start; their end was set to their start."));
        b.warn(QStringLiteral("negative-time"), d->negativeTimes,
               QStringLiteral("%1 events start before time zero (before the capture window)."));
        b.warn(QStringLiteral("dangling-string"), d->danglingStrings,
               QStringLiteral(
                   "%1 string ids point to no entry of StringIds; those names are shown empty."));
        d->report(920);
        result.trace = b.finish(d->options.cancel);
        if (!result.trace)
            throw Cancelled{};
        d->report(1000);
    } catch (const LoadFailure& f) {
        result.error = f.message;
    } catch (const Cancelled&) {
        result.cancelled = true;
        result.error =
            QStringLiteral("Loading '") % d->fileName() % QStringLiteral("' was cancelled.");
    } catch (const std::bad_alloc&) {
        result.error = QStringLiteral("Cannot load '") % d->fileName() %
                       QStringLiteral("': not enough memory.");
    }
    return result;
}

} // namespace strobe
