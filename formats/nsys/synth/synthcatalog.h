// SPDX-License-Identifier: MIT
#pragma once

// The synthetic generator's catalogue: real-looking kernels (names, launch shapes, registers,
// shared memory, median durations) and the PyTorch ops of each layer kind with the kernels
// they launch. Internal to formats/nsys/synth.

#include <array>
#include <cstdint>

namespace strobe::synth::detail {

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

extern const KernelKind kKinds[KindCount];

struct Op {
    const char* name;            // NVTX text, as PyTorch's emit_nvtx writes it
    std::array<Kind, 2> kernels; // the second only when `twoKernels`
    bool twoKernels = false;
};

inline constexpr Op kConvForward[] = {
    {"aten::conv2d", {ConvFwd, ConvFwd}},
    {"aten::batch_norm", {BnFwd, BnFwd}},
    {"aten::relu_", {ReluKernel, ReluKernel}},
};
inline constexpr Op kConvGroupedForward[] = {
    {"aten::conv2d", {ConvGrouped, ConvGrouped}},
    {"aten::batch_norm", {BnFwd, BnFwd}},
    {"aten::relu_", {ReluKernel, ReluKernel}},
};
inline constexpr Op kBlockForward[] = {
    {"aten::layer_norm", {LayerNorm, LayerNorm}},
    {"aten::linear", {Sm90Gemm, Sm90Gemm}},
    {"aten::_scaled_dot_product_flash_attention", {FlashFwd, FlashFwd}},
    {"aten::softmax", {SoftmaxFwd, SoftmaxFwd}},
    {"aten::linear", {SgemmNn, AddKernel}, true},
    {"aten::add", {AddKernel, AddKernel}},
    {"aten::sum", {Reduce, Reduce}},
};
inline constexpr Op kConvBackward[] = {
    {"ReluBackward0", {ThresholdBwd, ThresholdBwd}},
    {"NativeBatchNormBackward0", {Reduce, ThresholdBwd}, true},
    {"ConvolutionBackward0", {DgradConv, WgradConv}, true},
};
inline constexpr Op kBlockBackward[] = {
    {"AddBackward0", {AddKernel, AddKernel}},
    {"AddmmBackward0", {SgemmNt, Sm90GemmNt}, true},
    {"SoftmaxBackward0", {SoftmaxBwd, SoftmaxBwd}},
    {"NativeLayerNormBackward0", {Reduce, ThresholdBwd}, true},
};

} // namespace strobe::synth::detail
