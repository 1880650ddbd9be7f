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

#include "nsyswriter.h"

#include <cstdint>
#include <functional>
#include <string>

namespace strobe::synth {

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
                     std::function<void(double)> progress = {}, SynthStats* stats = nullptr);

} // namespace strobe::synth
