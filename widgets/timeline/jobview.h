// SPDX-License-Identifier: MIT
#pragma once

// The job view (issue 42, docs/JOBS.md): every rank of a distributed job on one time axis, drawn
// from the ranks' summaries alone: per rank a group headed "rank 3 (GPU 3)" with its GPU busy
// strip, its steps and its NCCL collectives, zoomed and panned like the timeline. Selecting a
// collective on one rank highlights its peers on every rank (matchCollectives) and draws each
// rank's wait for the last arriver.

#include "model/job/job.h"

#include <QRectF>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QScrollArea;

namespace strobe {

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

    // The group heading of rank index `rank` (Job::ranks order): "rank 3 (GPU 3)".
    QString rankTitle(std::size_t rank) const;
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

    static constexpr int kHeaderWidth = 150;
    static constexpr int kRulerHeight = 22;
    static constexpr int kBusyHeight = 12;
    static constexpr int kLaneHeight = 16;
    static constexpr int kGroupGap = 8;
    static constexpr int kGroupHeight = kBusyHeight + 2 * kLaneHeight + 4 + kGroupGap;

signals:
    void collectiveSelected(std::optional<std::size_t> matched);
    void viewChanged(strobe::TimeRange view);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    double xOf(TimeNs t) const;
    TimeNs timeAt(double x) const;
    TimeNs offsetOf(std::size_t rank) const;
    int plotWidth() const;
    void paintRuler(QPainter& p) const;
    void paintRank(QPainter& p, std::size_t rank) const;
    void paintSelection(QPainter& p) const;
    // (rank index, call index) under `p`, matched or not.
    std::optional<std::pair<std::size_t, std::size_t>> callAt(QPoint p) const;

    std::shared_ptr<const Job> m_job;
    std::shared_ptr<const JobAnalysis> m_analysis;
    // Per rank, per collective call: its matched collective, if any.
    std::vector<std::vector<std::optional<std::size_t>>> m_matchOf;
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

private:
    void showDetails(std::optional<std::size_t> matched);

    QLabel* m_verdict;
    QScrollArea* m_scroll;
    JobCanvas* m_canvas;
    QLabel* m_details;
    QString m_detailsText;
};

} // namespace strobe
