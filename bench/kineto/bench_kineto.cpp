// SPDX-License-Identifier: MIT
// The Kineto JSON benchmark (a timing program, not a test): generates a large synthetic PyTorch
// profiler trace, then reports the full load's uncompressed MB/s, its ratio to simdjson's bare
// on-demand pass over the same bytes, resident bytes per event after the load, and the load
// time of the .json.gz form. Figures are in docs/PERFORMANCE.md.
//
//   bench_kineto [--events N] [--dir DIR] [--keep] [--reuse]
//
// --keep leaves the two files in DIR; --reuse loads them from there when a kept run wrote them
// (so repeated runs do not regenerate a gigabyte each).
#include <cstdlib> // procstatus.h needs strtoull

#include "bench/scale/procstatus.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"

#include <QCoreApplication>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <simdjson.h>
#include <string>

using namespace strobe;

namespace {

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// simdjson's floor: iterate every event and every member of it, reading nothing. With
// `touch`, also read each member's key and value text (what any real reader must do).
double bareOnDemandPass(const std::string& path, std::uint64_t* events, bool touch = false) {
    const simdjson::padded_string text = simdjson::padded_string::load(path);
    simdjson::ondemand::parser parser(text.size());
    const auto t0 = std::chrono::steady_clock::now();
    simdjson::ondemand::document doc = parser.iterate(text);
    std::uint64_t n = 0, members = 0;
    for (auto field : doc.get_object()) {
        if (field.key() != "traceEvents")
            continue;
        for (auto event : field.value().get_array()) {
            for (auto member : event.get_object()) {
                if (touch) {
                    const std::string_view token = member.value().raw_json_token();
                    members += std::uint64_t(member.key().raw()[0] + token.front()) & 1;
                } else {
                    (void)member.key();
                    ++members;
                }
            }
            ++n;
        }
    }
    const double s = seconds(t0, std::chrono::steady_clock::now());
    *events = n;
    if (!touch)
        std::printf("bare on-demand pass:   %llu events, %llu members\n",
                    static_cast<unsigned long long>(n), static_cast<unsigned long long>(members));
    return s;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::uint64_t events = 5'000'000;
    std::string dir = std::filesystem::temp_directory_path().string();
    bool keep = false, reuse = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc)
            events = std::stoull(argv[++i]);
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--keep")
            keep = true;
        else if (a == "--reuse")
            reuse = keep = true;
        else {
            std::fprintf(stderr,
                         "usage: bench_kineto [--events N] [--dir DIR] [--keep] [--reuse]\n");
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
        stats.events = 0; // not counted again: the parse pass below counts them
    } else if (!kinetosynth::writeKinetoTrace(plain, options, &error, &stats) ||
               !kinetosynth::writeKinetoTrace(gz, options, &error)) {
        std::fprintf(stderr, "bench_kineto: %s\n", error.c_str());
        return 1;
    }
    const double mb = double(stats.bytes) / 1e6;
    std::printf("generated:             %llu events, %.0f MB JSON, %.0f MB gzip, in %.1f s\n",
                static_cast<unsigned long long>(stats.events), mb,
                double(std::filesystem::file_size(gz)) / 1e6,
                seconds(t0, std::chrono::steady_clock::now()));

    std::uint64_t parsedEvents = 0;
    double bare = bareOnDemandPass(plain, &parsedEvents);
    bare = std::min(bare, bareOnDemandPass(plain, &parsedEvents));
    std::printf("bare on-demand pass:   %.3f s (%.0f MB/s)\n", bare, mb / bare);
    double touched = bareOnDemandPass(plain, &parsedEvents, true);
    touched = std::min(touched, bareOnDemandPass(plain, &parsedEvents, true));
    std::printf("pass reading values:   %.3f s (%.0f MB/s)\n", touched, mb / touched);

    const std::uint64_t rssBefore = bench::residentBytes();
    t0 = std::chrono::steady_clock::now();
    LoadResult r = loadTrace(QString::fromStdString(plain));
    const double load = seconds(t0, std::chrono::steady_clock::now());
    if (!r.ok()) {
        std::fprintf(stderr, "bench_kineto: %s\n", r.error.toUtf8().constData());
        return 1;
    }
    const std::uint64_t rssAfter = bench::residentBytes();
    const std::uint64_t modelEvents = r.trace->counts().kernels + r.trace->counts().memcpys +
                                      r.trace->counts().memsets + r.trace->counts().cudaApiCalls +
                                      r.trace->counts().nvtxRanges + r.trace->counts().cpuOps +
                                      r.trace->counts().pythonFunctions;
    std::printf("full load (.json):     %.3f s (%.0f MB/s), %.2f x the bare pass, %.2f x the "
                "pass reading values\n",
                load, mb / load, load / bare, load / touched);
    std::printf("resident after load:   %.1f bytes/event (%llu model events; model's own count "
                "%.1f bytes/event)\n",
                double(rssAfter - rssBefore) / double(modelEvents),
                static_cast<unsigned long long>(modelEvents),
                double(r.trace->memoryBytes()) / double(modelEvents));
    r.trace.reset();

    t0 = std::chrono::steady_clock::now();
    LoadResult z = loadTrace(QString::fromStdString(gz));
    const double gzLoad = seconds(t0, std::chrono::steady_clock::now());
    if (!z.ok()) {
        std::fprintf(stderr, "bench_kineto: %s\n", z.error.toUtf8().constData());
        return 1;
    }
    std::printf("full load (.json.gz):  %.3f s, %.2f x the plain file\n", gzLoad, gzLoad / load);
    if (!keep) {
        std::filesystem::remove(plain);
        std::filesystem::remove(gz);
    }
    return 0;
}
