// SPDX-License-Identifier: MIT
// Two views linked on one time axis: zoom and pan on either move the other by the offset.
#include "tests/model/analysis/comparisontestdata.h"
#include "widgets/timelinelink.h"
#include "widgets/viewstate.h"

#include <QSignalSpy>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

class TimelineLinkTest : public ::testing::Test {
protected:
    void SetUp() override {
        // A spans [1000, 20000), B [1000, 30000); shift B to start later to see the offset.
        a.setTrace(test::loadShared(test::pairPath(fixtures::PairSide::A)));
        b.setTrace(test::loadShared(test::pairPath(fixtures::PairSide::B)));
        ASSERT_TRUE(a.trace() && b.trace());
    }
    ViewState a, b;
};

TEST_F(TimelineLinkTest, ZoomAndPanOnEitherSideMoveBoth) {
    TimelineLink link(&a, &b);
    EXPECT_EQ(link.offset(), 0); // both start at 1000
    EXPECT_EQ(b.visibleRange(), a.visibleRange());
    a.setVisibleRange({2000, 5000});
    EXPECT_EQ(b.visibleRange(), (TimeRange{2000, 5000}));
    EXPECT_FALSE(b.canUndoZoom()); // following is not a zoom step of B's own
    EXPECT_TRUE(a.canUndoZoom());

    link.alignAt(11000, 21000); // A's iteration 1 at the x of B's iteration 2
    EXPECT_EQ(link.offset(), 10000);
    EXPECT_EQ(b.visibleRange(), (TimeRange{12000, 15000})); // A's view stays, B follows
    EXPECT_EQ(a.visibleRange(), (TimeRange{2000, 5000}));
    QSignalSpy spyA(&a, &ViewState::visibleRangeChanged);
    b.setVisibleRange({20000, 26000}); // a pan and zoom on B
    EXPECT_EQ(a.visibleRange(), (TimeRange{10000, 16000}));
    EXPECT_EQ(spyA.count(), 1); // once, no ping-pong
    EXPECT_EQ(link.toB(10000), 20000);
    a.undoZoom(); // A's own history (back to the whole trace) moves B too
    EXPECT_EQ(a.visibleRange(), (TimeRange{1000, 20000}));
    EXPECT_EQ(b.visibleRange(), (TimeRange{11000, 30000}));
}

TEST_F(TimelineLinkTest, OwnStartsAndNewTraces) {
    TimelineLink link(&a, &b);
    QSignalSpy spy(&link, &TimelineLink::offsetChanged);
    link.setOffset(500);
    EXPECT_EQ(spy.count(), 1);
    link.setOffset(500);
    EXPECT_EQ(spy.count(), 1); // only on change
    link.alignStarts();
    EXPECT_EQ(link.offset(), 0);
    // A trace on B that starts elsewhere: the link re-aligns on the own starts.
    b.setTrace(test::loadShared(test::samplePath(sample::SampleVariant::After)));
    EXPECT_EQ(link.offset(), b.trace()->timeRange().start - a.trace()->timeRange().start);
    EXPECT_EQ(b.visibleRange().start, a.visibleRange().start + link.offset());
    // Without a trace on one side nothing follows.
    b.setTrace(nullptr);
    a.setVisibleRange({3000, 4000});
    EXPECT_EQ(b.visibleRange(), (TimeRange{0, 1}));
}

} // namespace
