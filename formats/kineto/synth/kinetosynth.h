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
#include <optional>
#include <string>
#include <vector>

namespace strobe::kinetosynth {

struct KinetoSynthOptions {
    std::uint64_t events = 1'000'000; // trace events to write (at least; whole operators)
    std::uint64_t seed = 1;
    bool withStack = true; // python_function frames, as with_stack=True writes them
    std::uint32_t rank = 0, worldSize = 2;
    // One rank of a job (writeKinetoJob, docs/SYNTH.md): the ranks' traces differ only where
    // these say. Collectives carry the communicator's args and last a transfer time computed from
    // their bytes; the compute stream waits for each collective, so the ranks meet at every one.
    bool job = false;
    std::optional<std::uint32_t> straggler; // the rank whose compute before each collective runs
    std::int64_t delayNs = 0;               // this long past the others' arrival
    std::int64_t clockOffsetNs = 0;         // added to every timestamp of this rank
};

struct KinetoSynthStats {
    std::uint64_t events = 0, kernels = 0, memcpys = 0, memsets = 0, runtimeCalls = 0, cpuOps = 0,
                  annotations = 0, pythonFunctions = 0, syncs = 0, flows = 0;
    std::uint64_t steps = 0;       // ProfilerStep#N annotations
    std::uint64_t collectives = 0; // NCCL kernels
    std::uint64_t bytes = 0;       // uncompressed JSON
};

// Writes the trace to `path` (through `path.part`, renamed when complete), gzip-compressed when
// the name ends in ".gz". Returns false with `error` set when the file cannot be written.
bool writeKinetoTrace(const std::string& path, const KinetoSynthOptions& options,
                      std::string* error, KinetoSynthStats* stats = nullptr);

// A synthetic distributed job: one trace per rank, the collectives matching across ranks by
// order, rank `straggler` arriving `delayNs` late at every one (docs/SYNTH.md has the answers).
struct KinetoJobOptions {
    static constexpr std::uint32_t kMaxRanks = 4096;
    std::uint32_t ranks = 2;
    std::uint64_t events = 20'000; // per rank
    std::uint64_t seed = 1;
    std::optional<std::uint32_t> straggler;
    std::int64_t delayNs = 0;
    std::int64_t clockSkewNs = 0; // rank r's clock runs r * clockSkewNs ahead
    bool gzip = true;             // rank-R.json.gz, else rank-R.json
    unsigned threads = 0;         // files written at once; 0: one per hardware thread
};

struct KinetoJobStats {
    std::vector<KinetoSynthStats> ranks; // by rank
    std::uint64_t fileBytes = 0;         // on disk, all files
};

// "rank-R.json.gz" (HTA's naming), or "rank-R.json" without gzip.
std::string jobFileName(std::uint32_t rank, bool gzip);

// The transfer time of an all-reduce of `bytes` over `worldSize` ranks in a synthetic job: a
// ring's 2 (N - 1) / N of the bytes at 100 GB/s plus 20 us, in integer ns.
std::int64_t jobTransferNs(std::int64_t bytes, std::uint32_t worldSize);

// Writes every rank's trace into `dir` (created when missing; files of the same names are
// replaced), several at once. Returns false with `error` naming the first file that failed; the
// options must be valid (ranks 1 to kMaxRanks, straggler below ranks, delay >= 0).
bool writeKinetoJob(const std::string& dir, const KinetoJobOptions& options, std::string* error,
                    KinetoJobStats* stats = nullptr);

} // namespace strobe::kinetosynth
