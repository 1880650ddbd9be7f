// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

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

// The rows of one query with SqliteStatement's reading API, optionally stepped on a worker
// thread: the worker runs sqlite3_step and copies each row's cells into chunks that the reader
// consumes in order, so the reader's results do not depend on `threaded`. The connection must
// not be used by anyone else while the stream lives (it belongs to the worker).
class SqliteRowStream {
public:
    // `cancel` (may be null) stops the worker early; the stream then ends as if done.
    SqliteRowStream(const SqliteDb& db, bool threaded, const std::atomic<bool>* cancel,
                    const QString& sql);
    ~SqliteRowStream();
    SqliteRowStream(const SqliteRowStream&) = delete;
    SqliteRowStream& operator=(const SqliteRowStream&) = delete;

    bool isValid() const { return m_st.isValid(); }
    bool step();
    bool hasError() const;
    int errorCode() const; // as SqliteStatement::errorCode
    int column(std::string_view name) const { return m_st.column(name); }

    bool isNull(int col) const;
    std::int64_t int64(int col) const;
    std::optional<std::int64_t> optInt64(int col) const;
    std::string_view text(int col) const; // valid until the next step()

private:
    struct Chunk {
        std::vector<std::int64_t> values; // per cell: the integer, or a text index for text
        std::vector<std::uint8_t> types;  // per cell: 0 null, 1 integer, 2 text
        std::vector<std::pair<std::uint32_t, std::uint32_t>> texts; // (offset, size) in arena
        std::string arena;
        std::uint32_t rows = 0;
    };
    static constexpr std::uint32_t kChunkRows = 8192;
    static constexpr std::size_t kMaxQueued = 4;
    void produce();
    std::unique_ptr<Chunk> takeChunk();
    std::size_t cell(int col) const {
        return std::size_t(m_row) * std::size_t(m_cols) + std::size_t(col);
    }

    SqliteStatement m_st;
    const bool m_threaded;
    const std::atomic<bool>* m_cancel;
    int m_cols = 0;
    // Worker side.
    std::thread m_worker;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::unique_ptr<Chunk>> m_full;
    std::vector<std::unique_ptr<Chunk>> m_spare;
    bool m_done = false, m_stop = false, m_workerError = false;
    int m_workerRc = 0;
    // Reader side.
    std::unique_ptr<Chunk> m_chunk;
    std::uint32_t m_row = 0;
    bool m_started = false;
};

} // namespace strobe
