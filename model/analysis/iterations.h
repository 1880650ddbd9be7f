// SPDX-License-Identifier: MIT
#pragma once

// Iterations of a training loop, from NVTX (or Kineto user annotation) ranges: the instances the
// breakdown is given per iteration, and that a run comparison lines up.

#include "model/trace.h"

#include <QString>
#include <optional>
#include <vector>

namespace strobe {

struct RangeInstance {
    QString name;    // as displayed, "ProfilerStep#3"
    TimeRange range; // the range's own [start, end) on its thread
    EventRef event;  // the range, to select or zoom to
};

struct RangeInstances {
    QString label;                        // the pattern found ("ProfilerStep#N") or the name asked
    std::optional<std::uint32_t> thread;  // index into Trace::threads() the instances are on
    std::vector<RangeInstance> instances; // by start
};

// Finds iterations: ranges named "ProfilerStep#N", "Iteration N" or "step N" (case-insensitive,
// a space, '#' or '_' before the number optional) repeating at least twice on one thread. The
// first of those three patterns found wins; among threads, the one with most instances (ties:
// the lower thread index). Ranges without an end and marks are ignored. nullopt when none.
std::optional<RangeInstances> detectIterations(const Trace& trace);

// The instances of the range the user picked: ranges named exactly `name`, or `name` followed by
// an optional ' ', '#' or '_' and a number ("Iteration" finds "Iteration 0", "Iteration 1"),
// on the thread with the most of them. Empty instances when there is none.
RangeInstances findRangeInstances(const Trace& trace, const QString& name);

} // namespace strobe
