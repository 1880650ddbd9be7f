// SPDX-License-Identifier: MIT
#include "formats/nsys/reader/sqlitestatement.h"

#include <sqlite3.h>

namespace strobe {

SqliteStatement::SqliteStatement(const SqliteDb& db, const QString& sql) {
    const QByteArray utf8 = sql.toUtf8();
    m_rc = sqlite3_prepare_v2(db.handle(), utf8.constData(), int(utf8.size()), &m_stmt, nullptr);
    if (m_rc != SQLITE_OK) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
        m_error = true;
    }
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(m_stmt);
}

bool SqliteStatement::step() {
    if (!m_stmt)
        return false;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE && !m_error) {
        m_error = true;
        m_rc = rc;
    }
    return false;
}

int SqliteStatement::column(std::string_view name) const {
    if (!m_stmt)
        return -1;
    const int n = sqlite3_column_count(m_stmt);
    for (int i = 0; i < n; ++i) {
        if (name == sqlite3_column_name(m_stmt, i))
            return i;
    }
    return -1;
}

bool SqliteStatement::isNull(int col) const {
    return col < 0 || sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

std::int64_t SqliteStatement::int64(int col) const {
    return col < 0 ? 0 : sqlite3_column_int64(m_stmt, col);
}

std::optional<std::int64_t> SqliteStatement::optInt64(int col) const {
    if (isNull(col))
        return std::nullopt;
    return sqlite3_column_int64(m_stmt, col);
}

double SqliteStatement::real(int col) const {
    return col < 0 ? 0.0 : sqlite3_column_double(m_stmt, col);
}

std::string_view SqliteStatement::text(int col) const {
    if (col < 0)
        return {};
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
    return p ? std::string_view(p, std::size_t(sqlite3_column_bytes(m_stmt, col)))
             : std::string_view();
}

QStringList SqliteStatement::columnNames() const {
    QStringList out;
    for (int i = 0; i < columnCount(); ++i)
        out << QString::fromUtf8(sqlite3_column_name(m_stmt, i));
    return out;
}

int SqliteStatement::columnCount() const {
    return m_stmt ? sqlite3_column_count(m_stmt) : 0;
}

QString rowidName(const SqliteDb& db, const QString& table) {
    // A column may take any of the rowid's three names, and then that name means the column.
    const QStringList columns = db.columns(table);
    for (const QString& name :
         {QStringLiteral("rowid"), QStringLiteral("_rowid_"), QStringLiteral("oid")}) {
        if (!columns.contains(name, Qt::CaseInsensitive))
            return name;
    }
    return {};
}

} // namespace strobe
