// SPDX-License-Identifier: MIT
#pragma once

// Turns CUPTI activity records into nsys trace rows. Free of process state and of the driver:
// the CUPTI functions it calls come through CuptiFunctions, so tests feed it synthetic record
// buffers on machines without a GPU.

#include "capture/kernelnames.h"
#include "formats/nsys/writer/nsyswriter.h"

#include <cstdint>
#include <cupti.h>
#include <mutex>
#include <string>
#include <unordered_map>

namespace strobe::capture {

// Why a record was not turned into a row.
enum class SkippedRecord {
    ZeroStart,    // start == 0: CUPTI could not time it (e.g. no device memory for timestamps)
    InvertedTime, // end < start: an incomplete record handed back by a forced flush
};

// Where the rows go: the Recorder in libstrobe-inject, a collecting sink in tests. Times are
// absolute CLOCK_MONOTONIC nanoseconds.
class ActivitySink {
public:
    virtual ~ActivitySink() = default;
    virtual void addKernel(nsys::KernelRow row) = 0;
    virtual void addMemcpy(nsys::MemcpyRow row) = 0;
    virtual void addMemset(nsys::MemsetRow row) = 0;
    virtual void addApiCall(nsys::ApiCallRow row) = 0;
    virtual void addSync(nsys::SyncRow row) = 0; // deviceId is unknown (0) here
    virtual void addGpu(const nsys::GpuRow& row) = 0;
    virtual void noteContext(std::uint32_t contextId, std::uint32_t deviceId) = 0;
    virtual void noteSkipped(SkippedRecord why) = 0;
    virtual void noteDropped(std::uint64_t records) = 0; // CUPTI ran out of buffer space
};

// The CUPTI entry points the parser uses; the real ones by default.
struct CuptiFunctions {
    CUptiResult (*nextRecord)(uint8_t*, size_t, CUpti_Activity**) = cuptiActivityGetNextRecord;
    CUptiResult (*droppedRecords)(CUcontext, uint32_t, size_t*) = cuptiActivityGetNumDroppedRecords;
    CUptiResult (*callbackName)(CUpti_CallbackDomain, CUpti_CallbackId,
                                const char**) = cuptiGetCallbackName;
};

// CUpti_ActivityLaunchType (0 Regular) -> ENUM_CUDA_KERNEL_LAUNCH_TYPE (0 Unknown, 1 Regular).
std::uint8_t nsysLaunchType(std::uint8_t cuptiLaunchType);
// CUpti_ActivityMemoryKind (0 Unknown) -> ENUM_CUDA_MEM_KIND (0 Pageable, ..., 7 Unknown).
std::uint8_t nsysMemoryKind(std::uint32_t cuptiKind);

class ActivityParser {
public:
    explicit ActivityParser(ActivitySink& sink, CuptiFunctions cupti = {});

    // Added to every CUPTI timestamp: 0 when CUPTI uses our clock, else the measured offset.
    void setTimestampOffset(std::int64_t ns) { m_offset = ns; }

    // Hands every record of a completed buffer to handleRecord, then reports CUPTI's dropped
    // count for (context, stream). CUPTI_ERROR_MAX_LIMIT_REACHED ends the buffer, and so does
    // CUPTI_ERROR_INVALID_KIND (an incomplete record after a forced flush); other errors are
    // logged once. Returns the number of records read.
    std::size_t parseBuffer(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer,
                            std::size_t validSize);

    // One record; kinds the parser does not know are ignored.
    void handleRecord(const CUpti_Activity* record);

private:
    bool timed(std::uint64_t start, std::uint64_t end);
    std::int64_t ts(std::uint64_t cuptiNs) const { return std::int64_t(cuptiNs) + m_offset; }
    std::string apiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
    void kernel(const CUpti_Activity* record);
    void memcpy(const CUpti_Activity* record);
    void memset(const CUpti_Activity* record);
    void api(const CUpti_Activity* record);
    void sync(const CUpti_Activity* record);
    void device(const CUpti_Activity* record);

    ActivitySink& m_sink;
    CuptiFunctions m_cupti;
    std::int64_t m_offset = 0;
    std::mutex m_namesMutex; // buffers may complete on several threads at once
    std::unordered_map<std::uint64_t, std::string> m_apiNames;
    std::unordered_map<std::string, KernelNames> m_kernelNames;
};

} // namespace strobe::capture
