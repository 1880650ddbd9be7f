// SPDX-License-Identifier: MIT
#pragma once

#include "formats/nsys/reader/sqlitedb.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <string_view>

struct sqlite3_stmt;

namespace strobe {

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
    // The SQLite result code of the first failure (prepare or step); SQLITE_OK (0) when none.
    int errorCode() const { return m_rc; }
    // Index of the result column named `name`, or -1.
    int column(std::string_view name) const;

    bool isNull(int col) const;
    std::int64_t int64(int col) const;
    std::optional<std::int64_t> optInt64(int col) const; // none for NULL or col < 0
    double real(int col) const;
    std::string_view text(int col) const; // empty for NULL or col < 0

    // Column names in result order.
    QStringList columnNames() const;
    int columnCount() const;
    sqlite3_stmt* handle() const { return m_stmt; }

private:
    sqlite3_stmt* m_stmt = nullptr;
    bool m_error = false;
    int m_rc = 0;
};

// A name that selects `table`'s rowid: "rowid", "_rowid_" or "oid", whichever no column of the
// table takes; empty when its columns take all three.
QString rowidName(const SqliteDb& db, const QString& table);

} // namespace strobe
