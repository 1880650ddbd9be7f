// SPDX-License-Identifier: MIT
// The findings framework (model/analysis/findings.h): rule ids as nsys and the issue spell them,
// rule selection, cancellation, and the ranking and table over real traces.
#include "model/analysis/findings.h"
#include "model/reports/findingtext.h"
#include "tests/model/analysis/gaptestdata.h"

#include <gtest/gtest.h>
#include <set>

using namespace strobe;

namespace {

// The issue's list, in its order: nsys's six as `nsys analyze` spells them, then Strobe's.
const QStringList kIds = {
    QStringLiteral("cuda_memcpy_async"), QStringLiteral("cuda_memcpy_sync"),
    QStringLiteral("cuda_memset_sync"),  QStringLiteral("cuda_api_sync"),
    QStringLiteral("gpu_gaps"),          QStringLiteral("gpu_time_util"),
    QStringLiteral("data_loading"),      QStringLiteral("communication"),
    QStringLiteral("gpu_utilization"),   QStringLiteral("tensor_cores"),
    QStringLiteral("memory_peak"),       QStringLiteral("launch_overhead"),
    QStringLiteral("small_grid"),        QStringLiteral("exposed_communication"),
    QStringLiteral("pageable_copies"),   QStringLiteral("straggler"),
};

} // namespace

TEST(FindingRules, IdsAreTheIssuesAndRoundTrip) {
    ASSERT_EQ(std::size_t(kIds.size()), kFindingRuleCount);
    for (std::size_t i = 0; i < kFindingRuleCount; ++i) {
        EXPECT_EQ(findingRuleId(FindingRule(i)), kIds[qsizetype(i)]);
        EXPECT_EQ(findingRuleFromId(kIds[qsizetype(i)]), FindingRule(i));
    }
    EXPECT_EQ(findingRuleFromId(u"gpu_gap"), std::nullopt);
    EXPECT_EQ(findingRuleFromId(u"GPU_GAPS"), std::nullopt);
    EXPECT_EQ(findingRuleFromId(u""), std::nullopt);
}

TEST(FindingRules, OnlySelectsRules) {
    FindingOptions o;
    EXPECT_TRUE(o.runs(FindingRule::Straggler));
    o.only = {FindingRule::GpuGaps, FindingRule::SmallGrid};
    EXPECT_TRUE(o.runs(FindingRule::GpuGaps));
    EXPECT_TRUE(o.runs(FindingRule::SmallGrid));
    EXPECT_FALSE(o.runs(FindingRule::DataLoading));
}

TEST(Findings, CancelledGivesNothing) {
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    const Findings f = computeFindings(*trace, {}, {}, [] { return true; });
    EXPECT_TRUE(f.findings.empty());
    EXPECT_TRUE(f.skipped.empty());
}

TEST(Findings, RankedByTimeAtStakeAndSelectedByRule) {
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    const Findings all = computeFindings(*trace);
    for (std::size_t i = 1; i < all.findings.size(); ++i)
        EXPECT_GE(all.findings[i - 1].timeNs, all.findings[i].timeNs) << i;
    std::set<FindingRule> skipped;
    for (const SkippedRule& s : all.skipped)
        EXPECT_TRUE(skipped.insert(s.rule).second) << "skipped twice: " << int(s.rule);
    // Each rule alone gives exactly its findings of the whole run.
    for (std::size_t i = 0; i < kFindingRuleCount; ++i) {
        FindingOptions o;
        o.only = {FindingRule(i)};
        const Findings one = computeFindings(*trace, o);
        std::size_t expected = 0;
        for (const Finding& f : all.findings)
            expected += f.rule == FindingRule(i);
        EXPECT_EQ(one.findings.size(), expected) << kIds[qsizetype(i)].toStdString();
        for (const Finding& f : one.findings)
            EXPECT_EQ(f.rule, FindingRule(i));
        for (const SkippedRule& s : one.skipped)
            EXPECT_EQ(s.rule, FindingRule(i));
    }
}

TEST(FindingText, TableHeaderAndRows) {
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    const Findings f = computeFindings(*trace);
    const ReportTable table = findingsTable(*trace, f);
    EXPECT_EQ(table.columns.join(u','),
              QStringLiteral("position,rule,time_ns,share_percent,finding,next_step"));
    ASSERT_EQ(table.rows.size(), f.findings.size());
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        EXPECT_EQ(table.rows[i][0].text, QString::number(i + 1));
        EXPECT_EQ(table.rows[i][1].text, findingRuleId(f.findings[i].rule));
        EXPECT_EQ(table.rows[i][2].text, QString::number(f.findings[i].timeNs));
        EXPECT_FALSE(table.rows[i][4].text.isEmpty());
        EXPECT_FALSE(table.rows[i][5].text.isEmpty());
    }
}

TEST(FindingText, SkippedRuleSaysWhatIsMissing) {
    EXPECT_EQ(skippedRuleText({FindingRule::SmallGrid, MissingData::SmCount}),
              QStringLiteral("small_grid needs the GPU's SM count (its name is not in Strobe's "
                             "table either), which this trace does not record."));
    EXPECT_EQ(skippedRuleText({FindingRule::Straggler, MissingData::Job}),
              QStringLiteral("straggler needs every rank's trace of one job (open a job, not one "
                             "trace), which this trace does not record."));
}

TEST(Findings, TheSamplesDataLoaderAndSoftmaxComeFirst) {
    // The sample's story (docs/USER_GUIDE.md): the data loader starves the GPU, and a softmax
    // launched with 4 blocks on 132 SMs takes 8 % of its kernel time.
    const auto trace = test::sampleTrace();
    ASSERT_TRUE(trace);
    const Findings f = computeFindings(*trace);
    ASSERT_GE(f.findings.size(), 2u);
    EXPECT_EQ(f.findings[0].rule, FindingRule::DataLoading);
    EXPECT_EQ(f.findings[1].rule, FindingRule::SmallGrid);
    EXPECT_EQ(f.findings[1].subject, QStringLiteral("softmax_warp_forward"));
}
