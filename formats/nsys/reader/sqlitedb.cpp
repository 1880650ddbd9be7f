// SPDX-License-Identifier: MIT
#include "formats/nsys/reader/sqlitedb.h"

#include <QUrl>
#include <cstdlib>
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
    // NOMUTEX: a connection is used by one thread at a time (each loader thread opens its own),
    // and the serialized mode's mutex around every sqlite3_column_* call costs ~10% of a load.
    const int rc =
        sqlite3_open_v2(uri.constData(), &m_db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
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

QStringList SqliteStatement::columnNames() const {
    QStringList out;
    for (int i = 0; i < columnCount(); ++i)
        out << QString::fromUtf8(sqlite3_column_name(m_stmt, i));
    return out;
}

int SqliteStatement::columnCount() const {
    return m_stmt ? sqlite3_column_count(m_stmt) : 0;
}

SqliteRowStream::SqliteRowStream(const SqliteDb& db, bool threaded, const std::atomic<bool>* cancel,
                                 const QString& sql)
    : m_st(db, sql)
    , m_threaded(threaded && m_st.isValid())
    , m_cancel(cancel)
    , m_cols(m_st.columnCount()) {
    if (m_threaded)
        m_worker = std::thread([this] { produce(); });
}

SqliteRowStream::~SqliteRowStream() {
    if (m_worker.joinable()) {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        m_worker.join();
    }
}

void SqliteRowStream::produce() {
    sqlite3_stmt* st = m_st.handle();
    const auto cols = std::size_t(m_cols);
    bool more = true;
    while (more) {
        std::unique_ptr<Chunk> c;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_stop || m_full.size() < kMaxQueued; });
            if (m_stop)
                return;
            if (!m_spare.empty()) {
                c = std::move(m_spare.back());
                m_spare.pop_back();
            }
        }
        if (!c) {
            c = std::make_unique<Chunk>();
            c->values.resize(kChunkRows * cols);
            c->types.resize(kChunkRows * cols);
        }
        c->rows = 0;
        c->texts.clear();
        c->arena.clear();
        while (c->rows < kChunkRows) {
            const int rc = sqlite3_step(st);
            if (rc != SQLITE_ROW) {
                if (rc != SQLITE_DONE) {
                    std::lock_guard lock(m_mutex);
                    m_workerError = true;
                }
                more = false;
                break;
            }
            const std::size_t base = std::size_t(c->rows) * cols;
            for (std::size_t k = 0; k < cols; ++k) {
                // One API call per cell: column_value, then the cheap value_* accessors.
                sqlite3_value* v = sqlite3_column_value(st, int(k));
                const int type = sqlite3_value_type(v);
                if (type == SQLITE_NULL) {
                    c->types[base + k] = 0;
                    c->values[base + k] = 0;
                } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
                    const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
                    const auto n = std::uint32_t(sqlite3_value_bytes(v));
                    c->types[base + k] = 2;
                    c->values[base + k] = std::int64_t(c->texts.size());
                    c->texts.emplace_back(std::uint32_t(c->arena.size()), n);
                    c->arena.append(p ? p : "", n);
                } else {
                    c->types[base + k] = 1;
                    c->values[base + k] = sqlite3_value_int64(v);
                }
            }
            ++c->rows;
        }
        if (m_cancel && m_cancel->load(std::memory_order_relaxed))
            more = false;
        {
            std::lock_guard lock(m_mutex);
            m_full.push_back(std::move(c));
            if (!more)
                m_done = true;
        }
        m_cv.notify_all();
    }
}

std::unique_ptr<SqliteRowStream::Chunk> SqliteRowStream::takeChunk() {
    std::unique_lock lock(m_mutex);
    if (m_chunk)
        m_spare.push_back(std::move(m_chunk));
    m_cv.notify_all();
    m_cv.wait(lock, [&] { return !m_full.empty() || m_done; });
    if (m_full.empty())
        return nullptr;
    auto c = std::move(m_full.front());
    m_full.pop_front();
    m_cv.notify_all();
    return c;
}

bool SqliteRowStream::step() {
    if (!m_threaded)
        return m_st.step();
    if (m_chunk && m_started && m_row + 1 < m_chunk->rows) {
        ++m_row;
        return true;
    }
    m_started = true;
    for (;;) {
        m_chunk = takeChunk();
        if (!m_chunk)
            return false;
        if (m_chunk->rows > 0) {
            m_row = 0;
            return true;
        }
    }
}

bool SqliteRowStream::hasError() const {
    if (!m_threaded)
        return m_st.hasError();
    std::lock_guard lock(m_mutex);
    return m_workerError || m_st.hasError();
}

bool SqliteRowStream::isNull(int col) const {
    if (!m_threaded)
        return m_st.isNull(col);
    return col < 0 || m_chunk->types[cell(col)] == 0;
}

std::int64_t SqliteRowStream::int64(int col) const {
    if (!m_threaded)
        return m_st.int64(col);
    if (col < 0)
        return 0;
    const std::size_t i = cell(col);
    if (m_chunk->types[i] == 2) { // as sqlite3_column_int64 would: the text's leading integer
        const std::string_view t = text(col);
        return std::int64_t(std::strtoll(std::string(t).c_str(), nullptr, 10));
    }
    return m_chunk->values[i];
}

std::optional<std::int64_t> SqliteRowStream::optInt64(int col) const {
    if (isNull(col))
        return std::nullopt;
    return int64(col);
}

std::string_view SqliteRowStream::text(int col) const {
    if (!m_threaded)
        return m_st.text(col);
    if (col < 0)
        return {};
    const std::size_t i = cell(col);
    if (m_chunk->types[i] == 0)
        return {};
    if (m_chunk->types[i] == 1) { // integers read as text: rare, never on the loader's hot path
        thread_local std::string scratch;
        scratch = std::to_string(m_chunk->values[i]);
        return scratch;
    }
    const auto [off, n] = m_chunk->texts[std::size_t(m_chunk->values[i])];
    return std::string_view(m_chunk->arena.data() + off, n);
}

} // namespace strobe
