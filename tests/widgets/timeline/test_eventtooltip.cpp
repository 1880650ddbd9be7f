// SPDX-License-Identifier: MIT
// Event tooltips: the "Same name" line of NVTX ranges counts the ranges of the grouped name.
#include "formats/open.h"
#include "model/analysis/nvtxstats.h"
#include "model/timeformat.h"
#include "model/tracebuilder.h"
#include "tests/support/sqlitequery.h"
#include "widgets/timeline/eventtooltip.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QLocale>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// Three calls of aten::mm (100, 300 and 50 ns), one "Data Load" range.
std::shared_ptr<const Trace> pytorchTrace() {
    TraceBuilder b(QStringLiteral("pytorch"));
    NvtxRecord pp;
    b.addNvtx(1, 1, kNoString, 0, 100, b.intern("aten::mm, op_id = 1"), pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 200, 500, b.intern("aten::mm, op_id = 2"), pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 600, 650, b.intern("aten::mm, seq = 3, op_id = 4"), pp,
              std::nullopt);
    b.addNvtx(1, 1, kNoString, 700, 710, b.intern("Data Load"), pp, std::nullopt);
    return std::shared_ptr<const Trace>(b.finish());
}

EventRef rangeNamed(const Trace& t, const QString& text) {
    for (std::uint32_t li = 0; li < t.lanes().size(); ++li) {
        const Lane& l = t.lane(li);
        for (std::uint32_t i = 0; l.kind() == LaneKind::Nvtx && i < l.size(); ++i) {
            if (t.string(l.nameId(i)) == text)
                return {li, i};
        }
    }
    return {};
}

TEST(EventTooltip, SameNameCountsTheGroupedName) {
    const auto t = pytorchTrace();
    const NvtxSummary names = summarizeNvtx(*t);
    const EventRef call = rangeNamed(*t, QStringLiteral("aten::mm, op_id = 2"));
    ASSERT_TRUE(call.isValid());
    const QString tip = eventTooltip(*t, call, &names);
    EXPECT_TRUE(tip.startsWith(QStringLiteral("aten::mm, op_id = 2\n"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("\nSame name (aten::mm, per-call ids removed): 3 "
                                            "ranges, ") %
                             formatDuration(450) % QStringLiteral(" in all")))
        << tip.toStdString();
    // A name without per-call ids needs no explanation.
    const QString plain = eventTooltip(*t, rangeNamed(*t, QStringLiteral("Data Load")), &names);
    EXPECT_TRUE(plain.contains(QStringLiteral("\nSame name: 1 range, ") % formatDuration(10)))
        << plain.toStdString();
    // Raw naming counts only the identical name.
    const NvtxSummary raw = summarizeNvtx(*t, RangeNaming::Raw);
    EXPECT_TRUE(eventTooltip(*t, call, &raw).contains(QStringLiteral("\nSame name: 1 range, ")));
    // Without the summary (not computed yet) the line is left out.
    EXPECT_FALSE(eventTooltip(*t, call).contains(QStringLiteral("Same name")));
}

TEST(EventTooltip, TimelineHoverOnTheH100CountsEveryCallOfTheOperator) {
    const std::string path = test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite");
    LoadResult r = loadTrace(QString::fromStdString(path));
    ASSERT_TRUE(r.trace);
    ViewState state;
    state.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)));
    TimelineView view(&state);
    view.resize(1400, 900);
    view.waitForLevelOfDetail();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view.nvtxNameCountsReady(); }, 30000));
    const Trace& t = *state.trace();
    // The first aten::mm call in lane order.
    EventRef mm;
    for (std::uint32_t li = 0; li < t.lanes().size() && !mm.isValid(); ++li) {
        const Lane& l = t.lane(li);
        for (std::uint32_t i = 0; l.kind() == LaneKind::Nvtx && i < l.size(); ++i) {
            if (t.string(l.nameId(i)).startsWith(QStringLiteral("aten::mm, op_id = "))) {
                mm = {li, i};
                break;
            }
        }
    }
    ASSERT_TRUE(mm.isValid());
    view.revealEvent(mm);
    const auto rect = view.eventRect(mm);
    ASSERT_TRUE(rect.has_value());
    const QString tip = view.toolTipAt(rect->center().toPoint());
    const std::int64_t calls =
        test::queryInt(path, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE text LIKE 'aten::mm, op_id "
                             "= %' AND [end] IS NOT NULL");
    ASSERT_GT(calls, 1);
    const QString want =
        QStringLiteral("\nSame name (aten::mm, per-call ids removed): ") %
        QLocale(QLocale::English, QLocale::UnitedStates).toString(qlonglong(calls)) %
        QStringLiteral(" ranges, ");
    EXPECT_TRUE(tip.contains(want)) << tip.toStdString();
}

} // namespace

// A kernel of a load without launch details (the GPU-side preview) says they are still to come.
TEST(EventTooltip, AKernelWithoutItsDetailsReadSaysSo) {
    const QString path =
        QString::fromStdString(test::fixturePath("nsys2026.2-h100-2gpu-nvtx.sqlite"));
    LoadOptions lean;
    lean.parts = kAllTraceParts & ~TraceParts(TracePart::KernelDetail);
    const LoadResult quick = loadTrace(path, lean), whole = loadTrace(path);
    ASSERT_TRUE(quick.ok() && whole.ok());
    const QString a = eventTooltip(*quick.trace, quick.trace->kernels()[0].self);
    const QString b = eventTooltip(*whole.trace, whole.trace->kernels()[0].self);
    EXPECT_TRUE(a.contains(QStringLiteral("Launch configuration: not read yet")))
        << a.toStdString();
    EXPECT_TRUE(b.contains(QStringLiteral("\nGrid: "))) << b.toStdString();
    EXPECT_FALSE(b.contains(QStringLiteral("not read yet")));
}
