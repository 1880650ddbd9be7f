// SPDX-License-Identifier: MIT
// The views of the main window: the timeline in the centre, the tables and panels in docks.
#include "mainwindow.h"

#include "timeline/timelineview.h"
#include "viewstate.h"

#include <QDockWidget>

namespace strobe {

void MainWindow::buildViews() {
    m_timeline = new TimelineView(m_state, this);
    setCentralWidget(m_timeline);
}

} // namespace strobe
