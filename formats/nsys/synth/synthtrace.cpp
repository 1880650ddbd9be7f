// SPDX-License-Identifier: MIT
// The synthetic training job, rank by rank and step by step: which phases a step has and what
// each launches. The events themselves are written in synthevents.cpp.
#include "formats/nsys/synth/synthgenerator.h"
#include "formats/nsys/synth/synthrows.h"

#include <algorithm>

namespace strobe::synth {
namespace detail {

Generator::Generator(nsys::Writer& writer, const SynthOptions& options,
                     const std::function<void(double)>& progress, SynthStats& stats)
    : m_w(writer)
    , m_rng(options.seed * 0x2545F4914F6CDD1Dull + 0x1234567)
    , m_total(options.events)
    , m_progress(progress)
    , m_stats(stats) {
    for (int k = 0; k < KindCount; ++k) {
        const KernelKind& kind = kKinds[k];
        KernelRow& row = m_kernelTemplates[k];
        row.shortName = kind.shortName;
        row.demangledName = kind.demangled ? kind.demangled : kind.shortName;
        row.mangledName = kind.mangled ? kind.mangled : kind.shortName;
        row.grid = kind.grid;
        row.block = kind.block;
        row.registersPerThread = kind.regs;
        row.staticShared = kind.staticShared;
        row.dynamicShared = kind.dynamicShared;
        row.localTotal = 250871808; // what the H100 fixture reports for every kernel
        row.sharedMemoryExecuted = kind.dynamicShared + kind.staticShared > 49152 ? 233472 : 32768;
        row.sharedMemLimitConfig = kind.dynamicShared > 49152 ? 1 : 0;
    }
}

void Generator::run() {
    describeTarget();
    const std::uint64_t half = m_total / 2;
    runProcess(0, half);
    runProcess(1, m_total - half);
}

void Generator::describeTarget() {
    nsys::Metadata meta;
    meta.productName = "Strobe synth";
    meta.sessionStartUtcNs = 1767225600000000000; // 2026-01-01T00:00:00Z, fixed for determinism
    meta.command = {"torchrun",    "--nproc-per-node=2", "train.py", "--model",
                    "convnet-vit", "--batch-size",       "256"};
    m_w.setMetadata(meta);
    for (std::uint32_t gpu = 0; gpu < 2; ++gpu)
        m_w.addGpu(h100Gpu(gpu));
}

void Generator::runProcess(std::uint32_t rank, std::uint64_t budget) {
    m_rank = rank;
    m_pid = 4101 + rank;
    m_device = rank;
    m_context = rank + 1;
    m_budgetEnd = m_stats.events + budget;
    m_main = Thread{m_pid, 2000000 + rank * 350000, {}};
    m_autograd = Thread{m_pid + 24 + rank * 11, 0, {}};
    m_workers[0] = Thread{m_pid + 30 + rank * 13, 0, {}};
    m_workers[1] = Thread{m_pid + 31 + rank * 13, 0, {}};
    m_streamFree.fill(0);
    m_correlation = 100;

    m_w.addProcess({m_pid, "python3"});
    m_w.addThread({m_pid, m_main.tid, "python3"});
    m_w.addThread({m_pid, m_autograd.tid, "pt_autograd_0"});
    m_w.addThread({m_pid, m_workers[0].tid, "pt_data_worker_0"});
    m_w.addThread({m_pid, m_workers[1].tid, "pt_data_worker_1"});
    m_w.addStream({m_pid, m_context, kComputeStream, 0, 3}); // the null stream
    m_w.addStream({m_pid, m_context, kCopyStream, 0, 2});
    m_w.addStream({m_pid, m_context, kSideStream, -1, 2});
    m_w.addStream({m_pid, m_context, kCommStream, -5, 2});

    initialize();
    for (m_step = 0; budgetLeft(kStepMinimum); ++m_step) {
        ++m_stats.steps;
        runStep();
    }
    m_stats.durationNs = std::max(m_stats.durationNs, m_main.now);
}

void Generator::initialize() {
    Thread& t = m_main;
    api(t, "cuModuleGetLoadingMode", 1200, 1);
    for (int i = 0; i < 3; ++i)
        api(t, "cudaStreamCreateWithPriority_v5050", 9000);
    for (int i = 0; i < 4; ++i)
        api(t, "cudaMalloc_v3020", 150000);
    // Managed weights touched by the GPU for the first time: page-fault migrations.
    uvmMigrations(t.now + 20000, 11, 2);
    memset(t, kComputeStream, 64ull << 20);
    t.now += 2000000;
}

void Generator::runStep() {
    const std::string stepName = "step " + std::to_string(m_step);
    push(m_main, stepName, kColorStep);
    dataLoad();

    // The batch: pinned images and pageable labels on the copy stream; compute waits.
    copy(m_main, kCopyStream, 1, 1, 2, 256ull * 3 * 64 * 64 * 2);
    copy(m_main, kCopyStream, 1, 0, 2, 256ull * 8);
    api(m_main, "cudaEventRecord_v3020", 2500);
    api(m_main, "cudaStreamWaitEvent_v3020", 2000);
    m_streamFree[kComputeStream] =
        std::max(m_streamFree[kComputeStream], m_streamFree[kCopyStream]);

    forward();
    // loss.item(): a tiny device-to-host copy and a stream sync.
    copy(m_main, kComputeStream, 2, 2, 0, 4);
    streamSync(m_main, kComputeStream);
    backward();
    optimizer();
    if (m_step % 8 == 7)
        uvmMigrations(m_main.now, 12, 4); // evicted managed pages go back to the host
    deviceSync(m_main);
    pop(m_main);
}

void Generator::dataLoad() {
    push(m_main, "data_load", kColorData);
    // The loader is slow: the GPU idles for these milliseconds every step.
    const std::int64_t begin = m_main.now;
    const std::int64_t length = m_rng.heavyTailNs(6.0e6, 0.15);
    for (std::size_t w = 0; w < m_workers.size(); ++w) {
        Thread& t = m_workers[w];
        t.now = std::max(t.now, begin + m_rng.range(5000, 60000));
        const std::int64_t end = begin + length - m_rng.range(50000, 200000);
        push(t, "DataLoader batch", kColorData, kLoaderDomain, true);
        osrt(t, "open64", m_rng.range(8000, 30000), 3);
        const int reads = int(m_rng.range(3, 5));
        for (int r = 0; r < reads && budgetLeft(kStepReserve + 3); ++r) {
            const std::int64_t slice = (end - t.now) / (reads - r + 1);
            osrt(t, "read", std::max<std::int64_t>(1000, slice * 6 / 10), 1 << 20);
            push(t, "decode", std::nullopt, kLoaderDomain, true);
            t.now += std::max<std::int64_t>(1000, slice * 4 / 10);
            pop(t);
        }
        osrt(t, "close", m_rng.range(3000, 9000), 0);
        pop(t);
    }
    const std::int64_t wait =
        std::max<std::int64_t>(1000, std::max(m_workers[0].now, m_workers[1].now) - m_main.now);
    osrt(m_main, "pthread_cond_wait", wait, 0);
    pop(m_main);
}

void Generator::forward() {
    push(m_main, "forward", kColorForward);
    for (int layer = 0; layer < kLayers && budgetLeft(kStepReserve + 12); ++layer) {
        push(m_main, "layer_" + std::to_string(layer));
        if (layer < kConvLayers) {
            const auto& ops = layer % 2 ? kConvGroupedForward : kConvForward;
            runOps(m_main, ops, kComputeStream);
        } else {
            if (layer == kConvLayers && budgetLeft(kStepReserve + 4)) {
                push(m_main, "aten::zeros");
                memset(m_main, kComputeStream, 4ull << 20);
                pop(m_main);
            }
            runOps(m_main, kBlockForward, kComputeStream);
        }
        pop(m_main);
    }
    if (budgetLeft(kStepReserve + 3)) {
        push(m_main, "aten::nll_loss");
        launch(m_main, NllLoss, kComputeStream);
        pop(m_main);
    }
    pop(m_main);
}

void Generator::backward() {
    push(m_main, "backward", kColorBackward);
    Thread& t = m_autograd;
    t.now = std::max(t.now, m_main.now + m_rng.range(10000, 30000));
    push(t, "step " + std::to_string(m_step), kColorStep);
    push(t, "backward", kColorBackward);
    // A gradient-norm side kernel on the side stream overlaps the backward pass.
    if (budgetLeft(kStepReserve + 2))
        launch(t, Reduce, kSideStream);
    for (int layer = kLayers - 1; layer >= 0 && budgetLeft(kStepReserve + 14); --layer) {
        push(t, "layer_" + std::to_string(layer));
        if (layer < kConvLayers)
            runOps(t, kConvBackward, kComputeStream);
        else
            runOps(t, kBlockBackward, kComputeStream);
        pop(t);
        if (layer % 4 == 0 && budgetLeft(kStepReserve + 4))
            allReduceBucket(t);
    }
    pop(t);
    pop(t);
    osrt(m_main, "pthread_cond_wait", std::max<std::int64_t>(1000, t.now - m_main.now), 0);
    pop(m_main);
}

// DDP: the gradients of a bucket go to the other GPU while backward goes on.
void Generator::allReduceBucket(Thread& t) {
    m_streamFree[kCommStream] = std::max(m_streamFree[kCommStream], m_streamFree[kComputeStream]);
    launch(t, NcclAllReduce, kCommStream);
    const std::uint32_t peer = 1 - m_device;
    copy(t, kCommStream, 10, 2, 2, 25ull << 20, m_device, peer);
}

void Generator::optimizer() {
    push(m_main, "optimizer", kColorOptimizer);
    m_streamFree[kComputeStream] =
        std::max(m_streamFree[kComputeStream], m_streamFree[kCommStream]);
    for (int group = 0; group < 2 && budgetLeft(kStepReserve + 6); ++group) {
        push(m_main, "param_group_" + std::to_string(group));
        push(m_main, "_multi_tensor_adam");
        launch(m_main, AdamKernel, kComputeStream);
        launch(m_main, AdamKernel, kComputeStream);
        pop(m_main);
        pop(m_main);
    }
    if (budgetLeft(kStepReserve + 4)) {
        push(m_main, "zero_grad");
        memset(m_main, kComputeStream, 96ull << 20);
        pop(m_main);
    }
    // The EMA copy of the weights runs on the side stream after the update.
    if (budgetLeft(kStepReserve + 2)) {
        m_streamFree[kSideStream] =
            std::max(m_streamFree[kSideStream], m_streamFree[kComputeStream]);
        copy(m_main, kSideStream, 8, 2, 2, 96ull << 20);
    }
    // Deliberately broken stream order on rank 0: a few kernels overlap on one stream
    // (as with programmatic dependent launch). Viewers must show them all.
    if (m_rank == 0 && m_step % 16 == 0 && budgetLeft(kStepReserve + 6)) {
        const std::int64_t base = std::max(m_streamFree[kSideStream], m_main.now + 5000);
        for (int i = 0; i < 3; ++i) {
            KernelRow k = m_kernelTemplates[AddKernel];
            k.start = base + std::int64_t{i} * 4000;
            k.end = k.start + 30000 - std::int64_t{i} * 3000;
            launchAt(m_main, k, kSideStream);
            m_streamFree[kSideStream] = std::max(m_streamFree[kSideStream], k.end);
        }
    }
    pop(m_main);
}

template <std::size_t N>
void Generator::runOps(Thread& t, const Op (&ops)[N], std::uint32_t stream) {
    for (const Op& op : ops) {
        if (!budgetLeft(kStepReserve + 5))
            return;
        push(t, op.name);
        launch(t, op.kernels[0], stream);
        if (op.twoKernels)
            launch(t, op.kernels[1], stream);
        pop(t);
    }
}

} // namespace detail

bool writeSynthTrace(const std::string& path, const SynthOptions& options, std::string* error,
                     const std::function<void(double)>& progress, SynthStats* stats) {
    auto writer = nsys::Writer::create(path, options.flavor, error);
    if (!writer)
        return false;
    SynthStats local;
    detail::Generator(*writer, options, progress, local).run();
    if (!writer->commit(error))
        return false;
    if (progress)
        progress(1.0);
    if (stats)
        *stats = local;
    return true;
}

} // namespace strobe::synth
