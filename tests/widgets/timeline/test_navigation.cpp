// SPDX-License-Identifier: MIT
#include "widgets/timeline/navigation.h"

#include <gtest/gtest.h>

using namespace strobe;
using namespace strobe::navigation;

TEST(Navigation, ZoomKeepsTheAnchorInPlace) {
    const TimeRange bounds{0, 1'000'000};
    const TimeRange z = zoomAround({0, 1'000'000}, 250'000, 0.5, bounds);
    EXPECT_EQ(z, (TimeRange{125'000, 625'000}));
}

TEST(Navigation, ZoomOutIsLimitedToTheTracePlusMargin) {
    const TimeRange z = zoomAround({0, 1'000'000}, 500'000, 10.0, {0, 1'000'000});
    EXPECT_EQ(z.duration(), 1'100'000);
    EXPECT_EQ(z.start, -50'000);
}

TEST(Navigation, ZoomInStopsAtTheMinimumSpan) {
    const TimeRange z = zoomAround({0, 100}, 50, 0.01, {0, 1'000'000});
    EXPECT_EQ(z.duration(), kMinSpan);
    EXPECT_EQ(z.start, 40);
}

TEST(Navigation, PanIsClampedToTheMargin) {
    const TimeRange bounds{0, 1'000'000};
    EXPECT_EQ(panBy({0, 100'000}, 10'000, bounds), (TimeRange{10'000, 110'000}));
    EXPECT_EQ(panBy({0, 100'000}, -500'000, bounds), (TimeRange{-50'000, 50'000}));
    EXPECT_EQ(panBy({900'000, 1'000'000}, 500'000, bounds), (TimeRange{950'000, 1'050'000}));
}

TEST(Navigation, RevealKeepsZoomWhenTheEventFits) {
    // already visible (100 px of 1000): unchanged
    EXPECT_EQ(revealRange({0, 1000}, {100, 200}, 1000), (TimeRange{0, 1000}));
    // fits but off screen: same span, centred on it
    EXPECT_EQ(revealRange({0, 1000}, {5000, 5100}, 1000), (TimeRange{4550, 5550}));
    // too long: five times its duration, centred
    EXPECT_EQ(revealRange({0, 1000}, {10'000, 12'000}, 1000), (TimeRange{6'000, 16'000}));
    // visible but under 3 px wide: zoom to it
    EXPECT_EQ(revealRange({0, 1'000'000}, {100, 200}, 1000), (TimeRange{-100, 400}));
}
