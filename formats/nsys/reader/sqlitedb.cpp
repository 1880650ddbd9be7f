// SPDX-License-Identifier: MIT
#include "formats/nsys/reader/sqlitedb.h"
#include "formats/nativepath.h"
#include "model/loadboundary.h"

#include <QFileInfo>
#include <QStringBuilder>
#include <QUrl>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sqlite3.h>
#include <sys/mman.h>

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
    m_cols = m_workers.front()->st->columnCount();
    if (m_threaded) {
        for (std::size_t i = 0; i < m_workers.size(); ++i)
            m_workers[i]->thread = std::thread([this, i] { produce(i); });
    }
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
    const QString striped =
        sql % QStringLiteral(" WHERE ") % rowid % QStringLiteral(" BETWEEN ?1 AND ?2");
    for (const SqliteDb* db : by.workers) {
        auto w = std::make_unique<Worker>();
        w->st = std::make_unique<SqliteStatement>(*db, striped);
        if (!w->st->isValid())
            return false;
        m_workers.push_back(std::move(w));
    }
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
    for (std::uint64_t s = index; s < m_stripes; s += m_workers.size()) {
        if (m_striped) {
            const std::uint64_t first = std::uint64_t(m_firstRowid) + s * m_stripeWidth;
            const std::int64_t last =
                s + 1 == m_stripes ? m_lastRowid : std::int64_t(first + m_stripeWidth - 1);
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, std::int64_t(first));
            sqlite3_bind_int64(st, 2, last);
        }
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
            int rc = SQLITE_ROW;
            more = fill(st, *c, &rc);
            if (!more && rc != SQLITE_DONE) { // failed: the reader stops at this chunk
                finish(std::move(c), rc);
                return;
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
    if (!m_threaded)
        return m_workers.front()->st->step();
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
