// SPDX-License-Identifier: MIT
#pragma once

// Labels of the CUDA/CUPTI enumerations the nsys export stores as integers. 2.x exports have no
// ENUM_* tables and the values have been stable since, so Strobe carries its own copy.

#include "model/records.h"

#include <QString>

namespace strobe {

QString memcpyKindLabel(MemcpyKind kind);         // "Host-to-Device"
QString memcpyKindShort(MemcpyKind kind);         // "HtoD"
QString memoryKindLabel(MemoryKind kind);         // ENUM_CUDA_MEM_KIND: "Pageable", "Pinned"...
QString syncTypeLabel(std::uint8_t type);         // ENUM_CUPTI_SYNC_TYPE
QString launchTypeLabel(std::uint8_t type);       // ENUM_CUDA_KERNEL_LAUNCH_TYPE
QString cacheConfigLabel(std::uint8_t config);    // ENUM_CUDA_FUNC_CACHE_CONFIG
QString sharedMemLimitLabel(std::uint8_t config); // ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG
QString migrationCauseLabel(std::uint8_t cause);  // ENUM_CUDA_UNIF_MEM_MIGRATION
QString streamFlagLabel(std::uint8_t flag);       // ENUM_CUPTI_STREAM_TYPE

} // namespace strobe
