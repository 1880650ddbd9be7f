// SPDX-License-Identifier: MIT
#include "model/itemmodels/namefilterproxy.h"

#include "model/itemmodels/tableroles.h"

namespace strobe {

NameFilterProxy::NameFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(SortRole);
}

bool NameFilterProxy::setNameFilter(const NameFilter& filter) {
    m_filter = filter;
    invalidateRowsFilter();
    return m_filter.isValid();
}

bool NameFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_filter.isOpen())
        return true;
    const QModelIndex name = sourceModel()->index(sourceRow, 0, sourceParent);
    return m_filter.matches(name.data(Qt::DisplayRole).toString());
}

} // namespace strobe
