// SPDX-License-Identifier: MIT
#include "kerneltablemodel.h"

#include "formatting.h"
#include "tableroles.h"

#include <QStringBuilder>
#include <algorithm>
#include <numeric>

namespace strobe {

namespace {

std::int64_t product(const std::array<std::int32_t, 3>& d) {
    return std::int64_t(d[0]) * std::int64_t(d[1]) * std::int64_t(d[2]);
}

} // namespace

KernelTableModel::KernelTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

KernelTableModel::~KernelTableModel() = default;

void KernelTableModel::setTrace(std::shared_ptr<const Trace> trace) {
    m_trace = std::move(trace);
    for (auto& p : m_perm)
        p.clear();
    m_start.clear();
    m_end.clear();
    m_configFilter.clear();
    if (m_trace) {
        const std::size_t n = m_trace->kernelCount();
        m_start.resize(n);
        m_end.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
            const EventRef self = m_trace->kernels()[k].self;
            const Lane& lane = m_trace->lane(self.lane);
            m_start[k] = lane.start(self.index);
            m_end[k] = lane.end(self.index);
        }
    }
    computeNameMatches();
    rebuildRows();
}

QString KernelTableModel::displayName(const KernelConfig& c) const {
    return m_trace->string(m_demangled ? c.demangledName : c.shortName);
}

bool KernelTableModel::setNameFilter(const QString& text, bool regex) {
    m_filterText = text;
    m_filterIsRegex = regex;
    bool valid = true;
    if (regex) {
        m_filterRegex = QRegularExpression(text, QRegularExpression::CaseInsensitiveOption);
        valid = m_filterRegex.isValid();
    }
    computeNameMatches();
    rebuildRows();
    return valid;
}

void KernelTableModel::setTimeRange(std::optional<TimeRange> range) {
    if (range == m_range)
        return;
    m_range = range;
    rebuildRows();
}

void KernelTableModel::setConfigFilter(const std::vector<std::uint32_t>& configs) {
    m_configFilter = configs;
    computeNameMatches();
    rebuildRows();
}

void KernelTableModel::setShowDemangled(bool demangled) {
    if (demangled == m_demangled)
        return;
    m_demangled = demangled;
    computeNameMatches();
    rebuildRows();
}

void KernelTableModel::computeNameMatches() {
    m_configPass.assign(m_trace ? m_trace->kernelConfigs().size() : 0, 1);
    if (!m_configFilter.empty()) {
        std::fill(m_configPass.begin(), m_configPass.end(), 0);
        for (std::uint32_t c : m_configFilter) {
            if (c < m_configPass.size())
                m_configPass[c] = 1;
        }
    }
    if (m_filterText.isEmpty() || (m_filterIsRegex && !m_filterRegex.isValid()))
        return;
    // Names are per configuration, and configurations are few: match each once.
    for (std::size_t c = 0; c < m_configPass.size(); ++c) {
        if (!m_configPass[c])
            continue;
        const QString name = displayName(m_trace->kernelConfigs()[c]);
        const bool match = m_filterIsRegex ? m_filterRegex.match(name).hasMatch()
                                           : name.contains(m_filterText, Qt::CaseInsensitive);
        m_configPass[c] = match;
    }
}

const std::vector<std::uint32_t>& KernelTableModel::permutation(int column) const {
    const int slot = column == Name && m_demangled ? int(ColumnCount) : column;
    std::vector<std::uint32_t>& perm = m_perm[std::size_t(slot)];
    const std::size_t n = m_start.size();
    if (perm.size() == n)
        return perm;
    perm.resize(n);
    if (column == Start) { // kernels are stored in start order
        std::iota(perm.begin(), perm.end(), 0u);
        return perm;
    }
    const Trace& t = *m_trace;
    const auto& configs = t.kernelConfigs();
    std::vector<std::int64_t> configKey(configs.size());
    if (column == Name) {
        // Rank of each configuration's name: one string sort over the few configurations.
        std::vector<std::uint32_t> order(configs.size());
        std::iota(order.begin(), order.end(), 0u);
        std::vector<QString> names(configs.size());
        for (std::size_t c = 0; c < configs.size(); ++c)
            names[c] = displayName(configs[c]);
        std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
            return QString::compare(names[a], names[b], Qt::CaseInsensitive) < 0;
        });
        for (std::size_t r = 0; r < order.size(); ++r)
            configKey[order[r]] = std::int64_t(r);
    }
    std::vector<std::pair<std::int64_t, std::uint32_t>> keyed(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        const KernelRecord& rec = t.kernels()[k];
        const KernelConfig& c = configs[rec.config];
        const StreamInfo& s = t.streams()[rec.stream];
        std::int64_t key = 0;
        switch (Column(column)) {
        case Name:
            key = configKey[rec.config];
            break;
        case Duration:
            key = m_end[k] - m_start[k];
            break;
        case End:
            key = m_end[k];
            break;
        case Device:
            key = s.deviceId;
            break;
        case Stream:
            key = (std::int64_t(s.deviceId) << 32) | s.streamId;
            break;
        case Grid:
            key = product(c.grid);
            break;
        case Block:
            key = product(c.block);
            break;
        case Registers:
            key = c.registersPerThread;
            break;
        case SharedMemory:
            key = std::int64_t(c.staticSharedBytes) + c.dynamicSharedBytes;
            break;
        case CorrelationId:
            key = rec.correlationId ? std::int64_t(*rec.correlationId) : -1;
            break;
        case Start:
        case ColumnCount:
            break;
        }
        keyed[k] = {key, k};
    }
    std::sort(keyed.begin(), keyed.end()); // ties by kernel index, i.e. by start
    for (std::size_t i = 0; i < n; ++i)
        perm[i] = keyed[i].second;
    return perm;
}

void KernelTableModel::rebuildRows() {
    beginResetModel();
    m_rows.clear();
    m_rowOf.assign(m_start.size(), -1);
    if (m_trace && !m_start.empty()) {
        const std::vector<std::uint32_t>& perm = permutation(m_sortColumn);
        const auto& kernels = m_trace->kernels();
        auto consider = [&](std::uint32_t k) {
            if (!m_configPass[kernels[k].config])
                return;
            if (m_range && (m_start[k] >= m_range->end ||
                            effectiveEnd(m_start[k], m_end[k]) <= m_range->start))
                return;
            m_rowOf[k] = std::int32_t(m_rows.size());
            m_rows.push_back(k);
        };
        m_rows.reserve(perm.size());
        if (m_sortOrder == Qt::AscendingOrder)
            std::for_each(perm.begin(), perm.end(), consider);
        else
            std::for_each(perm.rbegin(), perm.rend(), consider);
    }
    endResetModel();
}

void KernelTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    rebuildRows();
}

int KernelTableModel::totalKernels() const {
    return int(m_start.size());
}

std::optional<std::uint32_t> KernelTableModel::kernelAtRow(int row) const {
    if (row < 0 || std::size_t(row) >= m_rows.size())
        return std::nullopt;
    return m_rows[std::size_t(row)];
}

std::optional<int> KernelTableModel::rowOfKernel(std::uint32_t k) const {
    if (k >= m_rowOf.size() || m_rowOf[k] < 0)
        return std::nullopt;
    return m_rowOf[k];
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(ColumnCount);
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::uint32_t k = m_rows[std::size_t(index.row())];
    const Trace& t = *m_trace;
    const KernelRecord& rec = t.kernels()[k];
    const KernelConfig& c = t.kernelConfigs()[rec.config];
    const StreamInfo& s = t.streams()[rec.stream];
    const int col = index.column();
    const TimeNs duration = m_end[k] - m_start[k];
    const std::int64_t shared = std::int64_t(c.staticSharedBytes) + c.dynamicSharedBytes;
    if (role == KernelIndexRole)
        return qlonglong(k);
    if (role == Qt::TextAlignmentRole)
        return col == Name ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                           : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole) {
        if (col == Name)
            return t.string(m_demangled ? c.shortName : c.demangledName);
        if (col == SharedMemory)
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
            return qlonglong(m_start[k]);
        case End:
            return qlonglong(m_end[k]);
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
    switch (Column(col)) {
    case Name:
        return displayName(c);
    case Duration:
        return formatDuration(duration);
    case Start:
        return formatTimestamp(m_start[k], m_trace->timeRange().start);
    case End:
        return formatTimestamp(m_end[k], m_trace->timeRange().start);
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
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Name",      "Duration",      "Start",         "End",
                                        "Device",    "Stream",        "Grid",          "Block",
                                        "Registers", "Shared memory", "Correlation id"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
