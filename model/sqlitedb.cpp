// SPDX-License-Identifier: MIT
#include "sqlitedb.h"

#include <QUrl>
#include <sqlite3.h>

namespace strobe {

SqliteDb::~SqliteDb() {
    if (m_db)
        sqlite3_close(m_db);
}

bool SqliteDb::open(const QString& path, QString* error) {
    // immutable=1: nsys exports are finished files; skipping locks and the journal is safe and
    // lets read-only media work. The URI form needs the path percent-encoded.
    const QByteArray uri = "file:" + QUrl::toPercentEncoding(path, "/") + "?mode=ro&immutable=1";
    const int rc =
        sqlite3_open_v2(uri.constData(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
        if (error)
            *error = m_db ? lastError() : QString::fromUtf8(sqlite3_errstr(rc));
        return false;
    }
    return true;
}

bool SqliteDb::hasTable(const QString& table) const {
    SqliteStatement st(
        *this,
        QStringLiteral("SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = '") +
            table + QStringLiteral("'"));
    return st.step();
}

QStringList SqliteDb::columns(const QString& table) const {
    QStringList out;
    SqliteStatement st(*this,
                       QStringLiteral("PRAGMA table_info(\"") + table + QStringLiteral("\")"));
    const int name = st.column("name");
    while (st.step())
        out << QString::fromUtf8(st.text(name));
    return out;
}

QString SqliteDb::lastError() const {
    return QString::fromUtf8(sqlite3_errmsg(m_db));
}

SqliteStatement::SqliteStatement(const SqliteDb& db, const QString& sql) {
    const QByteArray utf8 = sql.toUtf8();
    if (sqlite3_prepare_v2(db.handle(), utf8.constData(), int(utf8.size()), &m_stmt, nullptr) !=
        SQLITE_OK) {
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
    if (rc != SQLITE_DONE)
        m_error = true;
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

} // namespace strobe
