// SPDX-License-Identifier: MIT
#pragma once

// The one checked macro every CUPTI and CUDA driver call in capture/ goes through: on failure it
// logs the call, its result, file and line to stderr and evaluates to false.

#include <cuda.h>
#include <cupti.h>

namespace strobe::capture {

bool checkResult(CUptiResult result, const char* call, const char* file, int line);
bool checkResult(CUresult result, const char* call, const char* file, int line);

} // namespace strobe::capture

#define STROBE_CHECK(call) ::strobe::capture::checkResult((call), #call, __FILE__, __LINE__)
