// SPDX-License-Identifier: MIT
#pragma once

// The job view (issue 42, docs/JOBS.md): every rank of a distributed job on one time axis, drawn
// from the ranks' summaries alone: per rank a group headed "rank 3 (node-a, GPU 3)" with its GPU
// busy strip, its steps and its NCCL collectives, zoomed and panned like the timeline. Selecting a
// collective on one rank highlights its peers on every rank (matchCollectives) and draws each
// rank's wait for the last arriver.

#include "model/job/job.h"

#include <QRectF>
#include <QWidget>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QMenu;
class QScrollArea;

namespace strobe {

class Trace;
class TimelineView;
class ViewState;

// The rank groups, painted directly (a few rectangles per rank and collective; no trace is held).
class JobCanvas final : public QWidget {
    Q_OBJECT
public:
    explicit JobCanvas(QWidget* parent = nullptr);

    // Shows `job` on the clock of `analysis` (both frozen, shared with the Ranks panel); the view
    // becomes the whole job when `resetView`, and the selection is dropped.
    void setJob(std::shared_ptr<const Job> job, std::shared_ptr<const JobAnalysis> analysis,
                bool resetView = true);
    const Job* job() const { return m_job.get(); }
    const JobAnalysis* analysis() const { return m_analysis.get(); }

    // The whole job on the aligned clock: every rank's GPU span and steps, offsets applied.
    TimeRange jobRange() const;
    TimeRange view() const { return m_view; }
    // Shows `view` (at least 1 µs, clamped to the job's range widened by a tenth).
    void setView(TimeRange view);
    // Zooms by `factor` (< 1 zooms in) keeping the time at canvas x `x` in place.
    void zoomAround(double x, double factor);

    // Room under rank index `rank`'s rows for its full lanes (0: collapsed); the job view puts
    // the rank's timeline there (extraRect).
    void setExtraHeight(std::size_t rank, int height);
    int extraHeight(std::size_t rank) const;
    QRect extraRect(std::size_t rank) const;
    // The rank index whose group (rows and room) is at canvas y, if any.
    std::optional<std::size_t> rankAt(int y) const;

    // The width the time axis spans: from kHeaderWidth to the right edge.
    int plotWidth() const;
    // Rank index `rank`'s offset: its time + offset = job time.
    TimeNs rankOffset(std::size_t rank) const;

    // The group heading of rank index `rank` (Job::ranks order): "rank 3 (node-a, GPU 3)", the
    // host where the summary records one (RankSummary::host).
    QString rankTitle(std::size_t rank) const;
    // The context menu of the rank headings (rank index `rank`'s, or of none): show or hide its
    // full lanes, Expand All Ranks, Collapse All Ranks. Its actions emit the signals below.
    std::unique_ptr<QMenu> headingMenu(std::optional<std::size_t> rank);
    // Where rank index `rank`'s group, and its NCCL lane, are drawn.
    QRect groupRect(std::size_t rank) const;
    QRect ncclLaneRect(std::size_t rank) const;
    // The rectangle of call `call` of rank index `rank` at the current view (may lie outside).
    QRectF callRect(std::size_t rank, std::size_t call) const;

    // The matched collective (index into CollectiveMatch::matched) drawn at `p`, if any.
    std::optional<std::size_t> collectiveAt(QPoint p) const;
    std::optional<std::size_t> selectedCollective() const { return m_selected; }
    void selectCollective(std::optional<std::size_t> matched);
    // The calls drawn highlighted: (rank index, call index) of the selected collective's peers.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> highlightedCalls() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // As the timeline's, so that a rank's full lanes (TimelineView) line up with the rows.
    static constexpr int kHeaderWidth = 260;
    static constexpr int kRulerHeight = 22;
    static constexpr int kBusyHeight = 12;
    static constexpr int kLaneHeight = 16;
    static constexpr int kGroupGap = 8;
    static constexpr int kGroupHeight = kBusyHeight + 2 * kLaneHeight + 4 + kGroupGap;

signals:
    void collectiveSelected(std::optional<std::size_t> matched);
    void viewChanged(strobe::TimeRange view);
    // A double-click on rank index `rank`'s heading: show or hide its full lanes.
    void rankActivated(std::size_t rank);
    // The groups moved (a rank's room changed): what sits in extraRect moves with them.
    void groupsMoved();
    // The heading menu's Expand All Ranks and Collapse All Ranks.
    void expandAllRequested();
    void collapseAllRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    double xOf(TimeNs t) const;
    TimeNs timeAt(double x) const;
    // At `top`: the top of the part in view, so that the time axis stays while ranks scroll.
    void paintRuler(QPainter& p, int top) const;
    void paintRank(QPainter& p, std::size_t rank) const;
    void paintSelection(QPainter& p) const;
    // (rank index, call index) under `p`, matched or not.
    std::optional<std::pair<std::size_t, std::size_t>> callAt(QPoint p) const;

    std::shared_ptr<const Job> m_job;
    std::shared_ptr<const JobAnalysis> m_analysis;
    // Per rank, per collective call: its matched collective, if any.
    std::vector<std::vector<std::optional<std::size_t>>> m_matchOf;
    std::vector<int> m_extra; // per rank
    std::vector<int> m_tops;  // per rank, its group's y; one more: the bottom
    TimeRange m_view;
    std::optional<std::size_t> m_selected;
    std::optional<QPoint> m_pressAt;
    std::optional<TimeRange> m_pressView;
    bool m_dragged = false;
};

// The canvas under the straggler verdict, with the selected collective's per-rank table below.
class JobView final : public QWidget {
    Q_OBJECT
public:
    explicit JobView(QWidget* parent = nullptr);

    void setJob(std::shared_ptr<const Job> job, std::shared_ptr<const JobAnalysis> analysis,
                bool resetView = true);
    JobCanvas* canvas() const { return m_canvas; }
    // The sentence at the top (jobreports' stragglerVerdict).
    QString verdict() const;
    // Each rank's start, end, wait and transfer of the selected collective, as shown (plain
    // text, a line per rank after a heading); empty with none selected.
    QString collectiveDetails() const { return m_detailsText; }

    // Expanding a rank: its whole trace (loaded by the owner on expandRequested) shown in a
    // TimelineView under its rows, zoomed and panned with the job view (its own clock: the
    // rank's offset applied). setJob collapses every rank.
    static constexpr int kExpandedHeight = 360;
    // `reveal` scrolls the rank's rows and lanes into view (not while Expand All fills them).
    void showRankTrace(std::size_t rank, std::shared_ptr<const Trace> trace, bool reveal = true);
    void collapseRank(std::size_t rank);
    // Collapses every rank: their traces are dropped (memory: the summaries alone).
    void collapseAll();
    TimelineView* rankTimeline(std::size_t rank) const;
    // The ranks whose full lanes are shown (their traces held), by rank index.
    std::vector<std::size_t> expandedRanks() const;

signals:
    // The user asked for rank index `rank`'s full lanes (a double-click on its heading).
    void expandRequested(std::size_t rank);
    // The user asked for every rank's full lanes, or for none (the headings' context menu; the
    // owner loads the traces, or cancels its loads and calls collapseAll).
    void expandAllRequested();
    void collapseAllRequested();

private:
    void showDetails(std::optional<std::size_t> matched);
    void placeTimelines();
    void followCanvas(TimeRange view);
    // The range rank `rank`'s lanes show for the job view's `view`, and back: the same start
    // (both axes begin at kHeaderWidth), the duration scaled by the widths the axes span (the
    // lanes lose their scroll bar's).
    TimeRange laneRange(std::size_t rank, TimeRange view) const;
    TimeRange jobRangeOf(std::size_t rank, TimeRange lanes) const;

    struct Expanded {
        ViewState* state = nullptr;
        TimelineView* view = nullptr;
    };
    std::map<std::size_t, Expanded> m_expanded;
    bool m_following = false;

    QLabel* m_verdict;
    QScrollArea* m_scroll;
    JobCanvas* m_canvas;
    QLabel* m_details;
    QString m_detailsText;
};

} // namespace strobe
