// SPDX-License-Identifier: MIT
#include "render/paint/timelinepicture.h"

#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelineframe.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/headerpainter.h"
#include "render/paint/lanepainter.h"
#include "render/paint/paintcontext.h"
#include "render/paint/rulerpainter.h"

#include <QFontMetrics>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#include <QStringBuilder>
#include <QSvgGenerator>
#include <algorithm>

namespace strobe {

namespace {

constexpr int kTextPad = 6;

// A band across the picture with one line of text: a trace's title or the footer.
void paintTextBand(QPainter& p, const QRect& band, const QString& text, const QFont& font,
                   const TimelinePalette& pal, bool bold) {
    p.fillRect(band, pal.groupHeader);
    QFont f = font;
    f.setBold(bold);
    p.setFont(f);
    p.setPen(pal.text);
    const QRect textRect = band.adjusted(kTextPad, 0, -kTextPad, 0);
    p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
               QFontMetrics(f).elidedText(text, Qt::ElideMiddle, textRect.width()));
}

// One trace's header column and lanes, `height` high, at `top`.
void paintBand(QPainter& p, const PictureOptions& o, const PictureTrace& t, int top, int height) {
    const int canvasWidth = std::max(1, o.size.width() - kLaneHeaderWidth);
    const QFont font = pictureFontForRows(o.font, *t.layout);
    const TimeRange view{o.window.start + t.offset, o.window.end + t.offset};
    PaintContext ctx =
        makePaintContext(t.layout->trace(), t.layout, view, QSize(canvasWidth, height), t.scrollY,
                         o.dpr, o.idleThreshold, o.palette, font);
    ctx.oneRectPerItem = o.oneRectPerItem;
    // The lanes first, the header column over them: an SVG keeps no clip, so whatever a bar
    // draws past the canvas' left edge disappears under the header (the bands below, the
    // ruler and the footer cover the other edges).
    p.save();
    p.translate(kLaneHeaderWidth, top);
    p.setClipRect(QRect(0, 0, canvasWidth, height));
    TimelineFrame::Options frameOptions;
    frameOptions.summaries = !ctx.oneRectPerItem; // vector output: every item a rectangle
    const TimelineFrame frame(*t.geometry, ctx, frameOptions);
    LanePainter painter; // paints the band's background too
    painter.paint(p, ctx, frame);
    p.restore();
    p.save();
    p.translate(0, top);
    p.setClipRect(QRect(0, 0, kLaneHeaderWidth, height));
    paintLaneHeader(p, QSize(kLaneHeaderWidth, height), *t.layout, t.scrollY, o.palette, font);
    p.restore();
}

} // namespace

QFont pictureFontForRows(const QFont& base, const LaneLayout& layout) {
    if (layout.rowHeight() >= LaneLayout::kRowHeight)
        return base;
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * layout.rowHeight() / LaneLayout::kRowHeight);
    return f;
}

int pictureRowsHeight(const PictureTrace& trace) {
    return trace.layout->pinnedHeight() +
           std::max(0, trace.layout->contentHeight() - trace.scrollY);
}

int pictureLanesHeight(std::span<const PictureTrace> traces) {
    int h = 0;
    for (const PictureTrace& t : traces)
        h += (t.title.isEmpty() ? 0 : kPictureTitleHeight) + pictureRowsHeight(t);
    return h;
}

int pictureLanesRoom(const PictureOptions& options) {
    const int footer = options.footer.isEmpty() ? 0 : kPictureFooterHeight;
    return std::max(0, options.size.height() - kTimeRulerHeight - footer);
}

std::vector<int> pictureBandHeights(const PictureOptions& options,
                                    std::span<const PictureTrace> traces) {
    std::vector<int> heights;
    int room = pictureLanesRoom(options);
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const PictureTrace& t = traces[i];
        const int need = t.height > 0
                             ? t.height
                             : (t.title.isEmpty() ? 0 : kPictureTitleHeight) + pictureRowsHeight(t);
        const int h = i + 1 == traces.size() ? room : std::min(need, room);
        heights.push_back(h);
        room -= h;
    }
    return heights;
}

void paintTimelinePicture(QPainter& p, const PictureOptions& o,
                          std::span<const PictureTrace> traces) {
    const int width = o.size.width();
    const TimelinePalette& pal = o.palette;
    p.fillRect(QRect(QPoint(0, 0), o.size), pal.background);
    int top = kTimeRulerHeight;
    const std::vector<int> heights = pictureBandHeights(o, traces);
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const PictureTrace& t = traces[i];
        int rows = heights[i];
        if (!t.title.isEmpty()) {
            const int title = std::min(kPictureTitleHeight, rows);
            paintTextBand(p, QRect(0, top, width, title), t.title, o.font, pal, true);
            top += title;
            rows -= title;
        }
        if (rows > 0)
            paintBand(p, o, t, top, rows);
        top += rows;
    }
    // The ruler: the shared axis, labels counted from each trace's offset.
    p.fillRect(QRect(0, 0, kLaneHeaderWidth, kTimeRulerHeight), pal.groupHeader);
    p.fillRect(QRect(0, kTimeRulerHeight - 1, kLaneHeaderWidth, 1), pal.grid);
    p.fillRect(QRect(kLaneHeaderWidth - 1, 0, 1, kTimeRulerHeight), pal.grid);
    p.save();
    p.translate(kLaneHeaderWidth, 0);
    p.setClipRect(QRect(0, 0, width - kLaneHeaderWidth, kTimeRulerHeight));
    paintTimeRuler(p, QSize(width - kLaneHeaderWidth, kTimeRulerHeight), pal, o.font,
                   RulerContent{o.window, 0, {}, {}},
                   layoutRulerFlags(o.marks, o.window, width - kLaneHeaderWidth));
    p.restore();
    if (!o.footer.isEmpty()) {
        paintTextBand(p,
                      QRect(0, o.size.height() - kPictureFooterHeight, width, kPictureFooterHeight),
                      o.footer, o.font, pal, false);
    }
}

QString writeTimelinePicture(const QString& path, PictureFormat format, const PictureOptions& o,
                             std::span<const PictureTrace> traces) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write ") % path % QStringLiteral(": ") % file.errorString() %
               u'.';
    if (format == PictureFormat::Png) {
        QImage image(o.size * o.dpr, QImage::Format_RGB32);
        image.setDevicePixelRatio(o.dpr);
        {
            QPainter p(&image);
            paintTimelinePicture(p, o, traces);
        }
        QImageWriter writer(&file, "png");
        if (!writer.write(image))
            return QStringLiteral("cannot write ") % path % QStringLiteral(": ") %
                   writer.errorString() % u'.';
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(o.size);
        svg.setViewBox(QRect(QPoint(0, 0), o.size));
        svg.setResolution(96); // the point sizes of the fonts come out as in the PNG
        svg.setTitle(QStringLiteral("Strobe timeline"));
        QPainter p;
        if (!p.begin(&svg))
            return QStringLiteral("cannot write ") % path % QStringLiteral(": ") %
                   file.errorString() % u'.';
        PictureOptions vector = o;
        vector.oneRectPerItem = true;
        paintTimelinePicture(p, vector, traces);
        p.end();
    }
    if (!file.commit())
        return QStringLiteral("cannot write ") % path % QStringLiteral(": ") % file.errorString() %
               u'.';
    return {};
}

} // namespace strobe
