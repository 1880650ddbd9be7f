// SPDX-License-Identifier: MIT
#pragma once

#include <Qt>

namespace strobe {

// Item-data roles shared by Strobe's table models.
enum TableRole : int {
    SortRole = Qt::UserRole + 1, // raw value to sort by: qint64, double or QString
    ExportRole,                  // plain value for CSV export: full names, numbers unformatted
    KernelIndexRole,             // index into Trace::kernels() (kernel table only)
};

} // namespace strobe
