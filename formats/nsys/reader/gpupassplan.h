// SPDX-License-Identifier: MIT
#pragma once

// The sampled passes of the GPU picture (issue 45): a big GPU table is read in blocks of
// consecutive rowids, first one block in every `stride` (spread over the whole table, so over
// the whole time range: nsys writes its tables about in time order), then the blocks halfway
// between those read, and so on, halving the gap, until every block is read once.

#include "formats/nsys/reader/sqliterowstream.h"

#include <cstdint>
#include <vector>

namespace strobe::nsysload {

using RowidRange = SqliteRowStream::RowidRange;

// The least a block holds: a block is a range seek and a chunk handed between threads (a few
// microseconds each), and the first pass of a table of N rows reads N / (256 stride) blocks.
inline constexpr std::uint64_t kPassBlockRows = 256;
// The most blocks a table is cut into (wider blocks past that).
inline constexpr std::uint64_t kMaxPassBlocks = std::uint64_t(1) << 14;
// The first pass's stride: at least this, doubled while the first pass would read more than
// kFirstPassRows of the GPU tables' rows, up to kMaxPassStride.
inline constexpr std::uint32_t kMinPassStride = 16;
inline constexpr std::uint32_t kMaxPassStride = 256;
inline constexpr std::uint64_t kFirstPassRows = 250'000;
// The last partial picture holds one block in this many: a quarter (see nsysgpupasses.cpp).
inline constexpr std::uint32_t kLastPreviewStride = 4;

// The stride of the first pass for GPU tables of `rows` rows in all: a power of two.
inline std::uint32_t firstPassStride(std::uint64_t rows) {
    std::uint32_t stride = kMinPassStride;
    while (stride < kMaxPassStride && rows / stride > kFirstPassRows)
        stride *= 2;
    return stride;
}

// The number of passes for `stride` (a power of two): log2(stride) + 1. After pass p (from 0)
// one block in stride >> p has been read.
inline int passCount(std::uint32_t stride) {
    int n = 1;
    for (std::uint32_t s = stride; s > 1; s /= 2)
        ++n;
    return n;
}

// The pass that reads block `block` under `stride` (a power of two): 0 for the multiples of
// stride, then the odd multiples of stride/2, of stride/4, ..., the odd blocks last.
inline int passOfBlock(std::uint64_t block, std::uint32_t stride) {
    const std::uint64_t r = block % stride;
    if (r == 0)
        return 0;
    int lowZeros = 0;
    for (std::uint64_t v = r; (v & 1) == 0; v /= 2)
        ++lowZeros;
    return passCount(stride) - 1 - lowZeros;
}

// The rowid ranges that pass `pass` reads of a table whose rowids run from `first` to `last`
// (inclusive), in blocks of `blockRows`: rising, none shared with another pass, and all passes
// of a stride together cover [first, last] once.
inline std::vector<RowidRange> passRanges(std::int64_t first, std::int64_t last,
                                          std::uint64_t blockRows, std::uint32_t stride, int pass) {
    std::vector<RowidRange> out;
    if (last < first || blockRows == 0)
        return out;
    // Unsigned: the span of two int64 rowids may exceed int64's range.
    const std::uint64_t span = std::uint64_t(last) - std::uint64_t(first);
    const std::uint64_t blocks = span / blockRows + 1;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        if (passOfBlock(b, stride) != pass)
            continue;
        const std::uint64_t from = std::uint64_t(first) + b * blockRows;
        const std::int64_t to = b + 1 == blocks ? last : std::int64_t(from + blockRows - 1);
        out.push_back({std::int64_t(from), to});
    }
    return out;
}

// The block width for a table of rowids `first` to `last` read under `stride`: kPassBlockRows;
// less for a small table, so that its first pass still reads kMinFirstPassBlocks blocks spread
// over it (of at least kMinBlockRows rowids); more where it would be cut into more than
// kMaxPassBlocks.
inline constexpr std::uint64_t kMinBlockRows = 16;
inline constexpr std::uint64_t kMinFirstPassBlocks = 64;
inline std::uint64_t passBlockRows(std::int64_t first, std::int64_t last, std::uint32_t stride) {
    if (last < first)
        return kPassBlockRows;
    const std::uint64_t span = std::uint64_t(last) - std::uint64_t(first);
    const std::uint64_t spread = span / (std::uint64_t(stride) * kMinFirstPassBlocks) + 1;
    return std::max(std::min(kPassBlockRows, std::max(kMinBlockRows, spread)),
                    span / kMaxPassBlocks + 1);
}

} // namespace strobe::nsysload
