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

// Who steps a SqliteRowStream: the reading thread itself, on `db` (no workers), or one worker
// thread per connection of `workers` (`db` unused). All connections are open on the same file.
struct SqliteScanners {
    const SqliteDb* db = nullptr;
    std::vector<const SqliteDb*> workers;
};

// The rows of one query with SqliteStatement's reading API, optionally stepped on worker threads:
// a worker runs sqlite3_step on its own connection and copies each row's cells into chunks that
// the reader consumes in order, so the reader's results never depend on who stepped.
//
// With two or more workers and the query's table named, the table is read in stripes of
// consecutive rowids, dealt to the workers in turn and consumed stripe by stripe in rowid order:
// the reader sees the rows exactly as one scan of the table gives them, while SQLite's decoding
// of the cells (most of a load's time) runs on several cores. A table without a usable rowid (a
// WITHOUT ROWID table, or columns named rowid, _rowid_ and oid) is read by the first worker
// alone. The stripes are at least kStripeRows rowids wide and at most kMaxStripes many, so a
// table of sparse rowids costs at most that many range seeks.
//
// The connections must not be used by anyone else while the stream lives.
class SqliteRowStream {
public:
    // `sql` selects columns from `table` with no WHERE clause; `cancel` (may be null) stops the
    // workers early, and the stream then ends as if done. Without `table` the rows are not
    // striped.
    SqliteRowStream(const SqliteScanners& by, const std::atomic<bool>* cancel, const QString& sql,
                    const QString& table = {});
    ~SqliteRowStream();
    SqliteRowStream(const SqliteRowStream&) = delete;
    SqliteRowStream& operator=(const SqliteRowStream&) = delete;

    bool isValid() const;
    bool step();
    bool hasError() const;
    int errorCode() const; // as SqliteStatement::errorCode
    int column(std::string_view name) const { return m_workers.front()->st->column(name); }
    // How many workers step the query: 0 (the reading thread does), 1, or more when striped.
    std::size_t workerCount() const { return m_threaded ? m_workers.size() : 0; }

    // Inline for the loader's hot loops: a few cells of every row of ten million.
    bool isNull(int col) const {
        if (m_threaded)
            return col < 0 || m_chunk->cells.types[cell(col)] == 0;
        return m_workers.front()->st->isNull(col);
    }
    std::int64_t int64(int col) const {
        if (m_threaded && col >= 0 && m_chunk->cells.types[cell(col)] != 2)
            return m_chunk->cells.values[cell(col)]; // 0 for NULL, as sqlite3_column_int64
        return int64Otherwise(col);
    }
    std::optional<std::int64_t> optInt64(int col) const {
        if (isNull(col))
            return std::nullopt;
        return int64(col);
    }
    std::string_view text(int col) const; // valid until the next step()

    static constexpr std::uint32_t kChunkRows = 8192;
    static constexpr std::uint64_t kStripeRows = kChunkRows;
    static constexpr std::uint64_t kMaxStripes = 1 << 14;

private:
    // The cells of kChunkRows rows in pages mapped for them alone: a chunk is filled on a worker
    // thread, and glibc would keep it resident in that thread's malloc arena after the load.
    class Cells {
    public:
        explicit Cells(std::size_t cells); // throws std::bad_alloc
        ~Cells();
        Cells(const Cells&) = delete;
        Cells& operator=(const Cells&) = delete;
        std::int64_t* values; // per cell: the integer, or a text index for text
        std::uint8_t* types;  // per cell: 0 null, 1 integer, 2 text
    private:
        void* m_pages;
        std::size_t m_bytes;
    };
    struct Chunk {
        explicit Chunk(std::size_t cells)
            : cells(cells) {}
        Cells cells;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> texts; // (offset, size) in arena
        std::string arena;
        std::uint32_t rows = 0;
        bool stripeEnd = false; // the last chunk of its stripe: the next comes from the next worker
    };
    struct Worker {
        std::unique_ptr<SqliteStatement> st;
        std::deque<std::unique_ptr<Chunk>> full;
        std::vector<std::unique_ptr<Chunk>> spare;
        bool done = false; // it will push no more chunks
        std::thread thread;
    };
    static constexpr std::size_t kMaxQueued = 4; // per worker
    // Prepares the striped query on every worker's connection; false where the table cannot be
    // striped (the caller then reads it unstriped).
    bool planStripes(const SqliteScanners& by, const QString& sql, const QString& table);
    void produce(std::size_t worker);
    // Fills `c` from the current stripe of `st`; false when the stripe ended (or failed).
    bool fill(sqlite3_stmt* st, Chunk& c, int* rc);
    std::unique_ptr<Chunk> takeChunk();
    // int64() of a text cell, of an absent column, or unthreaded.
    std::int64_t int64Otherwise(int col) const;
    std::size_t cell(int col) const {
        return std::size_t(m_row) * std::size_t(m_cols) + std::size_t(col);
    }

    std::vector<std::unique_ptr<Worker>> m_workers; // at least one; [0]'s statement names columns
    bool m_threaded = false;
    const std::atomic<bool>* m_cancel;
    int m_cols = 0;
    // The stripes: `m_stripes` ranges of `m_stripeWidth` rowids from m_firstRowid (the last one
    // ending at m_lastRowid); bound as ?1 and ?2 when m_striped, else one stripe of everything.
    bool m_striped = false;
    std::int64_t m_firstRowid = 0, m_lastRowid = 0;
    std::uint64_t m_stripeWidth = 0, m_stripes = 1;
    // Shared between the workers and the reader.
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stop = false, m_workerError = false;
    int m_workerRc = 0;
    // Reader side.
    std::unique_ptr<Chunk> m_chunk;
    std::size_t m_chunkWorker = 0; // whose spare list m_chunk returns to
    std::size_t m_current = 0;     // the worker whose stripe is read now
    std::uint64_t m_stripe = 0;    // stripes read to their end
    std::uint32_t m_row = 0;
    bool m_started = false;
};

} // namespace strobe
