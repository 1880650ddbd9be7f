// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gaps.h"
#include "model/types.h"
#include "render/geometry/rulerflags.h"
#include "render/paint/timelinecolors.h"

#include <QFont>
#include <QSize>
#include <QString>
#include <span>
#include <vector>

class QPainter;

namespace strobe {

class LaneLayout;
class TimelineGeometry;

// One trace of a timeline picture: its rows as `layout` lays them out, drawn from a frame that
// `geometry` (which holds layout->trace() and its level of detail) builds for the picture, with
// trace time `offset` at time 0 of the picture's shared axis. Several are stacked top to bottom
// on that one axis, each from its own offset (a comparison: each trace from its own start).
struct PictureTrace {
    const LaneLayout* layout = nullptr;
    TimelineGeometry* geometry = nullptr; // its caches fill for the picture's frame
    TimeNs offset = 0;
    int scrollY = 0; // content rows scrolled off the top, as in the view
    QString title;   // a band above its lanes naming it; empty: none
    int height = 0;  // its band's height (title and rows), as its pane on screen; 0: what it needs
};

// How a picture is drawn: its size, the window of the shared axis it shows, the look.
struct PictureOptions {
    QSize size{1920, 1080}; // the whole picture, logical pixels
    double dpr = 1.0;
    TimeRange window; // on the shared axis: trace time minus the trace's offset
    TimelinePalette palette = TimelinePalette::light();
    QFont font; // the base font; labels use 90 % of it, smaller with rows under kRowHeight
    TimeNs idleThreshold = kDefaultIdleThresholdNs;
    QString footer; // one line along the bottom; empty: no footer
    // Vector output: every draw item its own rectangle (PaintContext::oneRectPerItem).
    bool oneRectPerItem = false;
    // Bookmarks' notes, on the shared axis: flags on the ruler (layoutRulerFlags).
    std::vector<RulerMark> marks;
};

inline constexpr int kPictureTitleHeight = 20;
inline constexpr int kPictureFooterHeight = 20;

// `base` for rows of `layout`: as it is at the view's row height, proportionally smaller for
// shorter rows (--fit), so labels stay inside their rows.
QFont pictureFontForRows(const QFont& base, const LaneLayout& layout);
// The height the rows of `trace` need below its title, from its scroll position down.
int pictureRowsHeight(const PictureTrace& trace);
// The height the traces need below the ruler: titles and rows, no footer.
int pictureLanesHeight(std::span<const PictureTrace> traces);
// The height left for the traces below the ruler and above the footer.
int pictureLanesRoom(const PictureOptions& options);
// The height of each trace's band (title and rows), top to bottom: what it needs while there is
// room, the last one everything left.
std::vector<int> pictureBandHeights(const PictureOptions& options,
                                    std::span<const PictureTrace> traces);

// Draws the picture into [0, options.size) of `p`: the time ruler over the lanes, each trace's
// title, lane header column and lanes in its band, then the footer. strobe-cli render and the
// GUI's File > Export Image both draw here, with the painters and the level of detail the
// timeline view uses, so a picture looks like the view.
void paintTimelinePicture(QPainter& p, const PictureOptions& options,
                          std::span<const PictureTrace> traces);

enum class PictureFormat { Png, Svg };

// Writes the picture to `path` (replacing it only once complete). Returns the error sentence,
// or an empty string once written.
QString writeTimelinePicture(const QString& path, PictureFormat format,
                             const PictureOptions& options, std::span<const PictureTrace> traces);

} // namespace strobe
