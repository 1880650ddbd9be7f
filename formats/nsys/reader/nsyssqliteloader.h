// SPDX-License-Identifier: MIT
#pragma once

#include "model/loadoptions.h"

namespace strobe {

class SqliteDb;

// Reads an nsys SQLite export (schema 2.9 to 3.28, nsys 2022.2 to 2026.4) into a Trace.
// Tables and columns are found by name; unknown columns are ignored and missing event tables
// mean no events of that kind. Rows are read in table order (no ORDER BY) and sorted per lane.
class NsysSqliteLoader {
public:
    NsysSqliteLoader(const QString& path, const LoadOptions& options);
    ~NsysSqliteLoader();
    LoadResult load();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// True when `db` has the tables of an nsys export (StringIds plus metadata or event tables).
bool looksLikeNsysExport(const SqliteDb& db);

} // namespace strobe
