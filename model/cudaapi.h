// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <string_view>

// Rules about CUDA runtime and driver API names, in one place: how a name is shown, how it is
// matched, and which calls synchronise. The gap causes, the timeline colours, the detail pane,
// the tooltip and strobe-cli all ask here.
namespace strobe::cudaapi {

// The name shown to people, one rule everywhere (timeline, tooltip, detail pane, gap causes,
// strobe-cli): every trailing version suffix ("_v" plus one or more digits) is dropped,
// repeatedly ("cudaLaunchKernelExC_v11060" -> "cudaLaunchKernelExC", "cuMemcpyDtoH_v2" ->
// "cuMemcpyDtoH"); the per-thread suffixes "_ptsz" and "_ptds" stay, they mean something to the
// reader ("cudaStreamSynchronize_ptsz_v7000" -> "cudaStreamSynchronize_ptsz"). A name that is
// nothing but a suffix ("_v2") is kept whole.
QString displayName(const QString& name);

// The name used to match a call against the rules below: every trailing version suffix
// ("_v" plus digits) and per-thread default-stream suffix ("_ptsz", "_ptds") dropped, repeatedly
// ("cudaStreamSynchronize_ptsz_v7000" -> "cudaStreamSynchronize").
std::string_view baseName(std::string_view name);

// What a call does to the host thread and the GPU's order of work.
enum class SyncRole {
    None,
    // The host thread waits until GPU work finishes: cuda/cu {Device, Ctx, Thread, Stream,
    // Event}Synchronize, and every blocking copy (cudaMemcpy*, cuMemcpy* without "Async").
    // These are the calls that can explain a GPU gap as "sync".
    BlocksHost,
    // A stream waits for an event or a value; the host goes on (cudaStreamWaitEvent,
    // cuStreamWaitEvent, cuStreamWaitValue32/64, cudaStreamWaitValue...).
    OrdersGpu,
    // Asks whether work has finished without waiting (cudaEventQuery, cudaStreamQuery,
    // cuEventQuery, cuStreamQuery).
    Polls,
};

// The role of the call named `name` (any version suffix); None for every other name, including
// non-CUDA names such as OS runtime calls.
SyncRole syncRole(std::string_view name);

} // namespace strobe::cudaapi
