// SPDX-License-Identifier: MIT
#include "model/analysis/gpuarchitecture.h"

#include "model/trace.h"

#include <QRegularExpression>
#include <QStringBuilder>
#include <algorithm>
#include <array>
#include <vector>

namespace strobe {

namespace {

constexpr std::uint32_t KiB = 1024;

// A row of the guide's table, the rest of ArchitectureLimits being the same on every listed
// architecture (64 K registers per SM, 255 per thread, 1024 threads per block, warps of 32;
// registers allocated per warp in units of 256, cuda_occupancy.h).
constexpr ArchitectureLimits row(std::uint32_t major, std::uint32_t minor, std::uint32_t warps,
                                 std::uint32_t blocks, std::uint32_t sharedPerSmKiB,
                                 std::uint32_t sharedOptinKiB, std::uint32_t registersPerBlock,
                                 std::uint32_t warpGranularity) {
    ArchitectureLimits a;
    a.cc = {major, minor};
    a.maxWarpsPerSm = warps;
    a.maxBlocksPerSm = blocks;
    a.registersPerSm = 64 * KiB;
    a.maxRegistersPerBlock = registersPerBlock;
    a.maxRegistersPerThread = 255;
    a.registerAllocationUnit = 256;
    a.warpAllocationGranularity = warpGranularity;
    a.sharedPerSm = sharedPerSmKiB * KiB;
    a.sharedPerBlock = 48 * KiB;
    a.sharedPerBlockOptin = sharedOptinKiB * KiB;
    // cudaOccSMemAllocationGranularity: 256 B up to 7.x, 128 B from 8.0; from 8.0 the driver
    // also reserves 1 KiB of shared memory per block (the guide's "Compute capabilities").
    a.sharedAllocationUnit = major >= 8 ? 128 : 256;
    a.sharedReservedPerBlock = major >= 8 ? 1 * KiB : 0;
    a.maxThreadsPerBlock = 1024;
    a.threadsPerWarp = 32;
    return a;
}

constexpr std::uint32_t K64 = 64 * KiB, K32 = 32 * KiB;

// CUDA C++ Programming Guide, "Compute capabilities": maximum resident warps and blocks per SM,
// shared memory per SM and the most per block (opt-in), registers per block; the register file
// sub-partitions (warp allocation granularity) from cuda_occupancy.h.
constexpr std::array kTable = {
    row(5, 0, 64, 32, 64, 48, K64, 4),    row(5, 2, 64, 32, 96, 48, K64, 4),
    row(5, 3, 64, 32, 64, 48, K32, 4),    row(6, 0, 64, 32, 64, 48, K64, 2),
    row(6, 1, 64, 32, 96, 48, K64, 4),    row(6, 2, 64, 32, 64, 48, K32, 4),
    row(7, 0, 64, 32, 96, 96, K64, 4),    row(7, 2, 64, 32, 96, 96, K64, 4),
    row(7, 5, 32, 16, 64, 64, K64, 4),    row(8, 0, 64, 32, 164, 163, K64, 4),
    row(8, 6, 48, 16, 100, 99, K64, 4),   row(8, 7, 48, 16, 164, 163, K64, 4),
    row(8, 9, 48, 24, 100, 99, K64, 4),   row(9, 0, 64, 32, 228, 227, K64, 4),
    row(10, 0, 64, 32, 228, 227, K64, 4), row(10, 3, 64, 32, 228, 227, K64, 4),
    row(11, 0, 48, 32, 228, 227, K64, 4), row(12, 0, 48, 32, 100, 99, K64, 4),
    row(12, 1, 48, 32, 100, 99, K64, 4),
};

// GPU product and chip names by compute capability: one alternation per row, whole words,
// case-insensitive, the more specific names first ("A100" before "A10").
struct NamePattern {
    ComputeCapability cc;
    const char* pattern;
};
constexpr NamePattern kNames[] = {
    {{12, 1}, R"(\bGB10\b|\bDGX Spark\b)"},
    {{12, 0}, R"(\bRTX 50[5-9]0|\bRTX PRO \d{4}\b.*\bBlackwell\b|\bGB20[2-7]\b)"},
    {{11, 0}, R"(\bThor\b)"},
    {{10, 3}, R"(\bG?B300\b)"},
    {{10, 0}, R"(\bG?B200\b|\bB100\b|\bGB10[02]\b)"},
    {{9, 0}, R"(\bH100\b|\bH200\b|\bH800\b|\bH20\b|\bGH100\b|\bGH200\b)"},
    {{8, 9},
     R"(\bL40S?\b|\bL4\b|\bL20\b|\bRTX 40[5-9]0|\bRTX \d{4} Ada\b|\bRTX 6000 Ada\b|\bAD10[2-7]\b)"},
    {{8, 7}, R"(\bOrin\b|\bGA10B\b)"},
    {{8, 0}, R"(\bA100\b|\bA800\b|\bA30\b|\bGA100\b)"},
    {{8, 6}, R"(\bA10G?\b|\bA40\b|\bA16\b|\bA2\b|\bRTX A[2-6]000\b|\bRTX 30[5-9]0|\bGA10[2-7]\b)"},
    {{7, 5},
     R"(\bT4\b|\bRTX 20[6-8]0|\bGTX 16[5-6]0|\bTITAN RTX\b|\bQuadro RTX [3-8]000\b|\bTU1(0[2-6]|1[67])\b)"},
    {{7, 2}, R"(\bXavier\b|\bGV10B\b)"},
    {{7, 0}, R"(\bV100\b|\bTITAN V\b|\bGV100\b)"},
    {{6, 2}, R"(\bTX2\b|\bGP10B\b)"},
    {{6, 0}, R"(\bP100\b|\bGP100\b)"},
    {{6, 1}, R"(\bP40\b|\bP4\b|\bGTX 10[5-8]0|\bTITAN Xp\b|\bGP10[2-8]\b)"},
    {{5, 3}, R"(\bJetson Nano\b|\bTX1\b|\bGM20B\b)"},
    {{5, 2}, R"(\bM60\b|\bM40\b|\bGTX 9[5-8]0|\bGTX TITAN X\b|\bGM20[04-6]\b)"},
    {{5, 0}, R"(\bGTX 750|\bGM10[78]\b)"},
};

const std::vector<std::pair<ComputeCapability, QRegularExpression>>& compiledNames() {
    static const auto compiled = [] {
        std::vector<std::pair<ComputeCapability, QRegularExpression>> out;
        for (const NamePattern& n : kNames)
            out.emplace_back(n.cc, QRegularExpression(QString::fromLatin1(n.pattern),
                                                      QRegularExpression::CaseInsensitiveOption));
        return out;
    }();
    return compiled;
}

// The trace's own limits are complete enough for an occupancy calculation.
bool hasTraceLimits(const GpuInfo& g) {
    return g.maxWarpsPerSm > 0 && g.maxRegistersPerSm > 0 && g.threadsPerWarp > 0 &&
           g.maxShmemPerSm > 0;
}

void applyTable(GpuInfo& g, const ArchitectureLimits& a) {
    g.computeMajor = a.cc.major;
    g.computeMinor = a.cc.minor;
    g.maxThreadsPerBlock = a.maxThreadsPerBlock;
    g.maxRegistersPerBlock = a.maxRegistersPerBlock;
    g.maxRegistersPerSm = a.registersPerSm;
    g.maxShmemPerBlock = a.sharedPerBlock;
    g.maxShmemPerBlockOptin = a.sharedPerBlockOptin;
    g.maxShmemPerSm = a.sharedPerSm;
    g.threadsPerWarp = a.threadsPerWarp;
    g.maxWarpsPerSm = a.maxWarpsPerSm;
    g.maxBlocksPerSm = a.maxBlocksPerSm;
}

} // namespace

std::span<const ArchitectureLimits> architectureTable() {
    return kTable;
}

const ArchitectureLimits* architectureLimits(ComputeCapability cc) {
    const auto it = std::find_if(kTable.begin(), kTable.end(),
                                 [&](const ArchitectureLimits& a) { return a.cc == cc; });
    return it == kTable.end() ? nullptr : &*it;
}

std::optional<ComputeCapability> computeCapabilityOfName(std::string_view name) {
    if (name.empty())
        return std::nullopt;
    const QString n = QString::fromUtf8(name.data(), qsizetype(name.size()));
    for (const auto& [cc, re] : compiledNames()) {
        if (re.match(n).hasMatch())
            return cc;
    }
    return std::nullopt;
}

QString gpuLimitsSourceKey(GpuLimitsSource source) {
    switch (source) {
    case GpuLimitsSource::Trace:
        return QStringLiteral("trace");
    case GpuLimitsSource::ArchitectureTable:
        return QStringLiteral("architecture-table");
    case GpuLimitsSource::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

GpuLimits resolveGpuLimits(const Trace& trace, const GpuInfo& gpu) {
    GpuLimits out{gpu, GpuLimitsSource::Trace, GpuLimitsBasis::Trace, {}, {}};
    if (hasTraceLimits(gpu))
        return out;
    auto fromTable = [&](ComputeCapability cc, GpuLimitsBasis basis) {
        const ArchitectureLimits* a = architectureLimits(cc);
        if (!a)
            return false;
        applyTable(out.gpu, *a);
        out.source = GpuLimitsSource::ArchitectureTable;
        out.basis = basis;
        out.capability = cc;
        return true;
    };
    const ComputeCapability recorded{gpu.computeMajor, gpu.computeMinor};
    if (gpu.computeMajor > 0) {
        if (fromTable(recorded, GpuLimitsBasis::RecordedCapability))
            return out;
        out.source = GpuLimitsSource::Unknown;
        out.basis = GpuLimitsBasis::CapabilityNotInTable;
        out.capability = recorded;
        return out;
    }
    for (const StringId id : {gpu.name, gpu.chipName}) {
        const std::string_view name = trace.strings().view(id);
        if (const auto cc = computeCapabilityOfName(name);
            cc && fromTable(*cc, GpuLimitsBasis::CapabilityOfName)) {
            out.name = QString::fromUtf8(name.data(), qsizetype(name.size()));
            return out;
        }
    }
    out.source = GpuLimitsSource::Unknown;
    const std::string_view name = trace.strings().view(gpu.name);
    out.basis = name.empty() ? GpuLimitsBasis::NothingRecorded : GpuLimitsBasis::NameNotInTable;
    out.name = QString::fromUtf8(name.data(), qsizetype(name.size()));
    return out;
}

GpuLimits resolveGpuLimits(const Trace& trace, std::uint32_t deviceId) {
    if (const GpuInfo* g = trace.gpuById(deviceId))
        return resolveGpuLimits(trace, *g);
    GpuInfo none;
    none.id = deviceId;
    return resolveGpuLimits(trace, none);
}

} // namespace strobe
