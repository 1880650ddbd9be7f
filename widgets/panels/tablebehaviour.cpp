// SPDX-License-Identifier: MIT
#include "widgets/panels/tablebehaviour.h"

#include "widgets/viewstate.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QTableView>
#include <algorithm>
#include <cstdint>
#include <vector>

namespace strobe {

namespace {
constexpr int kHiddenRows = 40;  // rows a hidden view measures
constexpr int kSpreadRows = 200; // rows spread over the table that every view measures too
} // namespace

void setUpTable(QTableView* view, const TableLook& look) {
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection); // QTableView's own default too
    view->setAlternatingRowColors(true);
    view->setWordWrap(look.wrapText);
    QHeaderView* rows = view->verticalHeader();
    rows->hide();
    if (look.fixedRows)
        rows->setSectionResizeMode(QHeaderView::Fixed);
    if (look.oneLineRows)
        rows->setDefaultSectionSize(view->fontMetrics().height() + 6);
}

void makeSortable(QTableView* view, int column, Qt::SortOrder order) {
    // Connected after sorting is turned on (which connects the view's own sortByColumn), so that
    // this runs once the view has sorted.
    QHeaderView* header = view->horizontalHeader();
    view->setSortingEnabled(true);
    QObject::connect(header, &QHeaderView::sortIndicatorChanged, view,
                     [view] { view->scrollToTop(); });
    view->sortByColumn(column, order);
}

void onRowActivated(QTableView* view, ViewState* state, std::function<void(int row)> jump) {
    // `activated` is Qt's "the user chose this item": a double-click, or Enter on the current
    // row (and a single click where the platform activates on single clicks).
    QObject::connect(view, &QAbstractItemView::activated, view,
                     [state, jump = std::move(jump)](const QModelIndex& index) {
                         if (!index.isValid())
                             return;
                         jump(index.row());
                         state->requestTimelineFocus();
                     });
}

void fitColumns(QTableView* view, int stretch) {
    QHeaderView* header = view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(stretch, QHeaderView::Stretch);
    // Only the rows in view (the first screenful when hidden): sizeHintForColumn would visit up
    // to a thousand rows per column, or all of them in a hidden view.
    const QAbstractItemModel* model = view->model();
    const int rows = model ? model->rowCount() : 0;
    const int first = std::max(0, view->rowAt(0));
    const int last = view->isVisible() && view->rowAt(view->viewport()->height() - 1) >= 0
                         ? view->rowAt(view->viewport()->height() - 1)
                         : std::min(rows, first + kHiddenRows) - 1;
    // Plus rows spread evenly over the whole table, so a wider value further down (a grid of
    // (200, 1, 1) below rows of (50, 4, 1)) is seen too: a constant number of rows at any size.
    std::vector<int> sample;
    for (int r = first; r <= last; ++r)
        sample.push_back(r);
    const int spread = std::min(rows, kSpreadRows);
    for (int i = 0; i < spread; ++i)
        sample.push_back(int(std::int64_t(i) * rows / spread));
    std::sort(sample.begin(), sample.end()); // the rows in view and the spread ones overlap
    sample.erase(std::unique(sample.begin(), sample.end()), sample.end());
    const int grid = view->showGrid() ? 1 : 0;
    const QFontMetrics fm = view->fontMetrics();
    for (int c = 0; c < header->count(); ++c) {
        if (c == stretch)
            continue;
        int width = header->sectionSizeHint(c); // the label, its margins and the sort arrow
        // The cells are plain text in the view's font. Laying a text out (its advance) costs ten
        // times reading it, and the delegate's size hint ten times more, so only the distinct
        // texts at most one character shorter than the longest are laid out (digits are
        // equally wide in the usual fonts: the widest is among them), and the delegate is
        // asked for the widest of those.
        constexpr std::size_t kMaxCandidates = 16;
        std::vector<std::pair<QString, int>> candidates; // (text, row)
        qsizetype longest = -1;
        for (const int r : sample) {
            QString text = model->index(r, c).data().toString();
            if (text.size() > longest) {
                longest = text.size();
                std::erase_if(candidates,
                              [&](const auto& e) { return e.first.size() < longest - 1; });
            }
            if (text.size() < longest - 1 || candidates.size() >= kMaxCandidates ||
                std::any_of(candidates.begin(), candidates.end(),
                            [&](const auto& e) { return e.first == text; }))
                continue;
            candidates.emplace_back(std::move(text), r);
        }
        int widestRow = -1, widestText = -1;
        for (const auto& [text, r] : candidates) {
            const int w = fm.horizontalAdvance(text);
            if (w > widestText)
                widestText = w, widestRow = r;
        }
        if (widestRow >= 0)
            width =
                std::max(width, view->sizeHintForIndex(model->index(widestRow, c)).width() + grid);
        header->resizeSection(c, width);
    }
}

} // namespace strobe
