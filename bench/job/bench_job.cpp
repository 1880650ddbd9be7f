// SPDX-License-Identifier: MIT
// The job benchmark (issue 42, docs/PERFORMANCE.md "Jobs"): a synthetic job of N ranks (default
// 64 x 1M events, rank 5 late by 20 ms), timed in four parts, medians of R rounds:
//
// 1. every rank's summary from its trace (openJob on all cores, as `strobe-cli job DIR` does,
//    no reopen cache) against a raw scan of the same files on as many threads: each file
//    decompressed with the reader's own gzip code (libdeflate, kinetoinput.h) and one simdjson
//    On-Demand pass over its events reading what a summary needs (every event's `ph`, `cat`,
//    `name`, `ts`, `dur`; `device`, `stream` and `correlation` in the args of GPU operations,
//    `correlation` in those of runtime calls; `baseTimeNanoseconds` and `distributedInfo`'s rank
//    and world size), nothing stored. Target: within 1.2 x. Peak RSS (VmHWM) while summarising.
// 2. the summaries written, then reopened: openJob over the summary files, analyseJob (wall
//    clock) and every table of jobreports (ranks, steps, collectives, stragglers, the verdict).
//    Target: within 2 s. RSS while holding the job, peak RSS while reopening.
// 3. the same over M (default 1,024) summaries made from the N ranks' by renumbering (rank
//    k*N + r is rank r's summary, world size M): every rank as large as the job's. Target: 2 s.
// 4. the same for M summaries of a small job (N ranks x --small-events, the synth default
//    20,000), so the 1,024-rank figure is also given at a size where it can be met.
//
//   bench_job [--dir DIR] [--ranks N] [--events E] [--runs R] [--big-ranks M]
//             [--small-events S] [--reuse] [--keep] [--from-summaries SDIR]
//
// --reuse keeps and reuses DIR's traces when all N are there (writing 64 x 1M events takes
// minutes), and DIR's M summaries likewise; without --keep the folder is removed at the end.
// --from-summaries times part 3 only, renumbering the N summaries of SDIR (part 2's
// DIR/summaries of an earlier run with --keep) instead of summarising traces.
#include "bench/benchtiming.h"
#include "bench/scale/procstatus.h"
#include "formats/kineto/kinetoinput.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/open.h"
#include "model/job/jobfindings.h"
#include "model/job/jobopen.h"
#include "model/job/summaryjson.h"
#include "model/reports/jobreports.h"

#include <QCoreApplication>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <malloc.h>
#include <simdjson.h>
#include <string>
#include <thread>
#include <time.h>
#include <vector>

using namespace strobe;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double mib(std::uint64_t bytes) {
    return double(bytes) / double(1 << 20);
}

void printRounds(const char* what, const std::vector<double>& v) {
    std::printf("  %s:", what);
    for (double x : v)
        std::printf(" %.3f", x);
    std::printf(" s (median %.3f s)\n", bench::median(v));
}

TraceLoader benchLoader() {
    return [](const QString& path, QString* error) -> std::unique_ptr<Trace> {
        LoadOptions options = rankSummaryLoadOptions(); // no cacheFolder: every file is read
        LoadResult r = loadTrace(path, options);
        if (!r.ok())
            *error = r.error;
        return std::move(r.trace);
    };
}

struct ScanTotals {
    std::uint64_t events = 0, gpuOps = 0, checksum = 0;
    bool ok = true;
};

// One file's raw scan (see the top of the file).
ScanTotals rawScanFile(const std::string& path, simdjson::ondemand::parser& parser) {
    ScanTotals t;
    kineto::JsonText text;
    if (!kineto::readJsonText(QString::fromStdString(path), text, nullptr).isEmpty()) {
        t.ok = false;
        return t;
    }
    auto doc = parser.iterate(text.begin(), text.size, text.capacity);
    simdjson::ondemand::object root;
    if (doc.get_object().get(root) != simdjson::SUCCESS) {
        t.ok = false;
        return t;
    }
    for (auto field : root) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS) {
            t.ok = false;
            return t;
        }
        if (key == "baseTimeNanoseconds") {
            std::uint64_t v = 0;
            if (field.value().get_uint64().get(v) == simdjson::SUCCESS)
                t.checksum += v;
        } else if (key == "distributedInfo") {
            for (auto d : field.value().get_object()) {
                std::string_view k;
                std::int64_t v = 0;
                if (d.unescaped_key().get(k) == simdjson::SUCCESS &&
                    (k == "rank" || k == "world_size") &&
                    d.value().get_int64().get(v) == simdjson::SUCCESS)
                    t.checksum += std::uint64_t(v);
            }
        } else if (key == "traceEvents") {
            for (auto event : field.value().get_array()) {
                bool gpu = false, runtime = false;
                for (auto member : event.get_object()) {
                    std::string_view k;
                    if (member.unescaped_key().get(k) != simdjson::SUCCESS)
                        continue;
                    if (k == "ph" || k == "name") {
                        std::string_view s;
                        if (member.value().get_string().get(s) == simdjson::SUCCESS)
                            t.checksum += s.size();
                    } else if (k == "cat") {
                        std::string_view s;
                        if (member.value().get_string().get(s) == simdjson::SUCCESS) {
                            gpu = s == "kernel" || s == "gpu_memcpy" || s == "gpu_memset";
                            runtime = s == "cuda_runtime" || s == "cuda_driver";
                            t.checksum += s.size();
                        }
                    } else if (k == "ts" || k == "dur") {
                        double v = 0;
                        if (member.value().get_double().get(v) == simdjson::SUCCESS)
                            t.checksum += std::uint64_t(v);
                    } else if (k == "args" && (gpu || runtime)) {
                        for (auto arg : member.value().get_object()) {
                            std::string_view a;
                            std::int64_t v = 0;
                            if (arg.unescaped_key().get(a) != simdjson::SUCCESS)
                                continue;
                            if ((a == "correlation" || (gpu && (a == "device" || a == "stream"))) &&
                                arg.value().get_int64().get(v) == simdjson::SUCCESS)
                                t.checksum += std::uint64_t(v);
                        }
                    }
                }
                ++t.events;
                t.gpuOps += gpu ? 1 : 0;
            }
        }
    }
    return t;
}

ScanTotals rawScan(const std::vector<std::string>& files, int threads) {
    std::vector<ScanTotals> each(files.size());
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> pool;
    pool.reserve(std::size_t(threads));
    for (int i = 0; i < threads; ++i) {
        pool.emplace_back([&] {
            simdjson::ondemand::parser parser;
            for (std::size_t f = next++; f < files.size(); f = next++)
                each[f] = rawScanFile(files[f], parser);
        });
    }
    for (std::thread& t : pool)
        t.join();
    ScanTotals all;
    for (const ScanTotals& t : each) {
        all.events += t.events;
        all.gpuOps += t.gpuOps;
        all.checksum += t.checksum;
        all.ok = all.ok && t.ok;
    }
    return all;
}

bool haveJob(const std::string& dir, std::uint32_t ranks) {
    for (std::uint32_t r = 0; r < ranks; ++r) {
        if (!std::filesystem::exists(dir + "/" + kinetosynth::jobFileName(r, true)))
            return false;
    }
    return true;
}

bool makeJobTraces(const std::string& dir, std::uint32_t ranks, std::uint64_t events, bool reuse) {
    if (reuse && haveJob(dir, ranks)) {
        std::printf("traces: %u x %llu events reused from %s\n", ranks,
                    static_cast<unsigned long long>(events), dir.c_str());
        return true;
    }
    kinetosynth::KinetoJobOptions o;
    o.ranks = ranks;
    o.events = events;
    if (ranks > 5) {
        o.straggler = 5;
        o.delayNs = 20'000'000;
    }
    std::string error;
    const auto t0 = Clock::now();
    kinetosynth::KinetoJobStats stats;
    if (!kinetosynth::writeKinetoJob(dir, o, &error, &stats)) {
        std::fprintf(stderr, "bench_job: %s\n", error.c_str());
        return false;
    }
    std::printf("traces: %u x %llu events written to %s (%.0f MB gzip) in %.1f s\n", ranks,
                static_cast<unsigned long long>(events), dir.c_str(), double(stats.fileBytes) / 1e6,
                since(t0));
    return true;
}

QStringList traceFiles(const std::string& dir, std::uint32_t ranks) {
    QStringList out;
    for (std::uint32_t r = 0; r < ranks; ++r)
        out << QString::fromStdString(dir + "/" + kinetosynth::jobFileName(r, true));
    return out;
}

// Writes each rank's summary into `dir`; with `copies` > 1, rank k*N + r is rank r's summary
// renumbered (world size N * copies). Returns the files, empty on failure.
QStringList writeSummaries(const Job& job, const std::string& dir, std::uint32_t copies,
                           std::uint64_t* bytes, bool reuse = false) {
    std::filesystem::create_directories(dir);
    const auto n = std::uint32_t(job.ranks.size());
    QStringList out;
    *bytes = 0;
    for (std::uint32_t k = 0; k < copies; ++k) {
        for (const RankSummary& original : job.ranks) {
            const std::string existing =
                dir + "/rank-" + std::to_string(k * n + original.rank) + ".json.gz.summary.json";
            if (reuse && std::filesystem::exists(existing)) {
                *bytes += std::filesystem::file_size(existing);
                out << QString::fromStdString(existing);
                continue;
            }
            RankSummary s = original;
            s.rank = k * n + original.rank;
            if (copies > 1)
                s.worldSize = n * copies;
            const QString path = QString::fromStdString(dir + "/rank-" + std::to_string(s.rank) +
                                                        ".json.gz.summary.json");
            s.file = path.chopped(int(sizeof(".summary.json") - 1));
            QString error;
            if (!writeRankSummaryFile(path, s, &error)) {
                std::fprintf(stderr, "bench_job: %s\n", qPrintable(error));
                return {};
            }
            *bytes += std::filesystem::file_size(path.toStdString());
            out << path;
        }
    }
    return out;
}

// Opens `files` (summaries), analyses the job and makes every table; prints one line per round.
void timeReopen(const char* what, const QStringList& files, int runs, int threads) {
    std::vector<double> open, analyse, tables, total, openCpu, analyseCpu;
    std::uint64_t holding = 0, peak = 0;
    std::size_t rows = 0, matched = 0;
    for (int i = 0; i < runs; ++i) {
        malloc_trim(0); // what earlier rounds freed is not counted as held
        bench::resetPeakResident();
        const std::uint64_t before = bench::residentBytes();
        const auto t0 = Clock::now();
        const double c0 = bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        const Job job = openJob(files, benchLoader(), KernelClassTable::defaults(), threads);
        open.push_back(since(t0));
        openCpu.push_back(bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c0);
        holding = bench::residentBytes() - std::min(before, bench::residentBytes());
        const auto t1 = Clock::now();
        const double c1 = bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        const JobAnalysis a = analyseJob(job, Alignment{});
        analyse.push_back(since(t1));
        analyseCpu.push_back(bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c1);
        const auto t2 = Clock::now();
        // The collectives table is streamed: its rows are made when written (strobe-cli job
        // --what collectives), so only its count is made here.
        rows = jobRanksTable(job, a, true).rowCount() + jobStepsTable(job, a).rowCount() +
               jobCollectivesTable(job, a).rowCount() + jobStragglersTable(a).rowCount();
        const QString verdict = stragglerVerdict(job, a) + unmatchedSentence(job, a);
        // What the viewer also computes when a job opens: its findings and the Overview's
        // headline (app/gui/mainwindow_job.cpp).
        const Findings findings = jobFindings(job, a);
        const JobHeadline headline = jobHeadline(job);
        rows += findings.findings.size() + headline.ranks;
        tables.push_back(since(t2));
        total.push_back(since(t0));
        matched = a.match.matched.size();
        peak = bench::peakResidentBytes();
        if (i == 0)
            std::printf("  %zu ranks, %zu matched collectives, %zu table rows, %zu warnings; "
                        "\"%s\"\n",
                        job.ranks.size(), matched, rows, std::size_t(job.warnings.size()),
                        qPrintable(verdict.left(120)));
    }
    std::printf("%s\n", what);
    printRounds("open (read the summaries, makeJob)", open);
    printRounds("  its CPU time", openCpu);
    printRounds("analyseJob (match, align, time, waits, stragglers)", analyse);
    printRounds("  its CPU time", analyseCpu);
    printRounds("every table and sentence of jobreports, the findings, the headline", tables);
    printRounds("total", total);
    std::printf("  RSS holding the job: %.0f MiB more than before the open; peak RSS while "
                "reopening (VmHWM): %.0f MiB\n",
                mib(holding), mib(peak));
}

void printLoad(const char* when) {
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) == 3)
        std::printf("load average %s: %.2f %.2f %.2f\n", when, load[0], load[1], load[2]);
}

// Part 3 alone, from the summaries in `from` (--from-summaries).
int bigFromSummaries(const std::string& from, const std::string& dir, std::uint32_t bigRanks,
                     int runs, int threads, bool reuse, bool keep) {
    const Job job = openJob(findJobFiles(QString::fromStdString(from)), benchLoader(),
                            KernelClassTable::defaults(), threads);
    if (job.ranks.empty()) {
        std::fprintf(stderr, "bench_job: no summary could be read in %s\n", from.c_str());
        return 1;
    }
    const auto ranks = std::uint32_t(job.ranks.size());
    const std::uint32_t copies = std::max<std::uint32_t>(1, bigRanks / ranks);
    std::uint64_t bytes = 0;
    const QStringList big = writeSummaries(
        job, dir + "/summaries-" + std::to_string(copies * ranks), copies, &bytes, reuse);
    if (big.isEmpty())
        return 1;
    std::printf("\n%u summaries renumbered from the %u of %s: %.1f MB\n", copies * ranks, ranks,
                from.c_str(), double(bytes) / 1e6);
    timeReopen("reopened (target: 2 s)", big, runs, threads);
    printLoad("at the end");
    if (!keep)
        std::filesystem::remove_all(dir);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::string dir;
    std::uint32_t ranks = 64, bigRanks = 1024;
    std::uint64_t events = 1'000'000, smallEvents = 20'000;
    int runs = 3;
    bool keep = false, reuse = false;
    std::string fromSummaries;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--from-summaries" && i + 1 < argc)
            fromSummaries = argv[++i];
        else if (a == "--ranks" && i + 1 < argc)
            ranks = std::uint32_t(std::clamp(std::stoul(argv[++i]), 1ul, 4096ul));
        else if (a == "--events" && i + 1 < argc)
            events = std::stoull(argv[++i]);
        else if (a == "--big-ranks" && i + 1 < argc)
            bigRanks = std::uint32_t(std::stoul(argv[++i]));
        else if (a == "--small-events" && i + 1 < argc)
            smallEvents = std::stoull(argv[++i]);
        else if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::stoi(argv[++i]));
        else if (a == "--keep")
            keep = true;
        else if (a == "--reuse")
            reuse = keep = true;
        else {
            std::fprintf(stderr, "usage: bench_job [--dir DIR] [--ranks N] [--events E] "
                                 "[--runs R] [--big-ranks M] [--small-events S] [--reuse] "
                                 "[--keep] [--from-summaries SDIR]\n");
            return 2;
        }
    }
    if (dir.empty())
        dir = (std::filesystem::temp_directory_path() / "strobe-bench-job").string();
    const int threads = std::max(1, QThread::idealThreadCount());
    std::printf("bench_job: %u ranks x %llu events, %d threads, %d rounds\n", ranks,
                static_cast<unsigned long long>(events), threads, runs);
    printLoad("at the start");
    if (!fromSummaries.empty())
        return bigFromSummaries(fromSummaries, dir, bigRanks, runs, threads, reuse, keep);
    if (!makeJobTraces(dir, ranks, events, reuse))
        return 1;
    const QStringList traces = traceFiles(dir, ranks);
    std::vector<std::string> traceNames;
    std::uint64_t onDisk = 0;
    for (const QString& t : traces) {
        traceNames.push_back(t.toStdString());
        onDisk += std::filesystem::file_size(traceNames.back());
    }
    std::printf("on disk: %.0f MB\n", double(onDisk) / 1e6);

    // 1. Summaries from the traces against the raw scan, alternating.
    std::vector<double> summarise, scan, ratio, summariseCpu, scanCpu, cpuRatio;
    std::uint64_t summarisePeak = 0, scanPeak = 0;
    Job job;
    for (int i = 0; i < runs; ++i) {
        job = Job{};
        bench::resetPeakResident();
        auto t0 = Clock::now();
        double c0 = bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        job = openJob(traces, benchLoader(), KernelClassTable::defaults(), threads);
        summarise.push_back(since(t0));
        summariseCpu.push_back(bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c0);
        summarisePeak = std::max(summarisePeak, bench::peakResidentBytes());
        bench::resetPeakResident();
        t0 = Clock::now();
        c0 = bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        const ScanTotals s = rawScan(traceNames, threads);
        scan.push_back(since(t0));
        scanCpu.push_back(bench::cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c0);
        cpuRatio.push_back(summariseCpu.back() / scanCpu.back());
        scanPeak = std::max(scanPeak, bench::peakResidentBytes());
        ratio.push_back(summarise.back() / scan.back());
        std::printf("round %d: summaries %.2f s (%.1f s CPU; %zu ranks, %zu warnings), raw scan "
                    "%.2f s (%.1f s CPU; %llu events, %llu GPU operations%s), %.2f x (CPU "
                    "%.2f x)\n",
                    i + 1, summarise.back(), summariseCpu.back(), job.ranks.size(),
                    std::size_t(job.warnings.size()), scan.back(), scanCpu.back(),
                    static_cast<unsigned long long>(s.events),
                    static_cast<unsigned long long>(s.gpuOps), s.ok ? "" : ", FAILED", ratio.back(),
                    cpuRatio.back());
        std::fflush(stdout);
    }
    std::printf("every rank's summary: median %.2f s (%.1f s CPU); raw scan median %.2f s (%.1f s "
                "CPU); ratio median %.2f x, CPU %.2f x (target <= 1.2 x)\n",
                bench::median(summarise), bench::median(summariseCpu), bench::median(scan),
                bench::median(scanCpu), bench::median(ratio), bench::median(cpuRatio));
    std::printf("peak RSS (VmHWM) while summarising on %d threads: %.0f MiB; raw scan: %.0f MiB\n",
                threads, mib(summarisePeak), mib(scanPeak));
    if (job.ranks.size() != ranks) {
        std::fprintf(stderr, "bench_job: %zu of %u ranks summarised\n", job.ranks.size(), ranks);
        return 1;
    }

    // 2. The gathered summaries reopened.
    std::uint64_t bytes = 0;
    const QStringList summaries = writeSummaries(job, dir + "/summaries", 1, &bytes);
    if (summaries.isEmpty())
        return 1;
    std::printf("\n%u summaries: %.1f MB\n", ranks, double(bytes) / 1e6);
    timeReopen("reopened from the summaries (target: 2 s)", summaries, runs, threads);

    // 3. M summaries of the same size, by renumbering.
    const std::uint32_t copies = std::max<std::uint32_t>(1, bigRanks / ranks);
    const QStringList big =
        writeSummaries(job, dir + "/summaries-" + std::to_string(copies * ranks), copies, &bytes);
    if (big.isEmpty())
        return 1;
    job = Job{};
    std::printf("\n%u summaries renumbered from these: %.1f MB\n", copies * ranks,
                double(bytes) / 1e6);
    timeReopen("reopened (target: 2 s)", big, runs, threads);

    // 4. M summaries of a small job.
    if (smallEvents > 0) {
        const std::string smallDir = dir + "/small";
        if (!makeJobTraces(smallDir, ranks, smallEvents, reuse))
            return 1;
        const Job small = openJob(traceFiles(smallDir, ranks), benchLoader(),
                                  KernelClassTable::defaults(), threads);
        const QStringList smallBig = writeSummaries(
            small, smallDir + "/summaries-" + std::to_string(copies * ranks), copies, &bytes);
        if (smallBig.isEmpty())
            return 1;
        std::printf("\n%u summaries of %llu-event ranks: %.1f MB\n", copies * ranks,
                    static_cast<unsigned long long>(smallEvents), double(bytes) / 1e6);
        timeReopen("reopened (target: 2 s)", smallBig, runs, threads);
    }

    printLoad("at the end");
    if (!keep)
        std::filesystem::remove_all(dir);
    return 0;
}
