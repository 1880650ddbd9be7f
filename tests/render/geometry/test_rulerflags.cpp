// SPDX-License-Identifier: MIT
// Where the bookmarks' flags go on the ruler: positions at several zooms, clipping at the view's
// edges, the label room up to the next flag.
#include "render/geometry/rulerflags.h"

#include <gtest/gtest.h>

using namespace strobe;

TEST(RulerFlags, FlagsSitAtTheirStartsWithTheLabelRoomUpToTheNextFlag) {
    const std::vector<RulerMark> marks{
        {TimeRange{600, 900}, QStringLiteral("b")},
        {TimeRange{100, 300}, QStringLiteral("a")},
        {TimeRange{950, 950}, QStringLiteral("instant")},
    };
    // 1000 ns over 500 px: 2 ns a pixel.
    const auto flags = layoutRulerFlags(marks, TimeRange{0, 1000}, 500);
    ASSERT_EQ(flags.size(), 3u);
    EXPECT_EQ(flags[0], (RulerFlag{50, 150, 300 - 50 - kRulerFlagWidth - 2, QStringLiteral("a")}));
    EXPECT_EQ(flags[1],
              (RulerFlag{300, 450, 475 - 300 - kRulerFlagWidth - 2, QStringLiteral("b")}));
    EXPECT_EQ(flags[2],
              (RulerFlag{475, 476, 500 - 475 - kRulerFlagWidth - 2, QStringLiteral("instant")}));

    // Zoomed in on [500, 700): only "b" meets the view; its bar runs past the right edge.
    const auto zoomed = layoutRulerFlags(marks, TimeRange{500, 700}, 400);
    ASSERT_EQ(zoomed.size(), 1u);
    EXPECT_EQ(zoomed[0].x, 200);
    EXPECT_EQ(zoomed[0].barEnd, 400);
}

TEST(RulerFlags, ARangeBegunBeforeTheViewFlagsAtTheLeftEdge) {
    const std::vector<RulerMark> marks{
        {TimeRange{-500, 250}, QStringLiteral("long")},
        {TimeRange{0, 0}, QStringLiteral("at start")},
        {TimeRange{-10, 0}, QStringLiteral("ends at start")},     // touches, does not meet
        {TimeRange{1000, 1200}, QStringLiteral("starts at end")}, // touches, does not meet
    };
    const auto flags = layoutRulerFlags(marks, TimeRange{0, 1000}, 1000);
    ASSERT_EQ(flags.size(), 2u);
    EXPECT_EQ(flags[0].label, QStringLiteral("long"));
    EXPECT_EQ(flags[0].x, 0);
    EXPECT_EQ(flags[0].barEnd, 250);
    EXPECT_EQ(flags[1].label, QStringLiteral("at start"));
    EXPECT_EQ(flags[0].labelRoom, 0); // the next flag is at the same x
    EXPECT_TRUE(layoutRulerFlags(marks, TimeRange{0, 1000}, 0).empty());
}
