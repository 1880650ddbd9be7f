// SPDX-License-Identifier: MIT
#include "capture/driverfilter.h"

#include <algorithm>

namespace strobe::capture {

namespace {

bool inside(const nsys::ApiCallRow& call, std::int64_t start, std::int64_t end) {
    return call.start >= start && call.end <= end;
}

} // namespace

DriverCallFilter::Nested DriverCallFilter::nestedIn(const nsys::ApiCallRow& call,
                                                    const Span& span) {
    return {call.correlationId, span.correlation, call.name.rfind("cuMemset", 0) == 0};
}

void DriverCallFilter::addRuntime(const nsys::ApiCallRow& call, Output* out) {
    ThreadState& t = m_threads[call.tid];
    std::deque<nsys::ApiCallRow> later;
    for (auto& waiting : t.waiting) {
        m_nameBytes -= std::min(m_nameBytes, waiting.name.capacity());
        if (inside(waiting, call.start, call.end))
            out->nested.push_back(nestedIn(waiting, {call.start, call.end, call.correlationId}));
        else if (waiting.start >= call.end)
            later.push_back(std::move(waiting)); // after this call: a later one may hold it
        else
            out->direct.push_back(std::move(waiting));
    }
    m_pending -= t.waiting.size() - later.size();
    for (const auto& w : later)
        m_nameBytes += w.name.capacity();
    t.waiting = std::move(later);
    t.recent[t.next] = {call.start, call.end, call.correlationId};
    t.next = (t.next + 1) % t.recent.size();
}

void DriverCallFilter::addDriver(nsys::ApiCallRow call, Output* out) {
    ThreadState& t = m_threads[call.tid];
    for (const Span& span : t.recent) {
        if (span.end >= span.start && inside(call, span.start, span.end)) {
            out->nested.push_back(nestedIn(call, span));
            return;
        }
    }
    m_nameBytes += call.name.capacity();
    t.waiting.push_back(std::move(call));
    m_peakPending = std::max(m_peakPending, ++m_pending);
    if (t.waiting.size() > kMaxPendingPerThread) {
        m_nameBytes -= std::min(m_nameBytes, t.waiting.front().name.capacity());
        out->direct.push_back(std::move(t.waiting.front()));
        t.waiting.pop_front();
        --m_pending;
    }
}

void DriverCallFilter::drain(Output* out) {
    for (auto& [tid, t] : m_threads) {
        for (auto& waiting : t.waiting)
            out->direct.push_back(std::move(waiting));
        t.waiting.clear();
    }
    m_pending = 0;
    m_nameBytes = 0;
}

std::size_t DriverCallFilter::heldBytes() const {
    return m_pending * sizeof(nsys::ApiCallRow) + m_nameBytes +
           m_threads.size() * (sizeof(ThreadState) + 2 * sizeof(void*));
}

} // namespace strobe::capture
