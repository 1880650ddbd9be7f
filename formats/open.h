// SPDX-License-Identifier: MIT
#pragma once

#include "model/loadoptions.h"

#include <QString>

namespace strobe {

// Opens any trace file Strobe understands (today: nsys SQLite exports, and Strobe's own
// captures, which use the same schema). Never throws; bad input gives `error`.
LoadResult loadTrace(const QString& path, const LoadOptions& options = {});

} // namespace strobe
