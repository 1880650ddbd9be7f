// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strobe {

// The CUDA API calls of a trace by (pid, correlation id), for joining GPU work to the call that
// launched it while a trace is built. nsys makes correlation ids unique per process and they
// are nearly dense, so each process's ids index a table directly (4 bytes per id from its
// smallest to its largest); a process whose ids are sparse (spanning more than twice its calls
// plus 16, as a hostile file's may) gets a sorted list instead, so no process costs more than
// 8 bytes per call plus 64. A hash map of 3.3M calls cost ~130 MB at the end of a 10M-event load,
// above the staging's own peak; the tables cost ~13 MB.
//
// Built in two passes over the same calls: plan() each, then add() each, then find().
class CorrelationIndex {
public:
    void plan(std::uint32_t pid, std::uint32_t correlationId);
    // The first call added for a (pid, correlation id) wins, as the builder's lane order wants.
    void add(std::uint32_t pid, std::uint32_t correlationId, std::uint32_t call);
    // Sorts the sparse lists; before the first find().
    void freeze();
    std::optional<std::uint32_t> find(std::uint32_t pid, std::uint32_t correlationId) const;
    std::size_t memoryBytes() const;

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFF; // an empty slot of a direct table
    struct Process {
        std::uint32_t minId = 0xFFFFFFFF;
        std::uint32_t maxId = 0;
        std::uint64_t calls = 0;
        bool direct = false;
        std::vector<std::uint32_t> callOfId;                      // direct: call per id
        std::vector<std::pair<std::uint32_t, std::uint32_t>> ids; // sparse: (id, call)
    };
    Process* prepared(std::uint32_t pid);
    std::unordered_map<std::uint32_t, Process> m_processes;
    bool m_sized = false;
};

} // namespace strobe
