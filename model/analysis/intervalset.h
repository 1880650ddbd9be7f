// SPDX-License-Identifier: MIT
#pragma once

// Sets of time as sorted, disjoint, non-touching half-open intervals, and the set operations the
// breakdowns need. Every operation is linear in the sizes of its inputs.

#include "model/types.h"

#include <vector>

namespace strobe {

// Sorted, disjoint, non-touching intervals.
using IntervalSet = std::vector<TimeRange>;

// The union of `v` (any order, may overlap; touching intervals join) as an IntervalSet.
IntervalSet merged(std::vector<TimeRange> v);
IntervalSet unite(const IntervalSet& a, const IntervalSet& b);
// The part of `s` inside `w`.
IntervalSet clipped(const IntervalSet& s, TimeRange w);
IntervalSet intersection(const IntervalSet& a, const IntervalSet& b);
// The part of `a` not in `b`.
IntervalSet difference(const IntervalSet& a, const IntervalSet& b);
// Total length, saturated.
TimeNs length(const IntervalSet& s);
// The length of the part of `s` inside `w`, without building it: O(log n + intervals in `w`).
TimeNs lengthWithin(const IntervalSet& s, TimeRange w);

} // namespace strobe
