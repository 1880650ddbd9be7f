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

// What a table header returns for Qt::InitialSortOrderRole, the order the first click on a
// column sorts in (QHeaderView asks for it): quantities (durations, totals, counts, sizes,
// percentages) largest first, so that the top rows are the ones worth reading; names, positions
// in time and identifiers ascending.
inline int initialSortOrder(bool largestFirst) {
    return int(largestFirst ? Qt::DescendingOrder : Qt::AscendingOrder);
}

} // namespace strobe
