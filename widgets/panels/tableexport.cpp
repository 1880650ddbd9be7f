// SPDX-License-Identifier: MIT
#include "widgets/panels/tableexport.h"

#include "model/itemmodels/tableroles.h"
#include "widgets/messagebox.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QSaveFile>
#include <algorithm>

namespace strobe {

ReportTable modelToReport(const QAbstractItemModel& model, const QList<int>& rows) {
    ReportTable table;
    for (int c = 0; c < model.columnCount(); ++c)
        table.columns << model.headerData(c, Qt::Horizontal).toString();
    QList<int> order = rows;
    if (order.isEmpty()) {
        for (int r = 0; r < model.rowCount(); ++r)
            order << r;
    }
    for (int r : order) {
        std::vector<ReportCell> cells;
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex i = model.index(r, c);
            QVariant v = model.data(i, ExportRole);
            if (!v.isValid())
                v = model.data(i, Qt::DisplayRole);
            if (!v.isValid())
                cells.push_back(ReportCell::null());
            else if (v.typeId() == QMetaType::QString)
                cells.push_back(ReportCell::string(v.toString()));
            else
                cells.push_back({ReportCell::Kind::Number, v.toString()});
        }
        table.rows.push_back(std::move(cells));
    }
    return table;
}

QString modelToCsv(const QAbstractItemModel& model, const QList<int>& rows) {
    return toCsv(modelToReport(model, rows));
}

int copyViewRowsToClipboard(const QAbstractItemView& view) {
    const QAbstractItemModel* model = view.model();
    if (!model)
        return 0;
    QList<int> rows;
    if (const QItemSelectionModel* sel = view.selectionModel()) {
        for (const QModelIndex& i : sel->selectedRows())
            rows << i.row();
    }
    std::sort(rows.begin(), rows.end());
    return copyRowsToClipboard(*model, rows);
}

int copyRowsToClipboard(const QAbstractItemModel& model, const QList<int>& rows) {
    QApplication::clipboard()->setText(modelToCsv(model, rows));
    return rows.isEmpty() ? model.rowCount() : int(rows.size());
}

namespace {
void cannotWrite(QWidget* parent, const QString& path, const QString& why) {
    plainMessageBox(QMessageBox::Warning, QObject::tr("Export as CSV"),
                    QObject::tr("Cannot write %1: %2").arg(path, why), QMessageBox::Ok, parent)
        ->open();
}
} // namespace

bool saveModelAsCsv(QWidget* parent, const QAbstractItemModel& model,
                    const QString& suggestedName) {
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export as CSV"), suggestedName, QObject::tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        cannotWrite(parent, path, file.errorString());
        return false;
    }
    file.write(modelToCsv(model).toUtf8());
    if (!file.commit()) {
        cannotWrite(parent, path, file.errorString());
        return false;
    }
    return true;
}

} // namespace strobe
