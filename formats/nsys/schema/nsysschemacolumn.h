// SPDX-License-Identifier: MIT
#pragma once

// The pieces every nsys schema table description is made of. See nsysschema.h.

#include <initializer_list>
#include <string_view>

namespace strobe::nsys::schema {

// Which export versions carry a column or a table: the exporters only ever add columns, so one
// bit per imitated version (nsys 2022.2 = 2.9.1, 2024.5 = 3.13.2, 2026.2 = 3.25.0).
inline constexpr unsigned kV2_9 = 1, kV3_13 = 2, kV3_25 = 4;
inline constexpr unsigned kV3x = kV3_13 | kV3_25, kAllVersions = kV2_9 | kV3x;

struct Column {
    int id;                // the table's Col value; columns[id].id == id
    std::string_view name; // as the exporter spells it
    std::string_view type; // declared type and constraints, e.g. "INTEGER NOT NULL"
    unsigned versions = kAllVersions;
};

} // namespace strobe::nsys::schema
