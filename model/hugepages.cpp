// SPDX-License-Identifier: MIT
#include "model/hugepages.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace strobe {

namespace {
constexpr std::string_view kTunable = "glibc.malloc.hugetlb";
}

std::optional<std::string> hugePageTunables(std::optional<std::string_view> tunables,
                                            std::string_view thpEnabled, bool optOut) {
    if (optOut || thpEnabled.find("[madvise]") == std::string_view::npos)
        return std::nullopt;
    if (tunables && tunables->find(kTunable) != std::string_view::npos)
        return std::nullopt; // already set: by the first run, or by the user
    std::string out = tunables && !tunables->empty() ? std::string(*tunables) + ':' : std::string();
    out += kTunable;
    out += "=1";
    return out;
}

void useHugePagesForMalloc(char** argv) {
#ifdef __linux__
    if (!argv || !argv[0])
        return;
    const char* optOut = std::getenv("STROBE_HUGEPAGES");
    const char* current = std::getenv("GLIBC_TUNABLES");
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string thp((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const auto want =
        hugePageTunables(current ? std::optional<std::string_view>(current) : std::nullopt, thp,
                         optOut && std::string_view(optOut) == "0");
    if (!want)
        return;
    const std::string before = current ? current : "";
    if (setenv("GLIBC_TUNABLES", want->c_str(), 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // Still here: the exec failed; go on as we were.
    if (current)
        setenv("GLIBC_TUNABLES", before.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}

} // namespace strobe
