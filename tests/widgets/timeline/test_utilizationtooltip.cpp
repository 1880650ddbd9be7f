// SPDX-License-Identifier: MIT
// Hovering a GPU's utilisation strip: busy share with the kernel/copy split of the hovered pixel,
// an idle band's duration and cause, the idle ends, a GPU without work.
#include "model/tracebuilder.h"
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QStringBuilder>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Fixture {
    ViewState state;
    TimelineView view{&state};
    explicit Fixture(std::shared_ptr<const Trace> trace) {
        state.setTrace(std::move(trace));
        view.resize(1400, 700);
        view.waitForLevelOfDetail();
    }
    // Middle of the utilisation strip of `device`.
    int stripY(std::uint32_t device) const {
        for (const LayoutRow& r : view.laneLayout().rows())
            if (r.kind == LayoutRowKind::Utilization && r.deviceId == device)
                return view.laneLayout().viewY(r, view.scrollY()) + r.height / 2;
        ADD_FAILURE() << "no utilisation strip for GPU " << device;
        return -1;
    }
    // The tooltip at the pixel column holding time t.
    QString tipAt(TimeNs t, std::uint32_t device = 0) {
        return view.toolTipAt(QPoint(int(view.mapping().toPx(t)), stripY(device)));
    }
};

// smallTrace: kernels [1000, 3000) (and [2000, 2500) under it), [6000, 6100); a memcpy
// [3500, 5500); a memset [9000, 10000); the trace spans [0, 10000).
TEST(UtilizationTooltip, SplitsTheHoveredPixelIntoKernelsAndCopies) {
    Fixture f(synth_traces::smallTrace());
    f.state.setVisibleRange({0, 10'000});
    const QString kernel = f.tipAt(2'200);
    EXPECT_TRUE(kernel.startsWith(QStringLiteral("GPU 0 utilisation at "))) << kernel.toStdString();
    EXPECT_TRUE(kernel.contains(QStringLiteral("\nBusy 100.0 %: kernels 100.0 %, copies 0.0 %")))
        << kernel.toStdString();
    const QString copy = f.tipAt(4'000);
    EXPECT_TRUE(copy.contains(QStringLiteral("\nBusy 100.0 %: kernels 0.0 %, copies 100.0 %")))
        << copy.toStdString();
    const QString memset = f.tipAt(9'500);
    EXPECT_TRUE(memset.contains(QStringLiteral("copies 100.0 %")))
        << memset.toStdString(); // memsets count as copies
    // Zoomed out to one pixel over [1000, 5000): half kernels, half copies, 4 us per pixel.
    f.state.setVisibleRange({1'000, 1'000 + 4'000 * TimeNs(f.view.canvasSize().width())});
    const QString wide = f.tipAt(1'000);
    EXPECT_TRUE(wide.contains(QStringLiteral("(4.000 \u00b5s per pixel)"))) << wide.toStdString();
    EXPECT_TRUE(wide.contains(QStringLiteral("\nBusy 87.5 %: kernels 50.0 %, copies 37.5 %")))
        << wide.toStdString();
}

TEST(UtilizationTooltip, AnIdleBandGivesItsDurationAndCause) {
    Fixture f(synth_traces::smallTrace());
    f.state.setIdleThresholdNs(1'000);
    f.state.setVisibleRange({0, 10'000});
    // [6100, 9000): 2.9 us; nothing on the CPU side explains it.
    const QString tip = f.tipAt(7'000);
    EXPECT_TRUE(tip.contains(QStringLiteral("\nBusy 0.0 %: kernels 0.0 %, copies 0.0 %")));
    EXPECT_TRUE(tip.contains(QStringLiteral("\nIdle 2.900 \u00b5s from "))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("(a gap: at least 1.000 \u00b5s)\nCause: No CPU "
                                            "activity\nNo CUDA API call on the CPU side")))
        << tip.toStdString();
    // [3000, 3500) is shorter than the threshold: no band, no cause.
    const QString shortGap = f.tipAt(3'200);
    EXPECT_FALSE(shortGap.contains(QStringLiteral("Cause:"))) << shortGap.toStdString();
}

// GPU 0: kernels [0, 10 us) and [500, 510 us), the second launched at 492 us by "Main", which
// waits in poll for most of the gap; the trace runs from -100 us to 700 us. GPU 1 runs nothing.
std::shared_ptr<const Trace> waitingTrace() {
    TraceBuilder b(QStringLiteral("waiting"));
    GpuInfo g0, g1;
    g0.id = 0;
    g1.id = 1;
    b.addGpu(g0);
    b.addGpu(g1);
    b.setThreadName(100, 101, b.intern("Main"));
    KernelConfig c;
    c.shortName = b.intern("k");
    ApiCallRecord a1, a2;
    a1.correlationId = 1;
    a2.correlationId = 2;
    b.addApiCall(100, 101, -100'000, -99'000, b.intern("cudaLaunchKernel"), a1);
    b.addKernel(100, 0, 1, 7, 0, 10'000, c, 1u, std::nullopt);
    b.addOsrtCall(100, 101, 20'000, 400'000, b.intern("poll"), OsrtRecord{});
    b.addApiCall(100, 101, 492'000, 495'000, b.intern("cudaLaunchKernel"), a2);
    b.addKernel(100, 0, 1, 7, 500'000, 510'000, c, 2u, std::nullopt);
    b.addOsrtCall(100, 101, 600'000, 700'000, b.intern("write"), OsrtRecord{});
    return b.finish();
}

TEST(UtilizationTooltip, AWaitingThreadIsTheBandsCause) {
    Fixture f(waitingTrace());
    f.state.setVisibleRange({-100'000, 700'000});
    const QString tip = f.tipAt(250'000);
    EXPECT_TRUE(tip.contains(QStringLiteral("\nIdle 490.0 \u00b5s from "))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("\nCause: CPU waiting\nCPU waiting in poll: Main "
                                            "[101] was in it for 78% of the gap")))
        << tip.toStdString();
}

TEST(UtilizationTooltip, TheIdleEndsAreNotGaps) {
    Fixture f(waitingTrace());
    f.state.setVisibleRange({-100'000, 700'000});
    const QString before = f.tipAt(-50'000);
    EXPECT_TRUE(before.contains(QStringLiteral("\nIdle before first work: 100.0 \u00b5s (not a "
                                               "gap).")))
        << before.toStdString();
    EXPECT_FALSE(before.contains(QStringLiteral("Cause:")));
    const QString after = f.tipAt(650'000);
    EXPECT_TRUE(after.contains(QStringLiteral("\nIdle after last work: 190.0 \u00b5s (not a "
                                              "gap).")))
        << after.toStdString();
    // A GPU without work is left out at first (LaneLayout::hideIdleGpus); shown, it says so.
    f.view.setHideIdleGpus(false);
    const QString none = f.tipAt(250'000, 1);
    EXPECT_TRUE(none.startsWith(QStringLiteral("GPU 1 utilisation at "))) << none.toStdString();
    EXPECT_TRUE(none.endsWith(QStringLiteral("\nNo GPU work recorded."))) << none.toStdString();
}

} // namespace
