// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>
#include <atomic>
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

    // Column names in result order.
    QStringList columnNames() const;
    int columnCount() const;
    sqlite3_stmt* handle() const { return m_stmt; }

private:
    sqlite3_stmt* m_stmt = nullptr;
    bool m_error = false;
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
    // Reader side.
    std::unique_ptr<Chunk> m_chunk;
    std::uint32_t m_row = 0;
    bool m_started = false;
};

} // namespace strobe
