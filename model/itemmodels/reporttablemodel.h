// SPDX-License-Identifier: MIT
#pragma once

#include "model/reports/reporttable.h"

#include <QAbstractTableModel>

namespace strobe {

// Any table of model/reports (the nsys stats reports of statsreports.h: API, OS runtime, memory
// sizes, launches, NVTX on the GPU) as an item model, so one class serves them all. A column's
// unit follows its CLI name, the documented contract: "*_ns" durations, "*_bytes" sizes,
// "*_percent" shares, "instances" and "*_ops" counts, the rest text. DisplayRole reads for
// people ("1.235 ms", "64.0 KiB"), SortRole is the number (null lowest), ExportRole the CLI's
// value (numbers as numbers). Sort with a QSortFilterProxyModel on SortRole.
class ReportTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Unit : std::uint8_t { Text, Count, Duration, Bytes, Percent };
    // The unit of the CLI column `name`, by the rule above.
    static Unit unitOf(const QString& name);
    // The header people read for the CLI column `name`: "total_ns" -> "Total",
    // "queue_median_ns" -> "Queue median", "time_percent" -> "Time %".
    static QString headerOf(const QString& name);

    explicit ReportTableModel(QObject* parent = nullptr);
    // Shows `table` (materialised rows; a streamed table is not for a GUI table).
    void setTable(ReportTable table);
    const ReportTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReportTable m_table;
    std::vector<Unit> m_units; // per column
};

} // namespace strobe
