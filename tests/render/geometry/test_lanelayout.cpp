// SPDX-License-Identifier: MIT
#include "formats/open.h"
#include "model/tracebuilder.h"
#include "render/geometry/lanelayout.h"
#include "tests/support/sqlitequery.h"
#include "tests/widgets/timeline/synthtraces.h"

#include <gtest/gtest.h>

using namespace strobe;

namespace {
std::vector<QString> labels(const std::vector<LayoutRow>& rows) {
    std::vector<QString> out;
    for (const auto& r : rows)
        out.push_back(r.label);
    return out;
}

std::optional<std::uint32_t> laneOfKind(const Trace& t, LaneKind k) {
    for (std::uint32_t i = 0; i < t.lanes().size(); ++i) {
        if (t.lane(i).kind() == k)
            return i;
    }
    return std::nullopt;
}
} // namespace

TEST(LaneLayout, GroupsProcessesThreadsGpusAndStreams) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    const std::vector<QString> want{
        QStringLiteral("train [100]"),
        QStringLiteral("main [100]"),
        QStringLiteral("CUDA API"),
        QStringLiteral("NVTX"),
        QString(), // NVTX depth 1
        QStringLiteral("poller [101]"),
        QStringLiteral("OS runtime"),
        QStringLiteral("GPU 0 (Test GPU)"),
        QStringLiteral("Utilisation"),
        QStringLiteral("Stream 7"),
        QStringLiteral("Kernels"),
        QString(), // overlapping kernel: extra row, never dropped
        QStringLiteral("Stream 8"),
        QStringLiteral("Memcpy"),
        QStringLiteral("Memset"),
    };
    EXPECT_EQ(labels(layout.rows()), want);
    // y positions are contiguous
    int y = 0;
    for (const auto& r : layout.rows()) {
        EXPECT_EQ(r.y, y);
        y += r.height;
    }
    EXPECT_EQ(layout.contentHeight(), y);
}

TEST(LaneLayout, CollapseKeepsTheHeaderAndTheUtilisationStrip) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    const auto& g = layout.groups();
    for (std::uint32_t i = 0; i < g.size(); ++i) {
        if (g[i].kind == GroupKind::Gpu)
            layout.setExpanded(i, false);
        if (g[i].kind == GroupKind::Thread && g[i].label.startsWith(u"main"))
            layout.setExpanded(i, false);
    }
    const std::vector<QString> want{
        QStringLiteral("train [100]"),      QStringLiteral("main [100]"),
        QStringLiteral("poller [101]"),     QStringLiteral("OS runtime"),
        QStringLiteral("GPU 0 (Test GPU)"), QStringLiteral("Utilisation"),
    };
    EXPECT_EQ(labels(layout.rows()), want);
}

TEST(LaneLayout, HideIdleDropsThreadsWithoutEventsOfInterest) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    const auto before = layout.rows().size();
    layout.setHideIdle(true);
    EXPECT_EQ(layout.rows().size(), before - 2); // "poller [101]" and its OS runtime lane
    for (const auto& r : layout.rows())
        EXPECT_NE(r.label, QStringLiteral("poller [101]"));
}

TEST(LaneLayout, GpusThatDidNothingAreHiddenUntilAsked) {
    TraceBuilder b(QStringLiteral("two gpus")); // work on GPU 0 only
    GpuInfo busy, idle;
    busy.id = 0;
    idle.id = 1;
    b.addGpu(busy);
    b.addGpu(idle);
    KernelConfig k;
    k.shortName = b.intern("k");
    b.addKernel(1, 0, 1, 7, 0, 100, k, std::nullopt, std::nullopt);
    auto trace = b.finish();
    LaneLayout layout;
    layout.setTrace(trace.get());
    auto hasGpu = [&](const char* label) {
        for (const auto& r : layout.rows())
            if (r.label == QLatin1String(label))
                return true;
        return false;
    };
    EXPECT_TRUE(layout.hideIdleGpus());
    EXPECT_FALSE(hasGpu("GPU 1")) << "hidden by default";
    EXPECT_TRUE(hasGpu("GPU 0"));
    layout.setHideIdleGpus(false);
    EXPECT_TRUE(hasGpu("GPU 1")) << "shown, fully idle, when asked";
    // Hiding the threads without events leaves the GPUs as the GPU option has them.
    layout.setHideIdle(true);
    EXPECT_TRUE(hasGpu("GPU 1"));
    layout.setHideIdleGpus(true);
    EXPECT_FALSE(hasGpu("GPU 1"));
    EXPECT_TRUE(hasGpu("GPU 0"));
}

// CloverLeaf's export lists four A100s and runs on GPU 0 only (the oracle: its kernel and memcpy
// tables name device 0 alone): GPUs 1 to 3 are left out until asked for, each with its header
// and utilisation strip.
TEST(LaneLayout, CloverleafShowsOnlyTheGpuThatRan) {
    const std::string path = test::fixturePath("nsys2024.5-cloverleaf.sqlite");
    const auto used =
        test::query(path, "SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT deviceId "
                          "FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY 1");
    ASSERT_EQ(used, (std::vector<std::vector<std::string>>{{"0"}}));
    ASSERT_EQ(test::queryInt(path, "SELECT COUNT(*) FROM TARGET_INFO_GPU"), 4);
    const LoadResult loaded = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(loaded.trace);
    const Trace* t = loaded.trace.get();
    LaneLayout layout;
    layout.setTrace(t);
    auto gpuHeaders = [&] {
        std::vector<std::uint32_t> ids;
        for (const auto& r : layout.rows())
            if (r.kind == LayoutRowKind::GroupHeader &&
                layout.groups()[r.group].kind == GroupKind::Gpu)
                ids.push_back(layout.groups()[r.group].deviceId);
        return ids;
    };
    EXPECT_EQ(gpuHeaders(), std::vector<std::uint32_t>{0});
    const int shown = layout.contentHeight();
    layout.setHideIdleGpus(false);
    EXPECT_EQ(gpuHeaders(), (std::vector<std::uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(layout.contentHeight(),
              shown + 3 * (LaneLayout::kHeaderHeight + LaneLayout::kUtilizationHeight));
}

TEST(LaneLayout, HiddenAndPinnedLanes) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    const std::uint32_t memcpy = *laneOfKind(*t, LaneKind::Memcpy);
    const std::uint32_t kernels = *laneOfKind(*t, LaneKind::Kernels);
    layout.setLaneHidden(memcpy, true);
    EXPECT_EQ(layout.findLaneRow(memcpy, 0), nullptr);
    layout.setLanePinned(kernels, true);
    ASSERT_EQ(layout.pinnedRows().size(), 2u); // both rows of the kernel lane
    EXPECT_EQ(layout.pinnedHeight(), 2 * LaneLayout::kRowHeight);
    EXPECT_EQ(layout.pinnedRows()[0].label,
              QStringLiteral("GPU 0 (Test GPU) / Stream 7 / Kernels"));
    // Pinned rows stay on top whatever the scroll position.
    const LayoutRow* atTop = layout.rowAt(5, 1000);
    ASSERT_NE(atTop, nullptr);
    EXPECT_EQ(atTop->lane, kernels);
    EXPECT_TRUE(atTop->pinned);
    // Stream 7 has no unpinned lane left: its header disappears.
    for (const auto& r : layout.rows())
        EXPECT_NE(r.label, QStringLiteral("Stream 7"));
    layout.showAllLanes();
    EXPECT_NE(layout.findLaneRow(memcpy, 0), nullptr);
}

TEST(LaneLayout, RowAtMapsViewYThroughScrolling) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    const LayoutRow* first = layout.rowAt(0, 0);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->kind, LayoutRowKind::GroupHeader);
    // y = header (20) + thread header (20) + 5 -> the CUDA API lane
    const LayoutRow* api = layout.rowAt(45, 0);
    ASSERT_NE(api, nullptr);
    EXPECT_EQ(api->kind, LayoutRowKind::LaneRow);
    EXPECT_EQ(t->lane(api->lane).kind(), LaneKind::CudaApi);
    // scrolled by 40 px, the same lane is at the top
    EXPECT_EQ(layout.rowAt(5, 40), api);
    EXPECT_EQ(layout.rowAt(layout.contentHeight() + 1, 0), nullptr);
    EXPECT_EQ(layout.rowAt(-1, 0), nullptr);
}

TEST(LaneLayout, EnsureShownExpandsAncestors) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    layout.setAllExpanded(false);
    const std::uint32_t memset = *laneOfKind(*t, LaneKind::Memset);
    EXPECT_EQ(layout.findLaneRow(memset, 0), nullptr);
    EXPECT_TRUE(layout.ensureShown(memset));
    EXPECT_NE(layout.findLaneRow(memset, 0), nullptr);
}

TEST(LaneLayout, ShorterRowsShrinkEveryRowKindAndKeepTheOrder) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    const std::size_t rows = layout.rows().size();
    const int full = layout.contentHeight();
    layout.setRowHeight(10);
    ASSERT_EQ(layout.rows().size(), rows);
    int headers = 0, utils = 0, lanes = 0, y = 0;
    for (const LayoutRow& r : layout.rows()) {
        EXPECT_EQ(r.y, y); // contiguous, top to bottom
        y += r.height;
        if (r.kind == LayoutRowKind::GroupHeader) {
            EXPECT_EQ(r.height, 12);
            ++headers;
        } else if (r.kind == LayoutRowKind::Utilization) {
            EXPECT_EQ(r.height, 8);
            ++utils;
        } else {
            EXPECT_EQ(r.height, 10);
            ++lanes;
        }
    }
    EXPECT_EQ(layout.contentHeight(), y);
    // The same rows at the view's sizes: 20, 16 and 18 px.
    EXPECT_EQ(full, headers * 20 + utils * 16 + lanes * 18);
    EXPECT_EQ(layout.contentHeight(), headers * 12 + utils * 8 + lanes * 10);
    layout.setRowHeight(1); // clamped
    EXPECT_EQ(layout.rowHeight(), LaneLayout::kMinRowHeight);
    layout.setRowHeight(40);
    EXPECT_EQ(layout.rowHeight(), LaneLayout::kRowHeight);
    EXPECT_EQ(layout.contentHeight(), full);
}

TEST(LaneLayout, HidingEmptyGroupsDropsGroupsWithoutShownLanesGpusIncluded) {
    auto t = synth_traces::smallTrace();
    LaneLayout layout;
    layout.setTrace(t.get());
    const std::uint32_t osrt = *laneOfKind(*t, LaneKind::Osrt);
    for (std::uint32_t lane = 0; lane < t->lanes().size(); ++lane)
        layout.setLaneHidden(lane, lane != osrt);
    // Without the option, the GPU's header and utilisation strip stay, and the process header.
    const std::vector<QString> before = labels(layout.rows());
    EXPECT_NE(std::find(before.begin(), before.end(), QStringLiteral("GPU 0 (Test GPU)")),
              before.end());
    layout.setHideEmptyGroups(true);
    const std::vector<QString> want{QStringLiteral("train [100]"), QStringLiteral("poller [101]"),
                                    QStringLiteral("OS runtime")};
    EXPECT_EQ(labels(layout.rows()), want);
    layout.setHideEmptyGroups(false);
    EXPECT_EQ(labels(layout.rows()), before);
}
