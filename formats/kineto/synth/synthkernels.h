// SPDX-License-Identifier: MIT
#pragma once

// The kernels of the synthetic training loop (trainingloop.cpp), named and configured as cuDNN,
// cuBLAS, ATen and NCCL launch them on an A100, with a typical duration each.

#include "formats/kineto/synth/synthwriter.h"

namespace strobe::kinetosynth::kernels {

inline const KernelKind kFill = {
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, "
    "at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
    {1, 1, 1},
    {128, 1, 1},
    16,
    0,
    2000};
inline const KernelKind kConvFprop = {
    "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
    "stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
    {784, 1, 1},
    {128, 1, 1},
    232,
    81920,
    180000};
inline const KernelKind kConvDgrad = {
    "sm80_xmma_dgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x16_"
    "stage5_warpsize2x2x1_g1_tensor16x8x8_kernel",
    {1568, 1, 1},
    {128, 1, 1},
    168,
    61440,
    200000};
inline const KernelKind kConvWgrad = {
    "sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
    "stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
    {4, 36, 1},
    {128, 1, 1},
    240,
    81920,
    220000};
inline const KernelKind kBnForward = {
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
    "float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
    "float*, float*, float*, float, float)",
    {64, 32, 1},
    {512, 1, 1},
    40,
    400,
    60000};
inline const KernelKind kBnBackward = {
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, "
    "float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, "
    "float*, float const*, float*, float*, float const*, float const*, float)",
    {64, 32, 1},
    {512, 1, 1},
    48,
    8192,
    90000};
inline const KernelKind kClampMin = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
    "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()"
    "() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous "
    "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()"
    "() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
    {6272, 1, 1},
    {128, 1, 1},
    22,
    0,
    25000};
inline const KernelKind kThresholdBackward = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
    "namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda("
    "float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::(anonymous "
    "namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda("
    "float, float)#1}, at::detail::Array<char*, 3>)",
    {6272, 1, 1},
    {128, 1, 1},
    24,
    0,
    35000};
inline const KernelKind kAdd = {
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, "
    "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
    {6272, 1, 1},
    {128, 1, 1},
    26,
    0,
    30000};
inline const KernelKind kMaxPool = {
    "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float "
    "const*, long, long, long, int, int, int, int, int, int, int, int, int, int, float*, long*)",
    {6272, 1, 1},
    {256, 1, 1},
    38,
    0,
    70000};
inline const KernelKind kMaxPoolBackward = {
    "void at::native::(anonymous namespace)::max_pool_backward_nchw<float, float>(float const*, "
    "long const*, int, long, long, long, int, int, int, int, int, int, int, int, int, int, "
    "float*)",
    {25088, 1, 1},
    {256, 1, 1},
    40,
    0,
    90000};
inline const KernelKind kAvgPool = {
    "void at::native::(anonymous namespace)::adaptive_average_pool<"
    "float>(float const*, float*, int, int, int, int, long, long, long)",
    {1, 512, 32},
    {32, 8, 1},
    30,
    0,
    12000};
inline const KernelKind kAvgPoolBackward = {
    "void at::native::(anonymous "
    "namespace)::adaptive_average_gradinput<float>(float*, float "
    "const*, int, int, int, int)",
    {1, 512, 32},
    {32, 8, 1},
    28,
    0,
    15000};
inline const KernelKind kGemm = {
    "ampere_sgemm_128x64_tn", {16, 1, 1}, {128, 1, 1}, 122, 12544, 52000};
inline const KernelKind kGemmNn = {
    "ampere_sgemm_64x32_sliced1x4_nn", {8, 1, 4}, {128, 1, 1}, 90, 8192, 30000};
inline const KernelKind kGemmNt = {
    "ampere_sgemm_128x32_nt", {16, 1, 1}, {128, 1, 1}, 110, 12288, 34000};
inline const KernelKind kReduce = {
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
    "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()("
    "at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::"
    "ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
    "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
    {8, 1, 1},
    {32, 16, 1},
    32,
    16,
    7000};
inline const KernelKind kLogSoftmax = {
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
    "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
    {32, 1, 1},
    {512, 1, 1},
    38,
    0,
    9000};
inline const KernelKind kLogSoftmaxBackward = {
    "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, "
    "at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float "
    "const*, long)",
    {32, 1, 1},
    {512, 1, 1},
    40,
    0,
    9000};
inline const KernelKind kNllLoss = {
    "void nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>("
    "float*, float*, float const*, long const*, float const*, bool, "
    "long, long, long, long)",
    {1, 1, 1},
    {32, 1, 1},
    28,
    2048,
    7000};
inline const KernelKind kNllLossBackward = {
    "void nll_loss_backward_reduce_cuda_kernel_2d<float, long>("
    "float*, float const*, long const*, float const*, float "
    "const*, bool, int, int, long, long)",
    {1, 1, 1},
    {32, 1, 1},
    24,
    0,
    5000};
inline const KernelKind kMultiTensorApply = {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(at::native::("
    "anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)",
    {320, 1, 1},
    {512, 1, 1},
    64,
    0,
    40000};
inline const KernelKind kAllReduce = {
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
    {2, 1, 1},
    {512, 1, 1},
    96,
    0,
    420000};
// NCCL 2.19 and later: one kernel signature for every collective (job traces).
inline const KernelKind kAllReduceArgs = {
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    {8, 1, 1},
    {512, 1, 1},
    96,
    87568,
    420000};

} // namespace strobe::kinetosynth::kernels
