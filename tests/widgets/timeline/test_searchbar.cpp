// SPDX-License-Identifier: MIT
// The timeline's search bar (issue 44, item 16) on the offscreen platform: Ctrl+F on the
// timeline opens it, typing searches, the count label, Enter / Shift+Enter / F3 / Shift+F3 step
// through the matches in time order with wrapping, the view moves to each and selects it,
// narrow matches are zoomed in on, matches are highlighted while the bar is open, Escape closes
// it; a big trace is searched on a worker.
#include "model/analysis/eventsearch.h"
#include "model/tracebuilder.h"
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/timeline/searchbar.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct View {
    ViewState state;
    TimelineView view{&state};
    explicit View(std::shared_ptr<const Trace> trace, QSize size = {1400, 700}) {
        state.setTrace(std::move(trace));
        view.resize(size);
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
        view.waitForLevelOfDetail();
        view.canvas()->setFocus();
        QApplication::processEvents();
    }
    SearchBar* bar() const { return view.searchBar(); }
    QLineEdit* field() const { return bar()->textField(); }
    // Ctrl+F on the lanes, then `text` typed into the bar.
    void find(const QString& text) {
        QTest::keyClick(view.canvas(), Qt::Key_F, Qt::ControlModifier);
        EXPECT_FALSE(bar()->isHidden());
        EXPECT_TRUE(field()->hasFocus());
        QTest::keyClicks(field(), text);
    }
    void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier) {
        QTest::keyClick(field(), Qt::Key(k), mods);
    }
    TimeNs start(EventRef ref) const { return state.trace()->lane(ref.lane).start(ref.index); }
    QString selectedName() const {
        const EventRef s = state.selection();
        return s.isValid() ? state.trace()->string(state.trace()->lane(s.lane).nameId(s.index))
                           : QString();
    }
    QImage paint() {
        QImage img(view.canvas()->size(), QImage::Format_ARGB32_Premultiplied);
        QPainter p(&img);
        view.paintCanvas(p, img.size(), 1.0);
        return img;
    }
};

// The events of the small trace whose name holds "kernel", in time order: the three launches
// (100, 300, 500) and the two elementwise kernels (2000, 6000).
const std::vector<TimeNs> kKernelStarts{100, 300, 500, 2000, 6000};

} // namespace

TEST(SearchBar, CtrlFTypingCountsAndEnterStepsThroughMatchesInTimeOrder) {
    View v(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    EXPECT_TRUE(v.bar()->isHidden());
    v.state.fitAll();
    v.find(QStringLiteral("kernel"));
    ASSERT_NE(v.bar()->result(), nullptr);
    EXPECT_EQ(v.bar()->result()->count(), 5u);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("5 matches"));
    EXPECT_FALSE(v.state.selection().isValid()); // typing moves nothing

    for (std::size_t i = 0; i < kKernelStarts.size(); ++i) {
        v.key(Qt::Key_Return);
        EXPECT_EQ(v.start(v.state.selection()), kKernelStarts[i]) << i;
        EXPECT_EQ(v.bar()->countText(), QStringLiteral("%1 of 5").arg(i + 1));
    }
    EXPECT_EQ(v.selectedName(), QStringLiteral("vectorized_elementwise_kernel"));
    v.key(Qt::Key_Return); // wraps to the first
    EXPECT_EQ(v.start(v.state.selection()), 100);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("1 of 5"));
    v.key(Qt::Key_Return, Qt::ShiftModifier); // and back to the last
    EXPECT_EQ(v.start(v.state.selection()), 6000);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("5 of 5"));
    v.key(Qt::Key_Enter, Qt::ShiftModifier);
    EXPECT_EQ(v.start(v.state.selection()), 2000);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("4 of 5"));
    // F3 / Shift+F3 are the view's shortcuts: from the text field and from the lanes alike.
    v.key(Qt::Key_F3);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("5 of 5"));
    QTest::keyClick(v.view.canvas(), Qt::Key_F3, Qt::ShiftModifier);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("4 of 5"));
    EXPECT_EQ(v.start(v.state.selection()), 2000);
}

TEST(SearchBar, TheViewIsCentredOnTheMatch) {
    View v(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    v.state.setVisibleRange({0, 8000}, false);
    v.find(QStringLiteral("memcpy"));
    v.key(Qt::Key_Return); // the memcpy [3500, 5500)
    EXPECT_EQ(v.start(v.state.selection()), 3500);
    const TimeRange r = v.state.visibleRange();
    EXPECT_EQ(r.duration(), 8000); // a quarter of the canvas: the zoom is kept
    EXPECT_NEAR(double(r.start + r.end) / 2, 4500.0, 1.0);
    const std::optional<QRectF> rect = v.view.eventRect(v.state.selection());
    ASSERT_TRUE(rect);
    EXPECT_NEAR(rect->center().x(), v.view.canvas()->width() / 2.0, 1.0);
}

// A match narrower than a few pixels (it would fold with its neighbours) is zoomed in on.
TEST(SearchBar, ANarrowMatchIsZoomedInOn) {
    TraceBuilder b(QStringLiteral("narrow"));
    NvtxRecord range;
    b.addNvtx(1, 1, 0, 0, 1'000'000, b.intern("whole run"), range, std::nullopt);
    b.addOsrtCall(1, 1, 500'000, 500'010, b.intern("futex"), OsrtRecord{});
    View v(std::shared_ptr<const Trace>(b.finish()));
    v.state.fitAll();
    v.find(QStringLiteral("futex"));
    v.key(Qt::Key_Return);
    const std::optional<QRectF> rect = v.view.eventRect(v.state.selection());
    ASSERT_TRUE(rect);
    EXPECT_NEAR(rect->width(), 12.0, 1.0);
    EXPECT_NEAR(rect->center().x(), v.view.canvas()->width() / 2.0, 1.0);
    EXPECT_LT(v.state.visibleRange().duration(), 2000);
}

TEST(SearchBar, NoMatchABadPatternAndCaseAreSaid) {
    View v(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    v.find(QStringLiteral("nothing like it"));
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("No match"));
    v.key(Qt::Key_Return);
    EXPECT_FALSE(v.state.selection().isValid());
    v.field()->setText(QStringLiteral("cuda("));
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("No match")); // plain text: looked for as is
    v.bar()->regexButton()->click();
    EXPECT_EQ(v.bar()->countText(),
              QStringLiteral(
                  "Not a valid regular expression: missing closing parenthesis (at character 6)"));
    v.field()->setText(QStringLiteral("^cuda"));
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("3 matches"));
    v.bar()->caseButton()->click();
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("3 matches"));
    v.field()->setText(QStringLiteral("CUDA"));
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("2 matches")); // the memcpy and the memset
    v.field()->clear();
    EXPECT_EQ(v.bar()->countText(), QString());
    EXPECT_EQ(v.bar()->result(), nullptr);
}

// Matches are highlighted while the bar is open; Escape closes it, takes the highlights away
// and gives the keys back to the lanes.
TEST(SearchBar, MatchesAreHighlightedUntilEscapeClosesTheBar) {
    View v(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    v.state.fitAll();
    const QImage before = v.paint();
    QSignalSpy changed(v.bar(), &SearchBar::resultChanged);
    v.find(QStringLiteral("sgemm"));
    EXPECT_GE(changed.count(), 1);
    ASSERT_EQ(v.bar()->result()->count(), 1u);
    const EventRef gemm = v.bar()->result()->first();
    const QRectF r = *v.view.eventRect(gemm);
    const QImage lit = v.paint();
    // Inside the GEMM's bar the picture changed; at the memcpy's (no match) it did not.
    const QPoint in = r.center().toPoint();
    EXPECT_NE(lit.pixel(in), before.pixel(in));
    EventRef copy;
    for (std::uint32_t l = 0; l < v.state.trace()->lanes().size(); ++l) {
        if (v.state.trace()->lane(l).kind() == LaneKind::Memcpy)
            copy = EventRef{l, 0};
    }
    ASSERT_TRUE(copy.isValid());
    const QPoint out = v.view.eventRect(copy)->center().toPoint();
    EXPECT_EQ(lit.pixel(out), before.pixel(out));

    v.key(Qt::Key_Escape);
    EXPECT_TRUE(v.bar()->isHidden());
    EXPECT_TRUE(v.view.canvas()->hasFocus());
    EXPECT_EQ(v.paint().pixel(in), before.pixel(in));
    // Reopened, the text is kept and selected, and the highlights are back.
    QTest::keyClick(v.view.canvas(), Qt::Key_F, Qt::ControlModifier);
    EXPECT_EQ(v.field()->selectedText(), QStringLiteral("sgemm"));
    EXPECT_EQ(v.paint().pixel(in), lit.pixel(in));
}

// Clicking a match on the timeline makes it the current one.
TEST(SearchBar, ASelectedMatchBecomesTheCurrentOne) {
    View v(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    v.state.fitAll();
    v.find(QStringLiteral("kernel"));
    const std::vector<EventRef> all = v.bar()->result()->inTimeOrder();
    v.state.setSelection(all[3]);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("4 of 5"));
    v.key(Qt::Key_Return);
    EXPECT_EQ(v.state.selection(), all[4]);
}

// A big trace is searched on a worker; Enter pressed meanwhile is taken when it ends.
TEST(SearchBar, ABigTraceIsSearchedOnAWorker) {
    TraceBuilder b(QStringLiteral("big"));
    const StringId names[] = {b.intern("cudaLaunchKernel_v7000"), b.intern("cudaMemcpyAsync")};
    const std::uint32_t n = std::uint32_t(SearchBar::kWorkerEvents) + 1000;
    for (std::uint32_t i = 0; i < n; ++i)
        b.addApiCall(1, 1, TimeNs(i) * 100, TimeNs(i) * 100 + 50, names[i % 2], ApiCallRecord{});
    View v(std::shared_ptr<const Trace>(b.finish()));
    v.state.setVisibleRange({1000, 2000}, false);
    v.find(QStringLiteral("memcpy"));
    v.key(Qt::Key_Return);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !v.bar()->isSearching(); }, 10000));
    EXPECT_EQ(v.bar()->result()->count(), std::size_t(n / 2));
    // The first memcpy call at or after 1000 ns: i = 11, the sixth one.
    EXPECT_EQ(v.start(v.state.selection()), 1100);
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("6 of 100,500"));
}

// A new trace is searched again while the bar is open; the old matches never show on it.
TEST(SearchBar, ANewTraceIsSearchedAgain) {
    View v(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    v.find(QStringLiteral("kernel"));
    v.key(Qt::Key_Return);
    ASSERT_EQ(v.bar()->countText(), QStringLiteral("1 of 5"));
    TraceBuilder b(QStringLiteral("other"));
    b.addApiCall(1, 1, 0, 100, b.intern("cudaLaunchKernel_v7000"), ApiCallRecord{});
    b.addApiCall(1, 1, 200, 300, b.intern("cudaFree"), ApiCallRecord{});
    v.state.setTrace(std::shared_ptr<const Trace>(b.finish()));
    ASSERT_NE(v.bar()->result(), nullptr);
    EXPECT_EQ(v.bar()->result()->trace(), v.state.trace());
    EXPECT_EQ(v.bar()->countText(), QStringLiteral("1 match"));
    EXPECT_FALSE(v.bar()->current().isValid());
}

// A set of events given to the view (the Findings panel's evidence) is marked as matches are
// while the bar is closed; the open bar's matches take their place; a new trace drops them.
TEST(SearchBar, GivenEventsAreMarkedLikeMatchesWhileTheBarIsClosed) {
    View v(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    v.state.fitAll();
    const QImage before = v.paint();
    const EventRef gemm =
        searchEvents(*v.state.trace(), {QStringLiteral("sgemm"), false, false}).first();
    ASSERT_TRUE(gemm.isValid());
    const QPoint in = v.view.eventRect(gemm)->center().toPoint();
    const std::vector<EventRef> given{gemm};
    v.view.setHighlights(
        std::make_shared<const EventSearchResult>(eventSetOf(*v.state.trace(), given)));
    ASSERT_NE(v.view.highlights(), nullptr);
    const QImage marked = v.paint();
    EXPECT_NE(marked.pixel(in), before.pixel(in));
    // The bar's search for something else: its matches, not the given set.
    v.find(QStringLiteral("memcpy"));
    EXPECT_EQ(v.paint().pixel(in), before.pixel(in));
    v.key(Qt::Key_Escape);
    EXPECT_EQ(v.paint().pixel(in), marked.pixel(in));
    v.view.setHighlights(nullptr);
    EXPECT_EQ(v.paint().pixel(in), before.pixel(in));
    v.view.setHighlights(
        std::make_shared<const EventSearchResult>(eventSetOf(*v.state.trace(), given)));
    v.state.setTrace(std::shared_ptr<const Trace>(synth_traces::smallTrace()));
    EXPECT_EQ(v.view.highlights(), nullptr);
}
