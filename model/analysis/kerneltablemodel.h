// SPDX-License-Identifier: MIT
#pragma once

#include "trace.h"

#include <QAbstractTableModel>
#include <QRegularExpression>
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace strobe {

// One row per kernel launch of a trace, filtered and sorted without QVariant comparisons:
// every column's order is a permutation of the kernels computed once (on first use) and reused,
// so re-sorting or re-filtering a million rows is one linear pass.
class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Duration,
        Start,
        End,
        Device,
        Stream,
        Grid,
        Block,
        Registers,
        SharedMemory,
        CorrelationId,
        ColumnCount
    };

    explicit KernelTableModel(QObject* parent = nullptr);
    ~KernelTableModel() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return m_trace.get(); }

    // Keeps rows whose displayed name contains `text` (case-insensitive) or matches it as a
    // regular expression; returns false (and filters nothing) for an invalid expression.
    bool setNameFilter(const QString& text, bool regex);
    // Keeps kernels overlapping `range`; nullopt keeps all.
    void setTimeRange(std::optional<TimeRange> range);
    // Keeps kernels of these launch configurations (indices into Trace::kernelConfigs());
    // an empty list keeps all.
    void setConfigFilter(const std::vector<std::uint32_t>& configs);
    // Shows demangled names in the Name column (the tooltip then shows the short name).
    void setShowDemangled(bool demangled);
    bool showDemangled() const { return m_demangled; }

    int totalKernels() const;
    std::optional<std::uint32_t> kernelAtRow(int row) const;
    // Row of kernel `k` under the current filter and order; nullopt when filtered out.
    std::optional<int> rowOfKernel(std::uint32_t k) const;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    const std::vector<std::uint32_t>& permutation(int column) const;
    void computeNameMatches();
    void rebuildRows();
    QString displayName(const KernelConfig& c) const;

    std::shared_ptr<const Trace> m_trace;
    std::vector<TimeNs> m_start, m_end; // per kernel, cached for sorting and range filtering
    // Per column (plus one for demangled names), the kernels in ascending order; built lazily.
    mutable std::array<std::vector<std::uint32_t>, ColumnCount + 1> m_perm;
    std::vector<std::uint8_t> m_configPass; // per config: passes name and config filters
    QString m_filterText;
    QRegularExpression m_filterRegex;
    bool m_filterIsRegex = false;
    std::vector<std::uint32_t> m_configFilter;
    std::optional<TimeRange> m_range;
    bool m_demangled = false;
    int m_sortColumn = Start;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::vector<std::uint32_t> m_rows; // visible kernels in display order
    std::vector<std::int32_t> m_rowOf; // per kernel: row, or -1
};

} // namespace strobe
