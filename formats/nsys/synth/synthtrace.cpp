// SPDX-License-Identifier: MIT
#include "formats/nsys/synth/synthtrace.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

namespace strobe::synth {
namespace {

using nsys::KernelRow;
using nsys::MemcpyRow;
using nsys::MemsetRow;

struct KernelKind {
    const char* shortName;
    const char* demangled; // nullptr: C linkage, all names equal
    const char* mangled;
    std::array<std::int32_t, 3> grid, block;
    std::uint32_t regs, staticShared, dynamicShared;
    double medianUs, sigma;
};

enum Kind {
    ConvFwd,
    ConvGrouped,
    SgemmNn,
    Sm90Gemm,
    AddKernel,
    ReluKernel,
    SoftmaxFwd,
    Reduce,
    BnFwd,
    DgradConv,
    WgradConv,
    SoftmaxBwd,
    ThresholdBwd,
    FlashFwd,
    AdamKernel,
    NcclAllReduce,
    SgemmNt,
    Sm90GemmNt,
    NllLoss,
    LayerNorm,
    KindCount
};

// clang-format off
const KernelKind kKinds[KindCount] = {
    {"implicit_convolve_sgemm",
     "void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)",
     "_Z23implicit_convolve_sgemmIffLi128ELi5ELi5ELi3ELi3ELi3ELi1ELb0ELb0ELb1EEviiiPKT_iPT0_S2_18kernel_conv_paramsyiffiPKS3_S6_biii",
     {392, 1, 1}, {128, 1, 1}, 128, 18432, 0, 180, 0.35},
    {"conv2d_grouped_direct_kernel",
     "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, float, float, float, float, float, float>(cudnn::cnn::GroupedDirectFpropParams, float const*, float const*, float*, float, float*, float const*, float const*, float)",
     "_ZN5cudnn3cnn28conv2d_grouped_direct_kernelILb0ELb1ELb0ELb0ELi0ELi0EifffffffEEvNS0_24GroupedDirectFpropParamsEPKT6_PKT7_PT8_T9_PS6_PKT10_SF_SC_",
     {1568, 1, 1}, {256, 1, 1}, 64, 0, 0, 120, 0.3},
    {"ampere_sgemm_128x64_nn", nullptr, nullptr, {16, 8, 1}, {128, 1, 1}, 122, 0, 32768, 90, 0.4},
    {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
     nullptr, nullptr, {132, 1, 1}, {384, 1, 1}, 168, 0, 213248, 250, 0.5},
    {"vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
     "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEENS_6detail5ArrayIPcLi3EEEEEviT0_T1_",
     {1024, 1, 1}, {128, 1, 1}, 22, 0, 0, 12, 0.5},
    {"vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl(at::TensorIteratorBase&, c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl(at::TensorIteratorBase&, c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
     "_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_12_GLOBAL__N_128clamp_min_scalar_kernel_implERNS_18TensorIteratorBaseEN3c106ScalarEENKUlvE_clEvENKUlvE6_clEvEUlfE_NS_6detail5ArrayIPcLi2EEEEEviT0_T1_",
     {2048, 1, 1}, {128, 1, 1}, 20, 0, 0, 10, 0.45},
    {"softmax_warp_forward",
     "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false, false>(float*, float const*, int, int, int, bool const*, int, bool)",
     "_ZN12_GLOBAL__N_120softmax_warp_forwardIfffLi10ELb0ELb0EEEvPT0_PKT_iiiPKbib",
     {4096, 1, 1}, {128, 1, 1}, 32, 0, 0, 15, 0.35},
    {"reduce_kernel",
     "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
     "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_functorIfffEclERNS_14TensorIteratorEEUlffE_EEjfLi4EEEEEvT1_",
     {264, 1, 1}, {32, 16, 1}, 32, 0, 16, 20, 0.4},
    {"bn_fw_tr_1C11_kernel_NCHW",
     "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, float)",
     "_ZN5cudnn25bn_fw_tr_1C11_kernel_NCHWIffiLi512ELb1ELi1EEEv17cudnnTensorStructPKT_S1_PS2_PKT0_S8_S6_S6_PS6_S9_S9_S9_S6_S6_",
     {64, 32, 1}, {512, 1, 1}, 40, 4096, 0, 40, 0.3},
    {"dgrad_engine",
     "void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, false>(int, int, int, float const*, int, float const*, int, float*, kernel_grad_params, unsigned long long, int, unsigned long long, int, float, int, int, int)",
     "_ZN5cudnn6detail12dgrad_engineIfLi128ELi6ELi7ELi3ELi3ELi5ELb0EEEviiiPKT_iS5_iPS3_18kernel_grad_paramsyiyifiii",
     {392, 2, 1}, {128, 1, 1}, 96, 26112, 0, 300, 0.35},
    {"wgrad_alg0_engine",
     "void cudnn::detail::wgrad_alg0_engine<float, 128, 5, 5, 3, 3, 3, false, 512>(int, int, int, float const*, int, float*, float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)",
     "_ZN5cudnn6detail17wgrad_alg0_engineIfLi128ELi5ELi5ELi3ELi3ELi3ELb0ELi512EEEviiiPKT_iPS3_S5_18kernel_grad_paramsyifiiii",
     {16, 36, 1}, {512, 1, 1}, 80, 12800, 0, 350, 0.35},
    {"softmax_warp_backward",
     "void (anonymous namespace)::softmax_warp_backward<float, float, float, 10, false, false>(float*, float const*, float const*, int, int, int, bool const*)",
     "_ZN12_GLOBAL__N_121softmax_warp_backwardIfffLi10ELb0ELb0EEEvPT0_PKT_S5_iiiPKb",
     {4096, 1, 1}, {128, 1, 1}, 36, 0, 0, 16, 0.35},
    {"elementwise_kernel",
     "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1} const&)::{lambda(int)#1})",
     "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_15gpu_kernel_implIZNS0_12_GLOBAL__N_121threshold_kernel_implIfEEvRNS_18TensorIteratorBaseEffEUlffE_EEvS6_RKT_EUliE_EEviT1_",
     {3136, 1, 1}, {128, 1, 1}, 24, 0, 0, 14, 0.4},
    {"flash_fwd_kernel",
     "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)",
     "_ZN5flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128ELi64ELi4ELb0ELb0EN7cutlass10bfloat16_tE19Flash_kernel_traitsILi128ELi128ELi64ELi4ES2_EELb0ELb1ELb0ELb0ELb1ELb1ELb0ELb0EEEvNS_16Flash_fwd_paramsE",
     {8, 16, 32}, {128, 1, 1}, 255, 0, 98304, 400, 0.3},
    {"multi_tensor_apply_kernel",
     "void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float>(long, int volatile*, TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float)",
     "_Z25multi_tensor_apply_kernelI18TensorListMetadataILi4EE11AdamFunctorIfEJffffff10adamMode_tfEEvliPViT_T0_DpT1_",
     {320, 1, 1}, {512, 1, 1}, 40, 0, 0, 60, 0.2},
    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
     "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE",
     {24, 1, 1}, {512, 1, 1}, 96, 4400, 0, 800, 0.25},
    {"ampere_sgemm_64x64_nt", nullptr, nullptr, {32, 16, 1}, {64, 1, 1}, 126, 0, 16384, 110, 0.4},
    {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
     nullptr, nullptr, {66, 2, 1}, {384, 1, 1}, 168, 0, 221184, 280, 0.5},
    {"nll_loss_forward_reduce_cuda_kernel_2d",
     "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
     "_ZN2at6native12_GLOBAL__N_138nll_loss_forward_reduce_cuda_kernel_2dIfflEEvPT_S4_PKS3_PKT1_S6_blllll",
     {1, 1, 1}, {1024, 1, 1}, 30, 8192, 0, 8, 0.3},
    {"vectorized_layer_norm_kernel",
     "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)",
     "_ZN2at6native12_GLOBAL__N_128vectorized_layer_norm_kernelIffEEviT0_PKT_S6_S6_PS4_S7_S7_",
     {4096, 1, 1}, {256, 1, 1}, 34, 0, 0, 18, 0.3},
};
// clang-format on

struct Op {
    const char* name;            // NVTX text, as PyTorch's emit_nvtx writes it
    std::array<Kind, 2> kernels; // the second only when `twoKernels`
    bool twoKernels = false;
};

const Op kConvForward[] = {
    {"aten::conv2d", {ConvFwd, ConvFwd}},
    {"aten::batch_norm", {BnFwd, BnFwd}},
    {"aten::relu_", {ReluKernel, ReluKernel}},
};
const Op kConvGroupedForward[] = {
    {"aten::conv2d", {ConvGrouped, ConvGrouped}},
    {"aten::batch_norm", {BnFwd, BnFwd}},
    {"aten::relu_", {ReluKernel, ReluKernel}},
};
const Op kBlockForward[] = {
    {"aten::layer_norm", {LayerNorm, LayerNorm}},
    {"aten::linear", {Sm90Gemm, Sm90Gemm}},
    {"aten::_scaled_dot_product_flash_attention", {FlashFwd, FlashFwd}},
    {"aten::softmax", {SoftmaxFwd, SoftmaxFwd}},
    {"aten::linear", {SgemmNn, AddKernel}, true},
    {"aten::add", {AddKernel, AddKernel}},
    {"aten::sum", {Reduce, Reduce}},
};
const Op kConvBackward[] = {
    {"ReluBackward0", {ThresholdBwd, ThresholdBwd}},
    {"NativeBatchNormBackward0", {Reduce, ThresholdBwd}, true},
    {"ConvolutionBackward0", {DgradConv, WgradConv}, true},
};
const Op kBlockBackward[] = {
    {"AddBackward0", {AddKernel, AddKernel}},
    {"AddmmBackward0", {SgemmNt, Sm90GemmNt}, true},
    {"SoftmaxBackward0", {SoftmaxBwd, SoftmaxBwd}},
    {"NativeLayerNormBackward0", {Reduce, ThresholdBwd}, true},
};

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
            row.sharedMemoryExecuted =
                kind.dynamicShared + kind.staticShared > 49152 ? 233472 : 32768;
            row.sharedMemLimitConfig = kind.dynamicShared > 49152 ? 1 : 0;
        }
    }

    void run() {
        describeTarget();
        const std::uint64_t half = m_total / 2;
        runProcess(0, half);
        runProcess(1, m_total - half);
    }

private:
    // --- one process (rank) ----------------------------------------------------------------
    std::uint32_t m_rank = 0, m_pid = 0, m_device = 0, m_context = 0;
    Thread m_main, m_autograd;
    std::array<Thread, 2> m_workers;
    std::array<std::int64_t, 16> m_streamFree{};
    std::uint32_t m_correlation = 0;
    std::uint64_t m_budgetEnd = 0; // m_stats.events at which this process stops
    std::uint64_t m_step = 0;

    void describeTarget() {
        nsys::Metadata meta;
        meta.productName = "Strobe synth";
        meta.sessionStartUtcNs = 1767225600000000000; // 2026-01-01T00:00:00Z, fixed for determinism
        meta.command = {"torchrun",    "--nproc-per-node=2", "train.py", "--model",
                        "convnet-vit", "--batch-size",       "256"};
        m_w.setMetadata(meta);
        for (std::uint32_t gpu = 0; gpu < 2; ++gpu) {
            nsys::GpuRow g;
            g.id = gpu;
            g.name = "NVIDIA H100 80GB HBM3";
            g.smCount = 132;
            g.computeMajor = 9;
            g.computeMinor = 0;
            g.maxThreadsPerBlock = 1024;
            g.maxRegistersPerBlock = 65536;
            g.maxRegistersPerSm = 65536;
            g.maxShmemPerBlock = 49152;
            g.maxShmemPerBlockOptin = 232448;
            g.maxShmemPerSm = 233472;
            g.threadsPerWarp = 32;
            g.maxWarpsPerSm = 64;
            g.maxBlocksPerSm = 32;
            g.totalMemory = 85031714816;
            g.memoryBandwidth = 3352320000000;
            g.clockRate = 1980000000;
            g.busLocation = gpu == 0 ? "0000:18:00.0" : "0000:2a:00.0";
            m_w.addGpu(g);
        }
    }

    bool budgetLeft(std::uint64_t need) const { return m_stats.events + need <= m_budgetEnd; }

    void runProcess(std::uint32_t rank, std::uint64_t budget) {
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

    // Events one step costs at least (data loading, copies, loss, syncs, range ends); below
    // this budget no new step begins.
    static constexpr std::uint64_t kStepMinimum = 48;
    // Kept back inside a step for the range ends and syncs that close it.
    static constexpr std::uint64_t kStepReserve = 16;

    void initialize() {
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

    void runStep() {
        const std::string stepName = "step " + std::to_string(m_step);
        push(m_main, stepName, kColorStep);
        dataLoad();

        // The batch: pinned images and pageable labels on the copy stream; compute waits.
        copy(m_main, kCopyStream, 1, 1, 2, 256ull * 3 * 64 * 64 * 2);
        copy(m_main, kCopyStream, 1, 0, 2, 256 * 8);
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

    void dataLoad() {
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

    void forward() {
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

    void backward() {
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
    void allReduceBucket(Thread& t) {
        m_streamFree[kCommStream] =
            std::max(m_streamFree[kCommStream], m_streamFree[kComputeStream]);
        launch(t, NcclAllReduce, kCommStream);
        const std::uint32_t peer = 1 - m_device;
        copy(t, kCommStream, 10, 2, 2, 25ull << 20, m_device, peer);
    }

    void optimizer() {
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
                k.start = base + i * 4000;
                k.end = k.start + 30000 - i * 3000;
                launchAt(m_main, k, kSideStream);
                m_streamFree[kSideStream] = std::max(m_streamFree[kSideStream], k.end);
            }
        }
        pop(m_main);
    }

    template <std::size_t N> void runOps(Thread& t, const Op (&ops)[N], std::uint32_t stream) {
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

    // --- primitive events --------------------------------------------------------------------
    std::uint32_t api(Thread& t, const char* name, std::int64_t medianNs,
                      std::uint8_t eventClass = 0) {
        nsys::ApiCallRow r;
        r.start = t.now;
        r.end = t.now + m_rng.heavyTailNs(double(medianNs), 0.25);
        r.pid = m_pid;
        r.tid = t.tid;
        r.correlationId = ++m_correlation;
        r.name = name;
        r.eventClass = eventClass;
        m_w.addApiCall(r);
        count(m_stats.apiCalls);
        t.now = r.end + m_rng.range(800, 4000);
        return r.correlationId;
    }

    // The API call ends after the GPU work is queued; GPU start waits for the stream.
    std::int64_t gpuStart(const Thread& t, std::uint32_t stream) {
        return std::max(t.now + m_rng.range(2500, 6000),
                        m_streamFree[stream] + m_rng.range(800, 3000));
    }

    void launch(Thread& t, Kind kind, std::uint32_t stream) {
        KernelRow& k = m_kernelTemplates[kind];
        k.start = gpuStart(t, stream);
        k.end = k.start + m_rng.heavyTailNs(kKinds[kind].medianUs * 1000.0, kKinds[kind].sigma);
        launchAt(t, k, stream);
        m_streamFree[stream] = k.end;
    }

    void launchAt(Thread& t, KernelRow& k, std::uint32_t stream) {
        k.pid = m_pid;
        k.deviceId = m_device;
        k.contextId = m_context;
        k.streamId = stream;
        k.correlationId = api(t, "cudaLaunchKernel_v7000", 4500);
        m_w.addKernel(k);
        count(m_stats.kernels);
    }

    void copy(Thread& t, std::uint32_t stream, std::uint8_t copyKind, std::uint8_t srcKind,
              std::uint8_t dstKind, std::uint64_t bytes,
              std::optional<std::uint32_t> srcDevice = {},
              std::optional<std::uint32_t> dstDevice = {}) {
        MemcpyRow m;
        m.start = gpuStart(t, stream);
        double bytesPerNs = 24.0; // pinned PCIe 5
        if (srcKind == 0 || dstKind == 0)
            bytesPerNs = 9.0; // pageable: staged through a bounce buffer
        if (copyKind == 8)
            bytesPerNs = 1400.0;
        if (copyKind == 10)
            bytesPerNs = 280.0; // NVLink
        m.end = m.start + 1200 +
                std::int64_t(double(bytes) / bytesPerNs * std::exp(0.08 * m_rng.normal()));
        m.pid = m_pid;
        m.deviceId = m_device;
        m.contextId = m_context;
        m.streamId = stream;
        m.bytes = bytes;
        m.copyKind = copyKind;
        m.srcKind = srcKind;
        m.dstKind = dstKind;
        m.srcDeviceId = srcDevice;
        m.dstDeviceId = dstDevice;
        m.correlationId = api(t, "cudaMemcpyAsync_v3020", 5500);
        m_w.addMemcpy(m);
        count(m_stats.memcpys);
        m_streamFree[stream] = m.end;
    }

    void memset(Thread& t, std::uint32_t stream, std::uint64_t bytes) {
        MemsetRow m;
        m.start = gpuStart(t, stream);
        m.end = m.start + 1500 + std::int64_t(double(bytes) / 2000.0);
        m.pid = m_pid;
        m.deviceId = m_device;
        m.contextId = m_context;
        m.streamId = stream;
        m.bytes = bytes;
        m.correlationId = api(t, "cudaMemsetAsync_v3020", 4000);
        m_w.addMemset(m);
        count(m_stats.memsets);
        m_streamFree[stream] = m.end;
    }

    // Unified-memory migrations: no API call, no stream, correlation id 0.
    void uvmMigrations(std::int64_t at, std::uint8_t copyKind, int n) {
        for (int i = 0; i < n && budgetLeft(kStepReserve + 1); ++i) {
            MemcpyRow m;
            m.start = at + i * 9000;
            const std::uint64_t bytes = i % 2 ? 61440 : 4096;
            m.end = m.start + 1800 + std::int64_t(bytes / 10);
            m.pid = m_pid;
            m.deviceId = m_device;
            m.contextId = m_context;
            m.streamId = 0;
            m.correlationId = 0;
            m.bytes = bytes;
            m.copyKind = copyKind;
            m.srcKind = 7;
            m.dstKind = 7;
            m.migrationCause = copyKind == 11 ? 2 : 4; // page fault / eviction
            m.virtualAddress = 0x7f6a00000000ull + (m_step * 64 + std::uint64_t(i)) * 65536;
            m_w.addMemcpy(m);
            count(m_stats.memcpys);
        }
    }

    void streamSync(Thread& t, std::uint32_t stream) {
        const std::int64_t begin = t.now;
        const std::uint32_t corr = ++m_correlation;
        const std::int64_t end = std::max(begin + 3000, m_streamFree[stream] + 2500);
        syncApi(t, "cudaStreamSynchronize_v3020", corr, begin, end);
        nsys::SyncRow s;
        s.start = begin + 1500;
        s.end = end - 1000;
        s.pid = m_pid;
        s.deviceId = m_device;
        s.contextId = m_context;
        s.streamId = stream;
        s.syncType = 3;
        s.correlationId = corr;
        m_w.addSync(s);
        count(m_stats.syncs);
    }

    void deviceSync(Thread& t) {
        const std::int64_t begin = t.now;
        const std::uint32_t corr = ++m_correlation;
        std::int64_t gpuEnd = 0;
        for (std::int64_t f : m_streamFree)
            gpuEnd = std::max(gpuEnd, f);
        const std::int64_t end = std::max(begin + 3000, gpuEnd + 2500);
        syncApi(t, "cudaDeviceSynchronize_v3020", corr, begin, end);
        nsys::SyncRow s;
        s.start = begin + 1500;
        s.end = end - 1000;
        s.pid = m_pid;
        s.deviceId = m_device;
        s.contextId = m_context;
        s.syncType = 1; // what nsys 2022.2-2024.5 write for cudaDeviceSynchronize
        s.correlationId = corr;
        m_w.addSync(s);
        count(m_stats.syncs);
    }

    void syncApi(Thread& t, const char* name, std::uint32_t corr, std::int64_t begin,
                 std::int64_t end) {
        nsys::ApiCallRow r;
        r.start = begin;
        r.end = end;
        r.pid = m_pid;
        r.tid = t.tid;
        r.correlationId = corr;
        r.name = name;
        m_w.addApiCall(r);
        count(m_stats.apiCalls);
        t.now = end + m_rng.range(1000, 5000);
    }

    void osrt(Thread& t, const char* name, std::int64_t duration, std::int64_t returnValue) {
        nsys::OsrtRow r;
        r.start = t.now;
        r.end = t.now + duration;
        r.pid = m_pid;
        r.tid = t.tid;
        r.name = name;
        r.returnValue = returnValue;
        m_w.addOsrt(r);
        count(m_stats.osrt);
        t.now = r.end + m_rng.range(500, 3000);
    }

    void push(Thread& t, std::string text, std::optional<std::uint32_t> color = {},
              std::optional<std::uint64_t> domain = {}, bool registered = false) {
        if (domain && !m_domainCreated[m_rank]) {
            m_domainCreated[m_rank] = true;
            nsys::NvtxRow d;
            d.start = t.now;
            d.eventType = 75;
            d.pid = m_pid;
            d.tid = t.tid;
            d.text = "DataLoader";
            d.domainId = *domain;
            m_w.addNvtx(d);
            count(m_stats.nvtx);
        }
        t.stack.push_back({t.now, std::move(text), color, domain, registered});
        t.now += m_rng.range(300, 900);
    }

    void pop(Thread& t) {
        Thread::Open& open = t.stack.back();
        t.now += m_rng.range(200, 600);
        nsys::NvtxRow r;
        r.start = open.start;
        r.end = t.now;
        r.eventType = 59;
        r.pid = m_pid;
        r.tid = t.tid;
        r.text = std::move(open.text);
        r.registered = open.registered;
        r.color = open.color;
        r.domainId = open.domain;
        m_w.addNvtx(r);
        count(m_stats.nvtx);
        t.stack.pop_back();
    }

    void count(std::uint64_t& field) {
        ++field;
        if ((++m_stats.events & 0x3FFF) == 0 && m_progress && m_total > 0)
            m_progress(std::min(1.0, double(m_stats.events) / double(m_total)));
    }

    nsys::Writer& m_w;
    Rng m_rng;
    std::uint64_t m_total;
    const std::function<void(double)>& m_progress;
    SynthStats& m_stats;
    std::array<KernelRow, KindCount> m_kernelTemplates;
    std::array<bool, 2> m_domainCreated{};
};

} // namespace

bool writeSynthTrace(const std::string& path, const SynthOptions& options, std::string* error,
                     std::function<void(double)> progress, SynthStats* stats) {
    auto writer = nsys::Writer::create(path, options.flavor, error);
    if (!writer)
        return false;
    SynthStats local;
    Generator(*writer, options, progress, local).run();
    if (!writer->commit(error))
        return false;
    if (progress)
        progress(1.0);
    if (stats)
        *stats = local;
    return true;
}

} // namespace strobe::synth
