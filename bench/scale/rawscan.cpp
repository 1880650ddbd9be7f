// SPDX-License-Identifier: MIT
#include "bench/scale/rawscan.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <set>
#include <sqlite3.h>
#include <string_view>
#include <thread>
#include <vector>

namespace strobe::bench {

namespace {

struct TableColumns {
    const char* table;
    std::vector<const char*> columns; // those that exist are read, as the loader does
    std::set<std::string> text;       // read as text (inline strings)
};

// The columns NsysSqliteLoader selects, table by table (model/nsyssqliteloader.cpp).
const std::vector<TableColumns>& loaderColumns() {
    static const std::vector<TableColumns> tables = {
        {"StringIds", {"id", "value"}, {"value"}},
        {"CUPTI_ACTIVITY_KIND_KERNEL",
         {"start",
          "end",
          "deviceId",
          "contextId",
          "streamId",
          "shortName",
          "correlationId",
          "globalPid",
          "demangledName",
          "mangledName",
          "launchType",
          "cacheConfig",
          "registersPerThread",
          "gridX",
          "gridY",
          "gridZ",
          "blockX",
          "blockY",
          "blockZ",
          "staticSharedMemory",
          "dynamicSharedMemory",
          "localMemoryPerThread",
          "localMemoryTotal",
          "sharedMemoryExecuted",
          "graphNodeId",
          "sharedMemoryLimitConfig"},
         {}},
        {"CUPTI_ACTIVITY_KIND_MEMCPY",
         {"start", "end", "deviceId", "contextId", "streamId", "bytes", "copyKind", "correlationId",
          "globalPid", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId", "migrationCause"},
         {}},
        {"CUPTI_ACTIVITY_KIND_MEMSET",
         {"start", "end", "deviceId", "contextId", "streamId", "bytes", "correlationId",
          "globalPid", "value", "memKind"},
         {}},
        {"CUPTI_ACTIVITY_KIND_RUNTIME",
         {"start", "end", "globalTid", "correlationId", "nameId", "eventClass", "returnValue"},
         {}},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
         {"start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid",
          "syncType"},
         {}},
        {"NVTX_EVENTS",
         {"start", "eventType", "end", "globalTid", "endGlobalTid", "text", "textId", "domainId",
          "color", "category"},
         {"text"}},
        {"OSRT_API",
         {"start", "end", "globalTid", "nameId", "eventClass", "returnValue", "nestingLevel"},
         {}},
    };
    return tables;
}

std::set<std::string> existingColumns(sqlite3* db, const char* table) {
    std::set<std::string> out;
    sqlite3_stmt* st = nullptr;
    const std::string sql = std::string("PRAGMA table_info(\"") + table + "\")";
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        return out;
    while (sqlite3_step(st) == SQLITE_ROW)
        out.insert(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)));
    sqlite3_finalize(st);
    return out;
}

// The loader's columns of `table` (one of loaderColumns()).
const TableColumns& loaderTable(std::string_view table) {
    const auto& all = loaderColumns();
    return *std::find_if(all.begin(), all.end(),
                         [&](const TableColumns& t) { return t.table == table; });
}

// Opens `path` as the loader does; null where it cannot.
sqlite3* openReadOnly(const std::string& path) {
    sqlite3* db = nullptr;
    const std::string uri = "file:" + path + "?mode=ro&immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return nullptr;
    }
    return db;
}

constexpr std::pair<std::int64_t, std::int64_t> kAll{std::numeric_limits<std::int64_t>::min(),
                                                     std::numeric_limits<std::int64_t>::max()};

// Reads the columns of `t` that exist from the rows whose rowid is in [from, to) into `r`, or
// from every row for kAll.
void scanTable(sqlite3* db, const TableColumns& t, std::int64_t from, std::int64_t to,
               RawScanResult& r) {
    const std::set<std::string> have = existingColumns(db, t.table);
    if (have.empty())
        return;
    std::string sql = "SELECT ";
    std::vector<bool> isText;
    for (const char* c : t.columns) {
        if (!have.count(c))
            continue;
        if (!isText.empty())
            sql += ',';
        sql += std::string("\"") + c + '"';
        isText.push_back(t.text.count(c) > 0);
    }
    sql += std::string(" FROM ") + t.table;
    if (from != kAll.first || to != kAll.second)
        sql += " WHERE rowid >= " + std::to_string(from) + " AND rowid < " + std::to_string(to);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        return;
    const int n = int(isText.size());
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int c = 0; c < n; ++c) {
            if (isText[std::size_t(c)]) {
                const unsigned char* s = sqlite3_column_text(st, c);
                r.checksum += s ? std::uint64_t(sqlite3_column_bytes(st, c)) + s[0] : 0;
            } else {
                r.checksum += std::uint64_t(sqlite3_column_int64(st, c));
            }
        }
        ++r.rows;
    }
    sqlite3_finalize(st);
}

std::int64_t maxRowid(sqlite3* db, const char* table) {
    sqlite3_stmt* st = nullptr;
    const std::string sql = std::string("SELECT max(rowid) FROM ") + table;
    std::int64_t max = 0;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        max = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return max;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

RawScanResult rawScan(const std::string& path) {
    RawScanResult r;
    const auto t0 = std::chrono::steady_clock::now();
    sqlite3* db = openReadOnly(path);
    if (!db)
        return r;
    for (const TableColumns& t : loaderColumns())
        scanTable(db, t, kAll.first, kAll.second, r);
    sqlite3_close(db);
    r.seconds = secondsSince(t0);
    return r;
}

RawScanResult rawGpuPictureScan(const std::string& path, int threads) {
    // The columns of the quick pass (NsysSqliteLoader::Impl::readKernels without the launch
    // details; the memcpys and memsets whole).
    static const std::vector<TableColumns> tables = {
        {"CUPTI_ACTIVITY_KIND_KERNEL",
         {"start", "end", "deviceId", "contextId", "streamId", "shortName", "globalPid",
          "demangledName"},
         {}},
        loaderTable("CUPTI_ACTIVITY_KIND_MEMCPY"),
        loaderTable("CUPTI_ACTIVITY_KIND_MEMSET"),
    };
    RawScanResult total;
    const auto t0 = std::chrono::steady_clock::now();
    threads = std::max(1, threads);
    for (const TableColumns& t : tables) {
        std::int64_t max = 0;
        if (sqlite3* db = openReadOnly(path)) {
            max = maxRowid(db, t.table);
            sqlite3_close(db);
        }
        const std::int64_t share = max / threads + 1;
        std::vector<RawScanResult> parts(std::size_t(threads), RawScanResult{});
        std::vector<std::thread> workers;
        for (int k = 0; k < threads; ++k)
            workers.emplace_back([&, k] {
                if (sqlite3* db = openReadOnly(path)) {
                    scanTable(db, t, k == 0 ? kAll.first : k * share,
                              k + 1 == threads ? kAll.second : (k + 1) * share,
                              parts[std::size_t(k)]);
                    sqlite3_close(db);
                }
            });
        for (std::thread& w : workers)
            w.join();
        for (const RawScanResult& p : parts) {
            total.rows += p.rows;
            total.checksum += p.checksum;
        }
    }
    total.seconds = secondsSince(t0);
    return total;
}

} // namespace strobe::bench
