// SPDX-License-Identifier: MIT
#include "capture/kernelnames.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

using namespace strobe::capture;

struct ShortNameCase {
    const char* demangled;
    const char* expected;
};

class ShortKernelName : public ::testing::TestWithParam<ShortNameCase> {};

TEST_P(ShortKernelName, MatchesNsys) {
    EXPECT_EQ(shortKernelName(GetParam().demangled), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ShortKernelName,
    ::testing::Values(
        ShortNameCase{"gemm_tiled_kernel(float const*, float const*, float*, int)",
                      "gemm_tiled_kernel"},
        ShortNameCase{"void clover::par_ranged2d_kernel<int>(int, float*)", "par_ranged2d_kernel"},
        ShortNameCase{"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<"
                      "float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
                      "at::detail::Array<char*, 1>)",
                      "vectorized_elementwise_kernel"},
        ShortNameCase{"void (anonymous namespace)::softmax_warp_forward<float, 10>(float*, int)",
                      "softmax_warp_forward"},
        ShortNameCase{"nvkernel_solve_F1L210_2", "nvkernel_solve_F1L210_2"},
        ShortNameCase{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>("
                      "cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
                      "Kernel"},
        ShortNameCase{"ns::Functor::operator()(int) const", "operator()"}),
    [](const ::testing::TestParamInfo<ShortNameCase>& info) {
        std::string name = info.param.expected;
        for (char& c : name)
            if (!std::isalnum(static_cast<unsigned char>(c)))
                c = '_';
        return name + "_" + std::to_string(info.index);
    });

TEST(KernelNames, DemanglesCppSymbol) {
    const auto names = kernelNames("_Z17gemm_tiled_kernelPKfS0_Pfi");
    EXPECT_EQ(names.mangledName, "_Z17gemm_tiled_kernelPKfS0_Pfi");
    EXPECT_EQ(names.demangledName, "gemm_tiled_kernel(float const*, float const*, float*, int)");
    EXPECT_EQ(names.shortName, "gemm_tiled_kernel");
}

TEST(KernelNames, TemplateInNamespace) {
    const auto names = kernelNames("_ZN2ns6kernelILi4EEEvPf");
    EXPECT_EQ(names.demangledName, "void ns::kernel<4>(float*)");
    EXPECT_EQ(names.shortName, "kernel");
}

TEST(KernelNames, PlainCSymbolIsUsedAsIs) {
    const auto names = kernelNames("my_c_kernel");
    EXPECT_EQ(names.mangledName, "my_c_kernel");
    EXPECT_EQ(names.demangledName, "my_c_kernel");
    EXPECT_EQ(names.shortName, "my_c_kernel");
}

TEST(KernelNames, BrokenMangledNameFallsBack) {
    const auto names = kernelNames("_Z999broken");
    EXPECT_EQ(names.demangledName, "_Z999broken");
    EXPECT_EQ(names.shortName, "_Z999broken");
}
