// SPDX-License-Identifier: MIT
#pragma once

// A deterministic synthetic nsys-schema trace of a data-parallel training job, sized by event
// count: the project's scale fixture (benchmarks, `strobe-cli synth`, loader tests). Qt-free.
//
// What it models (docs/SYNTH.md has the details): two processes (ranks), each with a main
// thread, an autograd thread and two data-loader workers; two H100-like GPUs with four streams
// each; per training step a CPU data-loading phase that leaves the GPU idle, pinned host-to-
// device batch copies, a forward and a backward pass of NVTX-annotated layers whose ops launch
// real-looking kernels with heavy-tailed durations, a peer-to-peer gradient exchange, an
// optimizer, memsets, a stream sync and a device sync. Every kernel, memcpy and memset has a
// correlated runtime API call on its launching thread; unified-memory migrations have none.

#include "formats/nsys/writer/nsyswriter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

namespace strobe::synth {

// splitmix64: tiny, fast, and identical on every platform (std distributions are not).
class Rng {
public:
    explicit Rng(std::uint64_t seed)
        : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
    std::int64_t range(std::int64_t lo, std::int64_t hi)          // [lo, hi]
    {
        return lo + std::int64_t(next() % std::uint64_t(hi - lo + 1));
    }
    bool chance(double p) { return uniform() < p; }
    double normal() // Box-Muller
    {
        const double u1 = 1.0 - uniform(), u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
    // Log-normal around `median` with a Pareto tail: 1 in 100 is 2..20 times longer.
    std::int64_t heavyTailNs(double median, double sigma) {
        double v = median * std::exp(sigma * normal());
        if (chance(0.01))
            v *= std::min(20.0, 2.0 / std::pow(1.0 - uniform(), 1.0 / 1.5));
        return std::max<std::int64_t>(500, std::int64_t(v));
    }

private:
    std::uint64_t m_state;
};

struct SynthOptions {
    std::uint64_t events = 0; // rows in all event tables together (generation stops at N)
    std::uint64_t seed = 1;   // same seed and events: identical row contents
    nsys::SchemaFlavor flavor = nsys::SchemaFlavor::V3_13;
};

// What one run wrote, by table.
struct SynthStats {
    std::uint64_t events = 0; // the sum of all the fields below
    std::uint64_t kernels = 0, memcpys = 0, memsets = 0, apiCalls = 0, syncs = 0, nvtx = 0,
                  osrt = 0;
    std::uint64_t steps = 0;     // training steps begun (per process, summed)
    std::int64_t durationNs = 0; // end of the last event
};

// Writes the trace to `path` (via a temporary file renamed at the end). `progress` receives
// 0..1, monotonic. False with `error` (one sentence naming the path) on failure.
bool writeSynthTrace(const std::string& path, const SynthOptions& options, std::string* error,
                     const std::function<void(double)>& progress = {}, SynthStats* stats = nullptr);

} // namespace strobe::synth
