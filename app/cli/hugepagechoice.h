// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace strobe::cli {

// The smallest input for which strobe-cli backs malloc with huge pages (model/hugepages.h): a
// 256 MiB nsys export holds about 4.5M events. Below it the load takes a second or two and its
// page faults cost little, while each thread's heap rounds up to 2 MiB pages: on a 1M-event
// trace `info` peaked 8 MB (14%) higher with them, at the same speed (docs/PERFORMANCE.md).
inline constexpr std::uint64_t kHugePagesFromBytes = std::uint64_t(256) << 20;

// Whether the command line argv[1..argc) reads enough to run on huge pages: true unless one of
// its arguments names an existing regular file and every such file is under
// kHugePagesFromBytes. A folder (a job's ranks) keeps them, except the one `--cache DIR` names;
// `synth` keeps them too (it names the file it writes). Only stats the arguments.
bool hugePagesPayOff(int argc, const char* const* argv);

} // namespace strobe::cli
