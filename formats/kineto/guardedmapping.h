// SPDX-License-Identifier: MIT
#pragma once

// A trace file mapped instead of read: no copy into fresh memory, which for a gigabyte of JSON
// costs a third of simdjson's whole pass in copying and page faults. A plain mapping of a file
// that another program shrinks meanwhile would kill the viewer with SIGBUS on the next read of a
// page the file no longer backs; this one reads such a page as zeros instead and says so.

#include <atomic>
#include <cstddef>
#include <memory>

namespace strobe::kineto {

// A read-only private mapping of the first `size` bytes of a file, followed by at least
// `padding` readable zero bytes. While it exists, a SIGBUS on one of its pages (the file was
// truncated) maps an empty page there, so the access reads zeros, and damaged() turns true; a
// SIGBUS anywhere else goes to whatever handled SIGBUS before. Unix only (elsewhere map()
// returns nothing and the caller reads the file).
class GuardedMapping {
public:
    // Maps the open file `fd`; nullptr when it cannot be mapped (not a regular file, a file
    // system without mmap, already as many guarded mappings as there are slots for them).
    static std::unique_ptr<GuardedMapping> map(int fd, std::size_t size, std::size_t padding);
    ~GuardedMapping(); // stops guarding, then unmaps
    GuardedMapping(const GuardedMapping&) = delete;
    GuardedMapping& operator=(const GuardedMapping&) = delete;

    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_capacity; } // readable bytes from data()
    // True once a page was found no longer backed by the file: what was read is not the file.
    bool damaged() const;

    // Reads the file's pages in ahead of the parser, 16 MB at a time from both ends on two
    // threads (the calling one and a helper). Returns 0, -1 when `cancel` became true, or the
    // errno of a failed read (EFAULT: the file is shorter than it was).
    int populate(const std::atomic<bool>* cancel);

private:
    GuardedMapping() = default;

    char* m_data = nullptr;
    std::size_t m_size = 0, m_capacity = 0;
    int m_slot = -1;
};

} // namespace strobe::kineto
