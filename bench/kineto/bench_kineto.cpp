// SPDX-License-Identifier: MIT
// The Kineto JSON benchmark (a timing program, not a test): generates a large synthetic PyTorch
// profiler trace, then reports the full load's uncompressed MB/s, its ratio to simdjson's bare
// on-demand pass over the same bytes, resident bytes per event after the load, and the load
// time of the .json.gz form: medians of R rounds, each round timing all of them one after the
// other, so that each ratio compares runs made under about the same machine load (printed per
// round, with the CPU seconds, which the load stretches far less). Figures are in
// docs/PERFORMANCE.md.
//
//   bench_kineto [--events N] [--dir DIR] [--runs R] [--keep] [--reuse]
//
// --keep leaves the two files in DIR; --reuse loads them from there when a kept run wrote them
// (so repeated runs do not regenerate a gigabyte each).
#include <cstdlib> // procstatus.h needs strtoull

#include "bench/benchtiming.h"
#include "bench/scale/procstatus.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"
#include "model/analysis/flamegraph.h"
#include "model/analysis/operators.h"
#include "model/analysis/steps.h"

#include <QCoreApplication>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <simdjson.h>
#include <string>
#include <time.h>
#include <vector>

using namespace strobe;
using bench::cpuSeconds;
using bench::loadAverage;
using bench::median;
using bench::seconds;

namespace {

struct Timing {
    double wall = 0, cpu = 0;
};

// simdjson's floor: iterate every event and every member of it, reading nothing. With
// `touch`, also read each member's key and value text (what any real reader must do).
Timing bareOnDemandPass(const simdjson::padded_string& text, std::uint64_t* events,
                        std::uint64_t* members, bool touch) {
    simdjson::ondemand::parser parser(text.size());
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    simdjson::ondemand::document doc = parser.iterate(text);
    std::uint64_t n = 0, m = 0;
    for (auto field : doc.get_object()) {
        if (field.key() != "traceEvents")
            continue;
        for (auto event : field.value().get_array()) {
            for (auto member : event.get_object()) {
                if (touch) {
                    const std::string_view token = member.value().raw_json_token();
                    m += std::uint64_t(member.key().raw()[0] + token.front()) & 1;
                } else {
                    (void)member.key();
                    ++m;
                }
            }
            ++n;
        }
    }
    const Timing t{seconds(t0, std::chrono::steady_clock::now()),
                   cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - c0};
    *events = n;
    *members = m;
    return t;
}

// One full load through the format sniffing, as the GUI and strobe-cli do it.
Timing fullLoad(const std::string& path, LoadResult* result) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    *result = loadTrace(QString::fromStdString(path));
    return {seconds(t0, std::chrono::steady_clock::now()),
            cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c0};
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::uint64_t events = 5'000'000;
    std::string dir = std::filesystem::temp_directory_path().string();
    bool keep = false, reuse = false;
    int runs = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc)
            events = std::stoull(argv[++i]);
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::stoi(argv[++i]));
        else if (a == "--keep")
            keep = true;
        else if (a == "--reuse")
            reuse = keep = true;
        else {
            std::fprintf(stderr, "usage: bench_kineto [--events N] [--dir DIR] [--runs R] [--keep] "
                                 "[--reuse]\n");
            return 2;
        }
    }
    const std::string plain = dir + "/bench-kineto.json", gz = plain + ".gz";
    kinetosynth::KinetoSynthOptions options;
    options.events = events;
    kinetosynth::KinetoSynthStats stats;
    std::string error;
    auto t0 = std::chrono::steady_clock::now();
    if (reuse && std::filesystem::exists(plain) && std::filesystem::exists(gz)) {
        stats.bytes = std::filesystem::file_size(plain);
    } else if (!kinetosynth::writeKinetoTrace(plain, options, &error, &stats) ||
               !kinetosynth::writeKinetoTrace(gz, options, &error)) {
        std::fprintf(stderr, "bench_kineto: %s\n", error.c_str());
        return 1;
    }
    const double mb = double(stats.bytes) / 1e6;
    std::printf("trace:                 %.0f MB JSON, %.0f MB gzip (%s in %.1f s)\n", mb,
                double(std::filesystem::file_size(gz)) / 1e6, reuse ? "reused" : "generated",
                seconds(t0, std::chrono::steady_clock::now()));

    // Each round: the bare pass, the pass reading values, the plain load, the gzip load, one
    // after the other, so that each ratio compares runs made under about the same load.
    std::vector<double> bare, touched, load, gzLoad, loadRatio, touchedRatio, gzRatio;
    std::vector<double> operatorsTime, stepsTime, flameTime, operatorsCpu, stepsCpu, flameCpu;
    std::size_t operatorNodes = 0, operatorRows = 0, stepCount = 0, flameNodes = 0;
    std::uint64_t parsedEvents = 0, members = 0, touchedMembers = 0;
    double residentPerEvent = 0, modelPerEvent = 0;
    std::uint64_t modelEvents = 0;
    for (int round = 0; round < runs; ++round) {
        Timing b, v;
        {
            const simdjson::padded_string text = simdjson::padded_string::load(plain);
            b = bareOnDemandPass(text, &parsedEvents, &members, false);
            v = bareOnDemandPass(text, &parsedEvents, &touchedMembers, true);
        }
        const std::uint64_t rssBefore = bench::residentBytes();
        LoadResult r;
        const Timing l = fullLoad(plain, &r);
        if (!r.ok()) {
            std::fprintf(stderr, "bench_kineto: %s\n", r.error.toUtf8().constData());
            return 1;
        }
        const TraceCounts& c = r.trace->counts();
        modelEvents = c.kernels + c.memcpys + c.memsets + c.cudaApiCalls + c.nvtxRanges + c.cpuOps +
                      c.pythonFunctions;
        if (round == 0) { // later rounds reuse the heap the first one freed
            residentPerEvent = double(bench::residentBytes() - rssBefore) /
                               double(std::max<std::uint64_t>(1, modelEvents));
            modelPerEvent =
                double(r.trace->memoryBytes()) / double(std::max<std::uint64_t>(1, modelEvents));
        }
        // The analyses the GUI runs on a worker after the load (issue 41's 0.5 s targets).
        {
            // Each runs on one thread: its thread CPU time is what a quiet machine would take,
            // whatever the load around it (the wall time is printed too).
            const double c0 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
            auto a0 = std::chrono::steady_clock::now();
            const OperatorForest forest = buildOperatorForest(*r.trace);
            const OperatorTable table = operatorTable(*r.trace, forest);
            auto a1 = std::chrono::steady_clock::now();
            const double c1 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
            const StepBreakdown steps = computeStepBreakdown(*r.trace);
            auto a2 = std::chrono::steady_clock::now();
            const double c2 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
            const FlameGraph flame = buildFlameGraph(*r.trace, r.trace->timeRange());
            auto a3 = std::chrono::steady_clock::now();
            const double c3 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
            operatorsTime.push_back(seconds(a0, a1));
            stepsTime.push_back(seconds(a1, a2));
            flameTime.push_back(seconds(a2, a3));
            operatorsCpu.push_back(c1 - c0);
            stepsCpu.push_back(c2 - c1);
            flameCpu.push_back(c3 - c2);
            operatorNodes = forest.nodes().size();
            operatorRows = table.rows.size();
            stepCount = steps.steps.size();
            flameNodes = flame.nodes.size();
        }
        r.trace.reset();
        LoadResult z;
        const Timing g = fullLoad(gz, &z);
        if (!z.ok()) {
            std::fprintf(stderr, "bench_kineto: %s\n", z.error.toUtf8().constData());
            return 1;
        }
        z.trace.reset();
        std::printf("round %d (load average %.1f): bare %.3f s (%.3f s CPU), values %.3f s, "
                    "load %.3f s (%.3f s CPU), gzip %.3f s (%.3f s CPU)\n",
                    round + 1, loadAverage(), b.wall, b.cpu, v.wall, l.wall, l.cpu, g.wall, g.cpu);
        bare.push_back(b.wall);
        touched.push_back(v.wall);
        load.push_back(l.wall);
        gzLoad.push_back(g.wall);
        loadRatio.push_back(l.wall / b.wall);
        touchedRatio.push_back(l.wall / v.wall);
        gzRatio.push_back(g.wall / l.wall);
    }
    std::printf("medians of %d rounds:\n", runs);
    std::printf("bare on-demand pass:   %.3f s (%.0f MB/s), %llu events, %llu members\n",
                median(bare), mb / median(bare), static_cast<unsigned long long>(parsedEvents),
                static_cast<unsigned long long>(members));
    std::printf("pass reading values:   %.3f s (%.0f MB/s)\n", median(touched),
                mb / median(touched));
    std::printf("full load (.json):     %.3f s (%.0f MB/s), %.2f x the bare pass, %.2f x the "
                "pass reading values\n",
                median(load), mb / median(load), median(loadRatio), median(touchedRatio));
    std::printf("resident after load:   %.1f bytes/event (%llu model events; model's own count "
                "%.1f bytes/event)\n",
                residentPerEvent, static_cast<unsigned long long>(modelEvents), modelPerEvent);
    std::printf("full load (.json.gz):  %.3f s, %.2f x the plain file\n", median(gzLoad),
                median(gzRatio));
    std::printf("operators after load:  %.3f s (%.3f s CPU; %zu nodes, %zu table rows)\n",
                median(operatorsTime), median(operatorsCpu), operatorNodes, operatorRows);
    std::printf("steps after load:      %.3f s (%.3f s CPU; %zu steps)\n", median(stepsTime),
                median(stepsCpu), stepCount);
    std::printf("flame graph (whole):   %.3f s (%.3f s CPU; %zu paths)\n", median(flameTime),
                median(flameCpu), flameNodes);
    if (!keep) {
        std::filesystem::remove(plain);
        std::filesystem::remove(gz);
    }
    return 0;
}
