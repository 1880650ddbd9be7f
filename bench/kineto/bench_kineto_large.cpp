// SPDX-License-Identifier: MIT
// The Kineto JSON benchmark past 4 GiB (a timing program, not a test): writes a synthetic PyTorch
// profiler trace of N events (by default enough for about 8 GB of JSON), loads it once through
// the format sniffing, as the GUI and strobe-cli do (a file this large is read in pieces:
// docs/KINETO.md), and prints MB/s, CPU seconds, the peak and final resident memory and bytes
// per model event. With --compare it loads a file of any size both ways, whole and in pieces,
// alternating, and prints each round and the medians. Figures are in docs/PERFORMANCE.md.
//
//   bench_kineto_large [--events N] [--dir DIR] [--keep] [--reuse] [--split] [--compare R]
//
// --split reads the file in 32 MiB pieces whatever its size (one load, as without it).
#include <cstdlib> // procstatus.h needs strtoull

#include "bench/benchtiming.h"
#include "bench/scale/procstatus.h"
#include "formats/kineto/kinetoreader.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"

#include <QCoreApplication>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <malloc.h>
#include <string>
#include <time.h>
#include <vector>

using namespace strobe;

namespace {

struct Run {
    double wall = 0, cpu = 0;
    std::uint64_t peak = 0, resident = 0, modelEvents = 0, model = 0, heapFree = 0;
};

// One load; `pieces`: forced into pieces of that many bytes (0: as the file's size decides).
bool load(const std::string& path, std::size_t pieces, Run& run) {
    bench::resetPeakResident();
    const std::uint64_t before = bench::residentBytes();
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    LoadResult r;
    if (pieces) {
        KinetoJsonLoader loader(QString::fromStdString(path), LoadOptions{});
        loader.splitIntoPieces(pieces);
        r = loader.load();
    } else {
        r = loadTrace(QString::fromStdString(path));
    }
    run.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.cpu = bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (!r.ok()) {
        std::fprintf(stderr, "bench_kineto_large: %s\n", r.error.toUtf8().constData());
        return false;
    }
    run.peak = bench::peakResidentBytes() - before;
    run.resident = bench::residentBytes() - before;
    const TraceCounts& c = r.trace->counts();
    run.model = r.trace->memoryBytes();
    run.heapFree = mallinfo2().fordblks; // freed memory the allocator keeps (main arena)
    run.modelEvents = c.kernels + c.memcpys + c.memsets + c.cudaApiCalls + c.nvtxRanges + c.cpuOps +
                      c.pythonFunctions;
    return true;
}

void print(const char* what, const Run& r, double mb) {
    std::printf("%s %.2f s (%.2f s CPU), %.0f MB/s; peak %.0f MB over the start, resident "
                "%.0f MB: %.1f bytes per model event (%llu; the model's own count %.1f, the "
                "allocator's free %.0f MB), peak %.2f x resident; load average %.1f\n",
                what, r.wall, r.cpu, mb / r.wall, double(r.peak) / 1e6, double(r.resident) / 1e6,
                double(r.resident) / double(std::max<std::uint64_t>(1, r.modelEvents)),
                static_cast<unsigned long long>(r.modelEvents),
                double(r.model) / double(std::max<std::uint64_t>(1, r.modelEvents)),
                double(r.heapFree) / 1e6,
                double(r.peak) / double(std::max<std::uint64_t>(1, r.resident)),
                bench::loadAverage());
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::uint64_t events = 36'000'000; // about 8 GB at the synthetic trace's 223 bytes an event
    std::string dir = std::filesystem::temp_directory_path().string();
    bool keep = false, reuse = false, inPieces = false;
    int compare = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc)
            events = std::stoull(argv[++i]);
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--compare" && i + 1 < argc)
            compare = std::max(1, std::stoi(argv[++i]));
        else if (a == "--keep")
            keep = true;
        else if (a == "--split")
            inPieces = true;
        else if (a == "--reuse")
            reuse = keep = true;
        else {
            std::fprintf(stderr, "usage: bench_kineto_large [--events N] [--dir DIR] [--keep] "
                                 "[--reuse] [--split] [--compare ROUNDS]\n");
            return 2;
        }
    }
    const std::string path = dir + "/bench-kineto-large-" + std::to_string(events) + ".json";
    const auto t0 = std::chrono::steady_clock::now();
    if (!(reuse && std::filesystem::exists(path))) {
        kinetosynth::KinetoSynthOptions options;
        options.events = events;
        std::string error;
        if (!kinetosynth::writeKinetoTrace(path, options, &error)) {
            std::fprintf(stderr, "bench_kineto_large: %s\n", error.c_str());
            return 1;
        }
    }
    const double mb = double(std::filesystem::file_size(path)) / 1e6;
    std::printf("trace: %.0f MB of JSON, %llu events asked (%s in %.1f s)\n", mb,
                static_cast<unsigned long long>(events), reuse ? "reused" : "written",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    int status = 0;
    if (compare == 0) {
        Run r;
        if (load(path, inPieces ? std::size_t(32) << 20 : 0, r))
            print("load:", r, mb);
        else
            status = 1;
    }
    std::vector<double> whole, split;
    for (int round = 0; round < compare && status == 0; ++round) {
        Run w, s;
        if (!load(path, 0, w) || !load(path, std::size_t(32) << 20, s)) {
            status = 1;
            break;
        }
        std::printf("round %d\n", round + 1);
        print("  as the size decides:", w, mb);
        print("  in 32 MiB pieces:   ", s, mb);
        whole.push_back(w.wall);
        split.push_back(s.wall);
    }
    if (compare > 0 && status == 0)
        std::printf("medians: %.2f s as the size decides (%.0f MB/s), %.2f s in pieces (%.0f "
                    "MB/s), %.2f x\n",
                    bench::median(whole), mb / bench::median(whole), bench::median(split),
                    mb / bench::median(split), bench::median(split) / bench::median(whole));
    if (!keep)
        std::filesystem::remove(path);
    return status;
}
