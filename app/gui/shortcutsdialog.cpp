// SPDX-License-Identifier: MIT
#include "app/gui/shortcutsdialog.h"

#include "widgets/timeline/keybindings.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strobe {

ShortcutsDialog::ShortcutsDialog(QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Keyboard and Mouse"));
    const QList<KeyBinding>& rows = keyBindings();
    m_table = new QTableWidget(int(rows.size()), 3, this);
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Mouse"), tr("Keyboard")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    for (int i = 0; i < rows.size(); ++i) {
        const KeyBinding& b = rows[i];
        int column = 0;
        for (const char* text : {b.action, b.mouse, b.keyboard})
            m_table->setItem(i, column++, new QTableWidgetItem(keyBindingText(text)));
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Rows follow the columns' widths: sized once here, before the dialog had its width, each
    // row kept the height of its text wrapped in a column a few words wide (one about 320 px
    // for two lines, issue 44).
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(960, 620);
}

} // namespace strobe
