// SPDX-License-Identifier: MIT
#include "formats/nsys/synth/sampletrace.h"

#include "formats/nsys/synth/synthrows.h"
#include "formats/nsys/synth/synthtrace.h"
#include "formats/nsys/writer/nsyswriter.h"

#include <optional>
#include <vector>

namespace strobe::sample {
namespace {

using nsys::KernelRow;

constexpr std::uint32_t kPid = 4242, kMainTid = 4242, kLoaderTid = 4263;
constexpr std::uint32_t kDevice = 0, kContext = 1, kCompute = 7, kCopy = 13;
constexpr int kEpochs = 2, kIterations = 10, kLayers = 50;

KernelRow kernel(const char* shortName, const char* demangled, std::array<std::int32_t, 3> grid,
                 std::array<std::int32_t, 3> block, std::uint32_t regs,
                 std::uint32_t staticShared = 0, std::uint32_t dynamicShared = 0) {
    KernelRow k;
    k.pid = kPid;
    k.deviceId = kDevice;
    k.contextId = kContext;
    k.shortName = shortName;
    k.demangledName = demangled ? demangled : shortName;
    k.grid = grid;
    k.block = block;
    k.registersPerThread = regs;
    k.staticShared = staticShared;
    k.dynamicShared = dynamicShared;
    k.localTotal = 250871808;
    k.sharedMemoryExecuted = staticShared + dynamicShared > 49152 ? 233472 : 32768;
    k.sharedMemLimitConfig = dynamicShared > 49152 ? 1 : 0;
    return k;
}

// clang-format off
const KernelRow kConv = kernel("implicit_convolve_sgemm",
    "void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)",
    {196, 2, 1}, {128, 1, 1}, 128, 18432);
const KernelRow kFprop = kernel("fprop_implicit_gemm",
    "void cudnn::cnn::fprop_implicit_gemm<float, 128, 6, 7, 3, 3, 5, true>(cudnn::cnn::ConvFpropParams, float const*, float const*, float*)",
    {264, 1, 1}, {256, 1, 1}, 96, 0, 65536);
const KernelRow kBn = kernel("bn_fw_tr_1C11_kernel_NCHW",
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, float)",
    {64, 32, 1}, {512, 1, 1}, 40, 4096);
const KernelRow kRelu = kernel("vectorized_elementwise_kernel",
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl(at::TensorIteratorBase&, c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl(at::TensorIteratorBase&, c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
    {2048, 1, 1}, {128, 1, 1}, 20);
const KernelRow kGemm = kernel("ampere_sgemm_128x64_nn", nullptr, {16, 8, 1}, {128, 1, 1}, 122, 0, 32768);
const KernelRow kGemmSm90 = kernel("sm90_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
    nullptr, {132, 1, 1}, {384, 1, 1}, 168, 0, 196608);
const KernelRow kSoftmax = kernel("softmax_warp_forward",
    "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false, false>(float*, float const*, int, int, int, bool const*, int, bool)",
    {4, 1, 1}, {128, 1, 1}, 32);
const KernelRow kLoss = kernel("nll_loss_forward_reduce_cuda_kernel_2d",
    "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
    {1, 1, 1}, {1024, 1, 1}, 30, 8192);
const KernelRow kReluBwd = kernel("elementwise_kernel",
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1} const&)::{lambda(int)#1})",
    {3136, 1, 1}, {128, 1, 1}, 24);
const KernelRow kBnBwd = kernel("bn_bw_1C11_kernel_new",
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float*, float*, float const*, float const*, float)",
    {64, 32, 1}, {512, 1, 1}, 48, 8192);
const KernelRow kDgrad = kernel("dgrad_engine",
    "void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, false>(int, int, int, float const*, int, float const*, int, float*, kernel_grad_params, unsigned long long, int, unsigned long long, int, float, int, int, int)",
    {196, 2, 1}, {128, 1, 1}, 96, 26112);
const KernelRow kWgrad = kernel("wgrad_alg0_engine",
    "void cudnn::detail::wgrad_alg0_engine<float, 128, 5, 5, 3, 3, 3, false, 512>(int, int, int, float const*, int, float*, float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)",
    {16, 36, 1}, {512, 1, 1}, 80, 12800);
const KernelRow kMetrics = kernel("reduce_kernel",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4>)",
    {33, 1, 1}, {32, 16, 1}, 32, 0, 16);
const KernelRow kAdam = kernel("multi_tensor_apply_kernel",
    "void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float>(long, int volatile*, TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, adamMode_t, float)",
    {320, 1, 1}, {512, 1, 1}, 40);
// clang-format on

struct Thread {
    std::uint32_t tid;
    std::int64_t now = 0;
    std::vector<std::pair<std::int64_t, std::string>> open;
};

class SampleGenerator {
public:
    SampleGenerator(nsys::Writer& w, SampleVariant variant)
        : m_w(w)
        , m_fixed(variant == SampleVariant::After) {}

    void run() {
        describe();
        init();
        for (int epoch = 0; epoch < kEpochs; ++epoch) {
            push(m_main, "Epoch " + std::to_string(epoch));
            for (int it = 0; it < kIterations; ++it)
                iteration(it);
            pop(m_main);
        }
    }

private:
    nsys::Writer& m_w;
    bool m_fixed = false; // the "after" variant: prefetching loader, pinned memory
    synth::Rng m_rng{4242};
    Thread m_main{kMainTid, 1000000, {}};
    Thread m_loader{kLoaderTid, 0, {}};
    std::optional<std::int64_t> m_lastTaken; // when the main thread took the last batch
    std::int64_t m_free[16] = {};
    std::uint32_t m_correlation = 40;

    void describe() {
        nsys::Metadata meta;
        meta.productName = "Strobe sample";
        meta.sessionStartUtcNs = 1767225600000000000; // 2026-01-01T00:00:00Z
        meta.command = {"python", "train.py", "--epochs", "2", "--batch-size", "64"};
        m_w.setMetadata(meta);
        m_w.addGpu(synth::h100Gpu(kDevice));
        m_w.addProcess({kPid, "python train.py"});
        m_w.addThread({kPid, kMainTid, "MainThread"});
        m_w.addThread({kPid, kLoaderTid, "DataLoader"});
        m_w.addStream({kPid, kContext, kCompute, 0, 3});
        m_w.addStream({kPid, kContext, kCopy, 0, 2});
    }

    void init() {
        api(m_main, "cuModuleGetLoadingMode", 1500, 1);
        api(m_main, "cudaStreamCreateWithFlags_v5000", 12000);
        for (int i = 0; i < 6; ++i)
            api(m_main, "cudaMalloc_v3020", 180000);
        m_main.now += 3000000;
    }

    void iteration(int it) {
        push(m_main, "Iteration " + std::to_string(it));
        dataLoad();
        // The batch, from pageable memory: the copy engine waits on a CPU-side staging copy.
        // (Fixed: from pinned memory.)
        const std::uint8_t host = m_fixed ? 6 : 0;
        copy(m_main, kCopy, 1, host, 2, 64ull * 3 * 224 * 224 * 2);
        copy(m_main, kCopy, 1, host, 2, 64ull * 8);
        api(m_main, "cudaStreamWaitEvent_v3020", 2000);
        m_free[kCompute] = std::max(m_free[kCompute], m_free[kCopy]);

        push(m_main, "Forward");
        for (int layer = 0; layer < kLayers; ++layer) {
            push(m_main, "layer" + std::to_string(layer));
            const double scale = 1.0 + 0.6 * double((kLayers - layer) % 4);
            op("aten::conv2d", layer % 3 == 2 ? kFprop : kConv, 95.0 * scale);
            op("aten::batch_norm", kBn, 22);
            op("aten::relu_", kRelu, 11);
            pop(m_main);
        }
        push(m_main, "fc");
        op("aten::linear", kGemm, 380);
        // A softmax over the batch launched with one block per 16 rows: 4 blocks on 132 SMs,
        // long enough to matter (the tutorial's small-grid story).
        op("aten::softmax", kSoftmax, 3000);
        op("aten::nll_loss", kLoss, 8);
        pop(m_main);
        pop(m_main);

        push(m_main, "Backward");
        push(m_main, "fc");
        op("AddmmBackward0", kGemmSm90, 420);
        launch(m_main, kGemm, 360);
        pop(m_main);
        for (int layer = kLayers - 1; layer >= 0; --layer) {
            push(m_main, "layer" + std::to_string(layer));
            const double scale = 1.0 + 0.6 * double((kLayers - layer) % 4);
            op("ReluBackward0", kReluBwd, 13);
            op("NativeBatchNormBackward0", kBnBwd, 30);
            push(m_main, "ConvolutionBackward0");
            launch(m_main, kDgrad, 100.0 * scale);
            launch(m_main, kWgrad, 109.0 * scale);
            pop(m_main);
            if (layer == kLayers / 2) // top-1 accuracy on the side stream, overlapping
                launch(m_main, kMetrics, 40, kCopy);
            pop(m_main);
        }
        pop(m_main);

        push(m_main, "Optimizer");
        memset(m_main, 94ull << 20);
        for (int i = 0; i < 4; ++i)
            launch(m_main, kAdam, 70);
        pop(m_main);

        deviceSync();
        pop(m_main);
    }

    // One PyTorch op: an NVTX range around one kernel launch, as emit_nvtx records it.
    void op(const char* name, const KernelRow& k, double medianUs) {
        push(m_main, name);
        launch(m_main, k, medianUs);
        pop(m_main);
    }

    void dataLoad() {
        push(m_main, "Data Load");
        Thread& t = m_loader;
        // Fixed: the loader started this batch as soon as the main thread took the previous one
        // (its events land earlier in time; the random draws stay where they were, so the rest
        // of the trace is drawn exactly as before), and the wait is short.
        t.now = std::max(t.now, (m_fixed && m_lastTaken ? *m_lastTaken : m_main.now) + 20000);
        push(t, "load batch");
        for (int i = 0; i < 10; ++i) {
            osrt(t, "read", 1100000 + m_rng.range(0, 300000), 1 << 20);
            t.now += 300000 + m_rng.range(0, 50000); // decode + augment
        }
        pop(t);
        osrt(m_main, "pthread_cond_wait", std::max<std::int64_t>(t.now - m_main.now, 0) + 15000, 0);
        m_lastTaken = m_main.now;
        pop(m_main);
    }

    std::uint32_t api(Thread& t, const char* name, std::int64_t medianNs,
                      std::uint8_t eventClass = 0) {
        const std::uint32_t correlationId = ++m_correlation;
        synth::writeApiCall(m_w, m_rng, {.sigma = 0.2, .pauseMin = 1000, .pauseMax = 4000},
                            {.pid = kPid,
                             .tid = t.tid,
                             .correlationId = correlationId,
                             .name = name,
                             .eventClass = eventClass},
                            t.now, medianNs);
        return correlationId;
    }

    std::int64_t gpuStart(const Thread& t, std::uint32_t stream) {
        return std::max(t.now + m_rng.range(3000, 6000), m_free[stream] + m_rng.range(800, 2500));
    }

    void launch(Thread& t, KernelRow k, double medianUs, std::uint32_t stream = kCompute) {
        k.streamId = stream;
        k.start = gpuStart(t, stream);
        k.end = k.start + m_rng.heavyTailNs(medianUs * 1000.0, 0.15);
        k.correlationId = api(t, "cudaLaunchKernel_v7000", 4500);
        m_w.addKernel(k);
        m_free[stream] = k.end;
    }

    void copy(Thread& t, std::uint32_t stream, std::uint8_t kind, std::uint8_t src,
              std::uint8_t dst, std::uint64_t bytes) {
        nsys::MemcpyRow m;
        m.start = gpuStart(t, stream);
        // ~9.5 GB/s from pageable memory, ~25 GB/s from pinned.
        m.end = m.start + 1500 + std::int64_t(double(bytes) / (src == 6 ? 25.0 : 9.5));
        m.pid = kPid;
        m.deviceId = kDevice;
        m.contextId = kContext;
        m.streamId = stream;
        m.bytes = bytes;
        m.copyKind = kind;
        m.srcKind = src;
        m.dstKind = dst;
        // A pageable copy returns only once the data is staged.
        const std::uint32_t corr = ++m_correlation;
        nsys::ApiCallRow r;
        r.start = t.now;
        r.end = m.end + m_rng.range(2000, 5000);
        r.pid = kPid;
        r.tid = t.tid;
        r.correlationId = corr;
        r.name = "cudaMemcpyAsync_v3020";
        m_w.addApiCall(r);
        t.now = r.end + m_rng.range(1000, 3000);
        m.correlationId = corr;
        m_w.addMemcpy(m);
        m_free[stream] = m.end;
    }

    void memset(Thread& t, std::uint64_t bytes) {
        nsys::MemsetRow m;
        m.start = gpuStart(t, kCompute);
        m.end = m.start + 1500 + std::int64_t(double(bytes) / 2000.0);
        m.pid = kPid;
        m.deviceId = kDevice;
        m.contextId = kContext;
        m.streamId = kCompute;
        m.bytes = bytes;
        m.correlationId = api(t, "cudaMemsetAsync_v3020", 4000);
        m_w.addMemset(m);
        m_free[kCompute] = m.end;
    }

    void deviceSync() {
        Thread& t = m_main;
        std::int64_t gpuEnd = 0;
        for (std::int64_t f : m_free)
            gpuEnd = std::max(gpuEnd, f);
        nsys::ApiCallRow r;
        r.start = t.now;
        r.end = std::max(t.now + 3000, gpuEnd + 2500);
        r.pid = kPid;
        r.tid = t.tid;
        r.correlationId = ++m_correlation;
        r.name = "cudaDeviceSynchronize_v3020";
        m_w.addApiCall(r);
        nsys::SyncRow s;
        s.start = r.start + 1500;
        s.end = r.end - 1000;
        s.pid = kPid;
        s.deviceId = kDevice;
        s.contextId = kContext;
        s.syncType = 1; // as nsys writes cudaDeviceSynchronize
        s.correlationId = r.correlationId;
        m_w.addSync(s);
        t.now = r.end + m_rng.range(2000, 6000);
    }

    void osrt(Thread& t, const char* name, std::int64_t duration, std::int64_t ret) {
        nsys::OsrtRow r;
        r.start = t.now;
        r.end = t.now + duration;
        r.pid = kPid;
        r.tid = t.tid;
        r.name = name;
        r.returnValue = ret;
        m_w.addOsrt(r);
        t.now = r.end + m_rng.range(1000, 3000);
    }

    void push(Thread& t, std::string text) {
        t.open.emplace_back(t.now, std::move(text));
        t.now += m_rng.range(400, 900);
    }

    void pop(Thread& t) {
        t.now += m_rng.range(300, 700);
        nsys::NvtxRow r;
        r.start = t.open.back().first;
        r.end = t.now;
        r.pid = kPid;
        r.tid = t.tid;
        r.text = std::move(t.open.back().second);
        m_w.addNvtx(r);
        t.open.pop_back();
    }
};

} // namespace

bool writeSampleTrace(const std::string& path, std::string* error, SampleVariant variant) {
    auto writer = nsys::Writer::create(path, nsys::SchemaFlavor::V3_25, error);
    if (!writer)
        return false;
    SampleGenerator(*writer, variant).run();
    return writer->commit(error);
}

} // namespace strobe::sample
