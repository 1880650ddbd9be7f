// SPDX-License-Identifier: MIT
#pragma once

// The events of a synthetic Kineto trace, written as PyTorch's profiler writes them: CPU
// operators and user annotations that nest, each with a unique External id; launches whose
// runtime call and GPU operation share a correlation id and carry the External id of the
// innermost operator open on the launching thread; the ac2g flows between them. The training
// loop (trainingloop.h) says what runs; this says how it is written. Qt-free.

#include "formats/kineto/synth/kinetosynth.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strobe::kinetosynth {

// splitmix64: fully specified, so every platform writes the same trace for a seed.
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::uint64_t below(std::uint64_t n) { return next() % n; }
    // Uniform in [lo, lo + span).
    std::int64_t around(std::int64_t lo, std::int64_t span) {
        return lo + std::int64_t(below(std::uint64_t(span)));
    }
};

// A kernel as Kineto records it: demangled name, launch configuration, typical duration.
struct KernelKind {
    const char* name;
    std::array<int, 3> grid, block;
    int registers, shared;
    std::int64_t meanNs;
};

// The GPU streams the trace uses.
enum class Stream : std::uint8_t { Compute, Nccl };

class SynthWriter {
public:
    static constexpr std::int64_t kPid = 3141592, kMainTid = 3141592, kAutogradTid = 3141650;

    // Writes to `path`, gzip-compressed when `gzip`.
    SynthWriter(const std::string& path, bool gzip, const KinetoSynthOptions& options);
    ~SynthWriter();
    SynthWriter(const SynthWriter&) = delete;
    SynthWriter& operator=(const SynthWriter&) = delete;

    bool ok() const;
    const KinetoSynthOptions& options() const { return m_o; }
    Rng& rng() { return m_rng; }
    KinetoSynthStats& stats() { return m_st; }
    // True once the requested number of events is written.
    bool full() const { return m_st.events >= m_o.events; }

    void header(); // the document's start, through the metadata events
    void footer(); // closes the events array and the document
    // Flushes and closes; false when a write failed.
    bool close();

    // A cpu_op on `tid` from `t` around whatever `body` writes (its children and launches), `t`
    // advanced past it. `dims` is its Input Dims JSON ("" for none); `sequence` >= 0 adds
    // "Sequence number" and "Fwd thread id" (autograd's link between forward and backward);
    // `args` (JSON members, "" for none) is added to its args.
    template <typename Body>
    void op(std::int64_t tid, std::int64_t& t, std::string_view name, std::string_view dims,
            Body&& body, std::int64_t sequence = -1, std::string_view args = {}) {
        const std::int64_t start = t;
        const std::int64_t external = open(tid);
        t += m_rng.around(1500, 3000);
        body();
        t += m_rng.around(500, 1500);
        m_open.pop_back();
        writeOp(tid, start, t, name, dims, external, sequence, args);
        t += m_rng.around(300, 700);
    }
    // An op with no children.
    void leaf(std::int64_t tid, std::int64_t& t, std::string_view name, std::string_view dims) {
        op(tid, t, name, dims, [] {});
    }
    // A user_annotation (record_function, ProfilerStep#N) on `tid` around `body`.
    template <typename Body>
    void annotation(std::int64_t tid, std::int64_t& t, std::string_view name, Body&& body) {
        const std::int64_t start = t;
        const std::int64_t external = open(tid);
        t += 1000;
        body();
        t += 1000;
        m_open.pop_back();
        writeAnnotation(tid, start, t, name, external);
        t += 500;
    }
    // A python_function frame (with_stack) around `body`, when the options ask for frames.
    template <typename Body>
    void pythonFrame(std::int64_t tid, std::int64_t& t, std::string_view name, Body&& body) {
        const std::int64_t start = t;
        t += 600;
        body();
        t += 600;
        if (m_o.withStack)
            writePython(tid, start, t, name);
        t += 600;
    }

    // cudaLaunchKernel on `tid` at `t` and its kernel, `scale` times the kernel's usual length.
    void kernel(std::int64_t tid, std::int64_t& t, const KernelKind& k, double scale = 1.0,
                Stream stream = Stream::Compute);
    // cudaMemcpyAsync and its copy; a device-to-host copy to pageable memory blocks the call
    // until the copy is done, as CUDA does.
    void memcpy(std::int64_t tid, std::int64_t& t, bool toDevice, std::int64_t bytes);
    void memset(std::int64_t tid, std::int64_t& t, std::int64_t bytes);
    // cudaDeviceSynchronize: waits for both streams; its cuda_sync record.
    void deviceSynchronize(std::int64_t tid, std::int64_t& t);
    // Job traces: an all-reduce of `bytes` launched from `tid` at `t` on the NCCL stream with
    // the communicator's args (`commArgs`). It starts when this rank arrives (its compute stream
    // and the NCCL stream idle, the launch done) and ends when the last rank has arrived plus
    // jobTransferNs(); the straggler's held compute operation runs on until its late arrival.
    // Then the compute stream waits for it (cudaStreamWaitEvent on `tid`).
    void collective(std::int64_t tid, std::int64_t& t, const KernelKind& k, std::int64_t bytes);
    // The record_param_comms args of an all-reduce of `bytes` (JSON members).
    std::string commArgs(std::int64_t bytes) const;
    // When every stream will be idle.
    std::int64_t gpuIdleAt() const { return std::max(m_gpuFree[0], m_gpuFree[1]); }
    void startClock(std::int64_t t) { m_gpuFree[0] = m_gpuFree[1] = t; }

private:
    class Output;
    std::string& b();
    void begin(const char* ph, const char* cat, std::string_view name, std::int64_t pid,
               std::int64_t tid, std::int64_t ts);
    void complete(const char* cat, std::string_view name, std::int64_t pid, std::int64_t tid,
                  std::int64_t ts, std::int64_t dur);
    void flow(const char* ph, std::int64_t id, std::int64_t pid, std::int64_t tid, std::int64_t ts);
    std::int64_t open(std::int64_t tid); // a new External id, now the innermost on `tid`
    // The External id of the innermost operator open on `tid`; 0 when none.
    std::int64_t innermost(std::int64_t tid) const;
    void writeOp(std::int64_t tid, std::int64_t start, std::int64_t end, std::string_view name,
                 std::string_view dims, std::int64_t external, std::int64_t sequence,
                 std::string_view args);
    void writeAnnotation(std::int64_t tid, std::int64_t start, std::int64_t end,
                         std::string_view name, std::int64_t external);
    void writePython(std::int64_t tid, std::int64_t start, std::int64_t end, std::string_view name);
    // The runtime call `api` on `tid` at `t` (`t` advanced past it, `minEnd` at least) and its
    // flow start; returns the correlation id.
    std::int64_t runtimeCall(std::int64_t tid, std::int64_t& t, const char* api,
                             std::int64_t minEnd = 0);
    // The GPU operation's start for a call made at `t` on stream `s`.
    std::int64_t gpuStart(std::int64_t t, Stream s);
    // The args a GPU operation shares with its launch: External id, stream, correlation (the
    // object is left open for the operation's own).
    void gpuArgs(std::int64_t external, std::int64_t streamId, std::int64_t correlation);
    void metadata();
    void jobHeader();
    // Job traces hold the latest compute-stream operation back (its events in m_held) until the
    // next one or a collective, so that a straggler's can still be lengthened.
    void hold();
    void endHold(std::int64_t dur); // the held operation is written; it lasts `dur`
    void release();
    void lengthenHeld(std::int64_t by);

    const KinetoSynthOptions& m_o;
    Rng m_rng;
    KinetoSynthStats m_st;
    std::unique_ptr<Output> m_out;
    bool m_first = true;
    // (tid, External id) of the open operators and annotations, innermost last.
    std::vector<std::pair<std::int64_t, std::int64_t>> m_open;
    std::array<std::int64_t, 2> m_gpuFree{};
    std::int64_t m_correlation = 1000, m_external = 0, m_python = 0;
    std::int64_t m_device = 0;             // the GPU: the local rank (rank % 8) in job traces
    std::string m_held;                    // the held compute-stream operation's events
    bool m_holding = false;                // b() writes into m_held
    std::size_t m_durAt = 0, m_durLen = 0; // the last complete event's "dur" text in b()
    std::size_t m_heldDurAt = 0, m_heldDurLen = 0;
    std::int64_t m_heldDur = 0;
};

} // namespace strobe::kinetosynth
