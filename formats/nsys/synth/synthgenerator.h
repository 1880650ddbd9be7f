// SPDX-License-Identifier: MIT
#pragma once

// The synthetic generator's state machine: a data-parallel training job, rank by rank and step
// by step (synthtrace.cpp), written through primitive events that keep every thread's clock,
// every stream's queue and the correlation ids consistent (synthevents.cpp). Internal to
// formats/nsys/synth.

#include "formats/nsys/synth/synthcatalog.h"
#include "formats/nsys/synth/synthtrace.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace strobe::synth::detail {

using nsys::KernelRow;
using nsys::MemcpyRow;
using nsys::MemsetRow;

constexpr int kConvLayers = 6, kBlockLayers = 6, kLayers = kConvLayers + kBlockLayers;
constexpr std::uint32_t kComputeStream = 7, kCopyStream = 13, kSideStream = 14, kCommStream = 15;
constexpr std::uint32_t kColorStep = 0xFF76B900, kColorForward = 0xFF1F77B4,
                        kColorBackward = 0xFFD62728, kColorOptimizer = 0xFF9467BD,
                        kColorData = 0xFFFF7F0E;
constexpr std::uint64_t kLoaderDomain = 1;

struct Thread {
    std::uint32_t tid = 0;
    std::int64_t now = 0;
    struct Open {
        std::int64_t start;
        std::string text;
        std::optional<std::uint32_t> color;
        std::optional<std::uint64_t> domain;
        bool registered;
    };
    std::vector<Open> stack;
};

class Generator {
public:
    Generator(nsys::Writer& writer, const SynthOptions& options,
              const std::function<void(double)>& progress, SynthStats& stats);
    void run();

private:
    // --- one process (rank) ----------------------------------------------------------------
    std::uint32_t m_rank = 0, m_pid = 0, m_device = 0, m_context = 0;
    Thread m_main, m_autograd;
    std::array<Thread, 2> m_workers;
    std::array<std::int64_t, 16> m_streamFree{};
    std::uint32_t m_correlation = 0;
    std::uint64_t m_budgetEnd = 0; // m_stats.events at which this process stops
    std::uint64_t m_step = 0;

    // --- the job, step by step (synthtrace.cpp) ----------------------------------------------
    void describeTarget();
    bool budgetLeft(std::uint64_t need) const { return m_stats.events + need <= m_budgetEnd; }

    // Events one step costs at least (data loading, copies, loss, syncs, range ends); below
    // this budget no new step begins.
    static constexpr std::uint64_t kStepMinimum = 48;
    // Kept back inside a step for the range ends and syncs that close it.
    static constexpr std::uint64_t kStepReserve = 16;

    void runProcess(std::uint32_t rank, std::uint64_t budget);
    void initialize();
    void runStep();
    void dataLoad();
    void forward();
    void backward();
    // DDP: the gradients of a bucket go to the other GPU while backward goes on.
    void allReduceBucket(Thread& t);
    void optimizer();
    template <std::size_t N> void runOps(Thread& t, const Op (&ops)[N], std::uint32_t stream);

    // --- primitive events (synthevents.cpp) ---------------------------------------------------
    std::uint32_t api(Thread& t, const char* name, std::int64_t medianNs,
                      std::uint8_t eventClass = 0);
    // The API call ends after the GPU work is queued; GPU start waits for the stream.
    std::int64_t gpuStart(const Thread& t, std::uint32_t stream);
    void launch(Thread& t, Kind kind, std::uint32_t stream);
    void launchAt(Thread& t, KernelRow& k, std::uint32_t stream);
    void copy(Thread& t, std::uint32_t stream, std::uint8_t copyKind, std::uint8_t srcKind,
              std::uint8_t dstKind, std::uint64_t bytes,
              std::optional<std::uint32_t> srcDevice = {},
              std::optional<std::uint32_t> dstDevice = {});
    void memset(Thread& t, std::uint32_t stream, std::uint64_t bytes);
    // Unified-memory migrations: no API call, no stream, correlation id 0.
    void uvmMigrations(std::int64_t at, std::uint8_t copyKind, int n);
    void streamSync(Thread& t, std::uint32_t stream);
    void deviceSync(Thread& t);
    void syncApi(Thread& t, const char* name, std::uint32_t corr, std::int64_t begin,
                 std::int64_t end);
    void osrt(Thread& t, const char* name, std::int64_t duration, std::int64_t returnValue);
    void push(Thread& t, std::string text, std::optional<std::uint32_t> color = {},
              std::optional<std::uint64_t> domain = {}, bool registered = false);
    void pop(Thread& t);
    void count(std::uint64_t& field);

    nsys::Writer& m_w;
    Rng m_rng;
    std::uint64_t m_total;
    const std::function<void(double)>& m_progress;
    SynthStats& m_stats;
    std::array<KernelRow, KindCount> m_kernelTemplates;
    std::array<bool, 2> m_domainCreated{};
};

} // namespace strobe::synth::detail
