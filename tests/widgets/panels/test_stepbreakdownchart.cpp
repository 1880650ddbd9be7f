// SPDX-License-Identifier: MIT
// The step breakdown chart on a hand-made breakdown: stacked segments as high as their times,
// the legend, the labels, the table and the click on a step.
#include "widgets/panels/stepbreakdownchart.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <gtest/gtest.h>

#include <cmath>

using namespace strobe;

namespace {

StepTimes step(const char* name, TimeRange range, std::uint32_t lane,
               std::initializer_list<std::pair<StepCategory, TimeNs>> times) {
    StepTimes s;
    s.name = QString::fromLatin1(name);
    s.event = EventRef{lane, 0};
    s.host = s.range = range;
    for (const auto& [c, t] : times)
        s.time[std::size_t(c)] = t;
    return s;
}

// Two ProfilerSteps: #550 of 1000 ns (kernel 600, memcpy 100, data loader 200, other 100) and
// #551 of 500 ns (kernel 300, CPU exec 200). No memset, communication or runtime.
StepBreakdown handBreakdown() {
    StepBreakdown b;
    b.source = StepSource::ProfilerSteps;
    b.family = QStringLiteral("ProfilerStep");
    b.steps.push_back(step("550", {0, 1000}, 4,
                           {{StepCategory::Kernel, 600},
                            {StepCategory::Memcpy, 100},
                            {StepCategory::DataLoader, 200},
                            {StepCategory::Other, 100}}));
    b.steps.push_back(
        step("551", {1000, 1500}, 5, {{StepCategory::Kernel, 300}, {StepCategory::CpuExec, 200}}));
    for (const StepTimes& s : b.steps) {
        for (std::size_t c = 0; c < kStepCategoryCount; ++c)
            b.average[c] += double(s.time[c]) / 2;
        b.averageTotal += double(s.total()) / 2;
    }
    return b;
}

class StepBreakdownChartTest : public ::testing::Test {
protected:
    void SetUp() override {
        chart.resize(600, 500);
        chart.setStepBreakdown(handBreakdown());
        chart.show(); // lays the canvas out at its width
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    }
    StepBreakdownChart chart;
};

TEST_F(StepBreakdownChartTest, SegmentsStackInOrderAsHighAsTheirTimes) {
    ASSERT_EQ(chart.barCount(), 3);
    EXPECT_EQ(chart.barLabel(0), QStringLiteral("#550"));
    EXPECT_EQ(chart.barLabel(1), QStringLiteral("#551"));
    EXPECT_EQ(chart.barLabel(2), QStringLiteral("Average"));
    const auto first = chart.segments(0);
    ASSERT_EQ(first.size(), 4u);
    EXPECT_EQ(first[0].category, StepCategory::Kernel);
    EXPECT_EQ(first[1].category, StepCategory::Memcpy);
    EXPECT_EQ(first[2].category, StepCategory::DataLoader);
    EXPECT_EQ(first[3].category, StepCategory::Other);
    // The tallest bar (1000 ns) fills the plot: heights are the times over 1000 of it.
    int full = 0;
    for (const auto& s : first)
        full += s.rect.height();
    ASSERT_GT(full, 100);
    EXPECT_NEAR(first[0].rect.height(), 0.6 * full, 1.0);
    EXPECT_NEAR(first[1].rect.height(), 0.1 * full, 1.0);
    EXPECT_NEAR(first[2].rect.height(), 0.2 * full, 1.0);
    // Bottom up, no gaps.
    for (std::size_t i = 1; i < first.size(); ++i)
        EXPECT_EQ(first[i].rect.bottom() + 1, first[i - 1].rect.top());
    // #551: half as tall, on the same base.
    const auto second = chart.segments(1);
    ASSERT_EQ(second.size(), 2u);
    EXPECT_EQ(second[0].rect.bottom(), first[0].rect.bottom());
    EXPECT_NEAR(second[0].rect.height(), 0.3 * full, 1.0);
    EXPECT_EQ(second[1].category, StepCategory::CpuExec);
    EXPECT_NEAR(second[1].rect.height(), 0.2 * full, 1.0);
    // The average: kernel (600 + 300) / 2 = 450.
    const auto avg = chart.segments(2);
    ASSERT_EQ(avg.size(), 5u);
    EXPECT_NEAR(avg[0].rect.height(), 0.45 * full, 1.0);
    EXPECT_DOUBLE_EQ(chart.barTime(2, StepCategory::CpuExec), 100.0);
    // Bars left to right, each inside its slot.
    EXPECT_LT(first[0].rect.right(), second[0].rect.left());
    EXPECT_LT(second[0].rect.right(), avg[0].rect.left());
    for (int b = 0; b < 3; ++b)
        EXPECT_TRUE(chart.barSlot(b).contains(chart.segments(b)[0].rect)) << b;
}

TEST_F(StepBreakdownChartTest, LegendListsTheCategoriesWithTime) {
    EXPECT_EQ(chart.legendCategories(),
              (std::vector<StepCategory>{StepCategory::Kernel, StepCategory::Memcpy,
                                         StepCategory::DataLoader, StepCategory::CpuExec,
                                         StepCategory::Other}));
    EXPECT_EQ(StepBreakdownChart::categoryLabel(StepCategory::CpuExec), QStringLiteral("CPU Exec"));
    // Eight distinct colours.
    for (std::size_t a = 0; a < kStepCategoryCount; ++a)
        for (std::size_t b = a + 1; b < kStepCategoryCount; ++b)
            EXPECT_NE(StepBreakdownChart::categoryColor(StepCategory(a)),
                      StepBreakdownChart::categoryColor(StepCategory(b)));
}

TEST_F(StepBreakdownChartTest, TableHasEachStepAndTheAverage) {
    QTableWidget* t = chart.table();
    ASSERT_EQ(t->rowCount(), 3);
    ASSERT_EQ(t->columnCount(), 10);
    EXPECT_EQ(t->horizontalHeaderItem(7)->text(), QStringLiteral("CPU Exec"));
    EXPECT_EQ(t->item(0, 0)->text(), QStringLiteral("#550"));
    EXPECT_TRUE(t->item(0, 1)->text().endsWith(QStringLiteral("(60.0 %)")))
        << t->item(0, 1)->text().toStdString();
    EXPECT_TRUE(t->item(1, 7)->text().endsWith(QStringLiteral("(40.0 %)")));
    EXPECT_EQ(t->item(2, 0)->text(), QStringLiteral("Average"));
    EXPECT_TRUE(t->item(2, 1)->text().endsWith(QStringLiteral("(60.0 %)"))); // 450 of 750
}

TEST_F(StepBreakdownChartTest, ClickOnAStepEmitsItsRangeOnce) {
    QSignalSpy spy(&chart, &StepBreakdownChart::stepActivated);
    const QRect seg = chart.segments(1)[0].rect;
    QTest::mouseClick(chart.canvas(), Qt::LeftButton, {}, seg.center());
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.front().at(0).value<TimeRange>(), (TimeRange{1000, 1500}));
    EXPECT_EQ(spy.front().at(1).value<EventRef>(), (EventRef{5, 0}));
    // The average is no step.
    QTest::mouseClick(chart.canvas(), Qt::LeftButton, {}, chart.segments(2)[0].rect.center());
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(chart.barAt(chart.segments(0)[0].rect.center()), 0);
}

TEST(StepBreakdownChart, NoStepsNoBars) {
    StepBreakdownChart chart;
    chart.resize(400, 400);
    chart.setStepBreakdown({});
    EXPECT_EQ(chart.barCount(), 0);
    EXPECT_TRUE(chart.segments(0).empty());
    EXPECT_TRUE(chart.legendCategories().empty());
    EXPECT_EQ(chart.table()->rowCount(), 0);
    EXPECT_FALSE(chart.grab().isNull());
}

} // namespace
