// SPDX-License-Identifier: MIT
#pragma once

// Helpers shared by the gap and NVTX projection tests: an independent gap computation and the
// embedded sample trace, loaded once.

#include "formats/nsys/synth/sampletrace.h"
#include "formats/open.h"
#include "model/trace.h"

#include <QTemporaryDir>
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

namespace strobe::test {

// Gaps of every device by brute force from the record tables (not the lanes' busy intervals):
// every kernel, memcpy (not migrations) and memset as [start, max(end, start + 1)), sorted,
// swept into a union; the holes at least `minNs` long. Keyed by device id.
inline std::map<std::uint32_t, std::vector<TimeRange>> bruteForceGaps(const Trace& t,
                                                                      TimeNs minNs) {
    std::map<std::uint32_t, std::vector<TimeRange>> events;
    auto add = [&](EventRef self, std::uint32_t stream) {
        const Lane& l = t.lane(self.lane);
        if (l.kind() == LaneKind::Uvm)
            return;
        const TimeNs s = l.start(self.index);
        events[t.streams()[stream].deviceId].push_back({s, std::max(l.end(self.index), s + 1)});
    };
    for (const KernelRecord& k : t.kernels())
        add(k.self, k.stream);
    for (const MemcpyRecord& m : t.memcpys())
        add(m.self, m.stream);
    for (const MemsetRecord& m : t.memsets())
        add(m.self, m.stream);
    std::map<std::uint32_t, std::vector<TimeRange>> out;
    for (auto& [device, ev] : events) {
        std::sort(ev.begin(), ev.end(), [](auto& a, auto& b) { return a.start < b.start; });
        TimeNs reach = ev.front().end;
        auto& gaps = out[device];
        for (const TimeRange& r : ev) {
            if (r.start > reach && r.start - reach >= minNs)
                gaps.push_back({reach, r.start});
            reach = std::max(reach, r.end);
        }
    }
    return out;
}

// The embedded sample, written to a temporary file and loaded once per test program.
inline std::shared_ptr<const Trace> sampleTrace() {
    static std::shared_ptr<const Trace> trace = [] {
        static QTemporaryDir dir; // outlives the trace, which may read back from its file
        const QString path = dir.filePath(QStringLiteral("sample.sqlite"));
        std::string error;
        if (!sample::writeSampleTrace(path.toStdString(), &error))
            return std::shared_ptr<const Trace>();
        LoadResult r = loadTrace(path);
        return std::shared_ptr<const Trace>(std::move(r.trace));
    }();
    return trace;
}

} // namespace strobe::test
