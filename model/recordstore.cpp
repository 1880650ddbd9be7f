// SPDX-License-Identifier: MIT
// TraceBuilder's last step: the staged records go into the Trace's slim tables (model/trace.h,
// "Record storage") and GPU work is joined to the API calls that launched it.
#include "model/tracebuilder.h"

#include "model/correlationindex.h"
#include "model/heappages.h"

#include <QStringBuilder>
#include <algorithm>
#include <tuple>

namespace strobe {

namespace {
template <typename T> void release(std::vector<T>& v) {
    std::vector<T>().swap(v);
}

// The values staged beside for some stage indices (pairs in rising index order), read mostly in
// rising order: each lookup gallops on from the last one, so a side vector as long as its table
// (a CUDA-graph workload's graph nodes) costs a few steps per record, not a binary search.
template <typename V> class StagedBeside {
public:
    explicit StagedBeside(const std::vector<std::pair<std::uint32_t, V>>& sparse)
        : m_v(sparse) {}
    // The value staged for `index`, or null.
    const V* at(std::uint32_t index) {
        if (m_v.empty())
            return nullptr;
        auto first = m_v.begin(), last = m_v.end();
        if (m_pos < m_v.size() && m_v[m_pos].first <= index) {
            first += std::ptrdiff_t(m_pos);
            std::size_t step = 1;
            while (step < std::size_t(last - first) && first[std::ptrdiff_t(step)].first < index)
                step *= 2;
            last = first + std::ptrdiff_t(std::min(step + 1, std::size_t(last - first)));
        }
        const auto it = std::lower_bound(
            first, last, index, [](const auto& e, std::uint32_t i) { return e.first < i; });
        m_pos = std::size_t(it - m_v.begin());
        return it != m_v.end() && it->first == index ? &it->second : nullptr;
    }

private:
    const std::vector<std::pair<std::uint32_t, V>>& m_v;
    std::size_t m_pos = 0;
};
} // namespace

// A family's records gathered in lane order; `fill(q, p, self)` moves staged record p to q.
template <typename Fill> void TraceBuilder::gather(LaneFamily family, Fill&& fill) {
    Trace& t = *m_trace;
    for (std::uint32_t li : t.m_familyLanes[std::size_t(family)]) {
        Lane& l = t.m_lanes[li];
        const std::uint32_t base = l.recordBase();
        for (std::uint32_t i = 0; i < l.size(); ++i)
            fill(base + i, l.payload(i), EventRef{li, i});
        l.setRecordBase(base);
    }
}

void TraceBuilder::storeRecords() {
    Trace& t = *m_trace;
    // Lanes of each family in lane order, each lane's records from its base on.
    std::array<std::uint32_t, kLaneFamilies> next{};
    for (auto& f : t.m_familyLanes)
        f.clear();
    for (std::uint32_t li = 0; li < t.m_lanes.size(); ++li) {
        Lane& l = t.m_lanes[li];
        const auto f = std::size_t(familyOf(l.kind()));
        t.m_familyLanes[f].push_back(li);
        l.m_recordBase = next[f];
        next[f] += l.size();
    }
    for (auto& f : t.m_familyLanes)
        f.shrink_to_fit();

    // The CPU ranges first: their staging is freed before the launches' tables and correlation
    // index are built beside theirs (the load's peak). Between the steps, the heap's holes that
    // the last one freed go back to the kernel (returnFreedHeapPages), as the next one's big
    // arrays are mapped on their own beside them.
    returnFreedHeapPages();
    storeCpuRanges();
    returnFreedHeapPages();
    std::uint64_t dangling = storeLaunches();
    // Without the API calls every correlation id dangles: that says nothing about the data.
    if (!t.m_meta.loadedParts.testFlag(TracePart::CudaApi))
        dangling = 0;
    warn(QStringLiteral("dangling-correlation"), dangling,
         QStringLiteral("%1 GPU operations carry a correlation id with no recorded API call."));
    t.m_kernelConfigs.shrink_to_fit();
}

std::uint64_t TraceBuilder::storeLaunches() {
    Trace& t = *m_trace;

    t.m_apiCalls.assign(m_stageApiCorrelation.size(), {});
    t.m_apiDriver.resize(m_stageApiCorrelation.size());
    StagedBeside returns(m_stageApiReturns);
    gather(LaneFamily::ApiCalls, [&](std::uint32_t q, std::uint32_t p, EventRef) {
        t.m_apiCalls[q].correlationId = m_stageApiCorrelation[p];
        if (m_stageApiDriver[p])
            t.m_apiDriver.set(q);
        if (const std::int64_t* value = returns.at(p))
            t.m_apiReturn.set(q, *value);
    });
    t.m_apiReturn.finish();
    release(m_stageApiCorrelation);
    release(m_stageApiDriver);
    release(m_stageApiReturns);
    returnFreedHeapPages();

    std::uint64_t dangling = joinGpuWorkToCalls();
    returnFreedHeapPages();
    storeKernels(dangling);
    return dangling;
}

std::uint64_t TraceBuilder::joinGpuWorkToCalls() {
    Trace& t = *m_trace;

    // API calls by (pid, correlation id), built once their staging is gone and freed before the
    // kernel table is built beside the kernels' staging (each of those moments was the load's
    // peak). nsys makes correlation ids unique per process; the first call in lane order wins
    // when a file repeats one.
    std::uint64_t dangling = 0;
    CorrelationIndex apiByCorrelation;
    auto forEachCall = [&](auto&& fn) {
        for (const std::uint32_t li : t.m_familyLanes[std::size_t(LaneFamily::ApiCalls)]) {
            const Lane& l = t.m_lanes[li];
            const std::uint32_t pid = t.m_threads[l.owner()].pid;
            for (std::uint32_t q = l.recordBase(); q < l.recordBase() + l.size(); ++q)
                fn(pid, t.m_apiCalls[q].correlationId, q);
        }
    };
    forEachCall([&](std::uint32_t pid, std::uint32_t id, std::uint32_t) {
        apiByCorrelation.plan(pid, id);
    });
    forEachCall([&](std::uint32_t pid, std::uint32_t id, std::uint32_t q) {
        apiByCorrelation.add(pid, id, q);
    });
    apiByCorrelation.freeze();

    // Each staged kernel's correlation id becomes the index of its call, where it has one.
    m_stageKernelLinked.assign(m_stageKernels.size(), false);
    for (const std::uint32_t li : t.m_familyLanes[std::size_t(LaneFamily::Kernels)]) {
        const Lane& l = t.m_lanes[li];
        const std::uint32_t pid = t.m_streams[l.owner()].pid;
        for (std::uint32_t i = 0; i < l.size(); ++i) {
            const std::uint32_t p = l.m_payload[i];
            StagedKernel& k = m_stageKernels[p];
            if (!m_stageKernelCorrelated[p] || k.correlationId == 0)
                continue;
            if (const auto call = apiByCorrelation.find(pid, k.correlationId)) {
                k.correlationId = *call;
                m_stageKernelLinked[p] = true;
            }
        }
    }

    // Links a GPU operation with a correlation id to its call; the call keeps its first (a
    // kernel, stored after these, takes a call's place from a copy or a set).
    auto join = [&](std::uint32_t pid, const std::optional<std::uint32_t>& corr, std::uint32_t tag,
                    std::uint32_t index, EventRef& api) {
        if (!corr || *corr == 0 || index > Trace::kGpuOpIndexMask)
            return;
        const std::optional<std::uint32_t> call = apiByCorrelation.find(pid, *corr);
        if (!call) {
            ++dangling;
            return;
        }
        api = t.refOfRecord(LaneFamily::ApiCalls, *call);
        std::uint32_t& op = t.m_apiCalls[*call].gpuOp;
        if (op == Trace::kNoGpuOp)
            op = (tag << 30) | index;
    };
    t.m_memcpys.resize(m_stageMemcpys.size());
    gather(LaneFamily::Memcpys, [&](std::uint32_t q, std::uint32_t p, EventRef self) {
        MemcpyRecord& m = t.m_memcpys[q] = m_stageMemcpys[p];
        m.self = self;
        join(m_memcpyPid[p], m.correlationId, Trace::kMemcpyOp, q, m.api);
    });
    release(m_stageMemcpys);
    release(m_memcpyPid);
    t.m_memsets.resize(m_stageMemsets.size());
    gather(LaneFamily::Memsets, [&](std::uint32_t q, std::uint32_t p, EventRef self) {
        MemsetRecord& m = t.m_memsets[q] = m_stageMemsets[p];
        m.self = self;
        join(m_memsetPid[p], m.correlationId, Trace::kMemsetOp, q, m.api);
    });
    release(m_stageMemsets);
    release(m_memsetPid);
    for (auto& s : t.m_syncs) {
        if (!s.correlationId)
            continue;
        if (const auto call = apiByCorrelation.find(s.pid, *s.correlationId))
            s.api = t.refOfRecord(LaneFamily::ApiCalls, *call);
    }
    std::sort(t.m_syncs.begin(), t.m_syncs.end(),
              [](const SyncRecord& a, const SyncRecord& b) { return a.start < b.start; });
    t.m_syncs.shrink_to_fit();
    return dangling;
}

void TraceBuilder::storeCpuRanges() {
    Trace& t = *m_trace;
    t.m_osrt.resize(m_stageOsrt.size());
    gather(LaneFamily::Osrt,
           [&](std::uint32_t q, std::uint32_t p, EventRef) { t.m_osrt[q] = m_stageOsrt[p]; });
    release(m_stageOsrt);

    t.m_cpuOpExternal.assign(m_stageCpuOps.size(), 0);
    t.m_cpuOpHasExternal.resize(m_stageCpuOps.size());
    gather(LaneFamily::CpuOps, [&](std::uint32_t q, std::uint32_t p, EventRef) {
        if (const auto& ext = m_stageCpuOps[p].externalId) {
            t.m_cpuOpExternal[q] = *ext;
            t.m_cpuOpHasExternal.set(q);
        }
        if (const StringId shapes = m_stageCpuOps[p].inputShapes; shapes != kNoString)
            t.m_cpuOpShapes.set(q, shapes);
    });
    release(m_stageCpuOps);
    t.m_cpuOpShapes.finish();

    t.m_nvtx.assign(m_stageNvtxFlags.size(), 0);
    StagedBeside categories(m_stageNvtxCategories);
    StagedBeside threads(m_stageNvtxThreads);
    StagedBeside endThreads(m_stageNvtxEndThreads);
    // A range's depth is its row: the rows of the lane being gathered, by lane index (empty for
    // a lane of one row).
    std::uint32_t depthLane = ~0u;
    std::vector<std::uint16_t> depth;
    gather(LaneFamily::Nvtx, [&](std::uint32_t q, std::uint32_t p, EventRef self) {
        const Lane& l = t.m_lanes[self.lane];
        if (self.lane != depthLane) {
            depthLane = self.lane;
            depth.clear();
            if (l.rowCount() > 1) {
                depth.resize(l.size(), 0);
                for (std::uint16_t r = 1; r < l.rowCount(); ++r) {
                    const RowView row = l.rowView(r);
                    for (std::uint32_t k = 0; k < row.size(); ++k)
                        depth[row.laneIndex(k)] = r;
                }
            }
        }
        const std::uint8_t flags = m_stageNvtxFlags[p];
        const std::uint32_t row = depth.empty() ? 0 : depth[self.index];
        t.m_nvtx[q] = row | std::uint32_t(flags & kNvtxStyleMask) << 16 |
                      std::uint32_t((flags & kNvtxHasEnd) != 0) << 18;
        if (flags & kNvtxHasColor)
            t.m_nvtxColor.set(q, m_stageNvtxColor[p]);
        if (const std::int32_t* category = categories.at(p))
            t.m_nvtxCategory.set(q, *category);
        if (const std::uint32_t* thread = threads.at(p)) // start/end ranges: a process's lane
            t.m_nvtxThread.set(q, *thread);
        if (const std::uint32_t* endThread = endThreads.at(p))
            t.m_nvtxEndThread.set(q, *endThread);
    });
    release(depth);
    release(m_stageNvtxFlags);
    release(m_stageNvtxColor);
    release(m_stageNvtxCategories);
    release(m_stageNvtxThreads);
    release(m_stageNvtxEndThreads);
    t.m_nvtxColor.finish();
    t.m_nvtxCategory.finish();
    t.m_nvtxThread.finish();
    t.m_nvtxEndThread.finish();
}

void TraceBuilder::storeKernels(std::uint64_t& dangling) {
    // Kernels in start order (ties by lane, then lane order): a merge of the start-sorted kernel
    // lanes. Each lane's payload column then maps its events to that order. The lanes' next
    // kernels sit in a binary min-heap whose top is replaced in place and sifted down once per
    // kernel (a pop and a push cost twice that: a tenth of a 10M-event load's finish).
    Trace& t = *m_trace;
    const std::vector<std::uint32_t>& lanes = t.m_familyLanes[std::size_t(LaneFamily::Kernels)];
    struct Head {
        TimeNs start = 0;
        std::uint32_t rank = 0; // in `lanes`
        std::uint32_t index = 0;
    };
    auto before = [](const Head& a, const Head& b) {
        return a.start < b.start || (a.start == b.start && a.rank < b.rank);
    };
    std::vector<Head> heap;
    for (std::uint32_t r = 0; r < lanes.size(); ++r) {
        if (!t.m_lanes[lanes[r]].isEmpty())
            heap.push_back(Head{t.m_lanes[lanes[r]].start(0), r, 0});
    }
    std::make_heap(heap.begin(), heap.end(), [&](const Head& a, const Head& b) {
        return before(b, a); // the first kernel on top
    });
    auto siftTopDown = [&] {
        const std::size_t n = heap.size();
        const Head h = heap[0];
        std::size_t i = 0;
        for (std::size_t c; (c = 2 * i + 1) < n; i = c) {
            if (c + 1 < n && before(heap[c + 1], heap[c]))
                ++c;
            if (!before(heap[c], h))
                break;
            heap[i] = heap[c];
        }
        heap[i] = h;
    };
    t.m_kernels.assign(m_stageKernels.size(), {});
    StagedBeside graphNodes(m_stageGraphNodes);
    StagedBeside groups(m_stageKernelGroups);
    StagedBeside messageBytes(m_stageKernelBytes);
    for (std::uint32_t k = 0; !heap.empty(); ++k) {
        Head& top = heap.front();
        const std::uint32_t r = top.rank, i = top.index;
        Lane& l = t.m_lanes[lanes[r]];
        if (i + 1 < l.size()) {
            top.index = i + 1;
            top.start = l.start(i + 1);
        } else {
            top = heap.back();
            heap.pop_back();
        }
        if (!heap.empty())
            siftTopDown();
        const std::uint32_t stage = l.m_payload[i];
        const StagedKernel& s = m_stageKernels[stage];
        l.m_payload[i] = k;
        Trace::KernelSlot& slot = t.m_kernels[k];
        slot.self = l.recordBase() + i;
        slot.config = s.config;
        if (const std::uint64_t* node = graphNodes.at(stage))
            t.m_kernelGraphNode.set(k, *node);
        if (const StringId* group = groups.at(stage))
            t.m_kernelProcessGroup.set(k, *group);
        if (const std::uint64_t* bytes = messageBytes.at(stage))
            t.m_kernelMessageBytes.set(k, *bytes);
        if (!m_stageKernelCorrelated[stage])
            continue;
        if (!m_stageKernelLinked[stage]) { // its correlation id, kept
            dangling += s.correlationId != 0 ? 1 : 0;
            t.m_kernelCorrelation.set(k, s.correlationId);
            continue;
        }
        slot.api = s.correlationId; // (made the call's index by storeLaunches)
        std::uint32_t& op = t.m_apiCalls[slot.api].gpuOp;
        if (k <= Trace::kGpuOpIndexMask && (op == Trace::kNoGpuOp || op >> 30 != Trace::kKernelOp))
            op = (Trace::kKernelOp << 30) | k;
    }
    release(m_stageKernels);
    release(m_stageKernelCorrelated);
    release(m_stageKernelLinked);
    release(m_stageGraphNodes);
    release(m_stageKernelGroups);
    release(m_stageKernelBytes);
    t.m_kernelGraphNode.finish();
    t.m_kernelProcessGroup.finish();
    t.m_kernelMessageBytes.finish();
    t.m_kernelCorrelation.finish();
}

} // namespace strobe
