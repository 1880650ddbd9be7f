// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace strobe::bench {

struct RawScanResult {
    std::uint64_t rows = 0;
    std::uint64_t checksum = 0; // keeps the column reads from being optimised away
    double seconds = 0;
};

// The physical floor of loading: one thread, one connection, every row of the tables the nsys
// loader reads, in table order, fetching the same columns (sqlite3_column_int64 or _text), and
// nothing else: no interning, no lanes, no allocation per row.
RawScanResult rawScan(const std::string& path);

// The floor of the GPU picture: the columns the window's quick pass reads from the kernel,
// memcpy and memset tables, each table's rows split by rowid among `threads` threads on
// connections of their own, table after table, and nothing else.
RawScanResult rawGpuPictureScan(const std::string& path, int threads);

} // namespace strobe::bench
