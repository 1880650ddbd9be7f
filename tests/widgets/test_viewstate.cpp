// SPDX-License-Identifier: MIT
// ViewState's contract: each signal fires exactly once per real change, and never for a no-op.
#include "tests/widgets/timeline/synthtraces.h"
#include "widgets/viewstate.h"

#include <QSignalSpy>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

struct Spies {
    explicit Spies(ViewState& s)
        : trace(&s, &ViewState::traceChanged)
        , visible(&s, &ViewState::visibleRangeChanged)
        , selection(&s, &ViewState::selectionChanged)
        , range(&s, &ViewState::selectedRangeChanged)
        , cursor(&s, &ViewState::cursorTimeChanged)
        , idle(&s, &ViewState::idleThresholdChanged)
        , reveal(&s, &ViewState::revealRequested) {}
    // Counts of every spy, in declaration order, then clears them.
    std::vector<qsizetype> take() {
        std::vector<qsizetype> n;
        for (QSignalSpy* s : {&trace, &visible, &selection, &range, &cursor, &idle, &reveal}) {
            n.push_back(s->count());
            s->clear();
        }
        return n;
    }
    QSignalSpy trace, visible, selection, range, cursor, idle, reveal;
};

using Counts = std::vector<qsizetype>;

TEST(ViewState, SetTraceAnnouncesTraceRangeAndClearedSelectionOnce) {
    ViewState s;
    Spies spy(s);
    std::shared_ptr<const Trace> t = synth_traces::smallTrace();
    s.setTrace(t);
    EXPECT_EQ(spy.take(), (Counts{1, 1, 1, 0, 0, 0, 0}));
    EXPECT_EQ(s.visibleRange(), t->timeRange());
}

TEST(ViewState, EachSetterFiresOncePerChangeAndNeverForTheSameValue) {
    ViewState s;
    s.setTrace(synth_traces::smallTrace());
    Spies spy(s);

    s.setVisibleRange({100, 900});
    s.setVisibleRange({100, 900});
    EXPECT_EQ(spy.take(), (Counts{0, 1, 0, 0, 0, 0, 0}));
    EXPECT_EQ(s.visibleRange(), (TimeRange{100, 900}));

    const EventRef ref{0, 0};
    s.setSelection(ref);
    s.setSelection(ref);
    EXPECT_EQ(spy.take(), (Counts{0, 0, 1, 0, 0, 0, 0}));

    s.setSelectedRange(TimeRange{10, 20});
    s.setSelectedRange(TimeRange{10, 20});
    s.setSelectedRange(std::nullopt);
    EXPECT_EQ(spy.take(), (Counts{0, 0, 0, 2, 0, 0, 0}));

    s.setCursorTime(42);
    s.setCursorTime(42);
    s.setCursorTime(std::nullopt);
    s.setCursorTime(std::nullopt);
    EXPECT_EQ(spy.take(), (Counts{0, 0, 0, 0, 2, 0, 0}));

    s.setIdleThresholdNs(kDefaultIdleThresholdNs); // already the default
    s.setIdleThresholdNs(5'000);
    s.setIdleThresholdNs(5'000);
    EXPECT_EQ(spy.take(), (Counts{0, 0, 0, 0, 0, 1, 0}));
    EXPECT_EQ(s.idleThresholdNs(), 5'000);
}

TEST(ViewState, UndoZoomRestoresTheRecordedRangeWithOneSignal) {
    ViewState s;
    s.setTrace(synth_traces::smallTrace());
    const TimeRange whole = s.visibleRange();
    Spies spy(s);
    s.setVisibleRange({100, 900});
    s.setVisibleRange({200, 300}, false); // not recorded
    spy.take();
    ASSERT_TRUE(s.undoZoom());
    EXPECT_EQ(spy.take(), (Counts{0, 1, 0, 0, 0, 0, 0}));
    EXPECT_EQ(s.visibleRange(), whole);
    EXPECT_FALSE(s.undoZoom());
    EXPECT_EQ(spy.take(), (Counts{0, 0, 0, 0, 0, 0, 0}));
}

TEST(ViewState, RevealSelectsOnceAndRequestsEveryTime) {
    ViewState s;
    s.setTrace(synth_traces::smallTrace());
    Spies spy(s);
    const EventRef ref{0, 1};
    s.reveal(ref);
    s.reveal(ref); // selection unchanged: only the request repeats
    EXPECT_EQ(spy.take(), (Counts{0, 0, 1, 0, 0, 0, 2}));
    s.reveal(EventRef{}); // invalid: nothing
    EXPECT_EQ(spy.take(), (Counts{0, 0, 0, 0, 0, 0, 0}));
}

} // namespace
