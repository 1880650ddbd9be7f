// SPDX-License-Identifier: MIT
#include "model/intervalindex.h"

#include <algorithm>

namespace strobe {

void IntervalIndex::buildTree() {
    const std::size_t n = m_blockMax.size();
    m_max = m_blockMax;
    m_levels = -1;
    if (n == 0)
        return;
    // Leaves are the even indices; level k nodes have their k lowest bits set. `last` tracks the
    // max of the rightmost existing subtree, standing in for right children beyond the array.
    std::int64_t lastIndex = 0;
    TimeNs last = 0;
    for (std::size_t i = 0; i < n; i += 2) {
        lastIndex = std::int64_t(i);
        last = m_max[i];
    }
    int k = 1;
    for (; (std::size_t(1) << k) <= n; ++k) {
        const std::int64_t x = std::int64_t(1) << (k - 1);
        const std::int64_t i0 = (x << 1) - 1;
        const std::int64_t step = x << 2;
        for (std::int64_t i = i0; i < std::int64_t(n); i += step) {
            const TimeNs left = m_max[std::size_t(i - x)];
            const TimeNs right = i + x < std::int64_t(n) ? m_max[std::size_t(i + x)] : last;
            m_max[std::size_t(i)] = std::max({m_blockMax[std::size_t(i)], left, right});
        }
        // Up to the parent: a right child (bit k set) sits x above it, a left child x below.
        lastIndex = (lastIndex >> k & 1) ? lastIndex - x : lastIndex + x;
        if (lastIndex < std::int64_t(n) && m_max[std::size_t(lastIndex)] > last)
            last = m_max[std::size_t(lastIndex)];
    }
    m_levels = k - 1;
}

std::vector<std::uint32_t> IntervalIndex::overlapping(std::span<const TimeNs> starts,
                                                      std::span<const TimeNs> ends, TimeNs a,
                                                      TimeNs b) const {
    std::vector<std::uint32_t> out;
    forEachOverlapping(starts, ends, a, b, [&](std::uint32_t i) { out.push_back(i); });
    return out;
}

} // namespace strobe
