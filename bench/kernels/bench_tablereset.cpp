// SPDX-License-Identifier: MIT
// What a model reset costs the GUI thread in a table view of many rows, Qt's own QTableView
// against the WindowedTableView the kernel table uses:
//   bench_tablereset [ROWS]   (default 30,000,000: the kernels of a 100M-event trace)
// Prints, for each view, the time of a reset from 0 rows to ROWS, of one from ROWS to ROWS (a
// re-sort or a new filter), the first paint after it, and the header sections the view holds.
#include "widgets/panels/windowedtableview.h"

#include <QAbstractTableModel>
#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QTableView>
#include <cstdio>
#include <cstdlib>

using namespace strobe;

namespace {

// Eleven columns of numbers, like the kernel table's; a reset changes the row count only.
class ManyRows : public QAbstractTableModel {
public:
    void resetTo(int rows) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : m_rows;
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : 11;
    }
    QVariant data(const QModelIndex& index, int role) const override {
        return role == Qt::DisplayRole ? QVariant(qlonglong(index.row()) * 11 + index.column())
                                       : QVariant();
    }

private:
    int m_rows = 0;
};

double msSince(const QElapsedTimer& t) {
    return double(t.nsecsElapsed()) / 1e6;
}

void measure(const char* name, QTableView& view, ManyRows& model, int rows) {
    view.verticalHeader()->hide();
    view.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view.verticalHeader()->setDefaultSectionSize(20);
    view.resize(1200, 800);
    view.show();
    QApplication::processEvents();
    QElapsedTimer t;
    t.start();
    model.resetTo(rows);
    QApplication::processEvents(); // the delayed layout and the first paint
    const double first = msSince(t);
    t.restart();
    model.resetTo(rows);
    QApplication::processEvents();
    const double again = msSince(t);
    t.restart();
    view.viewport()->repaint();
    const double paint = msSince(t);
    std::printf("%-18s reset 0 -> %d: %8.1f ms, %d -> %d: %8.1f ms, paint %5.1f ms, header "
                "sections %d\n",
                name, rows, first, rows, rows, again, paint, view.verticalHeader()->count());
    model.resetTo(0);
    QApplication::processEvents();
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int rows = argc > 1 ? std::atoi(argv[1]) : 30'000'000;
    {
        ManyRows model;
        WindowedTableView view;
        view.setSourceModel(&model);
        measure("WindowedTableView", view, model, rows);
    }
    {
        ManyRows model;
        QTableView view;
        view.setModel(&model);
        measure("QTableView", view, model, rows);
    }
    return 0;
}
