// SPDX-License-Identifier: MIT
#include "formats/nsys/reader/sqliterowstream.h"
#include "model/loadboundary.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <sqlite3.h>
#include <string>
#include <sys/mman.h>

namespace strobe {

SqliteRowStream::Cells::Cells(std::size_t cells)
    : m_bytes(cells * (sizeof(std::int64_t) + sizeof(std::uint8_t))) {
    m_pages = mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m_pages == MAP_FAILED)
        throw std::bad_alloc();
    values = static_cast<std::int64_t*>(m_pages);
    types = reinterpret_cast<std::uint8_t*>(values + cells);
}

SqliteRowStream::Cells::~Cells() {
    munmap(m_pages, m_bytes);
}

SqliteRowStream::SqliteRowStream(const SqliteScanners& by, const std::atomic<bool>* cancel,
                                 const QString& sql, const QString& table)
    : m_cancel(cancel) {
    if (by.workers.size() < 2 || table.isEmpty() || !planStripes(by, sql, table)) {
        m_workers.clear();
        auto w = std::make_unique<Worker>();
        const SqliteDb& db = by.workers.empty() ? *by.db : *by.workers.front();
        w->st = std::make_unique<SqliteStatement>(db, sql);
        m_workers.push_back(std::move(w));
        m_striped = false;
        m_stripes = 1;
    }
    m_threaded = !by.workers.empty() && isValid();
    startWorkers();
}

SqliteRowStream::SqliteRowStream(const SqliteScanners& by, const std::atomic<bool>* cancel,
                                 const QString& sql, const QString& rowid,
                                 std::vector<RowidRange> ranges)
    : m_cancel(cancel) {
    // Without workers the reading thread steps the ranges itself (step()).
    SqliteScanners on = by;
    if (on.workers.empty())
        on.workers.push_back(by.db);
    m_striped = true;
    m_ranges = std::move(ranges);
    m_groupStart.push_back(0);
    std::uint64_t rowids = 0;
    for (std::size_t k = 0; k < m_ranges.size(); ++k) {
        rowids += std::uint64_t(m_ranges[k].last) - std::uint64_t(m_ranges[k].first) + 1;
        if (rowids >= kStripeRows || k + 1 == m_ranges.size()) {
            m_groupStart.push_back(k + 1);
            rowids = 0;
        }
    }
    m_stripes = m_groupStart.size() - 1;
    if (!prepareStriped(on, sql, rowid)) {
        m_threaded = false;
        m_stripes = 0;
        m_cols = m_workers.front()->st->columnCount();
        return;
    }
    m_threaded = !by.workers.empty();
    startWorkers();
}

void SqliteRowStream::startWorkers() {
    m_cols = m_workers.front()->st->columnCount();
    if (m_threaded) {
        for (std::size_t i = 0; i < m_workers.size(); ++i)
            m_workers[i]->thread = std::thread([this, i] { produce(i); });
    }
}

bool SqliteRowStream::prepareStriped(const SqliteScanners& by, const QString& sql,
                                     const QString& rowid) {
    const QString striped =
        sql % QStringLiteral(" WHERE ") % rowid % QStringLiteral(" BETWEEN ?1 AND ?2");
    for (const SqliteDb* db : by.workers) {
        auto w = std::make_unique<Worker>();
        w->st = std::make_unique<SqliteStatement>(*db, striped);
        const bool valid = w->st->isValid();
        m_workers.push_back(std::move(w)); // an invalid one stays, to say why
        if (!valid)
            return false;
    }
    return true;
}

bool SqliteRowStream::planStripes(const SqliteScanners& by, const QString& sql,
                                  const QString& table) {
    const QString rowid = rowidName(*by.workers.front(), table);
    if (rowid.isEmpty())
        return false;
    // min() and max() of the rowid are one seek each in queries of their own (together in one
    // query, SQLite scans the table for them).
    SqliteStatement low(*by.workers.front(),
                        QStringLiteral("SELECT min(") % rowid % QStringLiteral(") FROM ") % table);
    SqliteStatement high(*by.workers.front(),
                         QStringLiteral("SELECT max(") % rowid % QStringLiteral(") FROM ") % table);
    if (!low.step() || !high.step()) // a WITHOUT ROWID table has no rowid to select
        return false;
    if (!prepareStriped(by, sql, rowid))
        return false;
    m_striped = true;
    if (low.isNull(0) || high.isNull(0)) { // no rows
        m_stripes = 0;
        return true;
    }
    m_firstRowid = low.int64(0);
    m_lastRowid = high.int64(0);
    // Unsigned arithmetic: the span of two int64 rowids may exceed int64's range.
    const std::uint64_t span = std::uint64_t(m_lastRowid) - std::uint64_t(m_firstRowid);
    m_stripeWidth = std::max(kStripeRows, span / kMaxStripes + 1);
    m_stripes = span / m_stripeWidth + 1;
    return true;
}

SqliteRowStream::~SqliteRowStream() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    for (const auto& w : m_workers) {
        if (w->thread.joinable())
            w->thread.join();
    }
}

bool SqliteRowStream::isValid() const {
    return std::all_of(m_workers.begin(), m_workers.end(),
                       [](const auto& w) { return w->st->isValid(); });
}

bool SqliteRowStream::fill(sqlite3_stmt* st, Chunk& c, int* rc) {
    const auto cols = std::size_t(m_cols);
    while (c.rows < kChunkRows) {
        *rc = sqlite3_step(st);
        if (*rc != SQLITE_ROW)
            return false;
        const std::size_t base = std::size_t(c.rows) * cols;
        for (std::size_t k = 0; k < cols; ++k) {
            // One API call per cell: column_value, then the cheap value_* accessors.
            sqlite3_value* v = sqlite3_column_value(st, int(k));
            const int type = sqlite3_value_type(v);
            if (type == SQLITE_NULL) {
                c.cells.types[base + k] = 0;
                c.cells.values[base + k] = 0;
            } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
                const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
                const auto n = std::uint32_t(sqlite3_value_bytes(v));
                c.cells.types[base + k] = 2;
                c.cells.values[base + k] = std::int64_t(c.texts.size());
                c.texts.emplace_back(std::uint32_t(c.arena.size()), n);
                c.arena.append(p ? p : "", n);
            } else {
                c.cells.types[base + k] = 1;
                c.cells.values[base + k] = sqlite3_value_int64(v);
            }
        }
        ++c.rows;
    }
    return true;
}

void SqliteRowStream::produce(std::size_t index) {
    Worker& w = *m_workers[index];
    sqlite3_stmt* st = w.st->handle();
    const std::size_t cells = kChunkRows * std::size_t(m_cols);
    // The worker's last chunk (if any): it pushes no more, and `rc` says whether it failed.
    auto finish = [&](std::unique_ptr<Chunk> last, int rc) {
        {
            std::lock_guard lock(m_mutex);
            if (rc != SQLITE_DONE && rc != SQLITE_ROW && !m_workerError) {
                m_workerError = true;
                m_workerRc = rc;
            }
            if (last)
                w.full.push_back(std::move(last));
            w.done = true;
        }
        m_cv.notify_all();
    };
    // Binds range k: of the explicit ones, or stripe k of the table.
    auto bind = [&](std::uint64_t k) {
        std::int64_t first = 0, last = 0;
        if (!m_ranges.empty()) {
            first = m_ranges[k].first;
            last = m_ranges[k].last;
        } else {
            const std::uint64_t from = std::uint64_t(m_firstRowid) + k * m_stripeWidth;
            first = std::int64_t(from);
            last = k + 1 == m_stripes ? m_lastRowid : std::int64_t(from + m_stripeWidth - 1);
        }
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, first);
        sqlite3_bind_int64(st, 2, last);
    };
    for (std::uint64_t s = index; s < m_stripes; s += m_workers.size()) {
        // The ranges of stripe s: explicit ones are grouped into stripes of about kStripeRows
        // rowids, filled into chunks without a break, so that small ranges cost a seek each
        // and not a chunk handed over each.
        std::uint64_t range = m_ranges.empty() ? s : m_groupStart[s];
        const std::uint64_t rangesEnd = m_ranges.empty() ? s + 1 : m_groupStart[s + 1];
        if (m_striped)
            bind(range);
        bool more = true;
        while (more) {
            std::unique_ptr<Chunk> c;
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait(lock, [&] { return m_stop || w.full.size() < kMaxQueued; });
                if (m_stop)
                    return;
                if (!w.spare.empty()) {
                    c = std::move(w.spare.back());
                    w.spare.pop_back();
                }
            }
            if (!c) {
                try {
                    c = std::make_unique<Chunk>(cells);
                } catch (const std::bad_alloc&) {
                    finish(nullptr, SQLITE_NOMEM);
                    return;
                }
            }
            c->rows = 0;
            c->stripeEnd = false;
            c->texts.clear();
            c->arena.clear();
            c->rangeStarts.clear();
            if (!m_ranges.empty())
                c->rangeStarts.emplace_back(0, range);
            int rc = SQLITE_ROW;
            while (!fill(st, *c, &rc)) {
                if (rc != SQLITE_DONE) { // failed: the reader stops at this chunk
                    finish(std::move(c), rc);
                    return;
                }
                if (++range >= rangesEnd) {
                    more = false;
                    break;
                }
                bind(range);
                if (!m_ranges.empty())
                    c->rangeStarts.emplace_back(c->rows, range);
            }
            if (isCancelled(m_cancel)) {
                finish(std::move(c), SQLITE_DONE);
                return;
            }
            c->stripeEnd = !more;
            {
                std::lock_guard lock(m_mutex);
                w.full.push_back(std::move(c));
            }
            m_cv.notify_all();
        }
    }
    finish(nullptr, SQLITE_DONE);
}

std::unique_ptr<SqliteRowStream::Chunk> SqliteRowStream::takeChunk() {
    std::unique_lock lock(m_mutex);
    if (m_chunk)
        m_workers[m_chunkWorker]->spare.push_back(std::move(m_chunk));
    m_cv.notify_all();
    if (m_stripe >= m_stripes)
        return nullptr;
    Worker& w = *m_workers[m_current];
    m_cv.wait(lock, [&] { return !w.full.empty() || w.done; });
    if (w.full.empty()) // it stopped early: an error or a cancel
        return nullptr;
    auto c = std::move(w.full.front());
    w.full.pop_front();
    m_chunkWorker = m_current;
    if (c->stripeEnd) {
        ++m_stripe;
        m_current = (m_current + 1) % m_workers.size();
    }
    m_cv.notify_all();
    return c;
}

bool SqliteRowStream::step() {
    if (!m_threaded && m_ranges.empty())
        return m_workers.front()->st->step();
    if (!m_threaded)
        return stepRanges();
    if (m_chunk && m_started && m_row + 1 < m_chunk->rows) {
        ++m_row;
        followRanges();
        return true;
    }
    m_started = true;
    for (;;) {
        m_chunk = takeChunk();
        if (!m_chunk)
            return false;
        if (m_chunk->rows > 0) {
            m_row = 0;
            m_mark = 0;
            followRanges();
            return true;
        }
    }
}

void SqliteRowStream::followRanges() {
    const auto& starts = m_chunk->rangeStarts;
    while (m_mark + 1 < starts.size() && starts[m_mark + 1].first <= m_row)
        ++m_mark;
}

bool SqliteRowStream::stepRanges() {
    SqliteStatement& st = *m_workers.front()->st;
    for (;;) {
        if (m_started && st.step())
            return true;
        if (st.hasError() || !st.isValid() || m_stripes == 0)
            return false;
        if (m_started)
            ++m_range;
        m_started = true;
        if (m_range >= m_ranges.size())
            return false;
        sqlite3_reset(st.handle());
        sqlite3_bind_int64(st.handle(), 1, m_ranges[m_range].first);
        sqlite3_bind_int64(st.handle(), 2, m_ranges[m_range].last);
    }
}

bool SqliteRowStream::hasError() const {
    const bool statements = std::any_of(m_workers.begin(), m_workers.end(),
                                        [](const auto& w) { return w->st->hasError(); });
    if (!m_threaded)
        return statements;
    std::lock_guard lock(m_mutex);
    return m_workerError || statements;
}

int SqliteRowStream::errorCode() const {
    for (const auto& w : m_workers) {
        if (w->st->errorCode())
            return w->st->errorCode();
    }
    if (!m_threaded)
        return 0;
    std::lock_guard lock(m_mutex);
    return m_workerRc;
}

std::int64_t SqliteRowStream::int64Otherwise(int col) const {
    if (!m_threaded)
        return m_workers.front()->st->int64(col);
    if (col < 0)
        return 0;
    // A text cell, as sqlite3_column_int64 would read it: the text's leading integer.
    return std::int64_t(std::strtoll(std::string(text(col)).c_str(), nullptr, 10));
}

std::string_view SqliteRowStream::text(int col) const {
    if (!m_threaded)
        return m_workers.front()->st->text(col);
    if (col < 0)
        return {};
    const std::size_t i = cell(col);
    if (m_chunk->cells.types[i] == 0)
        return {};
    if (m_chunk->cells.types[i] ==
        1) { // integers read as text: rare, never on the loader's hot path
        thread_local std::string scratch;
        scratch = std::to_string(m_chunk->cells.values[i]);
        return scratch;
    }
    const auto [off, n] = m_chunk->texts[std::size_t(m_chunk->cells.values[i])];
    return std::string_view(m_chunk->arena.data() + off, n);
}

} // namespace strobe
