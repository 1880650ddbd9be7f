// SPDX-License-Identifier: MIT
#include "model/itemmodels/kerneltablemodel.h"

#include "model/itemmodels/tableroles.h"
#include "model/valueformat.h"

#include <QStringBuilder>
#include <QTimer>
#include <algorithm>

namespace strobe {

namespace {

std::int64_t product(const std::array<std::int32_t, 3>& d) {
    return std::int64_t(d[0]) * std::int64_t(d[1]) * std::int64_t(d[2]);
}

} // namespace

static_assert(kKernelSortKeys == KernelTableModel::ColumnCount);
static_assert(KernelTableModel::sortKeyOf(KernelTableModel::Name) == KernelSortKey::Name &&
              KernelTableModel::sortKeyOf(KernelTableModel::Operator) == KernelSortKey::Operator &&
              KernelTableModel::sortKeyOf(KernelTableModel::Start) == KernelSortKey::Start &&
              KernelTableModel::sortKeyOf(KernelTableModel::Grid) == KernelSortKey::Grid &&
              KernelTableModel::sortKeyOf(KernelTableModel::CorrelationId) ==
                  KernelSortKey::CorrelationId);

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
        m_operators.reset(); // they describe the old trace's kernels
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

void KernelTableModel::setOperators(std::shared_ptr<const OperatorForest> operators) {
    if (operators == m_operators)
        return;
    m_operators = std::move(operators);
    m_perm[Operator].reset();
    if (m_sortColumn == Operator) {
        requestRows(); // the order changes with the forest
        return;
    }
    if (m_shown > 0) // the column's text only
        emit dataChanged(index(0, Operator), index(int(m_shown) - 1, Operator));
}

bool KernelTableModel::hasOperators() const {
    return m_operators && m_operators->hasOperators();
}

QString KernelTableModel::operatorName(std::uint32_t kernel) const {
    if (!m_operators)
        return {};
    const std::uint32_t op = kernelOperator(*m_operators, kernel);
    return op == kNoOpNode ? QString() : m_operators->nameOf(op);
}

void KernelTableModel::computeNameMatches() {
    m_configPass = kernelConfigPass(trace(), m_configFilter, m_nameFilter, m_demangled);
}

KernelRowQuery KernelTableModel::rowQuery() const {
    KernelRowQuery q;
    q.data = m_data;
    q.key = sortKeyOf(m_sortColumn);
    q.descending = m_sortOrder == Qt::DescendingOrder;
    q.demangled = m_demangled;
    q.configPass = m_configPass;
    q.range = m_range;
    q.permutation = m_perm[permutationSlot(m_sortColumn, m_demangled)];
    q.operators = m_operators;
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
        m_perm[permutationSlot(int(q.key), q.demangled)] = q.permutation;
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
        return col == Name || col == Operator ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                              : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole) {
        if (col == Name)
            return t.string(m_demangled ? c.shortName : c.demangledName);
        if (col == Operator)
            return operatorName(k);
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
        case Operator:
            return operatorName(k);
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
    case Operator:
        return operatorName(k);
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
    static const char* const names[] = {"Name",  "Operator",  "Duration",      "Start",
                                        "End",   "Device",    "Stream",        "Grid",
                                        "Block", "Registers", "Shared memory", "Correlation id"};
    return QString::fromLatin1(names[section]);
}

} // namespace strobe
