// SPDX-License-Identifier: MIT
#pragma once

// Rows that every synthetic trace writes alike (the generator, the sample trace and the test
// fixtures): its GPU, and a CUDA API call on a thread's clock.

#include "formats/nsys/synth/synthtrace.h"
#include "formats/nsys/writer/nsyswriter.h"

#include <cstdint>

namespace strobe::synth {

// GPU `id` of a synthetic trace: an NVIDIA H100 80GB HBM3 as nsys describes it, on PCI bus
// 0000:18:00.0 (id 0) or 0000:2a:00.0 (any other id).
nsys::GpuRow h100Gpu(std::uint32_t id);

// How a generator's CUDA API calls are timed: the spread of their length around its median
// (Rng::heavyTailNs's sigma) and the pause in [pauseMin, pauseMax] ns before the thread goes on.
struct ApiCallPace {
    double sigma;
    std::int64_t pauseMin, pauseMax;
};

// Writes `call` (its pid, tid, correlation id, name and class set) starting at `now`, lasting a
// heavy-tailed time around `medianNs`; then `now` is its end plus a pause. Draws the length,
// then the pause, from `rng`, so that a seed gives one trace.
void writeApiCall(nsys::Writer& w, Rng& rng, const ApiCallPace& pace, nsys::ApiCallRow call,
                  std::int64_t& now, std::int64_t medianNs);

} // namespace strobe::synth
