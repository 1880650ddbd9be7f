// SPDX-License-Identifier: MIT
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace strobe {

// Hands the heap's free pages back to the kernel (glibc's malloc_trim; elsewhere nothing). A
// load frees its staging in pieces, and pieces under the mmap threshold (formats/open.cpp: 4 MiB)
// leave holes in the heap that stay resident and cannot serve the next big array, which is
// mapped on its own: at 10M events 50 MB of them sat under the kernel table as it was built,
// the load's peak. It walks the free lists: under a millisecond there.
inline void returnFreedHeapPages() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace strobe
