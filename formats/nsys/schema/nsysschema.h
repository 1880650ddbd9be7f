// SPDX-License-Identifier: MIT
#pragma once

// The nsys SQLite export schema, spelled once: every table and column name that Strobe's nsys
// reader reads and its writer writes. Plain C++ (no Qt), header only, so that the Qt reader,
// the Qt-free writer and strobe-capture's injection library share it.
//
// Per table: `table` (its name; `tableV2_9` where 2.x exports spelled it differently), `Col`
// (column ids, named exactly as the SQL columns), `columns` (name, declared SQL type and the
// export versions that carry it, in the order of real exports: the writer's CREATE TABLE),
// `col(c)` (a column's name), and the reader's contract: `readRequired` (what an event cannot
// be placed without: a file lacking one is rejected) and `readOptional` (read when present; in
// an event table a missing one reads as unknown, and one counted warning names them all).
// shared/NSYS_SCHEMA.md explains the columns.

#include "formats/nsys/schema/nsysschemaevents.h"
#include "formats/nsys/schema/nsysschematarget.h"

#include <cstddef>
#include <iterator>

namespace strobe::nsys::schema {

// Calls f(T{}) for every table of nsysschemaevents.h and nsysschematarget.h (the checks below,
// the tests).
template <typename F> constexpr void forEachTable(F&& f) {
    f(Kernel{});
    f(Memcpy{});
    f(Memset{});
    f(Sync{});
    f(Runtime{});
    f(Nvtx{});
    f(Osrt{});
    f(StringIds{});
    f(ThreadNames{});
    f(Processes{});
    f(ExportMeta{});
    f(CaptureMeta{});
    f(SessionStart{});
    f(Stream{});
    f(NullStream{});
    f(ContextInfo{});
    f(Gpu{});
}

// A table's description is consistent: one entry per Col in Col order, names unique and
// non-empty, every column in some version the table exists in, and every column the reader
// requires present in every version the table exists in (else the reader would reject what the
// writer writes).
template <typename T> constexpr bool wellFormed() {
    constexpr std::size_t n = std::size(T::columns);
    if (n != std::size_t(T::count))
        return false;
    for (std::size_t i = 0; i < n; ++i) {
        const Column& c = T::columns[i];
        if (c.id != int(i) || c.name.empty() || c.type.empty() || (c.versions & T::versions) == 0)
            return false;
        for (std::size_t j = 0; j < i; ++j)
            if (T::columns[j].name == c.name)
                return false;
    }
    for (const auto c : T::readRequired)
        if ((T::columns[c].versions & T::versions) != T::versions)
            return false;
    return true;
}

constexpr bool allWellFormed() {
    bool ok = true;
    forEachTable([&](auto t) { ok = ok && wellFormed<decltype(t)>(); });
    return ok;
}
static_assert(allWellFormed());

// The CUPTI activity tables (kernel, memcpy, memset, sync) begin with the same eight columns
// (start .. globalPid), so that one writer routine fills them by Kernel's ids.
template <typename T> constexpr bool hasActivityHead() {
    for (int i = 0; i <= int(Kernel::globalPid); ++i)
        if (T::columns[i].name != Kernel::columns[i].name ||
            T::columns[i].versions != Kernel::columns[i].versions)
            return false;
    return true;
}
static_assert(hasActivityHead<Memcpy>() && hasActivityHead<Memset>() && hasActivityHead<Sync>());

} // namespace strobe::nsys::schema
