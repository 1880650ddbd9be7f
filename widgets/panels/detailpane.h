// SPDX-License-Identifier: MIT
#pragma once

#include "model/reports/eventdetails.h"
#include "widgets/operatoranalysis.h"

#include <QWidget>
#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

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
// never depends on what it shows, so a long name cannot widen its dock. With the trace's
// OperatorAnalysis, a kernel, memcpy or memset also shows the operators that launched it,
// innermost first, each a link that selects its range on the timeline (followLink), and the
// Python stack of its launching call.
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
    // The operators of the trace on screen (null: none yet); the details are gathered again.
    void setOperatorAnalysis(std::shared_ptr<const OperatorAnalysis> analysis);
    // What a click on link `index` of the item `key` of section `section` does: selects the
    // linked operator's range and brings it into view. False when there is no such link.
    bool followLink(const QString& section, const QString& key, int index);

signals:
    // details() describe the current selection (after each computation).
    void ready();

private:
    void showDetailsOf(EventRef ref);
    void showDetails(EventDetails details);
    // Shows the links of `i` (an item of `section`) in place of its text.
    void showLinks(QTreeWidgetItem* item, const QString& section, const DetailItem& i);

    ViewState* m_state;
    std::shared_ptr<const OperatorAnalysis> m_operators;
    EventDetails m_details;
    ElidedLabel* m_title;
    QLabel* m_warnings;
    QTreeWidget* m_tree;
    BackgroundTask* m_task;
};

} // namespace strobe
