// SPDX-License-Identifier: MIT
#include "capture/cudacheck.h"

#include <cstdio>

namespace strobe::capture {

bool checkResult(CUptiResult result, const char* call, const char* file, int line) {
    if (result == CUPTI_SUCCESS)
        return true;
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
        text = "unknown error";
    std::fprintf(stderr, "strobe-inject: %s failed with %d (%s) at %s:%d\n", call, int(result),
                 text, file, line);
    return false;
}

bool checkResult(CUresult result, const char* call, const char* file, int line) {
    if (result == CUDA_SUCCESS)
        return true;
    std::fprintf(stderr, "strobe-inject: %s failed with CUresult %d at %s:%d\n", call, int(result),
                 file, line);
    return false;
}

} // namespace strobe::capture
