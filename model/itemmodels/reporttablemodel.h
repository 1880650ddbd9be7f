// SPDX-License-Identifier: MIT
#pragma once

#include "model/reports/reporttable.h"
#include "model/types.h"

#include <QAbstractTableModel>
#include <optional>

namespace strobe {

// Any table of model/reports (the nsys stats reports of statsreports.h: API, OS runtime, memory
// sizes, launches, NVTX on the GPU) as an item model, so one class serves them all. A column's
// unit follows its CLI name, the documented contract: "*start_ns" and "*end_ns" (and nsys's
// "Start (ns)") moments on the trace's clock, read from its start once setTimeOrigin gave it
// (durations before), other "*_ns" (and "Duration (ns)") durations, "*_bytes" sizes,
// "*_percent" shares, "instances" and "*_ops" counts, the rest text. DisplayRole reads for
// people ("1.235 ms", "64.0 KiB"), SortRole is the number (null lowest), ExportRole the CLI's
// value (numbers as numbers). Sort with a QSortFilterProxyModel on SortRole.
class ReportTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Unit : std::uint8_t { Text, Count, Duration, Timestamp, Bytes, Percent };
    // The unit of the CLI column `name`, by the rule above.
    static Unit unitOf(const QString& name);
    // The header people read for the CLI column `name`: "total_ns" -> "Total",
    // "queue_median_ns" -> "Queue median", "time_percent" -> "Time %".
    static QString headerOf(const QString& name);

    explicit ReportTableModel(QObject* parent = nullptr);
    // Shows `table` (materialised rows; a streamed table is not for a GUI table).
    void setTable(ReportTable table);
    // Timestamp columns read as the time from `origin` ("+1.234 s", as the timeline's ruler);
    // without one they read as durations.
    void setTimeOrigin(std::optional<TimeNs> origin);
    const ReportTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReportTable m_table;
    std::vector<Unit> m_units; // per column
    std::optional<TimeNs> m_origin;
};

} // namespace strobe
