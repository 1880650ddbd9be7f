// SPDX-License-Identifier: MIT
#pragma once

// Read-only access to an nsys export that may be hostile: the guarded connection. Its
// statements are in sqlitestatement.h, the striped multi-threaded scans in sqliterowstream.h.

#include <QString>
#include <QStringList>
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

struct sqlite3;

namespace strobe {

// How a connection to an untrusted file is guarded (see SqliteDb::open).
struct SqliteGuard {
    // Stops every statement soon after it becomes true (SQLITE_INTERRUPT; see cancelled()).
    const std::atomic<bool>* cancel = nullptr;
    // Wall-clock budget for everything run on the connection from open() on; 0: none.
    std::chrono::milliseconds budget{0};
    // The only tables statements may read (case-insensitive); reads of others are refused.
    QStringList readableTables;
};

// The longest text or blob a connection reads (SQLITE_LIMIT_LENGTH), and the longest SQL.
inline constexpr int kSqliteMaxValueBytes = 256 << 20;
inline constexpr int kSqliteMaxSqlBytes = 64 << 10;

// RAII wrapper over a read-only sqlite3 connection to a file that may be hostile: ordinary
// tables only (no views, no virtual tables), defensive mode, untrusted schema, an authorizer that
// allows nothing but reading the expected tables, length limits, and a progress handler that
// honours cancel and a time budget. Table and column probing by name.
class SqliteDb {
public:
    SqliteDb() = default;
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    // Opens with mode=ro (immutable=1 only where safeToOpenImmutable()), installs the guards and
    // reads the table catalogue. False with `error` set to a phrase (see describeSqliteError).
    bool open(const QString& path, const SqliteGuard& guard, QString* error);
    sqlite3* handle() const { return m_db; }
    // Closes the connection (its statements must be gone); handle() is null afterwards.
    void close();

    // True for an ordinary table of the main schema (not a view, virtual or shadow table).
    bool hasTable(const QString& table) const;
    // Column names of `table` as declared, in order; empty when the table does not exist.
    QStringList columns(const QString& table) const;
    // True for a view, virtual or shadow table called `name` (never read).
    bool hasNonTable(const QString& name) const {
        return m_nonTables.contains(name, Qt::CaseInsensitive);
    }
    // A -journal or -wal file lay beside the database when it was opened.
    bool hadJournal() const { return m_hadJournal; }
    // The time budget ran out (statements then fail with SQLITE_INTERRUPT).
    bool timedOut() const { return m_timedOut.load(std::memory_order_relaxed); }
    std::chrono::milliseconds budget() const { return m_guard.budget; }

private:
    static int progress(void* self);
    static int authorize(void* self, int action, const char* a, const char* b, const char*,
                         const char*);
    sqlite3* m_db = nullptr;
    SqliteGuard m_guard;
    std::vector<std::string> m_readable; // lower case
    QStringList m_tables;                // ordinary tables of the main schema
    QStringList m_nonTables;             // views, virtual and shadow tables
    std::chrono::steady_clock::time_point m_deadline;
    bool m_hadJournal = false;
    std::atomic<bool> m_timedOut{false}; // set by the progress handler, on the stepping thread
};

// immutable=1 skips locks and the journal: safe only when nobody can be writing the file (it or
// its folder is read-only) and no -journal or -wal lies beside it.
bool safeToOpenImmutable(const QString& path);
// A phrase, written by us and never SQLite's text, for a failed SQLite result code: "the file
// is damaged (...); export it again ...", "another program is writing it (it is locked)", ...
QString describeSqliteError(int rc);
// True for the result codes of a damaged file (SQLITE_CORRUPT and its extended codes).
bool isDamageError(int rc);
// Our phrase for a damaged file, naming where SQLite found the damage (`part`, e.g. "table
// NVTX_EVENTS"; empty when unknown) and what to do about it.
QString describeDamage(const QString& part);

} // namespace strobe
