// SPDX-License-Identifier: MIT
// A partial GPU picture (a preview of a spread sample of the GPU rows, issue 45) is drawn hatched
// under a banner saying how much is read; the complete pictures are drawn plain.
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "model/tracebuilder.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QPainter>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

// The previews of a load in sampled passes of a synthetic trace, then the whole trace.
std::vector<std::unique_ptr<Trace>> sampledLoad() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("synth.sqlite"));
    synth::SynthOptions so;
    so.events = 150'000;
    std::string error;
    std::vector<std::unique_ptr<Trace>> out;
    if (!synth::writeSynthTrace(path.toStdString(), so, &error)) {
        ADD_FAILURE() << error;
        return out;
    }
    LoadOptions o;
    o.previewMinRows = 0;
    o.gpuSampleMinRows = 0;
    o.gpuSampleInterval = std::chrono::milliseconds(0); // a picture after every pass
    o.preview = [&](std::unique_ptr<Trace> t) { out.push_back(std::move(t)); };
    LoadResult r = loadTrace(path, o);
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    out.push_back(std::move(r.trace));
    return out;
}

// The canvas at the size a shown 1200 x 600 view gives it (a view never shown keeps its canvas
// at a default size that the banner covers).
QImage paint(TimelineView& view) {
    QImage img(QSize(1000, 560), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    view.paintCanvas(p, img.size(), 1.0);
    return img;
}

} // namespace

TEST(PartialPicture, OnlyASampledPreviewHasABanner) {
    std::vector<std::unique_ptr<Trace>> traces = sampledLoad();
    ASSERT_EQ(traces.size(), 5u) << "strides 16, 8 and 4, the GPU side, the whole trace";
    EXPECT_EQ(TimelineView::partialPictureText(*traces[0]).toStdString(),
              "Reading 1/16 of the GPU rows, spread over the whole time range: a partial "
              "picture, with gaps where rows are not read yet…");
    EXPECT_TRUE(TimelineView::partialPictureText(*traces[2]).contains(QStringLiteral("1/4 ")));
    EXPECT_TRUE(TimelineView::partialPictureText(*traces[3]).isEmpty()); // the GPU side
    EXPECT_TRUE(TimelineView::partialPictureText(*traces[4]).isEmpty()); // complete
}

TEST(PartialPicture, APartialPictureIsHatchedAndNavigable) {
    std::vector<std::unique_ptr<Trace>> traces = sampledLoad();
    ASSERT_EQ(traces.size(), 5u);
    ViewState state;
    TimelineView view(&state);
    view.resize(1200, 600);
    std::shared_ptr<const Trace> partial(std::move(traces[0]));
    state.setTrace(partial);
    view.waitForLevelOfDetail();
    const QImage hatched = paint(view);

    // The same events (a second load is the same) marked as a complete GPU side: drawn without
    // the hatching and the banner.
    std::vector<std::unique_ptr<Trace>> again = sampledLoad();
    ASSERT_EQ(again.size(), 5u);
    std::unique_ptr<Trace> same = std::move(again[0]);
    ASSERT_EQ(same->kernelCount(), partial->kernelCount());
    TraceBuilder::markGpuPreview(*same, TraceStage::GpuSide, std::nullopt);
    ASSERT_TRUE(TimelineView::partialPictureText(*same).isEmpty());
    state.setTrace(std::shared_ptr<const Trace>(std::move(same)));
    view.waitForLevelOfDetail();
    const QImage plainImage = paint(view);
    // Hatching covers the canvas: many pixels differ, in every quarter of it.
    for (int q = 0; q < 4; ++q) {
        int differing = 0, total = 0;
        const int x0 = q % 2 * hatched.width() / 2, y0 = q / 2 * hatched.height() / 2;
        for (int y = y0; y < y0 + hatched.height() / 2; y += 3) {
            for (int x = x0; x < x0 + hatched.width() / 2; x += 3) {
                ++total;
                differing += hatched.pixel(x, y) != plainImage.pixel(x, y);
            }
        }
        EXPECT_GT(differing, total / 20) << "quarter " << q;
    }

    // Zoom and pan work on a partial picture as on any: the range set is the range shown.
    state.setTrace(partial);
    const TimeRange all = partial->timeRange();
    const TimeRange zoomed{all.start + all.duration() / 4, all.start + all.duration() / 2};
    state.setVisibleRange(zoomed, true);
    EXPECT_EQ(state.visibleRange(), zoomed);
    const QImage zoomedImage = paint(view);
    EXPECT_NE(zoomedImage, hatched);
}
