// SPDX-License-Identifier: MIT
#include "formats/kineto/synth/synthwriter.h"

#include <charconv>
#include <cstdio>
#include <tuple>
#include <zlib.h>

namespace strobe::kinetosynth {

namespace {

void appendInt(std::string& s, std::int64_t v) {
    char tmp[24];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    s.append(tmp, r.ptr);
}

// Nanoseconds as Kineto writes them: microseconds with three decimals.
void appendUs(std::string& s, std::int64_t ns) {
    appendInt(s, ns / 1000);
    const int frac = int(ns % 1000);
    s += '.';
    s += char('0' + frac / 100);
    s += char('0' + frac / 10 % 10);
    s += char('0' + frac % 10);
}

constexpr std::int64_t kStreamIds[] = {7, 20}; // by Stream

constexpr std::uint32_t kGpusPerHost = 8; // a job's rank r runs on GPU r % 8 of its host

constexpr const char* kA100 =
    R"(, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85100068864, "computeMajor": 8, )"
    R"("computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, )"
    R"("regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 108, )"
    R"("regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 166912, )"
    R"("sharedMemPerMultiprocessor": 167936})";

} // namespace

// The file, plain or gzip, written from a buffer flushed every few MB.
class SynthWriter::Output {
public:
    Output(const std::string& path, bool gz)
        : m_gz(gz) {
        if (m_gz)
            m_z = gzopen(path.c_str(), "wb6");
        else
            m_f = std::fopen(path.c_str(), "wb");
        m_buf.reserve(kFlush + 4096);
    }
    ~Output() { close(); }
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;
    bool ok() const { return (m_gz ? m_z != nullptr : m_f != nullptr) && !m_failed; }
    std::string& buf() { return m_buf; }
    void maybeFlush() {
        if (m_buf.size() >= kFlush)
            flush();
    }
    bool close() {
        flush();
        bool good = !m_failed;
        if (m_z)
            good = gzclose(m_z) == Z_OK && good;
        if (m_f)
            good = std::fclose(m_f) == 0 && good;
        m_z = nullptr;
        m_f = nullptr;
        return good;
    }
    std::uint64_t written() const { return m_written + m_buf.size(); }

private:
    static constexpr std::size_t kFlush = 4 << 20;
    void flush() {
        if (m_buf.empty() || !ok())
            return;
        m_written += m_buf.size();
        if (m_gz)
            m_failed = gzwrite(m_z, m_buf.data(), unsigned(m_buf.size())) != int(m_buf.size());
        else
            m_failed = std::fwrite(m_buf.data(), 1, m_buf.size(), m_f) != m_buf.size();
        m_buf.clear();
    }
    bool m_gz = false, m_failed = false;
    gzFile m_z = nullptr;
    std::FILE* m_f = nullptr;
    std::string m_buf;
    std::uint64_t m_written = 0;
};

SynthWriter::SynthWriter(const std::string& path, bool gzip, const KinetoSynthOptions& options)
    : m_o(options)
    , m_rng{options.seed * 0x2545F4914F6CDD1Dull + 1}
    , m_out(std::make_unique<Output>(path, gzip))
    , m_device(options.job ? std::int64_t(options.rank % kGpusPerHost) : 0) {}

SynthWriter::~SynthWriter() = default;

bool SynthWriter::ok() const {
    return m_out->ok();
}

bool SynthWriter::close() {
    m_st.bytes = m_out->written();
    return m_out->close();
}

std::string& SynthWriter::b() {
    return m_holding ? m_held : m_out->buf();
}

void SynthWriter::hold() {
    if (!m_o.job)
        return;
    release();
    m_holding = true;
}

void SynthWriter::release() {
    m_holding = false;
    if (m_held.empty())
        return;
    m_out->buf() += m_held;
    m_held.clear();
}

void SynthWriter::lengthenHeld(std::int64_t by) {
    std::string dur;
    appendUs(dur, m_heldDur + by);
    m_held.replace(m_heldDurAt, m_heldDurLen, dur);
    m_heldDur += by;
    m_gpuFree[std::size_t(Stream::Compute)] += by; // the held operation is the stream's last
}

void SynthWriter::begin(const char* ph, const char* cat, std::string_view name, std::int64_t pid,
                        std::int64_t tid, std::int64_t ts) {
    m_out->maybeFlush();
    std::string& s = b();
    s += m_first ? "\n" : ",\n";
    m_first = false;
    s += R"(  {"ph": ")";
    s += ph;
    s += R"(", "cat": ")";
    s += cat;
    s += R"(", "name": ")";
    s += name;
    s += R"(", "pid": )";
    appendInt(s, pid);
    s += R"(, "tid": )";
    appendInt(s, tid);
    s += R"(, "ts": )";
    appendUs(s, ts);
    ++m_st.events;
}

void SynthWriter::complete(const char* cat, std::string_view name, std::int64_t pid,
                           std::int64_t tid, std::int64_t ts, std::int64_t dur) {
    begin("X", cat, name, pid, tid, ts);
    b() += R"(, "dur": )";
    m_durAt = b().size();
    appendUs(b(), dur);
    m_durLen = b().size() - m_durAt;
}

void SynthWriter::flow(const char* ph, std::int64_t id, std::int64_t pid, std::int64_t tid,
                       std::int64_t ts) {
    begin(ph, "ac2g", "ac2g", pid, tid, ts);
    b() += R"(, "id": )";
    appendInt(b(), id);
    b() += *ph == 'f' ? R"(, "bp": "e"})" : "}";
    ++m_st.flows;
}

std::int64_t SynthWriter::open(std::int64_t tid) {
    m_open.emplace_back(tid, ++m_external);
    return m_external;
}

std::int64_t SynthWriter::innermost(std::int64_t tid) const {
    for (auto it = m_open.rbegin(); it != m_open.rend(); ++it) {
        if (it->first == tid)
            return it->second;
    }
    return 0;
}

void SynthWriter::writeOp(std::int64_t tid, std::int64_t start, std::int64_t end,
                          std::string_view name, std::string_view dims, std::int64_t external,
                          std::int64_t sequence, std::string_view args) {
    complete("cpu_op", name, kPid, tid, start, end - start);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), external);
    if (!dims.empty()) {
        b() += R"(, "Input Dims": )";
        b() += dims;
    }
    if (sequence >= 0) {
        b() += R"(, "Sequence number": )";
        appendInt(b(), sequence);
        b() += R"(, "Fwd thread id": )";
        b() += tid == kMainTid ? "0" : "1";
    }
    if (!args.empty()) {
        b() += ", ";
        b() += args;
    }
    b() += "}}";
    ++m_st.cpuOps;
}

void SynthWriter::writeAnnotation(std::int64_t tid, std::int64_t start, std::int64_t end,
                                  std::string_view name, std::int64_t external) {
    complete("user_annotation", name, kPid, tid, start, end - start);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), external);
    b() += "}}";
    ++m_st.annotations;
}

void SynthWriter::writePython(std::int64_t tid, std::int64_t start, std::int64_t end,
                              std::string_view name) {
    complete("python_function", name, kPid, tid, start, end - start);
    b() += R"(, "args": {"Python id": )";
    appendInt(b(), ++m_python);
    b() += "}}";
    ++m_st.pythonFunctions;
}

std::int64_t SynthWriter::runtimeCall(std::int64_t tid, std::int64_t& t, const char* api,
                                      std::int64_t minEnd) {
    const std::int64_t corr = ++m_correlation;
    const std::int64_t dur = std::max(m_rng.around(3000, 6000), minEnd - t);
    complete("cuda_runtime", api, kPid, tid, t, dur);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), innermost(tid));
    b() += R"(, "cbid": 211, "correlation": )";
    appendInt(b(), corr);
    b() += "}}";
    ++m_st.runtimeCalls;
    flow("s", corr, kPid, tid, t);
    t += dur + m_rng.around(200, 400);
    return corr;
}

std::int64_t SynthWriter::gpuStart(std::int64_t t, Stream s) {
    const std::int64_t ready = t + m_rng.around(4000, 3000);
    // Communication waits for the gradients the compute stream is still producing.
    const std::int64_t free = s == Stream::Nccl ? gpuIdleAt() : m_gpuFree[std::size_t(s)];
    return std::max(ready, free);
}

void SynthWriter::gpuArgs(std::int64_t external, std::int64_t streamId, std::int64_t correlation) {
    b() += R"(, "args": {"External id": )";
    appendInt(b(), external);
    b() += R"(, "queued": 0, "device": )";
    appendInt(b(), m_device);
    b() += R"(, "context": 1, "stream": )";
    appendInt(b(), streamId);
    b() += R"(, "correlation": )";
    appendInt(b(), correlation);
}

void SynthWriter::kernel(std::int64_t tid, std::int64_t& t, const KernelKind& k, double scale,
                         Stream stream) {
    const std::int64_t external = innermost(tid);
    const std::int64_t start = gpuStart(t, stream);
    const auto mean = std::int64_t(double(k.meanNs) * scale);
    const std::int64_t dur = std::max<std::int64_t>(1000, mean / 2 + m_rng.around(0, mean + 1));
    const std::int64_t corr = runtimeCall(tid, t, "cudaLaunchKernel");
    const std::int64_t streamId = kStreamIds[std::size_t(stream)];
    if (stream == Stream::Compute)
        hold();
    complete("kernel", k.name, m_device, streamId, start, dur);
    gpuArgs(external, streamId, corr);
    b() += R"(, "registers per thread": )";
    appendInt(b(), k.registers);
    b() += R"(, "shared memory": )";
    appendInt(b(), k.shared);
    b() += R"(, "blocks per SM": 4.740741, "warps per SM": 75.851852, "grid": [)";
    for (int d = 0; d < 3; ++d) {
        appendInt(b(), k.grid[std::size_t(d)]);
        b() += d < 2 ? ", " : "], \"block\": [";
    }
    for (int d = 0; d < 3; ++d) {
        appendInt(b(), k.block[std::size_t(d)]);
        b() += d < 2 ? ", " : "], \"est. achieved occupancy %\": 73}}";
    }
    ++m_st.kernels;
    flow("f", corr, m_device, streamId, start);
    m_gpuFree[std::size_t(stream)] = start + dur;
    endHold(dur);
}

void SynthWriter::memcpy(std::int64_t tid, std::int64_t& t, bool toDevice, std::int64_t bytes) {
    const std::int64_t external = innermost(tid);
    const std::int64_t start = gpuStart(t, Stream::Compute);
    const std::int64_t dur = 1200 + bytes / 20; // 20 GB/s
    // To pageable host memory the call returns once the copy is done.
    const std::int64_t corr =
        runtimeCall(tid, t, "cudaMemcpyAsync", toDevice ? 0 : start + dur + 2000);
    const std::int64_t streamId = kStreamIds[0];
    hold();
    complete("gpu_memcpy",
             toDevice ? "Memcpy HtoD (Pinned -> Device)" : "Memcpy DtoH (Device -> Pageable)",
             m_device, streamId, start, dur);
    gpuArgs(external, streamId, corr);
    b() += R"(, "bytes": )";
    appendInt(b(), bytes);
    b() += "}}";
    ++m_st.memcpys;
    flow("f", corr, m_device, streamId, start);
    m_gpuFree[0] = start + dur;
    endHold(dur);
}

void SynthWriter::memset(std::int64_t tid, std::int64_t& t, std::int64_t bytes) {
    const std::int64_t external = innermost(tid);
    const std::int64_t start = gpuStart(t, Stream::Compute);
    const std::int64_t dur = 1200 + bytes / 40;
    const std::int64_t corr = runtimeCall(tid, t, "cudaMemsetAsync");
    const std::int64_t streamId = kStreamIds[0];
    hold();
    complete("gpu_memset", "Memset (Device)", m_device, streamId, start, dur);
    gpuArgs(external, streamId, corr);
    b() += R"(, "bytes": )";
    appendInt(b(), bytes);
    b() += "}}";
    ++m_st.memsets;
    flow("f", corr, m_device, streamId, start);
    m_gpuFree[0] = start + dur;
    endHold(dur);
}

void SynthWriter::endHold(std::int64_t dur) {
    if (!m_holding)
        return;
    m_holding = false;
    m_heldDurAt = m_durAt;
    m_heldDurLen = m_durLen;
    m_heldDur = dur;
}

void SynthWriter::deviceSynchronize(std::int64_t tid, std::int64_t& t) {
    const std::int64_t drain = gpuIdleAt();
    const std::int64_t dur = std::max<std::int64_t>(drain - t, 0) + 3000;
    complete("cuda_runtime", "cudaDeviceSynchronize", kPid, tid, t, dur);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), innermost(tid));
    b() += R"(, "cbid": 165, "correlation": )";
    appendInt(b(), ++m_correlation);
    b() += "}}";
    ++m_st.runtimeCalls;
    complete("cuda_sync", "Device Synchronize", m_device, kStreamIds[0], std::max(drain, t), 2000);
    b() += R"(, "args": {"device": 0, "context": 1, "stream": -1, "correlation": )";
    appendInt(b(), m_correlation);
    b() += "}}";
    ++m_st.syncs;
    t += dur + 1000;
}

void SynthWriter::metadata() {
    for (const auto& [pid, tid, kind, value] :
         {std::tuple<std::int64_t, std::int64_t, const char*, const char*>{kPid, 0, "process_name",
                                                                           "python3.10"},
          {kPid, kMainTid, "thread_name", "thread 3141592 (pt_main_thread)"},
          {kPid, kAutogradTid, "thread_name", "thread 3141650 (pt_autograd_0)"},
          {m_device, 0, "process_name", "python3.10"}}) {
        std::string& s = b();
        s += m_first ? "\n" : ",\n";
        m_first = false;
        s += R"(  {"name": ")";
        s += kind;
        s += R"(", "ph": "M", "ts": 4458676000000.000, "pid": )";
        appendInt(s, pid);
        s += R"(, "tid": )";
        appendInt(s, tid);
        s += R"(, "args": {"name": ")";
        s += value;
        s += "\"}}";
        ++m_st.events;
    }
}

void SynthWriter::header() {
    if (m_o.job) {
        jobHeader();
        return;
    }
    std::string& s = b();
    s += R"({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85100068864, "computeMajor": 8, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 108, "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 166912, "sharedMemPerMultiprocessor": 167936}
  ],
  "distributedInfo": {"backend": "nccl", "rank": )";
    appendInt(s, m_o.rank);
    s += R"(, "world_size": )";
    appendInt(s, m_o.worldSize);
    s += R"(},
  "traceEvents": [)";
    metadata();
}

// What a rank of a job writes first: every GPU of its host and the default process group.
void SynthWriter::jobHeader() {
    std::string& s = b();
    s += "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [";
    const std::uint32_t gpus = std::min(m_o.worldSize, kGpusPerHost);
    for (std::uint32_t id = 0; id < std::max(gpus, 1u); ++id) {
        s += id ? ",\n    {\"id\": " : "\n    {\"id\": ";
        appendInt(s, id);
        s += kA100;
    }
    s += R"(
  ],
  "distributedInfo": {"backend": "nccl", "rank": )";
    appendInt(s, m_o.rank);
    s += R"(, "world_size": )";
    appendInt(s, m_o.worldSize);
    s += R"(, "pg_count": 1, "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", )"
         R"("backend_config": "cuda:nccl", "pg_size": )";
    appendInt(s, m_o.worldSize);
    s += R"(, "ranks": [)";
    for (std::uint32_t r = 0; r < m_o.worldSize; ++r) {
        if (r)
            s += ", ";
        appendInt(s, r);
    }
    s += R"(]}], "nccl_version": "2.21.5"},
  "traceEvents": [)";
    metadata();
}

std::string SynthWriter::commArgs(std::int64_t bytes) const {
    std::string s = R"("Collective name": "allreduce", "dtype": "Float", "In msg nelems": )";
    appendInt(s, bytes / 4);
    s += R"(, "Out msg nelems": )";
    appendInt(s, bytes / 4);
    s += R"(, "Group size": )";
    appendInt(s, m_o.worldSize);
    s += R"(, "In split size": "[]", "Out split size": "[]", "Process Group Name": "0", )"
         R"("Process Group Description": "default_pg")";
    return s;
}

void SynthWriter::collective(std::int64_t tid, std::int64_t& t, const KernelKind& k,
                             std::int64_t bytes) {
    const std::int64_t external = innermost(tid);
    // Every rank draws the same times and meets the others at each collective, so this arrival
    // is every rank's but the straggler's, which comes `delayNs` after it.
    const std::int64_t arrival = gpuStart(t, Stream::Nccl);
    const bool delayed = m_o.straggler && m_o.delayNs > 0;
    const std::int64_t lastArrival = arrival + (delayed ? m_o.delayNs : 0);
    const bool late = delayed && *m_o.straggler == m_o.rank;
    if (late && !m_held.empty())
        lengthenHeld(lastArrival - m_gpuFree[std::size_t(Stream::Compute)]);
    release();
    const std::int64_t start = late ? lastArrival : arrival;
    const std::int64_t end = lastArrival + jobTransferNs(bytes, m_o.worldSize);
    const std::int64_t corr = runtimeCall(tid, t, "cudaLaunchKernel");
    const std::int64_t streamId = kStreamIds[std::size_t(Stream::Nccl)];
    complete("kernel", k.name, m_device, streamId, start, end - start);
    gpuArgs(external, streamId, corr);
    b() += R"(, "registers per thread": )";
    appendInt(b(), k.registers);
    b() += R"(, "shared memory": )";
    appendInt(b(), k.shared);
    b() += R"(, "blocks per SM": 0.074074, "warps per SM": 1.185185, "grid": [)";
    for (int d = 0; d < 3; ++d) {
        appendInt(b(), k.grid[std::size_t(d)]);
        b() += d < 2 ? ", " : "], \"block\": [";
    }
    for (int d = 0; d < 3; ++d) {
        appendInt(b(), k.block[std::size_t(d)]);
        b() += d < 2 ? ", " : "], \"est. achieved occupancy %\": 0, ";
    }
    b() += commArgs(bytes);
    b() += "}}";
    ++m_st.kernels;
    ++m_st.collectives;
    flow("f", corr, m_device, streamId, start);
    m_gpuFree[std::size_t(Stream::Nccl)] = end;
    // The compute stream waits for the reduced gradients: the ranks meet here.
    auto& compute = m_gpuFree[std::size_t(Stream::Compute)];
    compute = std::max(compute, end);
    const std::int64_t dur = m_rng.around(2000, 2000);
    complete("cuda_runtime", "cudaStreamWaitEvent", kPid, tid, t, dur);
    b() += R"(, "args": {"External id": )";
    appendInt(b(), innermost(tid));
    b() += R"(, "cbid": 147, "correlation": )";
    appendInt(b(), ++m_correlation);
    b() += "}}";
    ++m_st.runtimeCalls;
    t += dur + m_rng.around(200, 400);
}

void SynthWriter::footer() {
    release();
    b() += "\n  ],\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": "
           "1711964646000000000\n}\n";
}

} // namespace strobe::kinetosynth
