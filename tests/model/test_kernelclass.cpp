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
