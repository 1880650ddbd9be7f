// SPDX-License-Identifier: MIT
#include "model/lane.h"

#include <QtGlobal>
#include <numeric>
#include <queue>
#include <unordered_map>

namespace strobe {

std::uint32_t RowView::firstEndingAfter(TimeNs t) const {
    if (m_runningMaxEnd) // overlapping events: the running maximum is what is sorted
        return std::uint32_t(std::upper_bound(m_runningMaxEnd, m_runningMaxEnd + m_size, t) -
                             m_runningMaxEnd);
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
    const bool overflowRow = !m_lastRowMaxEnd.empty() && r + 1 == m_rowCount;
    return RowView(*this, idx.data(), std::uint32_t(idx.size()),
                   overflowRow ? m_lastRowMaxEnd.data() : nullptr);
}

std::uint16_t Lane::row(std::uint32_t i) const {
    for (std::size_t r = 0; r < m_rowIdx.size(); ++r) {
        const auto& idx = m_rowIdx[r];
        if (std::binary_search(idx.begin(), idx.end(), i))
            return std::uint16_t(r);
    }
    return 0;
}

TimeNs Lane::longEnd(std::uint32_t i) const {
    const auto it = std::lower_bound(m_longEnds.begin(), m_longEnds.end(), i,
                                     [](const auto& e, std::uint32_t k) { return e.first < k; });
    return it->second;
}

void Lane::reserve(std::size_t n) {
    if (m_wideStart.empty()) {
        m_startBase.reserve((n + kStartBlock - 1) / kStartBlock);
        m_startOffset.reserve(n);
    } else {
        m_wideStart.reserve(n);
    }
    m_duration.reserve(n);
    m_name.reserve(n);
    m_payload.reserve(n);
}

void Lane::stageEnd(std::uint32_t i, TimeNs end,
                    std::vector<std::pair<std::uint32_t, TimeNs>>& longEnds) {
    const TimeNs d = saturatingSub(end, start(i));
    if (d >= 0 && d < TimeNs(kLongDuration)) {
        m_duration[i] = std::uint32_t(d);
    } else {
        m_duration[i] = kLongDuration;
        longEnds.emplace_back(i, end);
    }
}

TimeNs Lane::farStart(std::uint32_t i) const {
    const auto it = std::lower_bound(m_farStarts.begin(), m_farStarts.end(), i,
                                     [](const auto& e, std::uint32_t k) { return e.first < k; });
    return it != m_farStarts.end() && it->first == i
               ? it->second
               : m_startBase[i >> kStartShift] + TimeNs(kFarStart);
}

void Lane::stageStart(TimeNs start) {
    // An offset from a base 2^31 ns below its block's first start, so that starts out of order
    // by up to that much (tables are written about in time order, NVTX ranges at their ends) read
    // back through start() as frozen ones do; compress() bases blocks afresh. A start further
    // away is kept beside; once those are more than a quarter of the lane, all are spelled out.
    constexpr TimeNs kHalfRange = TimeNs(1) << 31;
    if (m_wideStart.empty()) {
        const std::uint32_t i = m_size;
        if ((i & (kStartBlock - 1)) == 0) {
            m_startBase.push_back(saturatingSub(start, kHalfRange));
            m_startOffset.push_back(std::uint32_t(start - m_startBase.back()));
            return;
        }
        const TimeNs offset = saturatingSub(start, m_startBase.back());
        if (offset >= 0 && offset < TimeNs(kFarStart)) {
            m_startOffset.push_back(std::uint32_t(offset));
            return;
        }
        if (m_farStarts.size() < std::size_t(i) / 4 + 16) {
            m_startOffset.push_back(kFarStart);
            m_farStarts.emplace_back(i, start);
            return;
        }
        spellOutStagedStarts();
    }
    m_wideStart.push_back(start);
}

void Lane::spellOutStagedStarts() {
    std::vector<TimeNs> wide;
    wide.reserve(std::max<std::size_t>(m_startOffset.capacity(), m_size + 1));
    for (std::uint32_t i = 0; i < m_size; ++i)
        wide.push_back(start(i));
    m_wideStart = std::move(wide);
    std::vector<TimeNs>().swap(m_startBase);
    std::vector<std::uint32_t>().swap(m_startOffset);
    std::vector<std::pair<std::uint32_t, TimeNs>>().swap(m_farStarts);
}

void Lane::append(TimeNs start, TimeNs end, StringId name, std::uint32_t payload) {
    Q_ASSERT(!m_frozen);
    stageStart(start);
    m_duration.push_back(0);
    stageEnd(m_size, end, m_longEnds); // indices rise: m_longEnds stays in index order
    m_name.push_back(name);
    m_payload.push_back(payload);
    ++m_size;
}

void Lane::appendUnnamed(TimeNs start, TimeNs end, std::uint32_t payload) {
    Q_ASSERT(!m_frozen && m_name.empty());
    stageStart(start);
    m_duration.push_back(0);
    stageEnd(m_size, end, m_longEnds);
    m_payload.push_back(payload);
    ++m_size;
}

template <typename T>
static void permute(std::vector<T>& v, const std::vector<std::uint32_t>& order) {
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        out[i] = v[order[i]];
    v.swap(out);
}

std::vector<std::uint32_t>
Lane::finalize(RowPolicy policy, const std::function<StringId(std::uint32_t)>& nameOfPayload,
               std::vector<std::uint32_t> inOrder) {
    // Read through start() and end() from the staged form: a lane that came in order (nearly
    // every one) is frozen without its times spelled out, so that finishing the biggest lane of a
    // load adds little to its peak.
    Q_ASSERT(inOrder.empty() || inOrder.size() == m_size);
    const bool appended = inOrder.size() != m_size;
    std::vector<std::uint32_t> order = std::move(inOrder);
    if (appended) {
        order.resize(m_size);
        std::iota(order.begin(), order.end(), 0u);
    }
    auto before = [&](std::uint32_t a, std::uint32_t b) {
        const TimeNs sa = start(a), sb = start(b);
        return sa < sb || (sa == sb && end(a) > end(b));
    };
    if (!std::is_sorted(order.begin(), order.end(), before)) {
        std::stable_sort(order.begin(), order.end(), before);
        reorder(order);
    } else if (!appended || !m_farStarts.empty()) {
        // In order, but not as appended, or the starts kept beside go back into the columns.
        reorder(order);
    }
    m_payload.shrink_to_fit();
    assignRows(policy);
    m_range = {};
    if (m_size > 0) {
        m_range.start = start(0);
        m_range.end = start(0);
        for (std::uint32_t i = 0; i < m_size; ++i)
            m_range.end = std::max(m_range.end, effectiveEnd(start(i), end(i)));
    }
    m_index.buildFrom(*this);
    compress(nameOfPayload);
    return order;
}

template <typename StartAt> bool Lane::compactSortedStarts(StartAt&& startAt) {
    const std::size_t n = m_size;
    const std::size_t blocks = (n + kStartBlock - 1) / kStartBlock;
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t first = b * kStartBlock, last = std::min(n, first + kStartBlock) - 1;
        if (saturatingSub(startAt(last), startAt(first)) >= TimeNs(kFarStart))
            return false;
    }
    std::vector<TimeNs> base(blocks);
    std::vector<std::uint32_t> offset(n);
    for (std::size_t i = 0; i < n; ++i) {
        const TimeNs s = startAt(i);
        if ((i & (kStartBlock - 1)) == 0)
            base[i >> kStartShift] = s;
        offset[i] = std::uint32_t(s - base[i >> kStartShift]);
    }
    std::vector<TimeNs>().swap(m_wideStart);
    std::vector<std::pair<std::uint32_t, TimeNs>>().swap(m_farStarts);
    m_startBase = std::move(base);
    m_startOffset = std::move(offset);
    return true;
}

void Lane::reorder(const std::vector<std::uint32_t>& order) {
    // Column by column, each built in its new order before the old one goes: at most one
    // column's worth of bytes extra. The starts come out sorted, as compress() keeps them.
    const std::size_t n = m_size;
    // The ends follow their events; the long ones are found before the starts move.
    std::vector<std::uint32_t> duration(n);
    std::vector<std::pair<std::uint32_t, TimeNs>> longEnds;
    for (std::uint32_t i = 0; i < n; ++i) {
        duration[i] = m_duration[order[i]];
        if (duration[i] == kLongDuration)
            longEnds.emplace_back(i, longEnd(order[i]));
    }
    auto startAt = [&](std::size_t i) { return start(order[i]); };
    if (!compactSortedStarts(startAt)) {
        std::vector<TimeNs> wide(n);
        for (std::size_t i = 0; i < n; ++i)
            wide[i] = startAt(i);
        std::vector<TimeNs>().swap(m_startBase);
        std::vector<std::uint32_t>().swap(m_startOffset);
        std::vector<std::pair<std::uint32_t, TimeNs>>().swap(m_farStarts);
        m_wideStart = std::move(wide);
    }
    m_duration = std::move(duration);
    m_longEnds = std::move(longEnds);
    if (!m_name.empty()) // (else named by payload)
        permute(m_name, order);
    permute(m_payload, order);
}

void Lane::compress(const std::function<StringId(std::uint32_t)>& nameOfPayload) {
    // The ends are staged as they are kept: 32-bit durations, the long ones beside.
    m_duration.shrink_to_fit();
    m_longEnds.shrink_to_fit();
    compressNames(nameOfPayload);
    const std::size_t n = m_size;
    const std::size_t blocks = (n + kStartBlock - 1) / kStartBlock;
    if (m_wideStart.empty()) {
        // Compact and sorted: each block is based afresh on its first start. A staged start lies
        // within 2^31 ns of its block's first and, sorted, not below it, so it fits (a reordered
        // lane's blocks are based on their first already).
        for (std::size_t b = 0; b < blocks; ++b) {
            const std::size_t first = b * kStartBlock, last = std::min(n, first + kStartBlock);
            const std::uint32_t shift = m_startOffset[first];
            for (std::size_t i = first; i < last; ++i)
                m_startOffset[i] -= shift;
            m_startBase[b] += TimeNs(shift);
        }
        m_startBase.shrink_to_fit();
        m_startOffset.shrink_to_fit();
        m_frozen = true;
        return;
    }
    if (!compactSortedStarts([this](std::size_t i) { return m_wideStart[i]; }))
        m_wideStart.shrink_to_fit();
    m_frozen = true;
}

void Lane::compressNames(const std::function<StringId(std::uint32_t)>& nameOfPayload) {
    // Names staged, or given by payload (never spelled out as a column unless they do not fit
    // 16-bit indices). Distinct names through a direct table when ids are dense enough, else a
    // hash map.
    const bool byPayload = m_name.empty() && nameOfPayload;
    Q_ASSERT(byPayload || m_name.size() == m_size); // appendUnnamed() lanes need nameOfPayload
    auto nameAt = [&](std::size_t i) {
        return byPayload ? nameOfPayload(m_payload[i]) : m_name[i];
    };
    const std::size_t n = m_size;
    StringId maxId = 0;
    for (std::size_t i = 0; i < n; ++i)
        maxId = std::max(maxId, nameAt(i));
    std::vector<StringId> dict;
    std::vector<std::uint16_t> indices(n);
    constexpr std::size_t kMaxDict = std::size_t(1) << 16;
    auto add = [&](StringId id, std::uint32_t& slot) {
        if (slot == 0) {
            if (dict.size() == kMaxDict)
                return false;
            dict.push_back(id);
            slot = std::uint32_t(dict.size());
        }
        return true;
    };
    // `slotOf(id)` is the id's 1 + dictionary index, 0 until it has one.
    auto index = [&](auto&& slotOf) {
        for (std::size_t i = 0; i < n; ++i) {
            const StringId id = nameAt(i);
            std::uint32_t& slot = slotOf(id);
            if (!add(id, slot))
                return false;
            indices[i] = std::uint16_t(slot - 1);
        }
        return true;
    };
    bool fits = false;
    if (std::size_t(maxId) <= 4 * n + 4096) {
        std::vector<std::uint32_t> slots(std::size_t(maxId) + 1, 0);
        fits = index([&](StringId id) -> std::uint32_t& { return slots[id]; });
    } else {
        std::unordered_map<StringId, std::uint32_t> slots;
        fits = index([&](StringId id) -> std::uint32_t& { return slots[id]; });
    }
    if (!fits || n == 0) {
        if (byPayload) {
            m_name.resize(n);
            for (std::size_t i = 0; i < n; ++i)
                m_name[i] = nameAt(i);
        }
        m_name.shrink_to_fit();
        return;
    }
    dict.shrink_to_fit();
    m_nameDict = std::move(dict);
    m_nameIndex = std::move(indices);
    std::vector<StringId>().swap(m_name);
}

void Lane::setRecordBase(std::uint32_t base) {
    m_recordBase = base;
    std::vector<std::uint32_t>().swap(m_payload);
}

void Lane::assignRows(RowPolicy policy) {
    const std::size_t n = m_size;
    auto st = [this](std::size_t i) { return start(std::uint32_t(i)); };
    auto en = [this](std::size_t i) { return end(std::uint32_t(i)); };
    std::vector<std::uint16_t> rows(n, 0);
    std::size_t rowCount = 1;
    m_overflowEvents = 0;
    if (policy == RowPolicy::Nesting) {
        // Stack of open events; an event nested in the top goes one row deeper. An event that
        // starts inside but ends outside its parent still goes deeper, so rows never overlap.
        std::vector<TimeNs> openEnds;
        for (std::size_t i = 0; i < n; ++i) {
            while (!openEnds.empty() && openEnds.back() <= st(i))
                openEnds.pop_back();
            if (openEnds.size() >= kMaxRows)
                ++m_overflowEvents;
            const std::size_t depth = std::min<std::size_t>(openEnds.size(), kMaxRows - 1);
            rows[i] = std::uint16_t(depth);
            rowCount = std::max(rowCount, depth + 1);
            openEnds.push_back(effectiveEnd(st(i), en(i)));
        }
    } else {
        // First fit, the lowest row whose last event ended by this start, in O(n log n): busy rows
        // wait in a min-heap by end; rows free at this start move to a min-heap of indices. Starts
        // ascend, so a row once free stays free until it is given an event.
        using Busy = std::pair<TimeNs, std::uint32_t>; // (end of the row's last event, row)
        std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
        std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> freeRows;
        std::vector<TimeNs> rowEnd;
        for (std::size_t i = 0; i < n; ++i) {
            while (!busy.empty() && busy.top().first <= st(i)) {
                const auto [end, r] = busy.top();
                busy.pop();
                if (rowEnd[r] == end) // else a stale entry of the overflow row
                    freeRows.push(r);
            }
            std::uint32_t r;
            if (!freeRows.empty()) {
                r = freeRows.top();
                freeRows.pop();
            } else if (rowEnd.size() < kMaxRows) {
                r = std::uint32_t(rowEnd.size());
                rowEnd.push_back(std::numeric_limits<TimeNs>::min());
            } else {
                r = kMaxRows - 1; // every row busy: the last row takes it, overlapping
                ++m_overflowEvents;
            }
            rowEnd[r] = std::max(rowEnd[r], effectiveEnd(st(i), en(i)));
            busy.emplace(rowEnd[r], r);
            rows[i] = std::uint16_t(r);
        }
        rowCount = std::max<std::size_t>(1, rowEnd.size());
    }
    m_rowCount = std::uint16_t(rowCount);
    m_rowIdx.clear();
    m_lastRowMaxEnd.clear();
    if (rowCount > 1) {
        // Only the per-row index lists are kept; row(i) searches them.
        m_rowIdx.resize(rowCount);
        std::vector<std::uint32_t> counts(rowCount, 0);
        for (auto r : rows)
            ++counts[r];
        for (std::size_t r = 0; r < rowCount; ++r)
            m_rowIdx[r].reserve(counts[r]);
        for (std::uint32_t i = 0; i < n; ++i)
            m_rowIdx[rows[i]].push_back(i);
    }
    if (m_overflowEvents > 0 && !m_rowIdx.empty()) {
        const auto& last = m_rowIdx.back();
        m_lastRowMaxEnd.resize(last.size());
        TimeNs maxEnd = std::numeric_limits<TimeNs>::min();
        for (std::size_t k = 0; k < last.size(); ++k) {
            maxEnd = std::max(maxEnd, effectiveEnd(st(last[k]), en(last[k])));
            m_lastRowMaxEnd[k] = maxEnd;
        }
    }
}

std::size_t Lane::memoryBytes() const {
    std::size_t bytes =
        m_wideStart.capacity() * sizeof(TimeNs) + m_startBase.capacity() * sizeof(TimeNs) +
        m_startOffset.capacity() * sizeof(std::uint32_t) +
        m_farStarts.capacity() * sizeof(m_farStarts[0]) +
        m_duration.capacity() * sizeof(std::uint32_t) +
        m_longEnds.capacity() * sizeof(m_longEnds[0]) + m_name.capacity() * sizeof(StringId) +
        m_nameIndex.capacity() * sizeof(std::uint16_t) + m_nameDict.capacity() * sizeof(StringId) +
        m_payload.capacity() * sizeof(std::uint32_t) + m_lastRowMaxEnd.capacity() * sizeof(TimeNs) +
        m_index.memoryBytes();
    for (const auto& r : m_rowIdx)
        bytes += r.capacity() * sizeof(std::uint32_t);
    return bytes;
}

} // namespace strobe
