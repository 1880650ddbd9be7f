// SPDX-License-Identifier: MIT
#pragma once

#include "model/types.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace strobe {

// Implicit augmented interval tree over start-sorted intervals (after Heng Li's cgranges).
// The sorted array itself is the in-order layout of a complete binary tree, so there are no
// pointers; the only extra memory is one max-end per block of kBlock intervals (0.5 byte per
// interval), and building is O(n). Intervals are half-open; zero-length ones count as
// [start, start + 1) (see effectiveEnd). The index does not own the intervals: the caller passes
// the same source to build() and to every query, either two spans or any object with size(),
// start(i) and end(i) (a Lane's compressed storage).
class IntervalIndex {
public:
    static constexpr std::uint32_t kBlock = 16;

    // Adapts two spans to the source interface.
    struct Spans {
        std::span<const TimeNs> starts, ends;
        std::size_t size() const { return starts.size(); }
        TimeNs start(std::size_t i) const { return starts[i]; }
        TimeNs end(std::size_t i) const { return ends[i]; }
    };

    // `starts` must be sorted ascending; `ends` are unconstrained (end < start counts as a point).
    void build(std::span<const TimeNs> starts, std::span<const TimeNs> ends) {
        buildFrom(Spans{starts, ends});
    }
    template <typename Source> void buildFrom(const Source& src);

    // Calls fn(i) for every i with starts[i] < b and effectiveEnd(i) > a, in ascending i; an
    // empty window (b <= a) contains nothing.
    template <typename Fn>
    void forEachOverlapping(std::span<const TimeNs> starts, std::span<const TimeNs> ends, TimeNs a,
                            TimeNs b, Fn&& fn) const {
        forEachOverlappingIn(Spans{starts, ends}, a, b, std::forward<Fn>(fn));
    }
    template <typename Source, typename Fn>
    void forEachOverlappingIn(const Source& src, TimeNs a, TimeNs b, Fn&& fn) const;

    std::vector<std::uint32_t> overlapping(std::span<const TimeNs> starts,
                                           std::span<const TimeNs> ends, TimeNs a, TimeNs b) const;
    // Every i with starts[i] <= t < effectiveEnd(i), ascending.
    std::vector<std::uint32_t> stabbing(std::span<const TimeNs> starts,
                                        std::span<const TimeNs> ends, TimeNs t) const {
        return overlapping(starts, ends, t, t + 1);
    }

    std::size_t memoryBytes() const {
        return (m_blockMax.capacity() + m_max.capacity()) * sizeof(TimeNs);
    }

private:
    template <typename Source, typename Fn>
    void scanBlock(std::int64_t block, const Source& src, TimeNs a, TimeNs b, Fn& fn) const;
    void buildTree(); // from m_blockMax

    std::vector<TimeNs> m_blockMax; // max effective end inside each block
    std::vector<TimeNs> m_max;      // max effective end of each block's subtree
    int m_levels = -1;              // level of the root; -1 when empty
};

template <typename Source> void IntervalIndex::buildFrom(const Source& src) {
    const std::size_t count = src.size();
    const std::size_t n = (count + kBlock - 1) / kBlock;
    m_blockMax.assign(n, 0);
    for (std::size_t blk = 0; blk < n; ++blk) {
        TimeNs mx = std::numeric_limits<TimeNs>::min();
        const std::size_t last = std::min(count, (blk + 1) * kBlock);
        for (std::size_t i = blk * kBlock; i < last; ++i)
            mx = std::max(mx, effectiveEnd(src.start(i), src.end(i)));
        m_blockMax[blk] = mx;
    }
    buildTree();
}

template <typename Source, typename Fn>
void IntervalIndex::scanBlock(std::int64_t block, const Source& src, TimeNs a, TimeNs b,
                              Fn& fn) const {
    if (m_blockMax[std::size_t(block)] <= a)
        return;
    const std::size_t first = std::size_t(block) * kBlock;
    const std::size_t last = std::min<std::size_t>(src.size(), first + kBlock);
    for (std::size_t i = first; i < last; ++i) {
        const TimeNs s = src.start(i);
        if (s >= b)
            break;
        if (effectiveEnd(s, src.end(i)) > a)
            fn(std::uint32_t(i));
    }
}

template <typename Source, typename Fn>
void IntervalIndex::forEachOverlappingIn(const Source& src, TimeNs a, TimeNs b, Fn&& fn) const {
    if (m_levels < 0 || a >= b)
        return;
    const auto n = std::int64_t(m_max.size());
    auto blockStart = [&](std::int64_t blk) { return src.start(std::size_t(blk) * kBlock); };
    struct Frame {
        std::int64_t x;
        int k;
        bool leftDone;
    };
    Frame stack[64];
    int top = 0;
    stack[top++] = {(std::int64_t(1) << m_levels) - 1, m_levels, false};
    while (top > 0) {
        const Frame z = stack[--top];
        if (z.k <= 2) { // small subtree: scan its blocks in order
            const std::int64_t i0 = z.x >> z.k << z.k;
            const std::int64_t i1 = std::min(n, i0 + (std::int64_t(1) << (z.k + 1)) - 1);
            for (std::int64_t i = i0; i < i1 && blockStart(i) < b; ++i)
                scanBlock(i, src, a, b, fn);
        } else if (!z.leftDone) {
            const std::int64_t left = z.x - (std::int64_t(1) << (z.k - 1));
            stack[top++] = {z.x, z.k, true};
            if (left >= n || m_max[std::size_t(left)] > a)
                stack[top++] = {left, z.k - 1, false};
        } else if (z.x < n && blockStart(z.x) < b) {
            scanBlock(z.x, src, a, b, fn);
            stack[top++] = {z.x + (std::int64_t(1) << (z.k - 1)), z.k - 1, false};
        }
    }
}

} // namespace strobe
