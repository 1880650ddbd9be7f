// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QWidget>
#include <vector>

class QCheckBox;
class QLabel;
class QSpinBox;
class QSplitter;

namespace strobe {

class TimelineLink;
class TimelineView;
class ViewState;

// Two timelines stacked with one linked time axis: the baseline A (the main window's timeline,
// on its ViewState) above B (its own TimelineView on its own ViewState). Zoom and pan on
// either move both (TimelineLink); B is offset so that a chosen iteration instance starts at the
// same x as in A, or, with "Own starts" checked, so that both start at their first event. Until
// a B trace is set, only A shows and nothing else changes.
class CompareTimelines : public QWidget {
    Q_OBJECT
public:
    CompareTimelines(TimelineView* a, ViewState* stateB, QWidget* parent = nullptr);
    ~CompareTimelines() override;

    TimelineView* timelineA() const { return m_a; }
    TimelineView* timelineB() const { return m_b; }
    TimelineLink* link() const { return m_link; }
    // Shows or hides B's half (and the alignment bar) with the titles of both traces.
    void setComparing(bool on, const QString& titleA = {}, const QString& titleB = {});
    bool isComparing() const;

    // The iteration instances alignment can choose from (starts in each trace's time); empty
    // vectors or an empty name leave only "Own starts".
    void setIterations(const QString& name, std::vector<TimeNs> startsA,
                       std::vector<TimeNs> startsB);
    // Aligns instance `k` (0-based) of both sides; false when either side has no such instance.
    bool alignOnInstance(int k);
    void alignOwnStarts();
    bool alignsOwnStarts() const;
    // Selects `a` in A and `b` in B, brings A's into view and offsets B so both start at the
    // same x (double-click on a kernel of the comparison).
    void showPair(EventRef a, EventRef b);

private:
    void updateAlignControls();

    TimelineView* m_a;
    ViewState* m_stateB;
    TimelineView* m_b;
    TimelineLink* m_link;
    QSplitter* m_split;
    QWidget* m_bar;
    QLabel* m_titleA;
    QLabel* m_titleB;
    QLabel* m_rangeLabel;
    QSpinBox* m_instance;
    QCheckBox* m_ownStarts;
    QString m_rangeName;
    std::vector<TimeNs> m_startsA, m_startsB;
};

} // namespace strobe
