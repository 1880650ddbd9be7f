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
#include <algorithm>

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

void DetailPane::setOperatorAnalysis(std::shared_ptr<const OperatorAnalysis> analysis) {
    m_operators = std::move(analysis);
    showDetailsOf(m_state->selection());
}

bool DetailPane::followLink(const QString& section, const QString& key, int index) {
    for (const DetailSection& s : m_details.sections) {
        if (s.title != section)
            continue;
        for (const DetailItem& i : s.items) {
            if (i.key != key || index < 0 || std::size_t(index) >= i.links.size())
                continue;
            const DetailLink& link = i.links[std::size_t(index)];
            m_state->setSelectedRange(link.range);
            const TimeRange view = m_state->visibleRange();
            if (link.range.start < view.start || link.range.end > view.end) {
                m_state->setVisibleRange(widened(link.range, 5));
            }
            return true;
        }
    }
    return false;
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
    std::shared_ptr<const OperatorAnalysis> operators =
        m_operators && m_operators->describes(trace.get()) ? m_operators : nullptr;
    m_task->start(
        [trace, ref, operators] {
            return describeEvent(*trace, ref, operators ? operators->forest.get() : nullptr);
        },
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
            if (!i.links.empty())
                showLinks(item, s.title, i);
        }
    }
    m_warnings->setText(m_details.warnings.join(u'\n'));
    m_warnings->setVisible(!m_details.warnings.isEmpty());
    emit ready();
}

void DetailPane::showLinks(QTreeWidgetItem* item, const QString& section, const DetailItem& i) {
    // One link a row, so that a long chain reads in a narrow pane ("a", "<- b", "<- c"); the
    // item's own text (the whole chain) stays for copying. Names come from the file: escaped,
    // and each link's target is its position, never its text.
    const QString separator = QStringView(kDetailLinkSeparator).toString().trimmed();
    for (std::size_t n = 0; n < i.links.size(); ++n) {
        QTreeWidgetItem* row = n == 0 ? item : new QTreeWidgetItem(m_tree, {QString(), QString()});
        const QString link =
            QStringLiteral("<a href=\"%1\">%2</a>").arg(n).arg(i.links[n].text.toHtmlEscaped());
        auto* label = new QLabel(m_tree);
        label->setTextFormat(Qt::RichText);
        label->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        label->setText(n == 0 ? link : separator.toHtmlEscaped() % u' ' % link);
        label->setToolTip(i.links[n].text);
        row->setText(1, QString()); // the label shows it
        connect(label, &QLabel::linkActivated, this,
                [this, section, key = i.key](const QString& href) {
                    followLink(section, key, href.toInt());
                });
        m_tree->setItemWidget(row, 1, label);
    }
}

} // namespace strobe
