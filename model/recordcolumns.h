// SPDX-License-Identifier: MIT
#pragma once

// Building blocks of the Trace's slim record storage: a field that most records lack (a
// non-zero return value, an NVTX colour, a graph node id) costs nothing for the records without
// it, a yes/no costs one bit, and a table of records is read through a view that decodes each
// one on access, so the typed record structs stay the interface.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace strobe {

class TraceCodec; // formats/cache: stores and validates the columns as they are

// Values of a few records of a table, by record index: two sorted arrays, found by binary
// search. Built in any order, then frozen by finish().
template <typename T> class SparseColumn {
public:
    void set(std::uint32_t index, T value) {
        m_index.push_back(index);
        m_value.push_back(value);
    }
    // Sorts by index (the last value set wins for an index set twice) and trims the arrays.
    void finish() {
        if (!std::is_sorted(m_index.begin(), m_index.end())) {
            std::vector<std::uint32_t> order(m_index.size());
            for (std::uint32_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                             [&](auto a, auto b) { return m_index[a] < m_index[b]; });
            std::vector<std::uint32_t> index(order.size());
            std::vector<T> value(order.size());
            for (std::size_t k = 0; k < order.size(); ++k) {
                index[k] = m_index[order[k]];
                value[k] = m_value[order[k]];
            }
            m_index.swap(index);
            m_value.swap(value);
        }
        std::size_t out = 0;
        for (std::size_t k = 0; k < m_index.size(); ++k) {
            if (out > 0 && m_index[out - 1] == m_index[k])
                --out;
            m_index[out] = m_index[k];
            m_value[out] = m_value[k];
            ++out;
        }
        m_index.resize(out);
        m_value.resize(out);
        m_index.shrink_to_fit();
        m_value.shrink_to_fit();
    }
    std::optional<T> at(std::uint32_t index) const {
        const auto it = std::lower_bound(m_index.begin(), m_index.end(), index);
        if (it == m_index.end() || *it != index)
            return std::nullopt;
        return m_value[std::size_t(it - m_index.begin())];
    }
    std::size_t size() const { return m_index.size(); }
    // Calls fn(index, value) for each index in [first, last) that has a value, in index order:
    // one search, then a walk (a loop over a run of records costs no search per record).
    template <typename Fn> void forEachIn(std::uint32_t first, std::uint32_t last, Fn&& fn) const {
        auto it = std::lower_bound(m_index.begin(), m_index.end(), first);
        for (; it != m_index.end() && *it < last; ++it)
            fn(*it, m_value[std::size_t(it - m_index.begin())]);
    }
    std::size_t memoryBytes() const {
        return m_index.capacity() * sizeof(std::uint32_t) + m_value.capacity() * sizeof(T);
    }

private:
    friend class TraceCodec;
    std::vector<std::uint32_t> m_index;
    std::vector<T> m_value;
};

// One bit per record.
class BitColumn {
public:
    void resize(std::size_t n) { m_words.assign((n + 63) / 64, 0); }
    void set(std::size_t i) { m_words[i >> 6] |= std::uint64_t(1) << (i & 63); }
    bool test(std::size_t i) const {
        return i < m_words.size() * 64 && ((m_words[i >> 6] >> (i & 63)) & 1) != 0;
    }
    std::size_t memoryBytes() const { return m_words.capacity() * sizeof(std::uint64_t); }

private:
    friend class TraceCodec;
    std::vector<std::uint64_t> m_words;
};

// A read-only, random-access table of `Record`s decoded on access by `Owner::*Decode`; rows are
// values, so `const Record& r = view[i]` and range-for work as on a vector of records.
template <typename Owner, typename Record, Record (Owner::*Decode)(std::uint32_t) const>
class RecordView {
public:
    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Record;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Record;
        iterator() = default;
        iterator(const Owner* o, std::uint32_t i)
            : m_owner(o)
            , m_i(i) {}
        Record operator*() const { return (m_owner->*Decode)(m_i); }
        Record operator[](difference_type d) const { return *(*this + d); }
        iterator& operator++() { return ++m_i, *this; }
        iterator operator++(int) { return iterator(m_owner, m_i++); }
        iterator& operator--() { return --m_i, *this; }
        iterator operator--(int) { return iterator(m_owner, m_i--); }
        iterator& operator+=(difference_type d) { return m_i = std::uint32_t(m_i + d), *this; }
        iterator& operator-=(difference_type d) { return m_i = std::uint32_t(m_i - d), *this; }
        friend iterator operator+(iterator a, difference_type d) { return a += d; }
        friend iterator operator+(difference_type d, iterator a) { return a += d; }
        friend iterator operator-(iterator a, difference_type d) { return a -= d; }
        friend difference_type operator-(const iterator& a, const iterator& b) {
            return difference_type(a.m_i) - difference_type(b.m_i);
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.m_i == b.m_i; }
        friend auto operator<=>(const iterator& a, const iterator& b) { return a.m_i <=> b.m_i; }

    private:
        const Owner* m_owner = nullptr;
        std::uint32_t m_i = 0;
    };
    RecordView(const Owner& owner, std::size_t size)
        : m_owner(&owner)
        , m_size(std::uint32_t(size)) {}
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    Record operator[](std::size_t i) const { return (m_owner->*Decode)(std::uint32_t(i)); }
    iterator begin() const { return iterator(m_owner, 0); }
    iterator end() const { return iterator(m_owner, m_size); }

private:
    const Owner* m_owner;
    std::uint32_t m_size;
};

} // namespace strobe
