// SPDX-License-Identifier: MIT
#pragma once

// NVTX traces shared by the NVTX statistics, projection, summary model and report tests.

#include "model/tracebuilder.h"

#include <map>
#include <memory>
#include <string>

namespace strobe::test {

inline std::unique_ptr<Trace> nvtxTrace() {
    TraceBuilder b(QStringLiteral("synthetic"));
    const StringId step = b.intern("step"), send = b.intern("MPI_Send"), mpi = b.intern("MPI");
    const StringId load = b.intern("load"), mark = b.intern("tick");
    NvtxRecord pushPop;
    NvtxRecord startEnd;
    startEnd.style = NvtxStyle::StartEnd;
    NvtxRecord markRec;
    markRec.style = NvtxStyle::Mark;
    // Default domain push/pop "step": 100, 300 (even count: median 200).
    b.addNvtx(1, 1, kNoString, 0, 100, step, pushPop, std::nullopt);
    b.addNvtx(1, 1, kNoString, 200, 500, step, pushPop, std::nullopt);
    // Same text, start/end style: its own row.
    b.addNvtx(1, 1, kNoString, 600, 650, step, startEnd, 2u);
    // "MPI" domain: qualified name.
    b.addNvtx(1, 2, mpi, 10, 20, send, pushPop, std::nullopt);
    // A mark and an open range: not in the rows.
    b.addNvtx(1, 1, kNoString, 700, 700, mark, markRec, std::nullopt);
    NvtxRecord open = pushPop;
    open.hasEnd = false;
    b.addNvtx(1, 1, kNoString, 800, 1000, load, open, std::nullopt);
    return b.finish();
}

// PyTorch-style names: three calls of aten::mm (each with its own ids, one with every suffix),
// one aten::relu, an aten::mm in a named domain (its own row), a mark and an open range.
inline std::unique_ptr<Trace> pytorchTrace() {
    TraceBuilder b(QStringLiteral("pytorch"));
    NvtxRecord pp;
    b.addNvtx(1, 1, kNoString, 0, 100, b.intern("aten::mm, op_id = 1"), pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 200, 500, b.intern("aten::mm, op_id = 2"), pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 600, 650,
              b.intern("aten::mm, seq = 3, op_id = 4, sizes = [[2, 2], [2, 2]], input_op_ids = "
                       "[(1, 0), (2, 0)]"),
              pp, std::nullopt);
    b.addNvtx(1, 1, kNoString, 700, 710, b.intern("aten::relu, op_id = 5"), pp, std::nullopt);
    b.addNvtx(1, 2, b.intern("torch"), 0, 5, b.intern("aten::mm, op_id = 6"), pp, std::nullopt);
    NvtxRecord mark;
    mark.style = NvtxStyle::Mark;
    b.addNvtx(1, 1, kNoString, 800, 800, b.intern("aten::mm, op_id = 7"), mark, std::nullopt);
    NvtxRecord open = pp;
    open.hasEnd = false;
    b.addNvtx(1, 1, kNoString, 900, 1000, b.intern("aten::mm, op_id = 8"), open, std::nullopt);
    return b.finish();
}

// Thread 101: NVTX "Forward" [1000, 10000) with "inner" [3000, 6000) inside. Launch calls on
// 101 at 2000 (k1), 4000 (k2, on GPU 1), 5000 (k3), 9000 (k4) are inside Forward, 12000 (k5)
// after it; thread 102 launches k6 at 4500, inside Forward's time but not its thread.
struct ProjectionTrace {
    std::unique_ptr<Trace> trace;
    std::map<std::string, EventRef> kernels; // by name
    EventRef forward, inner;

    ProjectionTrace() {
        TraceBuilder b(QStringLiteral("projection"));
        for (std::uint32_t id : {0u, 1u}) {
            GpuInfo g;
            g.id = id;
            b.addGpu(g);
        }
        std::uint32_t corr = 0;
        auto launch = [&](const char* name, std::uint32_t tid, TimeNs api, TimeNs start, TimeNs dur,
                          std::uint32_t device = 0) {
            ApiCallRecord a;
            a.correlationId = ++corr;
            b.addApiCall(100, tid, api, api + 300, b.intern("cudaLaunchKernel_v7000"), a);
            KernelConfig c;
            c.shortName = b.intern(name);
            b.addKernel(100, device, 1, 7, start, start + dur, c, corr, std::nullopt);
        };
        launch("k1", 101, 2000, 20'000, 1000);
        launch("k2", 101, 4000, 21'000, 2000, 1);
        launch("k3", 101, 5000, 23'000, 500);
        launch("k4", 101, 9000, 30'000, 4000);
        launch("k5", 101, 12'000, 40'000, 1000);
        launch("k6", 102, 4500, 50'000, 1000);
        NvtxRecord outer;
        b.addNvtx(100, 101, kNoString, 1000, 10'000, b.intern("Forward"), outer, std::nullopt);
        NvtxRecord in;
        in.depth = 1;
        b.addNvtx(100, 101, kNoString, 3000, 6000, b.intern("inner"), in, std::nullopt);
        trace = b.finish();
        for (std::uint32_t k = 0; k < trace->kernelCount(); ++k) {
            const KernelLaunch kl = trace->kernelAt(k);
            kernels[trace->string(kl.config->shortName).toStdString()] = kl.record.self;
        }
        for (std::uint32_t li = 0; li < trace->lanes().size(); ++li) {
            const Lane& l = trace->lane(li);
            for (std::uint32_t i = 0; l.kind() == LaneKind::Nvtx && i < l.size(); ++i)
                (trace->string(l.nameId(i)) == QStringLiteral("Forward") ? forward : inner) = {li,
                                                                                               i};
        }
    }
    TimeRange span(const char* k) const {
        const EventRef r = kernels.at(k);
        return {trace->lane(r.lane).start(r.index), trace->lane(r.lane).end(r.index)};
    }
};

} // namespace strobe::test
