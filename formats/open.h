// SPDX-License-Identifier: MIT
#pragma once

#include "model/loadoptions.h"

#include <QString>

namespace strobe {

// Opens any trace file Strobe understands: nsys SQLite exports, Strobe's own captures (the same
// schema) and PyTorch profiler (Kineto) JSON traces, plain or gzip. Never throws; bad input
// gives `error`. With options.cacheFolder set, a file opened before comes from the reopen cache
// (formats/cache/tracecache.h) when its entry matches, and a fresh load fills the cache.
LoadResult loadTrace(const QString& path, const LoadOptions& options = {});

} // namespace strobe
