// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/comparison.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace strobe {

class BackgroundTask;
class GpuDiffModel;
class KernelDiffModel;
class RangeDiffModel;
class ViewState;

// The Comparison panel: B (its own ViewState) against the baseline A (the main ViewState) in
// three sortable tables (kernels, NVTX ranges, GPUs: model/analysis/comparison.h), deltas
// coloured green where B is faster and red where it is slower (tones from the models' delta
// role, shades from the palette), one name filter for all three, CSV export of the table shown.
// "Per instance of" picks the iteration range: auto-detected (the default, and again whenever
// either trace changes), whole traces, or a typed name. compareTraces runs on a worker
// (BackgroundTask) whenever a trace, the threshold or an option changes. Double-clicking a kernel
// asks for its longest instance on each side.
class ComparisonPanel : public QWidget {
    Q_OBJECT
public:
    ComparisonPanel(ViewState* a, ViewState* b, QWidget* parent = nullptr);
    ~ComparisonPanel() override;

    // The comparison shown (null until the first result, and while either side has no trace).
    std::shared_ptr<const Comparison> comparison() const { return m_comparison; }
    KernelDiffModel* kernelModel() const { return m_kernels; }
    RangeDiffModel* rangeModel() const { return m_ranges; }
    GpuDiffModel* gpuModel() const { return m_gpus; }
    QTableView* kernelView() const { return m_kernelView; }
    QTableView* rangeView() const { return m_rangeView; }
    QTableView* gpuView() const { return m_gpuView; }
    QTabWidget* tabs() const { return m_tabs; }
    QString summaryText() const;
    bool isComputing() const;

    // "Per instance of": empty for whole traces; kAutoRange to detect (the default).
    void setRange(const QString& nameOrAuto);
    void setGrouping(KernelGrouping grouping);
    void setFilter(const QString& text);
    // As a double-click on view row `row` of the kernel table does.
    void activateKernelRow(int row);

    static const QString kAutoRange;   // "(auto-detect)"
    static const QString kWholeTraces; // "(whole traces)"

signals:
    // After each comparison arrives.
    void ready();
    // The longest instance of a kernel in A and in B (invalid where that side has none).
    void kernelInstancesRequested(strobe::EventRef a, strobe::EventRef b);

private:
    void rebuild();
    void show(std::shared_ptr<const Comparison> c);
    QTableView* addTable(QSortFilterProxyModel* proxy, const QString& title);
    ComparisonOptions options() const;

    ViewState* m_a;
    ViewState* m_b;
    std::shared_ptr<const Comparison> m_comparison;
    KernelDiffModel* m_kernels;
    RangeDiffModel* m_ranges;
    GpuDiffModel* m_gpus;
    QSortFilterProxyModel* m_kernelProxy;
    QSortFilterProxyModel* m_rangeProxy;
    QSortFilterProxyModel* m_gpuProxy;
    QTabWidget* m_tabs;
    QTableView* m_kernelView = nullptr;
    QTableView* m_rangeView = nullptr;
    QTableView* m_gpuView = nullptr;
    QLabel* m_summary;
    QComboBox* m_range;
    QComboBox* m_grouping;
    QLineEdit* m_filter;
    BackgroundTask* m_task;
};

} // namespace strobe
