// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace strobe {

// Thin RAII wrapper over a read-only sqlite3 connection: table and column probing by name.
class SqliteDb {
public:
    SqliteDb() = default;
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    // Opens read-only and immutable (no locks, no journal). False with `error` set on failure.
    bool open(const QString& path, QString* error);
    sqlite3* handle() const { return m_db; }

    bool hasTable(const QString& table) const;
    // Column names of `table` as declared, in order; empty when the table does not exist.
    QStringList columns(const QString& table) const;
    // sqlite3's message for the last failure on this connection.
    QString lastError() const;

private:
    sqlite3* m_db = nullptr;
};

// A prepared statement; columns looked up by name so that column order never matters.
class SqliteStatement {
public:
    SqliteStatement(const SqliteDb& db, const QString& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    bool isValid() const { return m_stmt != nullptr; }
    // Steps to the next row. False at the end or on error (see hasError()).
    bool step();
    bool hasError() const { return m_error; }
    // Index of the result column named `name`, or -1.
    int column(std::string_view name) const;

    bool isNull(int col) const;
    std::int64_t int64(int col) const;
    std::optional<std::int64_t> optInt64(int col) const; // none for NULL or col < 0
    double real(int col) const;
    std::string_view text(int col) const; // empty for NULL or col < 0

private:
    sqlite3_stmt* m_stmt = nullptr;
    bool m_error = false;
};

} // namespace strobe
