// SPDX-License-Identifier: MIT
// The GPU metrics beside the steps (TensorBoard's PyTorch profiler plugin, gpu_metrics_parser.py
// and tensor_cores_parser.py): hand-built traces whose answers are worked out below, Kineto's
// per-kernel estimates, and the ResNet-50 fixture against the plugin's rules followed on its JSON.
#include "formats/open.h"
#include "model/analysis/gpumetrics.h"
#include "model/analysis/steps.h"
#include "model/tracebuilder.h"
#include "tests/support/kinetoscan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace strobe;
using namespace strobe::test;

namespace {

// One kernel of a hand-built trace.
struct K {
    const char* name;
    std::uint32_t device;
    TimeNs start, end;
    std::int32_t grid = 1;
    std::int32_t block = 128;
    std::uint32_t registers = 32;
    std::uint32_t shared = 0;
    std::optional<float> blocksPerSm = {}, occupancy = {}; // recorded, as Kineto writes them
    std::uint32_t stream = 7;
    std::uint8_t unrecorded = 0; // KernelField bits
};

// A V100 as Kineto's deviceProperties describe it: no blocks-per-SM limit.
GpuInfo v100(TraceBuilder& b, std::uint32_t id) {
    GpuInfo g;
    g.id = id;
    g.name = b.intern("Tesla V100-DGXS-32GB");
    g.smCount = 80;
    g.computeMajor = 7;
    g.maxThreadsPerBlock = 1024;
    g.maxRegistersPerBlock = 65536;
    g.maxRegistersPerSm = 65536;
    g.maxShmemPerBlock = 49152;
    g.maxShmemPerBlockOptin = 98304;
    g.maxShmemPerSm = 98304;
    g.threadsPerWarp = 32;
    g.maxWarpsPerSm = 64;
    return g;
}

KernelConfig config(TraceBuilder& b, const K& k) {
    KernelConfig c;
    c.demangledName = b.intern(k.name);
    c.shortName = c.demangledName;
    c.grid = {k.grid, 1, 1};
    c.block = {k.block, 1, 1};
    c.registersPerThread = k.registers;
    c.staticSharedBytes = k.shared;
    c.detail = LaunchDetail::Basic;
    c.unrecorded = k.unrecorded;
    c.recordedOccupancy.blocksPerSm = k.blocksPerSm;
    c.recordedOccupancy.achievedOccupancyPercent = k.occupancy;
    return c;
}

std::unique_ptr<Trace> build(const std::vector<GpuInfo>& gpus, const std::vector<K>& kernels,
                             TraceBuilder& b) {
    for (const GpuInfo& g : gpus)
        b.addGpu(g);
    for (const K& k : kernels)
        b.addKernel(1, k.device, 1, k.stream, k.start, k.end, config(b, k), std::nullopt,
                    std::nullopt);
    return b.finish();
}

const GpuStepMetrics* ofDevice(const std::vector<GpuStepMetrics>& all, std::uint32_t device) {
    for (const GpuStepMetrics& m : all)
        if (m.deviceId == device)
            return &m;
    return nullptr;
}

} // namespace

// Recorded values (a Kineto trace) on GPU 0 over the steps [1000, 11000), 10000 ns:
//   A h884 (Tensor Cores) [0, 3000)     blocks/SM 0.5   occ 40  in the span 2000
//   B elementwise         [2000, 6000)  0.75            20      4000
//   C xmma_gemm (TC)      [5000, 7000)  2.0             60      2000
//   H bad values          [7000, 8000)  0 (skipped)    -99 (skipped) 1000
//   D reduce              [9000, 12000) 0.25            10      2000
//   Z zero length         [4000, 4000)  5.0             90      0
//   E after the steps     [12000, 13000) 1.0           100      0, touching D's end
// Busy: [1000, 8000) and [9000, 11000) = 9000 -> 0.9.
// SM efficiency, min(1, sum) per stretch: [1000,2000) 0.5, [2000,3000) 1 (1.25 capped),
// [3000,5000) 0.75, [5000,7000) 1 (2.75 and 2 capped), [9000,11000) 0.25:
//   500 + 1000 + 1500 + 2000 + 500 = 5500 over the span's 10000 -> 0.55 (uncapped: 0.85; each
//   kernel capped alone: 0.65; over the busy time: 0.61; with H estimated: 0.65).
// Occupancy weighted by time in the span: (40*2000 + 20*4000 + 60*2000 + 10*2000) / 10000 = 30.
// Tensor Cores: (A 2000 + C 2000) over the kernel time 11000.
// GPU 1 ran one kernel, after the steps: listed, idle, without the kernel metrics.
TEST(GpuMetrics, RecordedValuesOverlappingKernels) {
    TraceBuilder b(QStringLiteral("synthetic"));
    const auto t = build({v100(b, 0)},
                         {
                             {"volta_h884gemm_64x64", 0, 0, 3000, 40, 128, 32, 0, 0.5f, 40.f},
                             {"elementwise_kernel", 0, 2000, 6000, 60, 128, 32, 0, 0.75f, 20.f, 8},
                             {"xmma_gemm_f16f16", 0, 5000, 7000, 160, 128, 32, 0, 2.f, 60.f},
                             {"bad_values", 0, 7000, 8000, 8000, 128, 32, 0, 0.f, -99.f},
                             {"reduce_kernel", 0, 9000, 12000, 20, 128, 32, 0, 0.25f, 10.f},
                             {"zero_length", 0, 4000, 4000, 400, 128, 32, 0, 5.f, 90.f},
                             {"after_steps", 0, 12000, 13000, 80, 128, 32, 0, 1.f, 100.f},
                             {"other_gpu", 1, 20000, 21000, 80, 128, 32, 0, 1.f, 100.f},
                         },
                         b);
    const auto all = computeGpuStepMetrics(*t, {1000, 11000});
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].deviceId, 0u);
    EXPECT_EQ(all[1].deviceId, 1u);

    const GpuStepMetrics& g = all[0];
    EXPECT_EQ(g.span, (TimeRange{1000, 11000}));
    EXPECT_EQ(g.busyTime, 9000);
    EXPECT_DOUBLE_EQ(g.utilization, 0.9);
    ASSERT_TRUE(g.smEfficiency);
    EXPECT_DOUBLE_EQ(g.smEfficiency->value, 0.55);
    EXPECT_EQ(g.smEfficiency->basis, KernelMetricBasis::Recorded);
    EXPECT_EQ(g.smEfficiency->kernelsWithout, 1u); // H
    ASSERT_TRUE(g.achievedOccupancy);
    EXPECT_DOUBLE_EQ(g.achievedOccupancy->value, 30.0);
    EXPECT_EQ(g.achievedOccupancy->basis, KernelMetricBasis::Recorded);
    EXPECT_EQ(g.achievedOccupancy->kernelsWithout, 1u);
    EXPECT_EQ(g.kernelTime, 11000);
    EXPECT_EQ(g.tensorCoreKernelTime, 4000);
    EXPECT_DOUBLE_EQ(g.tensorCoreShare(), 4.0 / 11.0);

    const GpuStepMetrics& idle = all[1];
    EXPECT_EQ(idle.busyTime, 0);
    EXPECT_EQ(idle.utilization, 0.0);
    EXPECT_FALSE(idle.smEfficiency);
    EXPECT_FALSE(idle.achievedOccupancy);
    EXPECT_EQ(idle.kernelTime, 0);
    EXPECT_EQ(idle.tensorCoreShare(), 0.0);

    // The span is the steps': the same kernels over [2000, 3000) are all A and B (capped 1).
    const auto narrow = computeGpuStepMetrics(*t, {2000, 3000});
    ASSERT_TRUE(ofDevice(narrow, 0)->smEfficiency);
    EXPECT_DOUBLE_EQ(ofDevice(narrow, 0)->smEfficiency->value, 1.0);
    EXPECT_DOUBLE_EQ(ofDevice(narrow, 0)->achievedOccupancy->value, 30.0); // (40 + 20) / 2
    // Between the kernels: every GPU listed, nothing ran.
    const auto gap = computeGpuStepMetrics(*t, {7500, 9000});
    EXPECT_DOUBLE_EQ(ofDevice(gap, 0)->utilization, 1.0 / 3.0); // H, which has no values
    EXPECT_FALSE(ofDevice(gap, 0)->smEfficiency);
    EXPECT_FALSE(ofDevice(gap, 0)->achievedOccupancy);
    // No steps' time, no metrics.
    EXPECT_TRUE(computeGpuStepMetrics(*t, {5000, 5000}).empty());
    EXPECT_TRUE(computeGpuStepMetrics(*t, {1000, 11000}, [] { return true; }).empty());
}

// The plugin's own test of these metrics (tb_plugin/test/test_profiler.py, test_gpu_utilization
// and test_gpu_utilization_kernel_out_of_step), its kernels on GPU 1 in microseconds, and the
// plugin's expected answers.
TEST(GpuMetrics, ThePluginsOwnTestCases) {
    constexpr TimeNs us = 1000;
    TraceBuilder b(QStringLiteral("synthetic"));
    const auto t = build(
        {},
        {
            {"void cunn_ClassNLLCriterion_updateGradInput_kernel<float>", 1, 130 * us, 140 * us, 1,
             128, 32, 0, 0.5f, 0.6f},
            {"void gemmSN_TN_kernel_64addr", 1, 135 * us, 150 * us, 1, 128, 32, 0, 0.6f, 0.1f, 8},
            {"void gemmSN_TN_kernel_64addr", 1, 150 * us, 150 * us, 2, 128, 32, 0, 0.3f, 0.2f, 8},
            {"void cunn_ClassNLLCriterion_updateGradInput_kernel<float>", 1, 145 * us, 170 * us, 2,
             128, 32, 0, 0.3f, 1.0f},
            {"void cunn_ClassNLLCriterion_updateGradInput_kernel<float>", 1, 200 * us, 220 * us, 3,
             128, 32, 0, 10.5f, 0.3f},
        },
        b);
    const auto all = computeGpuStepMetrics(*t, {100 * us, 220 * us});
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].deviceId, 1u);
    EXPECT_NEAR(all[0].utilization, (40.0 + 20.0) / 120.0, 1e-12);
    ASSERT_TRUE(all[0].smEfficiency);
    EXPECT_NEAR(all[0].smEfficiency->value,
                (0.5 * (135 - 130) + 1.0 * (140 - 135) + 0.6 * (145 - 140) + 0.9 * (150 - 145) +
                 0.3 * (170 - 150) + 1.0 * (220 - 200)) /
                    (220 - 100),
                1e-7); // the recorded values are floats
    ASSERT_TRUE(all[0].achievedOccupancy);
    EXPECT_NEAR(all[0].achievedOccupancy->value,
                (0.6 * 10 + 0.1 * 15 + 1.0 * 25 + 0.3 * 20) / (10 + 15 + 25 + 20), 1e-7);

    // Every kernel outside the step [100, 200): idle, and neither estimate.
    TraceBuilder b2(QStringLiteral("synthetic"));
    const auto out = build({},
                           {
                               {"k", 1, 60 * us, 80 * us, 1, 128, 32, 0, 0.5f, 0.6f},
                               {"k", 1, 240 * us, 265 * us, 1, 128, 32, 0, 10.5f, 0.3f},
                           },
                           b2);
    const auto outside = computeGpuStepMetrics(*out, {100 * us, 200 * us});
    ASSERT_EQ(outside.size(), 1u);
    EXPECT_EQ(outside[0].utilization, 0.0);
    EXPECT_FALSE(outside[0].smEfficiency);
    EXPECT_FALSE(outside[0].achievedOccupancy);
}

// The Tensor Core rule is the plugin's: a substring of the name, case-sensitive.
TEST(GpuMetrics, TensorCoreKernelNames) {
    EXPECT_TRUE(usesTensorCores("volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_nn"));
    EXPECT_TRUE(usesTensorCores("ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn"));
    EXPECT_TRUE(usesTensorCores("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_nn>"));
    EXPECT_TRUE(usesTensorCores("sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32"));
    EXPECT_TRUE(usesTensorCores("dgrad_1x1_stride_2x2"));
    EXPECT_FALSE(usesTensorCores("volta_sgemm_128x64_nn"));
    EXPECT_FALSE(usesTensorCores("volta_scudnn_128x64_relu_medium_nn_v1"));
    EXPECT_FALSE(usesTensorCores("HMMA_kernel")); // the plugin matches "hmma" in lower case only
    EXPECT_FALSE(usesTensorCores(""));
}

// Kineto's estimates, worked out for a V100 (80 SMs, 64 warps and 2048 threads per SM, 64 Ki
// registers allocated per warp in 256s, 96 KiB of shared memory in 256-byte units, 32 blocks):
//   grid 50, block 256, 38 registers: 0.625 blocks/SM; 1280 registers a warp -> 51 warps -> 6
//     blocks resident, but only 0.625 launched: 0.625 x 256 / 2048 = 7.8 % -> 8 (Kineto's value
//     in the ResNet-50 fixture for this launch)
//   grid 3136, block 128, 128 registers, 16 KiB: 39.2 blocks/SM; 4096 registers a warp -> 16
//     warps -> 4 blocks (shared memory allows 6): 4 x 128 / 2048 = 25 %
//   grid 8000, block 32, 16 registers: the 32 blocks per SM bind (warps allow 64): 50 %
TEST(GpuMetrics, KinetoEstimatesOfOneLaunch) {
    TraceBuilder b(QStringLiteral("synthetic"));
    const auto t = build({v100(b, 0)}, {{"k", 0, 0, 10}}, b);
    const std::optional<GpuInfo> gpu = occupancyLimitsOf(*t, 0);
    ASSERT_TRUE(gpu);
    EXPECT_EQ(gpu->maxBlocksPerSm, 32u); // from the architecture table, by compute capability 7.0

    TraceBuilder cb(QStringLiteral("configs"));
    const KernelConfig small = config(cb, {"k", 0, 0, 1, 50, 256, 38, 0});
    EXPECT_DOUBLE_EQ(*estimatedBlocksPerSm(*gpu, small), 0.625);
    EXPECT_EQ(estimatedAchievedOccupancyPercent(*gpu, small), 8.0);
    const KernelConfig conv = config(cb, {"k", 0, 0, 1, 3136, 128, 128, 16384});
    EXPECT_DOUBLE_EQ(*estimatedBlocksPerSm(*gpu, conv), 39.2);
    EXPECT_EQ(estimatedAchievedOccupancyPercent(*gpu, conv), 25.0);
    const KernelConfig tiny = config(cb, {"k", 0, 0, 1, 8000, 32, 16, 0});
    EXPECT_EQ(estimatedAchievedOccupancyPercent(*gpu, tiny), 50.0);

    // What the estimate needs and never invents.
    KernelConfig noGrid = small;
    noGrid.grid = {0, 1, 1};
    EXPECT_FALSE(estimatedBlocksPerSm(*gpu, noGrid));
    EXPECT_FALSE(estimatedAchievedOccupancyPercent(*gpu, noGrid));
    KernelConfig rocm = small;
    rocm.detail = LaunchDetail::None;
    EXPECT_FALSE(estimatedBlocksPerSm(*gpu, rocm));
    KernelConfig noRegisters = small;
    noRegisters.unrecorded = std::uint8_t(KernelField::Registers);
    EXPECT_DOUBLE_EQ(*estimatedBlocksPerSm(*gpu, noRegisters), 0.625);
    EXPECT_FALSE(estimatedAchievedOccupancyPercent(*gpu, noRegisters));
    KernelConfig tooBig = small;
    tooBig.block = {2048, 1, 1};
    EXPECT_FALSE(estimatedAchievedOccupancyPercent(*gpu, tooBig));
    GpuInfo noSms = *gpu;
    noSms.smCount = 0;
    EXPECT_FALSE(estimatedBlocksPerSm(noSms, small));
    EXPECT_FALSE(estimatedAchievedOccupancyPercent(noSms, small));
    GpuInfo noLimits;
    noLimits.smCount = 80;
    EXPECT_DOUBLE_EQ(*estimatedBlocksPerSm(noLimits, small), 0.625);
    EXPECT_FALSE(estimatedAchievedOccupancyPercent(noLimits, small));
}

// A trace without recorded values (an nsys export, a Strobe capture), steps [0, 4000):
//   GPU 0, limits recorded: K1 [0, 1000) 0.625 blocks/SM, 8 %; K2 [500, 2500) 39.2, 25 %;
//     K3 [2000, 3000) grid 40, block 64: 0.5 blocks/SM, registers not recorded (no occupancy)
//     SM efficiency: 0.625 x 500 + 1 x 2000 ([500, 2500) capped) + 0.5 x 500 = 2562.5 / 4000
//     occupancy: (8 x 1000 + 25 x 2000) / 3000 = 19.33 (K3 left out, counted)
//   GPU 2, only a name (V100, so limits by the architecture table) and 80 SMs: K2 [0, 1000):
//     SM efficiency 1000 / 4000, occupancy 25
//   GPU 3, a name the table does not know and no SM count: nothing to estimate from
TEST(GpuMetrics, EstimatedWhereNotRecorded) {
    TraceBuilder b(QStringLiteral("synthetic"));
    GpuInfo byName;
    byName.id = 2;
    byName.name = b.intern("Tesla V100-SXM2-16GB");
    byName.smCount = 80;
    GpuInfo unknown;
    unknown.id = 3;
    unknown.name = b.intern("Mystery Accelerator");
    const auto t = build(
        {v100(b, 0), byName, unknown},
        {
            {"k1", 0, 0, 1000, 50, 256, 38, 0},
            {"k2", 0, 500, 2500, 3136, 128, 128, 16384, {}, {}, 8},
            {"k3", 0, 2000, 3000, 40, 64, 0, 0, {}, {}, 7, std::uint8_t(KernelField::Registers)},
            {"k2", 2, 0, 1000, 3136, 128, 128, 16384},
            {"k2", 3, 0, 1000, 3136, 128, 128, 16384},
        },
        b);
    const auto all = computeGpuStepMetrics(*t, {0, 4000});
    ASSERT_EQ(all.size(), 3u);

    const GpuStepMetrics* g0 = ofDevice(all, 0);
    ASSERT_NE(g0, nullptr);
    EXPECT_EQ(g0->busyTime, 3000);
    ASSERT_TRUE(g0->smEfficiency);
    EXPECT_DOUBLE_EQ(g0->smEfficiency->value, 2562.5 / 4000.0);
    EXPECT_EQ(g0->smEfficiency->basis, KernelMetricBasis::Estimated);
    EXPECT_EQ(g0->smEfficiency->kernelsWithout, 0u);
    ASSERT_TRUE(g0->achievedOccupancy);
    EXPECT_DOUBLE_EQ(g0->achievedOccupancy->value, 58000.0 / 3000.0);
    EXPECT_EQ(g0->achievedOccupancy->basis, KernelMetricBasis::Estimated);
    EXPECT_EQ(g0->achievedOccupancy->kernelsWithout, 1u);

    const GpuStepMetrics* g2 = ofDevice(all, 2);
    ASSERT_NE(g2, nullptr);
    ASSERT_TRUE(g2->smEfficiency);
    EXPECT_DOUBLE_EQ(g2->smEfficiency->value, 0.25);
    ASSERT_TRUE(g2->achievedOccupancy);
    EXPECT_DOUBLE_EQ(g2->achievedOccupancy->value, 25.0);

    const GpuStepMetrics* g3 = ofDevice(all, 3);
    ASSERT_NE(g3, nullptr);
    EXPECT_DOUBLE_EQ(g3->utilization, 0.25);
    EXPECT_FALSE(g3->smEfficiency);
    EXPECT_FALSE(g3->achievedOccupancy);
    EXPECT_FALSE(occupancyLimitsOf(*t, 3));
}

// One GPU with a recorded and an estimated kernel: both count, and the basis says so.
TEST(GpuMetrics, MixedBasis) {
    TraceBuilder b(QStringLiteral("synthetic"));
    const auto t = build({v100(b, 0)},
                         {
                             {"recorded", 0, 0, 1000, 40, 128, 32, 0, 0.5f, 40.f},
                             {"estimated", 0, 1000, 2000, 50, 256, 38, 0},
                         },
                         b);
    const auto all = computeGpuStepMetrics(*t, {0, 2000});
    ASSERT_EQ(all.size(), 1u);
    ASSERT_TRUE(all[0].smEfficiency);
    EXPECT_EQ(all[0].smEfficiency->basis, KernelMetricBasis::Mixed);
    EXPECT_DOUBLE_EQ(all[0].smEfficiency->value, (0.5 + 0.625) / 2);
    ASSERT_TRUE(all[0].achievedOccupancy);
    EXPECT_EQ(all[0].achievedOccupancy->basis, KernelMetricBasis::Mixed);
    EXPECT_DOUBLE_EQ(all[0].achievedOccupancy->value, (40.0 + 8.0) / 2);
}

namespace {

// The plugin's rules followed on the JSON's kernel events (gpu_metrics_parser.py's parse_event,
// calculate_gpu_utilization, calculate_approximated_sm_efficiency, calculate_occupancy;
// tensor_cores_parser.py), in nanoseconds.
struct PluginGpu {
    std::vector<std::pair<std::int64_t, std::int64_t>> kernels;
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> blocks, occupancy;
    std::vector<std::tuple<std::int64_t, std::int64_t, bool>> tensorCore;
};

struct PluginMetrics {
    std::int64_t busy = 0;
    double utilization = 0;
    std::optional<double> smEfficiency, occupancy;
    std::int64_t kernelTime = 0, tensorCoreTime = 0;
};

bool pluginTensorCore(const std::string& name) {
    static const char* const allowlist[] = {"h884",
                                            "s884",
                                            "h1688",
                                            "s1688",
                                            "hmma",
                                            "i8816",
                                            "16816",
                                            "dgrad_1x1_stride_2x2",
                                            "first_layer_wgrad_kernel",
                                            "conv1x1",
                                            "conv2d_c1_k1",
                                            "direct_group",
                                            "xmma_implicit_gemm",
                                            "xmma_sparse_conv",
                                            "xmma_warp_specialized_implicit_gemm",
                                            "xmma_gemm",
                                            "xmma_sparse_gemm",
                                            "c1688"};
    for (const char* p : allowlist)
        if (name.find(p) != std::string::npos)
            return true;
    return false;
}

// The JSON's decimal microseconds in nanoseconds, exactly: at most three fractional digits, so
// the integer n whose n / 1000 parses to the same double (both round correctly; unique below 2^43
// microseconds, where the doubles lie closer than 0.001 apart).
std::int64_t ns(const std::optional<std::int64_t>& whole, const std::optional<double>& value) {
    if (whole)
        return *whole * 1000;
    if (!value || !(std::fabs(*value) < 8.796e12))
        throw std::runtime_error("a time the test cannot convert exactly");
    const std::int64_t n = std::llround(*value * 1000.0);
    for (const std::int64_t c : {n, n - 1, n + 1})
        if (double(c) / 1000.0 == *value)
            return c;
    throw std::runtime_error("a time with more than three fractional digits");
}

PluginMetrics pluginMetrics(const PluginGpu& g, std::int64_t s, std::int64_t e) {
    PluginMetrics m;
    // merge_ranges, then intersection_ranges_lists with the steps.
    auto k = g.kernels;
    std::sort(k.begin(), k.end());
    std::vector<std::pair<std::int64_t, std::int64_t>> merged;
    for (const auto& r : k) {
        if (!merged.empty() && r.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, r.second);
        else
            merged.push_back(r);
    }
    for (const auto& r : merged)
        m.busy += std::max<std::int64_t>(0, std::min(r.second, e) - std::max(r.first, s));
    m.utilization = double(m.busy) / double(e - s);
    // merge_ranges_with_value: endpoints by (time, START before END), the running sum capped.
    struct Ep {
        std::int64_t t;
        int type;
        double v;
    };
    std::vector<Ep> eps;
    for (const auto& [a, b, v] : g.blocks) {
        eps.push_back({a, 0, v});
        eps.push_back({b, 1, v});
    }
    std::stable_sort(eps.begin(), eps.end(), [](const Ep& x, const Ep& y) {
        return x.t < y.t || (x.t == y.t && x.type < y.type);
    });
    if (!eps.empty()) {
        double weighted = 0;
        bool any = false;
        std::int64_t last = eps[0].t;
        double value = eps[0].v; // the plugin starts from the first endpoint's value
        for (std::size_t i = 1; i < eps.size(); ++i) {
            if (eps[i].t > last && value > 0.0) {
                const std::int64_t lo = std::max(last, s), hi = std::min(eps[i].t, e);
                if (lo < hi) {
                    weighted += std::min(value, 1.0) * double(hi - lo);
                    any = true;
                }
            }
            last = eps[i].t;
            value += eps[i].type == 0 ? eps[i].v : -eps[i].v;
        }
        if (any)
            m.smEfficiency = weighted / double(e - s);
    }
    double occupancy = 0, occupancyTime = 0;
    for (const auto& [a, b, v] : g.occupancy) {
        const std::int64_t lo = std::max(a, s), hi = std::min(b, e);
        if (lo < hi) {
            occupancy += v * double(hi - lo);
            occupancyTime += double(hi - lo);
        }
    }
    if (occupancyTime > 0)
        m.occupancy = occupancy / occupancyTime;
    for (const auto& [a, b, tc] : g.tensorCore) {
        const std::int64_t lo = std::max(a, s), hi = std::min(b, e);
        if (lo < hi) {
            m.kernelTime += hi - lo;
            if (tc)
                m.tensorCoreTime += hi - lo;
        }
    }
    return m;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

} // namespace

// Every Kineto fixture over its steps moved to the device side (the ResNet-50 and HTA traces
// record blocks per SM and occupancy; the ROCm one records neither): Strobe's metrics equal the
// plugin's rules followed on the JSON.
class GpuMetricsFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuMetricsFixture, AgreesWithThePluginOnTheJson) {
    const std::string path = kinetoFixturePath(GetParam());
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const Trace& t = *r.trace;
    const StepBreakdown steps = computeStepBreakdown(t);
    ASSERT_FALSE(steps.steps.empty());
    const TimeRange span{steps.steps.front().range.start, steps.steps.back().range.end};

    const ScannedTrace scan = scanKineto(path);
    std::map<std::int64_t, PluginGpu> gpus;
    for (const ScannedEvent& e : scan.events) {
        if (e.ph != "X" || lower(e.cat) != "kernel" || !e.device)
            continue;
        const std::int64_t a = ns(e.tsInt, e.ts), b = a + ns(e.durInt, e.dur);
        PluginGpu& g = gpus[*e.device];
        g.kernels.emplace_back(a, b);
        if (e.blocksPerSm && *e.blocksPerSm > 0)
            g.blocks.emplace_back(a, b, *e.blocksPerSm);
        if (e.occupancyPercent && *e.occupancyPercent >= 0)
            g.occupancy.emplace_back(a, b, *e.occupancyPercent);
        g.tensorCore.emplace_back(a, b, pluginTensorCore(e.name));
    }

    const auto all = computeGpuStepMetrics(t, span);
    ASSERT_EQ(all.size(), gpus.size());
    for (const GpuStepMetrics& m : all) {
        SCOPED_TRACE(m.deviceId);
        ASSERT_TRUE(gpus.count(m.deviceId));
        const PluginMetrics want = pluginMetrics(gpus.at(m.deviceId), span.start, span.end);
        EXPECT_EQ(m.busyTime, want.busy);
        EXPECT_DOUBLE_EQ(m.utilization, want.utilization);
        ASSERT_EQ(m.smEfficiency.has_value(), want.smEfficiency.has_value());
        if (m.smEfficiency) {
            // Kineto's blocks per SM are floats ("39.2"): Strobe keeps them as floats, the
            // plugin reads the decimal as a double.
            EXPECT_NEAR(m.smEfficiency->value, *want.smEfficiency, 1e-7);
            EXPECT_EQ(m.smEfficiency->basis, KernelMetricBasis::Recorded);
            EXPECT_LE(m.smEfficiency->value, m.utilization);
        }
        ASSERT_EQ(m.achievedOccupancy.has_value(), want.occupancy.has_value());
        if (m.achievedOccupancy) {
            EXPECT_NEAR(m.achievedOccupancy->value, *want.occupancy, 1e-9);
            EXPECT_EQ(m.achievedOccupancy->basis, KernelMetricBasis::Recorded);
        }
        EXPECT_EQ(m.kernelTime, want.kernelTime);
        EXPECT_EQ(m.tensorCoreKernelTime, want.tensorCoreTime);
    }
}

INSTANTIATE_TEST_SUITE_P(Kineto, GpuMetricsFixture, ::testing::ValuesIn(kinetoFixtures()),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& c : n)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return n;
                         });

// The ResNet-50 trace in numbers a reader can check against TensorBoard's Overview, and the
// HTA A100 trace's cuDNN/CUTLASS s1688 kernels as Tensor Core time.
TEST(GpuMetrics, Resnet50AndA100Values) {
    for (const char* name :
         {"resnet50-kineto-2021.pt.trace.json.gz", "hta-a100-nccl-ddp.json.gz"}) {
        SCOPED_TRACE(name);
        LoadResult r = loadTrace(QString::fromStdString(kinetoFixturePath(name)));
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        const Trace& t = *r.trace;
        const StepBreakdown steps = computeStepBreakdown(t);
        ASSERT_EQ(steps.source, StepSource::ProfilerSteps);
        const TimeRange span{steps.steps.front().range.start, steps.steps.back().range.end};
        const auto all = computeGpuStepMetrics(t, span);
        ASSERT_EQ(all.size(), 1u);
        const GpuStepMetrics& m = all[0];
        EXPECT_EQ(m.deviceId, 0u);
        ASSERT_TRUE(m.smEfficiency && m.achievedOccupancy);
        EXPECT_LT(m.smEfficiency->value, m.utilization);
        if (std::string(name).find("resnet") != std::string::npos) {
            // 55.5 % busy, 54.7 % SM efficiency, 49.1 % occupancy.
            EXPECT_GT(m.utilization, 0.5);
            EXPECT_LT(m.utilization, 0.6);
            EXPECT_GT(m.smEfficiency->value, 0.5);
            EXPECT_GT(m.achievedOccupancy->value, 45.0);
            EXPECT_LT(m.achievedOccupancy->value, 55.0);
            EXPECT_EQ(m.tensorCoreKernelTime, 0); // fp32 on a V100: no Tensor Core kernel
        } else {
            // DDP waiting on NCCL: 23.3 % busy, 16.9 % SM efficiency; 16.4 % of the kernel time
            // in CUTLASS/cuDNN tf32 s1688 kernels.
            EXPECT_GT(m.utilization, 0.2);
            EXPECT_LT(m.utilization, 0.3);
            EXPECT_GT(m.tensorCoreShare(), 0.15);
            EXPECT_LT(m.tensorCoreShare(), 0.2);
        }
    }
}

// Kineto's estimate, computed by Strobe launch by launch, is the value Kineto recorded for it, on
// every fixture that records both the values and the GPU's properties (the V100 and A100 ones).
// One known difference: Kineto asks CUDA's occupancy calculator without the kernel's opt-in to
// more than 48 KiB of shared memory per block, which then answers 0 blocks; Strobe's estimate
// counts the blocks that do run.
TEST(GpuMetrics, EstimateEqualsKinetosRecordedValues) {
    std::size_t compared = 0, optedIn = 0;
    for (const std::string& name : kinetoFixtures()) {
        SCOPED_TRACE(name);
        LoadResult r = loadTrace(QString::fromStdString(kinetoFixturePath(name)));
        ASSERT_TRUE(r.ok()) << r.error.toStdString();
        const Trace& t = *r.trace;
        std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
        for (std::size_t i = 0; i < t.kernelCount(); ++i) {
            const std::uint32_t device = t.streams()[t.kernelStreamIndex(i)].deviceId;
            const std::uint32_t ci = t.kernelConfigIndex(i);
            const KernelConfig& c = t.kernelConfigs()[ci];
            const GpuInfo* gpu = t.gpuById(device);
            if (!seen.insert({device, ci}).second || !gpu || gpu->smCount == 0 ||
                !c.recordedOccupancy.blocksPerSm || !c.recordedOccupancy.achievedOccupancyPercent)
                continue;
            const std::string launch =
                t.string(c.demangledName).left(80).toStdString() + " grid " +
                std::to_string(c.grid[0]) + "x" + std::to_string(c.grid[1]) + "x" +
                std::to_string(c.grid[2]) + " block " + std::to_string(c.block[0]) + "x" +
                std::to_string(c.block[1]) + "x" + std::to_string(c.block[2]) + " regs " +
                std::to_string(c.registersPerThread) + " shared " +
                std::to_string(c.staticSharedBytes);
            const std::optional<double> blocks = estimatedBlocksPerSm(*gpu, c);
            ASSERT_TRUE(blocks) << launch;
            // Kineto wrote floats, some with six decimals ("0.009259" for 1/108).
            const double recordedBlocks = *c.recordedOccupancy.blocksPerSm;
            EXPECT_NEAR(*blocks, recordedBlocks, 5e-7 + 1e-6 * recordedBlocks) << launch;

            const std::optional<GpuInfo> limits = occupancyLimitsOf(t, device);
            ASSERT_TRUE(limits);
            const std::optional<double> occupancy = estimatedAchievedOccupancyPercent(*limits, c);
            ASSERT_TRUE(occupancy) << launch;
            const double recorded = *c.recordedOccupancy.achievedOccupancyPercent;
            if (c.staticSharedBytes + c.dynamicSharedBytes > gpu->maxShmemPerBlock) {
                EXPECT_EQ(recorded, 0.0) << launch;
                optedIn += *occupancy > 0.0 ? 1 : 0;
            } else {
                EXPECT_EQ(*occupancy, recorded) << launch;
                ++compared;
            }
        }
    }
    EXPECT_GT(compared, 600u); // 644 launch configurations

    EXPECT_GT(optedIn, 40u); // 49
}
