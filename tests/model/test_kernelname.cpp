// SPDX-License-Identifier: MIT
// Derived short kernel names (generic launchers named by what they run) and the kernel function's
// template arguments, on names as Kineto and nsys write them.
#include "model/kernelname.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct NameCase {
    const char* full;
    const char* base;
};

class ShortKernelName : public ::testing::TestWithParam<NameCase> {};

TEST_P(ShortKernelName, BaseName) {
    EXPECT_EQ(deriveShortKernelName(GetParam().full), GetParam().base);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ShortKernelName,
    ::testing::Values(
        NameCase{
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
            "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
            "at::detail::Array<char*, 1>)",
            "vectorized_elementwise_kernel"},
        NameCase{"cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)",
                 "computeOffsetsKernel"},
        NameCase{"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
                 "ncclKernel_AllReduce_RING_LL_Sum_float"},
        NameCase{"sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8",
                 "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8"},
        NameCase{"Kernel", "Kernel"},
        NameCase{"void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, "
                 "false>(float*, float const*, int, int, int)",
                 "softmax_warp_forward"},
        NameCase{"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned "
                 "int, 4, 64, 64>(float*, at::native::(anonymous "
                 "namespace)::CatArrInputTensorMetadata<float, unsigned int, 64, 64>, int, "
                 "int)",
                 "CatArrayBatchedCopy"},
        NameCase{"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<"
                 "{lambda(float)#1}>(at::TensorIteratorBase&)::{lambda(int)#1}>(int, "
                 "{lambda(int)#1})",
                 "elementwise_kernel"},
        NameCase{"Foo::operator()(int)", "operator()(int)"}, NameCase{"", ""},
        // Generic launchers are named by the kernel class they run (issue 44, item 1), as in
        // the A100 DDP fixture: not "Kernel" for every CUTLASS GEMM.
        NameCase{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>("
                 "cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
                 "cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4"},
        NameCase{"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32_"
                 "64x128_32x3_nhwc_align4>(cutlass_tensorop_s1688dgrad_optimized_tf32_64x128_"
                 "32x3_nhwc_align4::Params)",
                 "cutlass_tensorop_s1688dgrad_optimized_tf32_64x128_32x3_nhwc_align4"},
        NameCase{"void cutlass::Kernel2<cutlass_80_wmma_tensorop_h161616gemm_32x32_128x2_tn_"
                 "align8>(cutlass_80_wmma_tensorop_h161616gemm_32x32_128x2_tn_align8::Params)",
                 "cutlass_80_wmma_tensorop_h161616gemm_32x32_128x2_tn_align8"},
        NameCase{"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<"
                 "int, int, int, int>, cutlass::gemm::collective::CollectiveMma<float>, "
                 "void> >(cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, "
                 "cutlass::gemm::collective::CollectiveMma<float>, void>::Params)",
                 "GemmUniversal"},
        NameCase{"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::"
                 "FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<int>, "
                 "true> > > >(flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::"
                 "CollectiveMainloopFwdSm90<2, cute::tuple<int>, true> > >::Params)",
                 "FlashAttnFwdSm90"},
        // A launcher whose argument is no type keeps its own name.
        NameCase{"void cutlass::device_kernel<128>(int)", "device_kernel"},
        NameCase{"cutlass::Kernel(int)", "Kernel"}));

TEST(KernelTemplateArguments, OnlyTheKernelFunctionsOwn) {
    EXPECT_EQ(kernelTemplateArguments("void at::native::elementwise_kernel<128, 4, F<int> >(int, "
                                      "F<int>)"),
              "128, 4, F<int> ");
    EXPECT_EQ(kernelTemplateArguments("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_"
                                      "16x6_tn_align4>(cutlass_80_tensorop_s1688gemm_64x64_16x6_"
                                      "tn_align4::Params)"),
              "cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4");
    // The parameters' and the namespace's words are not template arguments.
    EXPECT_EQ(kernelTemplateArguments("void scal_kernel_impl(cublasTransposeParams<float>, float "
                                      "const*)"),
              "");
    EXPECT_EQ(kernelTemplateArguments("void fbgemm_gpu::permute_2D_data_kernel<false, int>(int)"),
              "false, int");
    EXPECT_EQ(kernelTemplateArguments("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n"), "");
    EXPECT_EQ(kernelTemplateArguments(""), "");
}

TEST(KernelTemplateArguments, GenericLaunchers) {
    for (const char* n : {"Kernel", "Kernel2", "device_kernel"})
        EXPECT_TRUE(isGenericKernelLauncher(n)) << n;
    for (const char* n : {"kernel", "elementwise_kernel", "KernelX", ""})
        EXPECT_FALSE(isGenericKernelLauncher(n)) << n;
}

} // namespace
