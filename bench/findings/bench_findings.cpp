// SPDX-License-Identifier: MIT
// The findings after a load (issue 43's target: every rule within 2 s after the load of the
// 10M-event synthetic trace). Loads the trace once, then times R rounds of computeFindings from
// nothing (the step breakdown, GPU metrics and operator forest included, as strobe-cli analyze
// runs it) and of each rule alone with those inputs given (as the GUI runs it after its operator
// analysis); medians of wall and thread CPU seconds. Figures are in docs/PERFORMANCE.md.
//
//   bench_findings [--trace FILE | --events N] [--runs R]
//
// Without --trace, writes the nsys synthetic trace of N events (default 10M) to the temporary
// folder and deletes it at the end.
#include "bench/benchtiming.h"
#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "model/analysis/findings.h"

#include <QCoreApplication>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <time.h>
#include <vector>

using namespace strobe;

namespace {

struct Timing {
    std::vector<double> wall, cpu;
};

template <typename Fn> void timeOnce(Timing& t, Fn&& fn) {
    const auto w0 = std::chrono::steady_clock::now();
    const double c0 = bench::cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    fn();
    t.cpu.push_back(bench::cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - c0);
    t.wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::string trace;
    std::uint64_t events = 10'000'000;
    int runs = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--trace" && i + 1 < argc)
            trace = argv[++i];
        else if (a == "--events" && i + 1 < argc)
            events = std::stoull(argv[++i]);
        else if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::stoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: bench_findings [--trace FILE | --events N] [--runs R]\n");
            return 2;
        }
    }
    bool written = false;
    if (trace.empty()) {
        trace = (std::filesystem::temp_directory_path() / "bench-findings.sqlite").string();
        synth::SynthOptions o;
        o.events = events;
        std::string error;
        if (!synth::writeSynthTrace(trace, o, &error)) {
            std::fprintf(stderr, "bench_findings: %s\n", error.c_str());
            return 1;
        }
        written = true;
    }
    const auto l0 = std::chrono::steady_clock::now();
    const LoadResult r = loadTrace(QString::fromStdString(trace));
    if (written)
        std::filesystem::remove(trace);
    if (!r.ok()) {
        std::fprintf(stderr, "bench_findings: %s\n", r.error.toUtf8().constData());
        return 1;
    }
    std::printf("trace: %s, loaded in %.2f s\n", trace.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - l0).count());

    Timing all, inputs, rules;
    std::vector<Timing> perRule(kFindingRuleCount);
    std::size_t found = 0;
    for (int round = 0; round < runs; ++round) {
        Findings f;
        timeOnce(all, [&] { f = computeFindings(*r.trace); });
        found = f.findings.size();
        StepBreakdown steps;
        std::vector<GpuStepMetrics> gpus;
        OperatorForest forest;
        timeOnce(inputs, [&] {
            steps = computeStepBreakdown(*r.trace);
            if (!steps.steps.empty())
                gpus = computeGpuStepMetrics(
                    *r.trace, {steps.steps.front().range.start, steps.steps.back().range.end});
            forest = buildOperatorForest(*r.trace);
        });
        const FindingInputs given{&steps, &gpus, &forest};
        timeOnce(rules, [&] { (void)computeFindings(*r.trace, {}, given); });
        for (std::size_t i = 0; i < kFindingRuleCount; ++i) {
            FindingOptions o;
            o.only = {FindingRule(i)};
            timeOnce(perRule[i], [&] { (void)computeFindings(*r.trace, o, given); });
        }
    }
    std::printf("medians of %d rounds (wall s / thread CPU s):\n", runs);
    std::printf("  computeFindings, everything:   %.3f / %.3f (%zu findings)\n",
                bench::median(all.wall), bench::median(all.cpu), found);
    std::printf("  its inputs (steps, GPU metrics, forest): %.3f / %.3f\n",
                bench::median(inputs.wall), bench::median(inputs.cpu));
    std::printf("  every rule, the inputs given (the GUI): %.3f / %.3f\n",
                bench::median(rules.wall), bench::median(rules.cpu));
    for (std::size_t i = 0; i < kFindingRuleCount; ++i)
        std::printf("  %-22s %.3f / %.3f\n", findingRuleId(FindingRule(i)).toUtf8().constData(),
                    bench::median(perRule[i].wall), bench::median(perRule[i].cpu));
    return 0;
}
