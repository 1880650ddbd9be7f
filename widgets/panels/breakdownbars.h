// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/breakdown.h"

#include <QColor>
#include <QRect>
#include <QWidget>
#include <vector>

namespace strobe {

// One stacked bar per GPU: compute by kernel class, exposed communication, memory under no
// kernel, idle; the segments add up to the span. Under each bar a legend gives every segment
// with time a swatch of its colour, its name and its share (the shares add up to 100 %), wrapped
// onto as many lines as the width needs. Colours are the timeline's, by the class's colour
// category.
class BreakdownBars : public QWidget {
    Q_OBJECT
public:
    explicit BreakdownBars(QWidget* parent = nullptr);

    void setBreakdown(std::vector<GpuBreakdown> gpus);

    struct Segment {
        QString label;
        TimeNs ns = 0;
        QColor color;
    };
    // The segments of one GPU's bar, left to right; zero-length ones included.
    std::vector<Segment> segments(const GpuBreakdown& b) const;

    struct LegendItem {
        QString text; // "Convolution 30.0 %", "GEMM <0.1 %"
        QColor color;
        QRect swatch; // relative to the legend's top left
        QRect label;  // as wide as the text: never elided
    };
    // The legend of one GPU's bar laid out in `width` pixels: every segment with time, in bar
    // order, its share from roundedShareTexts; an item that does not fit on a line starts the
    // next (one wider than the width stays alone on its line).
    std::vector<LegendItem> legend(const GpuBreakdown& b, int width) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    int barWidth(int width) const;
    int legendLines(const GpuBreakdown& b, int width) const;
    // One GPU's height: the bar, its legend's lines, the gap to the next.
    int rowHeight(const GpuBreakdown& b, int width) const;
    std::vector<GpuBreakdown> m_gpus;
};

} // namespace strobe
