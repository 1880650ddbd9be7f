// SPDX-License-Identifier: MIT
#include "bench/scale/rawscan.h"

#include <chrono>
#include <set>
#include <sqlite3.h>
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

} // namespace

RawScanResult rawScan(const std::string& path) {
    RawScanResult r;
    const auto t0 = std::chrono::steady_clock::now();
    sqlite3* db = nullptr;
    const std::string uri = "file:" + path + "?mode=ro&immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return r;
    }
    for (const TableColumns& t : loaderColumns()) {
        const std::set<std::string> have = existingColumns(db, t.table);
        if (have.empty())
            continue;
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
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
            continue;
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
    sqlite3_close(db);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace strobe::bench
