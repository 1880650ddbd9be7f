// SPDX-License-Identifier: MIT
#pragma once

// Independent SQL for tests: answers computed straight from the database with sqlite3, to
// compare against what Strobe's loader and commands produce.

#include <cstdint>
#include <string>
#include <vector>

namespace strobe::test {

std::string fixturePath(const std::string& name); // inside STROBE_FIXTURES_DIR/nsys
std::vector<std::string> nsysFixtures();          // every *.sqlite there, sorted

// Runs `sql` on `path` (read-only) and returns the rows as text; NULL becomes "".
std::vector<std::vector<std::string>> query(const std::string& path, const std::string& sql);
// The first column of the first row as an integer (0 when there is no row).
std::int64_t queryInt(const std::string& path, const std::string& sql);
// Runs statements that change `path` (for tests that break a copy of a fixture on purpose).
void exec(const std::string& path, const std::string& sql);
bool hasTable(const std::string& path, const std::string& table);
// Overwrites the root page of `table` in `path` with garbage: its schema stays readable, but any
// statement that reads its rows fails (SQLITE_CORRUPT). For tests that prove a table is never
// queried.
void damageTable(const std::string& path, const std::string& table);
bool hasColumn(const std::string& path, const std::string& table, const std::string& column);

} // namespace strobe::test
