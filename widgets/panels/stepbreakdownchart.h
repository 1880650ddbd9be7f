// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/steps.h"

#include <QColor>
#include <QRect>
#include <QWidget>
#include <optional>
#include <vector>

class QLabel;
class QTableWidget;

namespace strobe {

// The step time breakdown (computeStepBreakdown), as TensorBoard's Overview shows it: one
// stacked bar per step, its segments the categories of StepCategory bottom up in their order,
// each as high as its time, the average as a last bar, a legend with a swatch for each
// category that has time; below it a table of each step's categories in time and share. A
// click on a step's bar emits stepActivated. Passive: it shows the breakdown it is given.
class StepBreakdownChart : public QWidget {
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget* parent = nullptr);
    ~StepBreakdownChart() override;

    void setStepBreakdown(const StepBreakdown& breakdown);
    const StepBreakdown& stepBreakdown() const { return m_breakdown; }

    // "Kernel", "Memcpy", ..., "CPU Exec", "Other": TensorBoard's names.
    static QString categoryLabel(StepCategory c);
    // A fixed colour per category, distinguishable in light and dark themes.
    static QColor categoryColor(StepCategory c);

    // The bars: one per step, then the average (none without steps).
    int barCount() const;
    // "#550" (as the trace numbers its steps), "Trace" for the whole-trace step, "Average".
    QString barLabel(int bar) const;
    // The time of `c` in bar `bar` (the average's is a mean).
    double barTime(int bar, StepCategory c) const;
    struct Segment {
        StepCategory category = StepCategory::Other;
        QRect rect; // in canvas() coordinates
    };
    // The stacked segments of bar `bar`, bottom up, one for each category with time.
    std::vector<Segment> segments(int bar) const;
    // The bar's column (its slot, from the plot's top to its labels) in canvas() coordinates.
    QRect barSlot(int bar) const;
    // The bar at `pos` in canvas() coordinates, if any.
    std::optional<int> barAt(QPoint pos) const;
    // The categories the legend lists, in their order: those with time in some step.
    std::vector<StepCategory> legendCategories() const;
    // The painted part (legend and bars); the table is below it.
    QWidget* canvas() const { return m_canvas; }
    QTableWidget* table() const { return m_table; }
    // Emits stepActivated for step bar `bar`, as a click on it does (nothing for the average).
    void activateBar(int bar);

signals:
    void stepActivated(strobe::TimeRange range, strobe::EventRef event);

private:
    friend class StepBarsCanvas;
    struct Plot {
        QRect area;       // where the bars stand, their base at its bottom
        double scale = 1; // the time at the plot's top: the tallest bar's, up to a tick
        double tick = 1;  // the time between two lines of the axis
        int legendHeight = 0;
    };
    Plot plot() const;
    // The legend's swatches and labels, wrapped to the canvas's width.
    std::vector<std::pair<StepCategory, QRect>> legendLayout() const;
    void paintCanvas(QPainter& p) const;
    QString barToolTip(int bar) const;
    void fillTable();

    StepBreakdown m_breakdown;
    QLabel* m_title;
    QWidget* m_canvas;
    QTableWidget* m_table;
};

} // namespace strobe
