// SPDX-License-Identifier: MIT
#pragma once

// The nsys writer's internals, shared by the files that write its tables: nsyswriter.cpp (the
// connection, the temporary file, commit), nsyswritergpu.cpp (kernels, memcpys, memsets, syncs),
// nsyswritercpu.cpp (API calls, NVTX, OS runtime calls) and nsyswritertarget.cpp (processes,
// threads, GPUs, streams, contexts, metadata). Not part of the writer's API.

#include "formats/nsys/schema/nsysschema.h"
#include "formats/nsys/writer/nsyswriter.h"

#include <sqlite3.h>

#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strobe::nsys {
namespace writer {

// The schema's version bit of a flavor: which columns and tables it carries.
inline unsigned versionBit(SchemaFlavor f) {
    switch (f) {
    case SchemaFlavor::V2_9:
        return schema::kV2_9;
    case SchemaFlavor::V3_13:
        return schema::kV3_13;
    case SchemaFlavor::V3_25:
        return schema::kV3_25;
    }
    return schema::kV3_25;
}

// One table: created on its first row (nsys exports are lazy), one prepared INSERT, and a map
// from the schema's column id to bind slot (0 when this flavor lacks the column).
class Table {
public:
    Table(std::string_view name, std::span<const schema::Column> cols)
        : m_name(name)
        , m_cols(cols) {}
    // A schema table under its own name.
    template <typename T>
    explicit Table(T)
        : Table(T::table, T::columns) {}
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;
    ~Table() { close(); }
    void close() {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }

    std::string_view name() const { return m_name; }
    bool ready() const { return m_stmt != nullptr; }

    // Creates the table with the columns of `versionBit` and prepares its INSERT. False on
    // SQLite failure.
    bool create(sqlite3* db, unsigned versionBit);

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
    // Runs the INSERT; the SQLite result code (SQLITE_DONE on success).
    int step() {
        const int rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        return rc;
    }

private:
    std::string_view m_name;
    std::span<const schema::Column> m_cols;
    sqlite3_stmt* m_stmt = nullptr;
    std::vector<int> m_slot;
};

// "2026-01-01T00:00:00" for a UTC time in ns since the epoch.
std::string utcString(std::int64_t epochNs);

} // namespace writer

struct Writer::Impl {
    using Table = writer::Table;

    std::string path, tmpPath;
    SchemaFlavor flavor = SchemaFlavor::V3_25;
    unsigned versionBit = schema::kV3_25;
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

    Table kernels{schema::Kernel{}};
    Table memcpys{schema::Memcpy{}};
    Table memsets{schema::Memset{}};
    Table runtime{schema::Runtime{}};
    Table syncs{schema::Sync{}};
    Table nvtx{schema::Nvtx{}};
    Table osrt{schema::Osrt{}};

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

    void fail(std::string_view what) {
        if (!firstError.empty())
            return;
        const char* why = db ? sqlite3_errmsg(db) : "no database";
        firstError = "Cannot write " + path + ": ";
        firstError.append(what);
        firstError += std::string(" failed (") + why + ").";
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
        if (!t.ready() && !t.create(db, versionBit)) {
            fail(std::string("creating ").append(t.name()));
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
            fail(std::string("inserting into ").append(t.name()));
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

    // At commit: the tables that describe the target, and the metadata.
    void writeSmallTables();
    void writeContexts(); // TARGET_INFO_CUDA_NULL_STREAM (2.x) or _CONTEXT_INFO (3.x)
    void writeMetadata();
};

} // namespace strobe::nsys
