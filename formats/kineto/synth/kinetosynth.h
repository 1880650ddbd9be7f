// SPDX-License-Identifier: MIT
#pragma once

// A deterministic, realistic PyTorch profiler (Kineto) trace of any size, for benchmarks and
// tests: the training loop of a ResNet-like network as torch.profiler records it (docs/SYNTH.md):
// ProfilerStep#N ranges with the data loader's, forward operators nested as ATen nests them, the
// backward pass on the autograd thread, the optimizer step, every operator with its External id
// and Input Dims, CUDA runtime calls with ac2g flows launching kernels (with launch parameters,
// on a compute and an NCCL stream), memcpys and memsets, and a synchronisation per step. The same
// options and seed give the same bytes. Qt-free.

#include <cstdint>
#include <string>

namespace strobe::kinetosynth {

struct KinetoSynthOptions {
    std::uint64_t events = 1'000'000; // trace events to write (at least; whole operators)
    std::uint64_t seed = 1;
    bool withStack = true; // python_function frames, as with_stack=True writes them
    std::uint32_t rank = 0, worldSize = 2;
};

struct KinetoSynthStats {
    std::uint64_t events = 0, kernels = 0, memcpys = 0, memsets = 0, runtimeCalls = 0, cpuOps = 0,
                  annotations = 0, pythonFunctions = 0, syncs = 0, flows = 0;
    std::uint64_t steps = 0; // ProfilerStep#N annotations
    std::uint64_t bytes = 0; // uncompressed JSON
};

// Writes the trace to `path` (through `path.part`, renamed when complete), gzip-compressed when
// the name ends in ".gz". Returns false with `error` set when the file cannot be written.
bool writeKinetoTrace(const std::string& path, const KinetoSynthOptions& options,
                      std::string* error, KinetoSynthStats* stats = nullptr);

} // namespace strobe::kinetosynth
