// SPDX-License-Identifier: MIT
#include "formats/nsys/reader/sqlitedb.h"
#include "formats/nativepath.h"
#include "formats/nsys/reader/sqlitestatement.h"
#include "model/loadboundary.h"

#include <QFileInfo>
#include <QStringBuilder>
#include <QUrl>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sqlite3.h>

namespace strobe {

SqliteDb::~SqliteDb() {
    close();
}

void SqliteDb::close() {
    if (m_db)
        sqlite3_close(m_db);
    m_db = nullptr;
}

bool safeToOpenImmutable(const QString& path) {
    if (QFileInfo::exists(path + QStringLiteral("-journal")) ||
        QFileInfo::exists(path + QStringLiteral("-wal")))
        return false;
    const QFileInfo file(path);
    return !file.isWritable() || !QFileInfo(file.absolutePath()).isWritable();
}

bool isDamageError(int rc) {
    return (rc & 0xFF) == SQLITE_CORRUPT;
}

QString describeDamage(const QString& part) {
    return QStringLiteral("the file is damaged (") %
           (part.isEmpty() ? QStringLiteral("it holds") : part % QStringLiteral(" holds")) %
           QStringLiteral(" a malformed page); export it again from its report with nsys export "
                          "--type sqlite, or copy it again if it was copied");
}

QString describeSqliteError(int rc) {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE)
        return QStringLiteral("SQLite stopped reading it without naming a cause");
    if (rc == SQLITE_READONLY_ROLLBACK)
        return QStringLiteral("it holds an unfinished write (a hot journal beside it) that a "
                              "reader may not roll back; open it once with the sqlite3 tool to "
                              "recover it");
    switch (rc & 0xFF) {
    case SQLITE_CORRUPT:
        return describeDamage({});
    case SQLITE_NOTADB:
        return QStringLiteral("it is not an SQLite database, or it is encrypted");
    case SQLITE_TOOBIG:
        return QStringLiteral("it holds a value longer than ") +
               QString::number(kSqliteMaxValueBytes >> 20) + QStringLiteral(" MiB");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return QStringLiteral("another program is writing it (the database is locked)");
    case SQLITE_NOMEM:
        return QStringLiteral("not enough memory");
    case SQLITE_IOERR:
        return QStringLiteral("the file could not be read (an input/output error)");
    case SQLITE_CANTOPEN:
        return QStringLiteral("the file cannot be opened read-only (a write-ahead log beside it "
                              "needs its -shm file, which a reader does not create; checkpoint "
                              "it first)");
    case SQLITE_AUTH:
        return QStringLiteral("reading it needs more than its ordinary tables, which Strobe "
                              "refuses");
    case SQLITE_INTERRUPT:
        return QStringLiteral("reading it was interrupted");
    case SQLITE_READONLY:
        return QStringLiteral("it needs a write to be read, which Strobe never does");
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
    case SQLITE_SCHEMA:
    case SQLITE_ERROR:
        return QStringLiteral("a table is not laid out as an export's is");
    default:
        break;
    }
    return QStringLiteral("SQLite failed with result code ") + QString::number(rc);
}

namespace {

bool equalsLower(const char* s, std::string_view lower) {
    if (!s)
        return false;
    std::size_t i = 0;
    for (; s[i] && i < lower.size(); ++i) {
        if (char(std::tolower(static_cast<unsigned char>(s[i]))) != lower[i])
            return false;
    }
    return !s[i] && i == lower.size();
}

} // namespace

int SqliteDb::progress(void* self) {
    auto* d = static_cast<SqliteDb*>(self);
    if (isCancelled(d->m_guard.cancel))
        return 1;
    if (d->m_guard.budget.count() > 0 && std::chrono::steady_clock::now() > d->m_deadline) {
        d->m_timedOut.store(true, std::memory_order_relaxed);
        return 1;
    }
    return 0;
}

int SqliteDb::authorize(void* self, int action, const char* a, const char* b, const char*,
                        const char*) {
    const auto* d = static_cast<const SqliteDb*>(self);
    switch (action) {
    case SQLITE_SELECT:
        return SQLITE_OK;
    case SQLITE_READ:
        if (d->m_readable.empty())
            return SQLITE_OK;
        for (const std::string& t : d->m_readable) {
            if (equalsLower(a, t))
                return SQLITE_OK;
        }
        return SQLITE_DENY;
    case SQLITE_PRAGMA:
        return equalsLower(a, "table_list") || equalsLower(a, "table_info") ? SQLITE_OK
                                                                            : SQLITE_DENY;
    case SQLITE_FUNCTION:
        return equalsLower(b, "max") || equalsLower(b, "min") ? SQLITE_OK : SQLITE_DENY;
    default:
        return SQLITE_DENY; // no writes, attaches, triggers, views, recursive queries...
    }
}

bool SqliteDb::open(const QString& path, const SqliteGuard& guard, QString* error) {
    m_guard = guard;
    m_deadline = std::chrono::steady_clock::now() + guard.budget;
    for (const QString& t : guard.readableTables)
        m_readable.push_back(t.toLower().toStdString());
    m_hadJournal = QFileInfo::exists(path + QStringLiteral("-journal")) ||
                   QFileInfo::exists(path + QStringLiteral("-wal"));
    // mode=ro: locks are honoured and a hot journal is refused rather than read past.
    // readonly_shm=1: a write-ahead log is read through an existing -shm file, never by creating
    // one beside the input. immutable=1 (no locks) only where nobody can be writing the file.
    // The URI form needs the path percent-encoded.
    // By the name's bytes, which need not be UTF-8 (formats/nativepath.h); such a name Qt cannot
    // stat, so it is never judged safe to open immutable.
    QByteArray uri = "file:" + nativePath(path).toPercentEncoding("/") + "?mode=ro&readonly_shm=1";
    if (QFileInfo::exists(path) && safeToOpenImmutable(path))
        uri += "&immutable=1";
    // NOMUTEX: a connection is used by one thread at a time (each loader thread opens its own),
    // and the serialized mode's mutex around every sqlite3_column_* call costs ~10% of a load.
    const int rc =
        sqlite3_open_v2(uri.constData(), &m_db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    auto fail = [&](int code) {
        if (error)
            *error = timedOut() ? QStringLiteral("reading its table list took longer than the "
                                                 "time budget")
                                : describeSqliteError(code);
        return false;
    };
    if (rc != SQLITE_OK)
        return fail(rc);
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, kSqliteMaxValueBytes);
    sqlite3_limit(m_db, SQLITE_LIMIT_SQL_LENGTH, kSqliteMaxSqlBytes);
    sqlite3_limit(m_db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_progress_handler(m_db, 10000, &SqliteDb::progress, this);
    sqlite3_set_authorizer(m_db, &SqliteDb::authorize, this);
    // The catalogue, once: only ordinary tables count (views and virtual tables named like nsys
    // tables would run the file's own SQL).
    SqliteStatement st(*this, QStringLiteral("PRAGMA main.table_list"));
    const int name = st.column("name"), type = st.column("type");
    while (st.step()) {
        (st.text(type) == "table" ? m_tables : m_nonTables) << QString::fromUtf8(st.text(name));
    }
    if (st.hasError() || !st.isValid())
        return fail(st.errorCode() ? st.errorCode() : SQLITE_ERROR);
    return true;
}

bool SqliteDb::hasTable(const QString& table) const {
    return m_tables.contains(table, Qt::CaseInsensitive);
}

QStringList SqliteDb::columns(const QString& table) const {
    QStringList out;
    if (!hasTable(table))
        return out;
    QString quoted = table;
    quoted.replace(u'"', QStringLiteral("\"\""));
    SqliteStatement st(*this,
                       QStringLiteral("PRAGMA table_info(\"") + quoted + QStringLiteral("\")"));
    const int name = st.column("name");
    while (st.step())
        out << QString::fromUtf8(st.text(name));
    return out;
}

} // namespace strobe
