// SPDX-License-Identifier: MIT
#pragma once

// One rank of a distributed job, reduced to what the job view's collapsed rows, its tables and
// the collective matching need: a few hundred kB where the trace takes GBs, so that 1,024 ranks
// open in one process and each summary can be computed on another host
// (`strobe-cli job summarize`). The definitions are in docs/JOBS.md.

#include "model/kernelclass.h"
#include "model/trace.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace strobe {

// Where a rank's number came from, most trusted first.
enum class RankSource : std::uint8_t {
    Recorded, // Kineto distributedInfo (nsys: the one process of a single-rank report)
    FileName, // "rank-3", "rank_3", "_3." in the file's name
    Order,    // position among the job's files or the report's processes: a warning says so
};
// "recorded", "file-name", "order".
QString rankSourceKey(RankSource s);
std::optional<RankSource> rankSourceFromKey(QStringView key);

// A GpuBreakdown's headline numbers (model/analysis/breakdown.h defines them), in ns.
struct RankBreakdown {
    TimeNs compute = 0;
    TimeNs communication = 0;
    TimeNs exposedCommunication = 0;
    TimeNs memory = 0;
    TimeNs idle = 0;
    TimeNs span = 0;
    // Share of communication hidden under compute, 0..100; 0 without communication.
    double overlapPercent() const;
    friend bool operator==(const RankBreakdown&, const RankBreakdown&) = default;
};

struct RankStep {
    std::uint64_t number = 0; // N of ProfilerStep#N
    TimeRange host;           // the range on the CPU, the rank's own clock
    RankBreakdown breakdown;  // the rank's GPU over `host`, as `strobe-cli breakdown --range`
    friend bool operator==(const RankStep&, const RankStep&) = default;
};

// One NCCL kernel. Its kind and process group are indices into its RankSummary's name lists
// (a rank has hundreds of thousands of calls and a handful of names): 56 bytes a call.
struct RankCollective {
    std::uint32_t kind = 0; // RankSummary::collectiveKinds: "AllReduce", from the kernel's name
    std::optional<std::uint32_t> processGroup; // RankSummary::processGroups, when recorded
    std::uint32_t streamOrdinal = 0; // the rank's collective streams numbered by first use
    std::uint32_t order = 0;         // position among the collectives of its stream
    TimeRange gpu;                   // the kernel, the rank's own clock
    std::optional<std::uint64_t> bytes;
    friend bool operator==(const RankCollective&, const RankCollective&) = default;
};

struct RankSummary {
    QString file;                     // the trace it was computed from
    std::optional<std::uint32_t> pid; // the process, when one report holds several ranks
    std::uint32_t rank = 0;
    RankSource rankSource = RankSource::Order;
    std::optional<std::uint32_t> worldSize;
    QString backend; // "nccl", "gloo"; empty when not recorded
    QString format;  // TraceMetadata::format
    std::optional<std::uint32_t> deviceId;
    QString gpu; // "GPU 3 (NVIDIA H100 80GB HBM3)"
    // The host the rank ran on, where recorded (hostFromFileName); empty otherwise.
    QString host;
    // The clock's origin: Kineto baseTimeNanoseconds, nsys TARGET_INFO_SESSION_START_TIME.
    std::optional<std::int64_t> clockOriginNs;
    TimeRange gpuSpan;   // the GPU's first start to last end (the rank's own clock)
    RankBreakdown whole; // the rank's GPU over its own span
    // HTA's window: the GPU work launched before the last ProfilerStep starts (docs/JOBS.md);
    // unset with fewer than two ProfilerSteps.
    std::optional<RankBreakdown> htaWindow;
    std::vector<RankStep> steps;             // by start
    std::vector<RankCollective> collectives; // by start
    // The names RankCollective::kind and ::processGroup refer to, each once, non-empty.
    QStringList collectiveKinds;
    QStringList processGroups;
    // GPU busy time (the union of its work) in kUtilisationBuckets equal parts of `gpuSpan`
    // (bucket i covers [gpuSpan.start + i*d/n, gpuSpan.start + (i+1)*d/n), d its duration);
    // empty without GPU work.
    std::vector<TimeNs> busy;
    QStringList warnings; // sentences, from the trace and from summarising it

    // The call's kind and process group by name; an index past its list (a broken invariant)
    // reads as the empty name.
    const QString& kindOf(const RankCollective& c) const;
    std::optional<QString> processGroupOf(const RankCollective& c) const;
    // The index of `name` in collectiveKinds (processGroups), appended when new. Linear in the
    // list: for building summaries, whose lists hold a few names.
    std::uint32_t kindIndex(const QString& name);
    std::uint32_t processGroupIndex(const QString& name);

    friend bool operator==(const RankSummary&, const RankSummary&) = default;
};

inline constexpr int kUtilisationBuckets = 512;

// The collective kind of an NCCL/RCCL kernel name ("ncclDevKernel_AllReduce_Sum_f32_RING_LL",
// "ncclKernel_AllReduce_RING_LL_Sum_float(...)" give "AllReduce"); nullopt for other kernels.
std::optional<QString> collectiveKindOf(const QString& kernelName);

// The host in tensorboard_trace_handler's file name, HOST_PID.TIMESTAMP.pt.trace.json[.gz]
// ("node-a_1234.1700000000000000000.pt.trace.json.gz" gives "node-a"); empty for other names.
QString hostFromFileName(const QString& path);

// The rank number a file's name carries ("rank-3.json.gz", "trace_rank_3", "worker_3.pt...");
// nullopt when it carries none.
std::optional<std::uint32_t> rankFromFileName(const QString& path);

// One summary per rank the trace holds: one for a Kineto trace or a single-process report, one
// per process with GPU work for an nsys report of several (numbered by their first GPU, with a
// warning). O(n log n) in the trace's events.
std::vector<RankSummary> summarizeTrace(const Trace& trace, const KernelClassTable& table);

} // namespace strobe
