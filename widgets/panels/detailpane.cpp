// SPDX-License-Identifier: MIT
#include "widgets/panels/detailpane.h"

#include "widgets/backgroundtask.h"
#include "widgets/panels/elidedlabel.h"
#include "widgets/viewstate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStringBuilder>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace strobe {

DetailPane::DetailPane(ViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_title(new ElidedLabel(this))
    , m_warnings(new QLabel(this))
    , m_tree(new QTreeWidget(this))
    , m_task(new BackgroundTask(this)) {
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText); // carries the file's names
    // A wrapped label is as wide as its longest word (an unbreakable name): take what the pane
    // has instead.
    m_warnings->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_warnings->setVisible(false);
    m_warnings->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #5c4400; padding: 4px; }"));
    auto* copy = new QPushButton(tr("Copy"), this);
    copy->setToolTip(tr("Copy all details as text"));

    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Property"), tr("Value")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true); // values take the rest, elided
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copyAction = new QAction(tr("Copy details"), m_tree);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_tree->addAction(copyAction);
    addAction(copyAction);

    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(copy);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_warnings);
    layout->addWidget(m_tree, 1);

    connect(copy, &QPushButton::clicked, this, &DetailPane::copyToClipboard);
    connect(copyAction, &QAction::triggered, this, &DetailPane::copyToClipboard);
    connect(m_state, &ViewState::selectionChanged, this, &DetailPane::showDetailsOf);
    connect(m_state, &ViewState::traceChanged, this,
            [this] { showDetailsOf(m_state->selection()); });
    showDetailsOf(m_state->selection());
}

void DetailPane::copyToClipboard() const {
    QApplication::clipboard()->setText(text());
}

bool DetailPane::isComputing() const {
    return m_task->isRunning();
}

void DetailPane::showDetailsOf(EventRef ref) {
    std::shared_ptr<const Trace> trace = m_state->sharedTrace();
    if (!trace || !ref.isValid()) {
        m_task->cancel();
        showDetails({});
        return;
    }
    // The previous details stay, greyed, until these arrive (usually within milliseconds).
    m_title->setText(tr("Computing details…"));
    m_tree->setEnabled(false);
    m_task->start([trace, ref] { return describeEvent(*trace, ref); },
                  [this](EventDetails details) { showDetails(std::move(details)); });
}

void DetailPane::showDetails(EventDetails details) {
    m_details = std::move(details);
    m_tree->setEnabled(true);
    m_tree->clear();
    m_title->setText(m_details.isEmpty() ? tr("Select an event to see its details")
                                         : m_details.title);
    QFont sectionFont = m_tree->font();
    sectionFont.setBold(true);
    for (const DetailSection& s : m_details.sections) {
        auto* header = new QTreeWidgetItem(m_tree, {s.title});
        header->setFirstColumnSpanned(true);
        header->setFont(0, sectionFont);
        for (const DetailItem& i : s.items) {
            auto* item = new QTreeWidgetItem(m_tree, {QStringLiteral("    ") % i.key, i.value});
            item->setToolTip(1, i.value);
        }
    }
    m_warnings->setText(m_details.warnings.join(u'\n'));
    m_warnings->setVisible(!m_details.warnings.isEmpty());
    emit ready();
}

} // namespace strobe
