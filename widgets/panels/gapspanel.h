// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/gaps.h"

#include <QWidget>
#include <optional>

class QAbstractItemModel;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace strobe {

class BackgroundTask;
class GapTableModel;
class ViewState;

// The GPU gaps panel: every idle gap of every GPU at least ViewState::idleThresholdNs() long,
// with its cause (findGaps, docs/GAPS.md), sorted by duration (any column sorts), under a
// header: per GPU its kernel, copy and idle time, and the idle stretches before its first and
// after its last work (not gaps), or "no GPU work recorded". A combo box picks what counts as
// busy (all work or kernels only; BusyWork). Double-clicking a gap zooms the timeline to it, marks
// it as the selected range and selects the event that explains it. findGaps runs on a worker
// (BackgroundTask): until its result arrives the table is empty and the totals say so.
class GapsPanel : public QWidget {
    Q_OBJECT
public:
    explicit GapsPanel(ViewState* state, QWidget* parent = nullptr);
    ~GapsPanel() override;

    const GapAnalysis& analysis() const { return m_analysis; }
    // The table's source model (rows in findGaps order) and the view (sorted through a proxy).
    QAbstractItemModel* model() const;
    QTableView* view() const { return m_view; }
    QString totalsText() const;
    // What counts as busy for the gaps (default all work); changing it recomputes them.
    BusyWork busyWork() const { return m_busy; }
    void setBusyWork(BusyWork busy);
    QComboBox* busyCombo() const { return m_busyCombo; }
    // The gap shown at `row` of the view, in view order.
    const GpuGap* gapAtRow(int row) const;
    // Zooms to the gap at view row `row` and selects its context, as a double-click does.
    void activateRow(int row);
    // The visible range activateRow shows for `gap`: the gap (and its cause's event when that is
    // at most 4x as long) with a margin of a fifth of that span on each side.
    static TimeRange zoomRangeFor(const Trace& trace, const GpuGap& gap);
    // True while the gaps of the current trace and threshold are being computed.
    bool isComputing() const;

signals:
    // The table shows the gaps of the current trace and threshold (after each computation).
    void ready();

private:
    void rebuild();
    void showAnalysis(std::shared_ptr<const Trace> trace, GapAnalysis result);

    ViewState* m_state;
    std::shared_ptr<const Trace> m_trace; // the trace m_analysis describes
    GapAnalysis m_analysis;
    GapTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_totals;
    QComboBox* m_busyCombo;
    BusyWork m_busy = BusyWork::All;
    BackgroundTask* m_task;
};

} // namespace strobe
