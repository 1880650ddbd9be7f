// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/comparison.h"

#include <QAbstractTableModel>
#include <functional>
#include <memory>

namespace strobe {

// One table of a Comparison (kernels, ranges or GPUs), rows in the comparison's order.
// DisplayRole gives formatted text; SortRole and ExportRole raw numbers (ns, counts, percents;
// ExportRole leaves a missing percent empty); DeltaToneRole marks the cells to colour. With a
// range the last two columns are per-instance means. The comparison is shared, so the model
// never outlives what it shows.
class ComparisonTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setComparison(std::shared_ptr<const Comparison> comparison);
    const Comparison* comparison() const { return m_c.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    // A column: its header, how its raw value reads, the value and its tone.
    enum class Kind : std::uint8_t {
        Text,
        Count,
        Duration,
        Mean,
        Rate, // per second
        Percent,
        SignedDuration,
        SignedPercent
    };
    struct ColumnSpec {
        QString header;
        Kind kind = Kind::Text;
        std::function<QVariant(std::size_t)> value; // raw: QString, qulonglong, qlonglong, double
        std::function<int(std::size_t)> tone;       // empty: not coloured
    };

protected:
    virtual std::size_t rows(const Comparison& c) const = 0;
    virtual std::vector<ColumnSpec> columns(const Comparison& c) const = 0;

private:
    std::shared_ptr<const Comparison> m_c;
    std::vector<ColumnSpec> m_columns;
};

// The kernel and the range tables, one column list (comparisonmodels.cpp's countedColumns): the
// name, Count A, Count B, Total A, Total B, Delta, Delta %, the table's own pair, then with a
// range Per instance A, Per instance B, without one Per second A, Per second B (launches or
// instances per second of wall time). Without a range the totals follow each trace's length:
// the own B column is coloured instead of the deltas.
class CountedDiffModel : public ComparisonTableModel {
public:
    enum Column {
        Name,
        CountA,
        CountB,
        TotalA,
        TotalB,
        Delta,
        DeltaPercent,
        OwnA,
        OwnB,
        PerInstanceA,
        PerInstanceB,
        RateA = PerInstanceA, // without a range
        RateB = PerInstanceB
    };
    using ComparisonTableModel::ComparisonTableModel;
};

// Kernels: the own pair is Median A, Median B (without a range, Median B is coloured by the
// change of the median; a kernel on one side only by its total).
class KernelDiffModel final : public CountedDiffModel {
public:
    enum : int { MedianA = OwnA, MedianB = OwnB };
    using CountedDiffModel::CountedDiffModel;
    // The kernel row at `row` (model order), or nullptr.
    const KernelDiffRow* rowAt(int row) const;

protected:
    std::size_t rows(const Comparison& c) const override { return c.kernels.size(); }
    std::vector<ColumnSpec> columns(const Comparison& c) const override;
};

// Ranges: the own pair is Wall % A, Wall % B (without a range, Wall % B is coloured).
class RangeDiffModel final : public CountedDiffModel {
public:
    enum : int { WallA = OwnA, WallB = OwnB };
    using CountedDiffModel::CountedDiffModel;

protected:
    std::size_t rows(const Comparison& c) const override { return c.ranges.size(); }
    std::vector<ColumnSpec> columns(const Comparison& c) const override;
};

// GPU, Kernels A, Kernels B, Copies A, Copies B, Idle A, Idle B, Gaps A, Gaps B, Utilisation A,
// Utilisation B [, Idle per instance A, Idle per instance B]. The GPU reads "GPU 3 / GPU 1" (A's,
// B's; an em dash for a side without it) when any row pairs GPUs of different ids. Idle B is
// coloured only with a range (without one it follows each trace's length).
class GpuDiffModel final : public ComparisonTableModel {
public:
    enum Column {
        Device,
        KernelA,
        KernelB,
        CopyA,
        CopyB,
        IdleA,
        IdleB,
        GapsA,
        GapsB,
        UtilA,
        UtilB,
        IdlePerInstanceA,
        IdlePerInstanceB
    };
    using ComparisonTableModel::ComparisonTableModel;

protected:
    std::size_t rows(const Comparison& c) const override { return c.gpus.size(); }
    std::vector<ColumnSpec> columns(const Comparison& c) const override;
};

} // namespace strobe
