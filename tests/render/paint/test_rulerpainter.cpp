// SPDX-License-Identifier: MIT
// Where the ruler's cursor and measured-range labels go (issue #14 item 11: they never overlap).
#include "model/lod/timemapping.h"
#include "model/timeformat.h"
#include "render/geometry/rulerticks.h"
#include "render/paint/rulerpainter.h"
#include "render/paint/timelinecolors.h"

#include <QApplication>
#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <gtest/gtest.h>

using namespace strobe;

namespace {

QFontMetrics labelMetrics() {
    QFont f = QApplication::font();
    f.setPointSizeF(f.pointSizeF() * 0.85); // what the painter uses
    return QFontMetrics(f);
}

} // namespace

TEST(RulerPainter, TheDurationIsCentredOnTheRangeAwayFromTheCursor) {
    const QFontMetrics fm = labelMetrics();
    const RulerContent c{TimeRange{0, 1'000'000}, 0, TimeRange{200'000, 400'000}, 900'000};
    const RulerLabels l = layoutRulerLabels(c, 1000, fm);
    ASSERT_TRUE(l.measured && l.cursor);
    EXPECT_EQ(l.measuredText, formatDuration(200'000));
    EXPECT_NEAR(l.measured->center().x(), 300.0, 0.5); // the range spans pixels 200 to 400
    EXPECT_NEAR(l.cursor->center().x(), 900.0, 0.5);
    EXPECT_EQ(l.cursorText, formatTickLabel(900'000, 1000));
}

TEST(RulerPainter, TheLabelsNeverOverlap) {
    const QFontMetrics fm = labelMetrics();
    for (int width : {240, 400, 1000, 2400}) {
        const TimeRange view{0, 1'000'000};
        const TimeMapping map = TimeMapping::fromRange(view, width);
        for (const TimeRange measured : {TimeRange{400'000, 600'000}, TimeRange{0, 30'000},
                                         TimeRange{970'000, 1'000'000}, TimeRange{0, 1'000'000}}) {
            int shown = 0;
            for (int x = 0; x < width; x += 3) {
                const RulerContent c{view, 0, measured, map.toTime(x)};
                const RulerLabels l = layoutRulerLabels(c, width, fm);
                ASSERT_TRUE(l.cursor);
                EXPECT_GE(l.cursor->left(), 0.0);
                EXPECT_LE(l.cursor->right(), double(width));
                if (!l.measured)
                    continue;
                ++shown;
                EXPECT_FALSE(l.measured->intersects(*l.cursor))
                    << "width " << width << ", cursor at " << x << ", range " << measured.start
                    << ".." << measured.end;
                EXPECT_GE(l.measured->left(), 0.0);
                EXPECT_LE(l.measured->right(), double(width));
            }
            // Left out only when neither side of the cursor label has room for it.
            const double need =
                2 * (fm.horizontalAdvance(formatDuration(measured.duration())) + 8 + 4) +
                fm.horizontalAdvance(QStringLiteral("999.999 ms")) + 8;
            if (width >= need) {
                EXPECT_EQ(shown, (width + 2) / 3) << width;
            }
        }
    }
}

// Bookmarks' flags (issue 44, item 17): a pennant and a bar at the positions layoutRulerFlags
// gave, nothing elsewhere along the top.
TEST(RulerPainter, FlagsAreDrawnWhereTheirGeometrySaysOnly) {
    const TimelinePalette pal = TimelinePalette::light();
    const QSize size(400, kTimeRulerHeight);
    const TimeRange view{0, 4000};
    const std::vector<RulerMark> marks{{TimeRange{1000, 2000}, QString()},
                                       {TimeRange{3000, 3000}, QString()}};
    const auto flags = layoutRulerFlags(marks, view, size.width());
    ASSERT_EQ(flags.size(), 2u);
    QImage plain(size, QImage::Format_ARGB32_Premultiplied), flagged = plain;
    {
        QPainter p(&plain);
        paintTimeRuler(p, size, pal, QApplication::font(), RulerContent{view, 0, {}, {}});
    }
    {
        QPainter p(&flagged);
        paintTimeRuler(p, size, pal, QApplication::font(), RulerContent{view, 0, {}, {}}, flags);
    }
    const auto changed = [&](int x, int y) { return plain.pixel(x, y) != flagged.pixel(x, y); };
    EXPECT_TRUE(changed(100, 1)); // the first flag's pole and bar start at 100 px
    EXPECT_TRUE(changed(150, 1)); // its bar spans [100, 200)
    EXPECT_TRUE(changed(199, 1));
    EXPECT_FALSE(changed(201, 1)); // and ends there
    EXPECT_TRUE(changed(300, 15)); // the instant's pole
    EXPECT_FALSE(changed(50, 1));
    EXPECT_FALSE(changed(99, 15));
    EXPECT_FALSE(changed(350, 1));
}
