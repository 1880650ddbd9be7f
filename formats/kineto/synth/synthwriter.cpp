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
    , m_out(std::make_unique<Output>(path, gzip)) {}

SynthWriter::~SynthWriter() = default;

bool SynthWriter::ok() const {
    return m_out->ok();
}

bool SynthWriter::close() {
    m_st.bytes = m_out->written();
    return m_out->close();
}

std::string& SynthWriter::b() {
    return m_out->buf();
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
    appendUs(b(), dur);
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
                          std::int64_t sequence) {
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
    b() += R"(, "queued": 0, "device": 0, "context": 1, "stream": )";
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
    complete("kernel", k.name, 0, streamId, start, dur);
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
    flow("f", corr, 0, streamId, start);
    m_gpuFree[std::size_t(stream)] = start + dur;
}

void SynthWriter::memcpy(std::int64_t tid, std::int64_t& t, bool toDevice, std::int64_t bytes) {
    const std::int64_t external = innermost(tid);
    const std::int64_t start = gpuStart(t, Stream::Compute);
    const std::int64_t dur = 1200 + bytes / 20; // 20 GB/s
    // To pageable host memory the call returns once the copy is done.
    const std::int64_t corr =
        runtimeCall(tid, t, "cudaMemcpyAsync", toDevice ? 0 : start + dur + 2000);
    const std::int64_t streamId = kStreamIds[0];
    complete("gpu_memcpy",
             toDevice ? "Memcpy HtoD (Pinned -> Device)" : "Memcpy DtoH (Device -> Pageable)", 0,
             streamId, start, dur);
    gpuArgs(external, streamId, corr);
    b() += R"(, "bytes": )";
    appendInt(b(), bytes);
    b() += "}}";
    ++m_st.memcpys;
    flow("f", corr, 0, streamId, start);
    m_gpuFree[0] = start + dur;
}

void SynthWriter::memset(std::int64_t tid, std::int64_t& t, std::int64_t bytes) {
    const std::int64_t external = innermost(tid);
    const std::int64_t start = gpuStart(t, Stream::Compute);
    const std::int64_t dur = 1200 + bytes / 40;
    const std::int64_t corr = runtimeCall(tid, t, "cudaMemsetAsync");
    const std::int64_t streamId = kStreamIds[0];
    complete("gpu_memset", "Memset (Device)", 0, streamId, start, dur);
    gpuArgs(external, streamId, corr);
    b() += R"(, "bytes": )";
    appendInt(b(), bytes);
    b() += "}}";
    ++m_st.memsets;
    flow("f", corr, 0, streamId, start);
    m_gpuFree[0] = start + dur;
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
    complete("cuda_sync", "Device Synchronize", 0, kStreamIds[0], std::max(drain, t), 2000);
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
          {0, 0, "process_name", "python3.10"}}) {
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

void SynthWriter::footer() {
    b() += "\n  ],\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": "
           "1711964646000000000\n}\n";
}

} // namespace strobe::kinetosynth
