// SPDX-License-Identifier: MIT
#include "tests/support/sqlitequery.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sqlite3.h>
#include <stdexcept>

namespace strobe::test {

std::string fixturePath(const std::string& name) {
    return std::string(STROBE_FIXTURES_DIR) + "/nsys/" + name;
}

std::vector<std::string> nsysFixtures() {
    std::vector<std::string> out;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(STROBE_FIXTURES_DIR) + "/nsys")) {
        if (e.path().extension() == ".sqlite")
            out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::vector<std::string>> query(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        throw std::runtime_error("cannot open " + path);
    }
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
        std::string msg = sqlite3_errmsg(db);
        sqlite3_close(db);
        throw std::runtime_error("bad SQL: " + msg + ": " + sql);
    }
    std::vector<std::vector<std::string>> rows;
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int i = 0; i < sqlite3_column_count(st); ++i) {
            const auto* t = sqlite3_column_text(st, i);
            row.emplace_back(t ? reinterpret_cast<const char*>(t) : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

void exec(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        sqlite3_close(db);
        throw std::runtime_error("cannot open " + path);
    }
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    const std::string msg = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    if (rc != SQLITE_OK)
        throw std::runtime_error("SQL failed: " + msg + ": " + sql);
}

std::int64_t queryInt(const std::string& path, const std::string& sql) {
    const auto rows = query(path, sql);
    return rows.empty() || rows[0].empty() || rows[0][0].empty() ? 0 : std::stoll(rows[0][0]);
}

void damageTable(const std::string& path, const std::string& table) {
    const std::int64_t root = queryInt(
        path, "SELECT rootpage FROM sqlite_master WHERE type='table' AND name='" + table + "'");
    const std::int64_t pageSize = queryInt(path, "PRAGMA page_size");
    if (root < 1 || pageSize < 512)
        throw std::runtime_error("no table " + table + " in " + path);
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff((root - 1) * pageSize));
    const std::string garbage(std::size_t(pageSize), '\xff');
    f.write(garbage.data(), std::streamsize(garbage.size()));
    if (!f)
        throw std::runtime_error("cannot write " + path);
}

bool hasTable(const std::string& path, const std::string& table) {
    return queryInt(path, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='" +
                              table + "'") > 0;
}

bool hasColumn(const std::string& path, const std::string& table, const std::string& column) {
    for (const auto& row : query(path, "PRAGMA table_info(" + table + ")")) {
        if (row.size() > 1 && row[1] == column)
            return true;
    }
    return false;
}

} // namespace strobe::test
