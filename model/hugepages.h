// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace strobe {

// Backing malloc's heap with transparent huge pages: a 10M-event load touches about a gigabyte
// of fresh heap in 4 KiB pages (staging, then the frozen lanes and records), and under a
// hypervisor each first touch is a costly fault (docs/PERFORMANCE.md: 238,000 faults, 2.6 s of
// a 7.5 s load's CPU on the development VM; 44,000 and 1.4 s with huge pages, the load 1.9x
// faster). glibc does it with its `glibc.malloc.hugetlb=1` tunable (2.35 and later: madvise
// (MADV_HUGEPAGE) on what it maps), which it reads only at start-up, so the executables run
// themselves again once with it set (useHugePagesForMalloc, first thing in main()).

// The GLIBC_TUNABLES value to run again with, or nullopt when not to: `tunables` is the current
// value (nullopt: unset), `thpEnabled` the content of
// /sys/kernel/mm/transparent_hugepage/enabled (empty: unknown), `optOut` STROBE_HUGEPAGES=0.
// Only where the kernel gives huge pages to the regions that ask ("[madvise]": "[always]" gives
// them anyway, "[never]" not at all), and never over a hugetlb setting of the user's own.
std::optional<std::string> hugePageTunables(std::optional<std::string_view> tunables,
                                            std::string_view thpEnabled, bool optOut);

// When hugePageTunables says so, sets GLIBC_TUNABLES and replaces the process with
// /proc/self/exe run with the same `argv`; returns (changing nothing) when it does not or when
// the exec fails. The second run finds the tunable set and goes on. Call before any thread starts.
void useHugePagesForMalloc(char** argv);

} // namespace strobe
