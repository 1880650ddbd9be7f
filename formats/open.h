// SPDX-License-Identifier: MIT
#pragma once

#include "model/loadoptions.h"

#include <QString>

namespace strobe {

// Opens any trace file Strobe understands: nsys SQLite exports, Strobe's own captures (the same
// schema) and PyTorch profiler (Kineto) JSON traces, plain or gzip. Never throws; bad input
// gives `error`.
LoadResult loadTrace(const QString& path, const LoadOptions& options = {});

} // namespace strobe
