// SPDX-License-Identifier: MIT
// SqliteRowStream gives the rows of a query in the same order and with the same cells whoever
// steps it: the reading thread, one worker, or two workers reading rowid stripes in turn, and
// whatever the table's rowids are (sparse, negative, at int64's ends, absent).
#include "formats/nsys/reader/sqliterowstream.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <limits>
#include <sqlite3.h>
#include <string>
#include <vector>

using namespace strobe;

namespace {

// A database file made with SQLite's own API from `sql`.
struct Database {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("rows.sqlite"));
    explicit Database(const std::string& sql) {
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        char* message = nullptr;
        EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK)
            << (message ? message : "");
        sqlite3_free(message);
        sqlite3_close(db);
    }
};

// "BEGIN; INSERT ... (rowid, a, b, t) for each of `rowids`; COMMIT;" into table `table`.
std::string inserts(const std::string& table, const std::string& rowidColumn,
                    const std::vector<std::int64_t>& rowids) {
    std::string sql = "BEGIN;";
    std::int64_t i = 0;
    for (const std::int64_t r : rowids) {
        sql += "INSERT INTO " + table + "(" + rowidColumn + ", a, b, t) VALUES (" +
               std::to_string(r) + ", " + std::to_string(i * 7) + ", " +
               (i % 5 == 0 ? std::string("NULL") : std::to_string(-i)) + ", " +
               (i % 3 == 0 ? "'text " + std::to_string(i) + "'" : std::string("NULL")) + ");";
        ++i;
    }
    return sql + "COMMIT;";
}

// `create`, then in one transaction "INSERT INTO k VALUES (<values(i)>)" for i < rows.
template <typename Values> std::string tableOf(const std::string& create, int rows, Values values) {
    std::string sql = create + "BEGIN;";
    for (int i = 0; i < rows; ++i)
        sql += "INSERT INTO k VALUES (" + values(i) + ");";
    return sql + "COMMIT;";
}

std::vector<std::int64_t> dense(std::int64_t first, std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < n; ++i)
        out.push_back(first + i);
    return out;
}

struct Read {
    std::vector<std::string> rows; // each row's cells, printed
    std::size_t workers = 0;
    bool error = false;
};

// Every row of `sql` on `table`, read with `workers` worker connections (0: the reading thread).
Read readAll(const QString& path, const QString& sql, const QString& table, int workers) {
    SqliteDb db, scan[2];
    QString error;
    const SqliteGuard guard;
    EXPECT_TRUE(db.open(path, guard, &error)) << error.toStdString();
    SqliteScanners by{&db, {}};
    for (int i = 0; i < workers; ++i) {
        EXPECT_TRUE(scan[i].open(path, guard, &error)) << error.toStdString();
        by.workers.push_back(&scan[i]);
    }
    SqliteRowStream st(by, nullptr, sql, table);
    Read r;
    r.workers = st.workerCount();
    const int a = st.column("a"), b = st.column("b"), t = st.column("t");
    while (st.step()) {
        r.rows.push_back(std::to_string(st.int64(a)) + '|' +
                         (st.isNull(b) ? std::string("null") : std::to_string(st.int64(b))) + '|' +
                         std::string(st.text(t)) + '|' + (st.optInt64(t) ? "some" : "none"));
    }
    r.error = st.hasError();
    return r;
}

// Reads `table` with 0, 1 and 2 workers and expects the same rows each time, `expectRows` of
// them, and `stripedWorkers` workers stepping it when two were offered.
void expectSameRowsEveryWay(const Database& d, const QString& table, std::size_t expectRows,
                            std::size_t stripedWorkers) {
    const QString sql = QStringLiteral("SELECT a, b, t FROM ") + table;
    const Read alone = readAll(d.path, sql, table, 0);
    const Read one = readAll(d.path, sql, table, 1);
    const Read two = readAll(d.path, sql, table, 2);
    EXPECT_FALSE(alone.error || one.error || two.error);
    EXPECT_EQ(alone.workers, 0u);
    EXPECT_EQ(one.workers, 1u);
    EXPECT_EQ(two.workers, stripedWorkers);
    ASSERT_EQ(alone.rows.size(), expectRows);
    EXPECT_EQ(one.rows, alone.rows);
    EXPECT_EQ(two.rows, alone.rows);
}

} // namespace

TEST(RowStream, StripesOfADenseTableArriveInRowidOrder) {
    // Several stripes per worker, and a last stripe that is not full.
    const auto rowids = dense(1, 5 * std::int64_t(SqliteRowStream::kStripeRows) + 123);
    Database d("CREATE TABLE k (a INTEGER, b INTEGER, t TEXT);" + inserts("k", "rowid", rowids));
    expectSameRowsEveryWay(d, QStringLiteral("k"), rowids.size(), 2);
}

TEST(RowStream, SparseRowidsAtTheEndsOfInt64AreReadWithFewSeeks) {
    // A span of 2^64 rowids: the stripes widen to at most kMaxStripes, each spanning many rows.
    std::vector<std::int64_t> rowids = {
        std::numeric_limits<std::int64_t>::min(), -5, 0, 7, std::int64_t(1) << 40,
        std::numeric_limits<std::int64_t>::max()};
    for (const std::int64_t r : dense(1000, 20'000))
        rowids.push_back(r);
    Database d("CREATE TABLE k (a INTEGER, b INTEGER, t TEXT);" + inserts("k", "rowid", rowids));
    expectSameRowsEveryWay(d, QStringLiteral("k"), rowids.size(), 2);
}

TEST(RowStream, AColumnNamedRowidLeavesAnotherNameOfTheRowid) {
    // "rowid" is an ordinary column here, in no order: striping by it would be wrong and slow.
    Database d(
        tableOf("CREATE TABLE k (rowid INTEGER, a INTEGER, b INTEGER, t TEXT);", 20'000, [](int i) {
            return std::to_string((i * 7919) % 1000) + ", " + std::to_string(i) + ", " +
                   std::to_string(-i) + ", NULL";
        }));
    expectSameRowsEveryWay(d, QStringLiteral("k"), 20'000, 2);
}

TEST(RowStream, ATableWhoseColumnsTakeEveryRowidNameIsReadUnstriped) {
    Database d(tableOf("CREATE TABLE k (rowid INTEGER, _rowid_ INTEGER, oid INTEGER, a INTEGER, "
                       "b INTEGER, t TEXT);",
                       10'000,
                       [](int i) { return "1, 2, 3, " + std::to_string(i) + ", NULL, 'x'"; }));
    expectSameRowsEveryWay(d, QStringLiteral("k"), 10'000, 1);
}

TEST(RowStream, AWithoutRowidTableIsReadUnstriped) {
    Database d(
        tableOf("CREATE TABLE k (a INTEGER PRIMARY KEY, b INTEGER, t TEXT) WITHOUT ROWID;", 10'000,
                [](int i) { return std::to_string(i) + ", " + std::to_string(i % 9) + ", NULL"; }));
    expectSameRowsEveryWay(d, QStringLiteral("k"), 10'000, 1);
}

TEST(RowStream, AnEmptyTableHasNoRowsHoweverItIsRead) {
    Database d("CREATE TABLE k (a INTEGER, b INTEGER, t TEXT);");
    expectSameRowsEveryWay(d, QStringLiteral("k"), 0, 2);
}

TEST(RowStream, ADamagedPageEndsTheStreamWithAnError) {
    // Junk over a page in the middle of the table: the step that reaches it fails
    // (SQLITE_CORRUPT); rows before it may arrive, none after it, and the stream says it failed.
    const std::size_t rows = 6 * SqliteRowStream::kStripeRows;
    Database d("PRAGMA page_size = 4096; CREATE TABLE k (a INTEGER, b INTEGER, t TEXT);" +
               inserts("k", "rowid", dense(1, std::int64_t(rows))));
    {
        QFile f(d.path);
        ASSERT_TRUE(f.open(QIODevice::ReadWrite));
        const qint64 pages = f.size() / 4096;
        ASSERT_GT(pages, 100);
        f.seek(pages / 2 * 4096);
        f.write(QByteArray(4096, '\xA5'));
    }
    const QString select = QStringLiteral("SELECT a, b, t FROM k");
    for (const int workers : {0, 1, 2}) {
        const Read r = readAll(d.path, select, QStringLiteral("k"), workers);
        EXPECT_TRUE(r.error) << workers << " workers";
        EXPECT_LT(r.rows.size(), rows) << workers << " workers";
    }
}
