// SPDX-License-Identifier: MIT
#include "model/analysis/rangegrouping.h"

#include "tests/support/qtprinters.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Case {
    const char* name;
    const char* grouped;
};

class RangeGrouping : public ::testing::TestWithParam<Case> {};

TEST_P(RangeGrouping, CutsAtThFirstPerCallSuffix) {
    EXPECT_EQ(groupedRangeName(QString::fromUtf8(GetParam().name)),
              QString::fromUtf8(GetParam().grouped));
    // The UTF-8 form the timeline's colours use cuts at the same place.
    EXPECT_EQ(groupedRangeNameUtf8(GetParam().name), std::string_view(GetParam().grouped));
}

INSTANTIATE_TEST_SUITE_P(
    PyTorchAndPlainNames, RangeGrouping,
    ::testing::Values(
        Case{"aten::mul, op_id = 317177", "aten::mul"}, // as the 2026.2 H100 fixture has them
        Case{"aten::addmm, seq = 12, op_id = 345", "aten::addmm"},
        Case{"aten::conv2d, seq = 3, op_id = 9, sizes = [[64, 3, 224, 224], [64, 3, 7, 7]], "
             "input_op_ids = [(1, 0), (2, 0)]",
             "aten::conv2d"},
        Case{"aten::relu, sizes = [[8, 8]]", "aten::relu"},
        Case{"MyLib:aten::mm, seq = 1", "MyLib:aten::mm"}, // a domain prefix stays
        Case{"ProfilerStep#7", "ProfilerStep#7"},          // an iteration is no suffix
        Case{"Data Load", "Data Load"}, Case{"", ""},
        Case{", seq = 5", ", seq = 5"},     // nothing before the suffix: the name stays whole
        Case{"a, seqx = 5", "a, seqx = 5"}, // only the exact PyTorch keys
        Case{"\u00b5s-Kernel, op_id = 4", "\u00b5s-Kernel"})); // non-ASCII text before the cut

} // namespace

namespace {

TEST(SummaryRangeName, StepsAreOneFamilyInGroupedTablesOnly) {
    EXPECT_EQ(summaryRangeName(u"ProfilerStep#550", RangeNaming::Grouped),
              QStringLiteral("ProfilerStep"));
    EXPECT_EQ(summaryRangeName(u"torch:ProfilerStep#7", RangeNaming::Grouped),
              QStringLiteral("torch:ProfilerStep"));
    EXPECT_EQ(summaryRangeName(u"ProfilerStep#550", RangeNaming::Raw),
              QStringLiteral("ProfilerStep#550"));
    // Only the step's own name: other text keeps its number, other names pass to rangeName.
    EXPECT_EQ(summaryRangeName(u"ProfilerStep#5a", RangeNaming::Grouped),
              QStringLiteral("ProfilerStep#5a"));
    EXPECT_EQ(summaryRangeName(u"ProfilerStep#", RangeNaming::Grouped),
              QStringLiteral("ProfilerStep#"));
    EXPECT_EQ(summaryRangeName(u"MyProfilerStep#5", RangeNaming::Grouped),
              QStringLiteral("MyProfilerStep#5"));
    EXPECT_EQ(summaryRangeName(u"aten::mm, op_id = 3", RangeNaming::Grouped),
              QStringLiteral("aten::mm"));
}

} // namespace
