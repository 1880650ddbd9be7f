// SPDX-License-Identifier: MIT
#pragma once

#include "formats/nsys/reader/sqlitestatement.h"

#include <QString>
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
#include <utility>
#include <vector>

struct sqlite3_stmt;

namespace strobe {

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
// Given explicit rowid ranges instead (the GPU picture's sampled passes, nsysgpupasses.cpp),
// only the rows of those ranges are read, range by range in the order given, dealt to the
// workers (one or more) as stripes are.
//
// The connections must not be used by anyone else while the stream lives.
class SqliteRowStream {
public:
    // An inclusive range of rowids.
    struct RowidRange {
        std::int64_t first = 0, last = 0;
    };
    // `sql` selects columns from `table` with no WHERE clause; `cancel` (may be null) stops the
    // workers early, and the stream then ends as if done. Without `table` the rows are not
    // striped.
    SqliteRowStream(const SqliteScanners& by, const std::atomic<bool>* cancel, const QString& sql,
                    const QString& table = {});
    // Only the rows of `ranges` (in that order) of the table `sql` reads, whose rowid column is
    // `rowid` (rowidName()); without workers the reading thread steps them.
    SqliteRowStream(const SqliteScanners& by, const std::atomic<bool>* cancel, const QString& sql,
                    const QString& rowid, std::vector<RowidRange> ranges);
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
    bool hasRanges() const { return !m_ranges.empty(); }
    // Given explicit ranges: the one the current row lies in.
    const RowidRange& rowRange() const {
        return m_ranges[m_threaded ? m_chunk->rangeStarts[m_mark].second : m_range];
    }

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
        // Given explicit ranges: (first row, range) of each range the chunk's rows come from.
        std::vector<std::pair<std::uint32_t, std::size_t>> rangeStarts;
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
    // Prepares `sql` restricted to rowids BETWEEN ?1 AND ?2 on every worker's connection.
    bool prepareStriped(const SqliteScanners& by, const QString& sql, const QString& rowid);
    void startWorkers();
    bool stepRanges(); // step() of explicit ranges without workers
    void produce(std::size_t worker);
    // Fills `c` from the current stripe of `st`; false when the stripe ended (or failed).
    bool fill(sqlite3_stmt* st, Chunk& c, int* rc);
    std::unique_ptr<Chunk> takeChunk();
    void followRanges(); // moves m_mark to m_row's range (given explicit ranges)
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
    // When given: stripe s is m_ranges[m_groupStart[s]] to m_ranges[m_groupStart[s + 1] - 1].
    std::vector<RowidRange> m_ranges;
    std::vector<std::size_t> m_groupStart;
    std::size_t m_range = 0; // stepRanges(): the range read now
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
    std::size_t m_mark = 0; // given explicit ranges: m_row's in m_chunk->rangeStarts
    bool m_started = false;
};

} // namespace strobe
