// SPDX-License-Identifier: MIT
#pragma once

// Version rules of the CUDA side, as plain numbers so that they are tested without CUPTI or a
// driver. CUDA versions use cuDriverGetVersion's encoding (1000 * major + 10 * minor, 13000 for
// 13.0); CUPTI versions are cuptiGetVersion's (28 for CUDA 12.9 Update 1, 130001 for 13.0 U1).

#include <cstdint>
#include <optional>
#include <string>

namespace strobe::capture {

// The CUDA release a CUPTI API version ships with; none for 0 (unknown) or an unlisted one.
std::optional<int> cudaVersionOfCupti(std::uint32_t cuptiVersion);

// "13.0" for 13000.
std::string cudaVersionText(int cudaVersion);

// Why activity records of the loaded CUPTI (`runtime`) cannot be read by code built against
// `built`: their layouts differ between CUDA major releases. Empty when they match, or when the
// loaded version is unknown (0).
std::string cuptiLayoutProblem(std::uint32_t runtime, std::uint32_t built);

// Why CUPTI `cuptiVersion` may refuse to work with a driver for CUDA `driverVersion`: CUPTI
// needs a driver at least as new as its own CUDA release. Empty when fine or unknown.
std::string driverProblem(std::uint32_t cuptiVersion, int driverVersion);

} // namespace strobe::capture
