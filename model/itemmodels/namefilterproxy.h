// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/namefilter.h"

#include <QSortFilterProxyModel>

namespace strobe {

// Sorts on SortRole and keeps the rows whose name (column 0, display text) passes a NameFilter:
// the statistics tables' filter, matching like the kernel table's.
class NameFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit NameFilterProxy(QObject* parent = nullptr);
    // Returns false for an invalid regular expression (every row then stays).
    bool setNameFilter(const NameFilter& filter);
    const NameFilter& nameFilter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    NameFilter m_filter;
};

} // namespace strobe
