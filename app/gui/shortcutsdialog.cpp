// SPDX-License-Identifier: MIT
#include "app/gui/shortcutsdialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strobe {

QList<QPair<QString, QString>> ShortcutsDialog::controls() {
    return {
        {tr("Mouse wheel, Ctrl+wheel"), tr("Zoom in and out around the cursor")},
        {tr("W / S, Up / Down"), tr("Zoom in / out around the centre")},
        {tr("A / D, Left / Right"), tr("Pan left / right")},
        {tr("Drag on the timeline"), tr("Pan")},
        {tr("Shift+wheel, horizontal scroll"), tr("Pan")},
        {tr("Drag on the time ruler"), tr("Measure a range; release to select it")},
        {tr("Double-click a measured range"), tr("Zoom to it")},
        {tr("Home or F"), tr("Fit the whole trace")},
        {tr("Backspace"), tr("Undo the last zoom")},
        {tr("Click an event"), tr("Select it and its launching call or launched work")},
        {tr("Double-click a table row"), tr("Show that event in the timeline and the detail pane")},
        {tr("Ctrl+O"), tr("Open a trace")},
        {tr("Ctrl+I"), tr("Trace information")},
        {tr("F1"), tr("This help")},
        {tr("Ctrl+Q"), tr("Quit")},
    };
}

ShortcutsDialog::ShortcutsDialog(QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Keyboard and Mouse"));
    const auto rows = controls();
    auto* table = new QTableWidget(int(rows.size()), 2, this);
    table->setHorizontalHeaderLabels({tr("Control"), tr("Action")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].first));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(600, 480);
}

} // namespace strobe
