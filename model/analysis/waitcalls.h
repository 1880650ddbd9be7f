// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace strobe {

// True when `name` is an OS runtime call in which a thread blocks until something else happens
// (another thread, a timer, a file descriptor, a child process): pthread_cond_wait, futex, poll,
// read, nanosleep, ... The full list is in docs/GAPS.md (cause cpu-wait). Leading underscores and
// a "_time64" suffix are ignored ("__poll", "ppoll_time64"); the comparison is exact otherwise.
bool isOsWaitCall(std::string_view name);

} // namespace strobe
