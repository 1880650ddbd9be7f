// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"
#include "widgets/operatoranalysis.h"
#include "widgets/panels/windowedtableview.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace strobe {

class BackgroundTask;
class KernelTableModel;
class NameFilter;
class NameFilterEdit;
class ViewState;

// The kernel table: one row per launch, sortable by any column, filtered by name (substring or
// regular expression) and by the visible or selected time range. Double-clicking a row reveals
// the kernel (ViewState::reveal: the timeline jumps to it, the detail pane shows it, the timeline
// takes the focus); selecting a kernel anywhere selects its row. Sorting follows makeSortable
// (the first click on a quantity sorts largest first, a sort shows the top rows); columns fit
// their contents and the Name column takes the rest of the width. Gathering the trace's kernels,
// sorting and filtering run on a worker (BackgroundTask); the table says "Computing…" until the
// rows arrive (ready()). With the trace's OperatorAnalysis, the Operator column names the
// innermost operator that launched each kernel; it is hidden for traces without operators.
class KernelTableWidget : public QWidget {
    Q_OBJECT
public:
    // Rows the table shows per pass of the event loop after a new trace or sort (the first
    // step with the reset; 0: all at once). All at once: on a quiet machine a reset to three
    // million rows costs the GUI thread 15 to 18 ms, while each further step of a million rows
    // inserted cost 48 to 53 ms (Qt 6.4's header re-lays out every section it has on an insert),
    // so steps made the longest stalls of a load longer, not shorter.
    static constexpr int kRevealStep = 0;
    enum class RangeRestriction { All, VisibleRange, SelectedRange };

    explicit KernelTableWidget(ViewState* state, QWidget* parent = nullptr);
    ~KernelTableWidget() override;

    KernelTableModel* model() const { return m_model; }
    // Shows a window of the model's rows: its indexes are window indexes (sourceRow()).
    WindowedTableView* view() const { return m_view; }

    void setNameFilter(const QString& text, bool regex = false);
    NameFilterEdit* nameFilterEdit() const { return m_filter; }
    QString nameFilter() const;
    bool nameFilterIsRegex() const;
    // Shows every kernel again: no name filter, no launch-configuration filter (the main window
    // calls it when it opens another trace, whose kernels an old filter would hide unnoticed).
    void clearFilters();
    void setRangeRestriction(RangeRestriction r);
    void setShowDemangled(bool demangled);
    // Shows only kernels of these launch configurations (a statistics row), named by `label`
    // in the filter bar; an empty list shows all again.
    void showOnlyConfigs(const QString& label, const std::vector<std::uint32_t>& configs);
    // The operators of the trace on screen (null: none yet): the Operator column.
    void setOperatorAnalysis(std::shared_ptr<const OperatorAnalysis> analysis);
    // Reveals the kernel at `row` of the table, as a double-click does.
    void activateRow(int row);
    // Copies the selected rows (all rows when none is selected) to the clipboard as CSV, as
    // Ctrl+C does; returns how many.
    int copySelectedRows();
    // True while the rows shown do not reflect the trace, sort order and filters yet.
    bool isComputing() const;

signals:
    // The rows reflect the current trace, order and filters (after each computation).
    void ready();

private:
    void rebuild();
    void applyRange();
    // Selects the row of `ref`; `scroll` brings it into view.
    void followSelection(EventRef ref, bool scroll);
    void updateCount();
    void computeRows();
    void applyNameFilter(const NameFilter& filter);
    // Hands the model the operators when they describe its trace; shows the column if any.
    void applyOperators();

    ViewState* m_state;
    std::shared_ptr<const OperatorAnalysis> m_operators;
    KernelTableModel* m_model;
    WindowedTableView* m_view;
    NameFilterEdit* m_filter;
    QCheckBox* m_demangled;
    QComboBox* m_range;
    QLabel* m_configLabel;
    QLabel* m_count;
    BackgroundTask* m_dataTask;     // gathers the trace's kernel times
    BackgroundTask* m_rowsTask;     // sorts and filters
    bool m_topAfterSort = false;    // a sort's rows are on their way: show the top when they arrive
    bool m_fitColumns = true;       // size the columns to the first rows of the trace
    bool m_awaitingReveal = false;  // rows applied, their last reveal step or fit still to come
    bool m_waitingForTrace = false; // a preview without all kernels or their launch details
    bool m_fitPending = false;      // fitting the columns is queued for the next pass
    quint64 m_fitGeneration = 0;
};

} // namespace strobe
