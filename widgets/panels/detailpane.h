// SPDX-License-Identifier: MIT
#pragma once

#include "model/reports/eventdetails.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace strobe {

class BackgroundTask;
class ElidedLabel;
class ViewState;

// Details of the selected event (ViewState::selection): launch parameters, occupancy and the
// launching API call for kernels; bytes, direction and bandwidth for memcpys and memsets;
// basic facts for API calls, NVTX ranges and OS runtime calls. Everything can be copied as
// text (Copy button, context menu, Ctrl+C). The details are gathered on a worker (describing
// an NVTX range projects it onto the GPU, which can visit millions of operations). Long values
// (kernel names) are elided, in full in their tooltips and in the copied text: the pane's size
// never depends on what it shows, so a long name cannot widen its dock.
class DetailPane : public QWidget {
    Q_OBJECT
public:
    explicit DetailPane(ViewState* state, QWidget* parent = nullptr);

    const EventDetails& details() const { return m_details; }
    QString text() const { return m_details.toText(); }
    // Puts text() on the clipboard.
    void copyToClipboard() const;
    // True while the details of the current selection are being gathered.
    bool isComputing() const;

signals:
    // details() describe the current selection (after each computation).
    void ready();

private:
    void showDetailsOf(EventRef ref);
    void showDetails(EventDetails details);

    ViewState* m_state;
    EventDetails m_details;
    ElidedLabel* m_title;
    QLabel* m_warnings;
    QTreeWidget* m_tree;
    BackgroundTask* m_task;
};

} // namespace strobe
