// SPDX-License-Identifier: MIT
#include "lane.h"

#include <numeric>
#include <queue>

namespace strobe {

std::uint32_t RowView::firstEndingAfter(TimeNs t) const {
    std::uint32_t lo = 0, hi = m_size;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        const std::uint32_t i = laneIndex(mid);
        if (effectiveEnd(m_lane->start(i), m_lane->end(i)) > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

std::uint32_t RowView::firstStartingAtOrAfter(TimeNs t) const {
    std::uint32_t lo = 0, hi = m_size;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (start(mid) >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

Lane::Lane(LaneKind kind, std::uint32_t owner)
    : m_kind(kind)
    , m_owner(owner) {}

RowView Lane::rowView(std::uint16_t r) const {
    if (m_rowIdx.empty())
        return RowView(*this, nullptr, size());
    const auto& idx = m_rowIdx[r];
    return RowView(*this, idx.data(), std::uint32_t(idx.size()));
}

void Lane::reserve(std::size_t n) {
    m_start.reserve(n);
    m_end.reserve(n);
    m_name.reserve(n);
    m_payload.reserve(n);
}

void Lane::append(TimeNs start, TimeNs end, StringId name, std::uint32_t payload) {
    m_start.push_back(start);
    m_end.push_back(end);
    m_name.push_back(name);
    m_payload.push_back(payload);
}

template <typename T>
static void permute(std::vector<T>& v, const std::vector<std::uint32_t>& order) {
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        out[i] = v[order[i]];
    v.swap(out);
}

std::vector<std::uint32_t> Lane::finalize(RowPolicy policy) {
    std::vector<std::uint32_t> order(m_start.size());
    std::iota(order.begin(), order.end(), 0u);
    const bool sorted = std::is_sorted(order.begin(), order.end(), [&](auto a, auto b) {
        return m_start[a] < m_start[b] || (m_start[a] == m_start[b] && m_end[a] > m_end[b]);
    });
    if (!sorted) {
        std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
            return m_start[a] < m_start[b] || (m_start[a] == m_start[b] && m_end[a] > m_end[b]);
        });
        permute(m_start, order);
        permute(m_end, order);
        permute(m_name, order);
        permute(m_payload, order);
    }
    m_start.shrink_to_fit();
    m_end.shrink_to_fit();
    m_name.shrink_to_fit();
    m_payload.shrink_to_fit();
    assignRows(policy);
    m_index.build(m_start, m_end);
    if (!m_start.empty()) {
        m_range.start = m_start.front();
        m_range.end = m_start.front();
        for (std::size_t i = 0; i < m_start.size(); ++i)
            m_range.end = std::max(m_range.end, effectiveEnd(m_start[i], m_end[i]));
    }
    return order;
}

void Lane::assignRows(RowPolicy policy) {
    const std::size_t n = m_start.size();
    std::vector<std::uint16_t> rows(n, 0);
    std::uint16_t rowCount = n ? 1 : 1;
    constexpr std::size_t kMaxRows = 0xFFFF;
    if (policy == RowPolicy::Nesting) {
        // Stack of open events; an event nested in the top goes one row deeper. An event that
        // starts inside but ends outside its parent still goes deeper, so rows never overlap.
        std::vector<TimeNs> openEnds;
        for (std::size_t i = 0; i < n; ++i) {
            while (!openEnds.empty() && openEnds.back() <= m_start[i])
                openEnds.pop_back();
            const std::size_t depth = std::min(openEnds.size(), kMaxRows - 1);
            rows[i] = std::uint16_t(depth);
            rowCount = std::max<std::uint16_t>(rowCount, std::uint16_t(depth + 1));
            openEnds.push_back(effectiveEnd(m_start[i], m_end[i]));
        }
    } else {
        // First fit: the lowest row whose last event ended by this start.
        std::vector<TimeNs> rowEnd; // end of each row's last event
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t r = 0;
            while (r < rowEnd.size() && rowEnd[r] > m_start[i])
                ++r;
            if (r == rowEnd.size() && r < kMaxRows)
                rowEnd.push_back(std::numeric_limits<TimeNs>::min());
            r = std::min(r, rowEnd.size() - 1);
            rowEnd[r] = std::max(rowEnd[r], effectiveEnd(m_start[i], m_end[i]));
            rows[i] = std::uint16_t(r);
        }
        rowCount = std::uint16_t(std::max<std::size_t>(1, rowEnd.size()));
    }
    m_rowCount = rowCount;
    m_row.clear();
    m_rowIdx.clear();
    if (rowCount > 1) {
        m_row = std::move(rows);
        m_rowIdx.resize(rowCount);
        std::vector<std::uint32_t> counts(rowCount, 0);
        for (auto r : m_row)
            ++counts[r];
        for (std::uint16_t r = 0; r < rowCount; ++r)
            m_rowIdx[r].reserve(counts[r]);
        for (std::uint32_t i = 0; i < n; ++i)
            m_rowIdx[m_row[i]].push_back(i);
    }
}

std::size_t Lane::memoryBytes() const {
    std::size_t bytes = m_start.capacity() * sizeof(TimeNs) + m_end.capacity() * sizeof(TimeNs) +
                        m_name.capacity() * sizeof(StringId) +
                        m_payload.capacity() * sizeof(std::uint32_t) +
                        m_row.capacity() * sizeof(std::uint16_t) + m_index.memoryBytes();
    for (const auto& r : m_rowIdx)
        bytes += r.capacity() * sizeof(std::uint32_t);
    return bytes;
}

} // namespace strobe
