// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/kernelquery.h"
#include "model/analysis/namefilter.h"
#include "model/trace.h"

#include <QAbstractTableModel>
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace strobe {

// One row per kernel launch of a trace, filtered and sorted without QVariant comparisons by
// model/analysis/kernelquery.h: every column's order is a permutation of the kernels computed
// once (on first use) and kept here, so re-sorting or re-filtering a million rows is one linear
// pass. By default every change
// computes the rows inline; with setDeferredRows(true) a change only emits rowsRequested() and
// the owner computes rowQuery() elsewhere (computeKernelRows) and hands it back (applyRows).
class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Operator, // the innermost operator that launched the kernel; "" when none
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
    // The query's sort key of a column (they come in the same order).
    static constexpr KernelSortKey sortKeyOf(int column) { return KernelSortKey(column); }

    explicit KernelTableModel(QObject* parent = nullptr);
    ~KernelTableModel() override;

    // Gathers the trace's kernel times here (O(kernels)) and shows all its kernels.
    void setTrace(std::shared_ptr<const Trace> trace);
    // The same with data gathered elsewhere (gatherKernelTableData): O(configurations). A new
    // trace clears the config filter and, with deferred rows, empties the table until its rows
    // arrive.
    void setData(std::shared_ptr<const KernelTableData> data);
    // (QAbstractItemModel's setData(index, value, role) stays visible beside this one.)
    using QAbstractTableModel::setData;
    const Trace* trace() const { return m_data ? m_data->trace.get() : nullptr; }

    void setDeferredRows(bool deferred) { m_deferRows = deferred; }
    // The current state as a query for computeKernelRows.
    KernelRowQuery rowQuery() const;
    // Shows `rows` if they answer the latest request (rowQuery()); false (ignored) otherwise.
    bool applyRows(KernelRows rows);
    // True while the rows shown do not answer the latest request yet (deferred rows only), or
    // some of them are still to be revealed (setRevealStep).
    bool rowsPending() const { return m_appliedRequest != m_request || m_shown < m_rows.size(); }
    // With a step > 0, applyRows shows the first `step` rows at once and each further `step`
    // rows in a pass of the event loop of their own (rowsInserted), then emits rowsApplied().
    // 0 (the default): every row at once, which for a QTableView is the cheaper (a reset to
    // three million rows ~16 ms, an insert of one million into as many ~50 ms: Qt 6.4).
    void setRevealStep(int step) { m_revealStep = std::max(0, step); }

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
    // The operators that launched the trace's kernels (the Operator column), built from the
    // model's trace; null: none known. A new trace (setData) drops them.
    void setOperators(std::shared_ptr<const OperatorForest> operators);
    // True when the Operator column has something to show (a forest with operators).
    bool hasOperators() const;

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

signals:
    // Deferred rows only: the rows no longer match the state; compute rowQuery() and applyRows.
    void rowsRequested();
    // After applyRows showed all of its rows (at once, or the last reveal step).
    void rowsApplied();

private:
    void computeNameMatches();
    // Shows the next reveal step of the rows of reveal `generation`, unless reset since.
    void revealNext(std::uint64_t generation);
    void requestRows();
    QString displayName(const KernelConfig& c) const;
    QString operatorName(std::uint32_t kernel) const;
    static std::size_t permutationSlot(int column, bool demangled);

    std::shared_ptr<const KernelTableData> m_data;
    std::shared_ptr<const OperatorForest> m_operators;
    // Per column (plus one for demangled names), the kernels in ascending order; built on first
    // use and kept for the trace.
    std::array<KernelPermutation, ColumnCount + 1> m_perm;
    std::vector<std::uint8_t> m_configPass; // per config: passes name and config filters
    NameFilter m_nameFilter;
    std::vector<std::uint32_t> m_configFilter;
    std::optional<TimeRange> m_range;
    bool m_demangled = false;
    int m_sortColumn = Start;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::vector<std::uint32_t> m_rows; // visible kernels in display order
    std::vector<std::int32_t> m_rowOf; // per kernel: row, or -1
    std::size_t m_shown = 0;           // the first rows of m_rows the model exposes
    int m_revealStep = 0;
    std::uint64_t m_revealGeneration = 0; // a reset drops the steps still to come
    bool m_deferRows = false;
    std::uint64_t m_request = 0, m_appliedRequest = 0;
};

} // namespace strobe
