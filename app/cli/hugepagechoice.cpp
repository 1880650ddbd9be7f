// SPDX-License-Identifier: MIT
#include "app/cli/hugepagechoice.h"

#include <string_view>
#include <sys/stat.h>
#include <utility>

namespace strobe::cli {

bool hugePagesPayOff(int argc, const char* const* argv) {
    if (argc < 2 || !argv)
        return true;
    if (std::string_view(argv[1]) == "synth")
        return true;
    bool sawFile = false;
    bool afterCache = false;
    for (int i = 1; i < argc; ++i) {
        if (!argv[i])
            continue;
        const bool cacheFolderMayFollow = std::exchange(afterCache, false);
        if (std::string_view(argv[i]) == "--cache") {
            afterCache = true;
            continue;
        }
        struct stat st {};
        if (::stat(argv[i], &st) != 0)
            continue; // an option, a count, a name that is not a file
        if (S_ISDIR(st.st_mode) && cacheFolderMayFollow)
            continue; // where the cache's entries go (a trace is never a folder), not an input
        if (S_ISDIR(st.st_mode))
            return true;
        if (!S_ISREG(st.st_mode))
            continue;
        if (std::uint64_t(st.st_size) >= kHugePagesFromBytes)
            return true;
        sawFile = true;
    }
    return !sawFile;
}

} // namespace strobe::cli
