// SPDX-License-Identifier: MIT
#include "capture/cuptiversion.h"

namespace strobe::capture {

std::optional<int> cudaVersionOfCupti(std::uint32_t v) {
    if (v >= 130000) // xxyyzz: CUDA xx.yy, zz a CUPTI update
        return int(v / 10000) * 1000 + int(v / 100 % 100) * 10;
    switch (v) { // the table in cupti_version.h
    case 13:
        return 11000;
    case 14:
        return 11010;
    case 15:
        return 11020;
    case 16:
        return 11050;
    case 17:
        return 11060;
    case 18:
        return 11080;
    case 19:
        return 12000;
    case 20:
        return 12020;
    case 21:
        return 12030;
    case 22:
        return 12040;
    case 23:
        return 12050;
    case 24:
        return 12060;
    case 26:
        return 12080;
    case 27:
    case 28:
        return 12090;
    default:
        return std::nullopt;
    }
}

std::string cudaVersionText(int cudaVersion) {
    return std::to_string(cudaVersion / 1000) + "." + std::to_string(cudaVersion % 1000 / 10);
}

std::string cuptiLayoutProblem(std::uint32_t runtime, std::uint32_t built) {
    if (runtime == 0)
        return {};
    const auto runtimeCuda = cudaVersionOfCupti(runtime);
    const auto builtCuda = cudaVersionOfCupti(built);
    if (runtimeCuda && builtCuda && *runtimeCuda / 1000 == *builtCuda / 1000)
        return {};
    const std::string loaded = runtimeCuda ? "CUPTI from CUDA " + cudaVersionText(*runtimeCuda)
                                           : "CUPTI version " + std::to_string(runtime);
    const std::string expected =
        builtCuda ? "CUDA " + cudaVersionText(*builtCuda) : "CUPTI " + std::to_string(built);
    return "the loaded " + loaded + " writes records in another layout than the " + expected +
           " CUPTI strobe-inject was built for; put the matching libcupti first on "
           "LD_LIBRARY_PATH (or remove the other one), or rebuild strobe-capture against the "
           "loaded CUDA";
}

std::string driverProblem(std::uint32_t cuptiVersion, int driverVersion) {
    const auto needed = cudaVersionOfCupti(cuptiVersion);
    if (!needed || driverVersion <= 0 || driverVersion >= *needed)
        return {};
    return "the NVIDIA driver supports CUDA " + cudaVersionText(driverVersion) +
           ", but CUPTI is from CUDA " + cudaVersionText(*needed) +
           " and needs a driver for CUDA " + cudaVersionText(*needed) +
           " or newer; update the driver, or use a CUPTI (and strobe-capture build) no newer "
           "than CUDA " +
           cudaVersionText(driverVersion);
}

} // namespace strobe::capture
