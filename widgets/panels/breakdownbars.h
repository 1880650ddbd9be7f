// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/breakdown.h"

#include <QColor>
#include <QWidget>
#include <vector>

namespace strobe {

// One stacked bar per GPU: compute by kernel class, exposed communication, memory under no
// kernel, idle; the segments add up to the span. A legend under the bars names each segment
// with its share. Colours are the timeline's, by the class's colour category.
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
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    int rowHeight() const;
    std::vector<GpuBreakdown> m_gpus;
};

} // namespace strobe
