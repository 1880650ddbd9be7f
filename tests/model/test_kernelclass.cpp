// SPDX-License-Identifier: MIT
// The kernel class table: the default rules on real kernel names, user files and their errors.
#include "model/kernelclass.h"

#include <QFile>
#include <QStringBuilder>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace strobe;

namespace {

struct Case {
    const char* name;
    KernelClass cls;
};

class DefaultClasses : public ::testing::TestWithParam<Case> {};

TEST_P(DefaultClasses, FirstMatchingRuleWins) {
    EXPECT_EQ(KernelClassTable::defaults().classify(GetParam().name), GetParam().cls)
        << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(
    Names, DefaultClasses,
    ::testing::Values(
        Case{"sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3", KernelClass::Gemm},
        Case{"ampere_sgemm_128x64_nn", KernelClass::Gemm},
        Case{"cutlass::Kernel<cutlass_80_tensorop_s1688gemm>", KernelClass::Gemm},
        Case{"implicit_convolve_sgemm", KernelClass::Convolution}, // conv before gemm
        Case{"fprop_implicit_gemm", KernelClass::Convolution},
        Case{"sm80_xmma_wgrad_implicit_gemm", KernelClass::Convolution},
        Case{"flash_fwd_kernel", KernelClass::Attention},
        Case{"fmha_cutlassF_f16_aligned_64x64_rf_sm80", KernelClass::Attention}, // before gemm
        Case{"softmax_warp_forward", KernelClass::Softmax},
        Case{"bn_fw_tr_1C11_kernel_NCHW", KernelClass::Normalization},
        Case{"vectorized_layer_norm_kernel", KernelClass::Normalization},
        Case{"vectorized_elementwise_kernel", KernelClass::ElementwiseReduction},
        Case{"reduce_kernel", KernelClass::ElementwiseReduction},
        Case{"multi_tensor_apply_kernel", KernelClass::Other}, Case{"saxpy", KernelClass::Other},
        Case{"", KernelClass::Other}));

// Issue 44, item 1: the spellings of current libraries, by short name alone.
TEST(KernelClassTable, CurrentLibrarySpellings) {
    const KernelClassTable& t = KernelClassTable::defaults();
    EXPECT_EQ(t.classify("nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NNT"), KernelClass::Gemm);
    EXPECT_EQ(t.classify("nvjet_hsh_256x128_64x4_1x2_h_bz_coopB_TNT"), KernelClass::Gemm);
    EXPECT_EQ(t.classify("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"),
              KernelClass::Gemm);
    EXPECT_EQ(t.classify("ampere_sgemm_128x64_nn"), KernelClass::Gemm);
    EXPECT_EQ(t.classify("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x256x8_stage3"),
              KernelClass::Gemm);
    EXPECT_EQ(t.classify("cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4"), KernelClass::Gemm);
    // cuDNN's implicit-GEMM convolutions, from the A100 DDP fixture.
    EXPECT_EQ(t.classify("cudnn_infer_ampere_scudnn_128x64_relu_xregs_large_nn_v1"),
              KernelClass::Convolution);
    EXPECT_EQ(t.classify("sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc"),
              KernelClass::Convolution);
}

struct FullCase {
    const char* shortName;
    const char* full;
    KernelClass cls;
};

class ClassesFromBothNames : public ::testing::TestWithParam<FullCase> {};

TEST_P(ClassesFromBothNames, ShortNameThenTemplateArguments) {
    EXPECT_EQ(KernelClassTable::defaults().classify(GetParam().shortName, GetParam().full),
              GetParam().cls)
        << GetParam().full;
}

// Issue 44, item 1: "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_...>" as nsys names it
// (short name "Kernel") was Other; the words of the function's namespace and parameters do not
// count (fbgemm_gpu is no GEMM, cublasTransposeParams no cuBLAS GEMM).
INSTANTIATE_TEST_SUITE_P(
    Names, ClassesFromBothNames,
    ::testing::Values(
        FullCase{"Kernel",
                 "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>("
                 "cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)",
                 KernelClass::Gemm},
        FullCase{"Kernel2",
                 "void cutlass::Kernel2<cutlass_80_wmma_tensorop_h161616gemm_32x32_128x2_tn_"
                 "align8>(cutlass_80_wmma_tensorop_h161616gemm_32x32_128x2_tn_align8::Params)",
                 KernelClass::Gemm},
        FullCase{"Kernel",
                 "void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32_"
                 "64x128_32x3_nhwc_align4>(cutlass_tensorop_s1688dgrad_optimized_tf32_64x128_"
                 "32x3_nhwc_align4::Params)",
                 KernelClass::Convolution},
        FullCase{"device_kernel",
                 "void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<"
                 "flash::CollectiveMainloopFwdSm90<2, cute::tuple<int>, true> > > >(flash::"
                 "enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::"
                 "CollectiveMainloopFwdSm90<2, cute::tuple<int>, true> > >::Params)",
                 KernelClass::Attention},
        FullCase{"kernel",
                 "void internal::gemvx::kernel<int, int, float, float, float, float, false, "
                 "true, true, false, 7, false, cublasGemvParamsEx<int, "
                 "cublasGemvTensorStridedBatched<float const>, float> >(cublasGemvParamsEx<int, "
                 "cublasGemvTensorStridedBatched<float const>, float>)",
                 KernelClass::Gemm},
        // The short name decides when it matches: an elementwise kernel stays one whatever
        // functor it applies.
        FullCase{"vectorized_elementwise_kernel",
                 "void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_hfp8_to_float_"
                 "gpu(at::Tensor const&, long, long)::{lambda(unsigned char)#1}, "
                 "at::detail::Array<char*, 2> >(int, fbgemm_gpu::_hfp8_to_float_gpu(at::Tensor "
                 "const&, long, long)::{lambda(unsigned char)#1}, at::detail::Array<char*, 2>)",
                 KernelClass::ElementwiseReduction},
        FullCase{"permute_2D_data_kernel",
                 "void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>("
                 "int, int, int, int const*, decltype(nullptr) const*, int const*, int*)",
                 KernelClass::Other},
        FullCase{"scal_kernel",
                 "void scal_kernel<float, float, 1, false, 6, 5, 5, 3>(cublasTransposeParams<"
                 "float>, float const*, float*, float const*)",
                 KernelClass::Other},
        FullCase{"multi_tensor_apply_kernel",
                 "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
                 "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
                 "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, "
                 "float>(at::native::(anonymous namespace)::TensorListMetadata<2>)",
                 KernelClass::Other},
        FullCase{"saxpy", "", KernelClass::Other}, FullCase{"", "", KernelClass::Other}));

TEST(KernelClassTable, CommunicationIsNcclInAnyCase) {
    const KernelClassTable& t = KernelClassTable::defaults();
    EXPECT_TRUE(t.isCommunication("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
    EXPECT_TRUE(t.isCommunication("NCCLKERNEL"));
    EXPECT_FALSE(t.isCommunication("sm90_xmma_gemm"));
}

TEST(KernelClassTable, KeysRoundTrip) {
    for (int c = 0; c < kKernelClassCount; ++c)
        EXPECT_EQ(kernelClassFromKey(kernelClassKey(KernelClass(c))), KernelClass(c));
    EXPECT_FALSE(kernelClassFromKey(u"matmul"));
    EXPECT_EQ(kernelClassLabel(KernelClass::ElementwiseReduction),
              QStringLiteral("Elementwise/reduction"));
}

TEST(KernelClassTable, UserFileReplacesTheTable) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("k.json"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"classes": [{"class": "gemm", "patterns": ["saxpy"]}]})");
    f.close();
    QString error;
    const auto t = KernelClassTable::fromFile(path, &error);
    ASSERT_TRUE(t) << error.toStdString();
    EXPECT_EQ(t->classify("saxpy"), KernelClass::Gemm);
    EXPECT_EQ(t->classify("sm80_xmma_gemm"), KernelClass::Other);
    EXPECT_FALSE(t->isCommunication("nccl")); // no "communication" key: none
    EXPECT_TRUE(KernelClassTable::userFilePath().endsWith(QStringLiteral("/kernel-classes.json")));
}

TEST(KernelClassTable, SetActiveChangesWhatTheColoursUse) {
    QString error;
    const auto t = KernelClassTable::fromJson(
        R"({"classes": [{"class": "softmax", "patterns": ["x"]}]})", &error);
    ASSERT_TRUE(t);
    EXPECT_EQ(KernelClassTable::active().classify("x"), KernelClass::Other);
    KernelClassTable::setActive(*t);
    EXPECT_EQ(KernelClassTable::active().classify("x"), KernelClass::Softmax);
    KernelClassTable::setActive(KernelClassTable::defaults());
}

struct BadCase {
    const char* json;
    const char* says;
};
class BadTable : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadTable, OneSentenceSaysWhatIsWrong) {
    QString error;
    EXPECT_FALSE(KernelClassTable::fromJson(GetParam().json, &error));
    EXPECT_TRUE(error.contains(QLatin1String(GetParam().says))) << error.toStdString();
    EXPECT_TRUE(error.endsWith(u'.')) << error.toStdString();
}

INSTANTIATE_TEST_SUITE_P(
    Errors, BadTable,
    ::testing::Values(
        BadCase{"{", "not valid JSON"}, BadCase{"[1]", "not a JSON object"},
        BadCase{"{}", "\"classes\" must be an array"},
        BadCase{R"({"classes": [{"class": "matmul", "patterns": []}]})",
                "classes[0] needs \"class\""},
        BadCase{R"({"classes": [7]})", "classes[0] needs"},
        BadCase{R"({"classes": [{"class": "gemm", "patterns": "gemm"}]})",
                "classes[0].patterns must be an array"},
        BadCase{R"({"classes": [{"class": "gemm", "patterns": [""]}]})", "not a non-empty string"},
        BadCase{R"({"communication": [1], "classes": []})", "\"communication\" holds"}));

TEST(KernelClassTable, UnreadableFileNamesThePath) {
    QString error;
    EXPECT_FALSE(KernelClassTable::fromFile(QStringLiteral("/nonexistent/k.json"), &error));
    EXPECT_TRUE(
        error.startsWith(QStringLiteral("cannot read kernel class file /nonexistent/k.json")))
        << error.toStdString();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("nonsense");
    f.close();
    EXPECT_FALSE(KernelClassTable::fromFile(path, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("is unusable: it is not valid JSON")))
        << error.toStdString();
}

// Issue 46: a FIFO (or a folder) given as the class file is refused at once; opening a FIFO
// for reading used to wait for a writer for ever.
TEST(KernelClassTable, AFifoOrAFolderIsRefusedWithoutWaiting) {
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("classes.json"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QString& path : {fifo, dir.path()}) {
        QString error;
        EXPECT_FALSE(KernelClassTable::fromFile(path, &error));
        EXPECT_EQ(error, QStringLiteral("cannot read kernel class file ") % path %
                             QStringLiteral(": it is not a regular file."));
    }
}

TEST(KernelClassTable, TheDocsShowTheBuiltInTable) {
    QFile doc(QStringLiteral(STROBE_SOURCE_DIR "/docs/BREAKDOWN.md"));
    ASSERT_TRUE(doc.open(QIODevice::ReadOnly));
    EXPECT_TRUE(doc.readAll().contains(kernelClassDefaultJson()))
        << "docs/BREAKDOWN.md must show kernelClassDefaultJson() verbatim";
}

} // namespace
