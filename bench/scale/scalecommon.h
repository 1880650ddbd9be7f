// SPDX-License-Identifier: MIT
#pragma once

// What the scale benchmark's parts share: the canvas size, percentiles, the synthetic trace.

#include "model/trace.h"

#include <QElapsedTimer>
#include <QSize>
#include <QString>
#include <cstdint>
#include <vector>

namespace strobe::bench {

inline const QSize kCanvas(2560, 1440);

double percentile(std::vector<double> v, double p);
double seconds(const QElapsedTimer& t);
// The synthetic trace of `events` rows, generated once and kept in /tmp.
QString ensureTrace(std::uint64_t events, std::uint64_t seed);
// Reads the whole file once so that neither the raw scan nor the load pays for a cold cache.
void warmFileCache(const QString& path);
std::uint64_t eventCount(const Trace& t);

} // namespace strobe::bench
