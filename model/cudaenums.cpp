// SPDX-License-Identifier: MIT
#include "model/cudaenums.h"

#include <array>

namespace strobe {

namespace {
template <std::size_t N>
QString pick(const std::array<const char*, N>& labels, std::size_t i, const char* fallback) {
    return QString::fromLatin1(i < N ? labels[i] : fallback);
}
} // namespace

QString memcpyKindLabel(MemcpyKind kind) {
    static constexpr std::array<const char*, 14> labels{"Unknown",
                                                        "Host-to-Device",
                                                        "Device-to-Host",
                                                        "Host-to-Array",
                                                        "Array-to-Host",
                                                        "Array-to-Array",
                                                        "Array-to-Device",
                                                        "Device-to-Array",
                                                        "Device-to-Device",
                                                        "Host-to-Host",
                                                        "Peer-to-Peer",
                                                        "Unified Host-to-Device",
                                                        "Unified Device-to-Host",
                                                        "Unified Device-to-Device"};
    return pick(labels, std::size_t(kind), "Unknown");
}

QString memcpyKindShort(MemcpyKind kind) {
    static constexpr std::array<const char*, 14> labels{
        "?",    "HtoD", "DtoH", "HtoA", "AtoH",    "AtoA",    "AtoD",
        "DtoA", "DtoD", "HtoH", "PtoP", "UM HtoD", "UM DtoH", "UM DtoD"};
    return pick(labels, std::size_t(kind), "?");
}

QString memoryKindLabel(MemoryKind kind) {
    static constexpr std::array<const char*, 8> labels{"Pageable",       "Pinned",  "Device",
                                                       "Array",          "Managed", "Device Static",
                                                       "Managed Static", "Unknown"};
    return pick(labels, std::size_t(kind), "Unknown");
}

QString syncTypeLabel(std::uint8_t type) {
    static constexpr std::array<const char*, 5> labels{"Unknown", "Event sync", "Stream wait event",
                                                       "Stream sync", "Context sync"};
    return pick(labels, type, "Unknown");
}

QString launchTypeLabel(std::uint8_t type) {
    static constexpr std::array<const char*, 4> labels{
        "Unknown", "Regular", "Cooperative single-device", "Cooperative multi-device"};
    return pick(labels, type, "Unknown");
}

QString cacheConfigLabel(std::uint8_t config) {
    static constexpr std::array<const char*, 4> labels{"No preference", "Prefer shared",
                                                       "Prefer L1", "Prefer equal"};
    return pick(labels, config, "Unknown");
}

QString sharedMemLimitLabel(std::uint8_t config) {
    static constexpr std::array<const char*, 2> labels{"Default", "Opt-in"};
    return pick(labels, config, "Unknown");
}

QString migrationCauseLabel(std::uint8_t cause) {
    static constexpr std::array<const char*, 6> labels{
        "Unknown",  "User prefetch",  "Page fault (coherence)", "Speculative prefetch",
        "Eviction", "Access counters"};
    return pick(labels, cause, "Unknown");
}

QString streamFlagLabel(std::uint8_t flag) {
    static constexpr std::array<const char*, 4> labels{"Unknown", "Default", "Non-blocking",
                                                       "Null stream"};
    return pick(labels, flag, "Unknown");
}

} // namespace strobe
