// SPDX-License-Identifier: MIT
#pragma once

// Helpers for testing strobe-cli commands against independent SQL on the real fixtures.

#include "app/cli/commands.h"
#include "tests/support/csvparse.h"
#include "tests/support/qtprinters.h"

#include <QDir>
#include <QString>
#include <QStringBuilder>
#include <QStringList>
#include <QTextStream>
#include <gtest/gtest.h>
#include <optional>
#include <sqlite3.h>
#include <vector>

namespace strobe::test {

inline QString fixture(const char* name) {
    return QDir(QStringLiteral(STROBE_FIXTURES_DIR "/nsys")).filePath(QString::fromUtf8(name));
}

inline QStringList allFixtures() {
    return QDir(QStringLiteral(STROBE_FIXTURES_DIR "/nsys"))
        .entryList({QStringLiteral("*.sqlite")}, QDir::Files, QDir::Name);
}

struct CliResult {
    int status = -1;
    QString out;
    QString err;
};

// `parts`: what the command reads of the trace (cli::Io::parts); nullopt, the command's own.
inline CliResult runCli(int (*command)(const QStringList&, cli::Io), const QStringList& args,
                        std::optional<TraceParts> parts = std::nullopt) {
    CliResult r;
    QTextStream out(&r.out), err(&r.err);
    r.status = command(args, cli::Io{out, err, parts});
    out.flush();
    err.flush();
    return r;
}

// The CSV rows a command prints, without its header; fails the test when the command did not
// succeed or printed another header.
inline std::vector<QStringList> csvRows(int (*command)(const QStringList&, cli::Io),
                                        const QStringList& args, const QString& header) {
    const CliResult r = runCli(command, args);
    EXPECT_EQ(r.status, 0) << r.err.toStdString();
    std::vector<QStringList> rows = parseCsv(r.out);
    if (rows.empty()) {
        ADD_FAILURE() << "no header";
        return rows;
    }
    EXPECT_EQ(rows.front().join(u','), header);
    rows.erase(rows.begin());
    return rows;
}

using SqlRow = std::vector<std::optional<QString>>;

// A read-only connection to a fixture, opened with the sqlite3 C API (independent of the
// loader under test).
class SqlDb {
public:
    explicit SqlDb(const QString& path) {
        const QByteArray uri = "file:" + path.toUtf8() + "?mode=ro&immutable=1";
        sqlite3_open_v2(uri.constData(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    }
    ~SqlDb() { sqlite3_close(m_db); }
    SqlDb(const SqlDb&) = delete;
    SqlDb& operator=(const SqlDb&) = delete;

    bool hasTable(const char* name) {
        return !query(QStringLiteral("SELECT 1 FROM sqlite_master WHERE type='table' AND name='") %
                      QString::fromLatin1(name) % u'\'')
                    .empty();
    }

    // All rows as text (integers in decimal); NULL as nullopt. Empty on error (see error()).
    std::vector<SqlRow> query(const QString& sql) {
        std::vector<SqlRow> rows;
        sqlite3_stmt* st = nullptr;
        const QByteArray utf8 = sql.toUtf8();
        if (sqlite3_prepare_v2(m_db, utf8.constData(), -1, &st, nullptr) != SQLITE_OK) {
            m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
            return rows;
        }
        const int n = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
            SqlRow row;
            for (int c = 0; c < n; ++c) {
                if (sqlite3_column_type(st, c) == SQLITE_NULL)
                    row.emplace_back();
                else
                    row.emplace_back(QString::fromUtf8(
                        reinterpret_cast<const char*>(sqlite3_column_text(st, c))));
            }
            rows.push_back(std::move(row));
        }
        sqlite3_finalize(st);
        return rows;
    }
    QString error() const { return m_error; }

private:
    sqlite3* m_db = nullptr;
    QString m_error;
};

} // namespace strobe::test
