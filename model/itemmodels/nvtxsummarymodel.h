// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/nvtxstats.h"

#include <QAbstractTableModel>
#include <memory>

namespace strobe {

// What the table shows: summarizeNvtx with the GPU columns (addGpuProjection); safe on any thread.
NvtxSummary summarizeNvtxWithGpu(const Trace& trace, RangeNaming naming = RangeNaming::Grouped);

// The NVTX range summary as a table (sort with a QSortFilterProxyModel on SortRole). A grouped
// row's Range cell has a tooltip saying how many recorded names it merges.
class NvtxSummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Range,
        Style,
        Instances,
        Total,
        Average,
        Median,
        Minimum,
        Maximum,
        StdDev,
        WallPercent,
        GpuOps,     // GPU operations launched inside the instances
        GpuTime,    // their summed duration
        AvgGpuSpan, // mean first-start-to-last-end on the GPU, over instances with GPU work
        ColumnCount
    };

    explicit NvtxSummaryModel(QObject* parent = nullptr);
    // Summarises here: O(ranges log ranges) plus the GPU projection.
    void setTrace(std::shared_ptr<const Trace> trace, RangeNaming naming = RangeNaming::Grouped);
    // Shows `summary` = summarizeNvtxWithGpu(*trace) computed elsewhere.
    void setPrecomputed(std::shared_ptr<const Trace> trace, NvtxSummary summary);
    const NvtxSummary& summary() const { return m_summary; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Trace> m_trace;
    NvtxSummary m_summary;
};

} // namespace strobe
