// SPDX-License-Identifier: MIT
#include "formats/nsys/writer/nsyswriter.h"

#include <sqlite3.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <map>
#include <span>
#include <tuple>
#include <unistd.h>
#include <unordered_map>

#ifndef STROBE_VERSION
#define STROBE_VERSION "0"
#endif

namespace strobe::nsys {
namespace {

// Which flavors carry a column: the exporters only ever add columns, so a bit per flavor.
constexpr unsigned k29 = 1, k313 = 2, k325 = 4, kAll = k29 | k313 | k325, k3x = k313 | k325;

unsigned flavorBit(SchemaFlavor f) {
    switch (f) {
    case SchemaFlavor::V2_9:
        return k29;
    case SchemaFlavor::V3_13:
        return k313;
    case SchemaFlavor::V3_25:
        return k325;
    }
    return k325;
}

struct Col {
    const char* name;
    const char* type;
    unsigned flavors = kAll;
};

// clang-format off
// Column lists copied from real exports (nsys 2022.2 = 2.9.1, 2024.5 = 3.13.2, 2026.2 = 3.25.0),
// in their order. Each enum below indexes the array that follows it.
enum KernelCol {
    K_start, K_end, K_deviceId, K_contextId, K_greenContextId, K_streamId, K_correlationId,
    K_globalPid, K_demangledName, K_shortName, K_mangledName, K_launchType, K_cacheConfig,
    K_registersPerThread, K_gridX, K_gridY, K_gridZ, K_blockX, K_blockY, K_blockZ,
    K_staticSharedMemory, K_dynamicSharedMemory, K_localMemoryPerThread, K_localMemoryTotal,
    K_gridId, K_sharedMemoryExecuted, K_graphNodeId, K_sharedMemoryLimitConfig,
    K_qmdBulkReleaseDone, K_qmdPreexitDone, K_qmdLastCtaDone, K_graphId, K_clusterX, K_clusterY,
    K_clusterZ, K_clusterSchedulingPolicy, K_maxPotentialClusterSize, K_maxActiveClusters,
    K_sharedMemoryRequestedPercentage, K_tensorSizeMinusOneElements, K_count
};
const Col kKernelCols[] = {
    {"start", "INTEGER NOT NULL"},
    {"end", "INTEGER NOT NULL"},
    {"deviceId", "INTEGER NOT NULL"},
    {"contextId", "INTEGER NOT NULL"},
    {"greenContextId", "INTEGER", k3x},
    {"streamId", "INTEGER NOT NULL"},
    {"correlationId", "INTEGER"},
    {"globalPid", "INTEGER"},
    {"demangledName", "INTEGER NOT NULL"},
    {"shortName", "INTEGER NOT NULL"},
    {"mangledName", "INTEGER"},
    {"launchType", "INTEGER"},
    {"cacheConfig", "INTEGER"},
    {"registersPerThread", "INTEGER NOT NULL"},
    {"gridX", "INTEGER NOT NULL"},
    {"gridY", "INTEGER NOT NULL"},
    {"gridZ", "INTEGER NOT NULL"},
    {"blockX", "INTEGER NOT NULL"},
    {"blockY", "INTEGER NOT NULL"},
    {"blockZ", "INTEGER NOT NULL"},
    {"staticSharedMemory", "INTEGER NOT NULL"},
    {"dynamicSharedMemory", "INTEGER NOT NULL"},
    {"localMemoryPerThread", "INTEGER NOT NULL"},
    {"localMemoryTotal", "INTEGER NOT NULL"},
    {"gridId", "INTEGER NOT NULL"},
    {"sharedMemoryExecuted", "INTEGER"},
    {"graphNodeId", "INTEGER"},
    {"sharedMemoryLimitConfig", "INTEGER"},
    {"qmdBulkReleaseDone", "INTEGER", k325},
    {"qmdPreexitDone", "INTEGER", k325},
    {"qmdLastCtaDone", "INTEGER", k325},
    {"graphId", "INTEGER", k325},
    {"clusterX", "INTEGER", k325},
    {"clusterY", "INTEGER", k325},
    {"clusterZ", "INTEGER", k325},
    {"clusterSchedulingPolicy", "INTEGER", k325},
    {"maxPotentialClusterSize", "INTEGER", k325},
    {"maxActiveClusters", "INTEGER", k325},
    {"sharedMemoryRequestedPercentage", "INTEGER", k325},
    {"tensorSizeMinusOneElements", "TEXT NOT NULL", k325},
};
static_assert(std::size(kKernelCols) == K_count);

enum MemcpyCol {
    C_start, C_end, C_deviceId, C_contextId, C_greenContextId, C_streamId, C_correlationId,
    C_globalPid, C_bytes, C_copyKind, C_deprecatedSrcId, C_srcKind, C_dstKind, C_srcDeviceId,
    C_srcContextId, C_dstDeviceId, C_dstContextId, C_migrationCause, C_graphNodeId,
    C_virtualAddress, C_copyCount, C_count
};
const Col kMemcpyCols[] = {
    {"start", "INTEGER NOT NULL"},
    {"end", "INTEGER NOT NULL"},
    {"deviceId", "INTEGER NOT NULL"},
    {"contextId", "INTEGER NOT NULL"},
    {"greenContextId", "INTEGER", k3x},
    {"streamId", "INTEGER NOT NULL"},
    {"correlationId", "INTEGER"},
    {"globalPid", "INTEGER"},
    {"bytes", "INTEGER NOT NULL"},
    {"copyKind", "INTEGER NOT NULL"},
    {"deprecatedSrcId", "INTEGER"},
    {"srcKind", "INTEGER"},
    {"dstKind", "INTEGER"},
    {"srcDeviceId", "INTEGER"},
    {"srcContextId", "INTEGER"},
    {"dstDeviceId", "INTEGER"},
    {"dstContextId", "INTEGER"},
    {"migrationCause", "INTEGER"},
    {"graphNodeId", "INTEGER"},
    {"virtualAddress", "INTEGER"},
    {"copyCount", "INTEGER", k325},
};
static_assert(std::size(kMemcpyCols) == C_count);

enum MemsetCol {
    S_start, S_end, S_deviceId, S_contextId, S_greenContextId, S_streamId, S_correlationId,
    S_globalPid, S_value, S_bytes, S_graphNodeId, S_memKind, S_count
};
const Col kMemsetCols[] = {
    {"start", "INTEGER NOT NULL"},
    {"end", "INTEGER NOT NULL"},
    {"deviceId", "INTEGER NOT NULL"},
    {"contextId", "INTEGER NOT NULL"},
    {"greenContextId", "INTEGER", k3x},
    {"streamId", "INTEGER NOT NULL"},
    {"correlationId", "INTEGER"},
    {"globalPid", "INTEGER"},
    {"value", "INTEGER NOT NULL"},
    {"bytes", "INTEGER NOT NULL"},
    {"graphNodeId", "INTEGER"},
    {"memKind", "INTEGER"},
};
static_assert(std::size(kMemsetCols) == S_count);

enum RuntimeCol {
    R_start, R_end, R_eventClass, R_globalTid, R_correlationId, R_nameId, R_returnValue,
    R_callchainId, R_count
};
const Col kRuntimeCols[] = {
    {"start", "INTEGER NOT NULL"},
    {"end", "INTEGER NOT NULL"},
    {"eventClass", "INTEGER NOT NULL"},
    {"globalTid", "INTEGER"},
    {"correlationId", "INTEGER"},
    {"nameId", "INTEGER NOT NULL"},
    {"returnValue", "INTEGER NOT NULL"},
    {"callchainId", "INTEGER"},
};
static_assert(std::size(kRuntimeCols) == R_count);

enum SyncCol {
    Y_start, Y_end, Y_deviceId, Y_contextId, Y_greenContextId, Y_streamId, Y_correlationId,
    Y_globalPid, Y_deprecatedSyncType, Y_syncType, Y_eventId, Y_eventSyncId, Y_count
};
const Col kSyncCols[] = {
    {"start", "INTEGER NOT NULL"},
    {"end", "INTEGER NOT NULL"},
    {"deviceId", "INTEGER NOT NULL"},
    {"contextId", "INTEGER NOT NULL"},
    {"greenContextId", "INTEGER", k3x},
    {"streamId", "INTEGER NOT NULL"},
    {"correlationId", "INTEGER"},
    {"globalPid", "INTEGER"},
    {"deprecatedSyncType", "INTEGER", k325},
    {"syncType", "INTEGER NOT NULL"},
    {"eventId", "INTEGER NOT NULL"},
    {"eventSyncId", "INTEGER", k325},
};
static_assert(std::size(kSyncCols) == Y_count);

enum NvtxCol {
    N_start, N_end, N_eventType, N_rangeId, N_category, N_color, N_text, N_globalTid,
    N_endGlobalTid, N_textId, N_domainId, N_uint64Value, N_int64Value, N_doubleValue, N_uint32Value,
    N_int32Value, N_floatValue, N_jsonTextId, N_jsonText, N_binaryData, N_count
};
const Col kNvtxCols[] = {
    {"start", "INTEGER NOT NULL"},
    {"end", "INTEGER"},
    {"eventType", "INTEGER NOT NULL"},
    {"rangeId", "INTEGER"},
    {"category", "INTEGER"},
    {"color", "INTEGER"},
    {"text", "TEXT"},
    {"globalTid", "INTEGER"},
    {"endGlobalTid", "INTEGER"},
    {"textId", "INTEGER"},
    {"domainId", "INTEGER"},
    {"uint64Value", "INTEGER"},
    {"int64Value", "INTEGER"},
    {"doubleValue", "REAL"},
    {"uint32Value", "INTEGER"},
    {"int32Value", "INTEGER"},
    {"floatValue", "REAL"},
    {"jsonTextId", "INTEGER"},
    {"jsonText", "TEXT"},
    {"binaryData", "TEXT", k325},
};
static_assert(std::size(kNvtxCols) == N_count);

enum OsrtCol {
    O_start, O_end, O_eventClass, O_globalTid, O_nameId, O_returnValue, O_nestingLevel,
    O_callchainId, O_argumentsId, O_count
};
const Col kOsrtCols[] = {
    {"start", "INTEGER NOT NULL"},
    {"end", "INTEGER NOT NULL"},
    {"eventClass", "INTEGER NOT NULL"},
    {"globalTid", "INTEGER"},
    {"nameId", "INTEGER NOT NULL"},
    {"returnValue", "INTEGER NOT NULL"},
    {"nestingLevel", "INTEGER"},
    {"callchainId", "INTEGER NOT NULL"},
    {"argumentsId", "INTEGER NOT NULL", k325},
};
static_assert(std::size(kOsrtCols) == O_count);

const Col kStringIdsCols[] = {
    {"id", "INTEGER NOT NULL PRIMARY KEY"},
    {"value", "TEXT NOT NULL"},
};
const Col kThreadNamesCols[] = {
    {"nameId", "INTEGER NOT NULL"},
    {"priority", "INTEGER"},
    {"globalTid", "INTEGER"},
};
const Col kProcessesCols[] = {
    {"globalPid", "INTEGER"},
    {"pid", "INTEGER"},
    {"name", "TEXT"},
};
const Col kMetaCols[] = {
    {"name", "TEXT NOT NULL"},
    {"value", "TEXT"},
};
const Col kSessionStartCols[] = {
    {"utcEpochNs", "INTEGER"},
    {"utcTime", "TEXT"},
    {"localTime", "TEXT"},
    {"systemClockNs", "INTEGER", k325},
};
const Col kStreamCols[] = {
    {"streamId", "INTEGER NOT NULL"},
    {"hwId", "INTEGER NOT NULL"},
    {"vmId", "INTEGER NOT NULL"},
    {"processId", "INTEGER NOT NULL"},
    {"contextId", "INTEGER NOT NULL"},
    {"priority", "INTEGER NOT NULL"},
    {"flag", "INTEGER NOT NULL"},
};
const Col kNullStreamCols[] = {
    {"streamId", "INTEGER NOT NULL"},
    {"hwId", "INTEGER NOT NULL"},
    {"vmId", "INTEGER NOT NULL"},
    {"processId", "INTEGER NOT NULL"},
    {"deviceId", "INTEGER NOT NULL"},
    {"contextId", "INTEGER NOT NULL"},
};
const Col kContextInfoCols[] = {
    {"nullStreamId", "INTEGER NOT NULL"},
    {"hwId", "INTEGER NOT NULL"},
    {"vmId", "INTEGER NOT NULL"},
    {"processId", "INTEGER NOT NULL"},
    {"deviceId", "INTEGER NOT NULL"},
    {"contextId", "INTEGER NOT NULL"},
    {"parentContextId", "INTEGER"},
    {"isGreenContext", "INTEGER"},
};
enum GpuCol {
    G_vmId, G_id, G_name, G_busLocation, G_isDiscrete, G_l2CacheSize, G_totalMemory,
    G_memoryBandwidth, G_clockRate, G_smCount, G_pwGpuId, G_uuid, G_luid, G_chipName, G_cuDevice,
    G_ctxswDevPath, G_ctrlDevPath, G_revision, G_nodeMask, G_constantMemory, G_maxIPC,
    G_maxRegistersPerBlock, G_maxShmemPerBlock, G_maxShmemPerBlockOptin, G_maxShmemPerSm,
    G_maxRegistersPerSm, G_threadsPerWarp, G_asyncEngines, G_maxWarpsPerSm, G_maxBlocksPerSm,
    G_maxThreadsPerBlock, G_maxBlockDimX, G_maxBlockDimY, G_maxBlockDimZ, G_maxGridDimX,
    G_maxGridDimY, G_maxGridDimZ, G_computeMajor, G_computeMinor, G_smMajor, G_smMinor, G_count
};
const Col kGpuCols[] = {
    {"vmId", "INTEGER NOT NULL"},
    {"id", "INTEGER NOT NULL"},
    {"name", "TEXT"},
    {"busLocation", "TEXT"},
    {"isDiscrete", "INTEGER"},
    {"l2CacheSize", "INTEGER"},
    {"totalMemory", "INTEGER"},
    {"memoryBandwidth", "INTEGER"},
    {"clockRate", "INTEGER"},
    {"smCount", "INTEGER"},
    {"pwGpuId", "INTEGER"},
    {"uuid", "TEXT"},
    {"luid", "INTEGER"},
    {"chipName", "TEXT"},
    {"cuDevice", "INTEGER"},
    {"ctxswDevPath", "TEXT"},
    {"ctrlDevPath", "TEXT"},
    {"revision", "INTEGER"},
    {"nodeMask", "INTEGER"},
    {"constantMemory", "INTEGER"},
    {"maxIPC", "INTEGER"},
    {"maxRegistersPerBlock", "INTEGER"},
    {"maxShmemPerBlock", "INTEGER"},
    {"maxShmemPerBlockOptin", "INTEGER"},
    {"maxShmemPerSm", "INTEGER"},
    {"maxRegistersPerSm", "INTEGER"},
    {"threadsPerWarp", "INTEGER"},
    {"asyncEngines", "INTEGER"},
    {"maxWarpsPerSm", "INTEGER"},
    {"maxBlocksPerSm", "INTEGER"},
    {"maxThreadsPerBlock", "INTEGER"},
    {"maxBlockDimX", "INTEGER"},
    {"maxBlockDimY", "INTEGER"},
    {"maxBlockDimZ", "INTEGER"},
    {"maxGridDimX", "INTEGER"},
    {"maxGridDimY", "INTEGER"},
    {"maxGridDimZ", "INTEGER"},
    {"computeMajor", "INTEGER"},
    {"computeMinor", "INTEGER"},
    {"smMajor", "INTEGER"},
    {"smMinor", "INTEGER"},
};
static_assert(std::size(kGpuCols) == G_count);
// clang-format on

// One table: created on its first row (nsys exports are lazy), one prepared INSERT, and a map
// from column index to bind slot (0 when this flavor lacks the column).
class Table {
public:
    Table(const char* name, std::span<const Col> cols)
        : m_name(name)
        , m_cols(cols) {}
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;
    ~Table() { close(); }
    void close() {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }

    const char* name() const { return m_name; }
    bool ready() const { return m_stmt != nullptr; }

    // Creates the table and prepares its INSERT. False on SQLite failure.
    bool create(sqlite3* db, unsigned flavor) {
        std::string ddl = std::string("CREATE TABLE ") + m_name + " (\n";
        std::string cols, params;
        m_slot.assign(m_cols.size(), 0);
        int n = 0;
        for (std::size_t i = 0; i < m_cols.size(); ++i) {
            if (!(m_cols[i].flavors & flavor))
                continue;
            if (n > 0) {
                ddl += ",\n";
                cols += ", ";
                params += ", ";
            }
            ddl += "    ";
            ddl += m_cols[i].name;
            ddl += std::string(
                28 > std::strlen(m_cols[i].name) ? 28 - std::strlen(m_cols[i].name) : 1, ' ');
            ddl += m_cols[i].type;
            cols += m_cols[i].name;
            params += '?';
            m_slot[i] = ++n;
        }
        ddl += "\n)";
        if (sqlite3_exec(db, ddl.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
            return false;
        const std::string insert =
            std::string("INSERT INTO ") + m_name + " (" + cols + ") VALUES (" + params + ")";
        return sqlite3_prepare_v3(db, insert.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &m_stmt,
                                  nullptr) == SQLITE_OK;
    }

    void i64(int col, std::int64_t v) {
        if (const int s = m_slot[col])
            sqlite3_bind_int64(m_stmt, s, v);
    }
    template <typename T> void opt(int col, const std::optional<T>& v) {
        if (v)
            i64(col, std::int64_t(*v));
        else
            null(col);
    }
    void null(int col) {
        if (const int s = m_slot[col])
            sqlite3_bind_null(m_stmt, s);
    }
    // The string must outlive step().
    void text(int col, const std::string& v) {
        if (const int s = m_slot[col])
            sqlite3_bind_text(m_stmt, s, v.data(), int(v.size()), SQLITE_STATIC);
    }
    void textCopy(int col, const char* v) {
        if (const int s = m_slot[col])
            sqlite3_bind_text(m_stmt, s, v, -1, SQLITE_TRANSIENT);
    }
    // Runs the INSERT; the SQLite result code (SQLITE_DONE on success).
    int step() {
        const int rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        return rc;
    }

private:
    const char* m_name;
    std::span<const Col> m_cols;
    sqlite3_stmt* m_stmt = nullptr;
    std::vector<int> m_slot;
};

std::string utcString(std::int64_t epochNs) {
    const std::time_t secs = std::time_t(epochNs / 1000000000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

} // namespace

struct Writer::Impl {
    std::string path, tmpPath;
    SchemaFlavor flavor = SchemaFlavor::V3_25;
    unsigned flavorBit = k325;
    sqlite3* db = nullptr;
    bool committed = false;
    std::string firstError; // the first failure while adding rows, reported by commit()

    std::unordered_map<std::string, std::int64_t> stringIds;
    std::vector<const std::string*> stringsInOrder;

    Metadata meta;
    std::vector<ProcessRow> processes;
    std::vector<ThreadRow> threads;
    std::vector<GpuRow> gpus;
    std::vector<StreamRow> streams;
    // (pid, contextId) -> deviceId, for the per-context null-stream table.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> contexts;
    std::pair<std::uint32_t, std::uint32_t> lastContext{~0u, ~0u};
    std::int64_t nextGridId = 1;

    Table kernels{"CUPTI_ACTIVITY_KIND_KERNEL", kKernelCols};
    Table memcpys{"CUPTI_ACTIVITY_KIND_MEMCPY", kMemcpyCols};
    Table memsets{"CUPTI_ACTIVITY_KIND_MEMSET", kMemsetCols};
    Table runtime{"CUPTI_ACTIVITY_KIND_RUNTIME", kRuntimeCols};
    Table syncs{"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", kSyncCols};
    Table nvtx{"NVTX_EVENTS", kNvtxCols};
    Table osrt{"OSRT_API", kOsrtCols};

    ~Impl() {
        closeDb();
        if (!committed && !tmpPath.empty())
            std::remove(tmpPath.c_str());
    }

    void closeDb() {
        // Statements must go before the connection closes.
        for (Table* t : {&kernels, &memcpys, &memsets, &runtime, &syncs, &nvtx, &osrt})
            t->close();
        if (db) {
            sqlite3_close(db);
            db = nullptr;
        }
    }

    bool ok() const { return db && firstError.empty(); }

    void fail(const char* what) {
        if (!firstError.empty())
            return;
        const char* why = db ? sqlite3_errmsg(db) : "no database";
        firstError = "Cannot write " + path + ": " + what + " failed (" + why + ").";
    }

    std::int64_t intern(const std::string& s) {
        auto [it, inserted] = stringIds.try_emplace(s, std::int64_t(stringsInOrder.size()));
        if (inserted)
            stringsInOrder.push_back(&it->first);
        return it->second;
    }

    // Ensures the table exists; false when the writer has already failed.
    bool begin(Table& t) {
        if (!ok())
            return false;
        if (!t.ready() && !t.create(db, flavorBit)) {
            fail((std::string("creating ") + t.name()).c_str());
            return false;
        }
        return true;
    }

    void finish(Table& t) {
        const int rc = t.step();
        if (rc == SQLITE_DONE)
            return;
        if (rc == SQLITE_FULL)
            firstError = "Cannot write " + path + ": the disk is full.";
        else
            fail((std::string("inserting into ") + t.name()).c_str());
    }

    // Writes the shared leading columns of a kernel, memcpy, memset or sync row (greenContextId
    // is left to the caller) and notes the row's context.
    template <typename Row> void writeActivityHead(Table& t, const Row& r);

    void noteContext(std::uint32_t pid, std::uint32_t contextId, std::uint32_t deviceId) {
        const std::pair key{pid, contextId};
        if (key == lastContext)
            return;
        lastContext = key;
        contexts.try_emplace(key, deviceId);
    }

    bool exec(const char* sql) {
        if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK)
            return true;
        fail(sql);
        return false;
    }

    void writeSmallTables();
    void writeMetadata();
};

Writer::Writer(std::unique_ptr<Impl> impl)
    : d(std::move(impl)) {}

Writer::~Writer() = default;

std::unique_ptr<Writer> Writer::create(const std::string& path, SchemaFlavor flavor,
                                       std::string* error) {
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    impl->flavor = flavor;
    impl->flavorBit = flavorBit(flavor);

    // Not mkstemp: its 0600 mode would survive the rename; O_EXCL with 0666 honours the umask.
    std::string tmpl;
    int fd = -1;
    static std::atomic<std::uint32_t> counter{0};
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        const std::uint64_t mix = (std::uint64_t(getpid()) << 32) ^
                                  std::uint64_t(std::time(nullptr)) ^
                                  (std::uint64_t(counter++) * 0x9E3779B97F4A7C15ull);
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "%06llx",
                      static_cast<unsigned long long>((mix ^ (mix >> 29)) & 0xFFFFFF));
        tmpl = path + ".tmp-" + suffix;
        fd = open(tmpl.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        if (error)
            *error =
                "Cannot create a temporary file beside " + path + ": " + std::strerror(errno) + ".";
        return nullptr;
    }
    close(fd);
    impl->tmpPath = tmpl;

    if (sqlite3_open_v2(tmpl.c_str(), &impl->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        if (error)
            *error = "Cannot open a temporary database beside " + path + ": " +
                     (impl->db ? sqlite3_errmsg(impl->db) : "out of memory") + ".";
        return nullptr;
    }
    // A private temp file renamed at the end: no journal, no fsync, no locking needed.
    const char* setup = "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                        "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-65536; "
                        "PRAGMA temp_store=MEMORY; BEGIN";
    if (!impl->exec(setup)) {
        if (error)
            *error = impl->firstError;
        return nullptr;
    }
    return std::unique_ptr<Writer>(new Writer(std::move(impl)));
}

void Writer::setMetadata(const Metadata& meta) {
    d->meta = meta;
}
void Writer::addProcess(const ProcessRow& r) {
    d->processes.push_back(r);
}
void Writer::addThread(const ThreadRow& r) {
    d->threads.push_back(r);
}
void Writer::addGpu(const GpuRow& r) {
    d->gpus.push_back(r);
}
void Writer::addStream(const StreamRow& r) {
    d->streams.push_back(r);
}

// The leading columns every CUPTI activity table shares (kernel, memcpy, memset, sync), at the
// same positions in each.
enum ActivityHeadCol {
    A_start,
    A_end,
    A_deviceId,
    A_contextId,
    A_greenContextId,
    A_streamId,
    A_correlationId,
    A_globalPid
};
static_assert(int(K_globalPid) == int(A_globalPid) && int(C_globalPid) == int(A_globalPid) &&
              int(S_globalPid) == int(A_globalPid) && int(Y_globalPid) == int(A_globalPid));

template <typename Row> void Writer::Impl::writeActivityHead(Table& t, const Row& r) {
    noteContext(r.pid, r.contextId, r.deviceId);
    t.i64(A_start, r.start);
    t.i64(A_end, r.end);
    t.i64(A_deviceId, r.deviceId);
    t.i64(A_contextId, r.contextId);
    t.i64(A_streamId, r.streamId);
    t.opt(A_correlationId, r.correlationId);
    t.i64(A_globalPid, globalPid(r.pid));
}

void Writer::addKernel(const KernelRow& r) {
    Table& t = d->kernels;
    if (!d->begin(t))
        return;
    const std::int64_t shortId = d->intern(r.shortName);
    const std::int64_t demangledId = r.demangledName.empty() ? shortId : d->intern(r.demangledName);
    const std::int64_t mangledId = r.mangledName.empty() ? shortId : d->intern(r.mangledName);
    d->writeActivityHead(t, r);
    t.i64(K_greenContextId, 0);
    t.i64(K_demangledName, demangledId);
    t.i64(K_shortName, shortId);
    t.i64(K_mangledName, mangledId);
    t.i64(K_launchType, r.launchType);
    t.i64(K_cacheConfig, r.cacheConfig);
    t.i64(K_registersPerThread, r.registersPerThread);
    t.i64(K_gridX, r.grid[0]);
    t.i64(K_gridY, r.grid[1]);
    t.i64(K_gridZ, r.grid[2]);
    t.i64(K_blockX, r.block[0]);
    t.i64(K_blockY, r.block[1]);
    t.i64(K_blockZ, r.block[2]);
    t.i64(K_staticSharedMemory, r.staticShared);
    t.i64(K_dynamicSharedMemory, r.dynamicShared);
    t.i64(K_localMemoryPerThread, r.localPerThread);
    t.i64(K_localMemoryTotal, std::int64_t(r.localTotal));
    t.i64(K_gridId, d->nextGridId++);
    t.i64(K_sharedMemoryExecuted, r.sharedMemoryExecuted);
    t.opt(K_graphNodeId, r.graphNodeId);
    t.i64(K_sharedMemoryLimitConfig, r.sharedMemLimitConfig);
    // 3.25 columns, as nsys 2026.2 writes them for a kernel without clusters or TMA.
    t.i64(K_clusterX, 0);
    t.i64(K_clusterY, 0);
    t.i64(K_clusterZ, 0);
    t.i64(K_clusterSchedulingPolicy, 1);
    t.i64(K_maxPotentialClusterSize, 0);
    t.i64(K_maxActiveClusters, 0);
    static const std::string emptyArray = "[]";
    t.text(K_tensorSizeMinusOneElements, emptyArray);
    d->finish(t);
}

void Writer::addMemcpy(const MemcpyRow& r) {
    Table& t = d->memcpys;
    if (!d->begin(t))
        return;
    d->writeActivityHead(t, r);
    t.i64(C_greenContextId, 0);
    t.i64(C_bytes, std::int64_t(r.bytes));
    t.i64(C_copyKind, r.copyKind);
    t.i64(C_srcKind, r.srcKind);
    t.i64(C_dstKind, r.dstKind);
    t.opt(C_srcDeviceId, r.srcDeviceId);
    t.opt(C_dstDeviceId, r.dstDeviceId);
    if (r.srcDeviceId)
        t.i64(C_srcContextId, r.contextId);
    else
        t.null(C_srcContextId);
    if (r.dstDeviceId)
        t.i64(C_dstContextId, r.contextId);
    else
        t.null(C_dstContextId);
    t.opt(C_migrationCause, r.migrationCause);
    t.opt(C_virtualAddress, r.virtualAddress);
    t.i64(C_copyCount, 1);
    d->finish(t);
}

void Writer::addMemset(const MemsetRow& r) {
    Table& t = d->memsets;
    if (!d->begin(t))
        return;
    d->writeActivityHead(t, r);
    t.i64(S_greenContextId, 0);
    t.i64(S_value, r.value);
    t.i64(S_bytes, std::int64_t(r.bytes));
    t.i64(S_memKind, r.memKind);
    d->finish(t);
}

void Writer::addApiCall(const ApiCallRow& r) {
    Table& t = d->runtime;
    if (!d->begin(t))
        return;
    t.i64(R_start, r.start);
    t.i64(R_end, r.end);
    t.i64(R_eventClass, r.eventClass);
    t.i64(R_globalTid, globalTid(r.pid, r.tid));
    t.i64(R_correlationId, r.correlationId);
    t.i64(R_nameId, d->intern(r.name));
    t.i64(R_returnValue, r.returnValue);
    d->finish(t);
}

void Writer::addSync(const SyncRow& r) {
    Table& t = d->syncs;
    if (!d->begin(t))
        return;
    d->writeActivityHead(t, r);
    t.i64(Y_syncType, r.syncType);
    t.i64(Y_eventId, r.eventId);
    d->finish(t);
}

void Writer::addNvtx(const NvtxRow& r) {
    Table& t = d->nvtx;
    if (!d->begin(t))
        return;
    t.i64(N_start, r.start);
    t.opt(N_end, r.end);
    t.i64(N_eventType, r.eventType);
    t.opt(N_rangeId, r.rangeId);
    t.opt(N_category, r.category);
    t.opt(N_color, r.color);
    if (r.registered) {
        t.null(N_text);
        t.i64(N_textId, d->intern(r.text));
    } else {
        t.text(N_text, r.text);
        t.null(N_textId);
    }
    t.i64(N_globalTid, globalTid(r.pid, r.tid));
    if (r.endTid)
        t.i64(N_endGlobalTid, globalTid(r.pid, *r.endTid));
    else
        t.null(N_endGlobalTid);
    // nsys writes 0, not NULL, for the default domain.
    t.i64(N_domainId, std::int64_t(r.domainId.value_or(0)));
    d->finish(t);
}

void Writer::addOsrt(const OsrtRow& r) {
    Table& t = d->osrt;
    if (!d->begin(t))
        return;
    t.i64(O_start, r.start);
    t.i64(O_end, r.end);
    t.i64(O_eventClass, 27); // OS runtime call
    t.i64(O_globalTid, globalTid(r.pid, r.tid));
    t.i64(O_nameId, d->intern(r.name));
    t.i64(O_returnValue, r.returnValue);
    t.i64(O_nestingLevel, r.nestingLevel);
    t.i64(O_callchainId, 0);
    t.i64(O_argumentsId, 0);
    d->finish(t);
}

void Writer::Impl::writeSmallTables() {
    if (!processes.empty()) {
        Table t("PROCESSES", kProcessesCols);
        if (!begin(t))
            return;
        for (const ProcessRow& p : processes) {
            t.i64(0, globalPid(p.pid));
            t.i64(1, p.pid);
            t.text(2, p.name);
            finish(t);
        }
    }
    if (!threads.empty()) {
        Table t("ThreadNames", kThreadNamesCols);
        if (!begin(t))
            return;
        for (const ThreadRow& th : threads) {
            t.i64(0, intern(th.name));
            t.i64(1, 20); // the default nice-level priority nsys reports
            t.i64(2, globalTid(th.pid, th.tid));
            finish(t);
        }
    }
    if (!gpus.empty()) {
        Table t("TARGET_INFO_GPU", kGpuCols);
        if (!begin(t))
            return;
        for (const GpuRow& g : gpus) {
            t.i64(G_vmId, 0);
            t.i64(G_id, g.id);
            t.text(G_name, g.name);
            t.text(G_busLocation, g.busLocation);
            t.i64(G_isDiscrete, 1);
            t.i64(G_totalMemory, std::int64_t(g.totalMemory));
            t.i64(G_memoryBandwidth, std::int64_t(g.memoryBandwidth));
            t.i64(G_clockRate, std::int64_t(g.clockRate));
            t.i64(G_smCount, g.smCount);
            t.i64(G_pwGpuId, g.id);
            t.i64(G_luid, 0);
            t.i64(G_cuDevice, g.id);
            t.i64(G_nodeMask, 0);
            t.i64(G_constantMemory, 65536);
            t.i64(G_maxRegistersPerBlock, g.maxRegistersPerBlock);
            t.i64(G_maxShmemPerBlock, g.maxShmemPerBlock);
            t.i64(G_maxShmemPerBlockOptin, g.maxShmemPerBlockOptin);
            t.i64(G_maxShmemPerSm, g.maxShmemPerSm);
            t.i64(G_maxRegistersPerSm, g.maxRegistersPerSm);
            t.i64(G_threadsPerWarp, g.threadsPerWarp);
            t.i64(G_maxWarpsPerSm, g.maxWarpsPerSm);
            t.i64(G_maxBlocksPerSm, g.maxBlocksPerSm);
            t.i64(G_maxThreadsPerBlock, g.maxThreadsPerBlock);
            t.i64(G_maxBlockDimX, 1024);
            t.i64(G_maxBlockDimY, 1024);
            t.i64(G_maxBlockDimZ, 64);
            t.i64(G_maxGridDimX, 2147483647);
            t.i64(G_maxGridDimY, 65535);
            t.i64(G_maxGridDimZ, 65535);
            t.i64(G_computeMajor, g.computeMajor);
            t.i64(G_computeMinor, g.computeMinor);
            t.i64(G_smMajor, g.computeMajor);
            t.i64(G_smMinor, g.computeMinor);
            finish(t);
        }
    }
    if (!streams.empty()) {
        Table t("TARGET_INFO_CUDA_STREAM", kStreamCols);
        if (!begin(t))
            return;
        for (const StreamRow& s : streams) {
            t.i64(0, s.streamId);
            t.i64(1, 0);
            t.i64(2, 0);
            t.i64(3, s.pid);
            t.i64(4, s.contextId);
            t.i64(5, std::int64_t(std::uint32_t(s.priority))); // nsys stores it unsigned
            t.i64(6, s.flag);
            finish(t);
            noteContext(s.pid, s.contextId, ~0u);
        }
    }
    // One row per context. The null stream is the one flagged as such, else the legacy
    // default stream id 7 that CUDA assigns.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> nullStreams;
    for (const StreamRow& s : streams)
        if (s.flag == 3)
            nullStreams.try_emplace({s.pid, s.contextId}, s.streamId);
    bool any = false;
    for (const auto& [key, device] : contexts)
        any = any || device != ~0u;
    if (any) {
        const bool v29 = flavor == SchemaFlavor::V2_9;
        Table t(v29 ? "TARGET_INFO_CUDA_NULL_STREAM" : "TARGET_INFO_CUDA_CONTEXT_INFO",
                v29 ? std::span<const Col>(kNullStreamCols)
                    : std::span<const Col>(kContextInfoCols));
        if (!begin(t))
            return;
        for (const auto& [key, device] : contexts) {
            if (device == ~0u)
                continue; // a stream with no GPU activity: its device is unknown
            const auto ns = nullStreams.find(key);
            t.i64(0, ns != nullStreams.end() ? ns->second : 7);
            t.i64(1, 0);
            t.i64(2, 0);
            t.i64(3, key.first);
            t.i64(4, device);
            t.i64(5, key.second);
            finish(t);
        }
    }
    if (meta.sessionStartUtcNs) {
        Table t("TARGET_INFO_SESSION_START_TIME", kSessionStartCols);
        if (!begin(t))
            return;
        const std::string utc = utcString(*meta.sessionStartUtcNs);
        t.i64(0, *meta.sessionStartUtcNs);
        t.text(1, utc);
        t.text(2, utc);
        finish(t);
    }
}

void Writer::Impl::writeMetadata() {
    const bool v29 = flavor == SchemaFlavor::V2_9;
    const char* version = v29 ? "2.9.1" : flavor == SchemaFlavor::V3_13 ? "3.13.2" : "3.25.0";
    const std::string productVersion =
        meta.productVersion.empty() ? std::string(STROBE_VERSION) : meta.productVersion;
    std::vector<std::pair<std::string, std::string>> rows = {
        {"EXPORT_PRODUCT_NAME", meta.productName},
        {"EXPORT_PRODUCT_VERSION", productVersion},
        {"EXPORT_SCHEMA_VERSION", version},
    };
    {
        std::string v = version;
        const auto dot1 = v.find('.'), dot2 = v.rfind('.');
        rows.emplace_back("EXPORT_SCHEMA_VERSION_MAJOR", v.substr(0, dot1));
        rows.emplace_back("EXPORT_SCHEMA_VERSION_MINOR", v.substr(dot1 + 1, dot2 - dot1 - 1));
        rows.emplace_back("EXPORT_SCHEMA_VERSION_MICRO", v.substr(dot2 + 1));
    }
    rows.emplace_back(v29 ? "EXPORT_LAZY" : "EXPORT_PARAM_LAZY", "true");

    Table exportTable(v29 ? "EXPORT_META_DATA" : "META_DATA_EXPORT", kMetaCols);
    if (!begin(exportTable))
        return;
    for (const auto& [name, value] : rows) {
        exportTable.text(0, name);
        exportTable.text(1, value);
        finish(exportTable);
    }
    if (v29)
        return; // 2.x exports have no capture table
    Table capture("META_DATA_CAPTURE", kMetaCols);
    if (!begin(capture))
        return;
    std::vector<std::pair<std::string, std::string>> caps;
    for (std::size_t i = 0; i < meta.command.size(); ++i)
        caps.emplace_back(i == 0 ? std::string("PROCESS_0:COMMAND")
                                 : "PROCESS_0:ARGUMENT_" + std::to_string(i - 1),
                          meta.command[i]);
    caps.insert(caps.end(), meta.captureInfo.begin(), meta.captureInfo.end());
    for (const auto& [name, value] : caps) {
        capture.text(0, name);
        capture.text(1, value);
        finish(capture);
    }
}

bool Writer::commit(std::string* error) {
    auto failWith = [&](const std::string& msg) {
        if (error)
            *error = msg;
        d->closeDb();
        std::remove(d->tmpPath.c_str());
        d->tmpPath.clear();
        return false;
    };
    if (d->committed) {
        if (error)
            *error = "The trace " + d->path + " was already committed.";
        return false;
    }

    d->writeSmallTables();
    d->writeMetadata();
    if (d->ok()) {
        // StringIds last: every table above may have interned names.
        Table t("StringIds", kStringIdsCols);
        if (d->begin(t)) {
            for (std::size_t i = 0; i < d->stringsInOrder.size() && d->ok(); ++i) {
                t.i64(0, std::int64_t(i));
                t.text(1, *d->stringsInOrder[i]);
                d->finish(t);
            }
        }
    }
    if (d->ok())
        d->exec("COMMIT");
    if (!d->ok())
        return failWith(d->firstError);

    d->closeDb();
    if (std::rename(d->tmpPath.c_str(), d->path.c_str()) != 0)
        return failWith("Cannot move the finished trace into place at " + d->path + ": " +
                        std::strerror(errno) + ".");
    d->committed = true;
    return true;
}

} // namespace strobe::nsys
