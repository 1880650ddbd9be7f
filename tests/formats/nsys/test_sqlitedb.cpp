// SPDX-License-Identifier: MIT
// SqliteDb's guards: what a connection to an untrusted file may and may not do.
#include "formats/nsys/reader/sqlitedb.h"
#include "formats/nsys/reader/sqlitestatement.h"
#include "tests/fixtures/hostilefixtures.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>
#include <sqlite3.h>

using namespace strobe;

namespace {

struct Opened {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("e.sqlite"));
    SqliteDb db;
    explicit Opened(const QStringList& readable = {QStringLiteral("StringIds")}) {
        EXPECT_TRUE(fixtures::writeBaseExport(path.toStdString(),
                                              "CREATE VIEW v AS SELECT * FROM StringIds;"));
        QString error;
        EXPECT_TRUE(db.open(path, SqliteGuard{nullptr, {}, readable}, &error))
            << error.toStdString();
    }
};

int dbConfig(sqlite3* db, int op) {
    int v = -1;
    sqlite3_db_config(db, op, -1, &v);
    return v;
}

} // namespace

TEST(SqliteDb, ConnectionIsDefensiveWithLimits) {
    Opened o;
    EXPECT_EQ(dbConfig(o.db.handle(), SQLITE_DBCONFIG_DEFENSIVE), 1);
    EXPECT_EQ(dbConfig(o.db.handle(), SQLITE_DBCONFIG_TRUSTED_SCHEMA), 0);
    EXPECT_EQ(dbConfig(o.db.handle(), SQLITE_DBCONFIG_ENABLE_VIEW), 0);
    EXPECT_EQ(sqlite3_limit(o.db.handle(), SQLITE_LIMIT_LENGTH, -1), kSqliteMaxValueBytes);
    EXPECT_EQ(sqlite3_limit(o.db.handle(), SQLITE_LIMIT_SQL_LENGTH, -1), kSqliteMaxSqlBytes);
    EXPECT_TRUE(sqlite3_db_readonly(o.db.handle(), "main"));
}

TEST(SqliteDb, OnlyOrdinaryTablesCount) {
    Opened o;
    EXPECT_TRUE(o.db.hasTable(QStringLiteral("StringIds")));
    EXPECT_TRUE(o.db.hasTable(QStringLiteral("stringids"))); // SQLite names ignore case
    EXPECT_FALSE(o.db.hasTable(QStringLiteral("v")));
    EXPECT_TRUE(o.db.hasNonTable(QStringLiteral("v")));
    EXPECT_TRUE(o.db.columns(QStringLiteral("v")).isEmpty());
    EXPECT_EQ(o.db.columns(QStringLiteral("StringIds")),
              (QStringList{QStringLiteral("id"), QStringLiteral("value")}));
}

TEST(SqliteDb, AuthorizerAllowsOnlyReadsOfTheExpectedTables) {
    Opened o;
    SqliteStatement ok(o.db, QStringLiteral("SELECT id, value FROM StringIds"));
    EXPECT_TRUE(ok.isValid());
    EXPECT_TRUE(ok.step());
    for (const char* sql :
         {"SELECT name FROM PROCESSES", "SELECT * FROM v", "PRAGMA writable_schema=1",
          "ATTACH DATABASE ':memory:' AS x", "SELECT load_extension('x')",
          "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT i FROM r",
          "CREATE TEMP TABLE t(x)"}) {
        SqliteStatement st(o.db, QString::fromLatin1(sql));
        EXPECT_FALSE(st.isValid()) << sql;
        EXPECT_NE(st.errorCode(), SQLITE_OK) << sql;
    }
    SqliteStatement denied(o.db, QStringLiteral("SELECT name FROM PROCESSES"));
    EXPECT_EQ(denied.errorCode(), SQLITE_AUTH);
}

TEST(SqliteDb, ProgressHandlerHonoursCancel) {
    Opened base;
    std::atomic<bool> cancel{false};
    SqliteDb db;
    QString error;
    ASSERT_TRUE(db.open(base.path, SqliteGuard{&cancel, {}, {}}, &error));
    SqliteStatement st(
        db,
        QStringLiteral("SELECT max(a.value || b.value || j.value) FROM StringIds a, StringIds b, "
                       "StringIds c, StringIds d, StringIds e, StringIds f, "
                       "StringIds g, StringIds h, StringIds i, StringIds j"));
    cancel = true;
    EXPECT_FALSE(st.step());
    EXPECT_EQ(st.errorCode(), SQLITE_INTERRUPT);
    EXPECT_FALSE(db.timedOut());
}

TEST(SqliteDb, ProgressHandlerHonoursTheBudget) {
    Opened base;
    SqliteDb db;
    QString error;
    ASSERT_TRUE(
        db.open(base.path, SqliteGuard{nullptr, std::chrono::milliseconds(50), {}}, &error));
    // 5^10 rows of a cross join: far longer than 50 ms.
    SqliteStatement st(
        db,
        QStringLiteral("SELECT max(a.value || b.value || j.value) FROM StringIds a, StringIds b, "
                       "StringIds c, StringIds d, StringIds e, StringIds f, "
                       "StringIds g, StringIds h, StringIds i, StringIds j"));
    EXPECT_FALSE(st.step());
    EXPECT_EQ(st.errorCode(), SQLITE_INTERRUPT);
    EXPECT_TRUE(db.timedOut());
}

TEST(SqliteDb, ImmutableOnlyWithoutJournalAndWhenNobodyCanWrite) {
    Opened o;
    // Writable file in a writable folder (or running as root): never immutable.
    EXPECT_FALSE(safeToOpenImmutable(o.path));
    QFile journal(o.path + QStringLiteral("-wal"));
    ASSERT_TRUE(journal.open(QIODevice::WriteOnly));
    journal.close();
    QFile::setPermissions(o.path, QFileDevice::ReadOwner);
    EXPECT_FALSE(safeToOpenImmutable(o.path)) << "a -wal beside it: never immutable";
}

TEST(SqliteDb, ErrorPhrasesAreOursAndOneLine) {
    for (int rc :
         {SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_TOOBIG, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM,
          SQLITE_IOERR, SQLITE_IOERR_READ, SQLITE_CANTOPEN, SQLITE_AUTH, SQLITE_INTERRUPT,
          SQLITE_READONLY, SQLITE_READONLY_ROLLBACK, SQLITE_ERROR, SQLITE_FULL, 12345}) {
        const QString p = describeSqliteError(rc);
        EXPECT_FALSE(p.isEmpty()) << rc;
        EXPECT_FALSE(p.contains(u'\n')) << rc;
        EXPECT_NE(p, QString::fromUtf8(sqlite3_errstr(rc))) << rc;
    }
    EXPECT_EQ(describeSqliteError(SQLITE_TOOBIG),
              QStringLiteral("it holds a value longer than 256 MiB"));
    // A failure without a code reads as one, never as "SQLite failed with result code 0".
    EXPECT_EQ(describeSqliteError(SQLITE_OK),
              QStringLiteral("SQLite stopped reading it without naming a cause"));
    EXPECT_EQ(describeSqliteError(SQLITE_CORRUPT_INDEX), describeDamage({}));
    EXPECT_TRUE(isDamageError(SQLITE_CORRUPT_VTAB));
    EXPECT_FALSE(isDamageError(SQLITE_NOTADB));
}
