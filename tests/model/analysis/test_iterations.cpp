// SPDX-License-Identifier: MIT
// Iteration detection on the sample (against its SQL rows) and on traces built for each rule.
#include "model/analysis/iterations.h"
#include "model/tracebuilder.h"
#include "tests/model/analysis/gaptestdata.h"
#include "tests/support/sqlitequery.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

std::unique_ptr<Trace> rangesTrace(const std::vector<std::pair<std::uint32_t, const char*>>& r) {
    TraceBuilder b(QStringLiteral("ranges"));
    TimeNs t = 0;
    for (const auto& [tid, name] : r) {
        b.addNvtx(1, tid, 0, t, t + 100, b.intern(name), NvtxRecord{}, std::nullopt);
        t += 200;
    }
    return b.finish();
}

TEST(Iterations, SampleIterationsAreItsIterationRanges) {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    ASSERT_TRUE(sample::writeSampleTrace(path, nullptr));
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.ok());
    const auto rows =
        test::query(path, "SELECT n.start, n.[end] FROM NVTX_EVENTS n LEFT JOIN StringIds s"
                          " ON s.id = n.textId WHERE COALESCE(n.text, s.value) LIKE "
                          "'Iteration %' ORDER BY n.start");
    ASSERT_EQ(rows.size(), 20u);
    const auto found = detectIterations(*r.trace);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->label, QStringLiteral("Iteration N"));
    ASSERT_EQ(found->instances.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(found->instances[i].range.start, std::stoll(rows[i][0]));
        EXPECT_EQ(found->instances[i].range.end, std::stoll(rows[i][1]));
    }
    EXPECT_EQ(found->instances[3].name, QStringLiteral("Iteration 3"));
    // Picking the range by its stem finds the same; "Epoch" finds the two epochs.
    EXPECT_EQ(findRangeInstances(*r.trace, QStringLiteral("Iteration")).instances.size(), 20u);
    EXPECT_EQ(findRangeInstances(*r.trace, QStringLiteral("Epoch")).instances.size(), 2u);
    EXPECT_EQ(findRangeInstances(*r.trace, QStringLiteral("Forward")).instances.size(), 20u);
    EXPECT_TRUE(findRangeInstances(*r.trace, QStringLiteral("Iter")).instances.empty());
}

TEST(Iterations, ProfilerStepWinsOverStepAndNeedsTwoOnOneThread) {
    auto t = rangesTrace({{10, "step 1"},
                          {10, "step 2"},
                          {11, "ProfilerStep#7"},
                          {11, "ProfilerStep#8"},
                          {11, "ProfilerStep#9"}});
    auto found = detectIterations(*t);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->label, QStringLiteral("ProfilerStep#N"));
    EXPECT_EQ(found->instances.size(), 3u);
    EXPECT_EQ(found->instances[0].name, QStringLiteral("ProfilerStep#7"));

    // One ProfilerStep per thread is no loop: "STEP_N" (case-insensitive) on one thread is.
    t = rangesTrace(
        {{10, "ProfilerStep#1"}, {11, "ProfilerStep#2"}, {12, "STEP_3"}, {12, "Step 4"}});
    found = detectIterations(*t);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->label, QStringLiteral("step N"));
    EXPECT_EQ(found->instances.size(), 2u);

    EXPECT_FALSE(detectIterations(*rangesTrace({{10, "stepper 1"}, {10, "Iteration"}})));
}

TEST(Iterations, PickedRangeIsEscaped) {
    const auto t = rangesTrace({{10, "a.b"}, {10, "a.b 2"}, {10, "axb"}});
    EXPECT_EQ(findRangeInstances(*t, QStringLiteral("a.b")).instances.size(), 2u);
}

} // namespace
