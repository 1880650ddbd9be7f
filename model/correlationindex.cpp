// SPDX-License-Identifier: MIT
#include "model/correlationindex.h"

#include <QtGlobal>
#include <algorithm>

namespace strobe {

void CorrelationIndex::plan(std::uint32_t pid, std::uint32_t correlationId) {
    Q_ASSERT(!m_sized); // every plan() before the first add()
    Process& p = m_processes[pid];
    p.minId = std::min(p.minId, correlationId);
    p.maxId = std::max(p.maxId, correlationId);
    ++p.calls;
}

CorrelationIndex::Process* CorrelationIndex::prepared(std::uint32_t pid) {
    if (!m_sized) {
        // Direct when the table holds at most two slots per call, plus a few.
        for (auto& [id, p] : m_processes) {
            const std::uint64_t span = std::uint64_t(p.maxId) - p.minId + 1;
            p.direct = span <= 2 * p.calls + 16;
            if (p.direct)
                p.callOfId.assign(std::size_t(span), kNone);
            else
                p.ids.reserve(p.calls);
        }
        m_sized = true;
    }
    const auto it = m_processes.find(pid);
    return it == m_processes.end() ? nullptr : &it->second;
}

void CorrelationIndex::add(std::uint32_t pid, std::uint32_t correlationId, std::uint32_t call) {
    Process* p = prepared(pid);
    Q_ASSERT(p && correlationId >= p->minId && correlationId <= p->maxId); // as planned
    if (!p || call == kNone) // not planned, or a call index no table can hold
        return;
    if (!p->direct) {
        p->ids.emplace_back(correlationId, call);
        return;
    }
    const std::uint64_t slot = std::uint64_t(correlationId) - p->minId;
    if (correlationId >= p->minId && slot < p->callOfId.size() && p->callOfId[slot] == kNone)
        p->callOfId[slot] = call;
}

void CorrelationIndex::freeze() {
    prepared(0);
    for (auto& [id, p] : m_processes) {
        if (p.direct)
            continue;
        // Stable: among equal ids the first added stays first, and unique keeps it.
        std::stable_sort(p.ids.begin(), p.ids.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        p.ids.erase(std::unique(p.ids.begin(), p.ids.end(),
                                [](const auto& a, const auto& b) { return a.first == b.first; }),
                    p.ids.end());
        p.ids.shrink_to_fit();
    }
}

std::optional<std::uint32_t> CorrelationIndex::find(std::uint32_t pid,
                                                    std::uint32_t correlationId) const {
    const auto it = m_processes.find(pid);
    if (it == m_processes.end())
        return std::nullopt;
    const Process& p = it->second;
    if (p.direct) {
        const std::uint64_t slot = std::uint64_t(correlationId) - p.minId;
        if (correlationId < p.minId || slot >= p.callOfId.size() || p.callOfId[slot] == kNone)
            return std::nullopt;
        return p.callOfId[slot];
    }
    const auto at = std::lower_bound(p.ids.begin(), p.ids.end(), correlationId,
                                     [](const auto& e, std::uint32_t id) { return e.first < id; });
    if (at == p.ids.end() || at->first != correlationId)
        return std::nullopt;
    return at->second;
}

std::size_t CorrelationIndex::memoryBytes() const {
    std::size_t bytes = 0;
    for (const auto& [id, p] : m_processes)
        bytes +=
            p.callOfId.capacity() * sizeof(std::uint32_t) + p.ids.capacity() * sizeof(p.ids[0]);
    return bytes;
}

} // namespace strobe
