// SPDX-License-Identifier: MIT
#include "formats/kineto/synth/kinetosynth.h"

#include "formats/kineto/synth/synthwriter.h"
#include "formats/kineto/synth/trainingloop.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>

namespace strobe::kinetosynth {

bool writeKinetoTrace(const std::string& path, const KinetoSynthOptions& options,
                      std::string* error, KinetoSynthStats* stats) {
    // Written beside the target and renamed at the end: the file appears only when complete.
    const std::string part = path + ".part";
    SynthWriter w(part, path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0, options);
    if (!w.ok()) {
        if (error)
            *error = "cannot create " + path;
        return false;
    }
    w.header();
    TrainingLoop loop(w);
    loop.run(4458676000000000 + options.clockOffsetNs); // monotonic ns, as current PyTorch writes
    w.footer();
    if (!w.close() || std::rename(part.c_str(), path.c_str()) != 0) {
        std::remove(part.c_str());
        if (error)
            *error = "cannot write " + path + " (disk full?)";
        return false;
    }
    if (stats)
        *stats = w.stats();
    return true;
}

std::string jobFileName(std::uint32_t rank, bool gzip) {
    return "rank-" + std::to_string(rank) + (gzip ? ".json.gz" : ".json");
}

std::int64_t jobTransferNs(std::int64_t bytes, std::uint32_t worldSize) {
    const std::int64_t n = std::max<std::int64_t>(worldSize, 1);
    return 20000 + 2 * (n - 1) * bytes / (100 * n);
}

bool writeKinetoJob(const std::string& dir, const KinetoJobOptions& options, std::string* error,
                    KinetoJobStats* stats) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(fs::path(dir), ec);
    if (ec || !fs::is_directory(fs::path(dir), ec)) {
        if (error)
            *error = "cannot create the folder " + dir;
        return false;
    }
    std::vector<KinetoSynthStats> perRank(options.ranks);
    std::vector<std::string> errors(options.ranks);
    std::atomic<std::uint32_t> next{0};
    std::atomic<bool> failed{false};
    // Each rank's file depends on the options only, so any number of them can be written at once
    // and the bytes stay the same.
    auto work = [&] {
        for (std::uint32_t r = next++; r < options.ranks && !failed; r = next++) {
            KinetoSynthOptions o;
            o.events = options.events;
            o.seed = options.seed;
            o.rank = r;
            o.worldSize = options.ranks;
            o.job = true;
            o.straggler = options.straggler;
            o.delayNs = options.delayNs;
            o.clockOffsetNs = std::int64_t(r) * options.clockSkewNs;
            const std::string path = (fs::path(dir) / jobFileName(r, options.gzip)).string();
            if (!writeKinetoTrace(path, o, &errors[r], &perRank[r]))
                failed = true;
        }
    };
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const unsigned threads = std::min(options.threads ? options.threads : hardware, options.ranks);
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(work);
    work();
    for (std::thread& th : pool)
        th.join();
    if (failed) {
        if (error)
            *error = *std::find_if(errors.begin(), errors.end(),
                                   [](const std::string& e) { return !e.empty(); });
        return false;
    }
    if (stats) {
        stats->fileBytes = 0;
        for (std::uint32_t r = 0; r < options.ranks; ++r) {
            const auto size = fs::file_size(fs::path(dir) / jobFileName(r, options.gzip), ec);
            stats->fileBytes += ec ? 0 : size;
        }
        stats->ranks = std::move(perRank);
    }
    return true;
}

} // namespace strobe::kinetosynth
