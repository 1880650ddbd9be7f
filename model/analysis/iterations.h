// SPDX-License-Identifier: MIT
#pragma once

// Iteration ranges: the NVTX or user-annotation range a training loop repeats once per step,
// used to compare two runs per instance rather than over two capture windows of different
// lengths.

#include "model/trace.h"

#include <QString>
#include <optional>
#include <vector>

namespace strobe {

// The instances of one range name in one trace.
struct RangeInstances {
    QString name;                     // what was asked for, or what detection chose
    bool detected = false;            // chosen by detectIterationRange rather than by the user
    std::vector<TimeRange> instances; // by start; ranges without an end are left out
    // Per instance, the number its name carries, as the trace numbers it ("550" for
    // ProfilerStep#550); its position from 0 when the name carries none.
    std::vector<QString> labels;
    // Union of the instances, sorted and merged (nested or overlapping instances count once).
    std::vector<TimeRange> windows;
    TimeNs windowTotal() const;
    // True when `t` lies in one of the windows (binary search).
    bool contains(TimeNs t) const;
};

// Every range (NVTX or user annotation, marks excluded, and framework operator: old PyTorch
// traces record ProfilerStep#N as one) whose grouped name (groupedRangeName, qualified by domain as
// nvtxRangeName does) equals `name`; when none does, every range whose name starts with `name`
// ("Iteration" finds "Iteration 0", "Iteration 1"...; "ProfilerStep" finds "ProfilerStep#7").
RangeInstances findRangeInstances(const Trace& trace, const QString& name);

// A likely iteration range: a name that, with a trailing number removed ("ProfilerStep#12",
// "Iteration 3", "step 7"), repeats at least twice without overlap on one thread and reads as a
// step of a loop (ProfilerStep, Iteration, Iter, Step, Batch, case-insensitive). Among several,
// the known PyTorch name (ProfilerStep) wins, then the family with more instances, then the one
// nearer the top of its thread. Returns the family's name with the separator trimmed
// ("ProfilerStep", "Iteration") and the instances on that thread; nullopt when no name
// qualifies.
std::optional<RangeInstances> detectIterationRange(const Trace& trace);

} // namespace strobe
