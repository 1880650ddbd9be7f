// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/kernelstats.h"
#include "model/analysis/namefilter.h"
#include "model/analysis/rangegrouping.h"
#include "model/reports/reporttable.h"

#include <QWidget>
#include <array>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;

namespace strobe {

class BackgroundTask;
class KernelSummaryModel;
class MemorySummaryModel;
class NameFilterEdit;
class NameFilterProxy;
class NvtxSummaryModel;
class ReportTableModel;
class ViewState;

// Kernel, NVTX and memory-operation statistics, one tab each, and the tables of nsys's stats
// reports (CUDA API, OS runtime, memory sizes, kernel launches, NVTX on the GPU: statsreports.h,
// docs/KERNELS.md), one tab each; every table sorts by any column
// and exports to CSV (file or clipboard). Double-clicking a kernel row asks for the kernel
// table to show only that kernel (kernelFilterRequested) and reveals its first instance; the
// Previous/Next buttons then step through its instances on the timeline. The three summaries
// are computed on workers (BackgroundTask); until they arrive their tables are empty and the
// tab bar says "Computing…". Every tab filters its rows by name (plain text or regular
// expression, as the kernel table does) and counts the rows shown. The NVTX tab groups
// PyTorch's per-call ids by default ("Group per-call ids"; unchecked: the recorded names), and so
// does the NVTX-on-GPU tab.
class StatisticsWidget : public QWidget {
    Q_OBJECT
public:
    enum Tab {
        KernelsTab,
        NvtxTab,
        MemoryTab,
        ApiTab,        // nsys's cuda_api_sum
        OsrtTab,       // osrt_sum
        MemorySizeTab, // cuda_gpu_mem_size_sum
        LaunchTab,     // cuda_kern_exec_sum
        NvtxGpuTab,    // nvtx_gpu_proj_sum
        TabCount
    };
    static constexpr int kFirstReportTab = ApiTab;
    static constexpr int kReportTabs = TabCount - ApiTab;
    // One tab's table and the controls above it.
    struct Table {
        QTableView* view = nullptr;
        NameFilterProxy* proxy = nullptr; // the view's model
        NameFilterEdit* filter = nullptr;
        QLabel* count = nullptr; // "12 of 176 rows"
    };

    explicit StatisticsWidget(ViewState* state, QWidget* parent = nullptr);

    void setGrouping(KernelGrouping grouping);
    KernelSummaryModel* kernelModel() const { return m_kernels; }
    NvtxSummaryModel* nvtxModel() const { return m_nvtx; }
    MemorySummaryModel* memoryModel() const { return m_memory; }
    // The model of a report tab (ApiTab..NvtxGpuTab); nullptr for the others.
    ReportTableModel* reportModel(Tab tab) const;
    QTableView* kernelView() const { return m_kernelView; }
    QTabWidget* tabs() const { return m_tabs; }
    const Table& table(Tab tab) const { return m_tables[tab]; }
    QCheckBox* groupPerCallIdsBox() const { return m_groupPerCallIds; }

    // Grouped (default) or raw NVTX range names; recomputes the NVTX summary on a worker.
    void setNvtxNaming(RangeNaming naming);
    RangeNaming nvtxNaming() const;
    // Sets the tab's name filter as the user would (`regex`: a regular expression).
    void setNameFilter(Tab tab, const QString& text, bool regex = false);
    // Every tab's filter, to bring them back after a failed load (setNameFilters).
    using NameFilters = std::array<NameFilter, TabCount>;
    NameFilters nameFilters() const;
    void setNameFilters(const NameFilters& filters);
    // Empties every tab's filter text (each keeps its Regex choice): a new trace is opened.
    void clearNameFilters();

    // Activates the kernel summary row shown at `viewRow` (as a double-click does).
    void activateKernelRow(int viewRow);
    // Reveals the next (+1) or previous (-1) instance of the activated kernel row.
    void stepInstance(int delta);
    int currentInstance() const { return m_instance; }
    // True while a summary for the current trace or grouping is still being computed.
    bool isComputing() const;

signals:
    // Every summary reflects the current trace and grouping (after each computation).
    void ready();
    // Connect to KernelTableWidget::showOnlyConfigs.
    void kernelFilterRequested(const QString& label, const std::vector<std::uint32_t>& configs);

private:
    void rebuild();
    void updateStepLabel();
    void computeKernelSummary();
    void computeNvtxSummary();
    void computeReports();
    void taskDone();

    ViewState* m_state;
    QTabWidget* m_tabs;
    KernelSummaryModel* m_kernels;
    NvtxSummaryModel* m_nvtx;
    MemorySummaryModel* m_memory;
    std::array<ReportTableModel*, kReportTabs> m_reports{};
    std::array<Table, TabCount> m_tables;
    NameFilterProxy* m_kernelProxy;
    QTableView* m_kernelView;
    QComboBox* m_grouping;
    QCheckBox* m_groupPerCallIds;
    QLabel* m_stepLabel;
    QLabel* m_nvtxNote;
    QLabel* m_status;
    BackgroundTask* m_kernelTask;
    BackgroundTask* m_nvtxTask;
    BackgroundTask* m_memoryTask;
    BackgroundTask* m_reportsTask;
    std::vector<std::uint32_t> m_stepKernels; // instances of the activated row, in start order
    int m_instance = -1;
};

} // namespace strobe
