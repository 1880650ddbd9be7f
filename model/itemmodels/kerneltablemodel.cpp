// SPDX-License-Identifier: MIT
#include "model/itemmodels/kerneltablemodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/valueformat.h"

#include <QStringBuilder>
#include <QTimer>
#include <algorithm>
#include <numeric>

namespace strobe {

namespace {

std::int64_t product(const std::array<std::int32_t, 3>& d) {
    return std::int64_t(d[0]) * std::int64_t(d[1]) * std::int64_t(d[2]);
}

} // namespace

KernelTableData gatherKernelTableData(std::shared_ptr<const Trace> trace) {
    KernelTableData d;
    d.trace = std::move(trace);
    if (!d.trace)
        return d;
    const Trace& t = *d.trace;
    const std::size_t n = t.kernelCount();
    d.start.resize(n);
    d.end.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const EventRef self = t.kernelRef(k);
        const Lane& lane = t.lane(self.lane);
        d.start[k] = lane.start(self.index);
        d.end[k] = lane.end(self.index);
    }
    return d;
}

std::vector<std::uint32_t> kernelPermutation(const KernelTableData& data, int column,
                                             bool demangled) {
    using Column = KernelTableModel::Column;
    const std::size_t n = data.start.size();
    std::vector<std::uint32_t> perm(n);
    if (column == Column::Start || !data.trace) { // kernels are stored in start order
        std::iota(perm.begin(), perm.end(), 0u);
        return perm;
    }
    const Trace& t = *data.trace;
    const auto& configs = t.kernelConfigs();
    std::vector<std::int64_t> configKey(configs.size());
    if (column == Column::Name) {
        // Rank of each configuration's name: one string sort over the few configurations.
        std::vector<std::uint32_t> order(configs.size());
        std::iota(order.begin(), order.end(), 0u);
        std::vector<QString> names(configs.size());
        for (std::size_t c = 0; c < configs.size(); ++c)
            names[c] = t.string(demangled ? configs[c].demangledName : configs[c].shortName);
        std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
            return QString::compare(names[a], names[b], Qt::CaseInsensitive) < 0;
        });
        for (std::size_t r = 0; r < order.size(); ++r)
            configKey[order[r]] = std::int64_t(r);
    }
    std::vector<std::pair<std::int64_t, std::uint32_t>> keyed(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t config = t.kernelConfigIndex(k);
        const KernelConfig& c = configs[config];
        const StreamInfo& s = t.streams()[t.kernelStreamIndex(k)];
        std::int64_t key = 0;
        switch (Column(column)) {
        case Column::Name:
            key = configKey[config];
            break;
        case Column::Duration:
            key = data.end[k] - data.start[k];
            break;
        case Column::End:
            key = data.end[k];
            break;
        case Column::Device:
            key = s.deviceId;
            break;
        case Column::Stream:
            key = (std::int64_t(s.deviceId) << 32) | s.streamId;
            break;
        case Column::Grid:
            key = product(c.grid);
            break;
        case Column::Block:
            key = product(c.block);
            break;
        case Column::Registers:
            key = c.registersPerThread;
            break;
        case Column::SharedMemory:
            key = std::int64_t(c.staticSharedBytes) + c.dynamicSharedBytes;
            break;
        case Column::CorrelationId: {
            const auto corr = t.kernels()[k].correlationId;
            key = corr ? std::int64_t(*corr) : -1;
            break;
        }
        case Column::Start:
        case Column::ColumnCount:
            break;
        }
        keyed[k] = {key, k};
    }
    std::sort(keyed.begin(), keyed.end()); // ties by kernel index, i.e. by start
    for (std::size_t i = 0; i < n; ++i)
        perm[i] = keyed[i].second;
    return perm;
}

KernelRows computeKernelRows(KernelRowQuery query) {
    KernelRows out;
    const KernelTableData* d = query.data.get();
    const std::size_t n = d ? d->start.size() : 0;
    if (d && n > 0 && (!query.permutation || query.permutation->size() != n))
        query.permutation = std::make_shared<const std::vector<std::uint32_t>>(
            kernelPermutation(*d, query.column, query.demangled));
    out.rowOf.assign(n, -1);
    if (n > 0) {
        const std::vector<std::uint32_t>& perm = *query.permutation;
        const Trace& trace = *d->trace;
        const auto& range = query.range;
        auto consider = [&](std::uint32_t k) {
            const std::uint32_t config = trace.kernelConfigIndex(k);
            if (config >= query.configPass.size() || !query.configPass[config])
                return;
            if (range &&
                (d->start[k] >= range->end || effectiveEnd(d->start[k], d->end[k]) <= range->start))
                return;
            out.rowOf[k] = std::int32_t(out.rows.size());
            out.rows.push_back(k);
        };
        out.rows.reserve(perm.size());
        if (query.order == Qt::AscendingOrder)
            std::for_each(perm.begin(), perm.end(), consider);
        else
            std::for_each(perm.rbegin(), perm.rend(), consider);
        out.rows.shrink_to_fit();
    }
    out.query = std::move(query);
    return out;
}

KernelTableModel::KernelTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

KernelTableModel::~KernelTableModel() = default;

void KernelTableModel::setTrace(std::shared_ptr<const Trace> trace) {
    setData(trace ? std::make_shared<const KernelTableData>(gatherKernelTableData(std::move(trace)))
                  : nullptr);
}

void KernelTableModel::setData(std::shared_ptr<const KernelTableData> data) {
    const bool newTrace = !data || !m_data || data->trace != m_data->trace;
    m_data = std::move(data);
    for (auto& p : m_perm)
        p.reset();
    if (newTrace) {
        m_configFilter.clear();
        if (m_deferRows && !m_rows.empty()) {
            // The rows index the old trace's kernels: show none until the new ones arrive.
            beginResetModel();
            m_rows = {};
            m_rowOf = {};
            m_shown = 0;
            ++m_revealGeneration;
            endResetModel();
        }
    }
    computeNameMatches();
    requestRows();
}

std::size_t KernelTableModel::permutationSlot(int column, bool demangled) {
    return column == Name && demangled ? std::size_t(ColumnCount) : std::size_t(column);
}

QString KernelTableModel::displayName(const KernelConfig& c) const {
    return m_data->trace->string(m_demangled ? c.demangledName : c.shortName);
}

bool KernelTableModel::setNameFilter(const QString& text, bool regex) {
    m_nameFilter = NameFilter(text, regex);
    computeNameMatches();
    requestRows();
    return m_nameFilter.isValid();
}

void KernelTableModel::setTimeRange(std::optional<TimeRange> range) {
    if (range == m_range)
        return;
    m_range = range;
    requestRows();
}

void KernelTableModel::setConfigFilter(const std::vector<std::uint32_t>& configs) {
    m_configFilter = configs;
    computeNameMatches();
    requestRows();
}

void KernelTableModel::setShowDemangled(bool demangled) {
    if (demangled == m_demangled)
        return;
    m_demangled = demangled;
    computeNameMatches();
    requestRows();
}

void KernelTableModel::computeNameMatches() {
    const Trace* t = trace();
    m_configPass.assign(t ? t->kernelConfigs().size() : 0, 1);
    if (!m_configFilter.empty()) {
        std::fill(m_configPass.begin(), m_configPass.end(), 0);
        for (std::uint32_t c : m_configFilter) {
            if (c < m_configPass.size())
                m_configPass[c] = 1;
        }
    }
    if (m_nameFilter.isOpen())
        return;
    // Names are per configuration, and configurations are few: match each once.
    for (std::size_t c = 0; c < m_configPass.size(); ++c) {
        if (!m_configPass[c])
            continue;
        m_configPass[c] = m_nameFilter.matches(displayName(t->kernelConfigs()[c]));
    }
}

KernelRowQuery KernelTableModel::rowQuery() const {
    KernelRowQuery q;
    q.data = m_data;
    q.column = m_sortColumn;
    q.order = m_sortOrder;
    q.demangled = m_demangled;
    q.configPass = m_configPass;
    q.range = m_range;
    q.permutation = m_perm[permutationSlot(m_sortColumn, m_demangled)];
    q.request = m_request;
    return q;
}

void KernelTableModel::requestRows() {
    ++m_request;
    // Nothing to sort or filter: answer at once, even when deferred.
    if (m_deferRows && m_data && !m_data->start.empty())
        emit rowsRequested();
    else
        applyRows(computeKernelRows(rowQuery()));
}

bool KernelTableModel::applyRows(KernelRows rows) {
    const KernelRowQuery& q = rows.query;
    if (q.request != m_request || q.data != m_data)
        return false;
    if (q.permutation)
        m_perm[permutationSlot(q.column, q.demangled)] = q.permutation;
    beginResetModel();
    m_rows.swap(rows.rows);
    m_rowOf.swap(rows.rowOf);
    m_appliedRequest = m_request;
    const std::size_t step = m_revealStep > 0 ? std::size_t(m_revealStep) : m_rows.size();
    m_shown = std::min(m_rows.size(), step);
    const std::uint64_t generation = ++m_revealGeneration;
    endResetModel();
    if (m_shown < m_rows.size())
        QTimer::singleShot(0, this, [this, generation] { revealNext(generation); });
    else
        emit rowsApplied();
    return true;
}

void KernelTableModel::revealNext(std::uint64_t generation) {
    if (generation != m_revealGeneration)
        return; // reset meanwhile: those rows are gone
    const std::size_t next = std::min(m_rows.size(), m_shown + std::size_t(m_revealStep));
    beginInsertRows({}, int(m_shown), int(next) - 1);
    m_shown = next;
    endInsertRows();
    if (m_shown < m_rows.size())
        QTimer::singleShot(0, this, [this, generation] { revealNext(generation); });
    else
        emit rowsApplied();
}

void KernelTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    requestRows();
}

int KernelTableModel::totalKernels() const {
    return m_data ? int(m_data->start.size()) : 0;
}

std::optional<std::uint32_t> KernelTableModel::kernelAtRow(int row) const {
    if (row < 0 || std::size_t(row) >= m_shown)
        return std::nullopt;
    return m_rows[std::size_t(row)];
}

std::optional<int> KernelTableModel::rowOfKernel(std::uint32_t k) const {
    if (k >= m_rowOf.size() || m_rowOf[k] < 0 || std::size_t(m_rowOf[k]) >= m_shown)
        return std::nullopt;
    return m_rowOf[k];
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_shown);
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::uint32_t k = m_rows[std::size_t(index.row())];
    const Trace& t = *m_data->trace;
    const std::vector<TimeNs>& starts = m_data->start;
    const std::vector<TimeNs>& ends = m_data->end;
    const KernelRecord& rec = t.kernels()[k];
    const KernelConfig& c = t.kernelConfigs()[rec.config];
    const StreamInfo& s = t.streams()[rec.stream];
    const int col = index.column();
    const TimeNs duration = ends[k] - starts[k];
    const std::int64_t shared = std::int64_t(c.staticSharedBytes) + c.dynamicSharedBytes;
    if (role == KernelIndexRole)
        return qlonglong(k);
    if (role == Qt::TextAlignmentRole)
        return col == Name ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                           : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole) {
        if (col == Name)
            return t.string(m_demangled ? c.shortName : c.demangledName);
        if (col == SharedMemory && c.detail == LaunchDetail::Complete)
            return QStringLiteral("static %1 B + dynamic %2 B")
                .arg(c.staticSharedBytes)
                .arg(c.dynamicSharedBytes);
        return {};
    }
    if (role == SortRole || role == ExportRole) {
        switch (Column(col)) {
        case Name:
            return displayName(c);
        case Duration:
            return qlonglong(duration);
        case Start:
            return qlonglong(starts[k]);
        case End:
            return qlonglong(ends[k]);
        case Device:
            return qlonglong(s.deviceId);
        case Stream:
            return qlonglong(s.streamId);
        case Grid:
            return role == SortRole ? QVariant(qlonglong(product(c.grid)))
                                    : QVariant(formatDim3(c.grid));
        case Block:
            return role == SortRole ? QVariant(qlonglong(product(c.block)))
                                    : QVariant(formatDim3(c.block));
        case Registers:
            return qlonglong(c.registersPerThread);
        case SharedMemory:
            return qlonglong(shared);
        case CorrelationId:
            return rec.correlationId ? QVariant(qlonglong(*rec.correlationId)) : QVariant();
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    if (c.detail == LaunchDetail::None &&
        (col == Grid || col == Block || col == Registers || col == SharedMemory))
        return QStringLiteral("unknown");
    if ((col == Registers && !c.recorded(KernelField::Registers)) ||
        (col == SharedMemory && !c.recorded(KernelField::SharedMemory)))
        return QStringLiteral("unknown"); // a reduced export without the column
    switch (Column(col)) {
    case Name:
        return displayName(c);
    case Duration:
        return formatDuration(duration);
    case Start:
        return formatTimestamp(starts[k], t.timeRange().start);
    case End:
        return formatTimestamp(ends[k], t.timeRange().start);
    case Device:
        return QString::number(s.deviceId);
    case Stream:
        return QString::number(s.streamId);
    case Grid:
        return formatDim3(c.grid);
    case Block:
        return formatDim3(c.block);
    case Registers:
        return QString::number(c.registersPerThread);
    case SharedMemory:
        return shared < 1024 ? QString::number(shared) % QStringLiteral(" B")
                             : formatBytes(std::uint64_t(shared));
    case CorrelationId:
        return rec.correlationId ? QString::number(*rec.correlationId) : QString();
    case ColumnCount:
        break;
    }
    return {};
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return initialSortOrder(section == Duration || section == Grid || section == Block ||
                                section == Registers || section == SharedMemory);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Name",      "Duration",      "Start",         "End",
                                        "Device",    "Stream",        "Grid",          "Block",
                                        "Registers", "Shared memory", "Correlation id"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
