// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <QWidget>
#include <optional>

namespace strobe {

class TimelineView;

// The time axis above the lanes: adaptive ticks and units relative to the trace start, the time
// under the cursor, and a drag that measures a range (ViewState::setSelectedRange); a
// double-click zooms to the measured range.
class TimeRuler final : public QWidget {
    Q_OBJECT
public:
    explicit TimeRuler(TimelineView* view);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    TimeNs timeAt(double x) const;

    TimelineView* m_view;
    std::optional<TimeNs> m_dragStart;
};

} // namespace strobe
