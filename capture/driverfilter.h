// SPDX-License-Identifier: MIT
#pragma once

// Drops the driver calls the CUDA runtime makes on the program's behalf, as nsys does, while
// the records arrive, so that neither runtime spans nor driver calls pile up in memory.
//
// CUPTI writes an API record when the call returns, so on one thread a runtime call's record
// follows the records of the driver calls made inside it. A driver call therefore waits (per
// thread) until the next runtime record of its thread: inside that call it is dropped, before
// it it was made directly by the program and is kept. A thread that never calls the runtime
// keeps at most kMaxPendingPerThread calls waiting; older ones are then kept as direct.

#include "formats/nsys/writer/nsyswriter.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace strobe::capture {

class DriverCallFilter {
public:
    static constexpr std::size_t kMaxPendingPerThread = 4096;

    // A driver call dropped because runtime call `runtimeCorrelation` made it.
    struct Nested {
        std::uint32_t driverCorrelation = 0, runtimeCorrelation = 0;
        bool memset = false; // a cuMemset* call: its memset record carries the driver's id
    };
    struct Output {
        std::vector<nsys::ApiCallRow> direct; // driver calls to write
        std::vector<Nested> nested;
        void clear() {
            direct.clear();
            nested.clear();
        }
    };

    void addRuntime(const nsys::ApiCallRow& call, Output* out);
    void addDriver(nsys::ApiCallRow call, Output* out);
    // The capture ended: every call still waiting was made directly.
    void drain(Output* out);

    std::size_t pending() const { return m_pending; }
    std::size_t peakPending() const { return m_peakPending; }
    // Bytes held now (rows, names, per-thread state), for the recorder's peak-memory figure.
    std::size_t heldBytes() const;

private:
    struct Span {
        std::int64_t start = 0, end = -1;
        std::uint32_t correlation = 0;
    };
    struct ThreadState {
        std::deque<nsys::ApiCallRow> waiting;
        std::array<Span, 8> recent{}; // the last runtime calls, in case records come late
        std::size_t next = 0;
    };
    static Nested nestedIn(const nsys::ApiCallRow& call, const Span& span);

    std::unordered_map<std::uint32_t, ThreadState> m_threads;
    std::size_t m_pending = 0, m_peakPending = 0, m_nameBytes = 0;
};

} // namespace strobe::capture
