// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/operators.h"
#include "widgets/operatoranalysis.h"

#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QTreeWidget;

namespace strobe {

class BackgroundTask;
class NameFilterEdit;
class NameFilterProxy;
class OperatorKernelsModel;
class OperatorTableModel;
class ViewState;

// The operator statistics of a framework trace (TensorBoard's Operator view, docs/OPERATORS.md):
// one row per operator name, or per name and input shapes ("Group by"), with its calls and its
// host and device self and total times, sorted by device self time (any column sorts), filtered
// by name. Selecting a row shows below it the kernels its calls launched, by kernel name, and
// the Python stack of its longest call when the trace recorded one. Double-clicking an operator
// zooms the timeline to its longest call and selects it; double-clicking a kernel selects its
// longest launch. The table comes with the trace's OperatorAnalysis (setAnalysis, from the main
// window); regrouping and a row's kernels are computed on workers. A trace without operators
// shows one line saying so instead of the tables.
class OperatorsPanel : public QWidget {
    Q_OBJECT
public:
    explicit OperatorsPanel(ViewState* state, QWidget* parent = nullptr);
    ~OperatorsPanel() override;

    // The analysis of the trace on screen (null: none yet); one of another trace is ignored
    // until that trace is shown.
    void setAnalysis(std::shared_ptr<const OperatorAnalysis> analysis);
    const OperatorAnalysis* analysis() const { return m_analysis.get(); }

    void setGrouping(OperatorGrouping grouping);
    OperatorGrouping grouping() const { return m_grouping; }
    // Sets the name filter as the user would (`regex`: a regular expression).
    void setNameFilter(const QString& text, bool regex = false);

    OperatorTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; } // through a NameFilterProxy
    OperatorKernelsModel* kernelsModel() const { return m_kernels; }
    QTableView* kernelsView() const { return m_kernelsView; } // sorted through a proxy
    QTreeWidget* pythonStack() const { return m_python; }
    QComboBox* groupingCombo() const { return m_groupCombo; }
    // The one line shown instead of the tables ("No framework operators…"), or "" when the
    // tables are shown.
    QString message() const;
    // "Kernels launched by aten::conv2d (160 calls)" above the kernel table.
    QString kernelsTitle() const;

    // The operator shown at view row `row`, or null.
    const OperatorRow* operatorAtRow(int row) const;
    // Selects view row `row` (its kernels and Python stack follow), as a click does.
    void selectOperatorRow(int row);
    // Zooms to the longest call of the operator at view row `row` and selects it.
    void activateOperatorRow(int row);
    // Selects the longest launch of the kernel at view row `row` of the kernel table.
    void activateKernelRow(int row);
    // True while the table or the selected operator's kernels are being computed, or the
    // analysis of the trace on screen has not arrived.
    bool isComputing() const;

signals:
    // The tables reflect the trace, grouping and selection (after each computation).
    void ready();

private:
    struct Selected; // what the selected operator launched, computed on a worker
    void onTraceChanged();
    void showTable(OperatorTable table);
    void updateMessage();
    void updateCount();
    void showSelected();
    void showKernels(const std::shared_ptr<const Selected>& selected);
    void finishedStep();

    ViewState* m_state;
    std::shared_ptr<const OperatorAnalysis> m_analysis;
    OperatorGrouping m_grouping = OperatorGrouping::Name;
    OperatorTableModel* m_model;
    NameFilterProxy* m_proxy;
    QTableView* m_view;
    OperatorKernelsModel* m_kernels;
    QSortFilterProxyModel* m_kernelsProxy;
    QTableView* m_kernelsView;
    QTreeWidget* m_python;
    NameFilterEdit* m_filter;
    QComboBox* m_groupCombo;
    QLabel* m_count;
    QLabel* m_message;
    QLabel* m_kernelsTitle;
    QSplitter* m_splitter;
    QSplitter* m_lower;
    BackgroundTask* m_tableTask;
    BackgroundTask* m_selectedTask;
    std::optional<std::uint32_t> m_selectedLongest; // the selected row's longest call (a node)
};

} // namespace strobe
