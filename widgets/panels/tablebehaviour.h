// SPDX-License-Identifier: MIT
#pragma once

#include <Qt>
#include <functional>

class QTableView;

namespace strobe {

class ViewState;

// How every table of the panels behaves, in one place so that they all agree (docs/KERNELS.md,
// "Sorting").

// How a table shows its rows. Every table selects whole rows, several at once (to copy or export
// them), alternates the rows' colours and has no row numbers; these say the rest.
struct TableLook {
    bool wrapText = false;   // false: a cell's text stays on one line (elided)
    bool oneLineRows = true; // rows one text line high: the font's height + 6
    bool fixedRows = true;   // rows the user cannot resize: a million stay cheap to lay out
};

// Sets `view` up as `look` says.
void setUpTable(QTableView* view, const TableLook& look = {});

// Turns sorting on with `column` and `order` first (-1: the model's own order). A first click on
// a column sorts in the order its model gives for Qt::InitialSortOrderRole (initialSortOrder:
// largest first for quantities, names A to Z), a second click reverses it. Every sort shows the
// top rows: the selection is kept but not scrolled to, because the rows around it after a sort
// look like the top of the list and hide what is. A model that sorts later (the kernel table's
// worker) scrolls up itself when its rows arrive.
void makeSortable(QTableView* view, int column, Qt::SortOrder order);

// Calls `jump(row)` when the user activates a row (double-click or Enter), then gives the
// timeline the keyboard focus (ViewState::requestTimelineFocus), so that W/S/A/D, Home and Z act
// on what the row showed there; the table keeps its selection.
void onRowActivated(QTableView* view, ViewState* state, std::function<void(int row)> jump);

// Sizes every column but `stretch` to its contents and its header (headers are never clipped);
// `stretch` takes the rest of the width. Measures the rows in view and 200 rows spread over the
// table (a million-row table costs what one screen does); call it again when the rows change.
void fitColumns(QTableView* view, int stretch);

} // namespace strobe
