// SPDX-License-Identifier: MIT
#pragma once

#include "model/reports/reporttable.h"

#include <QList>

class QAbstractItemModel;
class QAbstractItemView;
class QWidget;

namespace strobe {

// The rows of a table model as a ReportTable: header texts as columns, ExportRole values
// (falling back to DisplayRole) as cells. `rows` empty means every row, in model order.
ReportTable modelToReport(const QAbstractItemModel& model, const QList<int>& rows = {});
// RFC 4180 CSV of those rows (header included).
QString modelToCsv(const QAbstractItemModel& model, const QList<int>& rows = {});

// The selected rows of `view` (in view order) as CSV on the clipboard; all rows when none are
// selected. Returns the number of rows copied.
int copyViewRowsToClipboard(const QAbstractItemView& view);
// Rows `rows` of `model` (all when empty) as CSV on the clipboard; returns how many.
int copyRowsToClipboard(const QAbstractItemModel& model, const QList<int>& rows);
// Asks for a file name and writes the whole model as CSV; false when cancelled or on error
// (a message box says why).
bool saveModelAsCsv(QWidget* parent, const QAbstractItemModel& model, const QString& suggestedName);

} // namespace strobe
