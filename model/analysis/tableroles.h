// SPDX-License-Identifier: MIT
#pragma once

#include <Qt>

namespace strobe {

// Item-data roles shared by Strobe's table models.
enum TableRole : int {
    SortRole = Qt::UserRole + 1, // raw value to sort by: qint64, double or QString
    ExportRole,                  // plain value for CSV export: full names, numbers unformatted
    KernelIndexRole,             // index into Trace::kernels() (kernel table only)
    // How B compares with A in a comparison cell: -1 better (less time, less idle, more
    // utilisation), +1 worse, 0 equal or not a comparison cell. Widgets pick the colours.
    DeltaToneRole,
};

} // namespace strobe
